//! Hostile databases and arguments: what `verify` requests, names the
//! database does not have, and verdicts that agree between commands.
//! Real binary, real files in temporary directories, real HTTP servers on
//! 127.0.0.1.

use crate::support;

use std::io::Write;
use std::path::Path;
use std::process::Output;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use support::run_in;

/// A small HTTP/1.1 server on 127.0.0.1 that counts every connection and
/// logs each request target; it answers 200 `text/html` to everything.
struct Server {
    port: u16,
    connections: Arc<AtomicUsize>,
    requests: Arc<Mutex<Vec<String>>>,
}

impl Server {
    fn start() -> Server {
        let support::http::Listening {
            port,
            connections,
            requests,
            ..
        } = support::http::listen(|mut stream, _| {
            let _ = stream.write_all(
                b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Type: text/html\r\nContent-Length: 2\r\n\r\nok",
            );
        });
        Server {
            port,
            connections,
            requests,
        }
    }

    fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }

    fn requests(&self) -> Vec<String> {
        let mut r = self.requests.lock().expect("lock").clone();
        r.sort();
        r
    }
}

/// `text` as a YAML double-quoted scalar.
fn quoted(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A database with `urldb.toml` and `example.org.yaml` holding one
/// `text/html` record per path.
fn database(paths: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("urldb.toml"), "").expect("write");
    let mut text = String::from("---\n---\n");
    let records: Vec<String> = paths
        .iter()
        .map(|p| format!("_path: {}\ncontent-type: text/html\n", quoted(p)))
        .collect();
    text.push_str(&records.join("---\n"));
    std::fs::write(dir.path().join("example.org.yaml"), text).expect("write");
    dir
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn code(out: &Output) -> i32 {
    out.status.code().expect("exit code")
}

#[test]
fn verify_never_sends_a_crafted_path_to_another_host() {
    let (one, two) = (Server::start(), Server::start());
    let p2 = two.port;
    let crafted = [
        format!(":x@127.0.0.1:{p2}/internal"),
        format!("@127.0.0.1:{p2}/probe"),
        format!("\\\\127.0.0.1:{p2}\\x"),
        format!("http://127.0.0.1:{p2}/full"),
        format!("?@127.0.0.1:{p2}/"),
        format!("#@127.0.0.1:{p2}/"),
        format!(".127.0.0.1:{p2}/"),
        format!("/a#@127.0.0.1:{p2}/"),
        format!("/%zz@127.0.0.1:{p2}/"),
        format!("/x HTTP/1.1\r\nHost: 127.0.0.1:{p2}\r\n\r\nGET /"),
        format!("/x\\@127.0.0.1:{p2}/"),
        "/%2e%2e/..".to_string(),
        "/a/./b".to_string(),
        // A network-path reference (RFC 3986 section 4.2): resolved against
        // the domain, it names the second server, so it is not requested
        // at all (path-network-reference).
        format!("//127.0.0.1:{p2}/x"),
    ];
    let legit = "/ok?q=1&r=@127.0.0.1";
    let mut paths: Vec<&str> = crafted.iter().map(String::as_str).collect();
    paths.push(legit);
    let db = database(&paths);
    let map = format!("example.org=http://127.0.0.1:{}", one.port);
    let out = run_in(
        db.path(),
        &["verify", "--allow-private", "--retries", "0", "--map", &map],
    );
    let stdout = text(&out.stdout);
    assert_eq!(code(&out), 1, "{stdout}{}", text(&out.stderr));
    assert_eq!(two.connections(), 0, "second server reached: {stdout}");
    assert_eq!(
        one.requests(),
        [legit],
        "first server got other requests: {stdout}"
    );
    assert_eq!(
        stdout.matches(": not checked: ").count(),
        crafted.len(),
        "{stdout}"
    );
    for code in [
        "(path-not-absolute)",
        "(path-invalid-char)",
        "(path-fragment)",
        "(path-bad-escape)",
        "(path-dot-segment)",
        "(path-network-reference)",
    ] {
        assert!(stdout.contains(code), "{code} missing: {stdout}");
    }
    assert!(
        stdout.contains(&format!(
            "{} of {} URLs broken (1 ok, {} not checked",
            crafted.len(),
            paths.len(),
            crafted.len()
        )),
        "{stdout}"
    );
    // The same in JSON: kind `not-checked`, counted in the summary.
    let out = run_in(
        db.path(),
        &[
            "verify",
            "--allow-private",
            "--retries",
            "0",
            "--format",
            "json",
            "--map",
            &map,
        ],
    );
    assert_eq!(code(&out), 1, "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(report["summary"]["not-checked"], crafted.len());
    let kinds = report["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter(|r| r["kind"] == "not-checked" && r["attempts"] == 0)
        .count();
    assert_eq!(kinds, crafted.len(), "{report}");
    assert_eq!(two.connections(), 0);
}

#[test]
fn verify_refuses_a_file_name_that_is_not_a_host() {
    let server = Server::start();
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("urldb.toml"), "").expect("write");
    let name = format!("example.org@127.0.0.1:{}.yaml", server.port);
    std::fs::write(
        dir.path().join(&name),
        "---\n---\n_path: /\ncontent-type: text/html\n",
    )
    .expect("write");
    let out = run_in(dir.path(), &["verify", "--allow-private", "--retries", "0"]);
    let stdout = text(&out.stdout);
    assert_eq!(code(&out), 1, "{stdout}{}", text(&out.stderr));
    assert_eq!(server.connections(), 0, "{stdout}");
    assert!(
        stdout.contains("not checked: `example.org@127.0.0.1"),
        "{stdout}"
    );
}

#[test]
fn unknown_domain_and_map_names_are_errors_with_a_suggestion() {
    let server = Server::start();
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("urldb.toml"), "").expect("write");
    std::fs::write(
        dir.path().join("example.org.yaml"),
        "---\ncnames:\n- www.example.org\n---\n_path: /\ncontent-type: text/html\n",
    )
    .expect("write");
    let map = format!("exmaple.org=http://127.0.0.1:{}", server.port);
    for (args, named, hint) in [
        (
            vec!["ls", "--domain", "nosuch.org"],
            "--domain `nosuch.org`",
            None,
        ),
        (
            vec!["ls", "--domain", "exmaple.org"],
            "--domain `exmaple.org`",
            Some("did you mean `example.org`?"),
        ),
        (
            vec!["verify", "--domain", "www.exmaple.org"],
            "--domain `www.exmaple.org`",
            Some("did you mean `www.example.org`?"),
        ),
        (
            vec!["verify", "--allow-private", "--map", &map],
            "--map `exmaple.org`",
            Some("did you mean `example.org`?"),
        ),
    ] {
        let out = run_in(dir.path(), &args);
        let stderr = text(&out.stderr);
        assert_eq!(code(&out), 2, "{args:?}: {stderr}");
        assert!(stderr.contains(named), "{args:?}: {stderr}");
        assert!(stderr.contains("no domain file and no cname"), "{stderr}");
        if let Some(hint) = hint {
            assert!(stderr.contains(hint), "{args:?}: {stderr}");
        }
        assert!(out.stdout.is_empty(), "{args:?}: {}", text(&out.stdout));
    }
    // A control character is refused, not dropped into a known name.
    let out = run_in(dir.path(), &["ls", "--domain", "example.org\n"]);
    assert_eq!(code(&out), 2, "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("`example.org\\n`"),
        "{}",
        text(&out.stderr)
    );
    assert!(out.stdout.is_empty());
    // The real host was not fetched in place of the mistyped one.
    assert_eq!(server.connections(), 0);
    // A cname is a known name; a known name still works.
    let out = run_in(dir.path(), &["ls", "--domain", "www.example.org"]);
    assert_eq!(code(&out), 0, "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "http://example.org/\n");
    let to = format!("http://127.0.0.1:{}", server.port);
    let (map, www) = (format!("example.org={to}"), format!("www.example.org={to}"));
    let out = run_in(
        dir.path(),
        &[
            "verify",
            "--allow-private",
            "--cnames",
            "--map",
            &map,
            "--map",
            &www,
            "--domain",
            "example.org",
        ],
    );
    assert_eq!(code(&out), 0, "{}", text(&out.stdout));
    assert_eq!(server.requests(), ["/"]);
}

#[test]
fn add_rm_and_import_refuse_urls_with_control_characters() {
    let db = database(&["/x"]);
    let file = db.path().join("example.org.yaml");
    let before = std::fs::read(&file).expect("read");
    for (args, shown) in [
        (
            vec![
                "add",
                "--content-type",
                "text/html",
                "http://example.org/x\ny",
            ],
            "`http://example.org/x\\ny`",
        ),
        (
            vec![
                "add",
                "--content-type",
                "text/html",
                "http://example.org/\ta",
            ],
            "`http://example.org/\\ta`",
        ),
        (
            vec![
                "add",
                "--content-type",
                "text/html",
                "http://example.org/b\u{1b}[2J",
            ],
            "`http://example.org/b\\x1b[2J`",
        ),
        (
            vec!["rm", "http://example.org/\nx"],
            "`http://example.org/\\nx`",
        ),
        (
            vec!["rm", "http://example.org/x\r"],
            "`http://example.org/x\\r`",
        ),
    ] {
        let out = run_in(db.path(), &args);
        let stderr = text(&out.stderr);
        assert_eq!(code(&out), 2, "{args:?}: {stderr}");
        assert!(stderr.contains(shown), "{args:?}: {stderr}");
        assert!(stderr.contains("control character"), "{stderr}");
        // Nothing raw reaches the terminal.
        assert!(
            !stderr.trim_end().contains(['\n', '\t', '\r', '\u{1b}']),
            "{stderr:?}"
        );
        assert_eq!(std::fs::read(&file).expect("read"), before, "{args:?}");
    }
    let list = db.path().join("list.txt");
    std::fs::write(&list, "http://example.org/a\rb\nhttp://example.org/a\tb\n").expect("write");
    let out = run_in(
        db.path(),
        &[
            "import",
            "--from",
            "urls",
            "--content-type",
            "text/html",
            "list.txt",
        ],
    );
    let stderr = text(&out.stderr);
    assert_eq!(code(&out), 1, "{stderr}");
    assert!(
        stderr.contains("list.txt:1: `http://example.org/a\\rb`"),
        "{stderr}"
    );
    assert!(
        stderr.contains("list.txt:2: `http://example.org/a\\tb`"),
        "{stderr}"
    );
    assert!(stderr.contains("imported 0 records; 2 skipped"), "{stderr}");
    assert_eq!(std::fs::read(&file).expect("read"), before);
}

/// `check`, `check --fix` and `fmt --check` on one file: the exit codes
/// and whether `--fix` changed the file.
fn verdicts(dir: &Path, file: &Path, text: &[u8]) -> (i32, i32, i32, Vec<u8>) {
    std::fs::write(file, text).expect("write");
    let fmt_check = code(&run_in(dir, &["fmt", "--check", "--no-cache"]));
    let check = code(&run_in(dir, &["check", "--no-cache"]));
    let fix = run_in(dir, &["check", "--fix", "--no-cache"]);
    let after = std::fs::read(file).expect("read");
    let fmt_after = code(&run_in(dir, &["fmt", "--check", "--no-cache"]));
    assert_eq!(
        fmt_after,
        0,
        "check --fix left a file fmt would rewrite: {}",
        text_of(&fix)
    );
    (fmt_check, check, code(&fix), after)
}

fn text_of(out: &Output) -> String {
    format!("{}{}", text(&out.stdout), text(&out.stderr))
}

#[test]
fn check_and_fmt_agree_on_line_breaks() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("urldb.toml"), "").expect("write");
    let file = dir.path().join("example.org.yaml");
    let lf = b"---\n---\n_path: /a\ncontent-type: text/html\n".to_vec();
    // Every line break a lone CR.
    let cr = b"---\r---\r_path: /a\rcontent-type: text/html\r";
    let (fmt_check, check, fix, after) = verdicts(dir.path(), &file, cr);
    assert_eq!((fmt_check, check, fix), (1, 1, 0));
    assert_eq!(after, lf);
    // A CRLF file where `urldb.toml` asks for LF.
    std::fs::write(dir.path().join("urldb.toml"), "line-ending = \"lf\"\n").expect("write");
    let crlf = b"---\r\n---\r\n_path: /a\r\ncontent-type: text/html\r\n";
    let (fmt_check, check, fix, after) = verdicts(dir.path(), &file, crlf);
    assert_eq!((fmt_check, check, fix), (1, 1, 0));
    assert_eq!(after, lf);
    // Canonical text: all three say so.
    let (fmt_check, check, fix, after) = verdicts(dir.path(), &file, &lf);
    assert_eq!((fmt_check, check, fix), (0, 0, 0));
    assert_eq!(after, lf);
}

