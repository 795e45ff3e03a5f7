//! `verify`'s pace per host against a server on 127.0.0.1 that logs when
//! each request arrived: `--per-host-interval`, `interval` in
//! `urldb.toml`, robots.txt's `Crawl-delay`, and the host-wide pause after
//! a 429 or 503 (`Retry-After` in seconds and as an HTTP-date, the
//! rate-limit fields), and the per-host figures of each format.

use crate::support;

use std::io::Write;
use std::net::TcpStream;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::outcomes::{Run, json, record, verify};

/// What the server answers for a path, on its `hit`-th request (1-based):
/// a status line, extra header lines, and a delay before answering.
type Answer = dyn Fn(&str, usize) -> (String, String, Duration) + Send + Sync;

/// A server that logs each request's path, when it arrived, and when it
/// was answered.
struct Site {
    port: u16,
    log: Arc<Mutex<Vec<(String, Instant, Instant)>>>,
}

impl Site {
    fn start(answer: Box<Answer>) -> Site {
        let log: Arc<Mutex<Vec<(String, Instant, Instant)>>> = Arc::default();
        let hits: Arc<Mutex<std::collections::HashMap<String, usize>>> = Arc::default();
        let l = Arc::clone(&log);
        let support::http::Listening { port, .. } = support::http::listen(
            move |mut stream: TcpStream, path: &str| {
                let arrived = Instant::now();
                let hit = {
                    let mut hits = hits.lock().expect("lock");
                    let n = hits.entry(path.to_string()).or_insert(0);
                    *n += 1;
                    *n
                };
                let (status, headers, delay) = answer(path, hit);
                std::thread::sleep(delay);
                let (ct, body) = if path == "/robots.txt" {
                    ("text/plain", ROBOTS.lock().expect("lock").clone())
                } else {
                    ("text/html", "<p>page</p>".to_string())
                };
                let head = format!(
                    "HTTP/1.1 {status}\r\nConnection: close\r\nContent-Type: {ct}\r\n{headers}Content-Length: {}\r\n\r\n",
                    body.len()
                );
                let answered = Instant::now();
                l.lock()
                    .expect("lock")
                    .push((path.to_string(), arrived, answered));
                let _ = stream.write_all(head.as_bytes());
                let _ = stream.write_all(body.as_bytes());
            },
        );
        Site { port, log }
    }

    fn map(&self) -> String {
        format!("example.test=http://127.0.0.1:{}", self.port)
    }

    /// The arrival times, in order.
    fn arrivals(&self) -> Vec<(String, Instant, Instant)> {
        let mut log = self.log.lock().expect("lock").clone();
        log.sort_by_key(|(_, at, _)| *at);
        log
    }

    /// The shortest gap between two arrivals.
    fn shortest_gap(&self) -> Duration {
        self.arrivals()
            .windows(2)
            .map(|w| w[1].1 - w[0].1)
            .min()
            .unwrap_or(Duration::MAX)
    }
}

/// The robots.txt every site serves (tests that read it run one at a time
/// through [`ROBOTS_LOCK`]).
static ROBOTS: Mutex<String> = Mutex::new(String::new());
static ROBOTS_LOCK: Mutex<()> = Mutex::new(());

fn ok() -> (String, String, Duration) {
    ("200 OK".into(), String::new(), Duration::ZERO)
}

/// A database of `n` pages `/p0`, `/p1`, ... and `urldb.toml` `config`.
fn pages(n: usize, config: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut text = "---\n".to_string();
    for i in 0..n {
        text.push_str("---\n");
        text.push_str(&record(&format!("/p{i}"), "text/html", &[]));
    }
    std::fs::write(dir.path().join("example.test.yaml"), text).expect("write");
    if !config.is_empty() {
        std::fs::write(dir.path().join("urldb.toml"), config).expect("write");
    }
    dir
}

fn run(site: &Site, db: &tempfile::TempDir, extra: &[&str]) -> Run {
    let map = site.map();
    let mut args = vec!["--allow-private", "--map", &map, "--format", "json"];
    args.extend_from_slice(extra);
    let run = verify(db.path(), &args);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    run
}

/// Arrivals may come a little closer than the interval was kept apart at
/// the client (a connection set up faster for one than the other).
const SLACK: Duration = Duration::from_millis(40);

