//! `verify --shard K/N` by host against servers on 127.0.0.1 (one port,
//! one origin): whole hosts per shard, a large host split with its
//! `--per-host` divided (shards running at once as separate processes,
//! the server counting what is in flight), `--shard-by url`, and
//! `--shard auto/N` from a Kubernetes job index.

use crate::support;

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::net::TcpStream;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use super::outcomes::record;

/// A server answering every page 200 after `delay`, counting the most
/// requests it had in flight at once.
struct Site {
    port: u16,
    peak: Arc<AtomicUsize>,
}

impl Site {
    fn start(delay: Duration) -> Site {
        let active = Arc::new(AtomicUsize::new(0));
        let peak = Arc::new(AtomicUsize::new(0));
        let (a, p) = (Arc::clone(&active), Arc::clone(&peak));
        let support::http::Listening { port, .. } = support::http::listen(
            move |mut stream: TcpStream, _path: &str| {
                let now = a.fetch_add(1, Ordering::SeqCst) + 1;
                p.fetch_max(now, Ordering::SeqCst);
                std::thread::sleep(delay);
                // Out of flight before the answer is sent: the client may
                // send its next request as soon as it reads it.
                a.fetch_sub(1, Ordering::SeqCst);
                let _ = stream.write_all(
                    b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Type: text/html\r\nContent-Length: 1\r\n\r\nx",
                );
            },
        );
        Site { port, peak }
    }
}

/// A database of domains `d0.test`, `d1.test`, ... with `sizes[i]` pages
/// each, and the `--map` arguments sending each to its own site.
fn database(sizes: &[usize], sites: &[Site]) -> (tempfile::TempDir, Vec<String>) {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut maps = Vec::new();
    for (i, n) in sizes.iter().enumerate() {
        let mut text = "---\n".to_string();
        for p in 0..*n {
            text.push_str("---\n");
            text.push_str(&record(&format!("/p{p}"), "text/html", &[]));
        }
        std::fs::write(dir.path().join(format!("d{i}.test.yaml")), text).expect("write");
        maps.push("--map".to_string());
        maps.push(format!("d{i}.test=http://127.0.0.1:{}", sites[i].port));
    }
    (dir, maps)
}

fn command(dir: &Path, maps: &[String], extra: &[&str]) -> std::process::Command {
    let mut cmd = support::urldb();
    cmd.current_dir(dir)
        .arg("verify")
        .args(["--allow-private", "--format", "json"])
        .args(maps)
        .args(extra)
        .env_remove("URLDB_FORMAT")
        .env_remove(urldb_verify::JOB_INDEX)
        .stdin(std::process::Stdio::null());
    cmd
}

fn report(out: &std::process::Output) -> serde_json::Value {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}

/// origin -> URLs, of one shard's report.
fn urls_by_origin(report: &serde_json::Value) -> BTreeMap<String, BTreeSet<String>> {
    let mut by = BTreeMap::<String, BTreeSet<String>>::new();
    for r in report["results"].as_array().expect("results") {
        let url = r["url"].as_str().expect("url");
        let origin = url.splitn(4, '/').take(3).collect::<Vec<_>>().join("/");
        by.entry(origin).or_default().insert(url.to_string());
    }
    by
}

