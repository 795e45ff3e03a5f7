//! The `.yamllint` of `docs/format.md` ("yamllint") against the real
//! yamllint (pinned in `tests/requirements.txt`): on canonical files of
//! both styles, with comments in every place `fmt` keeps them, nested
//! values, empty collections and long values, and on the examples, it
//! reports nothing, where yamllint's defaults report `indentation` and
//! `comments` on the same files.

use crate::support::{self, oracles, run_in};

use std::path::Path;
use std::process::Command;

/// The database folder the snippet names.
const DB: &str = "wwt_url_database/db";

/// A file `fmt` makes canonical: comments above, after and inside
/// records, lists of lists, maps, empty collections, a literal block,
/// quoted words, and values longer than a line.
const MESSY: &str = "--- # the metadata\nhttps: true\ncnames: [www.example.com]\n---\n\
# a comment above the record\n_path: /a   # checked by hand\ncontent-type: text/html\n\
categories: [b, a]\ntitle: \"Caf\u{e9}: a very long title that goes on and on and on beyond \
eighty columns of text, and then some more words\"\nextra:\n  nested: {k: v, list: [1, 2]}\n  \
empty: []\n  emptymap: {}\n  deep:\n  - x: 1\n    y: [a]\nnotes: |\n  a literal\n  block\n\
quoted: \"yes\"\nnum: '123'\n---\n_path: /b\ncategories:\n# above an item\n- a  # after an item\n\
- b\ncontent-type: text/html\nlist:\n- - nested\n  - seq\n- {}\n- []\n\
hash: 0123456789012345678901234567890123456789012345678901234567890123456789\n\
# the end of the record\n---\n_path: /c\ncontent-type: text/html\n# end of file\n";

/// The snippet between the markers of `docs/format.md`.
fn snippet() -> String {
    let doc = std::fs::read_to_string(oracles::repo().join("docs/format.md")).expect("read");
    let start = doc
        .find("<!-- yamllint:start -->")
        .expect("the start marker");
    let end = doc.find("<!-- yamllint:end -->").expect("the end marker");
    let block = &doc[start..end];
    let body = block.split("```yaml\n").nth(1).expect("a yaml block");
    body.split("```").next().expect("its end").to_string()
}

/// yamllint run at `dir` on the database with `args`; its exit code and
/// the problems it printed (parsable format).
fn yamllint(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(oracles::venv_bin("yamllint"))
        .current_dir(dir)
        .args(["--format", "parsable", "--strict"])
        .args(args)
        .arg(DB)
        .output()
        .expect("run yamllint");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn the_documented_yamllint_config_agrees_with_canonical_files() {
    let config = snippet();
    for style in ["readable", "pyyaml"] {
        let dir = tempfile::tempdir().expect("tempdir");
        let db = dir.path().join(DB);
        support::copy_dir(&oracles::repo().join("examples/database"), &db);
        std::fs::write(db.join("example.org.yaml"), MESSY).expect("write");
        std::fs::write(
            dir.path().join("urldb.toml"),
            format!("root = \"{DB}\"\nstyle = \"{style}\"\n"),
        )
        .expect("write");
        let out = run_in(dir.path(), &["fmt"]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let out = run_in(dir.path(), &["fmt", "--check"]);
        assert_eq!(out.status.code(), Some(0), "{style}: not canonical");
        let text = std::fs::read_to_string(db.join("example.org.yaml")).expect("read");
        assert!(text.contains("\n- a # after an item\n"), "{text}");
        if style == "readable" {
            assert!(text.lines().any(|l| l.len() > 80), "a long line: {text}");
        }

        std::fs::write(dir.path().join(".yamllint"), &config).expect("write");
        let (code, problems) = yamllint(dir.path(), &[]);
        assert_eq!(code, Some(0), "{style}: {problems}");
        assert!(problems.is_empty(), "{style}: {problems}");

        // yamllint's defaults disagree with the same files: the snippet is
        // what makes them agree.
        let (code, problems) = yamllint(dir.path(), &["-d", "default"]);
        assert_eq!(code, Some(1), "{style}: {problems}");
        for rule in ["(indentation)", "(comments)"] {
            assert!(problems.contains(rule), "{style}: {rule}: {problems}");
        }
    }
}
