//! `export`, `import` and `ls`: the URI-Catalogue round trip, the specification's
//! examples, the strict reader's diagnostics, and the record filters.

use crate::support;

use std::fs;
use std::path::Path;

use support::run_in;

fn write(dir: &Path, name: &str, text: &str) {
    fs::write(dir.join(name), text).expect("write");
}

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The record documents of a domain file (everything after the metadata).
fn records_text(path: &Path) -> String {
    let text = fs::read_to_string(path).expect("read");
    let second = text[3..].find("\n---").map_or(text.len(), |i| i + 4);
    text[second..].to_string()
}

/// A database with every kind of record the format holds.
fn sample_database(dir: &Path) {
    write(
        dir,
        "example.com.yaml",
        "---\ncnames:\n- www.example.com\nhttps: true\n---\n\
         _path: /\ncategories:\n- coreapp\n- frontend\ncontent-type: text/html\n\
         date: 31/10/2007 19:03:34\ndescription: The home page, with a description\n\
         id: 7\nlanguage: en-gb\nname: Home\nrating: 5\n---\n\
         X-Mirror: http://mirror.example.net/\n\
         _path: /a%20b/caf%C3%A9?q=1&r=%2B\ncontent-type: text/html; charset=utf-8\n\
         owner: alice\npriority: 3\nreviewed: true\n---\n\
         _path: /favicon.ico\ncategories:\n- graphics\ncontent-length: 1406\n\
         content-sha256: 0d5a5c3c6e4f1b2a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c\n\
         content-type: image/x-icon\n---\n\
         _path: /old\ncategories:\n- deprecated\ncontent-type: X-301-Redirect\n",
    );
    write(
        dir,
        "ci.example.org.yaml",
        "---\ncase-sensitive-paths: false\n---\n_path: /docs/index.html\ncontent-type: text/html\n\
         ---\n_path: /robots.txt\ncontent-type: text/plain\nname: '123'\n",
    );
}

#[test]
fn export_then_import_reproduces_the_records() {
    let source = tempfile::tempdir().expect("tempdir");
    sample_database(source.path());
    assert!(run_in(source.path(), &["check"]).status.success());
    let exported = run_in(source.path(), &["export", "--to", "uri-catalogue"]);
    assert!(exported.status.success(), "{}", stderr(&exported));
    let catalogue = stdout(&exported);
    // ASCII, CRLF only, blank line between records.
    assert!(catalogue.is_ascii());
    assert!(!catalogue.replace("\r\n", "").contains('\n'));
    assert_eq!(catalogue.matches("\r\n\r\nURI: ").count(), 5);

    let target = tempfile::tempdir().expect("tempdir");
    let file = target.path().join("urls.catalogue");
    fs::write(&file, &catalogue).expect("write");
    let db = target.path().join("db");
    fs::create_dir(&db).expect("mkdir");
    let imported = run_in(
        &db,
        &[
            "import",
            "--from",
            "uri-catalogue",
            "--create-domain",
            file.to_str().expect("utf-8"),
        ],
    );
    assert!(imported.status.success(), "{}", stderr(&imported));
    for name in ["example.com.yaml", "ci.example.org.yaml"] {
        assert_eq!(
            records_text(&db.join(name)),
            records_text(&source.path().join(name)),
            "{name}"
        );
    }
    // The https domain comes back as one.
    assert!(
        fs::read_to_string(db.join("example.com.yaml"))
            .expect("read")
            .contains("https: true")
    );
    assert!(run_in(&db, &["check"]).status.success());
    assert!(run_in(&db, &["fmt", "--check"]).status.success());

    // Importing the same catalogue again changes nothing and says so.
    let before = fs::read(db.join("example.com.yaml")).expect("read");
    let again = run_in(
        &db,
        &[
            "import",
            "--from",
            "uri-catalogue",
            file.to_str().expect("utf-8"),
        ],
    );
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(
        stderr(&again).contains("left as it is"),
        "{}",
        stderr(&again)
    );
    assert_eq!(fs::read(db.join("example.com.yaml")).expect("read"), before);
}

