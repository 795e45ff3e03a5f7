//! The README's top example, run and compared with what it shows; and its
//! "Your first database" steps, run as written: install urldb with `cargo
//! install`, `init`, `add` a URL with `--content-type`, `ls`, `check`, then
//! wire up the real pre-commit framework and commit, all inside an
//! enclosing git repository (as a user who installed from a clone would):
//! `urldb.toml` must land in the new database and be in its first commit. Only what a test
//! must change is changed: the install goes under `target/` (through
//! `CARGO_INSTALL_ROOT`, not by editing the command) and reuses the release
//! build the end-to-end tests share; `pip` and `pre-commit` are the tests'
//! own virtual environment's. The pre-commit configuration is used as
//! written: its `repo: local` hooks run the urldb step 1 installed
//! (tests/it/project/pre_commit.rs lets pre-commit build the published hooks).

use crate::support::oracles;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const START: &str = "<!-- readme-e2e:start -->";
const END: &str = "<!-- readme-e2e:end -->";

/// The fenced blocks of the marked README section: (language, body).
fn blocks() -> Vec<(String, String)> {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md");
    let start = readme.find(START).expect("start marker") + START.len();
    let end = readme.find(END).expect("end marker");
    let mut blocks = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in readme[start..end].lines() {
        if let Some(lang) = line.strip_prefix("```") {
            match current.take() {
                Some(block) => blocks.push(block),
                None => current = Some((lang.to_string(), String::new())),
            }
        } else if let Some((_, body)) = &mut current {
            body.push_str(line);
            body.push('\n');
        }
    }
    blocks
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

struct Env {
    work: tempfile::TempDir,
    install_root: PathBuf,
}

impl Env {
    fn command(&self, program: &str) -> Command {
        let mut cmd = Command::new(program);
        let path =
            oracles::path_with(&[&self.install_root.join("bin"), &oracles::venv().join("bin")]);
        cmd.current_dir(self.work.path())
            .env("PATH", path)
            .env("CARGO_INSTALL_ROOT", &self.install_root)
            // The release build the end-to-end tests share: the install
            // finds it made.
            .env("CARGO_TARGET_DIR", oracles::release_target_dir())
            .env(
                "PRE_COMMIT_HOME",
                oracles::target_tmp().join("pre-commit-home"),
            )
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "New User")
            .env("GIT_AUTHOR_EMAIL", "new.user@example.com")
            .env("GIT_COMMITTER_NAME", "New User")
            .env("GIT_COMMITTER_EMAIL", "new.user@example.com")
            .env("NO_COLOR", "1")
            .env_remove("URLDB_FORMAT")
            .stdin(Stdio::null());
        cmd
    }

    /// Run shell lines with `bash -e` from the work directory, or from `dir`.
    fn sh(&self, script: &str, dir: Option<&Path>) -> Output {
        let mut cmd = self.command("bash");
        if let Some(dir) = dir {
            cmd.current_dir(dir);
        }
        cmd.args(["-ec", script]).output().expect("bash")
    }
}