#[test]
fn fix_never_turns_a_path_finding_into_a_duplicate() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("urldb.toml"), "").expect("write");
    let file = dir.path().join("example.org.yaml");
    let two = |meta: &str, a: &str, b: &str| {
        format!(
            "---\n{meta}---\n_path: {a}\ncontent-type: text/html\n---\n_path: {b}\ncontent-type: text/html\n"
        )
    };
    let insensitive = "case-sensitive-paths: false\n";
    for (meta, a, b, rule) in [
        // The case fix on a case-insensitive domain, into an existing path.
        (insensitive, "/ABC", "/abc", "path-case"),
        (insensitive, "/abc", "/ABC", "path-case"),
        // Escape-case normalisation.
        ("", "/a%3c", "/a%3C", "path-escape-case"),
        // An unneeded escape decoded.
        ("", "/%7Ejoe", "/~joe", "path-unneeded-escape"),
        // A fragment removed.
        ("", "/docs#top", "/docs", "path-fragment"),
        // Characters percent-encoded.
        ("", "/a b", "/a%20b", "path-invalid-char"),
    ] {
        let text = two(meta, a, b);
        std::fs::write(&file, &text).expect("write");
        let check = run_in(dir.path(), &["check", "--no-cache", "--format", "json"]);
        let report = text_of(&check);
        assert_eq!(code(&check), 1, "{a} {b}: {report}");
        let findings: serde_json::Value = serde_json::from_slice(&check.stdout).expect("json");
        let finding = findings
            .as_array()
            .and_then(|all| all.iter().find(|f| f["code"] == rule))
            .unwrap_or_else(|| panic!("{a} {b}: no {rule}: {report}"));
        assert_eq!(finding["fixable"], false, "{a} {b}: {report}");
        let help = finding["help"].as_str().unwrap_or_default();
        assert!(help.contains("not fixed by `--fix`"), "{a} {b}: {report}");
        let fix = run_in(dir.path(), &["check", "--fix", "--no-cache"]);
        let report = text_of(&fix);
        assert_eq!(code(&fix), 1, "{a} {b}: {report}");
        assert!(!report.contains("duplicate-path"), "{a} {b}: {report}");
        assert!(report.contains(rule), "{a} {b}: {report}");
        // Both records are left as they are (`fmt` may sort them).
        let after = std::fs::read_to_string(&file).expect("read");
        let mut paths: Vec<&str> = after.lines().filter(|l| l.starts_with("_path: ")).collect();
        paths.sort_unstable();
        let (pa, pb) = (format!("_path: {a}"), format!("_path: {b}"));
        let mut want = [pa.as_str(), pb.as_str()];
        want.sort_unstable();
        assert_eq!(paths, want, "{a} {b}: {after}");
    }
    // Two fixes that would meet: the first applies, the second does not.
    std::fs::write(&file, two("", "/docs#one", "/docs#two")).expect("write");
    let fix = run_in(
        dir.path(),
        &["check", "--fix", "--no-cache", "--format", "json"],
    );
    let report = text_of(&fix);
    assert_eq!(code(&fix), 1, "{report}");
    assert!(!report.contains("duplicate-path"), "{report}");
    assert!(report.contains("not fixed by `--fix`"), "{report}");
    assert_eq!(
        std::fs::read_to_string(&file).expect("read"),
        two("", "/docs", "/docs#two")
    );
    // Without a collision, the same fixes apply.
    std::fs::write(&file, two(insensitive, "/ABC", "/abd")).expect("write");
    let fix = run_in(dir.path(), &["check", "--fix", "--no-cache"]);
    assert_eq!(code(&fix), 0, "{}", text_of(&fix));
    assert_eq!(
        std::fs::read_to_string(&file).expect("read"),
        two(insensitive, "/abc", "/abd")
    );
}

