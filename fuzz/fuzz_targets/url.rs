//! URL canonicalization (crate::url, docs/urls.md) on any string.
//!
//! Asserts: no panic; canonicalize is idempotent (canonicalizing the
//! result gives it back, with no notes); the host is lowercase without a
//! trailing dot; the path starts with `/` and passes every `_path` rule of
//! the linter (so `add` never writes a record `check` complains about);
//! case folding is idempotent; a canonical path matches itself (the data.txt draft's matching).
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;
use urldb_core::lint::{Options, check_bytes};
use urldb_core::model::node::{Document, Entry, Node, Scalar, Value};
use urldb_core::render::{RenderOptions, render};
use urldb_core::url::{canonicalize, matches};

fn record_file(path: &str) -> String {
    let s = |v: &str| Node::new(Value::Scalar(Scalar::string(v)), 0..0);
    let record = Node::new(
        Value::Map(vec![
            Entry {
                key: s("_path"),
                value: s(path),
            },
            Entry {
                key: s("content-type"),
                value: s("text/html"),
            },
        ]),
        0..0,
    );
    let docs = [
        Document {
            root: None,
            span: 0..0,
            explicit_start: true,
            ..Document::default()
        },
        Document {
            root: Some(record),
            span: 0..0,
            explicit_start: true,
            ..Document::default()
        },
    ];
    render(&docs, &RenderOptions::default())
}

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(first) = canonicalize(input) else {
        return;
    };
    let text = first.to_string();
    let again =
        canonicalize(&text).unwrap_or_else(|e| panic!("{input:?} -> {text:?} is refused: {e}"));
    assert_eq!(again.to_string(), text, "not idempotent: {input:?}");
    assert!(again.notes.is_empty(), "{text:?}: notes {:?}", again.notes);
    assert_eq!(again, canonicalize(&text).expect("same again"));

    assert!(!first.host.is_empty());
    assert!(!first.host.ends_with('.'), "{:?}", first.host);
    assert!(
        !first.host.bytes().any(|b| b.is_ascii_uppercase()),
        "{:?}",
        first.host
    );
    assert!(
        first.path_and_query.starts_with('/'),
        "{:?}",
        first.path_and_query
    );
    assert!(!first.path_and_query.contains('#'));
    assert!(
        first.path_and_query.is_ascii(),
        "{:?}",
        first.path_and_query
    );

    let file = record_file(&first.path_and_query);
    let checked = check_bytes(
        Path::new("example.com.yaml"),
        file.as_bytes(),
        &Options::default(),
    );
    let path_findings: Vec<&str> = checked
        .findings
        .iter()
        .map(|f| f.rule.code)
        .filter(|c| c.starts_with("path-") || *c == "equivalent-paths")
        .collect();
    assert!(
        path_findings.is_empty(),
        "{input:?} -> {:?}: {path_findings:?}",
        first.path_and_query
    );

    let folded = first.case_folded_path_and_query();
    let refolded = canonicalize(&format!("http://example.com{folded}"))
        .unwrap_or_else(|e| panic!("folded {folded:?} refused: {e}"));
    assert_eq!(refolded.path_and_query, folded);
    assert_eq!(refolded.case_folded_path_and_query(), folded);
    assert!(matches(first.path(), &first.path_and_query));
    assert!(matches(&first.path_and_query, &first.path_and_query));
});
