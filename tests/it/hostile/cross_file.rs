//! The cross-file rules' work is linear in the number of files
//! (`docs/security.md` §8): a pull request of 1,000 four-line files
//! listing one cname took 77 s and 536 MB, since each file had one finding
//! per other file, and each finding looked its file up and sorted its
//! findings again. Each file now has one finding per name, naming at most
//! `SHOWN_PER_RULE` other files.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support;

const FILES: usize = 10_000;

/// `FILES` domain files in `dir`, each listing the cname `cname(i)`.
fn database(dir: &Path, cname: impl Fn(usize) -> String) {
    std::fs::write(dir.join("urldb.toml"), "").expect("write");
    for i in 0..FILES {
        std::fs::write(
            dir.join(format!("d{i:05}.example.yaml")),
            format!(
                "---\ncnames:\n- {}\n---\n_path: /\ncontent-type: text/html\n",
                cname(i)
            ),
        )
        .expect("write");
    }
}

/// `check --format concise` in `dir`: its output, and how long it took;
/// killed (and the test failed) after `limit`.
fn timed_check(dir: &Path, limit: Duration) -> (std::process::Output, Duration) {
    let mut cmd: Command = support::urldb();
    cmd.current_dir(dir)
        .args(["--no-cache", "check", "--format", "concise"])
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let start = Instant::now();
    let mut child = cmd.spawn().expect("spawn");
    // Read the output while it runs (12 MB would fill a pipe).
    let stdout = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        std::io::Read::read_to_end(&mut { stdout }, &mut buf).expect("read");
        buf
    });
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            let took = start.elapsed();
            let stdout = reader.join().expect("reader");
            let mut stderr = Vec::new();
            if let Some(mut e) = child.stderr.take() {
                std::io::Read::read_to_end(&mut e, &mut stderr).expect("read");
            }
            return (
                std::process::Output {
                    status,
                    stdout,
                    stderr,
                },
                took,
            );
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("check still running after {limit:?}: cross-file work is not linear");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// 10,000 files sharing one cname are checked in about the time of
/// 10,000 ordinary files (a generous factor, measured in the same test on
/// the same machine, not a fixed time), with one finding each that names
/// 50 others and counts the rest.
#[test]
fn ten_thousand_files_sharing_a_cname_take_about_the_time_of_ordinary_ones() {
    let ordinary = tempfile::tempdir().expect("tempdir");
    database(ordinary.path(), |i| format!("www.d{i:05}.example"));
    let shared = tempfile::tempdir().expect("tempdir");
    database(shared.path(), |_| "www.example.com".to_string());

    let (out, baseline) = timed_check(ordinary.path(), Duration::from_secs(600));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let limit = baseline * 10 + Duration::from_secs(30);
    let (out, took) = timed_check(shared.path(), limit);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let findings: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains(" cname-conflict "))
        .collect();
    assert_eq!(findings.len(), FILES, "one finding per file and name");
    let first = findings
        .iter()
        .find(|l| l.starts_with("d00000.example.yaml:"))
        .expect("d00000");
    assert!(
        first.contains("is also listed by `d00001.example.yaml`, ")
            && first.contains("`d00050.example.yaml`, … and 9,949 more")
            && !first.contains("d00051"),
        "{first}"
    );
    assert!(
        took < baseline * 4 + Duration::from_secs(5),
        "10,000 files sharing a cname took {took:?}, 10,000 ordinary files {baseline:?}"
    );
}