#[test]
fn per_host_interval_spaces_every_request() {
    let site = Site::start(Box::new(|_, _| ok()));
    let db = pages(6, "");
    let run = run(&site, &db, &["--per-host-interval", "250ms"]);
    assert_eq!(site.arrivals().len(), 6);
    let gap = site.shortest_gap();
    assert!(gap + SLACK >= Duration::from_millis(250), "{gap:?}");
    assert!(
        run.elapsed >= Duration::from_millis(1250),
        "{:?}",
        run.elapsed
    );
    let report = json(&run);
    let host = &report["hosts"][0];
    assert_eq!(host["requests"], 6);
    assert_eq!(host["interval-ms"], 250);
    assert!(host["median-ms"].is_u64(), "{host}");
}

#[test]
fn interval_in_urldb_toml_spaces_that_host() {
    let site = Site::start(Box::new(|_, _| ok()));
    let db = pages(
        4,
        "[verify.domains.\"example.test\"]\ninterval = \"300ms\"\n",
    );
    // The longer of the two wins.
    let run = run(&site, &db, &["--per-host-interval", "100ms"]);
    let gap = site.shortest_gap();
    assert!(gap + SLACK >= Duration::from_millis(300), "{gap:?}");
    assert_eq!(json(&run)["hosts"][0]["interval-ms"], 300);
}

