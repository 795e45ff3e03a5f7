//! The `check` and `fmt` commands as users run them: exit codes, output
//! formats, selection, stdin, diffs that `git apply` takes.

use crate::support;

use std::path::Path;
use std::process::{Command, Stdio};

use support::{run_in, urldb};

fn db_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, text) in files {
        let path = dir.path().join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("mkdir");
        }
        std::fs::write(path, text).expect("write");
    }
    dir
}

const CLEAN: &str = "---\nhttps: true\n---\n_path: /\ncontent-type: text/html\n";
const ESCAPE: &str = "---\n---\n_path: /caf%c3%a9\ncontent-type: text/html\n";
const UNSORTED: &str =
    "---\n---\n_path: /b\ncontent-type: text/html\n---\n_path: /a\ncontent-type: text/html\n";

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn example_database_is_clean_and_canonical() {
    let db = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/database");
    let check = run_in(&db, &["check"]);
    assert_eq!(check.status.code(), Some(0), "{}", stdout(&check));
    let fmt = run_in(&db, &["fmt", "--check"]);
    assert_eq!(fmt.status.code(), Some(0), "{}", stdout(&fmt));
}

#[test]
fn exit_codes() {
    let clean = db_with(&[("example.com.yaml", CLEAN)]);
    assert_eq!(run_in(clean.path(), &["check"]).status.code(), Some(0));
    let dirty = db_with(&[("example.com.yaml", ESCAPE)]);
    assert_eq!(run_in(dirty.path(), &["check"]).status.code(), Some(1));
    assert_eq!(
        run_in(dirty.path(), &["check", "--exit-zero"])
            .status
            .code(),
        Some(0)
    );
    // A warning fails the run too. (Without urldb.toml a `.yml` file is
    // no domain file: docs/files.md, rule 5.)
    let warn = db_with(&[("example.com.yml", CLEAN), ("urldb.toml", "")]);
    assert_eq!(run_in(warn.path(), &["check"]).status.code(), Some(1));
    // Usage and configuration errors are 2.
    assert_eq!(
        run_in(clean.path(), &["check", "--select", "no-such-rule"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        run_in(clean.path(), &["check", "--bogus"]).status.code(),
        Some(2)
    );
    assert_eq!(
        run_in(clean.path(), &["check", "missing.yaml"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        run_in(clean.path(), &["--db", "nowhere", "check"])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn json_output_has_positions_and_fixability() {
    let dir = db_with(&[("example.com.yaml", ESCAPE)]);
    let out = run_in(dir.path(), &["check", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let first = &json[0];
    assert_eq!(first["path"], "example.com.yaml");
    assert_eq!(first["code"], "path-escape-case");
    assert_eq!(first["severity"], "error");
    assert_eq!(first["line"], 3);
    assert_eq!(first["column"], 12);
    assert_eq!(first["end_line"], 3);
    assert_eq!(first["end_column"], 15);
    assert_eq!(first["fixable"], true);
    assert!(first["message"].as_str().is_some_and(|m| m.contains("%c3")));
}

#[test]
fn format_from_environment() {
    let dir = db_with(&[("example.com.yaml", ESCAPE)]);
    let out = urldb()
        .current_dir(dir.path())
        .args(["check"])
        .env("URLDB_FORMAT", "concise")
        .output()
        .expect("run");
    assert_eq!(
        stdout(&out).lines().next(),
        Some(
            "example.com.yaml:3:12: error path-escape-case [*] percent-escape `%c3` has lowercase hex digits"
        )
    );
}

#[test]
fn select_ignore_and_statistics() {
    let dir = db_with(&[("example.com.yaml", ESCAPE), ("b.com.yaml", UNSORTED)]);
    let ignored = run_in(
        dir.path(),
        &["check", "--ignore", "path-escape-case,unsorted-records"],
    );
    assert_eq!(ignored.status.code(), Some(0), "{}", stdout(&ignored));
    let selected = run_in(
        dir.path(),
        &[
            "check",
            "--select",
            "unsorted-records",
            "--format",
            "concise",
        ],
    );
    let text = stdout(&selected);
    assert!(
        text.contains("unsorted-records") && !text.contains("path-escape-case"),
        "{text}"
    );
    let stats = run_in(
        dir.path(),
        &["check", "--statistics", "--format", "concise"],
    );
    let text = stdout(&stats);
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("2  path-escape-case")),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("1  unsorted-records")),
        "{text}"
    );
    // As ruff: the table alone; the findings too with --show-findings.
    assert!(!text.contains("example.com.yaml:3:12"), "{text}");
    let both = stdout(&run_in(
        dir.path(),
        &[
            "check",
            "--statistics",
            "--show-findings",
            "--format",
            "concise",
        ],
    ));
    assert!(
        both.contains("example.com.yaml:3:12: error path-escape-case")
            && both.contains("2  path-escape-case"),
        "{both}"
    );
    assert_eq!(
        run_in(dir.path(), &["check", "--show-findings"])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn fix_repairs_and_reports_what_is_left() {
    let dir = db_with(&[("example.com.yaml", ESCAPE), ("b.com.yaml", UNSORTED)]);
    let out = run_in(dir.path(), &["check", "--fix"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("Fixed 3 findings."),
        "{}",
        stdout(&out)
    );
    let text = std::fs::read_to_string(dir.path().join("example.com.yaml")).expect("read");
    assert_eq!(
        text,
        "---\n---\n_path: /caf%C3%A9\ncontent-type: text/html\n"
    );
}

#[test]
fn check_diff_shows_the_fix_and_writes_nothing() {
    let dir = db_with(&[("example.com.yaml", ESCAPE)]);
    let out = run_in(dir.path(), &["check", "--diff"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("-_path: /caf%c3%a9\n+_path: /caf%C3%A9\n"),
        "{}",
        stdout(&out)
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("example.com.yaml")).expect("read"),
        ESCAPE
    );
}

#[test]
fn stdin_filename() {
    let dir = db_with(&[]);
    let run = |args: &[&str], input: &str| {
        let mut child = urldb()
            .current_dir(dir.path())
            .args(args)
            .env("NO_COLOR", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), input.as_bytes())
            .expect("write");
        child.wait_with_output().expect("wait")
    };
    let out = run(
        &[
            "check",
            "--stdin-filename",
            "example.com.yaml",
            "--format",
            "concise",
        ],
        ESCAPE,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).starts_with("example.com.yaml:3:12:"),
        "{}",
        stdout(&out)
    );
    let out = run(&["fmt", "--stdin-filename", "example.com.yaml"], UNSORTED);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stdout(&out),
        "---\n---\n_path: /a\ncontent-type: text/html\n---\n_path: /b\ncontent-type: text/html\n"
    );
    // The domain comes from the name given.
    let out = run(
        &[
            "check",
            "--stdin-filename",
            "Bad_Name.example.yaml",
            "--format",
            "concise",
        ],
        CLEAN,
    );
    assert!(
        stdout(&out).contains("invalid-domain-name"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn fmt_rewrites_layout_only_and_check_mode_writes_nothing() {
    let messy = "---\nhttps: yes\n---\ncontent-type: text/html\n_path: \"/b\"\n---\n_path: /a\ncategories: [z, a]\ncontent-type: text/html\n";
    let dir = db_with(&[("example.com.yaml", messy)]);
    let check = run_in(dir.path(), &["fmt", "--check"]);
    assert_eq!(check.status.code(), Some(1));
    assert!(stdout(&check).contains("Would reformat: example.com.yaml"));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("example.com.yaml")).expect("read"),
        messy
    );
    let out = run_in(dir.path(), &["fmt"]);
    assert_eq!(out.status.code(), Some(0));
    // `yes` stays `yes`: a value's spelling is check --fix's business.
    assert_eq!(
        std::fs::read_to_string(dir.path().join("example.com.yaml")).expect("read"),
        "---\nhttps: yes\n---\n_path: /a\ncategories:\n- a\n- z\ncontent-type: text/html\n---\n_path: /b\ncontent-type: text/html\n"
    );
    assert_eq!(
        run_in(dir.path(), &["fmt", "--check"]).status.code(),
        Some(0)
    );
}

#[test]
fn fmt_diff_applies_with_git_apply() {
    let dir = db_with(&[
        ("example.com.yaml", UNSORTED),
        (
            "sub/b.org.yaml",
            "---\n---\n_path: '/x'\ncontent-type: text/html",
        ),
    ]);
    let git = |args: &[&str]| {
        Command::new("git")
            .current_dir(dir.path())
            .args(args)
            .output()
            .expect("git")
    };
    git(&["init", "-q"]);
    let diff = run_in(dir.path(), &["fmt", "--diff"]);
    assert_eq!(diff.status.code(), Some(1));
    std::fs::write(dir.path().join("fmt.patch"), &diff.stdout).expect("write patch");
    let apply = git(&["apply", "fmt.patch"]);
    assert!(
        apply.status.success(),
        "git apply: {}\n{}",
        String::from_utf8_lossy(&apply.stderr),
        stdout(&diff)
    );
    std::fs::remove_file(dir.path().join("fmt.patch")).expect("rm");
    let check = run_in(dir.path(), &["fmt", "--check"]);
    assert_eq!(check.status.code(), Some(0), "{}", stdout(&check));
}

#[test]
fn comments_are_kept_by_fmt_unless_dropped() {
    let text = "---\n# main site\n---\n_path: /\ncontent-type: text/html\n";
    let dir = db_with(&[("example.com.yaml", text)]);
    // Canonical with its comment: nothing to do, nothing to report.
    let out = run_in(dir.path(), &["fmt"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(run_in(dir.path(), &["check"]).status.code(), Some(0));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("example.com.yaml")).expect("read"),
        text
    );
    // Selected, the rule reports it (and fmt still keeps it).
    let out = run_in(dir.path(), &["check", "--extend-select", "yaml-comment"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("yaml-comment"), "{}", stdout(&out));
    let out = run_in(dir.path(), &["fmt", "--drop-comments"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("example.com.yaml")).expect("read"),
        "---\n---\n_path: /\ncontent-type: text/html\n"
    );
}

#[test]
fn crlf_files_keep_crlf() {
    let text = "---\r\n---\r\ncontent-type: text/html\r\n_path: /\r\n";
    let dir = db_with(&[("example.com.yaml", text)]);
    assert_eq!(run_in(dir.path(), &["fmt"]).status.code(), Some(0));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("example.com.yaml")).expect("read"),
        "---\r\n---\r\n_path: /\r\ncontent-type: text/html\r\n"
    );
}

#[test]
fn rules_and_rule() {
    let dir = db_with(&[]);
    let list = run_in(dir.path(), &["rules"]);
    assert_eq!(list.status.code(), Some(0));
    // A header, then one line a rule, which says whether it is on by
    // default (issue 49).
    let lines: Vec<String> = stdout(&list).lines().map(String::from).collect();
    assert_eq!(lines.len(), urldb_core::rules::ALL.len() + 1);
    let header: Vec<&str> = lines[0].split_whitespace().collect();
    assert_eq!(header, ["CODE", "SEVERITY", "FIX", "DEFAULT", "SUMMARY"]);
    let comment = lines
        .iter()
        .find(|l| l.starts_with("yaml-comment "))
        .expect("yaml-comment");
    assert!(comment.contains(" pyyaml "), "{comment}");
    let escape = lines
        .iter()
        .find(|l| l.starts_with("path-escape-case "))
        .expect("path-escape-case");
    assert!(escape.contains(" [*]  on "), "{escape}");
    let one = run_in(dir.path(), &["rule", "path-escape-case"]);
    let text = stdout(&one);
    assert!(text.starts_with("# path-escape-case (error)"), "{text}");
    for section in [
        "## What it checks",
        "## Why it matters",
        "## Example",
        "## Fix",
    ] {
        assert!(text.contains(section), "missing {section}");
    }
    let unknown = run_in(dir.path(), &["rule", "path-escape-cas"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("did you mean `path-escape-case`"));
}

#[test]
fn every_rule_documents_itself() {
    let mut codes = std::collections::HashSet::new();
    for rule in urldb_core::rules::ALL {
        assert!(codes.insert(rule.code), "duplicate code {}", rule.code);
        let doc = rule.documentation();
        for section in [
            "## What it checks",
            "## Why it matters",
            "## Example",
            "## Fix",
        ] {
            assert!(
                doc.contains(section),
                "{}: no `{section}` section",
                rule.code
            );
        }
        assert!(
            !doc.contains("TODO"),
            "{}: documentation has a TODO",
            rule.code
        );
        assert!(
            rule.code
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == '-' || c.is_ascii_digit())
        );
    }
}

#[test]
fn init_makes_a_database_that_passes_check() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = run_in(dir.path(), &["init", "db"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let db = dir.path().join("db");
    assert!(db.join("urldb.toml").is_file() && db.join("example.com.yaml").is_file());
    assert_eq!(run_in(&db, &["check"]).status.code(), Some(0));
    assert_eq!(run_in(&db, &["fmt", "--check"]).status.code(), Some(0));
    // The configuration it writes is valid as written, and urldb finds it
    // from below the database too.
    std::fs::create_dir(db.join("sub")).expect("mkdir");
    assert_eq!(run_in(&db.join("sub"), &["check"]).status.code(), Some(0));
    // A second init never overwrites.
    let before = std::fs::read(db.join("urldb.toml")).expect("read");
    let again = run_in(dir.path(), &["init", "db"]);
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("already exists"));
    assert_eq!(std::fs::read(db.join("urldb.toml")).expect("read"), before);
}

#[test]
fn completions_and_man_page() {
    let dir = db_with(&[]);
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = run_in(dir.path(), &["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}");
        let text = stdout(&out);
        assert!(
            text.contains("urldb") && text.contains("stdin-filename"),
            "{shell}: {text}"
        );
    }
    let man = run_in(dir.path(), &["man"]);
    let text = stdout(&man);
    assert!(
        text.contains(".TH urldb 1") && text.contains("check"),
        "{text}"
    );
}

#[test]
fn colors_follow_the_flag_and_no_color() {
    let dir = db_with(&[("example.com.yaml", ESCAPE)]);
    let has_ansi = |out: &std::process::Output| out.stdout.contains(&0x1b);
    let always = urldb()
        .current_dir(dir.path())
        .args(["--color", "always", "check"])
        .output()
        .expect("run");
    assert!(has_ansi(&always));
    let never = urldb()
        .current_dir(dir.path())
        .args(["--color", "never", "check"])
        .output()
        .expect("run");
    assert!(!has_ansi(&never));
    // auto: not a terminal here, so no colors; NO_COLOR also turns them off.
    let auto = urldb()
        .current_dir(dir.path())
        .args(["check"])
        .env_remove("NO_COLOR")
        .output()
        .expect("run");
    assert!(!has_ansi(&auto));
    let quiet = run_in(dir.path(), &["-q", "check"]);
    assert!(
        !stdout(&quiet).contains("Found 2 findings"),
        "-q drops the summary"
    );
    assert!(
        stdout(&quiet).contains("path-escape-case"),
        "-q keeps the findings"
    );
}

#[test]
fn github_annotations_are_escaped() {
    let dir = db_with(&[(
        "example.com.yaml",
        "---\n---\n_path: /a%zz\ncontent-type: text/html\n",
    )]);
    let out = run_in(dir.path(), &["check", "--format", "github"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let line = text.lines().next().expect("one annotation");
    assert!(
        line.starts_with(
            "::error file=example.com.yaml,line=3,col=10,endLine=3,endColumn=13,title=urldb (path-bad-escape)::"
        ),
        "{line}"
    );
    // `%` and the line break before the help are escaped in the message.
    let message = line.split("::").nth(2).expect("message");
    assert!(
        message.contains("`%25zz`") && message.contains("%0Ahelp: "),
        "{message}"
    );
    assert!(!message.contains('\n'));
}

#[test]
fn junit_is_well_formed_xml() {
    let dir = db_with(&[(
        "example.com.yaml",
        "---\n---\n_path: /a<&>%zz\ncontent-type: text/html\n",
    )]);
    let out = run_in(dir.path(), &["check", "--format", "junit"]);
    assert_eq!(out.status.code(), Some(1));
    let xml_path = dir.path().join("report.xml");
    std::fs::write(&xml_path, &out.stdout).expect("write");
    let parse = Command::new(support::python())
        .args([
            "-c",
            "import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); \
             cases = r.findall('.//testcase'); print(r.get('failures'), len(cases), cases[0].find('failure').get('message'))",
        ])
        .arg(&xml_path)
        .output()
        .expect("python3");
    let printed = String::from_utf8_lossy(&parse.stdout);
    assert!(
        parse.status.success(),
        "{}",
        String::from_utf8_lossy(&parse.stderr)
    );
    let mut parts = printed.trim().splitn(3, ' ');
    let failures: usize = parts.next().and_then(|n| n.parse().ok()).expect("failures");
    let cases: usize = parts.next().and_then(|n| n.parse().ok()).expect("cases");
    assert!(failures >= 2 && failures == cases, "{printed}");
    assert!(
        parts
            .next()
            .is_some_and(|m| m.contains('<') || m.contains('%')),
        "{printed}"
    );
}

#[test]
fn cross_file_rules_see_unchecked_and_unparsable_files() {
    let alias = "---\ncnames:\n- www.example.org\n---\n_path: /\ncontent-type: text/html\n";
    let broken = "---\ncnames:\n- www.example.org\n---\n_path: /a\n  content-type: text/html\n";
    let dir = db_with(&[
        ("a.com.yaml", alias),
        ("b.com.yaml", alias),
        ("c.com.yaml", broken),
    ]);
    // Only a.com.yaml is checked; the conflicts come from the other two files,
    // one of them not checked, one of them not even valid YAML after its metadata.
    let out = run_in(dir.path(), &["check", "a.com.yaml", "--format", "concise"]);
    let text = stdout(&out);
    let conflicts: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("cname-conflict"))
        .collect();
    // One finding for the name, naming both other files.
    assert_eq!(conflicts.len(), 1, "{text}");
    assert!(
        conflicts[0].starts_with("a.com.yaml:3:3:")
            && conflicts[0].contains("`b.com.yaml` and `c.com.yaml`"),
        "{text}"
    );
    // Checking c.com.yaml itself: its metadata still counts.
    let out = run_in(dir.path(), &["check", "c.com.yaml", "--format", "concise"]);
    let text = stdout(&out);
    assert!(text.contains("yaml-syntax"), "{text}");
    assert_eq!(
        text.lines()
            .filter(|l| l.contains("cname-conflict") && l.contains("`a.com.yaml` and `b.com.yaml`"))
            .count(),
        1,
        "{text}"
    );
}

/// Every subcommand starts and prints its help (the debug binary runs
/// clap's checks for the command it parses).
#[test]
fn every_subcommand_prints_its_help() {
    let dir = db_with(&[]);
    let help = stdout(&run_in(dir.path(), &["--help"]));
    // The "Commands:" section of the help: one subcommand a line.
    let names: Vec<String> = help
        .split("Commands:")
        .nth(1)
        .unwrap_or("")
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|n| *n != "help")
        .map(String::from)
        .collect();
    assert!(names.len() > 10, "{names:?}");
    for name in names {
        let out = run_in(dir.path(), &[&name, "--help"]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            stdout(&out).contains("Usage: urldb"),
            "{name}: {}",
            stdout(&out)
        );
    }
}

/// `check --fix` converges on a case-insensitive file whose `_path` has a
/// `%` that starts no escape: `/B%a` becomes `/b%a` (the `a` is a letter,
/// not a hex digit of an escape), after which `path-case` has nothing left
/// to fix and only the unfixable `path-bad-escape` remains.
#[test]
fn fix_converges_around_a_percent_that_starts_no_escape() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("h.org.yaml");
    std::fs::write(
        &file,
        "---\ncase-sensitive-paths: false\n---\n_path: \"/B%a\"\ncontent-type: text/html\n",
    )
    .expect("write");
    let first = crate::support::run_in(dir.path(), &["check", "--fix", "-q"]);
    assert_eq!(first.status.code(), Some(1));
    assert!(
        std::fs::read_to_string(&file)
            .expect("read")
            .contains("_path: /b%a\n")
    );
    let after = crate::support::run_in(dir.path(), &["check", "--format", "concise"]);
    let out = String::from_utf8_lossy(&after.stdout);
    assert!(!out.contains("path-case"), "{out}");
    assert!(!out.contains("[*]"), "nothing fixable left: {out}");
    assert!(out.contains("path-bad-escape"), "{out}");
}
