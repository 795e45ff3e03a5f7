//! A file checked without its tree — its clean records proven from their
//! text, or in pieces — against the same file checked whole.
//!
//! Asserts: `lint::check_file`, with the default piece size (a small file
//! is taken only when its records are proven clean, `lint::silent`) and
//! with pieces of a few bytes (so that small inputs are cut at many `---`
//! lines), gives exactly the findings (fixes included), blocking and
//! canonical text of `check_bytes` on the whole file, both with the
//! default rules and with every rule and a list of categories.
//! `tests/it/check/fast_path.rs` holds the same on generated and mutated
//! files; this looks where they do not.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;
use urldb_core::lint::{Checked, Options, check_bytes, check_file};
use urldb_core::selection::Selection;

fn seen(checked: &Checked) -> String {
    format!(
        "{:?}\n{:?}\n{:?}",
        checked.findings, checked.blocked_by, checked.canonical
    )
}

fn every_rule() -> Options {
    let mut options = Options::default();
    if let Ok(all) = Selection::new(
        Some(&["ALL".to_string()]),
        &[],
        &[],
        &Default::default(),
        Default::default(),
    ) {
        options.selection = all;
    }
    options.settings.categories = Some(vec!["static".into(), "api".into()]);
    options
}

fuzz_target!(|data: &[u8]| {
    let path = Path::new("example.com.yaml");
    for options in [Options::default(), every_rule()] {
        let whole = check_bytes(path, data, &options);
        for piece_bytes in [None, Some(24)] {
            let checked = check_file(
                path,
                data,
                &options.in_pieces_of(piece_bytes),
            );
            assert_eq!(
                seen(&checked),
                seen(&whole),
                "without the tree and whole disagree on {:?}",
                String::from_utf8_lossy(data)
            );
        }
    }
});
