//! `verify --follow-moves` against a site on 127.0.0.1 whose URLs moved:
//! a permanent redirect to the same bytes (proof), to other bytes and to
//! a page of the same type (candidates), a chain of redirects, a redirect
//! to a private address (refused even with `--allow-private`), one to
//! another host's file; and `verify` without the option sends exactly the
//! requests it sent before.

use crate::support;

use std::io::Write;
use std::net::TcpStream;
use std::sync::{Arc, Mutex, OnceLock};

use sha2::{Digest, Sha256};

use super::outcomes::{Run, json, record, verify};

/// A site that answers by path and logs every request target.
pub(crate) struct Site {
    pub(crate) port: u16,
    pub(crate) requests: Arc<Mutex<Vec<String>>>,
}

impl Site {
    pub(crate) fn start() -> Site {
        let own: Arc<OnceLock<u16>> = Arc::default();
        let port_seen = Arc::clone(&own);
        let support::http::Listening { port, requests, .. } =
            support::http::listen(move |stream, path| {
                answer(stream, path, port_seen.get().copied().unwrap_or(0));
            });
        let _ = own.set(port);
        Site { port, requests }
    }

    pub(crate) fn hits(&self, path: &str) -> usize {
        self.requests
            .lock()
            .expect("lock")
            .iter()
            .filter(|p| *p == path)
            .count()
    }

    pub(crate) fn total(&self) -> usize {
        self.requests.lock().expect("lock").len()
    }
}

pub(crate) const BYTES: &[u8] = b"the report, 2024 edition";

fn answer(mut stream: TcpStream, path: &str, port: u16) {
    let mut respond = |status: &str, headers: &[(&str, String)], body: &[u8]| {
        let mut head = format!("HTTP/1.1 {status}\r\nConnection: close\r\n");
        for (k, v) in headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
        let _ = stream.write_all(head.as_bytes());
        let _ = stream.write_all(body);
    };
    let to = |l: &str| [("Location", l.to_string())];
    let ct = |t: &str| [("Content-Type", t.to_string())];
    match path {
        "/old/report.pdf" => respond("301 Moved Permanently", &to("/new/report.pdf"), b""),
        "/new/report.pdf" => respond("200 OK", &ct("application/pdf"), BYTES),
        "/old/other.pdf" => respond("301 Moved Permanently", &to("/new/other.pdf"), b""),
        "/new/other.pdf" => respond("200 OK", &ct("application/pdf"), b"another edition"),
        "/old/page" => respond("308 Permanent Redirect", &to("/new/page"), b""),
        "/new/page" => respond("200 OK", &ct("text/html; charset=utf-8"), b"<p>page</p>"),
        "/chain/1" => respond("301 Moved Permanently", &to("/chain/2"), b""),
        "/chain/2" => respond(
            "308 Permanent Redirect",
            &to("http://example.test/new/report.pdf"),
            b"",
        ),
        "/loop" => respond("301 Moved Permanently", &to("/loop"), b""),
        "/to-private" => respond(
            "301 Moved Permanently",
            &to(&format!("http://127.0.0.1:{port}/private/report.pdf")),
            b"",
        ),
        "/private/report.pdf" => respond("200 OK", &ct("application/pdf"), BYTES),
        "/to-other" => respond(
            "301 Moved Permanently",
            &to("http://other.test/files/report.pdf"),
            b"",
        ),
        "/files/report.pdf" => respond("200 OK", &ct("application/pdf"), BYTES),
        "/temporary" => respond("302 Found", &to("/new/page"), b""),
        "/gone" => respond("301 Moved Permanently", &to("/nothing"), b""),
        _ => respond("404 Not Found", &[], b""),
    }
}

