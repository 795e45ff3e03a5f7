//! A `urldb.toml` that is a symbolic link (`docs/security.md`, "Who
//! controls what"): a checkout can plant `urldb.toml -> ../credentials`,
//! and every run without `--config-from` reads the checkout's
//! configuration. One found in the work tree (at its top or nested) that
//! leads out of it is refused, exit 2, naming the link and nothing of
//! where it leads; a configuration reached through any link that is
//! invalid is said without its bytes; `--config FILE` is still read
//! wherever the runner points it.

use std::os::unix::fs::symlink;
use std::process::Output;

use crate::support::{git, run_in};

/// What a credentials file outside the checkout holds: not TOML that
/// urldb reads (a syntax error on line 2, an unknown key on line 1).
const SECRET: &str = "aws_secret_access_key = \"hunter2\"\n[[broken\n";

/// A domain file with nothing to say.
const CLEAN: &str = "---\n---\n_path: /ok\ncontent-type: text/html\n";

fn said(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Nothing of the file the link leads to, nor its name, was printed.
fn assert_nothing_of_the_target(out: &Output, what: &str) {
    let said = said(out);
    for secret in ["hunter2", "aws_secret", "broken", "credentials", "vault"] {
        assert!(
            !said.contains(secret),
            "{what}: printed {secret:?}:\n{said}"
        );
    }
}

/// `top/work`, a git checkout with `example.com.yaml`, and
/// `top/vault/credentials` beside it.
fn checkout(repository: bool) -> (tempfile::TempDir, std::path::PathBuf) {
    let top = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(top.path().join("vault")).expect("mkdir");
    std::fs::write(top.path().join("vault/credentials"), SECRET).expect("write");
    let work = top.path().join("work");
    std::fs::create_dir_all(&work).expect("mkdir");
    if repository {
        git(&work, &["init", "-q"]);
    }
    std::fs::write(work.join("example.com.yaml"), CLEAN).expect("write");
    (top, work)
}

/// `urldb.toml -> ../vault/credentials` at the top of a checkout:
/// `check`, `ls`, `fmt --check` and `export` refuse it (exit 2), naming
/// `urldb.toml` and printing nothing of the credentials file; the same
/// outside a repository, where the link may not leave its own folder.
#[test]
fn a_found_configuration_linked_out_of_the_work_tree_is_refused() {
    for repository in [true, false] {
        let (_top, work) = checkout(repository);
        symlink("../vault/credentials", work.join("urldb.toml")).expect("symlink");
        for args in [
            &["check"][..],
            &["check", "example.com.yaml"],
            &["ls"],
            &["fmt", "--check"],
            &["export", "--to", "urls"],
        ] {
            let out = run_in(&work, args);
            let what = format!("{args:?} (repository: {repository})");
            assert_eq!(out.status.code(), Some(2), "{what}: {}", said(&out));
            let expected = if repository {
                "urldb.toml: a symbolic link that leads outside the repository's work tree"
            } else {
                "urldb.toml: a symbolic link that leads outside its folder"
            };
            assert!(said(&out).contains(expected), "{what}: {}", said(&out));
            assert_nothing_of_the_target(&out, &what);
        }
    }
}

/// A nested `sub/urldb.toml` linked out of the work tree is refused as
/// soon as a run touches a file of `sub/` (what a hook does), and the
/// run over the top's database alone still passes.
#[test]
fn a_nested_configuration_linked_out_of_the_work_tree_is_refused() {
    let (_top, work) = checkout(true);
    std::fs::write(work.join("urldb.toml"), "").expect("write");
    std::fs::create_dir_all(work.join("sub")).expect("mkdir");
    std::fs::write(work.join("sub/example.org.yaml"), CLEAN).expect("write");
    symlink("../../vault/credentials", work.join("sub/urldb.toml")).expect("symlink");
    for args in [
        &["check", "sub/example.org.yaml"][..],
        &["check", "example.com.yaml", "sub/example.org.yaml"],
        &["check", "sub"],
        &["ls", "sub"],
    ] {
        let out = run_in(&work, args);
        let what = format!("{args:?}");
        assert_eq!(out.status.code(), Some(2), "{what}: {}", said(&out));
        assert!(
            said(&out).contains(
                "sub/urldb.toml: a symbolic link that leads outside the repository's work tree"
            ),
            "{what}: {}",
            said(&out)
        );
        assert_nothing_of_the_target(&out, &what);
    }
    let out = run_in(&work, &["check", "example.com.yaml"]);
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
}

/// A link that stays in the work tree is read; when what it leads to is
/// invalid, the error counts the mistakes and quotes nothing of them.
/// `--config FILE` is the runner's choice: read wherever it leads, and
/// an invalid one reached through a link is not quoted either.
#[test]
fn a_link_inside_the_work_tree_and_config_file_are_read_without_quoting() {
    let (top, work) = checkout(true);
    std::fs::create_dir_all(work.join("conf")).expect("mkdir");
    std::fs::write(work.join("conf/good.toml"), "[lint]\nignore = []\n").expect("write");
    symlink("conf/good.toml", work.join("urldb.toml")).expect("symlink");
    let out = run_in(&work, &["check"]);
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));

    std::fs::write(work.join("conf/good.toml"), SECRET).expect("write");
    let out = run_in(&work, &["check"]);
    assert_eq!(out.status.code(), Some(2), "{}", said(&out));
    assert!(
        said(&out).contains("in a configuration reached through a symbolic link; not shown"),
        "{}",
        said(&out)
    );
    assert_nothing_of_the_target(&out, "inside");

    // The runner's own `--config`, a link out of the checkout: read.
    std::fs::remove_file(work.join("urldb.toml")).expect("rm");
    std::fs::write(
        top.path().join("vault/runner.toml"),
        "[lint]\nignore = []\n",
    )
    .expect("write");
    symlink("../vault/runner.toml", work.join("runner.toml")).expect("symlink");
    let out = run_in(&work, &["check", "--config", "runner.toml"]);
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    symlink("../vault/credentials", work.join("secret.toml")).expect("symlink");
    let out = run_in(&work, &["check", "--config", "secret.toml"]);
    assert_eq!(out.status.code(), Some(2), "{}", said(&out));
    assert!(
        said(&out)
            .contains("secret.toml: 1 mistake in a configuration reached through a symbolic link"),
        "{}",
        said(&out)
    );
    assert_nothing_of_the_target(&out, "--config");
}

/// The same file, not a link, is quoted as ever: the rule is about links.
#[test]
fn a_plain_invalid_configuration_is_still_quoted() {
    let (_top, work) = checkout(true);
    std::fs::write(work.join("urldb.toml"), SECRET).expect("write");
    let out = run_in(&work, &["check"]);
    assert_eq!(out.status.code(), Some(2), "{}", said(&out));
    assert!(said(&out).contains("broken"), "{}", said(&out));
}
