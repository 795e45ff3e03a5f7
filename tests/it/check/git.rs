//! Git integration against real repositories made in temp dirs: `--staged`
//! (index blobs, not the work tree), `fmt --staged` (index and work tree,
//! never unstaged work), `--since REV`, repository-relative diffs that
//! `git apply` takes, `install-hook` with a real `git commit`, `--shard`.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use support::urldb;

pub(super) const CLEAN: &str = "---\n---\n_path: /a\ncontent-type: text/html\n";
/// Layout only: `fmt` repairs it.
pub(super) const UNSORTED: &str = "---\n---\ncontent-type: text/html\n_path: /a\n";
/// A value problem: only `check` finds it.
pub(super) const BAD_ESCAPE: &str = "---\n---\n_path: /a%2fb\ncontent-type: text/html\n";

/// A repository in a temp dir with the database in `db/`.
pub(super) struct Repo {
    dir: tempfile::TempDir,
}

impl Repo {
    pub(super) fn new() -> Repo {
        let repo = Repo {
            dir: tempfile::tempdir().expect("tempdir"),
        };
        repo.git(&["init", "-q", "-b", "main"]);
        std::fs::create_dir_all(repo.db()).expect("mkdir db");
        repo
    }

    pub(super) fn root(&self) -> &Path {
        self.dir.path()
    }

    pub(super) fn db(&self) -> PathBuf {
        self.root().join("db")
    }

    /// git in the repository ([`support::git_command`]).
    fn git_command(&self) -> Command {
        support::git_command(self.root())
    }

    pub(super) fn git(&self, args: &[&str]) -> String {
        support::git(self.root(), args)
    }

    pub(super) fn write(&self, name: &str, text: &str) {
        std::fs::write(self.db().join(name), text).expect("write");
    }

    pub(super) fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.db().join(name)).expect("read")
    }

    pub(super) fn stage(&self, name: &str, text: &str) {
        self.write(name, text);
        self.git(&["add", &format!("db/{name}")]);
    }

    /// The staged content of a database file.
    pub(super) fn staged(&self, name: &str) -> String {
        self.git(&["show", &format!(":db/{name}")])
    }

    pub(super) fn commit(&self, message: &str) {
        self.git(&["commit", "-q", "-m", message]);
    }

    /// urldb run at the repository root with `--db db`.
    pub(super) fn urldb(&self, args: &[&str]) -> Output {
        support::urldb_in(self.root(), &[&["--db", "db"], args].concat())
    }
}

pub(super) fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub(super) fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The rule codes of a `--format concise` run.
pub(super) fn codes(out: &Output) -> Vec<String> {
    stdout(out)
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2).map(str::to_string))
        .collect()
}

