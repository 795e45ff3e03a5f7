//! Line endings in and out, the same on every system (`docs/format.md`):
//! a CRLF file stays CRLF through `fmt`, `check --fix`, `add` and `rm`
//! (never mixed); new files and everything urldb prints end lines with LF
//! (on Windows too: nothing translates `\n`), unless `line-ending` in
//! `urldb.toml` says `crlf`; and text given on stdin comes back with its
//! own endings.

use super::{read, run, run_with_input, stderr, stdout, write};

const CRLF_UNSORTED: &str = "---\r\n---\r\ncontent-type: text/html\r\n_path: /a\r\n";
const CRLF_CANONICAL: &str = "---\r\n---\r\n_path: /a\r\ncontent-type: text/html\r\n";

/// Every line break of `text` is CRLF.
fn all_crlf(text: &str) -> bool {
    text.contains("\r\n") && !text.replace("\r\n", "").contains(['\n', '\r'])
}

#[test]
fn a_crlf_file_stays_crlf_through_every_writer() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path();
    write(&db.join("urldb.toml"), "");
    let file = db.join("crlf.org.yaml");
    write(&file, CRLF_UNSORTED);

    let out = run(db, &["fmt"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(read(&file), CRLF_CANONICAL);

    write(
        &file,
        "---\r\n---\r\n_path: /%7e\r\ncontent-type: text/html\r\n",
    );
    let out = run(db, &["check", "--fix"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        read(&file),
        "---\r\n---\r\n_path: /~\r\ncontent-type: text/html\r\n"
    );

    let out = run(
        db,
        &["add", "--content-type", "text/html", "http://crlf.org/new"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = read(&file);
    assert!(text.contains("_path: /new\r\n"), "{text:?}");
    assert!(all_crlf(&text), "mixed line endings after add: {text:?}");

    let out = run(db, &["rm", "http://crlf.org/~"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = read(&file);
    assert!(!text.contains("/~"), "{text:?}");
    assert!(all_crlf(&text), "mixed line endings after rm: {text:?}");

    let out = run(db, &["check"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

#[test]
fn new_files_and_output_end_lines_with_lf() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = run(dir.path(), &["init", "db"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let db = dir.path().join("db");
    for name in ["urldb.toml", "example.com.yaml"] {
        let text = read(&db.join(name));
        assert!(!text.contains('\r'), "{name}: {text:?}");
    }
    let out = run(
        &db,
        &[
            "add",
            "--create-domain",
            "--content-type",
            "text/html",
            "http://new.org/a",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        read(&db.join("new.org.yaml")),
        "---\n---\n_path: /a\ncontent-type: text/html\n"
    );
    // What urldb prints: LF only, whatever the system.
    write(&db.join("bad.org.yaml"), "x: 1\n");
    for args in [
        vec!["check", "--format", "concise"],
        vec!["check", "--format", "json"],
        vec!["check", "--format", "full"],
        vec!["ls"],
        vec!["export", "--to", "json"],
        vec!["rules"],
    ] {
        let out = run(&db, &args);
        assert!(!out.stdout.is_empty(), "{args:?}");
        assert!(
            !out.stdout.contains(&b'\r') && !out.stderr.contains(&b'\r'),
            "{args:?}: a CR in {:?}",
            stdout(&out)
        );
    }
    // `line-ending = "crlf"`: new files too.
    write(&db.join("urldb.toml"), "line-ending = \"crlf\"\n");
    let out = run(
        &db,
        &[
            "add",
            "--create-domain",
            "--content-type",
            "text/html",
            "http://other.org/a",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        read(&db.join("other.org.yaml")),
        "---\r\n---\r\n_path: /a\r\ncontent-type: text/html\r\n"
    );
}

/// An editor's buffer through stdin comes back byte for byte as `fmt`
/// writes the file: stdout is not a text stream that adds or drops a CR.
#[test]
fn stdin_text_comes_back_with_its_own_line_endings() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(&dir.path().join("urldb.toml"), "");
    for (input, want) in [
        (CRLF_UNSORTED, CRLF_CANONICAL),
        (
            "---\n---\ncontent-type: text/html\n_path: /a\n",
            "---\n---\n_path: /a\ncontent-type: text/html\n",
        ),
    ] {
        let out = run_with_input(
            dir.path(),
            &["fmt", "--stdin-filename", "a.org.yaml"],
            input.as_bytes(),
        );
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert_eq!(stdout(&out), want);
        let out = run_with_input(
            dir.path(),
            &["check", "--fix", "-q", "--stdin-filename", "a.org.yaml"],
            input.as_bytes(),
        );
        assert_eq!(stdout(&out), want, "{}", stderr(&out));
    }
}
