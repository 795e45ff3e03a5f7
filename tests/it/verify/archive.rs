//! `verify --archive` against a site and a web archive on 127.0.0.1: the
//! archive answers the CDX API with several captures of a broken URL —
//! one that fails, one with other bytes, one byte-identical — and the
//! newest that serves is reported; a page gets one of its media type,
//! unverified; a host with secrets and a private host are never sent; a
//! lookup kept in the history is not asked again.

use crate::support;

use std::io::Write;
use std::net::TcpStream;
use std::sync::{Arc, Mutex};

use super::moves::{BYTES, Site, pdf};
use super::outcomes::{json, record};

/// A web archive: the CDX API and raw captures, every request logged.
struct Archive {
    port: u16,
    requests: Arc<Mutex<Vec<String>>>,
}

impl Archive {
    fn start() -> Archive {
        let support::http::Listening { port, requests, .. } = support::http::listen(answer);
        Archive { port, requests }
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    fn requests(&self) -> Vec<String> {
        self.requests.lock().expect("lock").clone()
    }
}

fn answer(mut stream: TcpStream, path: &str) {
    let mut respond = |status: &str, content_type: &str, body: &[u8]| {
        let head = format!(
            "HTTP/1.1 {status}\r\nConnection: close\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        let _ = stream.write_all(head.as_bytes());
        let _ = stream.write_all(body);
    };
    let row = |ts: &str, mime: &str, status: &str| {
        format!(
            r#",["test,example)/x","{ts}","http://example.test/x","{mime}","{status}","DIGEST","9"]"#
        )
    };
    let header = r#"[["urlkey","timestamp","original","mimetype","statuscode","digest","length"]"#;
    if let Some(query) = path.strip_prefix("/cdx/search/cdx?") {
        let body = if query.contains("gone.pdf") {
            format!(
                "{header}{}{}{}{}{}]",
                row("20230101000000", "application/pdf", "200"),
                row("20240101000000", "application/pdf", "200"),
                row("20240201000000", "application/pdf", "200"),
                row("20240301000000", "application/pdf", "200"),
                row("20240401000000", "text/html", "404"),
            )
        } else if query.contains("gone-page") {
            format!(
                "{header}{}{}{}]",
                row("20240101000000", "text/html", "200"),
                row("20240201000000", "image/png", "200"),
                row("20240301000000", "text/html", "200"),
            )
        } else {
            "[]".to_string()
        };
        return respond("200 OK", "application/json", body.as_bytes());
    }
    let pdf = path.ends_with(".pdf");
    let content_type = if pdf { "application/pdf" } else { "text/html" };
    if path.starts_with("/web/20240301000000id_/") {
        respond("500 Internal Server Error", "text/plain", b"")
    } else if path.starts_with("/web/20240201000000id_/") {
        respond("200 OK", content_type, b"another edition")
    } else if path == "/web/20240101000000id_/http://example.test/gone-page" {
        // The archive keeps this page's capture a second later.
        let head = "HTTP/1.1 302 Found\r\nConnection: close\r\nLocation: /web/20240101000001id_/http://example.test/gone-page\r\nContent-Length: 0\r\n\r\n";
        let _ = stream.write_all(head.as_bytes());
    } else if path.starts_with("/web/20240101000000id_/")
        || path.starts_with("/web/20240101000001id_/")
        || path.starts_with("/web/20230101000000id_/")
    {
        respond(
            "200 OK",
            content_type,
            if pdf { BYTES } else { b"<p>then</p>" },
        )
    } else {
        respond("404 Not Found", "text/plain", b"")
    }
}

/// `example.test.yaml` with a static record and a page that are gone,
/// `secret.test.yaml` (its host has a secret header) and
/// `intranet.local.yaml` (a private name) with one gone each.
fn database() -> tempfile::TempDir {
    let db = super::outcomes::database(
        "",
        &[&pdf("/gone.pdf"), &record("/gone-page", "text/html", &[])],
    );
    for name in ["secret.test", "intranet.local"] {
        std::fs::write(
            db.path().join(format!("{name}.yaml")),
            format!("---\n---\n{}", pdf("/gone.pdf")),
        )
        .expect("write");
    }
    std::fs::write(
        db.path().join("urldb.toml"),
        "[verify.domains.\"secret.test\"]\nheaders = { X-Token = \"env:SECRET_TOKEN\" }\n",
    )
    .expect("write");
    db
}

fn args(site: &Site, archive: &Archive, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = vec!["--allow-private".into(), "--archive".into()];
    for host in ["example.test", "secret.test", "intranet.local"] {
        args.push("--map".into());
        args.push(format!("{host}=http://127.0.0.1:{}", site.port));
    }
    args.extend([
        "--archive-url".into(),
        archive.url(),
        "--allow-env".into(),
        "SECRET_TOKEN=secret.test".into(),
    ]);
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

fn run(dir: &std::path::Path, args: &[String]) -> super::outcomes::Run {
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = support::urldb()
        .current_dir(dir)
        .arg("verify")
        .args(&refs)
        .env("NO_COLOR", "1")
        .env("SECRET_TOKEN", "s3cret")
        .env_remove("URLDB_FORMAT")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run urldb");
    super::outcomes::Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        elapsed: std::time::Duration::ZERO,
    }
}

fn archived<'a>(report: &'a serde_json::Value, file: &str, path: &str) -> &'a serde_json::Value {
    report["results"]
        .as_array()
        .expect("results")
        .iter()
        .find(|r| r["path"] == path && r["file"] == file)
        .unwrap_or_else(|| panic!("no result for {file} {path}"))
        .get("archived")
        .unwrap_or(&serde_json::Value::Null)
}

