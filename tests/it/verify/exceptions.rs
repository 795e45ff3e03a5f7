//! `urldb.toml`'s verify exceptions against real HTTP servers on
//! 127.0.0.1 (`docs/verify-exceptions.md`): accepted statuses, skipped
//! URLs (never requested: the servers' logs say so), headers and user
//! agent per host (a second server sees none, also behind a redirect to
//! it), secrets never printed, bot walls `blocked`, and `--max-age`.

use crate::support;

use std::io::Write;
use std::net::TcpStream;
use std::path::Path;
use std::sync::{Arc, Mutex};

use super::outcomes::{Run, json, record, verify};

/// A server on 127.0.0.1 that answers by path; keeps every request's
/// target and head.
struct Server {
    port: u16,
    requests: Arc<Mutex<Vec<String>>>,
    heads: Arc<Mutex<Vec<String>>>,
}

impl Server {
    fn start() -> Server {
        Server::redirecting_to(0)
    }

    /// A server whose `/redirect` sends to `127.0.0.1:port`.
    fn redirecting_to(redirect: u16) -> Server {
        let support::http::Listening {
            port,
            requests,
            heads,
            ..
        } = support::http::listen(move |mut stream: TcpStream, path| {
            let _ = stream.write_all(answer(path, redirect).as_bytes());
        });
        Server {
            port,
            requests,
            heads,
        }
    }

    fn addr(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    fn requests(&self) -> Vec<String> {
        self.requests.lock().expect("lock").clone()
    }

    fn heads(&self) -> Vec<String> {
        self.heads.lock().expect("lock").clone()
    }
}

fn response(status: &str, headers: &[(&str, &str)], body: &str) -> String {
    let mut head = format!("HTTP/1.1 {status}\r\nConnection: close\r\n");
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    format!("{head}Content-Length: {}\r\n\r\n{body}", body.len())
}

/// The answers of the tests below, by path.
fn answer(path: &str, redirect: u16) -> String {
    let html = [("Content-Type", "text/html")];
    let elsewhere = format!("http://127.0.0.1:{redirect}/ok");
    match path {
        "/forbidden" => response("403 Forbidden", &html, "no"),
        "/error" => response("500 Internal Server Error", &html, "oops"),
        "/gone" => response("410 Gone", &html, "gone"),
        "/challenge" => response(
            "403 Forbidden",
            &[("Content-Type", "text/html"), ("cf-mitigated", "challenge")],
            "wait",
        ),
        "/interstitial" => response(
            "503 Service Unavailable",
            &html,
            "<!DOCTYPE html><html><head><title>Just a moment...</title></head></html>",
        ),
        "/slow-down" => response(
            "429 Too Many Requests",
            &[("Content-Type", "text/html"), ("Retry-After", "3600")],
            "later",
        ),
        "/redirect" => response("302 Found", &[("Location", elsewhere.as_str())], ""),
        _ => response("200 OK", &html, "ok"),
    }
}

/// A database of domain files (name, records) and a `urldb.toml`.
fn database(files: &[(&str, &[String])], config: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, records) in files {
        let mut text = "---\n".to_string();
        for r in *records {
            text.push_str("---\n");
            text.push_str(r);
        }
        std::fs::write(dir.path().join(format!("{name}.yaml")), text).expect("write");
    }
    std::fs::write(dir.path().join("urldb.toml"), config).expect("write");
    dir
}

fn html(path: &str) -> String {
    record(path, "text/html", &[])
}

/// An explicit `http://` map: the one way credentials go over plain http.
fn map(domain: &str, server: &Server) -> String {
    format!("{domain}=http://{}", server.addr())
}

