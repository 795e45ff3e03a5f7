//! `verify --respect-robots` against a server on 127.0.0.1 that serves a
//! robots.txt of each test's choosing: RFC 9309's wildcards, longest
//! match and product token, its 4xx/5xx rules and redirects; and
//! `ls --match`, which keeps the draft's prefix match.

use crate::support;

use std::io::Write;
use std::net::TcpStream;
use std::sync::{Arc, Mutex};

use super::outcomes::{database, json, record, verify};

/// A server whose `/robots.txt` answers `robots` (a status line and a
/// body); every other path is a page, and every request is logged.
struct Site {
    port: u16,
    requests: Arc<Mutex<Vec<String>>>,
}

impl Site {
    fn start(status: &'static str, headers: &'static str, body: &'static str) -> Site {
        let support::http::Listening { port, requests, .. } = support::http::listen(
            move |mut stream: TcpStream, path: &str| {
                let (status, headers, body, ct) = if path == "/robots.txt" {
                    (status, headers, body, "text/plain")
                } else if path == "/moved-robots.txt" {
                    (
                        "200 OK",
                        "",
                        "User-agent: *\nDisallow: /moved-away\n",
                        "text/plain",
                    )
                } else {
                    ("200 OK", "", "<p>page</p>", "text/html")
                };
                let head = format!(
                    "HTTP/1.1 {status}\r\nConnection: close\r\nContent-Type: {ct}\r\n{headers}Content-Length: {}\r\n\r\n",
                    body.len()
                );
                let _ = stream.write_all(head.as_bytes());
                let _ = stream.write_all(body.as_bytes());
            },
        );
        Site { port, requests }
    }

    /// The paths requested, robots.txt included.
    fn requested(&self) -> Vec<String> {
        let mut paths = self.requests.lock().expect("lock").clone();
        paths.sort();
        paths
    }
}

/// Verify `paths` on `site` with `--respect-robots`; the paths skipped by
/// robots.txt, with the reason of the first.
fn skipped(site: &Site, paths: &[&str]) -> (Vec<String>, String) {
    let records: Vec<String> = paths.iter().map(|p| record(p, "text/html", &[])).collect();
    let refs: Vec<&str> = records.iter().map(String::as_str).collect();
    let db = database("", &refs);
    let run = verify(
        db.path(),
        &[
            "--allow-private",
            "--respect-robots",
            "--map",
            &format!("example.test=http://127.0.0.1:{}", site.port),
            "--format",
            "json",
        ],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let report = json(&run);
    let mut skipped = Vec::new();
    let mut reason = String::new();
    for r in report["results"].as_array().expect("results") {
        if r["kind"] == "robots" {
            skipped.push(r["path"].as_str().expect("path").to_string());
            if reason.is_empty() {
                reason = r["reason"].as_str().unwrap_or_default().to_string();
            }
        }
    }
    skipped.sort();
    assert_eq!(
        report["summary"]["skipped-robots"].as_u64(),
        Some(skipped.len() as u64)
    );
    (skipped, reason)
}

#[test]
fn wildcards_and_end_anchors_are_obeyed() {
    let site = Site::start(
        "200 OK",
        "",
        "User-agent: *\nDisallow: /*.aspx\nDisallow: /*.gif$\nDisallow: /a*/secret\n",
    );
    let (skipped, reason) = skipped(
        &site,
        &[
            "/page.aspx",
            "/dir/page.aspx?x=1",
            "/img.gif",
            "/img.gif?v=2",
            "/abc/secret/x",
            "/b/secret",
            "/page.html",
        ],
    );
    assert_eq!(
        skipped,
        [
            "/abc/secret/x",
            "/dir/page.aspx?x=1",
            "/img.gif",
            "/page.aspx"
        ]
    );
    assert_eq!(reason, "disallowed by robots.txt");
    for path in &skipped {
        assert!(!site.requested().contains(path), "{path} was requested");
    }
    assert_eq!(
        site.requested(),
        ["/b/secret", "/img.gif?v=2", "/page.html", "/robots.txt"]
    );
}

#[test]
fn the_longest_rule_wins_and_allow_wins_a_tie() {
    let site = Site::start(
        "200 OK",
        "",
        "User-agent: *\nDisallow: /docs/\nAllow: /docs/public/\nAllow: /tie\nDisallow: /tie\n",
    );
    let (skipped, _) = skipped(&site, &["/docs/a", "/docs/public/b", "/tie", "/other"]);
    assert_eq!(skipped, ["/docs/a"]);
}

#[test]
fn groups_are_chosen_by_product_token() {
    // `urldb-checker` is another product token; `URLdb/2` names urldb.
    let site = Site::start(
        "200 OK",
        "",
        "User-agent: urldb-checker\nDisallow: /\n\nUser-agent: *\nDisallow: /star\n\nUser-agent: URLdb/2\nDisallow: /ours\n",
    );
    let (skipped, _) = skipped(&site, &["/star", "/ours", "/x"]);
    assert_eq!(skipped, ["/ours"]);
}

#[test]
fn an_unavailable_robots_txt_allows_everything() {
    let site = Site::start("404 Not Found", "", "");
    let (skipped, _) = skipped(&site, &["/a", "/b"]);
    assert!(skipped.is_empty());
    assert_eq!(site.requested(), ["/a", "/b", "/robots.txt"]);
}

#[test]
fn an_unreachable_robots_txt_disallows_everything() {
    for status in [
        "503 Service Unavailable",
        "500 Internal Server Error",
        "429 Too Many Requests",
    ] {
        let site = Site::start(status, "", "");
        let (skipped, reason) = skipped(&site, &["/a", "/b"]);
        assert_eq!(skipped, ["/a", "/b"], "{status}");
        let code = &status[..3];
        assert!(
            reason.contains(&format!("robots.txt unreachable (HTTP {code})")),
            "{reason}"
        );
        assert_eq!(site.requested(), ["/robots.txt"], "{status}");
    }
}

#[test]
fn a_redirected_robots_txt_is_followed() {
    let site = Site::start(
        "301 Moved Permanently",
        "Location: /moved-robots.txt\r\n",
        "",
    );
    let (skipped, _) = skipped(&site, &["/moved-away", "/here"]);
    assert_eq!(skipped, ["/moved-away"]);
    assert_eq!(
        site.requested(),
        ["/here", "/moved-robots.txt", "/robots.txt"]
    );
}

#[test]
fn ls_match_keeps_the_drafts_prefix_match() {
    // `--match` has no wildcards: `*` and `$` are literal characters.
    let db = database(
        "",
        &[
            &record("/a.aspx", "text/html", &[]),
            &record("/a*", "text/html", &[]),
            &record("/b$", "text/html", &[]),
            &record("/b", "text/html", &[]),
            &record("/%7Ejoe/x", "text/html", &[]),
        ],
    );
    let ls = |pattern: &str| {
        let run = support::run_in(db.path(), &["ls", "--match", pattern]);
        String::from_utf8_lossy(&run.stdout)
            .lines()
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(ls("/*.aspx"), Vec::<String>::new());
    assert_eq!(ls("/a*"), ["http://example.test/a*"]);
    assert_eq!(ls("/b$"), ["http://example.test/b$"]);
    assert_eq!(ls("/~joe"), ["http://example.test/%7Ejoe/x"]);
}
