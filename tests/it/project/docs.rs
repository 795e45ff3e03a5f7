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

/// docs/security.md points each promise at its test (`module::test_name`):
/// each test it names exists, so a renamed or deleted test cannot leave
/// a promise pointing at nothing.
#[test]
fn tests_named_in_security_md_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/security.md")).expect("read");
    fn rust_sources(dir: &Path, out: &mut String) {
        for entry in std::fs::read_dir(dir).expect("read_dir").flatten() {
            let path = entry.path();
            if path.is_dir() {
                rust_sources(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push_str(&std::fs::read_to_string(&path).expect("read"));
            }
        }
    }
    let mut sources = String::new();
    rust_sources(&root.join("tests"), &mut sources);
    rust_sources(&root.join("crates"), &mut sources);
    let named: Vec<&str> = doc
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|span| {
            span.contains("::")
                && span.split("::").all(|part| {
                    !part.is_empty()
                        && part
                            .bytes()
                            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
                })
        })
        .collect();
    assert!(named.len() > 20, "{named:?}");
    let missing: Vec<&&str> = named
        .iter()
        .filter(|span| {
            let name = span.rsplit("::").next().unwrap_or_default();
            !sources.contains(&format!("fn {name}("))
        })
        .collect();
    assert!(
        missing.is_empty(),
        "docs/security.md names tests that do not exist: {missing:?}"
    );
}
