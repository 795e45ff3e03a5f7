//! `examples/gen_db.rs`, the benchmark database generator, writes what it
//! promises: canonical text that `urldb check` and `urldb fmt --check` pass
//! and PyYAML writes byte for byte, the same bytes for the same seed, and
//! with `--dirty` valid files in another layout that `urldb fmt` turns back
//! into the clean database. The example is built by cargo (same profile as
//! this test) and run as a program, as `bench/compare.py` runs it.

use crate::support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

use support::run_in;

/// Build the example once (in this test's profile) and return its path.
fn gen_db() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let mut cargo = Command::new(env!("CARGO"));
        cargo
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args([
                "build",
                "--quiet",
                "--example",
                "gen_db",
                "--message-format=json",
            ])
            .stdin(Stdio::null());
        if !cfg!(debug_assertions) {
            cargo.arg("--release");
        }
        let out = cargo.output().expect("run cargo");
        assert!(
            out.status.success(),
            "cargo build --example gen_db failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
            .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == "gen_db")
            .find_map(|m| m["executable"].as_str().map(PathBuf::from))
            .expect("cargo names the gen_db executable")
    })
}

/// Generate into `dir` and return the summary (`key: value` lines).
fn generate(
    dir: &Path,
    records: u64,
    files: u64,
    seed: u64,
    dirty: u64,
) -> BTreeMap<String, String> {
    let out = Command::new(gen_db())
        .arg(dir)
        .args(["--records", &records.to_string()])
        .args(["--files", &files.to_string()])
        .args(["--seed", &seed.to_string()])
        .args(["--dirty", &dirty.to_string()])
        .stdin(Stdio::null())
        .output()
        .expect("run gen_db");
    assert!(
        out.status.success(),
        "gen_db failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_once(": "))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// Every domain file of a generated tree, by name (urldb's results cache
/// may live beside them).
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .expect("read_dir")
        .map(|e| e.expect("entry"))
        .filter(|e| e.file_name().to_string_lossy().ends_with(".yaml"))
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).expect("read"),
            )
        })
        .collect()
}

fn urldb_in(dir: &Path, args: &[&str]) -> Output {
    let db = dir.to_str().expect("UTF-8 path");
    let mut all = vec!["--db", db];
    all.extend_from_slice(args);
    run_in(dir, &all)
}