#[test]
fn partially_staged_file_is_checked_by_its_staged_content() {
    let repo = Repo::new();
    // A staged fix over a broken working tree: --staged passes, the work tree fails.
    repo.stage("example.com.yaml", CLEAN);
    repo.write("example.com.yaml", BAD_ESCAPE);
    let staged = repo.urldb(&["check", "--staged", "--format", "concise"]);
    assert_eq!(staged.status.code(), Some(0), "{}", stdout(&staged));
    let worktree = repo.urldb(&["check", "--format", "concise"]);
    assert_eq!(worktree.status.code(), Some(1));
    assert_eq!(codes(&worktree), ["path-escape-case"]);

    // The reverse: a broken file staged, fixed in the working tree only.
    repo.stage("example.com.yaml", BAD_ESCAPE);
    repo.write("example.com.yaml", CLEAN);
    let staged = repo.urldb(&["check", "--staged", "--format", "concise"]);
    assert_eq!(staged.status.code(), Some(1));
    assert_eq!(codes(&staged), ["path-escape-case"]);
    // Findings point into the staged text, shown under the usual path.
    assert!(
        stdout(&staged).starts_with("db/example.com.yaml:3:"),
        "{}",
        stdout(&staged)
    );
    assert_eq!(repo.urldb(&["check"]).status.code(), Some(0));

    // fmt --check --staged reads the index too.
    repo.stage("example.com.yaml", UNSORTED);
    repo.write("example.com.yaml", CLEAN);
    let out = repo.urldb(&["fmt", "--check", "--staged"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("Would reformat: db/example.com.yaml"));
    assert_eq!(repo.urldb(&["fmt", "--check"]).status.code(), Some(0));
}

#[test]
fn files_deleted_in_the_index_are_excluded() {
    let repo = Repo::new();
    repo.stage("example.com.yaml", CLEAN);
    repo.stage("broken.org.yaml", BAD_ESCAPE);
    repo.commit("two files");
    assert_eq!(repo.urldb(&["check", "--staged"]).status.code(), Some(1));
    repo.git(&["rm", "-q", "--cached", "db/broken.org.yaml"]);
    let out = repo.urldb(&["check", "--staged"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    // Files that are not staged at all (untracked) are not looked at either.
    repo.write("untracked.net.yaml", BAD_ESCAPE);
    assert_eq!(repo.urldb(&["check", "--staged"]).status.code(), Some(0));
    assert_eq!(repo.urldb(&["check"]).status.code(), Some(1));
}

#[test]
fn cross_file_rules_see_the_staged_state() {
    let repo = Repo::new();
    repo.stage("example.com.yaml", "---\ncnames:\n- www.example.com\n");
    repo.stage("other.com.yaml", "---\ncnames:\n- shop.example.com\n");
    // In the work tree the second file claims the first one's cname…
    repo.write("other.com.yaml", "---\ncnames:\n- www.example.com\n");
    let worktree = repo.urldb(&["check", "--format", "concise"]);
    assert!(
        codes(&worktree).contains(&"cname-conflict".to_string()),
        "{}",
        stdout(&worktree)
    );
    // …but what would be committed has no conflict.
    let staged = repo.urldb(&["check", "--staged", "--format", "concise"]);
    assert_eq!(staged.status.code(), Some(0), "{}", stdout(&staged));
    // And the other way round.
    repo.git(&["add", "db/other.com.yaml"]);
    repo.write("other.com.yaml", "---\ncnames:\n- shop.example.com\n");
    let staged = repo.urldb(&["check", "--staged", "--format", "concise"]);
    assert!(codes(&staged).contains(&"cname-conflict".to_string()));
    assert_eq!(repo.urldb(&["check"]).status.code(), Some(0));
}

#[test]
fn fmt_staged_writes_index_and_work_tree_when_they_agree() {
    let repo = Repo::new();
    repo.stage("example.com.yaml", UNSORTED);
    let out = repo.urldb(&["fmt", "--staged"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    assert_eq!(repo.staged("example.com.yaml"), CLEAN);
    assert_eq!(repo.read("example.com.yaml"), CLEAN);
    // git sees no difference between the work tree and the index.
    assert_eq!(
        repo.git(&["status", "--porcelain"]),
        "A  db/example.com.yaml\n"
    );
    assert_eq!(
        repo.urldb(&["fmt", "--check", "--staged"]).status.code(),
        Some(0)
    );
    // The index stays valid for git: a commit takes the formatted blob.
    repo.commit("formatted");
    assert_eq!(repo.git(&["show", "HEAD:db/example.com.yaml"]), CLEAN);
}

#[test]
fn fmt_staged_never_touches_unstaged_work() {
    let repo = Repo::new();
    repo.stage("example.com.yaml", UNSORTED);
    let unstaged = format!("{UNSORTED}---\n_path: /b\ncontent-type: text/html\n");
    repo.write("example.com.yaml", &unstaged);
    let out = repo.urldb(&["fmt", "--staged"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(
        stderr(&out)
            .contains("db/example.com.yaml: not formatted: the working tree has unstaged changes"),
        "{}",
        stderr(&out)
    );
    assert!(
        stdout(&out).contains("0 files reformatted"),
        "{}",
        stdout(&out)
    );
    assert_eq!(repo.read("example.com.yaml"), unstaged);
    assert_eq!(repo.staged("example.com.yaml"), UNSORTED);
    // check --fix --staged follows the same rule.
    let out = repo.urldb(&["check", "--fix", "--staged"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("unstaged changes"));
    assert_eq!(repo.read("example.com.yaml"), unstaged);
    assert_eq!(repo.staged("example.com.yaml"), UNSORTED);
}

#[test]
fn check_fix_staged_repairs_values_in_both() {
    let repo = Repo::new();
    repo.stage("example.com.yaml", BAD_ESCAPE);
    let out = repo.urldb(&["check", "--fix", "--staged"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    let fixed = "---\n---\n_path: /a%2Fb\ncontent-type: text/html\n";
    assert_eq!(repo.staged("example.com.yaml"), fixed);
    assert_eq!(repo.read("example.com.yaml"), fixed);
}

#[test]
fn unborn_head() {
    let repo = Repo::new();
    repo.stage("example.com.yaml", UNSORTED);
    // No commit yet: the index is all there is, and it works.
    let out = repo.urldb(&["check", "--staged", "--format", "concise"]);
    assert_eq!(codes(&out), ["unsorted-keys"]);
    // --since needs a revision that exists, and before the first commit
    // there is none: said so.
    let out = repo.urldb(&["check", "--since", "HEAD"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no revision `HEAD`: the repository at ")
            && stderr(&out).contains("has no commit yet; commit first"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn outside_a_repository_staged_and_since_are_clear_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("example.com.yaml"), CLEAN).expect("write");
    for args in [
        &["check", "--staged"][..],
        &["fmt", "--check", "--staged"],
        &["fmt", "--staged"],
        &["check", "--since", "HEAD~1"],
        &["fmt", "--since", "HEAD~1"],
        &["install-hook"],
    ] {
        let out = urldb()
            .current_dir(dir.path())
            .args(args)
            .env(
                "GIT_CEILING_DIRECTORIES",
                dir.path().parent().expect("parent"),
            )
            .env("NO_COLOR", "1")
            .output()
            .expect("run");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains("is not inside a git repository"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    // Everything else works without one.
    let out = urldb()
        .current_dir(dir.path())
        .args(["check"])
        .env(
            "GIT_CEILING_DIRECTORIES",
            dir.path().parent().expect("parent"),
        )
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn since_checks_only_changed_files_but_cross_file_rules_see_all() {
    let repo = Repo::new();
    repo.stage("old.org.yaml", BAD_ESCAPE);
    repo.stage("example.com.yaml", "---\ncnames:\n- www.example.com\n");
    repo.commit("first");
    repo.stage("changed.org.yaml", BAD_ESCAPE);
    repo.commit("second");
    // Changed in the work tree, not committed: claims example.com's cname.
    repo.write("late.net.yaml", "---\ncnames:\n- www.example.com\n");

    let out = repo.urldb(&["check", "--since", "HEAD~1", "--format", "concise"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(text.contains("db/changed.org.yaml:3:"), "{text}");
    assert!(!text.contains("old.org.yaml"), "{text}");
    assert!(
        !text.lines().any(|l| l.starts_with("db/example.com.yaml")),
        "{text}"
    );
    // The conflict is reported in the changed file, found against an unchanged one.
    assert!(
        text.lines()
            .any(|l| l.starts_with("db/late.net.yaml") && l.contains("cname-conflict")),
        "{text}"
    );

    // Since HEAD: only the work-tree change.
    let out = repo.urldb(&["check", "--since", "HEAD", "--format", "concise"]);
    let text = stdout(&out);
    assert!(!text.contains("changed.org.yaml"), "{text}");
    assert!(text.contains("db/late.net.yaml"), "{text}");

    // fmt --since looks at the same files.
    repo.write("old.org.yaml", UNSORTED);
    repo.git(&["add", "db/old.org.yaml"]);
    repo.commit("third");
    repo.write("late.net.yaml", UNSORTED);
    let out = repo.urldb(&["fmt", "--check", "--since", "HEAD"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out).lines().next(),
        Some("Would reformat: db/late.net.yaml")
    );
    assert!(!stdout(&out).contains("old.org.yaml"));

    let out = repo.urldb(&["check", "--since", "no-such-rev"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no revision `no-such-rev` in the repository"));
}

#[test]
fn diffs_name_repository_paths_and_git_apply_takes_them() {
    let repo = Repo::new();
    std::fs::create_dir_all(repo.db().join("sub")).expect("mkdir");
    repo.write("example.com.yaml", UNSORTED);
    repo.write("sub/b.org.yaml", BAD_ESCAPE);
    // Run from inside the database directory: the paths are still the
    // repository's, so the patch applies from the top.
    let db = repo.db();
    for (args, patch) in [
        (&["fmt", "--diff"][..], "fmt.patch"),
        (&["check", "--diff"][..], "check.patch"),
    ] {
        let out = support::urldb_in(&db, args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let text = stdout(&out);
        assert!(text.contains("--- a/db/example.com.yaml\n"), "{text}");
        std::fs::write(repo.root().join(patch), &out.stdout).expect("write patch");
    }
    repo.git(&["apply", "fmt.patch"]);
    assert_eq!(
        support::urldb_in(&db, &["fmt", "--check"]).status.code(),
        Some(0)
    );
    // The check diff was made before the fmt patch: apply it to a fresh copy.
    repo.write("example.com.yaml", UNSORTED);
    repo.git(&["apply", "check.patch"]);
    assert_eq!(support::urldb_in(&db, &["check"]).status.code(), Some(0));

    // Staged diffs compare the staged text.
    repo.stage("example.com.yaml", UNSORTED);
    repo.write("example.com.yaml", CLEAN);
    let out = repo.urldb(&["fmt", "--diff", "--staged"]);
    assert!(stdout(&out).contains("+++ b/db/example.com.yaml"));
    repo.git(&["checkout", "--", "db/example.com.yaml"]);
    std::fs::write(repo.root().join("staged.patch"), &out.stdout).expect("write");
    repo.git(&["apply", "--cached", "staged.patch"]);
    assert_eq!(repo.staged("example.com.yaml"), CLEAN);
}

#[test]
fn install_hook_runs_on_a_real_commit() {
    let repo = Repo::new();
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_urldb"));
    let path = format!(
        "{}:{}",
        bin.parent().expect("bin dir").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = repo.urldb(&["install-hook"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let hook = repo.root().join(".git/hooks/pre-commit");
    let text = std::fs::read_to_string(&hook).expect("hook");
    assert!(text.contains("check --staged"), "{text}");
    // Again: up to date, not an error.
    let again = repo.urldb(&["install-hook"]);
    assert_eq!(again.status.code(), Some(0));
    assert!(stdout(&again).contains("up to date"));

    let commit = |message: &str| {
        repo.git_command()
            .env("PATH", &path)
            .args(["commit", "-q", "-m", message])
            .output()
            .expect("git commit")
    };
    repo.stage("example.com.yaml", UNSORTED);
    let out = commit("unsorted");
    assert!(
        !out.status.success(),
        "the hook let a non-canonical file in"
    );
    // git sends a hook's output to stderr.
    assert!(stderr(&out).contains("unsorted-keys"), "{}", stderr(&out));
    assert_eq!(repo.urldb(&["fmt", "--staged"]).status.code(), Some(0));
    let out = commit("formatted");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(repo.git(&["show", "HEAD:db/example.com.yaml"]), CLEAN);
}

/// The hook that stops a commit says why and how to go on: a summary
/// after the concise lines, naming `urldb check --fix --staged`, which
/// fixes the index and the work tree together; followed, the commit
/// goes through with both fixed.
#[test]
fn the_hook_that_stops_a_commit_names_the_fix_for_the_index() {
    let repo = Repo::new();
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_urldb"));
    let path = format!(
        "{}:{}",
        bin.parent().expect("bin dir").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = repo.urldb(&["install-hook"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let commit = || {
        repo.git_command()
            .env("PATH", &path)
            .env("NO_COLOR", "1")
            .args(["commit", "-q", "-m", "records"])
            .output()
            .expect("git commit")
    };
    let fixable = "---\n---\n_path: /a\ncontent-type: text/html \n";
    repo.stage("example.com.yaml", fixable);
    let out = commit();
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("[*]"), "{said}");
    let summary = said
        .find("the commit is stopped by the findings above")
        .expect(&said);
    assert!(
        said.find("trailing-whitespace").expect(&said) < summary,
        "{said}"
    );
    assert!(
        said.contains(
            "`urldb check --fix --staged` fixes those in the index and the work tree together"
        ),
        "{said}"
    );
    // The full output of the same run names the same fix.
    let out = repo.urldb(&["check", "--staged"]);
    assert!(
        stdout(&out).contains("1 fixable with `urldb check --fix --staged`"),
        "{}",
        stdout(&out)
    );
    // As advised.
    let out = repo.urldb(&["check", "--fix", "--staged"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = commit();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(repo.git(&["show", "HEAD:db/example.com.yaml"]), CLEAN);
    assert_eq!(
        std::fs::read_to_string(repo.db().join("example.com.yaml")).expect("read"),
        CLEAN
    );
}

#[test]
fn install_hook_keeps_a_foreign_hook() {
    let repo = Repo::new();
    let hook = repo.root().join(".git/hooks/pre-commit");
    std::fs::create_dir_all(hook.parent().expect("hooks")).expect("mkdir");
    let foreign = "#!/bin/sh\necho mine\n";
    std::fs::write(&hook, foreign).expect("write");
    let out = repo.urldb(&["install-hook"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("not installed by urldb"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_to_string(&hook).expect("read"), foreign);

    let out = repo.urldb(&["install-hook", "--force"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        std::fs::read_to_string(&hook)
            .expect("read")
            .contains("urldb")
    );
    let backup = hook.with_file_name("pre-commit.before-urldb");
    assert_eq!(std::fs::read_to_string(backup).expect("backup"), foreign);
}

/// Without urldb on `PATH`, the installed hook stops the commit and says
/// how to install urldb with commands that exist: the PyPI name is
/// `urldb-cli`, and crates.io has no `urldb` of ours (`docs/install.md`).
#[test]
#[cfg(unix)]
fn the_hook_without_urldb_says_how_to_install_it() {
    let repo = Repo::new();
    let out = repo.urldb(&["install-hook"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // A PATH with git and nothing else.
    let bin = tempfile::tempdir().expect("tempdir");
    let git = String::from_utf8_lossy(
        &Command::new("sh")
            .args(["-c", "command -v git"])
            .output()
            .expect("sh")
            .stdout,
    )
    .trim()
    .to_string();
    std::os::unix::fs::symlink(&git, bin.path().join("git")).expect("link git");
    repo.stage("example.com.yaml", CLEAN);
    let out = repo
        .git_command()
        .env("PATH", bin.path())
        .args(["commit", "-q", "-m", "no urldb"])
        .output()
        .expect("git commit");
    let said = stderr(&out);
    assert!(!out.status.success(), "{said}");
    assert!(said.contains("urldb is not on PATH"), "{said}");
    assert!(said.contains("pipx install urldb-cli"), "{said}");
    assert!(said.contains("cargo install --locked --path ."), "{said}");
    assert!(!said.contains("cargo install urldb"), "{said}");
}

#[test]
fn shards_split_the_files_exactly() {
    let repo = Repo::new();
    for i in 0..7 {
        repo.write(&format!("d{i}.org.yaml"), BAD_ESCAPE);
    }
    let all = stdout(&repo.urldb(&["check", "--format", "concise"]));
    let mut union: Vec<String> = Vec::new();
    for k in 1..=3 {
        let out = repo.urldb(&["check", "--shard", &format!("{k}/3"), "--format", "concise"]);
        assert_eq!(out.status.code(), Some(1));
        let lines: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
        assert!(lines.len() == 2 || lines.len() == 3, "{lines:?}");
        union.extend(lines);
    }
    union.sort();
    let mut expected: Vec<String> = all.lines().map(str::to_string).collect();
    expected.sort();
    assert_eq!(union, expected);
    for bad in ["0/3", "4/3", "x", "1/0"] {
        let out = repo.urldb(&["check", "--shard", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(stderr(&out).contains("is not K/N"), "{}", stderr(&out));
    }
}
