//! A record's URL, as every command that prints or exports one builds it
//! (`docs/urls.md`, "A record's URL"): from the scheme, the file's host and
//! `_path`, never by joining text. A `_path` that would name another host,
//! user or port (`.attacker.example/steal`, `@attacker.example/x`,
//! `:8443/admin`, `//evil/x`) leaves its record out of `ls` and `export`
//! in every format, with one warning line per record and exit 1.

use std::path::Path;
use std::process::Output;

use crate::support::run_in;

/// The crafted `_path`s, as YAML values: each would make the URL of
/// another host, user or port if joined to `http://a.example.org` as text.
const CRAFTED: [&str; 4] = [
    ".attacker.example/steal",
    "'@attacker.example/x'",
    "':8443/admin'",
    "//evil/x",
];

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `a.example.org.yaml`: `/ok` first, then one record per crafted path,
/// then `/fine?q=1`. Returns the database and the 1-based line of each
/// crafted `_path`.
fn database(crafted: &[&str]) -> (tempfile::TempDir, Vec<usize>) {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("urldb.toml"), "").expect("write");
    let mut text = String::from("---\n---\n_path: /ok\ncontent-type: text/html\n");
    let mut lines = Vec::new();
    for path in crafted {
        text.push_str("---\n");
        lines.push(text.lines().count() + 1);
        text.push_str(&format!("_path: {path}\ncontent-type: text/html\n"));
    }
    text.push_str("---\n_path: /fine?q=1\ncontent-type: text/html\n");
    std::fs::write(dir.path().join("a.example.org.yaml"), text).expect("write");
    (dir, lines)
}

/// Every way `ls` and `export` write records.
fn listings() -> Vec<Vec<&'static str>> {
    let mut all = Vec::new();
    for format in ["urls", "json", "csv"] {
        all.push(vec!["ls", "--format", format]);
    }
    for format in ["urls", "json", "csv", "uri-catalogue"] {
        all.push(vec!["export", "--to", format]);
    }
    all
}

/// The warnings of `out`: each names the file and line, says the record was
/// left out and quotes its `_path`.
fn warnings(out: &Output) -> Vec<String> {
    text(&out.stderr)
        .lines()
        .filter(|l| l.contains("record left out"))
        .map(String::from)
        .collect()
}

fn assert_only_its_own_host(args: &[&str], stdout: &str) {
    for word in ["attacker", "evil", "8443"] {
        assert!(!stdout.contains(word), "{args:?} wrote `{word}`:\n{stdout}");
    }
    assert!(
        stdout.contains("http://a.example.org/ok")
            && stdout.contains("http://a.example.org/fine?q=1"),
        "{args:?}:\n{stdout}"
    );
}

#[test]
fn ls_and_export_leave_out_a_path_that_names_another_host() {
    let (db, lines) = database(&CRAFTED);
    for args in listings() {
        let out = run_in(db.path(), &args);
        let stdout = text(&out.stdout);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert_only_its_own_host(&args, &stdout);
        let warnings = warnings(&out);
        assert_eq!(warnings.len(), CRAFTED.len(), "{args:?}: {stderr}");
        for ((warning, line), path) in warnings.iter().zip(&lines).zip(CRAFTED) {
            let path = path.trim_matches('\'');
            assert!(
                warning.starts_with(&format!(
                    "warning: a.example.org.yaml:{line}: record left out: "
                )) && warning.contains(&format!("`_path` `{path}`"))
                    && warning.contains("would not be on http://a.example.org"),
                "{args:?}: {warning}"
            );
        }
    }
    // Every line of the URL list is a URL of the file's own host and port.
    let out = run_in(db.path(), &["ls"]);
    for line in text(&out.stdout).lines() {
        let url = url::Url::parse(line).expect("a URL");
        assert_eq!(
            (url.host_str(), url.port_or_known_default(), url.username()),
            (Some("a.example.org"), Some(80), ""),
            "{line}"
        );
    }
    // The JSON and CSV rows are the records kept, no more.
    let json: serde_json::Value =
        serde_json::from_slice(&run_in(db.path(), &["ls", "--format", "json"]).stdout)
            .expect("JSON");
    let urls: Vec<&str> = json
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|r| r["url"].as_str())
        .collect();
    assert_eq!(
        urls,
        ["http://a.example.org/ok", "http://a.example.org/fine?q=1"]
    );
    let csv = text(&run_in(db.path(), &["export", "--to", "csv"]).stdout);
    assert_eq!(csv.lines().count(), 3, "{csv}");
}

