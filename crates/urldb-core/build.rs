//! Rule documentation, extracted at build time: each `src/rules/<family>/<rule>.rs`
//! opens with a `//!` comment that is the rule's documentation (printed by
//! `urldb rule CODE`, the source of `docs/rules.md`). This writes
//! `$OUT_DIR/rule_docs.rs`, a table from rule code to that text, so the
//! binary holds the documentation and not the rules' source files.

// A build script talks to cargo on stdout: no CI log reads it as data.
#![allow(clippy::disallowed_macros)]

use std::fmt::Write as _;
use std::path::Path;
use std::{env, fs};

fn main() {
    let dir = Path::new("src/rules");
    let mut docs: Vec<(String, String)> = Vec::new();
    collect(dir, &mut docs);
    docs.sort();
    let mut out = String::from(
        "/// Rule code → its documentation (Markdown): the leading `//!`\n\
         /// comment of `src/rules/<family>/<code>.rs`, written by `build.rs`.\n\
         pub(crate) static RULE_DOCS: &[(&str, &str)] = &[\n",
    );
    for (code, doc) in &docs {
        // `{:?}` of a `str` is a valid Rust string literal.
        let _ = writeln!(out, "    ({code:?}, {doc:?}),");
    }
    out.push_str("];\n");
    let out_dir = env::var_os("OUT_DIR").unwrap_or_else(|| panic!("OUT_DIR is not set"));
    let target = Path::new(&out_dir).join("rule_docs.rs");
    fs::write(&target, out).unwrap_or_else(|e| panic!("writing {}: {e}", target.display()));
}

/// The documentation of each rule file in `dir` and the folders below it
/// (the rules are in folders by family: `src/rules/paths/path_case.rs`).
fn collect(dir: &Path, docs: &mut Vec<(String, String)>) {
    println!("cargo::rerun-if-changed={}", dir.display());
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()));
    for entry in entries {
        let path = entry
            .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
            .path();
        if path.is_dir() {
            collect(&path, docs);
            continue;
        }
        let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        if path.extension().is_none_or(|e| e != "rs") || stem == "mod" {
            continue;
        }
        println!("cargo::rerun-if-changed={}", path.display());
        let source =
            fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        // Only rule files (the module also holds the diagnostics, the
        // settings and the docs renderer).
        if !source.contains("static RULE: Rule") {
            continue;
        }
        docs.push((stem.replace('_', "-"), leading_doc_comment(&source)));
    }
}

/// The first run of `//!` lines, each without `//!` and one following
/// space, each ending in a line break.
fn leading_doc_comment(source: &str) -> String {
    let mut out = String::new();
    for line in source.lines() {
        let Some(rest) = line.strip_prefix("//!") else {
            if out.is_empty() {
                continue;
            }
            break;
        };
        out.push_str(rest.strip_prefix(' ').unwrap_or(rest));
        out.push('\n');
    }
    out
}
