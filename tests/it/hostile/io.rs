//! Hostile files, through the real binary: what a pull request can put in
//! the database or in `urldb.toml` to make urldb lose an update, read or
//! print a file outside the database, hang, write outside the database,
//! trust a cache it planted, or hand a file to another owner. One test per
//! problem; each runs urldb in a temporary directory, and every run that
//! could hang is killed after a generous limit, so that a regression fails
//! instead of hanging the suite.

use crate::support;

#[cfg(unix)]
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A temporary directory holding the database `db/` and, beside it, the
/// user's cache directory (`$XDG_CACHE_HOME`).
struct Tree {
    top: tempfile::TempDir,
}

impl Tree {
    fn new() -> Tree {
        let top = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(top.path().join("db")).expect("mkdir db");
        Tree { top }
    }
    fn top(&self) -> &Path {
        self.top.path()
    }
    fn db(&self) -> PathBuf {
        self.top.path().join("db")
    }
    fn xdg(&self) -> PathBuf {
        self.top.path().join("xdg")
    }
    /// urldb in `dir`, its cache in this tree.
    fn command(&self, dir: &Path, args: &[&str]) -> Command {
        let mut cmd = support::urldb();
        cmd.current_dir(dir)
            .args(args)
            .env_remove("URLDB_FORMAT")
            .env("NO_COLOR", "1")
            .env("XDG_CACHE_HOME", self.xdg())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        cmd
    }
    /// Run urldb in `dir`; killed (and the test failed) after 60 s.
    fn run(&self, dir: &Path, args: &[&str]) -> Output {
        finish(self.command(dir, args).spawn().expect("spawn"), args)
    }
}

/// Wait for `child` at most 60 s (a hang is a failure, not a stuck suite).
fn finish(mut child: Child, what: &[&str]) -> Output {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if child.try_wait().expect("wait").is_some() {
            return child.wait_with_output().expect("output");
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("urldb {what:?} still running after 60 s: it hangs");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).expect("write");
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).expect("read")
}

/// A domain file urldb would rewrite (keys out of order).
const UNSORTED: &str = "---\n---\ncontent-type: text/html\n_path: /a\n";

fn mkfifo(path: &Path) {
    let ok = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo")
        .success();
    assert!(ok, "mkfifo {}", path.display());
}

#[cfg(unix)]
fn is_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    let probe = tempfile::NamedTempFile::new().expect("probe");
    probe.as_file().metadata().expect("meta").uid() == 0
}

/// Lost update: concurrent `add`s of different paths to one file each
/// wait for the file's lock, and every record reported "added" is in the
/// file.
#[test]
fn concurrent_adds_to_one_file_all_land() {
    let tree = Tree::new();
    let db = tree.db();
    let file = db.join("c.org.yaml");
    write(&file, "---\n---\n_path: /\ncontent-type: text/html\n");
    for round in 0..5 {
        let children: Vec<(String, Child)> = (0..20)
            .map(|i| {
                let path = format!("/r{round}p{i}");
                let url = format!("http://c.org{path}");
                let child = tree
                    .command(&db, &["add", "--content-type", "text/html", &url])
                    .spawn()
                    .expect("spawn");
                (path, child)
            })
            .collect();
        let mut added = Vec::new();
        for (path, child) in children {
            let out = finish(child, &["add", &path]);
            let err = text(&out.stderr);
            assert_eq!(out.status.code(), Some(0), "add {path}: {err}");
            assert!(err.contains(&format!("added {path} ")), "add {path}: {err}");
            added.push(path);
        }
        let now = text(&read(&file));
        for path in &added {
            assert!(
                now.contains(&format!("_path: {path}\n")),
                "round {round}: {path} reported added, not in the file:\n{now}"
            );
        }
        assert!(!db.join("c.org.yaml.lock").exists(), "a lock file was left");
    }
    let check = tree.run(&db, &["check", "--no-cache"]);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stdout));
}

