//! `urldb merge BASE OURS THEIRS`: three files, for tools other than git;
//! its labels and marker size as the driver takes them from git, and its
//! fall back to git's line merge.

use std::path::Path;

use crate::support::urldb_in;

/// A database (`urldb.toml` in `dir`, the files beside it) with the three
/// versions of `example.org.yaml` as `base.org.yaml`, `ours.org.yaml` and
/// `theirs.org.yaml`.
fn three(dir: &Path, base: &str, ours: &str, theirs: &str) {
    std::fs::write(dir.join("urldb.toml"), "style = \"pyyaml\"\n").expect("write");
    for (name, text) in [("base", base), ("ours", ours), ("theirs", theirs)] {
        std::fs::write(dir.join(format!("{name}.org.yaml")), text).expect("write");
    }
}

const ARGS: [&str; 4] = ["merge", "base.org.yaml", "ours.org.yaml", "theirs.org.yaml"];

#[test]
fn merges_to_standard_output_or_a_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    three(
        dir.path(),
        "---\n---\n_path: /a\n",
        "---\n---\n_path: /a\n---\n_path: /b\n",
        "---\n---\n_path: /a\ncontent-type: text/html\n",
    );
    let out = urldb_in(dir.path(), &ARGS);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let merged = "---\n---\n_path: /a\ncontent-type: text/html\n---\n_path: /b\n";
    assert_eq!(String::from_utf8_lossy(&out.stdout), merged);
    let out = urldb_in(dir.path(), &[&ARGS[..], &["-o", "out.yaml"]].concat());
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("out.yaml")).expect("read"),
        merged
    );
}

#[test]
fn labels_and_marker_size_as_git_passes_them() {
    let dir = tempfile::tempdir().expect("tempdir");
    three(
        dir.path(),
        "---\n---\n_path: /a\nx-note: 1\n",
        "---\n---\n_path: /a\nx-note: 2\n",
        "---\n---\n_path: /a\nx-note: 3\n",
    );
    let out = urldb_in(
        dir.path(),
        &[
            &ARGS[..],
            &["--marker-size", "9", "--labels", "base", "HEAD", "topic"],
        ]
        .concat(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "---\n---\n_path: /a\n<<<<<<<<< HEAD (record /a, key x-note)\nx-note: 2\n\
         ||||||||| base\nx-note: 1\n=========\nx-note: 3\n>>>>>>>>> topic\n"
    );
    // Git before 2.44 passes `%L`, `%S`, `%X`, `%Y` through: no label.
    let out = urldb_in(
        dir.path(),
        &[
            &ARGS[..],
            &["--marker-size", "%L", "--labels", "%S", "%X", "%Y"],
        ]
        .concat(),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("<<<<<<< ours (record /a, key x-note)\n"),
        "{text}"
    );
    assert!(text.contains(">>>>>>> theirs\n"), "{text}");
}

#[test]
fn what_is_not_canonical_is_merged_line_by_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Ours is in the readable style; the database's is pyyaml.
    three(
        dir.path(),
        "---\n---\n_path: /a\n",
        "---\n---\n_path: /a\nx-note: caf\u{e9}\n",
        "---\n---\n_path: /a\n---\n_path: /b\n",
    );
    let out = urldb_in(dir.path(), &ARGS);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "merged line by line, as git does (git merge-file): ours is not canonical text"
        ),
        "{stderr}"
    );
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("x-note: caf\u{e9}") && text.contains("_path: /b"),
        "{text}"
    );
}

#[test]
fn check_names_an_unresolved_merge_and_the_way_out() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("urldb.toml"), "").expect("write");
    std::fs::write(
        dir.path().join("example.org.yaml"),
        "---\n<<<<<<< HEAD\n---\n_path: /a\n=======\n>>>>>>> topic\n",
    )
    .expect("write");
    let out = urldb_in(dir.path(), &["check", "--format", "concise"]);
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("example.org.yaml:2:1: error yaml-syntax unresolved merge conflict"),
        "{said}"
    );
    assert!(said.contains("(from line 2)"), "{said}");
}
