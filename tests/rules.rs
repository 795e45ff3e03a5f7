//! Every rule of the catalogue, on its fixture (`tests/fixtures/rules/<code>/`):
//! it fires (JSON output shows the code, exit 1), its human report is a
//! snapshot, and a fixable rule is gone after `check --fix` (and, for layout
//! rules, after `fmt`).

mod support;

use std::path::{Path, PathBuf};

use urldb::rules::{ALL, FixKind};

fn fixture(code: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/rules")
        .join(code)
}

/// A copy of the rule's fixture in a temporary directory.
fn prepare(code: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    if code == "file-too-large" {
        // Made here rather than committed: a limit of 1 kB and a 2 kB file.
        std::fs::write(dir.path().join("urldb.toml"), "max-file-size = \"1 kB\"\n").expect("write");
        let mut text = String::from("---\n");
        for i in 0..40 {
            text.push_str(&format!(
                "---\n_path: /page-{i:03}\ncontent-type: text/html\n"
            ));
        }
        std::fs::write(dir.path().join("example.com.yaml"), text).expect("write");
        return dir;
    }
    support::copy_dir(&fixture(code), dir.path());
    let _ = std::fs::remove_file(dir.path().join(".gitattributes"));
    dir
}

fn codes_in(dir: &Path) -> (Vec<String>, Option<i32>) {
    let out = support::run_in(dir, &["check", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "JSON output ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    });
    let codes = json
        .as_array()
        .expect("array")
        .iter()
        .map(|f| f["code"].as_str().expect("code").to_string())
        .collect();
    (codes, out.status.code())
}

#[test]
fn every_rule_fires_on_its_fixture() {
    let mut problems = Vec::new();
    for rule in ALL {
        let code = rule.code;
        if !fixture(code).is_dir() {
            // A fixture of 200,000 documents is not kept: the rule is
            // tested in tests/hostile_output.rs.
            if !["file-too-large", "too-many-documents"].contains(&code) {
                problems.push(format!(
                    "{code}: no fixture directory tests/fixtures/rules/{code}/"
                ));
            }
            continue;
        }
        let dir = prepare(code);
        let (codes, status) = codes_in(dir.path());
        if !codes.iter().any(|c| c == code) {
            problems.push(format!(
                "{code}: does not fire on its fixture (found {codes:?})"
            ));
        }
        if status != Some(1) {
            problems.push(format!("{code}: exit status {status:?}, expected 1"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn human_reports_match_snapshots() {
    for rule in ALL {
        // No fixture of 200,000 documents: its report is pinned in
        // tests/hostile_output.rs.
        if rule.code == "too-many-documents" {
            continue;
        }
        let dir = prepare(rule.code);
        let out = support::run_in(dir.path(), &["check", "--color", "never"]);
        let report = String::from_utf8_lossy(&out.stdout).into_owned();
        insta::with_settings!({
            snapshot_path => "../snapshots",
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!(format!("rule-{}", rule.code), report);
        });
    }
}

#[test]
fn fixable_rules_are_fixed() {
    let mut problems = Vec::new();
    for rule in ALL
        .iter()
        .filter(|r| matches!(r.fix, FixKind::Format | FixKind::Safe | FixKind::Sometimes))
    {
        let dir = prepare(rule.code);
        let out = support::run_in(dir.path(), &["check", "--fix"]);
        if out.status.code() == Some(2) {
            problems.push(format!(
                "{}: check --fix failed: {}",
                rule.code,
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let (codes, _) = codes_in(dir.path());
        if codes.iter().any(|c| c == rule.code) {
            problems.push(format!("{}: still reported after check --fix", rule.code));
        }
        // The result of --fix is canonical text.
        let fmt = support::run_in(dir.path(), &["fmt", "--check"]);
        if fmt.status.code() != Some(0) {
            problems.push(format!(
                "{}: not canonical after check --fix: {}",
                rule.code,
                String::from_utf8_lossy(&fmt.stdout)
            ));
        }
        if rule.fix == FixKind::Format {
            let dir = prepare(rule.code);
            support::run_in(dir.path(), &["fmt"]);
            let (codes, _) = codes_in(dir.path());
            if codes.iter().any(|c| c == rule.code) {
                problems.push(format!("{}: still reported after fmt", rule.code));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn fix_never_touches_a_file_without_findings() {
    let dir = tempfile::tempdir().expect("tempdir");
    support::copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/database"),
        dir.path(),
    );
    let before = snapshot_bytes(dir.path());
    let out = support::run_in(dir.path(), &["check", "--fix"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(snapshot_bytes(dir.path()), before);
}

fn snapshot_bytes(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    // Files only: the results cache is a directory of its own.
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("read_dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).expect("read");
            (p, bytes)
        })
        .collect()
}
