//! Every file of saved proptest failures is read by a test. proptest finds
//! a test's file by the test's source path (`tests/it/check/x.rs` reads
//! `tests/proptest-regressions/check/x.txt`), so a test that moves leaves
//! its seeds behind without a word: this test says so.

use crate::support::{files_below, files_with_extension, oracles};

#[test]
fn every_saved_failure_belongs_to_a_property_test() {
    let tests = oracles::repo().join("tests");
    let seeds = tests.join("proptest-regressions");
    let files = files_below(&seeds);
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

/// The `#[test]` functions inside `proptest!` blocks of `text`.
fn properties_in(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = text;
    // The macro opens a line; the text in a string (as here) does not.
    let opening = |rest: &str| {
        rest.match_indices("proptest! {")
            .map(|(i, _)| i)
            .find(|&i| {
                rest[..i]
                    .rsplit('\n')
                    .next()
                    .is_some_and(|line| line.trim().is_empty())
            })
    };
    while let Some(start) = opening(rest) {
        let block = &rest[start + "proptest! ".len()..];
        let mut depth = 0usize;
        let mut end = block.len();
        for (i, c) in block.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = i;
                        break;
                    }
                }
                _ => {}
            }
        }
        for test in block[..end].split("#[test]").skip(1) {
            if let Some(after) = test.split("fn ").nth(1) {
                let name: String = after
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                names.push(name);
            }
        }
        rest = &block[end..];
    }
    names
}

/// `tools/property-search` runs every property test of `tests/it` from
/// other seeds: a property added without it there would never be
/// searched beyond `cargo test`'s fixed cases.
#[test]
fn property_search_names_every_property() {
    let root = oracles::repo();
    let it = root.join("tests").join("it");
    let mut found = Vec::new();
    for file in &files_with_extension(&it, "rs") {
        let text = std::fs::read_to_string(file).expect("read a test file");
        let module = file
            .strip_prefix(&it)
            .expect("under tests/it")
            .with_extension("")
            .to_string_lossy()
            .replace(['/', '\\'], "::");
        for name in properties_in(&text) {
            found.push(format!("{module}::{name}"));
        }
    }
    found.sort();
    let script = std::fs::read_to_string(root.join("tools").join("property-search"))
        .expect("read tools/property-search");
    let mut listed: Vec<String> = script
        .split("properties=(")
        .nth(1)
        .and_then(|list| list.split(')').next())
        .expect("a properties=( ... ) list")
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    listed.sort();
    assert!(found.len() >= 13, "{found:?}");
    assert_eq!(
        listed, found,
        "tools/property-search's list against tests/it"
    );
}
