//! A file whose only problem is a tab PyYAML refuses (`-\tfrontend`: the
//! parser takes it, PyYAML stops there) is refused by every command that
//! reads records, as `check` refuses it (`yaml-syntax`, a gate finding):
//! `ls` and `export` list nothing of it, `verify` requests nothing of it,
//! `add` and `rm` do not edit it, `diff` does not compare its records, and
//! the editor shows the finding (`docs/suppressions.md`, "Gate findings").

use std::path::Path;

use crate::support;

/// The record at `/a` is what PyYAML cannot read; `/b` is clean.
const TAB: &str = "---\n---\n_path: /a\ncategories:\n-\tfrontend\ncontent-type: text/html\n---\n_path: /b\ncontent-type: text/html\n";
const CLEAN: &str = "---\n---\n_path: /a\ncategories:\n- frontend\ncontent-type: text/html\n";

fn database() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    support::git(dir.path(), &["init", "-q", "."]);
    std::fs::write(dir.path().join("tab.org.yaml"), CLEAN).expect("write");
    support::git(dir.path(), &["add", "."]);
    support::git(dir.path(), &["commit", "-q", "-m", "clean"]);
    std::fs::write(dir.path().join("tab.org.yaml"), TAB).expect("write");
    dir
}

fn run(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = support::urldb_in(dir, args);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn every_command_refuses_a_tab_pyyaml_refuses_as_check_does() {
    let dir = database();
    let (code, out, _) = run(dir.path(), &["check", "--no-cache", "--format", "concise"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("yaml-syntax"), "{out}");

    for args in [&["ls"][..], &["export", "--to", "csv"][..]] {
        let (code, out, err) = run(dir.path(), args);
        assert_eq!(code, Some(2), "{args:?}: {out}{err}");
        assert!(!out.contains("tab.org/"), "{args:?} listed a URL: {out}");
        assert!(
            err.contains("tab.org.yaml: cannot be read"),
            "{args:?}: {err}"
        );
    }

    // Mapped to a closed local port: were anything requested, it would
    // be reported broken, not left out.
    let (code, out, err) = run(
        dir.path(),
        &["verify", "--map", "tab.org=http://127.0.0.1:1"],
    );
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(
        !format!("{out}{err}").contains("127.0.0.1:1/"),
        "{out}{err}"
    );
    assert!(
        format!("{out}{err}").contains("tab.org.yaml: the file does not parse as YAML"),
        "{out}{err}"
    );

    for args in [
        &["add", "http://tab.org/c", "--content-type", "text/html"][..],
        &["rm", "http://tab.org/b"][..],
    ] {
        let (code, out, err) = run(dir.path(), args);
        assert_eq!(code, Some(2), "{args:?}: {out}{err}");
        assert!(err.contains("`yaml-syntax`"), "{args:?}: {err}");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("tab.org.yaml")).expect("read"),
            TAB,
            "{args:?} rewrote the file"
        );
    }

    let (_, out, err) = run(dir.path(), &["diff"]);
    assert!(
        out.contains("cannot be read: does not parse as YAML"),
        "{out}{err}"
    );
    assert!(!out.contains("+ /b"), "diff compared the records: {out}");
}
