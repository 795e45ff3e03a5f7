//! The cross-file rules in the editor are `check`'s: one runner finds
//! them and one finishing step excuses them (`urldb_core::lint::across`,
//! `lint/excuse.rs`), so a suppression comment and a per-file ignore do in
//! the editor exactly what they do in `check`. Two files list one cname:
//! one names the rule in an `ignore-file` comment, the other's
//! `[lint.per-file-ignores]` entry names it; both also excuse a
//! `path-case` of their own. Opened together, or each alone against the
//! other on disk (both directions of the conflict), every document's
//! diagnostics are `check`'s findings for that file, code and place,
//! through a real client (pygls, `tests/it/server/governed.py`).

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use crate::support::{self, oracles};

/// (code, 0-based line, 0-based column) of each finding, per file.
type Places = BTreeMap<String, Vec<(String, u64, u64)>>;

const COMMENTED: &str = "# urldb: ignore-file[cname-conflict, path-case]\n---\ncase-sensitive-paths: false\ncnames:\n- www.shared.org\n---\n_path: /A\ncontent-type: text/html\n";
const TABLED: &str = "---\ncase-sensitive-paths: false\ncnames:\n- www.shared.org\n---\n_path: /B\ncontent-type: text/html\n";

fn database() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, text) in [
        (
            "urldb.toml",
            "[lint.per-file-ignores]\n\"b.org.yaml\" = [\"cname-conflict\", \"path-case\"]\n",
        ),
        ("a.org.yaml", COMMENTED),
        ("b.org.yaml", TABLED),
    ] {
        std::fs::write(dir.path().join(name), text).expect("write");
    }
    dir
}

/// `check`'s output in `format`.
fn check(work: &Path, format: &str) -> std::process::Output {
    let out = support::urldb()
        .current_dir(work)
        .args(["--no-cache", "check", "--format", format])
        .output()
        .expect("urldb check");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    out
}

/// `check --format json`'s findings per file.
fn in_check(work: &Path) -> Places {
    let out = check(work, "json");
    let report: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).expect("JSON");
    let mut places = Places::new();
    for f in report {
        let number = |key: &str| f[key].as_u64().expect("a number") - 1;
        places
            .entry(f["path"].as_str().expect("a path").to_string())
            .or_default()
            .push((
                f["code"].as_str().expect("a code").to_string(),
                number("line"),
                number("column"),
            ));
    }
    for list in places.values_mut() {
        list.sort();
    }
    places
}

/// The language server's diagnostics for each of `names`, opened together
/// (the others stay on disk).
fn in_the_editor(work: &Path, names: &[&str]) -> Places {
    let out = Command::new(support::python())
        .arg(oracles::repo().join("tests/it/server/governed.py"))
        .arg(support::binary())
        .arg(work)
        .args(names)
        .env("XDG_CACHE_HOME", oracles::target_tmp().join("xdg-cache"))
        .output()
        .expect("run the LSP client with the tests' Python");
    let shown = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{shown}");
    let seen: serde_json::Value = serde_json::from_slice(&out.stdout).expect(&shown);
    let mut places = Places::new();
    for (name, list) in seen["places"].as_object().expect("places") {
        let list = list
            .as_array()
            .expect("a list")
            .iter()
            .map(|d| {
                (
                    d[0].as_str().expect("a code").to_string(),
                    d[1].as_u64().expect("a line"),
                    d[2].as_u64().expect("a column"),
                )
            })
            .collect();
        places.insert(name.clone(), list);
    }
    places
}

#[test]
fn suppressions_excuse_cross_file_findings_in_the_editor_as_in_check() {
    let dir = database();
    let work = dir.path();
    let found = in_check(work);
    // What `check` makes of it: the cname conflict is a gate finding, so
    // neither the comment nor the table excuses it, and the comment that
    // names it is said; each file's `path-case` is excused.
    let codes =
        |name: &str| -> Vec<&str> { found[name].iter().map(|(c, _, _)| c.as_str()).collect() };
    assert_eq!(
        codes("a.org.yaml"),
        ["cname-conflict", "unused-suppression"],
        "{found:?}"
    );
    assert_eq!(codes("b.org.yaml"), ["cname-conflict"], "{found:?}");
    let concise = check(work, "concise");
    let said = String::from_utf8_lossy(&concise.stdout);
    assert!(
        said.contains("2 findings excused by suppressions"),
        "{said}"
    );
    for names in [
        &["a.org.yaml", "b.org.yaml"][..],
        &["a.org.yaml"],
        &["b.org.yaml"],
    ] {
        let editor = in_the_editor(work, names);
        for name in names {
            assert_eq!(
                editor.get(*name),
                found.get(*name),
                "{name}, opened with {names:?}: the editor against check"
            );
        }
    }
}