#[test]
fn an_interval_that_is_no_duration_is_refused() {
    let db = pages(
        1,
        "[verify.domains.\"example.test\"]\ninterval = \"soon\"\n",
    );
    let run = verify(db.path(), &["--allow-private"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("interval"), "{}", run.stderr);
    let db = pages(1, "");
    let run = verify(db.path(), &["--per-host-interval", "fast"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
}

#[test]
fn crawl_delay_raises_the_interval_with_respect_robots() {
    let _one = ROBOTS_LOCK.lock().unwrap_or_else(|p| p.into_inner());
    *ROBOTS.lock().expect("lock") = "User-agent: *\nCrawl-delay: 0.3\nDisallow: /p3\n".into();
    let site = Site::start(Box::new(|_, _| ok()));
    let db = pages(4, "");
    let run = run(&site, &db, &["--respect-robots"]);
    let paths: Vec<String> = site.arrivals().into_iter().map(|(p, _, _)| p).collect();
    assert_eq!(paths[0], "/robots.txt");
    assert_eq!(paths.len(), 4, "{paths:?}");
    let gap = site.shortest_gap();
    assert!(gap + SLACK >= Duration::from_millis(300), "{gap:?}");
    let report = json(&run);
    let host = &report["hosts"][0];
    assert_eq!(host["interval-ms"], 300);
    assert_eq!(host["skipped-robots"], 1);
    assert_eq!(host["requests"], 4);
    // Without --respect-robots, robots.txt is not read.
    let site = Site::start(Box::new(|_, _| ok()));
    let run = self::run(&site, &db, &[]);
    assert_eq!(json(&run)["hosts"][0]["interval-ms"], 0);
}

/// Five pages on one host, two at a time: `/p0`'s first answer is
/// `refusal`, after 150 ms (so that the requests already sent have
/// arrived); every page answers 200 after 300 ms otherwise (so that none
/// is sent between the refusal and the client reading it). Returns how
/// long after the refusal was answered each later request arrived.
fn after_a_refusal(status: &'static str, headers: String, extra: &[&str]) -> (Vec<Duration>, Run) {
    let site = Site::start(Box::new(move |path, hit| {
        if path == "/p0" && hit == 1 {
            (
                status.to_string(),
                headers.clone(),
                Duration::from_millis(150),
            )
        } else {
            ("200 OK".into(), String::new(), Duration::from_millis(300))
        }
    }));
    let db = pages(5, "");
    let mut args = vec!["--per-host", "2", "--retries", "2"];
    args.extend_from_slice(extra);
    let run = run(&site, &db, &args);
    let log = site.arrivals();
    let refused = log
        .iter()
        .find(|(p, _, _)| p == "/p0")
        .map(|(_, _, answered)| *answered)
        .expect("/p0 requested");
    let after = log
        .iter()
        .filter(|(_, at, _)| *at > refused)
        .map(|(_, at, _)| *at - refused)
        .collect();
    (after, run)
}

/// Every request that arrived after the refusal waited at least `wait`.
fn all_waited(after: &[Duration], wait: Duration) {
    assert!(!after.is_empty());
    for gap in after {
        assert!(
            *gap + SLACK >= wait,
            "a request {gap:?} after the refusal: {after:?}"
        );
    }
}

#[test]
fn a_429_with_retry_after_seconds_pauses_the_whole_host() {
    let (after, run) = after_a_refusal("429 Too Many Requests", "Retry-After: 1\r\n".into(), &[]);
    all_waited(&after, Duration::from_secs(1));
    let report = json(&run);
    assert_eq!(report["hosts"][0]["429"], 1);
    assert_eq!(report["summary"]["broken"], 0);
    // The interval grew after the refusal.
    assert!(report["hosts"][0]["interval-ms"].as_u64() > Some(0));
}

#[test]
fn a_429_with_retry_after_as_a_date_pauses_the_whole_host() {
    // Two seconds from now, in whole seconds: at least one second's wait.
    let at = jiff::Timestamp::now() + jiff::SignedDuration::from_secs(2);
    let date = jiff::fmt::rfc2822::DateTimePrinter::new()
        .timestamp_to_rfc9110_string(&at)
        .expect("a date");
    let (after, _) = after_a_refusal(
        "429 Too Many Requests",
        format!("Retry-After: {date}\r\n"),
        &[],
    );
    all_waited(&after, Duration::from_secs(1));
}

#[test]
fn a_503_without_retry_after_pauses_the_host_for_the_backoff() {
    let (after, run) = after_a_refusal("503 Service Unavailable", String::new(), &[]);
    all_waited(&after, Duration::from_millis(250));
    assert_eq!(json(&run)["hosts"][0]["5xx"], 1);
}

#[test]
fn an_exhausted_rate_limit_pauses_the_host_until_its_reset() {
    for headers in [
        "X-RateLimit-Remaining: 0\r\nX-RateLimit-Reset: 1\r\n",
        "RateLimit: \"default\";r=0;t=1\r\n",
        "RateLimit-Remaining: 0\r\nRateLimit-Reset: 1\r\n",
    ] {
        // A 200 that says no request is left for a second.
        let (after, run) = after_a_refusal("200 OK", headers.to_string(), &[]);
        all_waited(&after, Duration::from_secs(1));
        assert_eq!(json(&run)["summary"]["ok"], 5, "{headers}");
    }
}

#[test]
fn a_rate_limit_policy_sets_the_interval() {
    let site = Site::start(Box::new(|_, _| {
        (
            "200 OK".into(),
            "RateLimit-Policy: \"default\";q=5;w=1\r\n".into(),
            Duration::ZERO,
        )
    }));
    let db = pages(4, "");
    let run = run(&site, &db, &["--per-host", "1"]);
    // After the first answer, 200 ms apart.
    let log = site.arrivals();
    for w in log[1..].windows(2) {
        assert!(
            w[1].1 - w[0].1 + SLACK >= Duration::from_millis(200),
            "{log:?}"
        );
    }
    assert_eq!(json(&run)["hosts"][0]["interval-ms"], 200);
}

#[test]
fn host_figures_in_human_and_markdown() {
    let site = Site::start(Box::new(|_, _| ok()));
    let db = pages(2, "");
    let map = site.map();
    let human = verify(
        db.path(),
        &["--allow-private", "--map", &map, "--host-stats"],
    );
    assert_eq!(human.code, 0, "{}{}", human.stdout, human.stderr);
    let origin = format!("http://127.0.0.1:{}", site.port);
    assert!(
        human
            .stdout
            .contains(&format!("host {origin}: 2 requests, median ")),
        "{}",
        human.stdout
    );
    assert!(
        human
            .stdout
            .contains("0 × 429, 0 × 5xx, 0 skipped by robots.txt, interval 0 ms")
    );
    let plain = verify(db.path(), &["--allow-private", "--map", &map]);
    assert!(!plain.stdout.contains("host "), "{}", plain.stdout);
    let md = verify(
        db.path(),
        &["--allow-private", "--map", &map, "--format", "markdown"],
    );
    assert!(md.stdout.contains("### Hosts (1)"), "{}", md.stdout);
    assert!(
        md.stdout.contains(&format!("| `{origin}` | 2 |")),
        "{}",
        md.stdout
    );
}