/// A `content-length` no file can have (beyond `u64`) is flagged by
/// `check`, the gate later commands rely on, and `verify` reads it with
/// the same parser: a clear problem, never an overflow or a request.
#[test]
fn a_length_no_file_can_have_is_flagged_and_never_fetched() {
    let server = Server::start();
    for length in ["18446744073709551616", "99999999999999999999999999"] {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("urldb.toml"), "").expect("write");
        std::fs::write(
            dir.path().join("example.org.yaml"),
            format!(
                "---\n---\n_path: /f\ncontent-length: {length}\ncontent-sha256: {}\ncontent-type: text/plain\n",
                "0".repeat(64)
            ),
        )
        .expect("write");
        let check = run_in(dir.path(), &["check"]);
        let stdout = text(&check.stdout);
        assert_eq!(code(&check), 1, "{stdout}");
        assert!(stdout.contains("invalid-content-length"), "{stdout}");
        assert!(stdout.contains("larger than any file can be"), "{stdout}");
        let map = format!("example.org=http://127.0.0.1:{}", server.port);
        let out = run_in(
            dir.path(),
            &["verify", "--allow-private", "--retries", "0", "--map", &map],
        );
        let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
        assert_eq!(code(&out), 2, "{all}");
        assert!(all.contains("is not a byte count"), "{all}");
        assert!(!all.contains("panicked"), "{all}");
    }
    assert_eq!(server.connections(), 0);
}

