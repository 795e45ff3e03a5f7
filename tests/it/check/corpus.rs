//! The bad-input corpus: every YAML edge a domain file meets, each with
//! the findings a careful reader of `urldb rule CODE` expects.
//!
//! `tests/corpus/<name>.yaml` is checked as `example.com.yaml` in a fresh
//! database; `tests/corpus/expected.toml` lists, per name, the codes of
//! `urldb check --format json` in report order and the exit code. Then
//! `fmt` and `check --fix` run on it: they never panic, never touch a file
//! whose findings block a rewrite, and what they write means what was read.

use crate::support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use support::run_in;
use urldb_core::lint::{Options, check_bytes};
use urldb_core::model::normal::normal_form;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Expected {
    codes: Vec<String>,
    exit: i32,
    /// Why these codes: for the reader of the manifest.
    #[allow(dead_code)]
    why: String,
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")
}

fn manifest() -> BTreeMap<String, Expected> {
    let text = std::fs::read_to_string(corpus_dir().join("expected.toml")).expect("manifest");
    toml::from_str(&text).expect("expected.toml parses")
}

fn corpus() -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(corpus_dir()).expect("ls corpus") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "yaml") {
            let name = path
                .file_stem()
                .and_then(|s| s.to_str())
                .expect("name")
                .to_string();
            out.insert(name, std::fs::read(&path).expect("read"));
        }
    }
    out
}

/// A database holding `bytes` as `example.com.yaml`.
fn db(bytes: &[u8]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("example.com.yaml"), bytes).expect("write");
    dir
}

/// `check --format json`: the codes in report order and the exit code.
/// `yaml-comment` (off by default) is on: where the corpus holds a
/// comment, it is found.
fn check(dir: &Path) -> (Vec<String>, Option<i32>) {
    let out = run_in(
        dir,
        &[
            "check",
            "--format",
            "json",
            "--extend-select",
            "yaml-comment",
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    let json: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stderr}"));
    let codes = json
        .as_array()
        .expect("an array of findings")
        .iter()
        .map(|f| f["code"].as_str().expect("code").to_string())
        .collect();
    (codes, out.status.code())
}

fn blocking_codes() -> Vec<&'static str> {
    urldb_core::rules::ALL
        .iter()
        .filter(|r| r.blocks_rewrite)
        .map(|r| r.code)
        .collect()
}

/// `check` reports a finding of a blocking rule that has no fix in `bytes`.
fn blocking_finding(bytes: &[u8], blocking: &[&str]) -> bool {
    let dir = db(bytes);
    let out = run_in(dir.path(), &["check", "--format", "json"]);
    let findings: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).expect("JSON");
    findings.iter().any(|f| {
        f["fixable"] == false && blocking.contains(&f["code"].as_str().unwrap_or_default())
    })
}

/// The model of a text, when it parses completely.
fn meaning(bytes: &[u8]) -> Option<serde_json::Value> {
    check_bytes(Path::new("example.com.yaml"), bytes, &Options::default())
        .documents
        .into_parsed()
        .map(|d| normal_form(&d))
}

#[test]
fn the_manifest_and_the_files_agree() {
    let files = corpus();
    let expected = manifest();
    assert!(files.len() >= 60, "only {} corpus files", files.len());
    let missing: Vec<&String> = files
        .keys()
        .filter(|n| !expected.contains_key(*n))
        .collect();
    let stale: Vec<&String> = expected
        .keys()
        .filter(|n| !files.contains_key(*n))
        .collect();
    assert!(missing.is_empty(), "no expectation for {missing:?}");
    assert!(stale.is_empty(), "expectation without a file: {stale:?}");
}