/// Reads outside the database: a domain file that is a symbolic link to a
/// file outside the root is never read, in any command or format; nor is a
/// link to the process's environment.
#[cfg(unix)]
#[test]
fn a_symlink_out_of_the_root_is_never_read() {
    use std::os::unix::fs::symlink;
    let tree = Tree::new();
    let db = tree.db();
    write(&db.join("a.org.yaml"), UNSORTED);
    // A domain file, so that every command would show it if it read it:
    // a record (ls, export), a finding (check), a rewrite (fmt).
    let secret = "SECRET-4b1d9e";
    write(
        &tree.top().join("outside.yaml"),
        &format!("---\n---\ncontent-type: text/html\n_path: /{secret}\n# {secret}\n"),
    );
    symlink("../outside.yaml", db.join("leak.org.yaml")).expect("symlink");
    let env_secret = "ENVSECRET-77c1a0";
    symlink("/proc/self/environ", db.join("env.org.yaml")).expect("symlink");
    let mut runs: Vec<Vec<&str>> = Vec::new();
    for format in ["full", "concise", "json", "github", "sarif", "junit"] {
        runs.push(vec!["check", "--format", format]);
        runs.push(vec!["check", "--format", format, "leak.org.yaml"]);
    }
    runs.push(vec!["check", "--diff"]);
    runs.push(vec!["check", "--fix"]);
    for format in ["urls", "json", "csv"] {
        runs.push(vec!["ls", "--format", format]);
    }
    for to in ["urls", "json", "csv", "uri-catalogue"] {
        runs.push(vec!["export", "--to", to]);
    }
    runs.push(vec!["fmt", "--diff"]);
    runs.push(vec!["fmt", "--check"]);
    runs.push(vec!["fmt"]);
    for args in &runs {
        let out = tree
            .command(&db, args)
            .env("URLDB_TEST_SECRET", env_secret)
            .output()
            .expect("run");
        let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
        assert!(
            !all.contains(secret),
            "urldb {args:?} printed the file:\n{all}"
        );
        assert!(
            !all.contains(env_secret),
            "urldb {args:?} printed the environment:\n{all}"
        );
        assert!(
            all.contains("leak.org.yaml: symbolic link to a file outside the database root"),
            "urldb {args:?} does not say why leak.org.yaml was not read:\n{all}"
        );
        assert_eq!(out.status.code(), Some(2), "urldb {args:?}: {all}");
    }
    // Neither the link nor its target was rewritten.
    assert!(
        std::fs::symlink_metadata(db.join("leak.org.yaml"))
            .expect("link")
            .file_type()
            .is_symlink()
    );
    assert!(
        text(&read(&tree.top().join("outside.yaml"))).contains("content-type: text/html\n_path")
    );
}

/// Hangs: a FIFO named on the command line, or as the domain file `add`
/// edits, or as the configuration, is refused at once (exit 2), never
/// opened for a read that would wait for a writer.
#[test]
fn a_fifo_is_refused_without_waiting() {
    let tree = Tree::new();
    let db = tree.db();
    write(&db.join("a.org.yaml"), UNSORTED);
    mkfifo(&db.join("f.org.yaml"));
    mkfifo(&tree.top().join("fifo.toml"));
    let config = tree.top().join("fifo.toml");
    let config = config.to_str().expect("utf-8 path");
    for args in [
        vec!["check", "f.org.yaml"],
        vec!["check"],
        vec!["fmt", "f.org.yaml"],
        vec!["fmt", "--check", "f.org.yaml"],
        vec!["add", "--content-type", "text/html", "http://f.org/x"],
        vec!["rm", "http://f.org/x"],
        vec!["ls", "f.org.yaml"],
        vec!["--config", config, "check"],
    ] {
        let started = Instant::now();
        let out = tree.run(&db, &args);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "urldb {args:?}: {err}");
        assert!(
            err.contains("is a FIFO (named pipe); only regular files are read"),
            "urldb {args:?}: {err}"
        );
        // A run that could not read a file never says it passed.
        assert!(
            !text(&out.stdout).contains("All checks passed"),
            "urldb {args:?}: {}",
            text(&out.stdout)
        );
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "urldb {args:?} took {:?}",
            started.elapsed()
        );
    }
}

