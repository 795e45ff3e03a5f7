//! The real pre-commit framework runs this repository's hooks
//! (`pre-commit try-repo`). One test lets pre-commit build urldb itself
//! from the repository (`language: rust`, a release build: run by
//! `.ci/run`); the other runs the `-system` hooks with the build under
//! test: the fmt hook fails on a non-canonical file and fixes it, the next
//! run passes, and the check hook fails on a finding. The hooks the README recommends, the
//! pre-commit mirror's, are tested in `wheel.rs`.

use crate::support::{git, oracles};

use std::path::Path;
use std::process::{Command, Output};

fn try_repo(dir: &Path, hook: &str) -> Output {
    Command::new(oracles::venv_bin("pre-commit"))
        .current_dir(dir)
        .args(["try-repo"])
        .arg(oracles::repo())
        .args([hook, "--all-files", "--color", "never"])
        .env(
            "PRE_COMMIT_HOME",
            oracles::target_tmp().join("pre-commit-home"),
        )
        // pre-commit's own build shares the dependencies the release build
        // compiled (its `cargo install` of a clone rebuilds urldb alone).
        .env("CARGO_TARGET_DIR", oracles::release_target_dir())
        // The `-system` hooks find the build under test (a debug build:
        // the plain `cargo test` builds nothing in release).
        .env("PATH", oracles::path_with(&[built_dir()]))
        .output()
        .expect("run pre-commit")
}

/// The directory of the `urldb` this test run built.
fn built_dir() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_urldb"))
        .parent()
        .unwrap_or(Path::new("."))
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

    let first = try_repo(dir.path(), "urldb-fmt-system");
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
    let second = try_repo(dir.path(), "urldb-fmt-system");
    assert_eq!(second.status.code(), Some(0), "{}", text(&second));

    // The check hook: a finding fails it, the fixed file passes.
    std::fs::write(
        &file,
        "---\n---\n_path: /caf%c3%a9\ncontent-type: text/html\n",
    )
    .expect("write");
    git(dir.path(), &["add", "."]);
    let failing = try_repo(dir.path(), "urldb-check-system");
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
    let passing = try_repo(dir.path(), "urldb-check-system");
    assert_eq!(passing.status.code(), Some(0), "{}", text(&passing));
}

/// This repository's own hooks (`language: rust`): pre-commit clones this
/// repository, builds urldb with cargo and runs it. The one place the
/// suite lets pre-commit build.
#[test]
#[ignore = "builds urldb in release, as a user installs it (minutes on two cores): run by .ci/run"]
fn pre_commit_builds_the_rust_hook_from_the_repository() {
    // The dependencies built once in release, for pre-commit's `cargo
    // install` to share.
    oracles::release_bin_dir();
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("database");
    std::fs::create_dir(&db).expect("mkdir");
    std::fs::write(
        db.join("example.com.yaml"),
        "---\n---\n_path: /caf%c3%a9\ncontent-type: text/html\n",
    )
    .expect("write");
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "."]);
    let out = try_repo(dir.path(), "urldb-check");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("path-escape-case"), "{}", text(&out));
}