#[test]
fn export_urls_json_and_csv_carry_the_records() {
    let dir = tempfile::tempdir().expect("tempdir");
    sample_database(dir.path());
    let urls = stdout(&run_in(dir.path(), &["export", "--to", "urls"]));
    let lines: Vec<&str> = urls.lines().collect();
    assert_eq!(lines.len(), 6, "{urls}");
    assert!(lines.contains(&"https://example.com/a%20b/caf%C3%A9?q=1&r=%2B"));
    assert!(lines.contains(&"http://ci.example.org/robots.txt"));
    // Deprecated records are exported too.
    assert!(lines.contains(&"https://example.com/old"));

    let json = stdout(&run_in(dir.path(), &["export", "--to", "json"]));
    let parsed: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
    let favicon = parsed
        .as_array()
        .and_then(|a| a.iter().find(|r| r["_path"] == "/favicon.ico"))
        .expect("favicon record");
    assert_eq!(favicon["content-length"], 1406);
    assert_eq!(favicon["categories"], serde_json::json!(["graphics"]));
    let home = parsed
        .as_array()
        .and_then(|a| a.iter().find(|r| r["_path"] == "/"))
        .expect("home record");
    assert_eq!(home["extras"]["rating"], 5);
    assert_eq!(home["extras"]["name"], "Home");

    // CSV as Python's csv module reads it.
    let csv = stdout(&run_in(dir.path(), &["export", "--to", "csv"]));
    let script = "import csv,sys,json\nrows=list(csv.DictReader(sys.stdin))\n\
                  print(json.dumps(rows))";
    let out = support::run_python(script, &[], csv.as_bytes());
    let rows: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).expect("rows");
    assert_eq!(rows.len(), 6);
    let home = rows.iter().find(|r| r["_path"] == "/").expect("home row");
    assert_eq!(home["categories"], "coreapp;frontend");
    let extras: serde_json::Value =
        serde_json::from_str(home["extras"].as_str().expect("extras")).expect("extras JSON");
    assert_eq!(extras["description"], "The home page, with a description");
    let typed = rows
        .iter()
        .find(|r| r["content-type"] == "text/html; charset=utf-8");
    assert!(
        typed.is_some(),
        "a field with a comma or semicolon survives"
    );
}

