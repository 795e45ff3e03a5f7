//! The strict URI-Catalogue reader on any bytes.
//!
//! Asserts: no panic; every problem and record names a line of the input;
//! records come in input order; every URL read is canonical (canonicalize
//! gives it back unchanged); and export → import loses nothing: writing the
//! records read and reading that text gives the same records back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use urldb_core::model::node::{Node, ScalarStyle, Value};
use urldb_core::model::resolve::Implicit;
use urldb_core::url::{Scheme, canonicalize};
use urldb_store::UrlRecord;
use urldb_store::interchange::{CatalogueEntry, read_catalogue, write_catalogue};

fn to_record(e: &CatalogueEntry) -> UrlRecord {
    UrlRecord {
        file: PathBuf::from(format!("{}.yaml", e.url.host)),
        line: e.line,
        domain: e.url.host.clone(),
        https: e.url.scheme == Scheme::Https,
        path: e.url.path_and_query.clone(),
        url: e.url.to_string(),
        content_type: e.content_type.clone(),
        categories: e.categories.clone(),
        content_length: e.digest.as_ref().map(|d| d.0),
        content_sha256: e.digest.as_ref().map(|d| d.1.clone()),
        extras: e
            .extras
            .iter()
            .map(|(k, s)| (k.clone(), Node::new(Value::Scalar(s.clone()), 0..0)))
            .collect(),
    }
}

/// What a record means, without its line or canonicalization notes. An
/// extra is its text and whether YAML reads it as a string: a plain `1x`
/// and a quoted `'1x'` are the same string, written the same way. Extras
/// are compared as a set: a record's keys are sorted in its domain file.
fn meaning(e: &CatalogueEntry) -> impl PartialEq + std::fmt::Debug {
    let mut extras: Vec<(String, String, bool)> = e
        .extras
        .iter()
        .map(|(k, s)| {
            let is_string = s.style != ScalarStyle::Plain || s.implicit() == Implicit::Str;
            (k.clone(), s.value.to_string(), is_string)
        })
        .collect();
    extras.sort();
    (
        e.url.to_string(),
        e.content_type.clone(),
        e.categories.clone(),
        e.digest.clone(),
        extras,
    )
}

fuzz_target!(|data: &[u8]| {
    let (entries, problems) = read_catalogue(data);
    let lines = data.split(|b| *b == b'\n').count();
    for p in &problems {
        assert!(
            p.line >= 1 && p.line <= lines,
            "problem on line {} of {lines}",
            p.line
        );
    }
    for e in &entries {
        assert!(e.line >= 1 && e.line <= lines);
        let again = canonicalize(&e.url.to_string()).expect("a URL read is canonical");
        assert_eq!(again.to_string(), e.url.to_string());
    }
    assert!(entries.windows(2).all(|w| w[0].line < w[1].line));

    let records: Vec<UrlRecord> = entries.iter().map(to_record).collect();
    // What the reader accepted, the writer writes whole.
    let written = write_catalogue(&records, "01/01/2000 00:00:00");
    let text = written.text;
    assert!(
        written.left_out.is_empty(),
        "export left out: {:?}\n{text}",
        written.left_out
    );
    let (back, problems2) = read_catalogue(text.as_bytes());
    assert!(
        problems2.is_empty(),
        "export made problems: {problems2:?}\n{text}"
    );
    assert_eq!(
        back.iter().map(meaning).collect::<Vec<_>>(),
        entries.iter().map(meaning).collect::<Vec<_>>(),
        "export → import changed the records:\n{text}"
    );
});