#[test]
fn every_corpus_file_gets_its_expected_findings() {
    let expected = manifest();
    let mut wrong = Vec::new();
    for (name, bytes) in corpus() {
        let Some(want) = expected.get(&name) else {
            continue;
        };
        let dir = db(&bytes);
        let (codes, status) = check(dir.path());
        if codes != want.codes || status != Some(want.exit) {
            wrong.push(format!(
                "{name}: got {codes:?} exit {status:?}, expected {:?} exit {}",
                want.codes, want.exit
            ));
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

/// `fmt` and `check --fix` on every corpus file: no panic, no exit code
/// outside 0-2; a file with a blocking finding is left byte for byte; a
/// file that is rewritten keeps its meaning (`fmt`) and ends canonical.
#[test]
fn fmt_and_fix_never_panic_and_never_touch_a_blocked_file() {
    let expected = manifest();
    let blocking = blocking_codes();
    let mut rewritten = 0;
    let mut blocked = 0;
    for (name, bytes) in corpus() {
        let Some(want) = expected.get(&name) else {
            continue;
        };
        // A finding of a blocking rule blocks, but for one that carries
        // the rewrite as its fix (a tab PyYAML refuses in a file that
        // parsed: `yaml-syntax`, fixable).
        let is_blocked = want.codes.iter().any(|c| blocking.contains(&c.as_str()))
            && blocking_finding(&bytes, &blocking);
        for args in [&["fmt"][..], &["check", "--fix"]] {
            let dir = db(&bytes);
            let path = dir.path().join("example.com.yaml");
            let out = run_in(dir.path(), args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(!stderr.contains("panicked"), "{name} {args:?}: {stderr}");
            assert!(
                matches!(out.status.code(), Some(0..=2)),
                "{name} {args:?}: {:?} {stderr}",
                out.status
            );
            let after = std::fs::read(&path).expect("read");
            if is_blocked {
                assert_eq!(after, bytes, "{name} {args:?}: a blocked file was changed");
                blocked += 1;
                continue;
            }
            if after == bytes {
                continue;
            }
            rewritten += 1;
            if args == ["fmt"] {
                assert_eq!(
                    meaning(&after),
                    meaning(&bytes),
                    "{name}: fmt changed what the file means"
                );
            }
            let again = run_in(dir.path(), &["fmt", "--check"]);
            assert_eq!(
                again.status.code(),
                Some(0),
                "{name} {args:?}: not canonical after the rewrite:\n{}",
                String::from_utf8_lossy(&after)
            );
        }
    }
    // The corpus exercises both sides.
    assert!(rewritten >= 20, "only {rewritten} rewrites");
    assert!(blocked >= 40, "only {blocked} blocked runs");
}

/// Ten-megabyte lines, made at test time: a huge `_path`, a huge extra
/// value that `fmt` must move intact, and a huge line of nothing.
#[test]
fn ten_megabyte_lines() {
    let big = "a".repeat(10 * 1024 * 1024);

    let text = format!("---\n---\n_path: /{big}\ncontent-type: text/html\n");
    let dir = db(text.as_bytes());
    assert_eq!(check(dir.path()), (Vec::new(), Some(0)));

    // Out of order: fmt moves the huge value and keeps every byte of it.
    let text = format!("---\n---\nzz: {big}\ncontent-type: text/html\n_path: /a\n");
    let dir = db(text.as_bytes());
    assert_eq!(
        check(dir.path()),
        (vec!["unsorted-keys".to_string()], Some(1))
    );
    let out = run_in(dir.path(), &["fmt"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("example.com.yaml")).expect("read"),
        format!("---\n---\n_path: /a\ncontent-type: text/html\nzz: {big}\n")
    );

    // One huge line that is no YAML mapping, without a final newline.
    let dir = db(big.as_bytes());
    assert_eq!(
        check(dir.path()),
        (
            vec![
                "metadata-not-mapping".to_string(),
                "missing-final-newline".to_string()
            ],
            Some(1)
        )
    );
    let out = run_in(dir.path(), &["fmt"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        std::fs::read(dir.path().join("example.com.yaml")).expect("read"),
        big.as_bytes()
    );
}
