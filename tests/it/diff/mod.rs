//! `urldb diff`: what changed, record by record, on real git repositories
//! made in temp dirs (`cases`: each way to name two versions, renames,
//! metadata, unreadable sides, shallow clones, every format;
//! `properties`: random edits of random databases, reported as made).
//! `verify --since`/`--staged` are in `verify/since.rs`, on the same
//! repositories.

mod cases;
mod properties;

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::support::git;
pub(crate) use crate::support::urldb_in;

/// A repository in a temp dir with the database in `db/` (a `urldb.toml`
/// at the top says so).
pub(crate) struct Repo {
    dir: tempfile::TempDir,
}

impl Repo {
    pub(crate) fn new() -> Repo {
        let repo = Repo {
            dir: tempfile::tempdir().expect("tempdir"),
        };
        repo.git(&["init", "-q", "-b", "main"]);
        std::fs::create_dir_all(repo.db()).expect("mkdir db");
        std::fs::write(repo.root().join("urldb.toml"), "root = \"db\"\n").expect("write");
        repo
    }

    pub(crate) fn root(&self) -> &Path {
        self.dir.path()
    }

    pub(crate) fn db(&self) -> PathBuf {
        self.root().join("db")
    }

    /// git in the repository, isolated from the user's configuration.
    pub(crate) fn git(&self, args: &[&str]) -> String {
        git(self.root(), args)
    }

    pub(crate) fn write(&self, name: &str, text: &str) {
        let path = self.db().join(name);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("mkdir");
        }
        std::fs::write(path, text).expect("write");
    }

    /// Commit everything; the new commit's id.
    pub(crate) fn commit(&self, message: &str) -> String {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "--allow-empty", "-m", message]);
        self.git(&["rev-parse", "HEAD"]).trim().to_string()
    }

    /// urldb at the top of the repository.
    pub(crate) fn urldb(&self, args: &[&str]) -> Output {
        urldb_in(self.root(), args)
    }
}

pub(crate) fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub(crate) fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `urldb diff ARGS --format json`, which must exit 0, as JSON.
pub(crate) fn diff_json(repo: &Repo, args: &[&str]) -> serde_json::Value {
    let out = repo.urldb(&[&["diff", "--format", "json"], args].concat());
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    serde_json::from_str(&stdout(&out)).unwrap_or_else(|e| panic!("{e}: {}", stdout(&out)))
}

/// `(file, _path, status)` of every record change in a JSON change set.
pub(crate) fn record_changes(json: &serde_json::Value) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for file in json["files"].as_array().expect("files") {
        for r in file["records"].as_array().expect("records") {
            out.push((
                file["path"].as_str().expect("path").to_string(),
                r["path"].as_str().unwrap_or("").to_string(),
                r["status"].as_str().expect("status").to_string(),
            ));
        }
    }
    out
}

/// A domain file: its metadata lines, then one record per `(path,
/// content type)`.
pub(crate) fn domain_file(metadata: &str, records: &[(&str, &str)]) -> String {
    let mut text = format!("---\n{metadata}");
    for (path, content_type) in records {
        text.push_str(&format!(
            "---\n_path: {path}\ncontent-type: {content_type}\n"
        ));
    }
    text
}