#[test]
fn a_database_without_crafted_paths_lists_with_exit_0_and_no_warning() {
    let (db, _) = database(&[]);
    for args in listings() {
        let out = run_in(db.path(), &args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(warnings(&out).is_empty(), "{args:?}");
        assert_only_its_own_host(&args, &text(&out.stdout));
    }
}

#[test]
fn the_warning_is_said_with_quiet_and_only_for_records_selected() {
    let (db, _) = database(&CRAFTED);
    let out = run_in(db.path(), &["--quiet", "export", "--to", "urls"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(warnings(&out).len(), CRAFTED.len(), "{}", text(&out.stderr));
    // A filter that leaves the crafted records aside: nothing left out.
    let out = run_in(db.path(), &["ls", "--path-prefix", "/ok"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(warnings(&out).is_empty());
    assert_eq!(text(&out.stdout), "http://a.example.org/ok\n");
}

#[test]
fn a_file_that_cannot_be_read_is_exit_2_even_with_records_left_out() {
    let (db, _) = database(&CRAFTED);
    std::fs::write(db.path().join("broken.org.yaml"), b"\xff\xfe").expect("write");
    let out = run_in(db.path(), &["ls"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert_eq!(warnings(&out).len(), CRAFTED.len());
    assert_only_its_own_host(&["ls"], &text(&out.stdout));
}

#[test]
fn the_warning_is_one_escaped_line() {
    // A `_path` that tries to start a workflow command and colour the
    // terminal from inside the warning.
    let (db, lines) = database(&["\".attacker.example/\\n::error ::forged\\e[31m\""]);
    let out = run_in(db.path(), &["ls"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        !stderr.contains('\u{1b}') && !stderr.lines().any(|l| l.starts_with("::")),
        "{stderr:?}"
    );
    let warnings = warnings(&out);
    assert_eq!(warnings.len(), 1, "{stderr}");
    assert!(
        warnings[0].starts_with(&format!("warning: a.example.org.yaml:{}: ", lines[0]))
            && warnings[0].contains("`.attacker.example/\\n::error ::forged\\x1b[31m`"),
        "{}",
        warnings[0]
    );
}

/// A file whose name is not a host (user information, a port): none of its
/// records is written, each is said.
#[cfg(unix)]
#[test]
fn a_file_name_that_is_not_a_host_leaves_its_records_out() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("urldb.toml"), "").expect("write");
    std::fs::write(
        dir.path().join("example.org@127.0.0.1:9.yaml"),
        "---\n---\n_path: /a\ncontent-type: text/html\n---\n_path: /b\ncontent-type: text/html\n",
    )
    .expect("write");
    let out = run_in(dir.path(), &["export", "--to", "urls"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "");
    let warnings = warnings(&out);
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(
        warnings[0].contains("`example.org@127.0.0.1:9` is not a host name"),
        "{}",
        warnings[0]
    );
}

/// `verify` names a record it does not check with the text of its `_path`;
/// the HTML page shows that text and never links it.
#[test]
fn verify_html_never_links_a_record_it_did_not_check() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("urldb.toml"), "").expect("write");
    let records: Vec<String> = CRAFTED
        .iter()
        .map(|p| format!("_path: {p}\ncontent-type: text/html\n"))
        .collect();
    std::fs::write(
        dir.path().join("a.example.org.yaml"),
        format!("---\n---\n{}", records.join("---\n")),
    )
    .expect("write");
    let out = run_in(dir.path(), &["verify", "--format", "html"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let page = text(&out.stdout);
    // The page's data block (`tests/it/verify/html.rs` reads it the same way).
    let open = r#"<script type="application/json" id="urldb-data">"#;
    let start = page.find(open).expect("a data block") + open.len();
    let len = page[start..].find("</script>").expect("its end");
    let data: serde_json::Value = serde_json::from_str(&page[start..start + len]).expect("JSON");
    let rows = data["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), CRAFTED.len(), "{data}");
    for row in rows {
        assert_eq!(row["verdict"], "not-checked", "{row}");
        assert!(row["href"].is_null(), "{row}");
    }
}

/// `ls` writes the URL `verify` requests, and only those: for a record
/// `check` passes, its text; a `_path` `verify` does not request (a
/// character a URL cannot hold, a `\\` that clients rewrite to `/`, a dot
/// segment they remove, a bad escape) is left out with a warning, in every
/// listing, and exit 1.
#[test]
fn ls_writes_the_url_verify_requests() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root: &Path = dir.path();
    std::fs::write(root.join("urldb.toml"), "").expect("write");
    std::fs::write(
        root.join("example.org.yaml"),
        "---\nhttps: true\n---\n_path: /a%20b/caf%C3%A9?q=1&r=%2B\ncontent-type: text/html\n\
         ---\n_path: \"/x y\\u00e9\"\ncontent-type: text/html\n\
         ---\n_path: /a\\b\ncontent-type: text/html\n\
         ---\n_path: /a/../c\ncontent-type: text/html\n\
         ---\n_path: /d%zz\ncontent-type: text/html\n",
    )
    .expect("write");
    let out = run_in(root, &["ls"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        "https://example.org/a%20b/caf%C3%A9?q=1&r=%2B\n"
    );
    for args in listings() {
        let out = run_in(root, &args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let stdout = text(&out.stdout);
        for word in ["x%20y", "/x y", "a/b", "a%5Cb", "example.org/c", "zz"] {
            assert!(!stdout.contains(word), "{args:?} lists `{word}`:\n{stdout}");
        }
        let warnings = warnings(&out);
        assert_eq!(warnings.len(), 4, "{args:?}: {warnings:?}");
        for (warning, (line, code)) in warnings.iter().zip([
            (7, "path-invalid-char"),
            (10, "path-invalid-char"),
            (13, "path-dot-segment"),
            (16, "path-bad-escape"),
        ]) {
            assert!(
                warning.starts_with(&format!(
                    "warning: example.org.yaml:{line}: record left out: "
                )) && warning.contains(&format!("({code}), so `verify` does not request it")),
                "{args:?}: {warning}"
            );
        }
    }
    // `verify` does not request them either: the same records, the same rules.
    let check = run_in(root, &["--no-cache", "check", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&check.stdout).expect("JSON");
    for code in ["path-invalid-char", "path-dot-segment", "path-bad-escape"] {
        assert!(
            json.as_array()
                .expect("array")
                .iter()
                .any(|f| f["code"] == code && f["severity"] == "error"),
            "{code}: {json}"
        );
    }
}