#[test]
fn export_leaves_out_what_a_catalogue_cannot_hold() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        "example.com.yaml",
        "---\n---\n_path: /\ncontent-type: text/html\ndescription: Caf\u{e9}\n\
         links:\n  a: b\nnote: \"a\\x1Bb\"\n",
    );
    let out = run_in(dir.path(), &["export", "--to", "uri-catalogue"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    for wanted in [
        "warning: example.com.yaml:3: http://example.com/: extra `description` left out: \
         its value holds the non-ASCII character `\u{e9}`",
        "warning: example.com.yaml:3: http://example.com/: extra `links` left out: it is a mapping",
        // The control character is escaped in the message.
        "warning: example.com.yaml:3: http://example.com/: extra `note` left out: its value \
         holds the control character U+001B",
    ] {
        assert!(err.contains(wanted), "`{wanted}` in:\n{err}");
    }
    assert!(!err.contains('\u{1b}'), "{err:?}");
    let text = stdout(&out);
    assert!(text.starts_with("URI: http://example.com/\r\n"), "{text}");
    assert!(
        !text.contains("DESCRIPTION") && !text.contains("links"),
        "{text}"
    );

    // Records `check` faults: a non-ASCII `_path` is left out, as `verify`
    // does not request it (`docs/urls.md`, "A record's URL"); half a digest
    // is left out (the format carries both or neither).
    write(
        dir.path(),
        "example.com.yaml",
        "---\n---\n_path: /caf\u{e9}\ncontent-type: text/html\n---\n_path: /ok\n\
         content-length: 3\ncontent-type: text/html\n",
    );
    let out = run_in(dir.path(), &["export", "--to", "uri-catalogue"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(
            "warning: example.com.yaml:6: http://example.com/ok: content-length and \
             content-sha256 left out: the format carries both or neither"
        ) && err.contains(
            "warning: example.com.yaml:3: record left out: `_path` contains the non-ASCII \
             character `\u{e9}` (path-invalid-char)"
        ),
        "{err}"
    );
    let text = stdout(&out);
    assert!(text.starts_with("URI: http://example.com/ok\r\n"), "{text}");
    assert_eq!(text.matches("URI: ").count(), 1, "{text}");
    assert!(!text.contains("X-CONTENT-LENGTH"), "{text}");
}

/// The issue's records: `RATING: 9`, `ID: 0`, a duplicate ID and
/// `LANGUAGE: not a tag!` used to be written verbatim, and re-importing
/// the file skipped those records. Now each such value goes into its
/// `X-URLDB-` field (with a warning naming the record), the standard field
/// is left out, and import takes every record back with every value.
#[test]
fn export_of_invalid_standard_values_reimports_every_record() {
    let source = tempfile::tempdir().expect("tempdir");
    write(
        source.path(),
        "example.com.yaml",
        "---\n---\n_path: /a\ncontent-type: text/html\nid: 7\nrating: 9\n\
         ---\n_path: /b\ncontent-type: text/html\nid: 0\nlanguage: not a tag!\n\
         ---\n_path: /c\ncontent-type: X-301-Redirect\nid: 7\nrating: 3\n\
         ---\n_path: /d\ncontent-type: text/html; charset=utf-8\ndate: '2001-02-03'\n\
         id: 007\n",
    );
    let check = run_in(source.path(), &["check"]);
    assert!(check.status.success(), "{}", stdout(&check));
    let exported = run_in(source.path(), &["export", "--to", "uri-catalogue"]);
    let err = stderr(&exported);
    assert_eq!(exported.status.code(), Some(0), "{err}");
    let text = stdout(&exported);
    for wanted in [
        "warning: example.com.yaml:3: http://example.com/a: `RATING: 9` not written: \
         not an integer from 1 to 5; the value is in `X-URLDB-PLAIN-rating` instead",
        "warning: example.com.yaml:8: http://example.com/b: `ID: 0` not written: \
         not a positive decimal integer",
        "warning: example.com.yaml:8: http://example.com/b: `LANGUAGE: not a tag!` not written",
        "warning: example.com.yaml:13: http://example.com/c: `ID: 7` not written: the record \
         at example.com.yaml:3 has this ID, and IDs are unique",
        "warning: example.com.yaml:18: http://example.com/d: `ID: 007` not written: it would \
         read back as text, not a number; the value is in `X-URLDB-PLAIN-id` instead",
        "warning: example.com.yaml:18: http://example.com/d: `DATE: 2001-02-03` not written",
    ] {
        assert!(err.contains(wanted), "`{wanted}` in:\n{err}");
    }
    for refused in ["RATING: 9", "ID: 0", "LANGUAGE: not", "DATE: 2001-02-03"] {
        assert!(!text.contains(refused), "{refused} in:\n{text}");
    }
    assert_eq!(text.matches("\r\nID: 7\r\n").count(), 1, "{text}");

    let target = tempfile::tempdir().expect("tempdir");
    write(target.path(), "in.catalogue", &text);
    let imported = run_in(
        target.path(),
        &[
            "import",
            "--from",
            "uri-catalogue",
            "--create-domain",
            "in.catalogue",
        ],
    );
    let err = stderr(&imported);
    assert_eq!(imported.status.code(), Some(0), "{err}");
    assert!(!err.contains("warning") && !err.contains("error"), "{err}");
    assert!(err.contains("imported 4 records; 0 skipped"), "{err}");
    assert_eq!(
        records_text(&target.path().join("example.com.yaml")),
        records_text(&source.path().join("example.com.yaml")),
        "every record with every value"
    );
}

/// The URI-Catalogue specification, section 4.1, with CRLF line breaks as the format requires.
const SEED_FULL: &str = "URI: http://google.co.uk/\r\nNAME: Google\r\nID: 1\r\n\
DATE: 30/10/2007 08:31:32\r\nCATEGORY: Search Engines\r\n\
DESCRIPTION: A popular search engine run by Google, Inc. of the USA\r\nRATING: 1\r\n\
LANGUAGE: en-us\r\nTYPE: text/html\r\n\r\n\
URI: http://shadyindustries.biz/ssd/ssd3.txt\r\n\
NAME: SSD3 - \"Specification of URI-Catalogue format\"\r\nID: 2\r\n\
DATE: 31/10/2007 19:28:45\r\nCATEGORY: Official Documents\r\n\
DESCRIPTION: The Specification for the URI-Catalogue format\r\nRATING: 2\r\n\
LANGUAGE: en-gb\r\nTYPE: text/plain\r\n";

/// The URI-Catalogue specification, section 4.2.
const SEED_MINIMUM: &str = "URI: http://shadyindustries.biz/ssd/ssd3.txt\r\n\
NAME: SSD3 - URI-Catalogue specification\r\nDATE: 31/10/2007 19:29:23\r\n";

fn import(dir: &Path, text: &str, extra: &[&str]) -> std::process::Output {
    let file = dir.join("in.catalogue");
    fs::write(&file, text).expect("write");
    let mut args = vec![
        "--db",
        "db",
        "import",
        "--from",
        "uri-catalogue",
        "--create-domain",
    ];
    args.extend_from_slice(extra);
    args.push("in.catalogue");
    fs::create_dir_all(dir.join("db")).expect("mkdir");
    run_in(dir, &args)
}

fn json_records(dir: &Path) -> Vec<serde_json::Value> {
    let out = run_in(dir, &["--db", "db", "export", "--to", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_slice::<Vec<serde_json::Value>>(&out.stdout).expect("json")
}

#[test]
fn uri_catalogue_spec_full_example_imports() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = import(dir.path(), SEED_FULL, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let records = json_records(dir.path());
    assert_eq!(records.len(), 2);
    let google = records
        .iter()
        .find(|r| r["url"] == "http://google.co.uk/")
        .expect("google");
    assert_eq!(google["content-type"], "text/html");
    assert_eq!(google["categories"], serde_json::json!(["Search Engines"]));
    assert_eq!(google["extras"]["name"], "Google");
    assert_eq!(google["extras"]["id"], 1);
    assert_eq!(google["extras"]["rating"], 1);
    assert_eq!(google["extras"]["language"], "en-us");
    assert_eq!(google["extras"]["date"], "30/10/2007 08:31:32");
    let ssd = records
        .iter()
        .find(|r| r["url"] == "http://shadyindustries.biz/ssd/ssd3.txt")
        .expect("ssd3");
    assert_eq!(
        ssd["extras"]["name"],
        "SSD3 - \"Specification of URI-Catalogue format\""
    );
    assert!(run_in(&dir.path().join("db"), &["check"]).status.success());
    assert!(
        run_in(&dir.path().join("db"), &["fmt", "--check"])
            .status
            .success()
    );
}

#[test]
fn uri_catalogue_spec_minimum_example_needs_a_content_type() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = import(dir.path(), SEED_MINIMUM, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("in.catalogue:1: record skipped: no content type"),
        "{}",
        stderr(&out)
    );
    // Nothing was imported: the database is still empty, which a listing
    // calls an error rather than an empty success (issue 49).
    assert!(!dir.path().join("db/shadyindustries.biz.yaml").exists());
    let empty = run_in(dir.path(), &["--db", "db", "export", "--to", "json"]);
    assert_eq!(empty.status.code(), Some(2), "{}", stderr(&empty));
    assert!(
        stderr(&empty).contains("holds no domain file"),
        "{}",
        stderr(&empty)
    );

    let out = import(dir.path(), SEED_MINIMUM, &["--content-type", "text/plain"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let records = json_records(dir.path());
    assert_eq!(records.len(), 1);
    assert_eq!(records[0]["content-type"], "text/plain");
    assert_eq!(
        records[0]["extras"]["name"],
        "SSD3 - URI-Catalogue specification"
    );
}

fn field_lines(fields: &[&str]) -> String {
    fields.iter().map(|f| format!("{f}\r\n")).collect()
}

#[test]
fn invalid_records_are_reported_by_line_and_the_rest_imported() {
    // (record fields, the line of the expected error within the record,
    // what the message says, whether the record is skipped or only the
    // field dropped); None = a valid record. The specification (2.2): an
    // invalid optional field is discarded, a record without a valid
    // required field (`URI`, `NAME`, `DATE`) is.
    type Expected<'a> = Option<(usize, &'a str, bool)>;
    const SKIP: bool = true;
    const DROP: bool = false;
    let records: Vec<(Vec<&str>, Expected)> = vec![
        (
            vec![
                "URI: http://example.com/ok1",
                "NAME: one",
                "DATE: 01/02/2003 04:05:06",
                "TYPE: text/html",
                "ID: 1",
            ],
            None,
        ),
        (
            vec![
                "URI: http://example.com/date",
                "NAME: bad date",
                "DATE: 2003-02-01 04:05:06",
                "TYPE: text/html",
            ],
            Some((
                2,
                "DATE `2003-02-01 04:05:06`: not `DD/MM/YYYY hh:mm:ss`",
                SKIP,
            )),
        ),
        (
            vec![
                "URI: http://example.com/rating",
                "NAME: r",
                "DATE: 01/02/2003 04:05:06",
                "RATING: 7",
                "TYPE: text/html",
            ],
            Some((
                3,
                "RATING `7`: not an integer from 1 to 5; field dropped",
                DROP,
            )),
        ),
        (
            vec![
                "URI: http://example.com/dup",
                "NAME: d",
                "DATE: 01/02/2003 04:05:06",
                "ID: 1",
                "TYPE: text/html",
            ],
            Some((
                3,
                "ID 1 is already the ID of the record on line 5; field dropped",
                DROP,
            )),
        ),
        (
            vec![
                "URI: http://example.com/tab",
                "NAME: with\ta tab",
                "DATE: 01/02/2003 04:05:06",
                "TYPE: text/html",
            ],
            Some((1, "tab character", SKIP)),
        ),
        (
            vec![
                "URI: http://example.com/feb",
                "NAME: f",
                "DATE: 30/02/2003 04:05:06",
                "TYPE: text/html",
            ],
            Some((2, "no day 30 in month 2", SKIP)),
        ),
        (
            vec!["NAME: no uri", "DATE: 01/02/2003 04:05:06"],
            Some((0, "no `URI` field", SKIP)),
        ),
        (
            vec!["URI: http://example.com/nodate", "NAME: n"],
            Some((0, "no `DATE` field", SKIP)),
        ),
        (
            vec![
                "URI: http://example.com/name",
                "NA ME: x",
                "DATE: 01/02/2003 04:05:06",
            ],
            Some((1, "`NA ME` is not a field name", SKIP)),
        ),
        (
            vec![
                "URI: http://example.com/space",
                "NAME:x",
                "DATE: 01/02/2003 04:05:06",
            ],
            Some((1, "must be followed by one space", SKIP)),
        ),
        (
            vec![
                "URI: http://example.com/empty",
                "NAME: ",
                "DATE: 01/02/2003 04:05:06",
            ],
            Some((1, "NAME: an empty value", SKIP)),
        ),
        (
            vec![
                "URI: http://example.com/twice",
                "NAME: a",
                "NAME: b",
                "DATE: 01/02/2003 04:05:06",
            ],
            Some((2, "second `NAME` field (first on line", SKIP)),
        ),
        (
            vec![
                "URI: http://example.com:8080/port",
                "NAME: p",
                "DATE: 01/02/2003 04:05:06",
                "TYPE: text/html",
            ],
            Some((0, "port 8080 cannot be stored", SKIP)),
        ),
        (
            vec![
                "URI: http://example.com/lang",
                "NAME: l",
                "DATE: 01/02/2003 04:05:06",
                "LANGUAGE: en_us",
                "TYPE: text/html",
            ],
            Some((3, "LANGUAGE `en_us`: not a language tag", DROP)),
        ),
        (
            vec![
                "URI: http://example.com/type",
                "NAME: t",
                "DATE: 01/02/2003 04:05:06",
                "TYPE: html",
            ],
            Some((0, "no content type (`TYPE`)", SKIP)),
        ),
        (
            vec![
                "URI: http://example.com/id0",
                "NAME: t",
                "DATE: 01/02/2003 04:05:06",
                "ID: 0",
                "TYPE: text/html",
            ],
            Some((
                3,
                "ID `0`: not a positive decimal integer; field dropped",
                DROP,
            )),
        ),
        (
            vec![
                "URI: http://example.com/ascii",
                "NAME: caf\u{e9}",
                "DATE: 01/02/2003 04:05:06",
                "TYPE: text/html",
            ],
            Some((1, "non-ASCII byte", SKIP)),
        ),
        (
            vec![
                "URI: http://example.com/tabdesc",
                "NAME: t",
                "DATE: 01/02/2003 04:05:06",
                "TYPE: text/html",
                "DESCRIPTION: a\tb",
            ],
            Some((4, "DESCRIPTION: a tab character", DROP)),
        ),
        (
            vec![
                "URI: http://example.com/halfdigest",
                "NAME: h",
                "DATE: 01/02/2003 04:05:06",
                "TYPE: text/html",
                "X-CONTENT-LENGTH: 12",
            ],
            Some((4, "go together; the one given is dropped", DROP)),
        ),
        (
            vec![
                "URI: http://example.com/reserved",
                "NAME: r",
                "DATE: 01/02/2003 04:05:06",
                "TYPE: text/html",
                "X-URLDB-EXTRA-: x",
            ],
            Some((
                4,
                "`X-URLDB-EXTRA-` is no field urldb writes; dropped",
                DROP,
            )),
        ),
        (
            vec![
                "URI: http://example.com/ok2",
                "NAME: two",
                "DATE: 29/02/2004 23:59:59",
                "TYPE: text/plain",
                "COMMENT: dropped",
                "X-Note: kept",
            ],
            None,
        ),
    ];
    let mut text = String::new();
    let mut line = 1;
    let mut expected = Vec::new();
    for (i, (fields, error)) in records.iter().enumerate() {
        if i > 0 {
            text.push_str("\r\n");
            line += 1;
        }
        if let Some((offset, message, skipped)) = error {
            expected.push((line + offset, *message, *skipped));
        }
        text.push_str(&field_lines(fields));
        line += fields.len();
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let out = import(dir.path(), &text, &[]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    for (line, message, skipped) in &expected {
        let wanted = if *skipped {
            format!("error: in.catalogue:{line}: record skipped: ")
        } else {
            format!("warning: in.catalogue:{line}: ")
        };
        assert!(
            err.lines()
                .any(|l| l.starts_with(&wanted) && l.contains(message)),
            "expected `{wanted}...{message}` in:\n{err}"
        );
    }
    assert_eq!(
        err.matches("record skipped").count(),
        expected.iter().filter(|e| e.2).count(),
        "{err}"
    );
    // The unknown field of a valid record is dropped with a warning; so is
    // the invalid TYPE of a record then skipped for want of a content type.
    assert!(
        err.contains("warning: in.catalogue:") && err.contains("unknown field `COMMENT` dropped"),
        "{err}"
    );
    assert!(err.contains("TYPE `html`: not a media type"), "{err}");
    let records = json_records(dir.path());
    let mut paths: Vec<&str> = records.iter().filter_map(|r| r["_path"].as_str()).collect();
    paths.sort();
    assert_eq!(
        paths,
        [
            "/dup",
            "/halfdigest",
            "/id0",
            "/lang",
            "/ok1",
            "/ok2",
            "/rating",
            "/reserved",
            "/tabdesc"
        ]
    );
    let ok2 = records.iter().find(|r| r["_path"] == "/ok2").expect("ok2");
    assert_eq!(ok2["extras"]["X-Note"], "kept");
    assert!(ok2["extras"].get("COMMENT").is_none());
    // A dropped field is gone; the rest of its record is kept.
    let rating = records
        .iter()
        .find(|r| r["_path"] == "/rating")
        .expect("rating");
    assert!(rating["extras"].get("rating").is_none(), "{rating}");
    assert_eq!(rating["extras"]["name"], "r");
    let dup = records.iter().find(|r| r["_path"] == "/dup").expect("dup");
    assert!(dup["extras"].get("id").is_none(), "{dup}");
}

#[test]
fn import_of_a_url_list() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("db");
    fs::create_dir(&db).expect("mkdir");
    write(
        &db,
        "example.com.yaml",
        "---\ncase-sensitive-paths: false\n---\n_path: /a\ncontent-type: text/html\n",
    );
    let list = "# a comment\nhttp://EXAMPLE.com/B?X=1\n\nftp://example.com/c\nhttp://example.com/A\nhttp://unknown.example/\n";
    fs::write(dir.path().join("list.txt"), list).expect("write");
    let out = run_in(
        dir.path(),
        &["--db", "db", "import", "--from", "urls", "list.txt"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("list.txt:2: skipped: a URL list has no content types"),
        "{}",
        stderr(&out)
    );

    let out = run_in(
        dir.path(),
        &[
            "--db",
            "db",
            "import",
            "--from",
            "urls",
            "--content-type",
            "text/html",
            "list.txt",
        ],
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("list.txt:4: `ftp:` URLs cannot be stored"),
        "{err}"
    );
    assert!(err.contains("list.txt:5: already in"), "{err}");
    assert!(
        err.contains("list.txt:6: record skipped: unknown host `unknown.example`"),
        "{err}"
    );
    let text = fs::read_to_string(db.join("example.com.yaml")).expect("read");
    assert!(text.contains("_path: /b?X=1\n"), "{text}");
    assert!(run_in(&db, &["check"]).status.success());

    let missing = run_in(
        dir.path(),
        &["--db", "db", "import", "--from", "urls", "nope.txt"],
    );
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("cannot read nope.txt"));
}

#[test]
fn ls_filters() {
    let dir = tempfile::tempdir().expect("tempdir");
    sample_database(dir.path());
    let ls = |args: &[&str]| {
        let mut all = vec!["ls"];
        all.extend_from_slice(args);
        let out = run_in(dir.path(), &all);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        stdout(&out).lines().map(String::from).collect::<Vec<_>>()
    };
    assert_eq!(ls(&[]).len(), 5, "deprecated records are left out");
    assert_eq!(ls(&["--include-deprecated"]).len(), 6);
    assert_eq!(
        ls(&["--category", "deprecated"]),
        ["https://example.com/old"]
    );
    assert_eq!(
        ls(&["--domain", "WWW.example.com"]).len(),
        3,
        "a cname selects its file"
    );
    assert_eq!(ls(&["--domain", "ci.example.org"]).len(), 2);
    assert_eq!(
        ls(&["--category", "graphics", "--category", "coreapp"]).len(),
        2
    );
    assert_eq!(
        ls(&["--path-prefix", "/a%20"]),
        ["https://example.com/a%20b/caf%C3%A9?q=1&r=%2B"]
    );
    // The data.txt draft's matching: `%61` is `a`, `%2F` is not `/`.
    assert_eq!(ls(&["--match", "/%61%20b/"]).len(), 1);
    // A pattern that matches no record is a typo, an error (issue 49).
    let none = run_in(dir.path(), &["ls", "--match", "/a%20b%2Fcaf"]);
    assert_eq!(none.status.code(), Some(2), "{}", stderr(&none));
    assert!(stdout(&none).is_empty());
    assert_eq!(ls(&["ci.example.org.yaml"]).len(), 2);

    let bad = run_in(dir.path(), &["ls", "--domain", "ftp://x"]);
    assert_eq!(bad.status.code(), Some(2));
    let missing = run_in(dir.path(), &["ls", "nope.yaml"]);
    assert_eq!(missing.status.code(), Some(2));
    write(dir.path(), "broken.com.yaml", "---\n- [unclosed\n");
    let broken = run_in(dir.path(), &["ls"]);
    assert_eq!(broken.status.code(), Some(2));
    assert!(
        stderr(&broken).contains("broken.com.yaml"),
        "{}",
        stderr(&broken)
    );
    assert_eq!(
        stdout(&broken).lines().count(),
        5,
        "other files are still listed"
    );
}

/// An `X-` field that `import` leaves aside is said, as any other dropped
/// field is: the redirect marker `X-CONTENT-TYPE` beside a `TYPE` that
/// says otherwise (it was dropped without a word), and an
/// `X-CONTENT-LENGTH` too large for a length with its digest.
#[test]
fn import_warns_for_each_x_field_it_drops() {
    let dir = tempfile::tempdir().expect("tempdir");
    let text = field_lines(&[
        "URI: http://example.org/b",
        "NAME: b",
        "DATE: 06/12/2026 02:49:25",
        "TYPE: text/html",
        "X-CONTENT-TYPE: X-301-Redirect",
        "",
        "URI: http://example.org/c",
        "NAME: c",
        "DATE: 06/12/2026 02:49:25",
        "TYPE: application/octet-stream",
        "X-CONTENT-LENGTH: 99999999999999999999999",
        "X-CONTENT-SHA256: 445f817ca1314b4580aefadcdbe2a707fc5e54a0442da32039a9d26417b797ef",
    ]);
    let out = import(dir.path(), &text, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains(
            "warning: in.catalogue:5: X-CONTENT-TYPE `X-301-Redirect` dropped: `TYPE` gives the content type"
        ),
        "{err}"
    );
    assert!(
        err.contains(
            "warning: in.catalogue:11: X-CONTENT-LENGTH `99999999999999999999999`: not a length"
        ),
        "{err}"
    );
    let records = json_records(dir.path());
    assert_eq!(records.len(), 2, "{records:?}");
}

/// `export` of a file it cannot read writes nothing to stdout, in every
/// format, alone or beside files it can read: exit 2, the file said, and
/// no `[]`, header or partial list that would look like the whole export.
#[test]
fn export_with_a_file_it_cannot_read_writes_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        "example.org.yaml",
        "---\n---\n_path: /a\ncontent-type: text/html\n",
    );
    write(dir.path(), "broken.example.yaml", "---\n---\n_path: [\n");
    for to in ["json", "csv", "urls", "uri-catalogue"] {
        for files in [
            &["broken.example.yaml"][..],
            &["example.org.yaml", "broken.example.yaml"],
            &[],
        ] {
            let out = run_in(dir.path(), &[&["export", "--to", to][..], files].concat());
            assert_eq!(
                out.status.code(),
                Some(2),
                "{to} {files:?}: {}",
                stderr(&out)
            );
            assert_eq!(stdout(&out), "", "{to} {files:?}");
            assert!(
                stderr(&out).contains("broken.example.yaml: cannot be read")
                    && stderr(&out).contains("nothing exported"),
                "{to} {files:?}: {}",
                stderr(&out)
            );
        }
    }
}
