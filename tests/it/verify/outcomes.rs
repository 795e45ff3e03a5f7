//! `urldb verify` against a real HTTP server on 127.0.0.1: every outcome
//! the reference tool's semantics define, the network failures, the
//! private-address guard, robots.txt, and each output format.

use crate::support;

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};
use support::urldb;

/// 50 MB: larger than any buffer urldb may keep, to show memory stays flat.
const BIG: u64 = 50 * 1000 * 1000;

/// A small threaded HTTP/1.1 server: one thread per connection, one
/// request per connection (`Connection: close`), answers chosen by path.
pub(crate) struct Server {
    port: u16,
    connections: Arc<AtomicUsize>,
    pub(crate) requests: Arc<Mutex<Vec<String>>>,
}

impl Server {
    pub(crate) fn start() -> Server {
        let hits: Arc<Mutex<HashMap<String, usize>>> = Arc::default();
        let support::http::Listening {
            port,
            connections,
            requests,
            ..
        } = support::http::listen(move |stream, path| serve(stream, path, &hits));
        Server {
            port,
            connections,
            requests,
        }
    }

    pub(crate) fn addr(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    pub(crate) fn hits(&self, path: &str) -> usize {
        self.requests
            .lock()
            .expect("lock")
            .iter()
            .filter(|p| *p == path)
            .count()
    }
}

fn serve(mut stream: TcpStream, path: &str, hits: &Mutex<HashMap<String, usize>>) {
    let hit = {
        let mut hits = hits.lock().expect("lock");
        let n = hits.entry(path.to_string()).or_insert(0);
        *n += 1;
        *n
    };
    let respond = |stream: &mut TcpStream, status: &str, headers: &[(&str, &str)], body: &[u8]| {
        let mut head = format!("HTTP/1.1 {status}\r\nConnection: close\r\n");
        for (k, v) in headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
        let _ = stream.write_all(head.as_bytes());
        let _ = stream.write_all(body);
    };
    let ct = |t: &'static str| [("Content-Type", t)];
    match path.split('?').next().unwrap_or_default() {
        "/robots.txt" => respond(
            &mut stream,
            "200 OK",
            &ct("text/plain"),
            b"User-agent: other\nDisallow: /\n\nUser-agent: *\nDisallow: /private\n",
        ),
        "/ok" | "/private/page" | "/also-ok" => {
            respond(&mut stream, "200 OK", &ct("text/html"), b"<p>hi</p>")
        }
        "/typed" => respond(&mut stream, "200 OK", &ct("text/html; charset=utf-8"), b"x"),
        "/js" => respond(&mut stream, "200 OK", &ct("application/x-javascript"), b"1"),
        "/zip" => respond(
            &mut stream,
            "200 OK",
            &ct("application/x-zip-compressed"),
            b"PK",
        ),
        "/plain" => respond(&mut stream, "200 OK", &ct("text/plain"), b"x"),
        "/no-type" => respond(&mut stream, "200 OK", &[], b"x"),
        "/missing" => respond(&mut stream, "404 Not Found", &ct("text/html"), b"no"),
        "/flaky" if hit == 1 => respond(&mut stream, "500 Internal Server Error", &[], b""),
        "/flaky" => respond(&mut stream, "200 OK", &ct("text/html"), b"ok now"),
        "/down" => respond(&mut stream, "503 Service Unavailable", &[], b""),
        "/moved" => respond(
            &mut stream,
            "301 Moved Permanently",
            &[("Location", "/ok")],
            b"",
        ),
        "/found" => respond(&mut stream, "302 Found", &[("Location", "/ok")], b""),
        // What a hostile server may send back, quoted in the reasons
        // (tests/it/verify/html.rs shows it stays text).
        "/evil-type" => respond(
            &mut stream,
            "200 OK",
            &ct("text/html</script><script>window.pwned=1</script><!--"),
            b"x",
        ),
        "/evil-redirect" => respond(
            &mut stream,
            "301 Moved Permanently",
            &[("Location", "javascript:window.pwned=1//\"><img src=x>")],
            b"",
        ),
        "/static" => respond(
            &mut stream,
            "200 OK",
            &ct("application/octet-stream"),
            b"abc",
        ),
        // Many URLs (tests/it/verify/matrix.rs): pages that answer, pages
        // that are gone, and one that works once and then is gone.
        p if p.starts_with("/page/") => respond(&mut stream, "200 OK", &ct("text/html"), b"p"),
        p if p.starts_with("/gone/") => respond(&mut stream, "404 Not Found", &[], b""),
        "/sours" if hit == 1 => respond(&mut stream, "200 OK", &ct("text/html"), b"ok"),
        "/sours" => respond(&mut stream, "404 Not Found", &[], b""),
        "/slow" => {
            std::thread::sleep(Duration::from_secs(3));
            respond(&mut stream, "200 OK", &ct("text/html"), b"late");
        }
        "/reset" => {
            // Close without a word: the client sees the connection end.
            drop(stream);
        }
        "/big" => {
            let head = format!(
                "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Type: application/octet-stream\r\nContent-Length: {BIG}\r\n\r\n"
            );
            if stream.write_all(head.as_bytes()).is_err() {
                return;
            }
            let chunk = big_chunk();
            let mut left = BIG;
            while left > 0 {
                let n = left.min(chunk.len() as u64) as usize;
                if stream.write_all(&chunk[..n]).is_err() {
                    return;
                }
                left -= n as u64;
            }
        }
        _ => respond(&mut stream, "404 Not Found", &[], b""),
    }
}

/// The big body is this 64 KiB chunk repeated.
fn big_chunk() -> Vec<u8> {
    (0..65536u32).map(|i| (i % 251) as u8).collect()
}

fn sha256(data: &[u8]) -> String {
    hex(&Sha256::digest(data))
}

fn big_sha256() -> String {
    let chunk = big_chunk();
    let mut hasher = Sha256::new();
    let mut left = BIG;
    while left > 0 {
        let n = left.min(chunk.len() as u64) as usize;
        hasher.update(&chunk[..n]);
        left -= n as u64;
    }
    hex(&hasher.finalize())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A database directory with `example.test.yaml` holding `records` (YAML
/// record documents without their `---`).
pub(crate) fn database(metadata: &str, records: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut text = format!("---\n{metadata}");
    for r in records {
        text.push_str("---\n");
        text.push_str(r);
    }
    std::fs::write(dir.path().join("example.test.yaml"), text).expect("write");
    dir
}

pub(crate) fn record(path: &str, content_type: &str, categories: &[&str]) -> String {
    let mut s = format!("_path: {path}\n");
    if !categories.is_empty() {
        s.push_str("categories:\n");
        for c in categories {
            s.push_str(&format!("- {c}\n"));
        }
    }
    s.push_str(&format!("content-type: {content_type}\n"));
    s
}

fn static_record(path: &str, length: u64, sha: &str) -> String {
    format!(
        "_path: {path}\ncontent-length: {length}\ncontent-sha256: {sha}\ncontent-type: application/octet-stream\n"
    )
}

pub(crate) struct Run {
    pub(crate) code: i32,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
    pub(crate) elapsed: Duration,
}

pub(crate) fn verify(dir: &Path, args: &[&str]) -> Run {
    let start = Instant::now();
    let out = urldb()
        .current_dir(dir)
        .arg("verify")
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("URLDB_FORMAT")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run urldb");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        elapsed: start.elapsed(),
    }
}

pub(crate) fn json(run: &Run) -> serde_json::Value {
    serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}\n{}", run.stdout, run.stderr))
}

/// url path → (outcome, kind, attempts) from a JSON report.
fn outcomes(report: &serde_json::Value) -> HashMap<String, (String, String, u64)> {
    report["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            let url = r["url"].as_str().expect("url");
            let path = url
                .splitn(4, '/')
                .nth(3)
                .map(|p| format!("/{p}"))
                .expect("path");
            (
                path,
                (
                    r["outcome"].as_str().expect("outcome").to_string(),
                    r["kind"].as_str().unwrap_or("").to_string(),
                    r["attempts"].as_u64().expect("attempts"),
                ),
            )
        })
        .collect()
}

