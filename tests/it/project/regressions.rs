//! Every file of saved proptest failures is read by a test. proptest finds
//! a test's file by the test's source path (`tests/it/check/x.rs` reads
//! `tests/proptest-regressions/check/x.txt`), so a test that moves leaves
//! its seeds behind without a word: this test says so.

use std::path::{Path, PathBuf};

use crate::support::oracles;

/// The `.txt` files under `dir`, recursively.
fn seed_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read the seeds' folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            seed_files(&path, out);
        } else {
            out.push(path);
        }
    }
}

#[test]
fn every_saved_failure_belongs_to_a_property_test() {
    let tests = oracles::repo().join("tests");
    let seeds = tests.join("proptest-regressions");
    let mut files = Vec::new();
    seed_files(&seeds, &mut files);
    assert!(!files.is_empty(), "no seeds under {}", seeds.display());
    let mut orphans = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&seeds).expect("under the folder");
        let source = tests.join("it").join(rel).with_extension("rs");
        let reads = file.extension().is_some_and(|e| e == "txt")
            && std::fs::read_to_string(&source).is_ok_and(|text| text.contains("proptest!"));
        if !reads {
            orphans.push(format!(
                "{} (no property test at {})",
                rel.display(),
                source.strip_prefix(&tests).unwrap_or(&source).display()
            ));
        }
    }
    assert!(
        orphans.is_empty(),
        "seed files no test reads; move each beside its test's path:\n{}",
        orphans.join("\n")
    );
}
