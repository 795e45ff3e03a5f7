//! parse: any bytes → the spanned tree, and the whole per-file check.
//!
//! Asserts: no panic; every node, document, scalar and problem span lies
//! inside the text on character boundaries; scalar spans come in text
//! order (the comment scanner depends on it); every finding of
//! `lint::check_bytes` has a valid span.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;
use urldb_core::lint::{Options, check_bytes};
use urldb_core::parse::tree::{Problem, parse_tree};

mod common;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let tree = parse_tree(&text);
    common::assert_documents(&text, &tree.documents);
    for span in &tree.scalar_spans {
        common::assert_span(&text, span, "scalar");
    }
    assert!(
        tree.scalar_spans
            .windows(2)
            .all(|w| w[0].start <= w[1].start),
        "scalar spans out of order: {:?}",
        tree.scalar_spans
    );
    for problem in &tree.problems {
        let span = match problem {
            Problem::Syntax { span, .. }
            | Problem::Anchor { span, .. }
            | Problem::Alias { span }
            | Problem::Tag { span, .. }
            | Problem::TooDeep { span } => span,
        };
        common::assert_span(&text, span, "problem");
    }
    let checked = check_bytes(Path::new("example.com.yaml"), data, &Options::default());
    common::assert_findings(&checked);
    // A file that did not parse completely is never rewritten.
    if !checked.documents.parses() {
        assert!(checked.canonical.is_none());
    }
});