pub(crate) fn sha256(data: &[u8]) -> String {
    Sha256::digest(data)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

pub(crate) fn pdf(path: &str) -> String {
    format!(
        "_path: {path}\ncontent-length: {}\ncontent-sha256: {}\ncontent-type: application/pdf\n",
        BYTES.len(),
        sha256(BYTES)
    )
}

/// `example.test.yaml` with `records`, and an empty `other.test.yaml`.
pub(crate) fn site_database(records: &[String]) -> tempfile::TempDir {
    let refs: Vec<&str> = records.iter().map(String::as_str).collect();
    let db = super::outcomes::database("", &refs);
    std::fs::write(
        db.path().join("other.test.yaml"),
        format!("---\n---\n{}", pdf("/files/report.pdf")),
    )
    .expect("write");
    db
}

pub(crate) fn maps(site: &Site) -> Vec<String> {
    vec![
        "--map".to_string(),
        format!("example.test=http://127.0.0.1:{}", site.port),
        "--map".to_string(),
        format!("other.test=http://127.0.0.1:{}", site.port),
    ]
}

fn run(dir: &std::path::Path, site: &Site, extra: &[&str]) -> Run {
    let mut args: Vec<String> = vec!["--allow-private".to_string()];
    args.extend(maps(site));
    args.extend(extra.iter().map(|s| s.to_string()));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    verify(dir, &refs)
}

/// The `moved` object of the result for `path`.
fn moved<'a>(report: &'a serde_json::Value, path: &str) -> &'a serde_json::Value {
    report["results"]
        .as_array()
        .expect("results")
        .iter()
        .find(|r| r["path"] == path)
        .unwrap_or_else(|| panic!("no result for {path}"))
        .get("moved")
        .unwrap_or(&serde_json::Value::Null)
}

