//! `fmt` and `check --fix` on arbitrary bytes (the lint::check_bytes and
//! canonical-text path, then lint::fix).
//!
//! Asserts: no panic; findings have valid spans; a blocked file gets no
//! canonical text and no fix; the canonical text is a fixed point of fmt
//! (checking it again gives it back, with no `not-canonical` finding) and
//! means what the input meant; no `#` is lost (a comment that fmt would
//! drop must have blocked the rewrite); nothing but layout follows the
//! last node (no text silently cut off); `--fix` output is canonical and
//! stable.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;
use urldb_core::lint::{Options, check_bytes, fix};
use urldb_core::model::normal::normal_form;

mod common;

fuzz_target!(|data: &[u8]| {
    let options = Options::default();
    let path = Path::new("example.com.yaml");
    let checked = check_bytes(path, data, &options);
    common::assert_findings(&checked);
    if checked.blocked_by.is_some() {
        assert!(checked.canonical.is_none());
        assert!(checked.findings.iter().all(|f| f.fix.is_none()));
        return;
    }
    let Some(canonical) = checked.canonical.clone() else {
        return;
    };
    let docs = checked
        .documents
        .parsed()
        .expect("a canonical text comes from documents");
    // Accepted input is valid UTF-8 (invalid UTF-8 blocks the rewrite).
    let text = std::str::from_utf8(data).expect("accepted input is UTF-8");
    let hashes = text.matches('#').count();
    assert!(
        common::hashes_in_model(docs) >= hashes,
        "a `#` (comment?) would be lost by fmt: {text:?} -> {canonical:?}"
    );
    common::assert_nothing_after_the_model(text, docs);
    let again = check_bytes(path, canonical.as_bytes(), &options);
    assert_eq!(
        again.canonical.as_deref(),
        Some(canonical.as_str()),
        "fmt is not idempotent on {text:?}"
    );
    assert!(
        !again
            .findings
            .iter()
            .any(|f| f.rule.code == "not-canonical"),
        "canonical text reported as not canonical: {canonical:?}"
    );
    let docs2 = again.documents.parsed().expect("canonical text parses");
    assert_eq!(normal_form(docs2), normal_form(docs), "fmt changed a value");
    if canonical == text {
        assert!(
            !checked
                .findings
                .iter()
                .any(|f| f.rule.code == "not-canonical")
        );
    }

    // check --fix: the result, if any, is canonical and a fixed point.
    let fixed = fix(checked, &options);
    common::assert_findings(&fixed.after);
    if let Some(new) = &fixed.text {
        let rechecked = check_bytes(path, new.as_bytes(), &options);
        assert!(
            rechecked.blocked_by.is_none(),
            "--fix wrote a blocked file: {new:?}"
        );
        assert_eq!(
            rechecked.canonical.as_deref(),
            Some(new.as_str()),
            "--fix output is not canonical"
        );
    }
});
