//! The first hour in a real repository, end to end: a repository like the
//! reference tool's (the database in `wwt_url_database/db/` among
//! `readthedocs.yml`, `mkdocs.yml`, CI and packaging YAML), the hooks urldb
//! ships run by the real pre-commit with every YAML file named
//! (`--all-files`), and only the database may change:
//!
//! - `.pre-commit-hooks.yaml`'s `-system` hooks (`pre-commit try-repo`),
//! - the README's `repo: local` block, as written,
//! - the pre-commit mirror's hooks, with `language: system` for the
//!   `language: python` that would install the wheel (the entries and
//!   file options are the same: `wheel.rs` holds them equal);
//!
//! each without `urldb.toml`, with a second folder of domain files that
//! makes the database ambiguous (nothing changes, the hooks fail and say to
//! run `urldb init --root`), and after that `urldb init --root`. A YAML
//! file named like a domain file that is none (`docs/config.example.yaml`,
//! `docker-compose.prod.yml` at the top) makes nothing ambiguous and is
//! never changed.

use crate::support::reference_repo::{self, DB, EXAMPLE_CONFIG, NOT_CANONICAL};
use crate::support::{git, oracles};

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Where the hooks come from.
#[derive(Debug, Clone, Copy)]
enum Hooks {
    /// This repository's `.pre-commit-hooks.yaml`, its `-system` hooks.
    Published,
    /// The README's `repo: local` block.
    Readme,
    /// `pre-commit-mirror/.pre-commit-hooks.yaml`, run as system hooks.
    Mirror,
}

fn text(out: &Output) -> String {
    format!(
        "exit {:?}\n{}{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The README's pre-commit configuration (the `yaml` block of its
/// first-database steps).
fn readme_config() -> String {
    let readme = std::fs::read_to_string(oracles::repo().join("README.md")).expect("README.md");
    let start = readme
        .find("```yaml\nrepos:\n  - repo: local")
        .expect("the local hooks block")
        + "```yaml\n".len();
    let end = start + readme[start..].find("```").expect("the block's end");
    readme[start..end].to_string()
}

/// The mirror's hooks as a local repository's, installed urldb instead of
/// the wheel: each line of the hook list indented under `hooks:`.
fn mirror_config() -> String {
    let hooks =
        std::fs::read_to_string(oracles::repo().join("pre-commit-mirror/.pre-commit-hooks.yaml"))
            .expect("the mirror's hooks");
    let mut config = String::from("repos:\n  - repo: local\n    hooks:\n");
    for line in hooks.lines() {
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let line = line.replace("language: python", "language: system");
        config.push_str(&format!("      {line}\n"));
    }
    config
}

/// pre-commit running `hook` of `hooks` on every file of `dir`.
fn run_hook(dir: &Path, hooks: Hooks, hook: &str) -> Output {
    let bin: PathBuf = Path::new(env!("CARGO_BIN_EXE_urldb"))
        .parent()
        .expect("the binary's directory")
        .to_path_buf();
    let mut cmd = Command::new(oracles::venv_bin("pre-commit"));
    cmd.current_dir(dir);
    match hooks {
        Hooks::Published => {
            cmd.arg("try-repo")
                .arg(oracles::repo())
                .arg(format!("{hook}-system"));
        }
        Hooks::Readme | Hooks::Mirror => {
            cmd.args(["run", hook]);
        }
    }
    cmd.args(["--all-files", "--color", "never"])
        .env(
            "PRE_COMMIT_HOME",
            oracles::target_tmp().join("pre-commit-home"),
        )
        .env("PATH", oracles::path_with(&[&bin]))
        .env("XDG_CACHE_HOME", oracles::target_tmp().join("xdg-cache"))
        .env_remove("URLDB_FORMAT")
        .output()
        .expect("run pre-commit")
}

/// A repository like the reference one with the hooks' configuration
/// staged; everything staged, as a commit would have it.
fn repository(hooks: Hooks, ambiguous: bool) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    reference_repo::write(dir.path(), ambiguous);
    let config = match hooks {
        Hooks::Published => "repos: []\n".to_string(),
        Hooks::Readme => readme_config(),
        Hooks::Mirror => mirror_config(),
    };
    std::fs::write(dir.path().join(".pre-commit-config.yaml"), config).expect("write");
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "-A"]);
    dir
}