#[test]
fn a_moved_url_is_proven_by_its_bytes_or_offered_as_a_candidate() {
    let site = Site::start();
    let db = site_database(&[
        pdf("/old/report.pdf"),
        format!(
            "_path: /old/other.pdf\ncontent-length: {}\ncontent-sha256: {}\ncontent-type: application/pdf\n",
            BYTES.len(),
            sha256(BYTES)
        ),
        record("/old/page", "text/html", &[]),
        pdf("/chain/1"),
        pdf("/loop"),
        pdf("/to-private"),
        pdf("/to-other"),
        record("/temporary", "text/html", &[]),
        record("/gone", "text/html", &[]),
    ]);
    let out = run(db.path(), &site, &["--follow-moves", "--format", "json"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let report = json(&out);
    let m = moved(&report, "/old/report.pdf");
    assert_eq!(m["verdict"], "moved", "{m}");
    assert_eq!(m["target"], "http://example.test/new/report.pdf");
    assert_eq!(m["status"], 301);
    assert_eq!(m["hops"], 1);
    assert!(m["reason"].as_str().unwrap().contains("SHA-256"), "{m}");
    // Other bytes of the same type: a candidate, never a proof.
    let m = moved(&report, "/old/other.pdf");
    assert_eq!(m["verdict"], "moved?", "{m}");
    assert!(m["reason"].as_str().unwrap().contains("other bytes"), "{m}");
    // A page: the same media type is all there is to compare.
    let m = moved(&report, "/old/page");
    assert_eq!(
        (m["verdict"].as_str(), m["status"].as_u64()),
        (Some("moved?"), Some(308))
    );
    assert_eq!(m["target"], "http://example.test/new/page");
    // Two redirects, the second absolute (mapped as the record's host is).
    let m = moved(&report, "/chain/1");
    assert_eq!(
        (m["verdict"].as_str(), m["hops"].as_u64()),
        (Some("moved"), Some(2)),
        "{m}"
    );
    assert_eq!(m["target"], "http://example.test/new/report.pdf");
    let m = moved(&report, "/loop");
    assert_eq!(m["verdict"], "not-moved");
    assert!(m["reason"].as_str().unwrap().contains("loop"), "{m}");
    // A redirect to another host's file, mapped by --map.
    let m = moved(&report, "/to-other");
    assert_eq!(m["verdict"], "moved", "{m}");
    assert_eq!(m["target"], "http://other.test/files/report.pdf");
    // A private address the database does not name: refused, whatever
    // --allow-private says, and never asked.
    let m = moved(&report, "/to-private");
    assert_eq!(m["verdict"], "not-moved", "{m}");
    assert!(m["reason"].as_str().unwrap().contains("loopback"), "{m}");
    assert_eq!(site.hits("/private/report.pdf"), 0);
    // Not permanent: not followed at all.
    assert!(moved(&report, "/temporary").is_null());
    assert_eq!(site.hits("/new/page"), 1);
    let m = moved(&report, "/gone");
    assert_eq!(m["verdict"], "not-moved");
    assert!(m["reason"].as_str().unwrap().contains("404"), "{m}");
    // The URL is still broken: the record says otherwise until it changes.
    assert_eq!(report["summary"]["broken"], 9);
}

#[test]
fn without_the_option_verify_sends_the_requests_it_sent_before() {
    let site = Site::start();
    let db = site_database(&[
        pdf("/old/report.pdf"),
        record("/old/page", "text/html", &[]),
    ]);
    let out = run(db.path(), &site, &["--format", "json"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(moved(&json(&out), "/old/report.pdf").is_null());
    // The two record URLs and the other file's one, nothing more.
    assert_eq!(site.total(), 3, "{:?}", site.requests.lock().unwrap());
    assert_eq!(site.hits("/new/report.pdf") + site.hits("/new/page"), 0);
    let out = run(db.path(), &site, &["--follow-moves", "--format", "json"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(site.total(), 3 + 5);
}

#[test]
fn every_format_shows_the_verdict_and_the_target() {
    let site = Site::start();
    let db = site_database(&[
        pdf("/old/report.pdf"),
        record("/old/page", "text/html", &[]),
    ]);
    let target = "http://example.test/new/report.pdf";
    for format in ["human", "markdown", "github", "junit", "html"] {
        let out = run(db.path(), &site, &["--follow-moves", "--format", format]);
        assert_eq!(out.code, 1, "{format}: {}", out.stderr);
        assert!(
            out.stdout.contains(&format!("moved to {target}")),
            "{format}:\n{}",
            out.stdout
        );
        assert!(
            out.stdout
                .contains("moved? to http://example.test/new/page"),
            "{format}:\n{}",
            out.stdout
        );
    }
    let human = run(db.path(), &site, &["--follow-moves"]);
    let line = human
        .stdout
        .lines()
        .find(|l| l.contains("/old/report.pdf"))
        .expect("the broken line");
    assert!(
        line.ends_with(&format!(
            "; moved to {target} (proof: the same SHA-256 and length ({} bytes))",
            BYTES.len()
        )),
        "{line}"
    );
}

/// A database in a git repository, committed: `example.test.yaml` with
/// `records`, `other.test.yaml` with one record of its own.
fn repository(records: &[String]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut text = "---\n".to_string();
    for r in records {
        text.push_str("---\n");
        text.push_str(r);
    }
    std::fs::write(dir.path().join("example.test.yaml"), text).expect("write");
    std::fs::write(
        dir.path().join("other.test.yaml"),
        format!("---\n---\n{}", pdf("/files/index.pdf")),
    )
    .expect("write");
    support::git(dir.path(), &["init", "-q"]);
    support::git(dir.path(), &["add", "."]);
    support::git(dir.path(), &["commit", "-qm", "database"]);
    dir
}

fn urldb(dir: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let out = support::urldb_in(dir, args);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn urldb_moved_writes_the_redirect_record_and_the_target_and_check_passes() {
    let site = Site::start();
    let db = repository(&[
        pdf("/old/report.pdf"),
        record("/old/page", "text/html", &["docs"]),
        pdf("/to-other"),
    ]);
    let out = run(db.path(), &site, &["--follow-moves", "--format", "json"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let results = tempfile::tempdir().expect("tempdir");
    let file = results.path().join("results.json");
    std::fs::write(&file, &out.stdout).expect("write");
    let file = file.to_str().expect("utf-8");
    let before = std::fs::read_to_string(db.path().join("example.test.yaml")).expect("read");

    // Shown, not made.
    let (code, stdout, stderr) = urldb(db.path(), &["moved", file]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stdout,
        format!(
            "example.test.yaml: /old/report.pdf: content-type: X-301-Redirect, without content-length and content-sha256\n\
             example.test.yaml: + /new/report.pdf (application/pdf), moved with proof from http://example.test/old/report.pdf\n\
             example.test.yaml: /to-other: content-type: X-301-Redirect, without content-length and content-sha256\n\
             other.test.yaml: + /files/report.pdf (application/pdf), moved with proof from http://example.test/to-other\n"
        )
    );
    assert!(stderr.contains("--write"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(db.path().join("example.test.yaml")).expect("read"),
        before
    );
    // `urldb report`'s merge reads the same.
    let (code, merged, stderr) = urldb(db.path(), &["report", file, "--format", "json"]);
    assert_eq!(code, 1, "{stderr}");
    let merged_file = results.path().join("merged.json");
    std::fs::write(&merged_file, merged).expect("write");
    let (code, again, stderr) = urldb(db.path(), &["moved", merged_file.to_str().expect("utf-8")]);
    assert_eq!((code, again), (0, stdout), "{stderr}");

    // Made: the proven moves only, then the candidate with --candidates.
    let (code, _, stderr) = urldb(db.path(), &["moved", file, "--write"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("2 moves written"), "{stderr}");
    let (code, stdout, stderr) = urldb(db.path(), &["moved", file, "--write", "--candidates"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("+ /new/page (text/html), a candidate"),
        "{stdout}"
    );
    let example = std::fs::read_to_string(db.path().join("example.test.yaml")).expect("read");
    let sha = sha256(BYTES);
    assert_eq!(
        example,
        format!(
            "---\n\
             ---\n_path: /new/page\ncategories:\n- docs\ncontent-type: text/html\n\
             ---\n_path: /new/report.pdf\ncontent-length: {len}\ncontent-sha256: {sha}\ncontent-type: application/pdf\n\
             ---\n_path: /old/page\ncategories:\n- docs\ncontent-type: X-308-Redirect\n\
             ---\n_path: /old/report.pdf\ncontent-type: X-301-Redirect\n\
             ---\n_path: /to-other\ncontent-type: X-301-Redirect\n",
            len = BYTES.len()
        )
    );
    let other = std::fs::read_to_string(db.path().join("other.test.yaml")).expect("read");
    assert!(
        other.contains(&format!(
            "_path: /files/report.pdf\ncontent-length: {}\ncontent-sha256: {sha}\n",
            BYTES.len()
        )),
        "{other}"
    );

    let (code, stdout, stderr) = urldb(db.path(), &["check"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    // The same results again: the moves are made already, nothing changes.
    let (code, _, stderr) = urldb(db.path(), &["moved", file, "--write"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("its record is a redirect already") && stderr.contains("0 moves written"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(db.path().join("example.test.yaml")).expect("read"),
        example
    );
    let (code, stdout, stderr) = urldb(db.path(), &["diff"]);
    assert_eq!(code, 0, "{stderr}");
    for path in [
        "/old/report.pdf",
        "/new/report.pdf",
        "/new/page",
        "/files/report.pdf",
    ] {
        assert!(stdout.contains(path), "{path} not in\n{stdout}");
    }
    // And verify agrees with the database now.
    let again = run(db.path(), &site, &[]);
    assert_eq!(again.code, 1, "{}", again.stdout);
    // Only the other file's own record, which this site does not serve.
    assert!(
        again.stdout.starts_with("other.test.yaml:3: ")
            && again.stdout.contains("/files/index.pdf: HTTP 404")
            && again.stdout.contains("1 of 7 URLs broken (6 ok)"),
        "{}",
        again.stdout
    );
}

#[test]
fn urldb_moved_creates_a_domain_file_only_when_asked() {
    let site = Site::start();
    let db = repository(&[pdf("/to-third")]);
    let results = tempfile::tempdir().expect("tempdir");
    let file = results.path().join("results.json");
    // A run's results as `verify --format json` writes them, the target
    // on a host no domain file knows.
    let out = run(db.path(), &site, &["--follow-moves", "--format", "json"]);
    let mut report = json(&out);
    let result = report["results"]
        .as_array_mut()
        .expect("results")
        .iter_mut()
        .find(|r| r["path"] == "/to-third")
        .expect("the result");
    result["moved"] = serde_json::json!({
        "verdict": "moved",
        "from": "http://example.test/to-third",
        "status": 308,
        "target": "https://third.test/report.pdf",
        "hops": 1,
        "reason": "proof"
    });
    std::fs::write(&file, report.to_string()).expect("write");
    let file = file.to_str().expect("utf-8");
    let (code, _, stderr) = urldb(db.path(), &["moved", file, "--write"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("--create-domain"), "{stderr}");
    assert!(!db.path().join("third.test.yaml").exists());
    assert!(
        std::fs::read_to_string(db.path().join("example.test.yaml"))
            .expect("read")
            .contains("content-sha256"),
        "the old record stays as it was when its target cannot be added"
    );
    let (code, _, stderr) = urldb(db.path(), &["moved", file, "--write", "--create-domain"]);
    assert_eq!(code, 0, "{stderr}");
    let third = std::fs::read_to_string(db.path().join("third.test.yaml")).expect("created");
    assert!(
        third.starts_with("---\nhttps: true\n---\n_path: /report.pdf\n"),
        "{third}"
    );
    let (code, stdout, stderr) = urldb(db.path(), &["check"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
}