#[test]
fn shards_by_host_keep_each_host_whole_and_check_every_url_once() {
    let sizes = [5, 10, 15, 20, 25, 30];
    let sites: Vec<Site> = sizes.iter().map(|_| Site::start(Duration::ZERO)).collect();
    let (db, maps) = database(&sizes, &sites);
    let mut owner: BTreeMap<String, usize> = BTreeMap::new();
    let mut all = BTreeSet::new();
    let mut per_shard = Vec::new();
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let out = command(db.path(), &maps, &["--shard", &shard])
            .output()
            .expect("run");
        let report = report(&out);
        assert_eq!(report["runs"][0]["shard"], shard.as_str());
        let mut n = 0;
        for (origin, urls) in urls_by_origin(&report) {
            assert_eq!(
                *owner.entry(origin.clone()).or_insert(k),
                k,
                "{origin} in two shards"
            );
            n += urls.len();
            for url in urls {
                assert!(all.insert(url.clone()), "{url} twice");
            }
        }
        per_shard.push(n);
        // None of its hosts is shared: each keeps its own limits.
        for host in report["hosts"].as_array().expect("hosts") {
            assert!(owner.contains_key(host["origin"].as_str().expect("origin")));
        }
    }
    assert_eq!(all.len(), 105);
    assert_eq!(owner.len(), 6);
    // Balanced by time: 105 URLs, 35 a shard (30 + 5, 25 + 10, 20 + 15).
    assert_eq!(
        per_shard.iter().copied().collect::<BTreeSet<_>>(),
        [35].into()
    );
}

#[test]
fn a_split_host_stays_within_per_host_across_concurrent_shards() {
    let sites = [Site::start(Duration::from_millis(40))];
    let (db, maps) = database(&[120], &sites);
    let shards: Vec<_> = (1..=3)
        .map(|k| {
            command(
                db.path(),
                &maps,
                &[
                    "--shard",
                    &format!("{k}/3"),
                    "--per-host",
                    "3",
                    "--concurrency",
                    "8",
                ],
            )
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("spawn")
        })
        .collect();
    let mut all = BTreeSet::new();
    for child in shards {
        let out = child.wait_with_output().expect("wait");
        let report = report(&out);
        for urls in urls_by_origin(&report).into_values() {
            for url in urls {
                assert!(all.insert(url.clone()), "{url} twice");
            }
        }
        // Split in three: one request in flight each.
        let host = &report["hosts"][0];
        assert!(host["requests"].as_u64() > Some(20), "{host}");
    }
    assert_eq!(all.len(), 120);
    let peak = sites[0].peak.load(Ordering::SeqCst);
    assert!((1..=3).contains(&peak), "{peak} in flight at once");
}

#[test]
fn shard_by_url_keeps_the_hash_split() {
    let sites = [Site::start(Duration::ZERO), Site::start(Duration::ZERO)];
    let (db, maps) = database(&[30, 30], &sites);
    let mut seen = 0;
    let mut spread = 0;
    for k in 1..=2 {
        let shard = format!("{k}/2");
        let out = command(db.path(), &maps, &["--shard", &shard, "--shard-by", "url"])
            .output()
            .expect("run");
        let report = report(&out);
        let by = urls_by_origin(&report);
        seen += by.values().map(BTreeSet::len).sum::<usize>();
        spread += by.len();
        // The old split: the hash of each URL.
        for urls in by.values() {
            for url in urls {
                assert!(urldb_verify::Shard { index: k, count: 2 }.contains(url));
            }
        }
    }
    assert_eq!(seen, 60);
    // Both hosts in both shards.
    assert_eq!(spread, 4);
}

#[test]
fn shard_auto_reads_the_job_completion_index() {
    let sites = [Site::start(Duration::ZERO), Site::start(Duration::ZERO)];
    let (db, maps) = database(&[3, 3], &sites);
    let out = command(db.path(), &maps, &["--shard", "auto/2"])
        .env(urldb_verify::JOB_INDEX, "1")
        .output()
        .expect("run");
    assert_eq!(report(&out)["runs"][0]["shard"], "2/2");
    let out = command(db.path(), &maps, &["--shard", "auto/2"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("JOB_COMPLETION_INDEX is not set"),
        "{stderr}"
    );
    let out = command(db.path(), &maps, &["--shard", "auto/2"])
        .env(urldb_verify::JOB_INDEX, "2")
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    // `check --shard` takes no `auto`.
    let out = support::run_in(db.path(), &["check", "--shard", "auto/2"]);
    assert_eq!(out.status.code(), Some(2));
}
