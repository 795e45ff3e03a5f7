//! `docs/coming-from-wwturldb.md`, run: every row of its tables is a urldb
//! command line and the outcome it promises on the page's example
//! database. This test reads the tables and the example files out of the
//! page, runs each row in a fresh copy of the database (with local HTTP
//! servers on 127.0.0.1 standing in for the two domains) and checks the
//! outcome, so the page and urldb cannot drift apart.

use crate::support;

use std::fs;
use std::io::Write;
use std::net::TcpStream;
use std::path::Path;
use std::sync::{Arc, Mutex};

const PAGE: &str = include_str!("../../../docs/coming-from-wwturldb.md");

/// The 17-byte body of `/logo.png` (the page gives its length and digest).
const LOGO: &str = "not really a PNG\n";

/// One row: the urldb arguments and what they must do.
#[derive(Debug)]
struct Row {
    line: usize,
    args: Vec<String>,
    outcome: Outcome,
}

#[derive(Debug)]
enum Outcome {
    /// Exactly these lines on stdout, in order.
    Lists(Vec<String>),
    /// Exactly these `host path` requests reach the servers.
    Fetches(Vec<(String, String)>),
    /// This record (its lines) in this file.
    Writes { file: String, record: Vec<String> },
    /// Exit 2, with each of these texts on stderr.
    Fails(Vec<String>),
}

/// The text of every `` `code` `` span of `cell`.
fn code_spans(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// `http://host/path` as (host, path).
fn host_and_path(url: &str) -> (String, String) {
    let rest = url
        .split_once("://")
        .map_or_else(|| panic!("not a URL: {url}"), |(_, r)| r);
    match rest.find('/') {
        Some(i) => (rest[..i].to_string(), rest[i..].to_string()),
        None => (rest.to_string(), "/".to_string()),
    }
}

/// The rows of every table whose second column is `urldb`.
fn rows(page: &str) -> Vec<Row> {
    let mut rows = Vec::new();
    let mut in_table = false;
    for (i, line) in page.lines().enumerate() {
        let cells: Vec<&str> = line
            .trim()
            .trim_matches('|')
            .split('|')
            .map(str::trim)
            .collect();
        if !line.starts_with('|') {
            in_table = false;
            continue;
        }
        if cells.get(1) == Some(&"urldb") {
            in_table = true;
            continue;
        }
        if !in_table || cells.iter().all(|c| c.chars().all(|ch| ch == '-')) {
            continue;
        }
        assert_eq!(cells.len(), 3, "line {}: {line}", i + 1);
        let command = code_spans(cells[1]);
        assert_eq!(command.len(), 1, "line {}: one command line", i + 1);
        let mut words = command[0].split_whitespace().map(str::to_string);
        assert_eq!(words.next().as_deref(), Some("urldb"), "line {}", i + 1);
        let args: Vec<String> = words.collect();
        let items = code_spans(cells[2]);
        let outcome = match cells[2].split_whitespace().next() {
            Some("lists") => Outcome::Lists(items),
            Some("fetches") => Outcome::Fetches(items.iter().map(|u| host_and_path(u)).collect()),
            Some("writes") => {
                let (file, record) = items
                    .split_first()
                    .unwrap_or_else(|| panic!("line {}: writes what?", i + 1));
                assert!(file.ends_with(".yaml"), "line {}: {file}", i + 1);
                Outcome::Writes {
                    file: file.clone(),
                    record: record.to_vec(),
                }
            }
            Some("fails") => Outcome::Fails(items),
            other => panic!("line {}: unknown outcome {other:?}", i + 1),
        };
        rows.push(Row {
            line: i + 1,
            args,
            outcome,
        });
    }
    rows
}

/// The example files: a line `` `NAME.yaml`: `` and the yaml block after it.
fn example_files(page: &str) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let mut lines = page.lines();
    while let Some(line) = lines.next() {
        let Some(name) = line
            .strip_prefix('`')
            .and_then(|l| l.strip_suffix(".yaml`:"))
        else {
            continue;
        };
        let mut text = String::new();
        let mut inside = false;
        for l in lines.by_ref() {
            match (inside, l) {
                (false, "```yaml") => inside = true,
                (true, "```") => break,
                (true, l) => {
                    text.push_str(l);
                    text.push('\n');
                }
                _ => {}
            }
        }
        files.push((format!("{name}.yaml"), text));
    }
    files
}

