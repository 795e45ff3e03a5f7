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

/// docs/suppressions.md's examples, run in their order: each
/// `<!-- file: NAME -->` block is written, each `<!-- run: ARGS -->` block
/// is urldb's exact standard output for those arguments, and each
/// `<!-- file-now: NAME -->` block is the file's text at that point.
#[test]
fn suppressions_md_examples_run() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/suppressions.md")).expect("read");
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("urldb.toml"), "").expect("write");
    let mut steps = 0;
    let mut rest = doc.as_str();
    while let Some(at) = rest.find("<!-- ") {
        rest = &rest[at + 5..];
        let Some(end) = rest.find(" -->") else { break };
        let (what, arg) = rest[..end].split_once(": ").unwrap_or(("", ""));
        let after = &rest[end..];
        let Some(open) = after.find("```") else { break };
        let body_start = open + after[open..].find('\n').expect("fence line") + 1;
        let body_end = body_start + after[body_start..].find("```").expect("closing fence");
        let body = &after[body_start..body_end];
        match what {
            "file" => std::fs::write(dir.path().join(arg), body).expect("write"),
            "file-now" => {
                let now = std::fs::read_to_string(dir.path().join(arg)).expect("read");
                assert_eq!(now, body, "docs/suppressions.md: {arg} at this point");
            }
            "run" => {
                let args: Vec<&str> = arg.split(' ').collect();
                let out = crate::support::run_in(dir.path(), &args);
                assert_eq!(
                    String::from_utf8_lossy(&out.stdout),
                    body,
                    "docs/suppressions.md: urldb {arg}"
                );
            }
            _ => continue,
        }
        steps += 1;
    }
    assert_eq!(steps, 8, "every example of docs/suppressions.md ran");
}
