//! Generated documentation stays in step with the code.

use std::path::Path;

#[test]
fn rules_md_is_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules.md");
    let want = urldb_core::rules::docs::catalogue_markdown();
    if std::env::var_os("URLDB_UPDATE_DOCS").is_some() {
        std::fs::write(&path, &want).expect("write docs/rules.md");
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/rules.md is stale: run `URLDB_UPDATE_DOCS=1 cargo test rules_md_is_current` and commit it"
    );
}
