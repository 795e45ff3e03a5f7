//! The fast reader and the general path on arbitrary bytes.
//!
//! Asserts: whenever the fast reader takes a text, it builds exactly the
//! general parser's tree (spans included), which the general parser read
//! without a problem; and `check_bytes` gives the same findings, blocking,
//! canonical text and documents whichever path it takes — including the
//! canonical text the fast path proves instead of rendering
//! (`render::is_canonical`). `tests/it/check/fast_path.rs` holds the same on
//! generated and mutated files; this looks where they do not.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;
use urldb_core::lint::{Checked, Options, check_bytes};

fn observable(checked: &Checked) -> String {
    format!(
        "{:?}\n{:?}\n{:?}\n{:?}",
        checked.findings, checked.blocked_by, checked.canonical, checked.documents
    )
}

fuzz_target!(|data: &[u8]| {
    let path = Path::new("example.com.yaml");
    let general = Options {
        knobs: urldb_core::lint::Knobs {
            general_path_only: true,
            ..Default::default()
        },
        ..Options::default()
    };
    let slow = check_bytes(path, data, &general);
    let fast = check_bytes(path, data, &Options::default());
    assert_eq!(
        observable(&fast),
        observable(&slow),
        "the paths disagree on {:?}",
        String::from_utf8_lossy(data)
    );
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Some(tree) = urldb_core::parse::testing::fast(text) {
        let general = urldb_core::parse::testing::general(text);
        assert!(general.problems.is_empty() && !general.incomplete, "{text:?}");
        assert_eq!(
            format!("{:?}\n{:?}", tree.documents, tree.scalar_spans),
            format!("{:?}\n{:?}", general.documents, general.scalar_spans),
            "tree differs for {text:?}"
        );
    }
});
