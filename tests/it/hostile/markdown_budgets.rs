//! `--summary-limit` is a budget on the bytes that reach standard output
//! (`docs/security.md` §8): the output gate writes `##[` as `##\x5b`, three
//! bytes more, and a summary measured before the gate overflowed (a
//! 65,536-byte limit gave 121,661 bytes). Properties through the binary:
//! `diff`, `verify` and `report --format markdown`, with values full of
//! `##[`, stay within the limit asked for as written.

use std::io::Write as _;

use proptest::prelude::*;

use crate::diff::Repo;
use crate::support::{self, property_config, run_in};

/// `n` records whose `_path`s hold `k` openings each.
fn paths(n: usize, k: usize) -> Vec<String> {
    (0..n)
        .map(|i| format!("/p{i:04}-{}", "##[".repeat(k)))
        .collect()
}

proptest! {
    #![proptest_config(property_config(6))]

    /// `diff --format markdown --summary-limit L` writes at most L bytes.
    #[test]
    fn diff_markdown_fits_its_limit_as_written(
        limit in 4096usize..40_000,
        n in 50usize..400,
        k in 1usize..80,
    ) {
        let repo = Repo::new();
        repo.write("example.com.yaml", "---\n---\n_path: /a\ncontent-type: text/html\n");
        let base = repo.commit("base");
        let mut text = String::from("---\n");
        for path in paths(n, k) {
            text.push_str(&format!("---\n_path: '{path}'\ncontent-type: text/html\n"));
        }
        repo.write("example.com.yaml", &text);
        let limit_arg = limit.to_string();
        let out = repo.urldb(&["diff", &base, "--format", "markdown", "--summary-limit", &limit_arg]);
        prop_assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        prop_assert!(out.stdout.len() <= limit, "{} bytes over {limit}", out.stdout.len());
        let md = String::from_utf8_lossy(&out.stdout);
        prop_assert!(md.contains("##\\x5b"), "no opening reached the output");
        prop_assert!(!md.contains("##["));
    }
}

/// A results file of `n` broken URLs whose URL and reason hold `k`
/// openings each, made from what `verify --format json` wrote for one.
fn results_file(dir: &std::path::Path, n: usize, k: usize) -> std::path::PathBuf {
    let server = support::http::listen(|mut stream, _| {
        let _ = stream
            .write_all(b"HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
    });
    std::fs::write(
        dir.join("example.org.yaml"),
        "---\n---\n_path: /a\ncontent-type: text/html\n",
    )
    .expect("write");
    let map = format!("example.org=http://127.0.0.1:{}", server.port);
    let out = run_in(
        dir,
        &[
            "verify",
            "--allow-private",
            "--retries",
            "0",
            "--map",
            &map,
            "--format",
            "json",
        ],
    );
    let mut json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("verify's JSON");
    let one = json["results"][0].clone();
    let results: Vec<serde_json::Value> = (0..n)
        .map(|i| {
            let mut r = one.clone();
            r["url"] = format!("http://example.org/p{i:04}-{}", "##[".repeat(k)).into();
            r["reason"] = format!("HTTP 404 {}", "##[".repeat(k)).into();
            r
        })
        .collect();
    json["results"] = results.into();
    let path = dir.join("results.json");
    std::fs::write(&path, serde_json::to_vec(&json).expect("JSON")).expect("write");
    path
}

proptest! {
    #![proptest_config(property_config(6))]

    /// `report --format markdown --summary-limit L` (verify's writer)
    /// writes at most L bytes.
    #[test]
    fn report_markdown_fits_its_limit_as_written(
        limit in 4096usize..70_000,
        n in 100usize..1200,
        k in 1usize..60,
    ) {
        let dir = tempfile::tempdir().expect("tempdir");
        let results = results_file(dir.path(), n, k);
        let limit_arg = limit.to_string();
        let out = run_in(
            dir.path(),
            &[
                "report",
                results.to_str().expect("UTF-8"),
                "--format",
                "markdown",
                "--summary-limit",
                &limit_arg,
            ],
        );
        prop_assert!(matches!(out.status.code(), Some(1)), "{}", String::from_utf8_lossy(&out.stderr));
        prop_assert!(out.stdout.len() <= limit, "{} bytes over {limit}", out.stdout.len());
        let md = String::from_utf8_lossy(&out.stdout);
        prop_assert!(md.contains("##\\x5b"), "no opening reached the output");
    }
}