#[test]
fn the_newest_byte_identical_capture_is_found_and_hosts_with_secrets_are_never_sent() {
    let site = Site::start();
    let archive = Archive::start();
    let db = database();
    let out = run(db.path(), &args(&site, &archive, &["--format", "json"]));
    assert_eq!(out.code, 1, "{}", out.stderr);
    let report = json(&out);
    // The newest capture fails, the next has other bytes, the third is
    // the record's bytes.
    let a = archived(&report, "example.test.yaml", "/gone.pdf");
    assert_eq!(a["verdict"], "identical", "{a}");
    assert_eq!(a["timestamp"], "20240101000000");
    assert_eq!(
        a["url"],
        format!(
            "{}/web/20240101000000/http://example.test/gone.pdf",
            archive.url()
        )
    );
    // A page: the newest capture of its media type that answers.
    let a = archived(&report, "example.test.yaml", "/gone-page");
    assert_eq!(a["verdict"], "unverified", "{a}");
    assert_eq!(a["timestamp"], "20240101000000");
    // Never sent: a host with a secret header, a private host.
    let a = archived(&report, "secret.test.yaml", "/gone.pdf");
    assert_eq!(a["verdict"], "not-asked", "{a}");
    assert!(a["reason"].as_str().unwrap().contains("headers"), "{a}");
    let a = archived(&report, "intranet.local.yaml", "/gone.pdf");
    assert_eq!(a["verdict"], "not-asked", "{a}");
    let asked = archive.requests();
    assert!(
        asked
            .iter()
            .all(|r| !r.contains("secret") && !r.contains("intranet")),
        "{asked:#?}"
    );
    // One CDX query per URL sent, the three newest candidates of the
    // static one, the two of the page's type (one sent on to the capture
    // a second later).
    assert_eq!(asked.iter().filter(|r| r.starts_with("/cdx/")).count(), 2);
    assert_eq!(asked.len(), 2 + 3 + 2 + 1, "{asked:#?}");
    // The archive is a host of the run, counted with the others.
    let hosts = report["hosts"].as_array().expect("hosts");
    let counted = hosts
        .iter()
        .find(|h| h["origin"] == archive.url())
        .expect("the archive's figures");
    assert_eq!(counted["requests"], 8);
}

