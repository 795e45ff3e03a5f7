//! A file checked in pieces against the same file checked whole.
//!
//! Asserts: `lint::check_file` with pieces of a few bytes (so that small
//! inputs are cut at many `---` lines) gives exactly the findings (fixes
//! included), blocking and canonical text of `check_bytes` on the whole
//! file. `tests/it/check/fast_path.rs` holds the same on generated and
//! mutated files; this looks where they do not.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;
use urldb_core::lint::{Checked, Options, check_bytes, check_file};

fn seen(checked: &Checked) -> String {
    format!(
        "{:?}\n{:?}\n{:?}",
        checked.findings, checked.blocked_by, checked.canonical
    )
}

fuzz_target!(|data: &[u8]| {
    let path = Path::new("example.com.yaml");
    let whole = check_bytes(path, data, &Options::default());
    let pieces = check_file(
        path,
        data,
        &Options {
            piece_bytes: Some(24),
            ..Options::default()
        },
    );
    assert_eq!(
        seen(&pieces),
        seen(&whole),
        "pieces and the whole file disagree on {:?}",
        String::from_utf8_lossy(data)
    );
});
