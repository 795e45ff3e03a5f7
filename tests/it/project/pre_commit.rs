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

/// The hooks of every snippet users copy (the README, the guide, the
/// install page, the mirror's README, PyPI's README) and of the hook
/// files carry no `files:` filter: pre-commit skips a hook whose filter
/// matches no staged file without starting it, so a filter that misses
/// the database lets every bad commit through. The README's `repo: local`
/// hooks are the ones `urldb init` prints.
#[test]
fn hook_snippets_carry_no_files_filter() {
    let root = oracles::repo();
    let mut texts = vec![
        "README.md".to_string(),
        "python/README.md".to_string(),
        "pre-commit-mirror/README.md".to_string(),
    ];
    for entry in std::fs::read_dir(root.join("docs")).expect("docs") {
        let name = entry.expect("entry").file_name();
        let name = name.to_string_lossy();
        if name.ends_with(".md") {
            texts.push(format!("docs/{name}"));
        }
    }
    let mut snippets = 0;
    for text in &texts {
        let body = std::fs::read_to_string(root.join(text)).expect("read");
        for block in body.split("```yaml").skip(1) {
            let block = block.split("```").next().unwrap_or_default();
            if !block.contains("hooks:") {
                continue;
            }
            snippets += 1;
            assert!(
                !block.lines().any(|l| l.trim_start().starts_with("files:")),
                "{text}: a hook snippet with `files:`\n{block}"
            );
        }
    }
    assert!(snippets >= 5, "{snippets} hook snippets found");
    for hooks in [
        ".pre-commit-hooks.yaml",
        "pre-commit-mirror/.pre-commit-hooks.yaml",
    ] {
        let body = std::fs::read_to_string(root.join(hooks)).expect("read");
        assert!(
            !body.lines().any(|l| l.trim_start().starts_with("files:")),
            "{hooks}"
        );
    }
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README");
    let printed = init_snippet(&init_in_the_reference_layout().1);
    assert!(
        readme.contains(&format!("```yaml\n{printed}```")),
        "the README's hooks are not the ones `urldb init` prints:\n{printed}"
    );
}

/// A repository laid out as the reference tool's (`wwt_url_database/db/`)
/// with `urldb init` run at its top: the repository and what init printed.
fn init_in_the_reference_layout() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("wwt_url_database/db");
    std::fs::create_dir_all(&db).expect("mkdir");
    std::fs::write(
        db.join("example.com.yaml"),
        "---\n---\n_path: /a\ncontent-type: text/html\n",
    )
    .expect("write");
    std::fs::write(dir.path().join("mkdocs.yml"), "site_name: x\n").expect("write");
    git(dir.path(), &["init", "-q"]);
    let out = crate::support::urldb_in(dir.path(), &["init"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (dir, String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The YAML `init` printed: from `repos:` to the end.
fn init_snippet(printed: &str) -> String {
    let at = printed
        .find("repos:\n")
        .unwrap_or_else(|| panic!("init printed no pre-commit hooks:\n{printed}"));
    printed[at..].to_string()
}

/// The hooks `urldb init` prints, used as they are in a repository whose
/// database is `wwt_url_database/db/`: pre-commit runs them, and a bad
/// commit fails (the README's old `files: ^database/` skipped both
/// hooks there).
#[test]
fn the_hooks_init_prints_run_in_the_reference_layout() {
    let (dir, printed) = init_in_the_reference_layout();
    assert!(printed.contains("no `files:` filter"), "{printed}");
    std::fs::write(
        dir.path().join(".pre-commit-config.yaml"),
        init_snippet(&printed),
    )
    .expect("write");
    let file = dir.path().join("wwt_url_database/db/example.com.yaml");
    std::fs::write(
        &file,
        "---\n---\ncontent-type: text/html\n_path: /caf%c3%a9\n",
    )
    .expect("write");
    git(dir.path(), &["add", "-A"]);
    let out = Command::new(oracles::venv_bin("pre-commit"))
        .current_dir(dir.path())
        .args(["run", "--all-files", "--color", "never"])
        .env(
            "PRE_COMMIT_HOME",
            oracles::target_tmp().join("pre-commit-home"),
        )
        .env("PATH", oracles::path_with(&[built_dir()]))
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("run pre-commit");
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(!said.contains("Skipped"), "{said}");
    assert!(said.contains("files were modified by this hook"), "{said}");
    assert!(said.contains("path-escape-case"), "{said}");
}
