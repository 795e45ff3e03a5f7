//! `?`, `#` and `/` stay themselves (`docs/urls.md`, "Path equivalence"):
//! `/a%3Fb` is the path `/a?b` with no query, another URL than `/a?b`
//! (the path `/a` and the query `b`). Through the binary, as a user meets
//! it: `rm` removes only the record named, `add` adds the other one
//! beside it, `check` sees no equivalent paths, and the messages name
//! the record touched by its stored `_path`.

use std::path::Path;

use crate::support::run_in;

const FILE: &str =
    "---\n---\n_path: /a?b\ncontent-type: text/html\n---\n_path: /c\ncontent-type: text/html\n";

fn database() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("h.org.yaml"), FILE).expect("write");
    dir
}

fn file(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("h.org.yaml")).expect("read")
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn rm_of_an_encoded_question_mark_removes_nothing() {
    let dir = database();
    let out = run_in(dir.path(), &["rm", "https://h.org/a%3Fb"]);
    // As for any URL the database does not have.
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no record `/a%3Fb`"),
        "{}",
        stderr(&out)
    );
    assert_eq!(file(dir.path()), FILE);
    let out = run_in(dir.path(), &["rm", "https://h.org/a?b"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out).trim(), "removed /a?b from h.org.yaml");
    assert!(!file(dir.path()).contains("/a?b"));
}

#[test]
fn add_of_an_encoded_question_mark_adds_a_second_record() {
    let dir = database();
    let out = run_in(
        dir.path(),
        &["add", "--content-type", "text/html", "https://h.org/a%3Fb"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("added /a%3Fb to h.org.yaml"),
        "{}",
        stderr(&out)
    );
    let text = file(dir.path());
    assert!(
        text.contains("_path: /a?b\n") && text.contains("_path: /a%3Fb\n"),
        "{text}"
    );
    // Two URLs, not two spellings of one: no equivalent-paths.
    let check = run_in(dir.path(), &["check", "--format", "concise"]);
    let out = String::from_utf8_lossy(&check.stdout);
    assert!(!out.contains("equivalent-paths"), "{out}");
    assert_eq!(check.status.code(), Some(0), "{out}");
}

/// A reserved character that does not change how the URL parses stays
/// decoded for comparison, as before: `/a%3Ab` and `/a:b` are one URL.
/// `rm` names the record it removed by its stored `_path`, and the URL as
/// given, which is spelt otherwise.
#[test]
fn an_encoded_colon_is_still_the_colon() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("h.org.yaml"),
        "---\n---\n_path: /a:b\ncontent-type: text/html\n",
    )
    .expect("write");
    let out = run_in(dir.path(), &["rm", "https://h.org/a%3Ab"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out).trim(),
        "removed /a:b from h.org.yaml (given as https://h.org/a%3Ab)"
    );
}