/// `[verify] concurrency` in `urldb.toml` comes with a pull request: it
/// gets the same cap as `--threads` (256), with a note, and the run
/// completes rather than starting a thread per record.
#[test]
fn a_huge_configured_concurrency_is_capped() {
    let server = Server::start();
    let paths: Vec<String> = (0..300).map(|i| format!("/p{i}")).collect();
    let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
    let db = database(&refs);
    std::fs::write(
        db.path().join("urldb.toml"),
        "[verify]\nconcurrency = 1000000\n",
    )
    .expect("write");
    let map = format!("example.org=http://127.0.0.1:{}", server.port);
    let out = run_in(
        db.path(),
        &["verify", "--allow-private", "--retries", "0", "--map", &map],
    );
    let stderr = text(&out.stderr);
    assert_eq!(code(&out), 0, "{stderr}");
    assert!(
        stderr.contains("note: concurrency 1000000 is more than urldb runs at once; using 256"),
        "{stderr}"
    );
}

/// File names that URL parsers read as IPv4 addresses (`0x7f.1`,
/// `2130706433`) are refused by `verify`; `check` reports them first,
/// read by the same WHATWG host parser, with the reason.
#[test]
fn a_file_name_that_is_an_ipv4_spelling_is_flagged_by_check() {
    for stem in ["0x7f.1", "2130706433"] {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("urldb.toml"), "").expect("write");
        std::fs::write(
            dir.path().join(format!("{stem}.yaml")),
            "---\n---\n_path: /\ncontent-type: text/html\n",
        )
        .expect("write");
        let check = run_in(dir.path(), &["check", "--format", "concise"]);
        let stdout = text(&check.stdout);
        assert_eq!(code(&check), 1, "{stdout}");
        assert!(stdout.contains("invalid-domain-name"), "{stdout}");
        assert!(
            stdout.contains("as the IPv4 address `127.0.0.1`"),
            "{stdout}"
        );
    }
}