#[test]
fn the_finding_is_next_to_the_broken_url_in_every_report() {
    let site = Site::start();
    let archive = Archive::start();
    let db = database();
    let copy = format!(
        "byte-identical copy at 20240101000000: {}/web/20240101000000/http://example.test/gone.pdf",
        archive.url()
    );
    for format in ["human", "markdown", "github", "html"] {
        let out = run(db.path(), &args(&site, &archive, &["--format", format]));
        assert_eq!(out.code, 1, "{format}: {}", out.stderr);
        assert!(out.stdout.contains(&copy), "{format}:\n{}", out.stdout);
        assert!(
            out.stdout
                .contains("archived copy (unverified: the same media type) at 20240101000000"),
            "{format}:\n{}",
            out.stdout
        );
    }
    let human = run(db.path(), &args(&site, &archive, &[]));
    let line = human
        .stdout
        .lines()
        .find(|l| l.starts_with("example.test.yaml:") && l.contains("gone.pdf"))
        .expect("the broken line");
    assert!(
        line.ends_with(&format!("HTTP 404 Not Found; {copy}")),
        "{line}"
    );
}

#[test]
fn a_lookup_kept_in_the_history_is_not_asked_again() {
    let site = Site::start();
    let archive = Archive::start();
    let db = database();
    let history = db.path().join("history.jsonl");
    let history = history.to_str().expect("utf-8");
    let first = run(
        db.path(),
        &args(&site, &archive, &["--history", history, "--format", "json"]),
    );
    assert_eq!(first.code, 1, "{}", first.stderr);
    let asked = archive.requests().len();
    assert_eq!(asked, 8);
    let text = std::fs::read_to_string(history).expect("history");
    assert!(text.contains("\"facts\":{\"archive\":"), "{text}");
    let second = run(
        db.path(),
        &args(&site, &archive, &["--history", history, "--format", "json"]),
    );
    assert_eq!(second.code, 1, "{}", second.stderr);
    assert_eq!(
        archive.requests().len(),
        asked,
        "the archive was asked again"
    );
    let report = json(&second);
    let a = archived(&report, "example.test.yaml", "/gone.pdf");
    assert_eq!(
        (a["verdict"].as_str(), a["timestamp"].as_str()),
        (Some("identical"), Some("20240101000000"))
    );
    // Without --archive, no request goes to the archive at all.
    let mut plain = args(&site, &archive, &[]);
    plain.retain(|a| a != "--archive");
    let url = plain
        .iter()
        .position(|a| a == "--archive-url")
        .expect("flag");
    plain.drain(url..url + 2);
    let out = run(db.path(), &plain);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(archive.requests().len(), asked);
}

#[test]
fn shards_share_the_archives_pace() {
    let site = Site::start();
    let arrivals: Arc<Mutex<Vec<std::time::Instant>>> = Arc::default();
    let log = Arc::clone(&arrivals);
    let support::http::Listening { port, .. } = support::http::listen(
        move |mut stream: TcpStream, _path: &str| {
            log.lock().expect("lock").push(std::time::Instant::now());
            let _ = stream.write_all(
                b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]",
            );
        },
    );
    let records: Vec<String> = (0..6).map(|i| pdf(&format!("/gone/{i}.pdf"))).collect();
    let refs: Vec<&str> = records.iter().map(String::as_str).collect();
    let db = super::outcomes::database("", &refs);
    let interval = std::time::Duration::from_millis(150);
    let mut asked = 0;
    for shard in ["1/2", "2/2"] {
        arrivals.lock().expect("lock").clear();
        let out = super::outcomes::verify(
            db.path(),
            &[
                "--allow-private",
                "--map",
                &format!("example.test=http://127.0.0.1:{}", site.port),
                "--archive",
                "--archive-url",
                &format!("http://127.0.0.1:{port}"),
                "--per-host-interval",
                "150ms",
                "--shard",
                shard,
                "--shard-by",
                "url",
                "--format",
                "json",
            ],
        );
        assert!(matches!(out.code, 0 | 1), "{}", out.stderr);
        let at = arrivals.lock().expect("lock").clone();
        asked += at.len();
        // Two shards at once: each asks the archive at most every two
        // intervals, so that together they keep one.
        for pair in at.windows(2) {
            assert!(
                pair[1] - pair[0] >= interval * 2 - std::time::Duration::from_millis(20),
                "shard {shard}: {:?}",
                pair[1] - pair[0]
            );
        }
    }
    // Every broken URL was asked about, by one shard or the other.
    assert_eq!(asked, 6);
}
