//! One reading of `content-type` everywhere: what `check` accepts survives
//! `export --to uri-catalogue` then `import` as the standard `TYPE` field,
//! and what `check` rejects `import` rejects too.

use crate::support;

use std::fs;
use std::path::Path;

use support::run_in;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The record documents of a domain file (everything after the metadata).
fn records_text(path: &Path) -> String {
    let text = fs::read_to_string(path).expect("read");
    let second = text[3..].find("\n---").map_or(text.len(), |i| i + 4);
    text[second..].to_string()
}

/// Media types whose quoted parameter values hold `;`, a space and an
/// escaped quote, and a redirect marker.
const RECORDS: &str = "---\n---\n\
    _path: /a\ncontent-type: text/html; charset=\"a;b\"\n---\n\
    _path: /b\ncontent-type: multipart/form-data; boundary=\"x y;z\\\"w\"\n---\n\
    _path: /c\ncontent-type: X-301-Redirect\n";

fn import(db: &Path, catalogue: &Path) -> std::process::Output {
    run_in(
        db,
        &[
            "import",
            "--from",
            "uri-catalogue",
            "--create-domain",
            catalogue.to_str().expect("utf-8"),
        ],
    )
}

#[test]
fn a_quoted_parameter_with_a_semicolon_passes_check_and_survives_the_round_trip() {
    let source = tempfile::tempdir().expect("tempdir");
    fs::write(source.path().join("example.com.yaml"), RECORDS).expect("write");
    let checked = run_in(source.path(), &["check"]);
    assert!(
        checked.status.success(),
        "{}{}",
        text(&checked.stdout),
        text(&checked.stderr)
    );

    let exported = run_in(source.path(), &["export", "--to", "uri-catalogue"]);
    assert!(exported.status.success(), "{}", text(&exported.stderr));
    let catalogue = text(&exported.stdout);
    // A media type is the standard field, not the extension kept for
    // values that are none.
    assert!(
        catalogue.contains("\r\nTYPE: text/html; charset=\"a;b\"\r\n"),
        "{catalogue}"
    );
    assert!(
        catalogue.contains("\r\nTYPE: multipart/form-data; boundary=\"x y;z\\\"w\"\r\n"),
        "{catalogue}"
    );
    assert!(
        catalogue.contains("\r\nX-CONTENT-TYPE: X-301-Redirect\r\n"),
        "{catalogue}"
    );

    let target = tempfile::tempdir().expect("tempdir");
    let file = target.path().join("urls.catalogue");
    fs::write(&file, &catalogue).expect("write");
    let db = target.path().join("db");
    fs::create_dir(&db).expect("mkdir");
    let imported = import(&db, &file);
    assert!(imported.status.success(), "{}", text(&imported.stderr));
    assert!(
        !text(&imported.stderr).contains("record skipped"),
        "{}",
        text(&imported.stderr)
    );
    assert_eq!(
        records_text(&db.join("example.com.yaml")),
        records_text(&source.path().join("example.com.yaml"))
    );
    assert!(run_in(&db, &["check"]).status.success());
}

#[test]
fn what_check_rejects_import_rejects() {
    let dir = tempfile::tempdir().expect("tempdir");
    for bad in [
        "text/html; charset=\"a;b",
        "text/html; charset=\"a",
        "text/html; charset=a b",
        "text/html; charset=a;b",
        "text/html;",
    ] {
        let yaml = format!("---\n---\n_path: /a\ncontent-type: '{bad}'\n");
        fs::write(dir.path().join("example.com.yaml"), yaml).expect("write");
        let checked = run_in(dir.path(), &["check"]);
        assert!(!checked.status.success(), "{bad}");
        assert!(
            text(&checked.stdout).contains("invalid-content-type"),
            "{bad}: {}",
            text(&checked.stdout)
        );

        let file = dir.path().join("urls.catalogue");
        fs::write(
            &file,
            format!(
                "URI: http://example.org/a\r\nNAME: a\r\nDATE: 31/10/2007 19:03:34\r\n\
                 TYPE: {bad}\r\n"
            ),
        )
        .expect("write");
        let db = dir.path().join("db");
        fs::create_dir_all(&db).expect("mkdir");
        let imported = import(&db, &file);
        let stderr = text(&imported.stderr);
        assert!(stderr.contains("record skipped"), "{bad}: {stderr}");
        // The catalogue reader's own verdict, not only the rule `import`
        // runs on each record afterwards.
        assert!(
            stderr.contains(&format!("TYPE `{bad}`: not a media type")),
            "{bad}: {stderr}"
        );
        assert!(!db.join("example.org.yaml").exists(), "{bad}");
    }
}
