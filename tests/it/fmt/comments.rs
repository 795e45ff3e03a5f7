//! Comments survive `fmt` and `check --fix` (`docs/format.md`,
//! "Comments"): attached to the node they belong to, moved with it when
//! things are sorted, never lost or doubled.

use proptest::prelude::*;
use std::path::Path;
use urldb_core::lint::{Options, check_bytes, fix};
use urldb_core::render::{RenderOptions, render};

use crate::support::model_walk;

#[path = "../support/comment_insert.rs"]
mod comment_insert;

fn fmt(text: &str) -> String {
    check_bytes(
        Path::new("example.com.yaml"),
        text.as_bytes(),
        &Options::default(),
    )
    .canonical
    .unwrap_or_else(|| panic!("fmt refused {text:?}"))
}

fn assert_fmt(input: &str, want: &str) {
    let got = fmt(input);
    assert_eq!(got, want, "fmt of {input:?}");
    assert_eq!(fmt(&got), got, "not idempotent");
}

#[test]
fn a_record_comment_moves_with_its_record() {
    assert_fmt(
        "# header\n---\n---\n# about z\n_path: /z\ncontent-type: text/html\n# about a\n---\n_path: /a\ncontent-type: text/html\n# the end\n",
        "# header\n---\n# about a\n---\n_path: /a\ncontent-type: text/html\n---\n# about z\n_path: /z\ncontent-type: text/html\n# the end\n",
    );
}

#[test]
fn key_and_item_comments_move_with_them() {
    assert_fmt(
        "---\ncnames: # aliases\n- z.example.com # old\n# new\n- a.example.com\n---\n_path: /a\n# the type\ncontent-type: text/html\ncategories:\n- zeta # last\n- alpha\n",
        "---\ncnames: # aliases\n# new\n- a.example.com\n- z.example.com # old\n---\n_path: /a\ncategories:\n- alpha\n- zeta # last\n# the type\ncontent-type: text/html\n",
    );
}

#[test]
fn comments_in_flow_collections_go_to_the_next_item() {
    assert_fmt(
        "---\n---\n_path: /a\ncontent-type: text/html\ncategories: [b, # about b\n  # about a\n  a]\n",
        "---\n---\n_path: /a\ncategories:\n# about a\n- a\n- b # about b\ncontent-type: text/html\n",
    );
}

#[test]
fn comments_are_indented_as_their_node_and_blank_lines_go() {
    assert_fmt(
        "---\n---\n_path: /a\ncontent-type: text/html\nx:\n\n      # about b\n  b: 1\n\n  # about a\n  a:\n  -   # on the dash\n    k: v\n",
        "---\n---\n_path: /a\ncontent-type: text/html\nx:\n  # about a\n  a:\n  - # on the dash\n    k: v\n  # about b\n  b: 1\n",
    );
}

#[test]
fn a_comment_before_the_first_key_of_a_list_item_goes_before_its_dash() {
    assert_fmt(
        "---\n---\n_path: /a\ncontent-type: text/html\nx:\n-\n  b: 1\n  # about a\n  a: 2\n",
        "---\n---\n_path: /a\ncontent-type: text/html\nx:\n# about a\n- a: 2\n  b: 1\n",
    );
}

#[test]
fn a_second_comment_on_one_node_goes_on_its_own_line() {
    assert_fmt(
        "---\n---\n_path: /a # one\ncontent-type: text/html\nx: # two\n  y # three\n",
        "---\n---\n_path: /a # one\ncontent-type: text/html\nx: y # two\n# three\n",
    );
}

#[test]
fn drop_comments_drops_them() {
    let text = "# header\n---\n---\n_path: /a # trailing\ncontent-type: text/html\n";
    let options = Options {
        drop_comments: true,
        ..Options::default()
    };
    let checked = check_bytes(Path::new("example.com.yaml"), text.as_bytes(), &options);
    assert_eq!(
        checked.canonical.as_deref(),
        Some("---\n---\n_path: /a\ncontent-type: text/html\n")
    );
}