/// Path → (outcome, kind) of a JSON report.
fn verdicts(report: &serde_json::Value) -> Vec<(String, String, String)> {
    report["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            let url = r["url"].as_str().expect("url");
            let path = url.splitn(4, '/').nth(3).unwrap_or_default();
            (
                format!("/{path}"),
                r["outcome"].as_str().unwrap_or_default().to_string(),
                r["kind"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

fn verdict_of(report: &serde_json::Value, path: &str) -> (String, String) {
    verdicts(report)
        .into_iter()
        .find(|(p, _, _)| p == path)
        .map(|(_, o, k)| (o, k))
        .unwrap_or_else(|| panic!("no result for {path}"))
}

#[test]
fn accepted_statuses_pass_and_are_counted_apart() {
    let server = Server::start();
    let records = [
        html("/ok"),
        html("/forbidden"),
        html("/error"),
        html("/gone"),
    ];
    let db = database(
        &[("example.test", &records)],
        "[verify]\naccept = [403]\n\n[verify.domains.\"example.test\"]\naccept = [\"500-599\"]\n",
    );
    let m = map("example.test", &server);
    // One retry allowed: a 5xx not accepted would be asked twice.
    let args = ["--allow-private", "--retries", "1", "--map", &m];
    let run = verify(db.path(), &[&args[..], &["--format", "json"]].concat());
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report = json(&run);
    assert_eq!(
        verdict_of(&report, "/forbidden"),
        ("ok".into(), "accepted".into())
    );
    assert_eq!(
        verdict_of(&report, "/error"),
        ("ok".into(), "accepted".into())
    );
    assert_eq!(
        verdict_of(&report, "/gone"),
        ("broken".into(), "status".into())
    );
    assert_eq!(verdict_of(&report, "/ok"), ("ok".into(), String::new()));
    let summary = &report["summary"];
    assert_eq!(
        (&summary["ok"], &summary["accepted"], &summary["broken"]),
        (&3.into(), &2.into(), &1.into())
    );
    // A 500 accepted is not retried either: one request each.
    assert_eq!(
        server.requests().iter().filter(|p| *p == "/error").count(),
        1
    );
    let human = verify(db.path(), &args);
    let last = human.stdout.lines().last().unwrap_or_default().to_string();
    assert!(
        last.starts_with("1 of 4 URLs broken (3 ok, 2 of them by a status urldb.toml accepts)"),
        "{last}"
    );
}

#[test]
fn skipped_urls_are_never_requested() {
    let server = Server::start();
    let records = [
        html("/ok"),
        html("/private/a"),
        html("/%70rivate/b"),
        html("/login?next=/"),
        html("/admin/x"),
        record("/nocheck", "text/html", &["skip-verify"]),
    ];
    let db = database(
        &[("example.test", &records)],
        "[verify]\nskip = [\"/private/\", \"http://example.test/login\"]\n\n\
         [verify.domains.\"example.test\"]\nskip = [\"/admin\"]\n",
    );
    let m = map("example.test", &server);
    let run = verify(
        db.path(),
        &["--allow-private", "--map", &m, "--format", "json"],
    );
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert_eq!(server.requests(), ["/ok"]);
    let report = json(&run);
    for path in ["/private/a", "/%70rivate/b", "/login?next=/", "/admin/x"] {
        assert_eq!(
            verdict_of(&report, path),
            ("skipped".into(), "skip".into()),
            "{path}"
        );
    }
    assert_eq!(
        verdict_of(&report, "/nocheck"),
        ("skipped".into(), "skip-verify".into())
    );
    assert_eq!(report["summary"]["skipped"], 5);
    assert_eq!(report["summary"]["skipped-robots"], 0);
    // `check` accepts the category though the vocabulary does not list it.
    let db = database(
        &[(
            "example.test",
            &[record("/a", "text/html", &["skip-verify"])],
        )],
        "[lint]\ncategories = [\"docs\"]\n",
    );
    let check = support::run_in(db.path(), &["check"]);
    assert_eq!(
        check.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
}

const SECRET: &str = "s3cret-Value-9f2c";

fn header_config() -> &'static str {
    "[verify.domains.\"a.test\"]\n\
     user-agent = \"docs-bot/1.0\"\n\
     headers = { Authorization = \"env:URLDB_TEST_TOKEN\", X-Team = \"docs\" }\n"
}

fn verify_with_secret(dir: &Path, args: &[&str]) -> Run {
    let start = std::time::Instant::now();
    let out = support::urldb()
        .current_dir(dir)
        .arg("verify")
        .args(args)
        .env("NO_COLOR", "1")
        .env("URLDB_TEST_TOKEN", SECRET)
        .env("URLDB_ALLOW_ENV", "URLDB_TEST_TOKEN=a.test")
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

#[test]
fn headers_reach_only_their_host_even_behind_a_redirect() {
    let b = Server::start();
    let a = Server::redirecting_to(b.port);
    let a_records = [
        html("/ok"),
        record("/redirect", "text/html", &["redirect-ok"]),
    ];
    let b_records = [html("/ok")];
    let db = database(
        &[("a.test", &a_records), ("b.test", &b_records)],
        header_config(),
    );
    let (ma, mb) = (map("a.test", &a), map("b.test", &b));
    let run = verify_with_secret(db.path(), &["--allow-private", "--map", &ma, "--map", &mb]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let a_heads = a.heads();
    assert_eq!(a_heads.len(), 2, "{a_heads:?}");
    for head in &a_heads {
        let lower = head.to_ascii_lowercase();
        assert!(
            lower.contains(&format!("authorization: {}", SECRET.to_ascii_lowercase())),
            "{head}"
        );
        assert!(lower.contains("x-team: docs"), "{head}");
        assert!(lower.contains("user-agent: docs-bot/1.0"), "{head}");
    }
    // b.test's own record only: the redirect to it is not followed, and
    // nothing of a.test's reaches it.
    assert_eq!(b.requests(), ["/ok"]);
    for head in b.heads() {
        assert!(!head.contains(SECRET), "{head}");
        let lower = head.to_ascii_lowercase();
        assert!(!lower.contains("authorization"), "{head}");
        assert!(!lower.contains("x-team"), "{head}");
        assert!(lower.contains("user-agent: urldb/"), "{head}");
    }
}

#[test]
fn a_secret_is_never_in_any_output_nor_the_history() {
    let a = Server::start();
    // A broken URL and a blocked one: their reasons are printed everywhere.
    let records = [html("/ok"), html("/gone"), html("/challenge")];
    let db = database(&[("a.test", &records)], header_config());
    let history = db.path().join("history.jsonl");
    let h = history.to_str().expect("UTF-8 path");
    let ma = map("a.test", &a);
    for format in ["human", "json", "junit", "github", "markdown", "html"] {
        let run = verify_with_secret(
            db.path(),
            &[
                "-v",
                "--allow-private",
                "--map",
                &ma,
                "--format",
                format,
                "--history",
                h,
            ],
        );
        assert_eq!(run.code, 1, "{format}: {}", run.stderr);
        assert!(!run.stdout.is_empty(), "{format}");
        assert!(
            !run.stdout.contains(SECRET) && !run.stderr.contains(SECRET),
            "{format}: the secret was printed"
        );
    }
    let kept = std::fs::read_to_string(&history).expect("history");
    // One line per run (six) and per URL (three).
    assert_eq!(kept.lines().count(), 9);
    assert!(!kept.contains(SECRET));
    // The server did get it: the test above is not vacuous.
    assert!(a.heads().iter().all(|h| h.contains(SECRET)));
    // An unset variable stops the run before any request, naming it.
    let before = a.requests().len();
    let run = verify(
        db.path(),
        &[
            "--allow-private",
            "--map",
            &ma,
            "--allow-env",
            "URLDB_TEST_TOKEN=a.test",
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("`URLDB_TEST_TOKEN` is not set"),
        "{}",
        run.stderr
    );
    assert_eq!(a.requests().len(), before);
}

#[test]
fn a_bot_challenge_is_blocked_not_broken() {
    let server = Server::start();
    let records = [
        html("/ok"),
        html("/challenge"),
        html("/interstitial"),
        html("/slow-down"),
    ];
    let db = database(&[("example.test", &records)], "");
    let m = map("example.test", &server);
    let args = ["--allow-private", "--map", &m];
    let run = verify(db.path(), &[&args[..], &["--format", "json"]].concat());
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let report = json(&run);
    assert_eq!(
        verdict_of(&report, "/challenge"),
        ("blocked".into(), "challenge".into())
    );
    assert_eq!(
        verdict_of(&report, "/interstitial"),
        ("blocked".into(), "challenge".into())
    );
    assert_eq!(
        verdict_of(&report, "/slow-down"),
        ("blocked".into(), "retry-after".into())
    );
    let summary = &report["summary"];
    assert_eq!(
        (&summary["blocked"], &summary["broken"]),
        (&3.into(), &0.into())
    );
    // Not retried: a wall answers the same, and an hour is not waited.
    for path in ["/challenge", "/interstitial", "/slow-down"] {
        assert_eq!(
            server.requests().iter().filter(|p| *p == path).count(),
            1,
            "{path}"
        );
    }
    let failing = verify(db.path(), &[&args[..], &["--fail-on", "blocked"]].concat());
    assert_eq!(failing.code, 1, "{}", failing.stderr);
    assert!(
        failing
            .stdout
            .contains("/challenge: blocked: a bot challenge (HTTP 403 Forbidden)"),
        "{}",
        failing.stdout
    );
    let last = failing.stdout.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("All 4 URLs passed (1 ok, 3 blocked by a bot wall)"),
        "{last}"
    );
    // Every format counts them apart from broken.
    let junit = verify(db.path(), &[&args[..], &["--format", "junit"]].concat());
    assert!(
        junit
            .stdout
            .contains(r#"<property name="blocked" value="3"/>"#)
    );
    assert!(junit.stdout.contains(r#"failures="0""#));
    let github = verify(db.path(), &[&args[..], &["--format", "github"]].concat());
    assert_eq!(
        github.stdout.matches("::warning ").count(),
        3,
        "{}",
        github.stdout
    );
    assert!(!github.stdout.contains("::error"));
    let markdown = verify(db.path(), &[&args[..], &["--format", "markdown"]].concat());
    assert!(
        markdown
            .stdout
            .contains("### Blocked by a bot wall (not counted as broken) (3)")
    );
    let page = verify(db.path(), &[&args[..], &["--format", "html"]].concat());
    assert!(page.stdout.contains("id=\"count-blocked\""));
    assert!(page.stdout.contains("\"verdict\":\"blocked\""));
    // A plain 403 stays broken.
    let db = database(&[("example.test", &[html("/forbidden")])], "");
    let run = verify(db.path(), &args);
    assert_eq!(run.code, 1, "{}", run.stdout);
}

#[test]
fn html_can_show_accepted_and_skipped_urls() {
    let server = Server::start();
    let records = [html("/ok"), html("/forbidden"), html("/private/x")];
    let db = database(
        &[("example.test", &records)],
        "[verify]\naccept = [403]\nskip = [\"/private/\"]\n",
    );
    let m = map("example.test", &server);
    let page = verify(
        db.path(),
        &["--allow-private", "--map", &m, "--format", "html"],
    );
    assert_eq!(page.code, 0, "{}", page.stderr);
    for needle in [
        "<option value=\"accepted\">",
        "<option value=\"excluded\">",
        "\"verdict\":\"accepted\"",
        "\"verdict\":\"excluded\"",
        "id=\"count-accepted\"",
        "id=\"count-excluded\"",
    ] {
        assert!(page.stdout.contains(needle), "{needle}");
    }
}

/// A history line of a run that started `days_ago` days ago.
fn history_line(url: &str, days_ago: i64, verdict: &str) -> String {
    let started = jiff::Timestamp::now()
        .checked_sub(jiff::SignedDuration::from_hours(24 * days_ago))
        .expect("time");
    let started = format!("{started:.3}");
    serde_json::json!({
        "run": format!("r{days_ago}"),
        "started": started,
        "url": url,
        "file": "example.test.yaml",
        "line": 3,
        "time": started,
        "status": 200,
        "verdict": verdict,
        "reason": null,
        "ms": 1,
    })
    .to_string()
}

#[test]
fn max_age_skips_what_passed_recently_and_checks_the_oldest_first() {
    let server = Server::start();
    let records = [
        html("/fresh"),
        html("/stale"),
        html("/failed"),
        html("/new"),
    ];
    let db = database(&[("example.test", &records)], "");
    let url = |p: &str| format!("http://{}{p}", server.addr());
    let history = db.path().join("history.jsonl");
    let lines = [
        history_line(&url("/fresh"), 1, "ok"),
        history_line(&url("/stale"), 10, "ok"),
        history_line(&url("/failed"), 2, "broken"),
    ];
    std::fs::write(&history, lines.join("\n") + "\n").expect("write");
    let m = map("example.test", &server);
    let h = history.to_str().expect("UTF-8 path");
    let run = verify(
        db.path(),
        &[
            "--allow-private",
            "--map",
            &m,
            "--concurrency",
            "1",
            "--per-host",
            "1",
            "--history",
            h,
            "--max-age",
            "7d",
        ],
    );
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    // Never checked first, then the longest unchecked; the fresh one not at all.
    assert_eq!(server.requests(), ["/new", "/stale", "/failed"]);
    let last = run.stdout.lines().last().unwrap_or_default();
    assert!(
        last.contains("1 skipped as fresh (passed within --max-age)"),
        "{last}"
    );
    // A URL that passed within the age is requested once it is older.
    let again = verify(
        db.path(),
        &[
            "--allow-private",
            "--map",
            &m,
            "--history",
            h,
            "--max-age",
            "1h",
            "--format",
            "json",
        ],
    );
    assert_eq!(json(&again)["summary"]["fresh"], 3);
    assert_eq!(
        server.requests().iter().filter(|p| *p == "/fresh").count(),
        1
    );
    // Every URL fresh: no request, and one note says so (issue 49: a
    // selection the run makes that is empty is no error).
    let before = server.requests().len();
    let fresh = verify(
        db.path(),
        &[
            "--allow-private",
            "--map",
            &m,
            "--history",
            h,
            "--max-age",
            "1h",
        ],
    );
    assert_eq!(fresh.code, 0, "{}", fresh.stderr);
    assert_eq!(server.requests().len(), before);
    assert!(
        fresh
            .stderr
            .contains("note: --max-age: all 4 URLs passed within that age; none is requested"),
        "{}",
        fresh.stderr
    );
    // --max-age needs a history to judge by.
    let run = verify(db.path(), &["--max-age", "7d"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
}

/// The fenced block after `<!-- example: NAME -->` in a doc page.
fn doc_example(doc: &str, name: &str) -> String {
    let marker = format!("<!-- example: {name} -->");
    let after = doc
        .split_once(&marker)
        .unwrap_or_else(|| panic!("no {marker}"))
        .1;
    let body = after
        .split_once("```")
        .and_then(|(_, rest)| rest.split_once('\n'))
        .expect("a fenced block")
        .1;
    body.split_once("```").expect("its end").0.to_string()
}

#[test]
fn the_documented_example_runs_as_shown() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/verify-exceptions.md")).expect("read");
    let server = support::http::listen(|mut stream: TcpStream, path| {
        let html = [("Content-Type", "text/html")];
        let answer = match path {
            "/status" => response("503 Service Unavailable", &html, "maintenance"),
            "/search" => response(
                "403 Forbidden",
                &[("Content-Type", "text/html"), ("cf-mitigated", "challenge")],
                "",
            ),
            _ => response("200 OK", &html, "ok"),
        };
        let _ = stream.write_all(answer.as_bytes());
    });
    let dir = tempfile::tempdir().expect("tempdir");
    for name in ["urldb.toml", "www.example.org.yaml"] {
        std::fs::write(dir.path().join(name), doc_example(&doc, name)).expect("write");
    }
    let addr = format!("127.0.0.1:{}", server.port);
    let out = support::urldb()
        .current_dir(dir.path())
        .args(["verify", "--allow-env", "EXAMPLE_TOKEN=www.example.org"])
        .args(["--allow-private", "--retries", "0", "--map"])
        .arg(format!("www.example.org=http://{addr}"))
        .env("EXAMPLE_TOKEN", "t0ken")
        .env("NO_COLOR", "1")
        .env_remove("URLDB_FORMAT")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run urldb");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout)
        .replace(&format!("http://{addr}"), "https://www.example.org");
    // The time taken is the run's own.
    let shown: Vec<String> = stdout
        .lines()
        .map(|l| match l.rsplit_once(" in ") {
            Some((head, tail)) if tail.ends_with(" s.") => format!("{head} in 0.01 s."),
            _ => l.to_string(),
        })
        .collect();
    assert_eq!(shown.join("\n") + "\n", doc_example(&doc, "output"));
    let mut requested = server.requests.lock().expect("lock").clone();
    requested.sort();
    assert_eq!(requested, ["/", "/members", "/search", "/status"]);
    let heads = server.heads.lock().expect("lock").clone();
    assert!(
        heads
            .iter()
            .all(|h| h.contains("Authorization: t0ken") || h.contains("authorization: t0ken")),
        "{heads:?}"
    );
    assert!(heads.iter().all(|h| {
        h.to_ascii_lowercase()
            .contains("user-agent: example-link-check/1.0 (+https://www.example.org/bot)")
    }));
}