pub(crate) fn map_arg(server: &Server) -> String {
    format!("example.test={}", server.addr())
}

#[test]
fn every_http_outcome_is_judged_by_the_record() {
    let server = Server::start();
    let abc = sha256(b"abc");
    let records = [
        record("/ok", "text/html", &[]),
        record("/typed", "text/html", &[]),
        record("/js", "application/javascript", &[]),
        record("/zip", "application/zip", &[]),
        record("/plain", "text/html", &[]),
        record("/no-type", "text/html", &[]),
        record("/also-ok", "text/plain", &["content-type-change-ok"]),
        record("/missing", "text/html", &[]),
        record("/flaky", "text/html", &[]),
        record("/down", "text/html", &[]),
        record("/moved", "text/html", &[]),
        record("/found", "text/html", &["redirect-ok"]),
        record("/moved?marker", "X-301-Redirect", &[]),
        record("/found?marker", "X-301-Redirect", &[]),
        record("/ok?marker", "X-301-Redirect", &[]),
        static_record("/static", 3, &abc),
        static_record("/static?length", 4, &abc),
        static_record("/static?bytes", 3, &sha256(b"abd")),
    ];
    let refs: Vec<&str> = records.iter().map(String::as_str).collect();
    let db = database("", &refs);
    let run = verify(
        db.path(),
        &[
            "--allow-private",
            "--map",
            &map_arg(&server),
            "--format",
            "json",
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report = json(&run);
    let got = outcomes(&report);
    let expect = |path: &str, outcome: &str, kind: &str| {
        let (o, k, _) = got
            .get(path)
            .unwrap_or_else(|| panic!("no result for {path}"));
        assert_eq!((o.as_str(), k.as_str()), (outcome, kind), "{path}");
    };
    expect("/ok", "ok", "");
    expect("/typed", "ok", "");
    expect("/js", "ok", "");
    expect("/zip", "ok", "");
    expect("/plain", "broken", "content-type");
    expect("/no-type", "broken", "content-type");
    expect("/also-ok", "ok", "");
    expect("/missing", "broken", "status");
    expect("/flaky", "ok", "");
    expect("/down", "broken", "status");
    expect("/moved", "broken", "unexpected-redirect");
    expect("/found", "ok", "");
    expect("/moved?marker", "ok", "");
    expect("/found?marker", "broken", "wrong-redirect");
    expect("/ok?marker", "broken", "not-a-redirect");
    expect("/static", "ok", "");
    expect("/static?length", "broken", "content-length");
    expect("/static?bytes", "broken", "content-sha256");
    // 500 then 200: one retry. A lasting 503: 1 + 2 retries.
    assert_eq!(got["/flaky"].2, 2);
    assert_eq!(got["/down"].2, 3);
    assert_eq!(got["/ok"].2, 1);
    let summary = &report["summary"];
    assert_eq!(summary["urls"], 18);
    assert_eq!(summary["broken"], 9);
    assert_eq!(summary["ok"], 9);
}

#[test]
fn the_human_report_names_file_line_url_and_reason() {
    let server = Server::start();
    let db = database(
        "",
        &[
            &record("/missing", "text/html", &[]),
            &record("/moved", "text/html", &[]),
            &record("/ok", "text/html", &[]),
        ],
    );
    let run = verify(db.path(), &["--allow-private", "--map", &map_arg(&server)]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let url = format!("http://{}", server.addr());
    assert_eq!(
        run.stdout,
        format!(
            "example.test.yaml:3: {url}/missing: HTTP 404 Not Found\n\
             example.test.yaml:6: {url}/moved: redirect 301 to /ok; the record expects `text/html` (a redirect passes with category `redirect-ok` or content type `X-301-Redirect`)\n\
             {}",
            run.stdout
                .lines()
                .last()
                .map(|l| format!("{l}\n"))
                .unwrap_or_default()
        )
    );
    let summary = run.stdout.lines().last().expect("summary");
    assert!(
        summary.starts_with("2 of 3 URLs broken (1 ok) in "),
        "{summary}"
    );
}

#[test]
fn all_good_exits_zero_with_a_summary() {
    let server = Server::start();
    let db = database("", &[&record("/ok", "text/html", &[])]);
    let run = verify(db.path(), &["--allow-private", "--map", &map_arg(&server)]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.starts_with("All 1 URL passed (1 ok) in "),
        "{}",
        run.stdout
    );
    let quiet = verify(
        db.path(),
        &["-q", "--allow-private", "--map", &map_arg(&server)],
    );
    assert_eq!((quiet.code, quiet.stdout.as_str()), (0, ""));
}

#[test]
fn retries_are_bounded_by_the_option() {
    let server = Server::start();
    let db = database("", &[&record("/down", "text/html", &[])]);
    let run = verify(
        db.path(),
        &[
            "--allow-private",
            "--map",
            &map_arg(&server),
            "--retries",
            "0",
            "--format",
            "json",
        ],
    );
    assert_eq!(run.code, 1);
    assert_eq!(outcomes(&json(&run))["/down"].2, 1);
    assert_eq!(server.hits("/down"), 1);
}

#[test]
fn retries_come_from_urldb_toml_when_not_given() {
    let server = Server::start();
    let db = database("", &[&record("/down", "text/html", &[])]);
    std::fs::write(db.path().join("urldb.toml"), "[verify]\nretries = 1\n").expect("write");
    let run = verify(db.path(), &["--allow-private", "--map", &map_arg(&server)]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(server.hits("/down"), 2);
}

#[test]
fn timeout_comes_from_urldb_toml_when_not_given() {
    let server = Server::start();
    let db = database("", &[&record("/slow", "text/html", &[])]);
    std::fs::write(
        db.path().join("urldb.toml"),
        "[verify]\ntimeout = \"300ms\"\nretries = 0\n",
    )
    .expect("write");
    let run = verify(
        db.path(),
        &[
            "--allow-private",
            "--map",
            &map_arg(&server),
            "--format",
            "json",
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(outcomes(&json(&run))["/slow"].1, "timeout");
    assert_eq!(server.hits("/slow"), 1);
}

#[test]
fn a_slow_answer_times_out() {
    let server = Server::start();
    let db = database("", &[&record("/slow", "text/html", &[])]);
    let run = verify(
        db.path(),
        &[
            "--allow-private",
            "--map",
            &map_arg(&server),
            "--timeout",
            "300ms",
            "--retries",
            "0",
            "--format",
            "json",
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report = json(&run);
    assert_eq!(outcomes(&report)["/slow"].1, "timeout");
    assert!(
        run.elapsed < Duration::from_millis(2500),
        "{:?}",
        run.elapsed
    );
}

#[test]
fn a_connection_closed_without_an_answer_is_broken() {
    let server = Server::start();
    let db = database("", &[&record("/reset", "text/html", &[])]);
    let run = verify(
        db.path(),
        &[
            "--allow-private",
            "--map",
            &map_arg(&server),
            "--retries",
            "1",
            "--format",
            "json",
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report = json(&run);
    let result = &report["results"][0];
    assert_eq!(result["kind"], "no-answer");
    let reason = result["reason"].as_str().expect("reason");
    assert!(reason.starts_with("no answer: "), "{reason}");
    // A connection error is retried.
    assert_eq!(server.hits("/reset"), 2);
}

#[test]
fn a_refused_connection_is_broken() {
    let port = {
        let l = TcpListener::bind("127.0.0.1:0").expect("bind");
        l.local_addr().expect("addr").port()
    };
    let db = database("", &[&record("/ok", "text/html", &[])]);
    let run = verify(
        db.path(),
        &[
            "--allow-private",
            "--map",
            &format!("example.test=127.0.0.1:{port}"),
            "--retries",
            "0",
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stdout.contains("/ok: no answer: connection refused"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_50_mb_static_body_is_streamed_in_flat_memory() {
    let server = Server::start();
    let db = database("", &[&static_record("/big", BIG, &big_sha256())]);
    let mut child = urldb()
        .current_dir(db.path())
        .args(["verify", "--allow-private", "--map", &map_arg(&server)])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    // The kernel's high-water mark of the process's resident memory,
    // sampled until it exits (it only grows).
    let status_file = PathBuf::from(format!("/proc/{}/status", child.id()));
    let mut peak_kb = 0u64;
    let status = loop {
        if let Ok(text) = std::fs::read_to_string(&status_file)
            && let Some(kb) = text
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        {
            peak_kb = peak_kb.max(kb);
        }
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut stdout)
        .expect("read");
    assert_eq!(status.code(), Some(0), "{stdout}");
    assert!(peak_kb > 0, "no memory sample");
    assert!(
        peak_kb < 40 * 1024,
        "peak RSS {peak_kb} kB for a 50 MB body"
    );
}

#[test]
fn a_body_over_the_limit_is_broken() {
    let server = Server::start();
    let db = database("", &[&static_record("/big", BIG, &big_sha256())]);
    let run = verify(
        db.path(),
        &[
            "--allow-private",
            "--map",
            &map_arg(&server),
            "--max-body",
            "1 MiB",
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("no answer: body larger than the 1048576-byte limit"),
        "{}",
        run.stdout
    );
}

#[test]
fn without_allow_private_every_url_is_refused_and_no_connection_made() {
    let server = Server::start();
    let db = database(
        "",
        &[
            &record("/ok", "text/html", &[]),
            &record("/missing", "text/html", &[]),
        ],
    );
    let run = verify(db.path(), &["--map", &map_arg(&server), "--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report = json(&run);
    for r in report["results"].as_array().expect("results") {
        assert_eq!(r["kind"], "private-address", "{r}");
        assert_eq!(
            r["reason"],
            "no answer: refused to connect to 127.0.0.1 (loopback address of `127.0.0.1`)"
        );
    }
    assert_eq!(report["summary"]["private"], 2);
    assert_eq!(server.connections.load(Ordering::SeqCst), 0);

    let human = verify(db.path(), &["--map", &map_arg(&server)]);
    assert!(
        human.stdout.contains("--allow-private fetches them"),
        "{}",
        human.stdout
    );
    assert_eq!(server.connections.load(Ordering::SeqCst), 0);
}

#[test]
fn a_name_that_resolves_to_loopback_is_refused() {
    let server = Server::start();
    let db = database("", &[&record("/ok", "text/html", &[])]);
    let run = verify(
        db.path(),
        &[
            "--map",
            &format!("example.test=localhost:{}", server.port),
            "--format",
            "json",
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report = json(&run);
    let reason = report["results"][0]["reason"].as_str().expect("reason");
    assert!(
        reason.contains("loopback address of `localhost`"),
        "{reason}"
    );
    assert_eq!(server.connections.load(Ordering::SeqCst), 0);
}

#[test]
fn deprecated_records_are_skipped_unless_included() {
    let server = Server::start();
    let db = database(
        "",
        &[
            &record("/missing", "text/html", &["deprecated"]),
            &record("/ok", "text/html", &[]),
        ],
    );
    let run = verify(db.path(), &["--allow-private", "--map", &map_arg(&server)]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(
        run.stdout.contains("1 deprecated record not checked"),
        "{}",
        run.stdout
    );
    assert_eq!(server.hits("/missing"), 0);
    let run = verify(
        db.path(),
        &[
            "--allow-private",
            "--map",
            &map_arg(&server),
            "--include-deprecated",
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert_eq!(server.hits("/missing"), 1);
}

#[test]
fn filters_select_records_like_ls() {
    let server = Server::start();
    let db = database(
        "",
        &[
            &record("/missing", "text/html", &["backend"]),
            &record("/ok", "text/html", &["frontend"]),
        ],
    );
    let base = ["--allow-private", "--map", &map_arg(&server)];
    let with = |extra: &[&str]| {
        let mut args: Vec<&str> = base.to_vec();
        args.extend_from_slice(extra);
        verify(db.path(), &args)
    };
    assert_eq!(with(&["--category", "frontend"]).code, 0);
    assert_eq!(with(&["--path-prefix", "/o"]).code, 0);
    // `--match` is the data.txt draft's pattern, as in `ls`.
    assert_eq!(with(&["--match", "/%6Fk"]).code, 0);
    assert_eq!(with(&["--match", "/mis"]).code, 1);
    assert_eq!(with(&["--category", "backend"]).code, 1);
    // A domain the database does not have is a mistake, not zero URLs.
    let unknown = with(&["--domain", "other.test"]);
    assert_eq!(unknown.code, 2, "{}", unknown.stderr);
    assert!(unknown.stdout.is_empty(), "{}", unknown.stdout);
    assert_eq!(with(&["example.test.yaml"]).code, 1);
    assert_eq!(server.hits("/ok"), 4);
}

#[test]
fn cnames_and_both_schemes_multiply_the_urls() {
    let server = Server::start();
    let db = database(
        "cnames:\n- www.example.test\n",
        &[&record("/ok", "text/html", &[])],
    );
    // Another spelling of the same server, so the two URLs differ.
    let www = format!("www.example.test=localhost:{}", server.port);
    let run = verify(
        db.path(),
        &[
            "--allow-private",
            "--map",
            &map_arg(&server),
            "--map",
            &www,
            "--cnames",
        ],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(server.hits("/ok"), 2);

    let run = verify(
        db.path(),
        &[
            "--allow-private",
            "--map",
            &map_arg(&server),
            "--both-schemes",
            "--retries",
            "0",
            "--format",
            "json",
        ],
    );
    let report = json(&run);
    let urls: Vec<(&str, &str)> = report["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            (
                r["url"].as_str().unwrap_or(""),
                r["outcome"].as_str().unwrap_or(""),
            )
        })
        .collect();
    let http = format!("http://{}/ok", server.addr());
    let https = format!("https://{}/ok", server.addr());
    // The test server speaks no TLS: the https URL has no answer.
    assert_eq!(urls, [(http.as_str(), "ok"), (https.as_str(), "broken")]);
    assert_eq!(run.code, 1);
}

#[test]
fn map_can_force_the_scheme() {
    let server = Server::start();
    let db = database("https: true\n", &[&record("/ok", "text/html", &[])]);
    let run = verify(
        db.path(),
        &[
            "--allow-private",
            "--map",
            &format!("example.test=http://{}", server.addr()),
        ],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(server.hits("/ok"), 1);
}

#[test]
fn robots_txt_disallowing_a_path_skips_it() {
    let server = Server::start();
    let db = database(
        "",
        &[
            &record("/private/page", "text/plain", &[]),
            &record("/ok", "text/html", &[]),
            &record("/also-ok", "text/html", &[]),
        ],
    );
    let run = verify(
        db.path(),
        &[
            "--allow-private",
            "--map",
            &map_arg(&server),
            "--respect-robots",
            "--format",
            "json",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stdout);
    let report = json(&run);
    let got = outcomes(&report);
    assert_eq!(got["/private/page"].0, "skipped");
    assert_eq!(got["/ok"].0, "ok");
    assert_eq!(report["summary"]["skipped-robots"], 1);
    assert_eq!(server.hits("/robots.txt"), 1);
    assert_eq!(server.hits("/private/page"), 0);
}

/// URLs that robots.txt keeps from being requested passed nothing: a run
/// whose every URL is disallowed does not say "All N URLs passed", in
/// the human output nor in the job summary, and one with some says how
/// many passed.
#[test]
fn urls_robots_txt_disallows_are_not_said_to_pass() {
    let server = Server::start();
    let map = map_arg(&server);
    let all = database(
        "",
        &[
            &record("/private/page", "text/plain", &[]),
            &record("/private/other", "text/plain", &[]),
        ],
    );
    let args = ["--allow-private", "--map", &map, "--respect-robots"];
    let run = verify(all.path(), &args);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(!run.stdout.contains("passed"), "{}", run.stdout);
    assert!(
        run.stdout.starts_with(
            "None of the 2 URLs was requested: robots.txt disallows each (0 ok, 2 skipped by robots.txt)"
        ),
        "{}",
        run.stdout
    );
    let markdown = verify(all.path(), &[&args[..], &["--format", "markdown"]].concat());
    assert!(
        markdown
            .stdout
            .contains("None of the 2 URLs was requested: robots.txt disallows each."),
        "{}",
        markdown.stdout
    );
    let some = database(
        "",
        &[
            &record("/private/page", "text/plain", &[]),
            &record("/ok", "text/html", &[]),
        ],
    );
    let run = verify(some.path(), &args);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.starts_with(
            "1 of 2 URLs passed, none broken, the others not requested (1 ok, 1 skipped by robots.txt)"
        ),
        "{}",
        run.stdout
    );
}

#[test]
fn junit_and_github_formats() {
    let server = Server::start();
    let db = database(
        "",
        &[
            &record("/missing", "text/html", &[]),
            &record("/ok", "text/html", &[]),
        ],
    );
    let url = format!("http://{}", server.addr());
    let junit = verify(
        db.path(),
        &[
            "--allow-private",
            "--map",
            &map_arg(&server),
            "--format",
            "junit",
        ],
    );
    assert_eq!(junit.code, 1);
    assert!(junit.stdout.starts_with("<?xml"), "{}", junit.stdout);
    assert!(
        junit.stdout.contains(&format!(
            r#"<failure type="status" message="HTTP 404 Not Found">example.test.yaml:3: {url}/missing: HTTP 404 Not Found</failure>"#
        )),
        "{}",
        junit.stdout
    );
    assert!(
        junit.stdout.contains(r#"tests="2" failures="1""#),
        "{}",
        junit.stdout
    );

    let github = verify(
        db.path(),
        &[
            "--allow-private",
            "--map",
            &map_arg(&server),
            "--format",
            "github",
        ],
    );
    assert_eq!(github.code, 1);
    assert_eq!(
        github.stdout,
        format!(
            "::error file=example.test.yaml,line=3,title=urldb verify (status)::{url}/missing: HTTP 404 Not Found\n"
        )
    );
}

/// `URLDB_FORMAT` (the Action sets it for every command) chooses verify's
/// output as it chooses check's and fmt's: `github` annotates, `json` is
/// JSON, check's human formats are verify's; `--format` wins; a value that
/// is no format is exit 2.
#[test]
fn verify_reads_urldb_format_as_check_does() {
    let server = Server::start();
    let db = database("", &[&record("/missing", "text/html", &[])]);
    let map = map_arg(&server);
    let with = |value: &str, extra: &[&str]| {
        let out = urldb()
            .current_dir(db.path())
            .args(["verify", "--allow-private", "--retries", "0", "--map", &map])
            .args(extra)
            .env("NO_COLOR", "1")
            .env("URLDB_FORMAT", value)
            .stdin(std::process::Stdio::null())
            .output()
            .expect("run urldb");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, stdout, _) = with("github", &[]);
    assert_eq!(code, Some(1));
    assert!(
        stdout.starts_with("::error file=example.test.yaml,line=3,title=urldb verify (status)::"),
        "{stdout}"
    );
    let (code, stdout, _) = with("json", &[]);
    assert_eq!(code, Some(1));
    assert!(
        serde_json::from_str::<serde_json::Value>(&stdout).is_ok(),
        "{stdout}"
    );
    for human in ["full", "concise", "sarif", ""] {
        let (code, stdout, _) = with(human, &[]);
        assert_eq!(code, Some(1));
        assert!(
            stdout.contains("/missing: HTTP 404 Not Found"),
            "{human}: {stdout}"
        );
        assert!(
            !stdout.starts_with("::") && !stdout.starts_with('{'),
            "{human}: {stdout}"
        );
    }
    let (code, stdout, _) = with("github", &["--format", "json"]);
    assert_eq!(code, Some(1));
    assert!(stdout.starts_with('{'), "{stdout}");
    let (code, _, stderr) = with("annotations", &[]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("URLDB_FORMAT: `annotations` is not a format"),
        "{stderr}"
    );
}

#[test]
fn usage_errors_exit_2() {
    let db = database("", &[&record("/ok", "text/html", &[])]);
    let bad_timeout = verify(db.path(), &["--timeout", "soon"]);
    assert_eq!(bad_timeout.code, 2);
    assert!(
        bad_timeout.stderr.contains("`soon` is not a duration"),
        "{}",
        bad_timeout.stderr
    );
    let bad_map = verify(db.path(), &["--map", "example.test"]);
    assert_eq!(bad_map.code, 2);
    assert!(bad_map.stderr.contains("DOMAIN=HOST"), "{}", bad_map.stderr);
    let zero = verify(db.path(), &["--concurrency", "0"]);
    assert_eq!(zero.code, 2);
    assert!(zero.stderr.contains("at least 1"), "{}", zero.stderr);
    let size = verify(db.path(), &["--max-body", "lots"]);
    assert_eq!(size.code, 2);
    assert!(size.stderr.contains("not a size"), "{}", size.stderr);
    let missing = verify(db.path(), &["nope.yaml"]);
    assert_eq!(missing.code, 2);
    assert!(
        missing.stderr.contains("no such file"),
        "{}",
        missing.stderr
    );
}

#[test]
fn records_that_cannot_be_verified_exit_2() {
    let server = Server::start();
    let db = database("", &["_path: /ok\n", &record("/ok", "text/html", &[])]);
    let run = verify(db.path(), &["--allow-private", "--map", &map_arg(&server)]);
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(
        run.stderr
            .contains("example.test.yaml:3: record without a `content-type`"),
        "{}",
        run.stderr
    );
    // The rest is verified all the same.
    assert_eq!(server.hits("/ok"), 1);
}