/// Writes outside the database: `root` in urldb.toml may not lead out of
/// the directory that holds it, relatively or absolutely.
#[test]
fn a_configured_root_outside_the_repository_is_refused() {
    let tree = Tree::new();
    let repo = tree.top().join("repo");
    let victim = tree.top().join("victim");
    std::fs::create_dir_all(repo.join("db")).expect("mkdir");
    std::fs::create_dir(&victim).expect("mkdir");
    write(&victim.join("v.org.yaml"), UNSORTED);
    write(&victim.join("other.yaml"), "b: 1\na: 2\n");
    let absolute = format!("root = \"{}\"\n", victim.display());
    for config in [
        "root = \"../victim\"\n",
        absolute.as_str(),
        "root = \"db/../../victim\"\n",
    ] {
        write(&repo.join("urldb.toml"), config);
        for args in [vec!["fmt"], vec!["check", "--fix"], vec!["check"]] {
            let out = tree.run(&repo, &args);
            let err = text(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{config} urldb {args:?}: {err}");
            assert!(
                err.contains("leads outside the directory that holds urldb.toml"),
                "{config}: {err}"
            );
        }
    }
    assert_eq!(read(&victim.join("v.org.yaml")), UNSORTED.as_bytes());
    assert_eq!(read(&victim.join("other.yaml")), b"b: 1\na: 2\n");
    // A root inside the repository is fine.
    write(&repo.join("db/a.org.yaml"), UNSORTED);
    write(&repo.join("urldb.toml"), "root = \"db\"\n");
    let out = tree.run(&repo, &["fmt"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_ne!(read(&repo.join("db/a.org.yaml")), UNSORTED.as_bytes());
}

/// Writes outside the database: a directory (or a file in it) named on the
/// command line through a symbolic link out of the root is skipped, with a
/// note; nothing there is read or written.
#[cfg(unix)]
#[test]
fn a_symlinked_directory_out_of_the_root_is_not_written() {
    use std::os::unix::fs::symlink;
    let tree = Tree::new();
    let db = tree.db();
    let victim = tree.top().join("victim");
    std::fs::create_dir(&victim).expect("mkdir");
    write(&victim.join("v.org.yaml"), UNSORTED);
    write(&victim.join("other.yaml"), "b: 1\na: 2\n");
    symlink("../victim", db.join("link")).expect("symlink");
    write(&db.join("a.org.yaml"), UNSORTED);
    for args in [
        vec!["fmt", "link"],
        vec!["fmt", "link/v.org.yaml", "link/other.yaml"],
        vec!["check", "--fix", "link"],
        vec!["fmt", "--diff", "link"],
    ] {
        let out = tree.run(&db, &args);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "urldb {args:?}: {err}");
        assert!(
            err.contains("link: not in the database (outside the database root `.`); skipped")
                || err.contains("note: skipped 2 files that are not in the database `.`"),
            "urldb {args:?}: {err}"
        );
        assert!(!text(&out.stdout).contains("v.org.yaml"), "{args:?}");
    }
    // The whole database: the link is not followed.
    let out = tree.run(&db, &["fmt"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(read(&victim.join("v.org.yaml")), UNSORTED.as_bytes());
    assert_eq!(read(&victim.join("other.yaml")), b"b: 1\na: 2\n");
    assert_ne!(read(&db.join("a.org.yaml")), UNSORTED.as_bytes());
}

/// A hook passes every YAML file of the repository: those outside the
/// database root are skipped with a note, never read or written; those
/// inside are handled as before.
#[test]
fn a_yaml_file_outside_the_root_is_skipped() {
    let tree = Tree::new();
    let repo = tree.top().join("repo");
    std::fs::create_dir_all(repo.join("db")).expect("mkdir");
    std::fs::create_dir_all(repo.join("other")).expect("mkdir");
    write(&repo.join("urldb.toml"), "root = \"db\"\n");
    let hook_config = "repos:\n- repo: local\n  hooks: []\n";
    write(&repo.join(".pre-commit-config.yaml"), hook_config);
    write(&repo.join("other/x.yaml"), UNSORTED);
    write(&repo.join("db/a.org.yaml"), UNSORTED);
    let out = tree.run(
        &repo,
        &[
            "fmt",
            ".pre-commit-config.yaml",
            "other/x.yaml",
            "db/a.org.yaml",
        ],
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    // One line for the files a hook passes; each with its reason on `-v`.
    assert!(
        err.contains("note: skipped 2 files that are not in the database `db`"),
        "{err}"
    );
    let verbose = tree.run(
        &repo,
        &["-v", "fmt", ".pre-commit-config.yaml", "other/x.yaml"],
    );
    let err = text(&verbose.stderr);
    assert!(
        err.contains(
            "note: .pre-commit-config.yaml: not in the database \
             (outside the database root `db`); skipped"
        ),
        "{err}"
    );
    assert!(
        err.contains(
            "note: other/x.yaml: not in the database (outside the database root `db`); skipped"
        ),
        "{err}"
    );
    assert_eq!(
        read(&repo.join(".pre-commit-config.yaml")),
        hook_config.as_bytes()
    );
    assert_eq!(read(&repo.join("other/x.yaml")), UNSORTED.as_bytes());
    assert_ne!(read(&repo.join("db/a.org.yaml")), UNSORTED.as_bytes());
    // And `check` finds nothing to say about them.
    let out = tree.run(&repo, &["check", ".pre-commit-config.yaml", "other/x.yaml"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
}

/// A planted cache: a `.urldb_cache/` committed with the database, with an
/// entry that vouches for a broken file in the format the cache reads, does
/// not hide its findings. (The cache lives outside the work tree.)
#[cfg(unix)]
#[test]
fn a_planted_cache_does_not_hide_findings() {
    use std::os::unix::fs::MetadataExt;
    let tree = Tree::new();
    let db = tree.db();
    let good = "---\n---\n_path: /bcd\ncontent-type: text/html\n";
    let bad = "---\n---\n_path: /%2f\ncontent-type: text/html\n";
    write(&db.join("b.org.yaml"), good);
    // A genuine cache file, made by this urldb: its header and key are
    // what the cache accepts.
    let made = tree.run(&db, &["check"]);
    assert_eq!(made.status.code(), Some(0), "{}", text(&made.stdout));
    let urldb_dir = tree.xdg().join("urldb");
    let genuine = std::fs::read_dir(&urldb_dir)
        .expect("cache dir")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .next()
        .expect("the database's cache directory");
    // The pull request: the broken file, and a cache entry for exactly its
    // bytes and metadata, committed in the database as `.urldb_cache/`.
    write(&db.join("b.org.yaml"), bad);
    let meta = std::fs::metadata(db.join("b.org.yaml")).expect("stat");
    let stat = format!(
        "{},{},{},{}",
        meta.len(),
        meta.mtime() * 1_000_000_000 + meta.mtime_nsec(),
        meta.ctime() * 1_000_000_000 + meta.ctime_nsec(),
        meta.ino()
    );
    let hash = {
        use sha2::Digest;
        let digest = sha2::Sha256::digest(bad.as_bytes());
        digest
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    };
    let planted = db.join(".urldb_cache");
    std::fs::create_dir(&planted).expect("mkdir");
    for entry in std::fs::read_dir(&genuine)
        .expect("ls")
        .filter_map(Result::ok)
    {
        let name = entry.file_name();
        let body = text(&read(&entry.path()));
        let forged = match body.lines().next() {
            Some(header) if header.starts_with("urldb-cache ") => {
                format!("{header}\nb.org.yaml\t{hash}\t{stat}\t\n")
            }
            _ => body,
        };
        write(&planted.join(&name), &forged);
        // The same forgery where the cache really is: urldb's own entry,
        // proven to be believed (so the planted one would be too).
        write(&genuine.join(&name), &forged);
    }
    let believed = tree.run(&db, &["check"]);
    assert_eq!(
        believed.status.code(),
        Some(0),
        "the forged entry, where urldb keeps its cache, is believed"
    );
    std::fs::remove_dir_all(&urldb_dir).expect("rm cache");
    // Only the planted copy is left: it is not read.
    let out = tree.run(&db, &["check", "--format", "concise"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("path-escape-case"),
        "{}",
        text(&out.stdout)
    );
}

/// A cache directory that is a symbolic link (a `.urldb_cache` in the
/// database, or the user's cache directory itself) is never written
/// through; with `-v` urldb says why it did not use it.
#[cfg(unix)]
#[test]
fn a_symlinked_cache_directory_is_not_written_through() {
    use std::os::unix::fs::symlink;
    let tree = Tree::new();
    let db = tree.db();
    write(
        &db.join("b.org.yaml"),
        "---\n---\n_path: /bcd\ncontent-type: text/html\n",
    );
    let elsewhere = tree.top().join("elsewhere");
    std::fs::create_dir(&elsewhere).expect("mkdir");
    symlink("../elsewhere", db.join(".urldb_cache")).expect("symlink");
    std::fs::create_dir(tree.xdg()).expect("mkdir");
    symlink("../elsewhere", tree.xdg().join("urldb")).expect("symlink");
    for _ in 0..2 {
        let out = tree.run(&db, &["check", "-v"]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{err}");
        assert!(
            err.contains("results cache not used:") && err.contains("is a symbolic link"),
            "{err}"
        );
    }
    assert_eq!(
        std::fs::read_dir(&elsewhere).expect("ls").count(),
        0,
        "written through a link"
    );
}

/// A cache directory that another user owns is neither read nor written.
#[cfg(unix)]
#[test]
fn a_cache_directory_of_another_user_is_not_used() {
    if !is_root() {
        eprintln!("note: not root: cannot make a directory another user owns; skipped");
        return;
    }
    let tree = Tree::new();
    let db = tree.db();
    write(
        &db.join("b.org.yaml"),
        "---\n---\n_path: /bcd\ncontent-type: text/html\n",
    );
    let mine = tree.xdg().join("urldb");
    std::fs::create_dir_all(&mine).expect("mkdir");
    std::os::unix::fs::chown(&mine, Some(12345), Some(12345)).expect("chown");
    let out = tree.run(&db, &["check", "-v"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("belongs to another user"), "{err}");
    assert_eq!(std::fs::read_dir(&mine).expect("ls").count(), 0);
}

/// A lock another urldb holds: a writer waits for it a bounded time, then
/// says what the lock is and what to do, and exits 2; the file is
/// untouched.
#[test]
fn a_held_lock_is_waited_for_then_explained() {
    let tree = Tree::new();
    let db = tree.db();
    write(&db.join("a.org.yaml"), UNSORTED);
    // Held the way urldb holds it (an advisory lock on the lock file), by
    // this test process: to urldb, a live writer.
    let held = std::fs::File::create(db.join("a.org.yaml.lock")).expect("lock");
    held.lock().expect("flock");
    for args in [
        vec!["fmt"],
        vec!["add", "--content-type", "text/html", "http://a.org/b"],
    ] {
        let started = Instant::now();
        let out = tree.run(&db, &args);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "urldb {args:?}: {err}");
        assert!(
            err.contains("a.org.yaml.lock: exists")
                && err.contains("another urldb is writing")
                && err.contains("if no urldb is running"),
            "urldb {args:?}: {err}"
        );
        let took = started.elapsed();
        assert!(
            took >= Duration::from_secs(9),
            "urldb {args:?} gave up after {took:?}, without waiting"
        );
        assert_eq!(read(&db.join("a.org.yaml")), UNSORTED.as_bytes());
        assert!(!err.contains("added /b"), "{err}");
    }
    assert!(
        db.join("a.org.yaml.lock").exists(),
        "a held lock was removed"
    );
    // Let go: the write goes ahead.
    drop(held);
    let out = tree.run(&db, &["fmt"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_ne!(read(&db.join("a.org.yaml")), UNSORTED.as_bytes());
}

/// A lock left by a killed urldb (a lock file nobody holds) is recognised,
/// removed with a note, and the write goes ahead.
#[test]
fn a_stale_lock_is_recognised_and_removed() {
    let tree = Tree::new();
    let db = tree.db();
    write(&db.join("a.org.yaml"), UNSORTED);
    // What a urldb killed mid-write leaves: part of the new text.
    write(&db.join("a.org.yaml.lock"), "---\n---\n_pa");
    let out = tree.run(
        &db,
        &["add", "--content-type", "text/html", "http://a.org/b"],
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains(
            "note: removed a.org.yaml.lock: left by a urldb that was killed while writing"
        ),
        "{err}"
    );
    assert!(err.contains("added /b "), "{err}");
    assert!(text(&read(&db.join("a.org.yaml"))).contains("_path: /b\n"));
    assert!(!db.join("a.org.yaml.lock").exists());
}

/// Ownership: a file another user owns, rewritten by root, keeps its owner,
/// group and mode.
#[cfg(unix)]
#[test]
fn a_rewritten_file_keeps_its_owner() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    if !is_root() {
        eprintln!("note: not root: cannot give a file to another user; skipped");
        return;
    }
    let tree = Tree::new();
    let db = tree.db();
    let file = db.join("a.org.yaml");
    write(&file, UNSORTED);
    std::os::unix::fs::chown(&file, Some(12345), Some(23456)).expect("chown");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).expect("chmod");
    for args in [
        vec!["fmt"],
        vec!["add", "--content-type", "text/html", "http://a.org/b"],
    ] {
        let out = tree.run(&db, &args);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let meta = std::fs::metadata(&file).expect("meta");
        assert_eq!((meta.uid(), meta.gid()), (12345, 23456), "urldb {args:?}");
        assert_eq!(meta.mode() & 0o7777, 0o640, "urldb {args:?}");
    }
    let mut now = String::new();
    std::fs::File::open(&file)
        .expect("open")
        .read_to_string(&mut now)
        .expect("read");
    assert!(now.contains("_path: /b\n"), "{now}");
}