/// What the stand-in servers answer for `path`.
fn respond(mut stream: TcpStream, path: &str) {
    let (status, headers, body) = match path {
        "/" | "/about.html" | "/new.html" | "/old.html" => {
            ("200 OK", "Content-Type: text/html\r\n", "<html></html>")
        }
        "/api/v1/status" => ("200 OK", "Content-Type: application/json\r\n", "{}"),
        "/app.js" => ("200 OK", "Content-Type: application/javascript\r\n", ""),
        "/robots.txt" => ("200 OK", "Content-Type: text/plain\r\n", ""),
        "/logo.png" => ("200 OK", "Content-Type: image/png\r\n", LOGO),
        "/moved" => ("301 Moved Permanently", "Location: /\r\n", ""),
        _ => ("404 Not Found", "Content-Type: text/plain\r\n", ""),
    };
    let _ = stream.write_all(
        format!(
            "HTTP/1.1 {status}\r\n{headers}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .as_bytes(),
    );
}

/// A server on 127.0.0.1: its port and the paths it was asked for.
fn server() -> (u16, Arc<Mutex<Vec<String>>>) {
    let server = support::http::listen(respond);
    (server.port, server.requests)
}

fn write_database(dir: &Path, files: &[(String, String)]) {
    for (name, text) in files {
        fs::write(dir.join(name), text).expect("write");
    }
}

/// The row's arguments as run: `localhost:8080` becomes the example.org
/// server, and `verify` and `add` send each domain the row does not map
/// itself to its stand-in server.
fn arguments(row: &Row, org: u16, com: u16) -> Vec<String> {
    let mut args: Vec<String> = row
        .args
        .iter()
        .map(|a| a.replace("localhost:8080", &format!("localhost:{org}")))
        .collect();
    if matches!(args.first().map(String::as_str), Some("verify" | "add")) {
        for (domain, target) in [
            ("example.org", format!("http://127.0.0.1:{org}")),
            ("example.com", format!("http://127.0.0.1:{com}")),
        ] {
            let mapped = row
                .args
                .iter()
                .any(|a| a.starts_with(&format!("{domain}=")));
            if !mapped {
                args.push("--map".to_string());
                args.push(format!("{domain}={target}"));
            }
        }
        if (args[0] == "verify" || args[0] == "add") && !args.iter().any(|a| a == "--allow-private")
        {
            args.push("--allow-private".to_string());
        }
    }
    args
}

/// Run one row; what went wrong, if anything.
fn run_row(row: &Row, files: &[(String, String)]) -> Result<(), String> {
    let dir = tempfile::tempdir().expect("tempdir");
    write_database(dir.path(), files);
    let (org, org_log) = server();
    let (com, com_log) = server();
    let args = arguments(row, org, com);
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = support::run_in(dir.path(), &argv);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let context = format!(
        "docs/coming-from-wwturldb.md line {}: urldb {}\nstdout:\n{stdout}\nstderr:\n{}",
        row.line,
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    let expected = match row.outcome {
        Outcome::Fails(_) => 2,
        _ => 0,
    };
    if out.status.code() != Some(expected) {
        return Err(format!("exit {:?}\n{context}", out.status.code()));
    }
    match &row.outcome {
        Outcome::Fails(texts) => {
            let stderr = String::from_utf8_lossy(&out.stderr);
            if let Some(missing) = texts.iter().find(|t| !stderr.contains(t.as_str())) {
                return Err(format!("expected `{missing}` on stderr\n{context}"));
            }
        }
        Outcome::Lists(urls) => {
            let lines: Vec<&str> = stdout.lines().collect();
            if lines != *urls {
                return Err(format!("expected the lines {urls:?}\n{context}"));
            }
        }
        Outcome::Fetches(expected) => {
            let mut seen: Vec<(String, String)> = Vec::new();
            for (host, log) in [("example.org", &org_log), ("example.com", &com_log)] {
                for path in log.lock().expect("log").iter() {
                    seen.push((host.to_string(), path.clone()));
                }
            }
            seen.sort();
            let mut expected = expected.clone();
            expected.sort();
            if seen != expected {
                return Err(format!(
                    "expected the requests {expected:?}, the servers saw {seen:?}\n{context}"
                ));
            }
        }
        Outcome::Writes { file, record } => {
            let text = fs::read_to_string(dir.path().join(file)).unwrap_or_default();
            let block = format!("---\n{}\n", record.join("\n"));
            let found = text.match_indices(&block).any(|(at, _)| {
                let rest = &text[at + block.len()..];
                rest.is_empty() || rest.starts_with("---\n")
            });
            if !found {
                return Err(format!(
                    "expected the record {record:?}\n{context}\n{file}:\n{text}"
                ));
            }
            // What `add` writes is clean and canonical.
            for check in [&["check"][..], &["fmt", "--check"]] {
                let out = support::run_in(dir.path(), check);
                if out.status.code() != Some(0) {
                    return Err(format!(
                        "{check:?} afterwards: {}\n{context}",
                        String::from_utf8_lossy(&out.stdout)
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The page's example database is clean: the rows start from files that
/// `check` and `fmt --check` accept, as a real database would be.
#[test]
fn the_example_database_is_clean() {
    let files = example_files(PAGE);
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["example.org.yaml", "example.com.yaml"]);
    let dir = tempfile::tempdir().expect("tempdir");
    write_database(dir.path(), &files);
    for args in [&["check"][..], &["fmt", "--check"]] {
        let out = support::run_in(dir.path(), args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
}

#[test]
fn every_row_of_the_page_does_what_it_says() {
    let files = example_files(PAGE);
    let rows = rows(PAGE);
    // The three tables; a row the parser missed would go untested.
    let table_rows = PAGE
        .lines()
        .filter(|l| l.starts_with('|') && l.contains("| `urldb "))
        .count();
    assert_eq!(rows.len(), table_rows, "{rows:#?}");
    assert!(rows.len() >= 20, "{}", rows.len());
    for subcommand in ["ls", "verify", "add", "export"] {
        assert!(
            rows.iter()
                .any(|r| r.args.first().map(String::as_str) == Some(subcommand)),
            "no row runs {subcommand}"
        );
    }
    let failures: Vec<String> = rows
        .iter()
        .filter_map(|row| run_row(row, &files).err())
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} rows fail:\n\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n\n")
    );
}

/// The habit from the issue, spelled as users type it: short options on
/// `ls` and `verify`, several at once.
#[test]
fn short_category_and_domain_options_filter_ls_and_export() {
    let dir = tempfile::tempdir().expect("tempdir");
    write_database(dir.path(), &example_files(PAGE));
    let out = support::run_in(dir.path(), &["ls", "-c", "frontend", "-d", "example.org"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "http://example.org/\nhttp://example.org/app.js\n"
    );
    // Repeated: any of the categories, any of the domains.
    let out = support::run_in(
        dir.path(),
        &[
            "ls",
            "-c",
            "coreapp",
            "-c",
            "frontend",
            "-d",
            "example.com",
            "-d",
            "www.example.org",
        ],
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "https://example.com/about.html\nhttp://example.org/\nhttp://example.org/api/v1/status\nhttp://example.org/app.js\n"
    );
    // A short `-d` for an unknown domain is the same usage error as
    // `--domain`, in `export` too, and nothing is written to stdout.
    for args in [
        &["ls", "-d", "exmaple.org"][..],
        &["export", "--to", "json", "-d", "exmaple.org"],
    ] {
        let out = support::run_in(dir.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("--domain `exmaple.org`")
                && stderr.contains("did you mean `example.org`"),
            "{args:?}: {stderr}"
        );
    }
}

/// A file the reference tool wrote for a URL given without a path: `check`
/// flags the empty `_path`, `check --fix` writes `/` (the same URL), and
/// the file is then clean; beside an existing `/` the fix is withheld.
#[test]
fn an_empty_path_from_the_reference_tool_is_fixed_to_slash() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("example.net.yaml");
    let legacy =
        "---\n---\n_path: ''\ncontent-type: text/html\n---\n_path: /a\ncontent-type: text/html\n";
    fs::write(&file, legacy).expect("write");
    let out = support::run_in(dir.path(), &["check"]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("path-not-absolute") && stdout.contains("`_path` is empty"),
        "{stdout}"
    );
    let out = support::run_in(dir.path(), &["check", "--fix"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(
        fs::read_to_string(&file).expect("read"),
        "---\n---\n_path: /\ncontent-type: text/html\n---\n_path: /a\ncontent-type: text/html\n"
    );

    let both =
        "---\n---\n_path: ''\ncontent-type: text/html\n---\n_path: /\ncontent-type: text/plain\n";
    fs::write(&file, both).expect("write");
    let out = support::run_in(dir.path(), &["check", "--fix"]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("already this URL") && stdout.contains("keep one of the two records"),
        "{stdout}"
    );
    assert_eq!(fs::read_to_string(&file).expect("read"), both);
}

/// "Adopt an existing database in three commands": the page's lines, run
/// as written (each with `bash -c`, urldb on `PATH`) at the top of a
/// repository like wwturldb's, whose database has a file that is not
/// canonical and a finding no fix repairs. `init` adds urldb.toml and
/// nothing else, `check --fix` changes only the database and lists what
/// is left, `install-hook` writes the hook.
#[test]
fn adopting_a_database_takes_the_three_commands_of_the_page() {
    use crate::support::reference_repo::{self, DB, NOT_CANONICAL};
    let block = PAGE
        .split("<!-- adopt:start -->")
        .nth(1)
        .and_then(|rest| rest.split("<!-- adopt:end -->").next())
        .expect("the adopt block");
    let lines: Vec<&str> = block
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with("```"))
        .collect();
    assert_eq!(
        lines,
        ["urldb init", "urldb check --fix", "urldb install-hook"]
    );

    let dir = tempfile::tempdir().expect("tempdir");
    reference_repo::write(dir.path(), false);
    let broken = format!("{DB}/broken.example.net.yaml");
    fs::write(
        dir.path().join(&broken),
        "---\n---\n_path: /\ncontent-type: text/nope/x\n",
    )
    .expect("write");
    support::git(dir.path(), &["init", "-q"]);
    let bin = Path::new(env!("CARGO_BIN_EXE_urldb"))
        .parent()
        .expect("the binary's directory");
    let run = |line: &str| {
        std::process::Command::new("bash")
            .args(["-c", line])
            .current_dir(dir.path())
            .env("PATH", support::oracles::path_with(&[bin]))
            .env("NO_COLOR", "1")
            .env_remove("URLDB_FORMAT")
            .env(
                "XDG_CACHE_HOME",
                support::oracles::target_tmp().join("xdg-cache"),
            )
            .output()
            .expect("bash")
    };
    let text = |out: &std::process::Output| {
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    };

    let before = reference_repo::contents(dir.path());
    let init = run(lines[0]);
    assert_eq!(init.status.code(), Some(0), "{}", text(&init));
    assert!(
        text(&init).contains(&format!("Found 4 domain files in `{DB}`.")),
        "{}",
        text(&init)
    );
    let adopted = reference_repo::contents(dir.path());
    assert_eq!(
        reference_repo::changed(&before, &adopted),
        [Path::new("urldb.toml")]
    );

    let fix = run(lines[1]);
    assert_eq!(fix.status.code(), Some(1), "{}", text(&fix));
    assert!(
        text(&fix).contains(&format!("{broken}:4:15"))
            && text(&fix).contains("invalid-content-type"),
        "{}",
        text(&fix)
    );
    assert_eq!(
        reference_repo::changed(&adopted, &reference_repo::contents(dir.path())),
        [Path::new(NOT_CANONICAL)]
    );

    let hook = run(lines[2]);
    assert_eq!(hook.status.code(), Some(0), "{}", text(&hook));
    assert!(dir.path().join(".git/hooks/pre-commit").is_file());
}

/// The reference tool's habits meet a tip that names urldb's command:
/// `dump-urls` is `ls`, and `check` with the options of wwturldb's
/// `check` (which fetched URLs) is `verify`, instead of clap's "use '--
/// -c'"; other usage errors keep clap's tips.
#[test]
fn the_reference_tools_commands_get_a_tip_naming_urldbs() {
    let dir = tempfile::tempdir().expect("tempdir");
    let stderr = |args: &[&str]| {
        let out = support::run_in(dir.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let err = stderr(&["dump-urls"]);
    assert!(
        err.contains("tip: wwturldb's `dump-urls` is `urldb ls`"),
        "{err}"
    );
    for args in [
        &["check", "-c", "frontend"][..],
        &["check", "-d", "example.org"],
        &["check", "--map", "example.org=localhost:8080"],
        &["check", "--map=example.org=localhost:8080"],
        &["--db", "check", "check", "--domain", "example.org"],
        &["-q", "check", "--category", "frontend"],
    ] {
        let err = stderr(args);
        assert!(
            err.contains("tip: wwturldb's `check` is `urldb verify`") && !err.contains("use '--"),
            "{args:?}: {err}"
        );
        assert_eq!(err.matches("tip:").count(), 1, "{args:?}: {err}");
    }
    let err = stderr(&["check", "--bogus"]);
    assert!(err.contains("use '-- --bogus'"), "{err}");
    let err = stderr(&["verify", "--bogus"]);
    assert!(!err.contains("wwturldb"), "{err}");
}
