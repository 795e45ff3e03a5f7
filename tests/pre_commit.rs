//! The real pre-commit framework runs this repository's hooks
//! (`pre-commit try-repo`): it builds urldb with `language: rust`, the fmt
//! hook fails on a non-canonical file and fixes it, the next run passes, and
//! the check hook fails on a finding.

use std::path::Path;
use std::process::{Command, Output};

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .current_dir(dir)
        .args(args)
        .output()
        .expect("git");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn try_repo(dir: &Path, hook: &str) -> Output {
    let repo = env!("CARGO_MANIFEST_DIR");
    Command::new("pre-commit")
        .current_dir(dir)
        .args(["try-repo", repo, hook, "--all-files", "--color", "never"])
        // Reuse one build across runs and hooks.
        .env(
            "PRE_COMMIT_HOME",
            Path::new(repo).join("target/pre-commit-home"),
        )
        .env(
            "CARGO_TARGET_DIR",
            Path::new(repo).join("target/pre-commit-build"),
        )
        .output()
        .expect("pre-commit (pip install pre-commit==4.7.0)")
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn pre_commit_hooks_fail_fix_and_pass() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("database");
    std::fs::create_dir(&db).expect("mkdir");
    let file = db.join("example.com.yaml");
    std::fs::write(
        &file,
        "---\n---\n_path: /b\ncontent-type: text/html\n---\n_path: /a\ncontent-type: text/html\n",
    )
    .expect("write");
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "."]);

    let first = try_repo(dir.path(), "urldb-fmt");
    assert_eq!(first.status.code(), Some(1), "{}", text(&first));
    assert!(
        text(&first).contains("files were modified by this hook"),
        "{}",
        text(&first)
    );
    assert_eq!(
        std::fs::read_to_string(&file).expect("read"),
        "---\n---\n_path: /a\ncontent-type: text/html\n---\n_path: /b\ncontent-type: text/html\n"
    );
    git(dir.path(), &["add", "."]);
    let second = try_repo(dir.path(), "urldb-fmt");
    assert_eq!(second.status.code(), Some(0), "{}", text(&second));

    // The check hook: a finding fails it, the fixed file passes.
    std::fs::write(
        &file,
        "---\n---\n_path: /caf%c3%a9\ncontent-type: text/html\n",
    )
    .expect("write");
    git(dir.path(), &["add", "."]);
    let failing = try_repo(dir.path(), "urldb-check");
    assert_eq!(failing.status.code(), Some(1), "{}", text(&failing));
    assert!(
        text(&failing).contains("path-escape-case"),
        "{}",
        text(&failing)
    );
    std::fs::write(
        &file,
        "---\n---\n_path: /caf%C3%A9\ncontent-type: text/html\n",
    )
    .expect("write");
    git(dir.path(), &["add", "."]);
    let passing = try_repo(dir.path(), "urldb-check");
    assert_eq!(passing.status.code(), Some(0), "{}", text(&passing));
}