#[test]
fn a_fix_that_removes_an_item_keeps_its_comment() {
    // duplicate-category removes the second `a`; its comment stays.
    let text = "---\n---\n_path: /a\ncontent-type: text/html\ncategories:\n- a\n- b\n- a # twice\n";
    let options = Options::default();
    let checked = check_bytes(Path::new("example.com.yaml"), text.as_bytes(), &options);
    let fixed = fix(checked, &options);
    let out = fixed.text.expect("fixed");
    assert_eq!(out.matches("# twice").count(), 1, "{out}");
    assert_eq!(out.matches("- a").count(), 1, "{out}");
    assert_eq!(fmt(&out), out);
}

#[test]
fn a_fix_that_removes_a_key_keeps_its_comments() {
    // empty-categories removes `categories: []`; the comments on its
    // lines go to the key after it.
    let text = "---\n---\n_path: /a\n# none yet\ncategories: [ # to do\n  ] # really\ncontent-type: text/html\n";
    let options = Options::default();
    let checked = check_bytes(Path::new("example.com.yaml"), text.as_bytes(), &options);
    let fixed = fix(checked, &options);
    let out = fixed.text.expect("fixed");
    assert!(!out.contains("categories"), "{out}");
    for comment in ["# none yet", "# to do", "# really"] {
        assert_eq!(out.matches(comment).count(), 1, "{comment} in {out}");
    }
    assert_eq!(fmt(&out), out);
}

