//! `windows-reserved-name` through the binary: reported on this system too,
//! as a warning a team can excuse per file, in the work tree, in the index
//! (`--staged`) and for a file named on the command line. Not run on
//! Windows, which cannot hold these names (the rule's point).
#![cfg(not(windows))]

use super::git::{CLEAN, Repo, codes, stderr, stdout};
use crate::support;

#[test]
fn a_warning_that_a_file_can_excuse() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("urldb.toml"),
        "[lint.per-file-ignores]\n\"lpt1.example.net.yaml\" = [\"windows-reserved-name\"]\n",
    )
    .expect("write");
    for name in [
        "con.example.org.yaml",
        "lpt1.example.net.yaml",
        "icon.example.org.yaml",
        "example.con.yaml",
    ] {
        std::fs::write(dir.path().join(name), CLEAN).expect("write");
    }
    std::fs::write(
        dir.path().join("AUX.example.org.yaml"),
        format!("# urldb: ignore-file[windows-reserved-name] no Windows here\n{CLEAN}"),
    )
    .expect("write");

    let out = support::run_in(dir.path(), &["check", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let reserved: Vec<(&str, &str)> = json
        .as_array()
        .expect("array")
        .iter()
        .filter(|f| f["code"] == "windows-reserved-name")
        .map(|f| {
            (
                f["path"].as_str().expect("path"),
                f["severity"].as_str().expect("severity"),
            )
        })
        .collect();
    assert_eq!(reserved, [("con.example.org.yaml", "warning")], "{json}");
}

#[test]
fn reported_for_a_staged_file() {
    let repo = Repo::new();
    repo.stage("nul.example.org.yaml", CLEAN);
    std::fs::remove_file(repo.db().join("nul.example.org.yaml")).expect("remove");
    let out = repo.urldb(&["check", "--staged", "--format", "concise"]);
    assert_eq!(codes(&out), ["windows-reserved-name"], "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("db/nul.example.org.yaml:1:1: warning windows-reserved-name"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_file_named_with_a_trailing_dot() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("urldb.toml"), "").expect("write");
    std::fs::write(dir.path().join("example.com.yaml."), CLEAN).expect("write");
    let out = support::run_in(
        dir.path(),
        &["check", "--format", "concise", "example.com.yaml."],
    );
    let text = stdout(&out);
    assert!(
        text.lines().any(
            |l| l.starts_with("example.com.yaml.:1:1: warning windows-reserved-name")
                && l.contains("Windows drops the dot at the end of the file name")
        ),
        "{text}{}",
        stderr(&out)
    );
}
