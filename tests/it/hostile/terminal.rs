//! Terminal output (`docs/security.md` §7): every name a repository
//! controls (a folder's, a file's) reaches a terminal through the one
//! escaping function, `urldb_core::source::shown_path`. A folder named
//! with ESC, BEL and CR (an OSC 52 sequence sets the clipboard, CR
//! rewrites the line) went raw through `urldb init`; here every command's
//! human output, on stdout and stderr, is walked with such a folder and
//! such a file name, and none holds a raw control character.

use std::path::Path;
use std::process::{Output, Stdio};

use super::output::raw_control;
use crate::support;

/// A folder name: OSC 52 (set the clipboard), BEL, CR, and an erase of
/// the screen.
const FOLDER: &str = "db\u{1b}]52;c;SGk=\u{7}\r\u{1b}[2J";
/// A domain file's name: colour, BEL, a line and paragraph separator.
const FILE: &str = "x\u{1b}[31m\u{7}\u{2028}.example.yaml";

fn urldb(dir: &Path, args: &[&str]) -> Output {
    support::urldb()
        .current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("URLDB_FORMAT")
        .stdin(Stdio::null())
        .output()
        .expect("run urldb")
}

/// `args` run in `dir`: no panic, and nothing raw on either stream.
fn assert_escaped(dir: &Path, args: &[&str]) -> Output {
    let out = urldb(dir, args);
    assert_ne!(out.status.code(), Some(101), "{args:?} panicked");
    for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        let text = String::from_utf8_lossy(bytes);
        if let Some(c) = raw_control(&text) {
            panic!("{args:?}: raw {c:?} on {stream}:\n{text:?}");
        }
    }
    out
}

/// A git work tree holding the database folder `FOLDER` with a domain
/// file named `FILE` and one with findings; `urldb.toml` names the folder.
fn repository() -> tempfile::TempDir {
    let top = tempfile::tempdir().expect("tempdir");
    let root = top.path();
    support::git(root, &["init", "-q"]);
    let db = root.join(FOLDER);
    std::fs::create_dir(&db).expect("mkdir");
    std::fs::write(
        db.join(FILE),
        "---\n---\n_path: /b\ncontent-type: text/html\n",
    )
    .expect("write");
    std::fs::write(
        db.join("a.example.yaml"),
        "---\n---\ncontent-type: text/html\n_path: /z\n---\n_path: /a\ncontent-type: text/html\n",
    )
    .expect("write");
    std::fs::write(
        root.join("urldb.toml"),
        format!("root = {}\n", urldb_core::config::toml_string(FOLDER)),
    )
    .expect("write");
    support::git(root, &["add", "-A"]);
    top
}

#[test]
fn every_commands_human_output_escapes_a_hostile_folder_and_file_name() {
    let server = support::http::listen(|mut stream, _| {
        use std::io::Write;
        let _ = stream.write_all(
            b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Type: text/html\r\nContent-Length: 0\r\n\r\n",
        );
    });
    let map = format!("a.example=http://127.0.0.1:{}", server.port);
    let repo = repository();
    let root = repo.path();
    let db = root.join(FOLDER);
    let list = root.join("urls.txt");
    std::fs::write(&list, "http://a.example/new\nhttp://a.example/\u{1b}[31m\n").expect("write");
    let list = list.to_string_lossy().into_owned();
    let results = root.join("results.json");
    let results = results.to_string_lossy().into_owned();
    let file_arg = format!("{FOLDER}/{FILE}");
    let verify = ["verify", "--allow-private", "--retries", "0", "--map", &map];

    let runs: Vec<Vec<&str>> = vec![
        vec!["check"],
        vec!["check", "--format", "concise"],
        vec!["check", "--statistics"],
        vec!["check", "--diff"],
        vec!["check", "--show-files"],
        vec!["check", "--show-files", &file_arg],
        vec!["-v", "check", &file_arg],
        vec!["check", "--staged"],
        vec!["fmt", "--check"],
        vec!["fmt", "--diff"],
        vec!["-v", "fmt", "--check", &file_arg],
        vec!["ls"],
        vec!["export", "--to", "urls"],
        [&verify[..], &[]].concat(),
        [&verify[..], &["--format", "markdown"]].concat(),
        vec!["add", "--content-type", "text/html", "http://a.example/new"],
        vec!["rm", "http://a.example/new"],
        vec!["import", "--from", "urls", &list],
        vec!["check", "--fix"],
        vec!["check", "--add-suppressions"],
        vec!["fmt"],
        vec!["man", "--dir", &file_arg],
        vec!["install-hook"],
    ];
    for args in &runs {
        assert_escaped(root, args);
    }
    // The folder is shown, escaped, not left out.
    let added = assert_escaped(
        root,
        &[
            "add",
            "--content-type",
            "text/html",
            "http://a.example/other",
        ],
    );
    let stderr = String::from_utf8_lossy(&added.stderr);
    assert!(
        stderr.contains("added /other to db\\x1b]52;c;SGk=\\x07\\r\\x1b[2J/a.example.yaml"),
        "{stderr}"
    );
    // `report` on the results of a run (CSV and the URI-Catalogue are data,
    // not human output: `output::export_csv_writes_no_spreadsheet_formula`).
    let json = urldb(root, &[&verify[..], &["--format", "json"]].concat());
    std::fs::write(&results, &json.stdout).expect("write");
    assert_escaped(root, &["report", &results]);
    // The same from inside the folder, and naming it with `--db`.
    for args in [&["check"][..], &["ls"], &["fmt", "--check"]] {
        assert_escaped(&db, args);
        assert_escaped(root, &[&["--db", FOLDER][..], args].concat());
    }

    // `init`: adopting the folder (no urldb.toml), and a new database in
    // a folder of that name.
    std::fs::remove_file(root.join("urldb.toml")).expect("rm");
    let out = assert_escaped(root, &["init"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("in `db\\x1b]52;c;SGk=\\x07\\r\\x1b[2J`"),
        "{stdout}"
    );
    std::fs::remove_file(root.join("urldb.toml")).expect("rm");
    assert_escaped(root, &["init", "--root", FOLDER]);
    let fresh = tempfile::tempdir().expect("tempdir");
    assert_escaped(fresh.path(), &["init", FOLDER]);
    assert!(fresh.path().join(FOLDER).join("urldb.toml").is_file());
    // With two candidate folders, the message that lists them.
    let two = tempfile::tempdir().expect("tempdir");
    for folder in [FOLDER, "other"] {
        std::fs::create_dir(two.path().join(folder)).expect("mkdir");
        std::fs::write(
            two.path().join(folder).join("a.example.yaml"),
            "---\n---\n_path: /a\ncontent-type: text/html\n",
        )
        .expect("write");
    }
    assert_escaped(two.path(), &["check"]);
    assert_escaped(two.path(), &["init"]);
}