/// The fmt hook, then the check hook; what each did.
fn both_hooks(dir: &Path, hooks: Hooks) -> (Output, Output) {
    let fmt = run_hook(dir, hooks, "urldb-fmt");
    git(dir, &["add", "-A"]);
    let check = run_hook(dir, hooks, "urldb-check");
    (fmt, check)
}

fn only_the_database_changes(hooks: Hooks) {
    // Without urldb.toml: the database is the one folder of domain files,
    // whatever YAML files named like domain files lie about that are none
    // (an example configuration, a compose file at the top).
    let dir = repository(hooks, false);
    std::fs::create_dir_all(dir.path().join("docs")).expect("mkdir");
    std::fs::write(
        dir.path().join(EXAMPLE_CONFIG),
        reference_repo::EXAMPLE_CONFIG_TEXT,
    )
    .expect("write");
    std::fs::write(
        dir.path().join("docker-compose.prod.yml"),
        "services:
  web:
    image: nginx
",
    )
    .expect("write");
    git(dir.path(), &["add", "-A"]);
    let before = reference_repo::contents(dir.path());
    let (fmt, check) = both_hooks(dir.path(), hooks);
    assert_eq!(fmt.status.code(), Some(1), "{hooks:?}: {}", text(&fmt));
    assert!(
        text(&fmt).contains("files were modified by this hook"),
        "{hooks:?}: {}",
        text(&fmt)
    );
    assert_eq!(check.status.code(), Some(0), "{hooks:?}: {}", text(&check));
    assert_eq!(
        reference_repo::changed(&before, &reference_repo::contents(dir.path())),
        [Path::new(NOT_CANONICAL)],
        "{hooks:?}"
    );

    // A second folder of domain files: nothing changes, and the hooks fail
    // saying what to run.
    let dir = repository(hooks, true);
    let before = reference_repo::contents(dir.path());
    let (fmt, check) = both_hooks(dir.path(), hooks);
    for out in [&fmt, &check] {
        assert_eq!(out.status.code(), Some(1), "{hooks:?}: {}", text(out));
        assert!(
            text(out).contains(
                "urldb cannot tell which is the database, and changes nothing. \
                                Run `urldb init --root DIR`"
            ),
            "{hooks:?}: {}",
            text(out)
        );
    }
    assert_eq!(reference_repo::contents(dir.path()), before, "{hooks:?}");

    // With urldb.toml, as `urldb init --root` writes it.
    let init = crate::support::run_in(dir.path(), &["init", "--root", DB]);
    assert_eq!(init.status.code(), Some(0), "{}", text(&init));
    git(dir.path(), &["add", "-A"]);
    let before = reference_repo::contents(dir.path());
    let (fmt, check) = both_hooks(dir.path(), hooks);
    assert_eq!(fmt.status.code(), Some(1), "{hooks:?}: {}", text(&fmt));
    assert_eq!(check.status.code(), Some(0), "{hooks:?}: {}", text(&check));
    let changed = reference_repo::changed(&before, &reference_repo::contents(dir.path()));
    assert_eq!(changed, [Path::new(NOT_CANONICAL)], "{hooks:?}");
    assert!(!changed.contains(&PathBuf::from(EXAMPLE_CONFIG)));
}

#[test]
fn the_published_hooks_change_only_the_database() {
    only_the_database_changes(Hooks::Published);
}

#[test]
fn the_readme_hooks_change_only_the_database() {
    only_the_database_changes(Hooks::Readme);
}

#[test]
fn the_mirror_hooks_change_only_the_database() {
    only_the_database_changes(Hooks::Mirror);
}