#[test]
fn the_issue_example_end_to_end() {
    // A header, a comment before an out-of-order record, a trailing
    // comment on a category: fmt keeps each once, in its place, and the
    // result passes `check` and `fmt --check`.
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("example.com.yaml");
    std::fs::write(
        &file,
        "# yaml-language-server: $schema=https://example.com/urldb.json\n---\n---\n_path: /z\ncontent-type: text/html\n# kept for the 2019 paper\n---\n_path: /a\ncontent-type: text/html\ncategories:\n- news # moved here in 2021\n- blog\n",
    )
    .expect("write");
    let out = crate::support::run_in(dir.path(), &["fmt"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&file).expect("read");
    for comment in [
        "# yaml-language-server: $schema=https://example.com/urldb.json",
        "# kept for the 2019 paper",
        "# moved here in 2021",
    ] {
        assert_eq!(text.matches(comment).count(), 1, "{comment} in {text}");
    }
    assert!(text.starts_with("# yaml-language-server:"), "{text}");
    assert!(
        text.contains("# kept for the 2019 paper\n---\n_path: /a\n"),
        "{text}"
    );
    assert!(text.contains("- news # moved here in 2021\n"), "{text}");
    let a = text.find("_path: /a").expect("/a");
    let z = text.find("_path: /z").expect("/z");
    assert!(a < z, "records sorted: {text}");
    assert!(text.find("- blog").expect("blog") < text.find("- news").expect("news"));
    for args in [&["check"][..], &["fmt", "--check"]] {
        let out = crate::support::run_in(dir.path(), args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
}

fn choice() -> impl Strategy<Value = (bool, usize, u8, String)> {
    (
        any::<bool>(),
        any::<usize>(),
        any::<u8>(),
        "( [a-z0-9 ,.:#-]{0,12}[a-z])?",
    )
}

proptest! {
    #![proptest_config(crate::support::property_config(256))]

    /// Comments at random legal places of a generated file, in record
    /// order that fmt will change: each comes out once, the data is what
    /// fmt makes of the file without them, fmt is idempotent, and check
    /// says of the output what it says without the comments.
    #[test]
    fn comments_survive_fmt(docs in super::properties::file(), choices in prop::collection::vec(choice(), 0..12)) {
        // The records in their generated order: fmt sorts them.
        let text = render(&docs, &RenderOptions { sort: false, ..RenderOptions::default() });
        let (with, markers) = comment_insert::insert(&text, &choices);
        if let Err(e) = comment_insert::check(&text, &with, &markers) {
            return Err(TestCaseError::fail(e));
        }
    }
}

/// The before/after example of `docs/format.md` ("Comments") is what fmt
/// does.
#[test]
fn the_documented_example_holds() {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/format.md"))
        .expect("docs/format.md");
    let block_after = |marker: &str| -> String {
        let start = doc
            .find(marker)
            .unwrap_or_else(|| panic!("{marker} in format.md"));
        let rest = &doc[start..];
        let open = rest.find("```yaml\n").expect("a yaml block") + "```yaml\n".len();
        let close = rest[open..].find("```").expect("its end");
        rest[open..open + close].to_string()
    };
    let before = block_after("Before `fmt`:");
    let after = block_after("\nAfter:\n");
    assert_fmt(&before, &after);
}

/// Comments are in the model with the span they were read at (after a
/// byte order mark too), on the owner the attachment rules name.
#[test]
fn comments_are_in_the_model_with_their_spans() {
    let text = "\u{feff}# header\n---\n---\n_path: /a # t\ncategories:\n# before b\n- b\ncontent-type: text/html\n# footer\n";
    let checked = check_bytes(
        Path::new("example.com.yaml"),
        text.as_bytes(),
        &Options::default(),
    );
    let docs = checked.documents.into_parsed().expect("parses");
    let at = |c: &urldb_core::model::node::Comment| &text[c.span.clone()];
    assert_eq!(at(&docs[0].comments.before[0]), "# header");
    assert_eq!(at(&docs[0].footer[0]), "# footer");
    let record = docs[1]
        .root
        .as_ref()
        .and_then(|r| r.as_map())
        .expect("a mapping");
    let path = record[0].key.comments.as_deref().expect("_path's comments");
    assert_eq!(path.trailing.as_ref().map(at), Some("# t"));
    let categories = record[1].value.as_seq().expect("a list");
    let b = categories[0].comments.as_deref().expect("b's comments");
    assert_eq!(b.before.iter().map(at).collect::<Vec<_>>(), ["# before b"]);
    assert_eq!(
        model_walk::all_comments(&docs),
        ["# header", "# t", "# before b", "# footer"]
    );
}

/// `yaml-comment` is off by default, but on in `style = "pyyaml"`, where
/// the reference tool that drops comments still writes the files; an
/// explicit `ignore` turns it off there too.
#[test]
fn yaml_comment_is_on_by_default_only_in_the_pyyaml_style() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("example.com.yaml"),
        "---\n---\n_path: /a # kept for the 2019 paper\ncontent-type: text/html\n",
    )
    .expect("write the domain file");
    let check = |config: &str| {
        std::fs::write(dir.path().join("urldb.toml"), config).expect("write urldb.toml");
        let out = crate::support::urldb()
            .current_dir(dir.path())
            .args(["check", "--no-cache", "--format", "concise"])
            .output()
            .expect("run urldb check");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (code, out) = check("");
    assert_eq!(
        (code, out.contains("yaml-comment")),
        (Some(0), false),
        "{out}"
    );
    let (code, out) = check("style = \"readable\"\n");
    assert_eq!(
        (code, out.contains("yaml-comment")),
        (Some(0), false),
        "{out}"
    );
    let (code, out) = check("style = \"pyyaml\"\n");
    assert_eq!(
        (code, out.contains("yaml-comment")),
        (Some(1), true),
        "{out}"
    );
    let (code, out) = check("style = \"pyyaml\"\n[lint]\nignore = [\"yaml-comment\"]\n");
    assert_eq!(
        (code, out.contains("yaml-comment")),
        (Some(0), false),
        "{out}"
    );
}

/// A file of comments only has no document to keep them in: it is never
/// rewritten (`empty-file` blocks it), so nothing is lost.
#[test]
fn a_file_of_comments_only_is_not_rewritten() {
    let checked = check_bytes(
        Path::new("example.com.yaml"),
        b"# only a note\n",
        &Options::default(),
    );
    assert!(checked.canonical.is_none());
    assert!(checked.findings.iter().any(|f| f.code() == "empty-file"));
}