/// `(file name, code)` of every finding `urldb check` reports.
fn findings(dir: &Path) -> (Option<i32>, Vec<(String, String)>) {
    let out = urldb_in(dir, &["check", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "check --format json: {e}\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let list = json
        .as_array()
        .expect("a list of findings")
        .iter()
        .map(|f| {
            let path = f["path"].as_str().expect("path");
            let name = Path::new(path)
                .file_name()
                .expect("file name")
                .to_string_lossy()
                .into_owned();
            (name, f["code"].as_str().expect("code").to_string())
        })
        .collect();
    (out.status.code(), list)
}

const RECORDS: u64 = 3000;
const FILES: u64 = 30;
const SEED: u64 = 7;

#[test]
fn clean_database_passes_check_and_fmt() {
    let dir = tempfile::tempdir().expect("tempdir");
    let summary = generate(dir.path(), RECORDS, FILES, SEED, 0);
    assert_eq!(summary["files"], FILES.to_string());
    assert_eq!(summary["records"], RECORDS.to_string());
    assert_eq!(summary["dirty"], "0");

    let files = tree(dir.path());
    assert_eq!(files.len() as u64, FILES);
    let bytes: usize = files.values().map(Vec::len).sum();
    assert_eq!(summary["bytes"], bytes.to_string());
    // One `---` per document: a metadata document and the records.
    let documents: u64 = files
        .values()
        .map(|t| {
            String::from_utf8_lossy(t)
                .lines()
                .filter(|l| l.starts_with("---"))
                .count() as u64
        })
        .sum();
    assert_eq!(documents, FILES + RECORDS);
    let per_record = bytes as u64 / RECORDS;
    assert!(
        (90..=130).contains(&per_record),
        "{per_record} bytes per record, docs/dev/performance.md assumes about 110"
    );
    // The variety the generator promises is there.
    let all: String = files
        .values()
        .map(|t| String::from_utf8_lossy(t).into_owned())
        .collect();
    assert!(
        files.values().any(|t| t.starts_with(b"---\n---\n")),
        "no file with empty metadata"
    );
    for needle in [
        "case-sensitive-paths: false\n",
        "- m.",
        "- www.",
        "https: true\n",
        "?id=",
        ";jsessionid=",
        "%20",
        "%C3%A9",
        "- '2024'\n",
        "content-length: ",
        "content-sha256: ",
        "content-type: text/html; charset=utf-8\n",
        "content-type: application/json\n",
        "content-type: image/png\n",
        "content-type: X-301-Redirect\n",
        "content-type: X-302-Redirect\n",
        "- deprecated\n",
        "- redirect-ok\n",
        "- content-type-change-ok\n",
    ] {
        assert!(all.contains(needle), "no `{needle}` in the generated data");
    }

    let (code, list) = findings(dir.path());
    assert_eq!(list, vec![], "urldb check has findings on generated data");
    assert_eq!(code, Some(0));
    let fmt = urldb_in(dir.path(), &["fmt", "--check"]);
    assert_eq!(
        fmt.status.code(),
        Some(0),
        "fmt --check: {}",
        String::from_utf8_lossy(&fmt.stdout)
    );
}

/// PyYAML as the oracle: load every file and dump it the reference tool's
/// way; the text must come back byte for byte. PyYAML dumps an empty
/// metadata document (read as None) as `--- null`, urldb writes a bare
/// `---`: only that first line is normalised.
const PYYAML_ROUND_TRIP: &str = r#"
import os, sys, yaml
root = sys.argv[1]
loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
bad = 0
names = sorted(n for n in os.listdir(root) if n.endswith(".yaml"))
for name in names:
    with open(os.path.join(root, name), encoding="utf-8", newline="") as fh:
        text = fh.read()
    docs = list(yaml.load_all(text, Loader=loader))
    bare = bool(docs) and docs[0] is None
    if bare:
        docs[0] = {}
    out = yaml.dump_all(docs, explicit_start=True, sort_keys=True, width=10**9)
    if bare:
        assert out.startswith("--- {}\n"), out[:20]
        out = "---\n" + out[len("--- {}\n"):]
    if out != text:
        bad += 1
        a, b = text.splitlines(), out.splitlines()
        i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        got = a[i] if i < len(a) else None
        want = b[i] if i < len(b) else None
        print(f"{name}:{i + 1}: generated {got!r}, PyYAML writes {want!r}")
print(f"{len(names)} files, {bad} differ")
sys.exit(1 if bad else 0)
"#;

#[test]
fn pyyaml_writes_the_same_bytes() {
    let dir = tempfile::tempdir().expect("tempdir");
    generate(dir.path(), RECORDS, FILES, SEED, 0);
    let out = Command::new(support::python())
        .args(["-c", PYYAML_ROUND_TRIP])
        .arg(dir.path())
        .stdin(Stdio::null())
        .output()
        .expect("python3 with PyYAML (pip install pyyaml==6.0.3)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "PyYAML disagrees with the generator:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains(&format!("{FILES} files, 0 differ")),
        "{stdout}"
    );
}

#[test]
fn same_seed_same_bytes() {
    let (a, b, c) = (
        tempfile::tempdir().expect("tempdir"),
        tempfile::tempdir().expect("tempdir"),
        tempfile::tempdir().expect("tempdir"),
    );
    let sa = generate(a.path(), RECORDS, FILES, SEED, 0);
    let sb = generate(b.path(), RECORDS, FILES, SEED, 0);
    generate(c.path(), RECORDS, FILES, SEED + 1, 0);
    assert_eq!(sa, sb);
    assert!(
        tree(a.path()) == tree(b.path()),
        "seed {SEED} twice differs"
    );
    assert!(
        tree(a.path()) != tree(c.path()),
        "seeds {SEED} and {} agree",
        SEED + 1
    );
}

#[test]
fn dirty_files_are_the_same_data_in_another_layout() {
    let formatting: BTreeSet<&str> = [
        "not-canonical",
        "unsorted-keys",
        "unsorted-records",
        "unsorted-categories",
        "unsorted-cnames",
    ]
    .into();
    let (clean, dirty) = (
        tempfile::tempdir().expect("tempdir"),
        tempfile::tempdir().expect("tempdir"),
    );
    generate(clean.path(), RECORDS, FILES, SEED, 0);
    let summary = generate(dirty.path(), RECORDS, FILES, SEED, 50);
    assert_eq!(summary["dirty"], (FILES / 2).to_string());
    let (want, before) = (tree(clean.path()), tree(dirty.path()));
    let changed: BTreeSet<String> = want
        .iter()
        .filter(|(name, text)| before.get(*name) != Some(*text))
        .map(|(name, _)| name.clone())
        .collect();
    assert_eq!(changed.len() as u64, FILES / 2);

    let fmt = urldb_in(dirty.path(), &["fmt", "--check"]);
    assert_eq!(fmt.status.code(), Some(1), "fmt --check on dirty files");
    let (code, list) = findings(dirty.path());
    assert_eq!(code, Some(1));
    let codes: BTreeSet<&str> = list.iter().map(|(_, c)| c.as_str()).collect();
    assert!(
        codes.is_subset(&formatting),
        "findings other than formatting: {:?}",
        codes.difference(&formatting).collect::<Vec<_>>()
    );
    // Every mutation the generator makes shows up.
    assert_eq!(codes, formatting);
    let flagged: BTreeSet<String> = list.into_iter().map(|(name, _)| name).collect();
    assert_eq!(
        flagged, changed,
        "the files with findings are the dirty ones"
    );

    let out = urldb_in(dirty.path(), &["fmt"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "fmt: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        tree(dirty.path()) == want,
        "fmt of the dirty database is not the clean one"
    );
    let (code, list) = findings(dirty.path());
    assert_eq!((code, list), (Some(0), vec![]));
    assert_eq!(
        urldb_in(dirty.path(), &["fmt", "--check"]).status.code(),
        Some(0)
    );
}