fn show(out: &Output) -> String {
    format!(
        "exit {:?}\n{}{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
#[ignore = "builds urldb in release, as a user installs it (minutes on two cores): run by .ci/run"]
fn a_new_user_follows_the_readme() {
    let blocks = blocks();
    let langs: Vec<&str> = blocks.iter().map(|(l, _)| l.as_str()).collect();
    assert_eq!(
        langs,
        ["sh", "yaml", "sh"],
        "the README section changed shape"
    );
    let env = Env {
        work: tempfile::tempdir().expect("tempdir"),
        install_root: oracles::target_tmp().join("readme-install"),
    };
    oracles::release_bin_dir();

    // Step 1: install (run where the README says: in the clone), then the
    // rest of the first block inside an enclosing git repository, as a
    // user who installed from a clone and stayed in it would.
    let (install, rest) = blocks[0].1.split_once('\n').expect("lines");
    assert!(install.starts_with("cargo install"), "{install}");
    let out = env.sh(install, Some(&repo()));
    assert!(out.status.success(), "{}", show(&out));
    let out = env.sh(
        "git init -q && echo clone > README.md && git add README.md && git commit -qm clone",
        None,
    );
    assert!(out.status.success(), "{}", show(&out));
    let out = env.sh(rest, None);
    assert!(out.status.success(), "{}", show(&out));
    let said = String::from_utf8_lossy(&out.stdout);
    // urldb.toml went into the new database, and the message says so; the
    // enclosing repository got none.
    assert!(
        said.contains("Created mydb/urldb.toml and mydb/example.com.yaml."),
        "{}",
        show(&out)
    );
    assert!(env.work.path().join("mydb/urldb.toml").is_file());
    assert!(!env.work.path().join("urldb.toml").exists());
    assert!(said.contains("All checks passed"), "{}", show(&out));
    // The URL added is listed as it was given: https, where the new
    // domain's file says so.
    assert!(
        said.lines()
            .any(|l| l == "https://docs.example.org/guide.html"),
        "{}",
        show(&out)
    );
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("https: true"),
        "{}",
        show(&out)
    );
    let db = env.work.path().join("mydb");
    let added = std::fs::read_to_string(db.join("docs.example.org.yaml")).expect("domain file");
    assert_eq!(
        added,
        "---\nhttps: true\n---\n_path: /guide.html\ncategories:\n- frontend\ncontent-type: text/html\n"
    );
    let domain = std::fs::read_to_string(db.join("example.com.yaml")).expect("domain file");

    // Step 2: the pre-commit configuration, as written: local hooks that
    // run the installed urldb.
    let config = blocks[1].1.clone();
    assert!(
        config.contains("repo: local") && config.contains("entry: urldb check\n"),
        "{config}"
    );
    std::fs::write(db.join(".pre-commit-config.yaml"), config).expect("write config");

    // Step 3: install the hooks and commit, from inside mydb (where step 1
    // left the user).
    let out = env.sh(&blocks[2].1, Some(&db));
    assert!(out.status.success(), "{}", show(&out));
    let log = env.sh("git log --oneline", Some(&db));
    assert_eq!(
        String::from_utf8_lossy(&log.stdout).lines().count(),
        1,
        "{}",
        show(&log)
    );
    // The first commit holds the database whole, its configuration with it.
    let tree = env.sh("git ls-tree -r --name-only HEAD", Some(&db));
    assert_eq!(
        String::from_utf8_lossy(&tree.stdout),
        ".pre-commit-config.yaml\ndocs.example.org.yaml\nexample.com.yaml\nurldb.toml\n",
        "{}",
        show(&tree)
    );

    // The hooks are really wired: a non-canonical record is stopped and
    // formatted by the fmt hook; committing the formatted file passes.
    let mut text = domain.clone();
    text.push_str("---\ncontent-type: text/html\n_path: /contact.html\n");
    std::fs::write(db.join("example.com.yaml"), &text).expect("write");
    let out = env.sh("git add -A && git commit -m 'Contact page'", Some(&db));
    assert!(!out.status.success(), "a non-canonical file was committed");
    assert!(show(&out).contains("urldb fmt"), "{}", show(&out));
    let formatted = std::fs::read_to_string(db.join("example.com.yaml")).expect("read");
    assert!(
        formatted.contains("_path: /contact.html\ncontent-type: text/html\n"),
        "{formatted}"
    );
    let out = env.sh("git add -A && git commit -m 'Contact page'", Some(&db));
    assert!(out.status.success(), "{}", show(&out));
}

/// The README's first example is what urldb prints for it, from a clone:
/// its command run in the repository, its output compared line for line.
#[test]
fn the_top_example_is_what_urldb_prints() {
    let readme = std::fs::read_to_string(repo().join("README.md")).expect("README.md");
    let marker = "<!-- readme-example:";
    let at = readme.find(marker).expect("the example's marker");
    let block = readme[at..]
        .split_once("```text\n")
        .and_then(|(_, rest)| rest.split_once("\n```"))
        .map(|(body, _)| body)
        .expect("a text block after the marker");
    let (command, shown) = block.split_once('\n').expect("a command line, then output");
    let args: Vec<&str> = command
        .strip_prefix("$ urldb ")
        .expect("`$ urldb ...`")
        .split_whitespace()
        .collect();
    let out = crate::support::urldb()
        .current_dir(repo())
        .args(&args)
        .env("NO_COLOR", "1")
        .env_remove("URLDB_FORMAT")
        .stdin(Stdio::null())
        .output()
        .expect("run urldb");
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim_end(),
        shown.trim_end(),
        "the README's example is not what `urldb {}` prints",
        args.join(" ")
    );
}
