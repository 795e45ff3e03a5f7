//! The results cache, through the real binary: a second run skips clean
//! files and reports exactly what a run without the cache reports; any
//! change to a file's bytes (even one that keeps its size and modification
//! time) is seen; cross-file rules still see cached files; other options,
//! `--no-cache`, `--staged`, a corrupt cache and an unwritable directory.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::Duration;

/// Run urldb in the database `dir`, with its cache directory
/// (`$XDG_CACHE_HOME`) next to it, in the same temporary directory.
fn run_in(dir: &Path, args: &[&str]) -> Output {
    support::urldb()
        .current_dir(dir)
        .args(args)
        .env_remove("URLDB_FORMAT")
        .env("NO_COLOR", "1")
        .env("XDG_CACHE_HOME", xdg(dir))
        .stdin(Stdio::null())
        .output()
        .expect("run urldb")
}

fn xdg(dir: &Path) -> PathBuf {
    dir.parent().expect("parent").join("xdg")
}

/// A database `db/` in a temporary directory that also holds its cache.
struct Db {
    _top: tempfile::TempDir,
    path: PathBuf,
}

impl Db {
    fn path(&self) -> &Path {
        &self.path
    }
}

const CLEAN_A: &str = "---\ncnames:\n- www.a.example\n---\n_path: /a\ncontent-type: text/html\n";
const CLEAN_B: &str = "---\n---\n_path: /bcd\ncontent-type: text/html\n";
/// Same length as CLEAN_B, with a value finding (`path-escape-case`).
const BAD_B: &str = "---\n---\n_path: /%2f\ncontent-type: text/html\n";

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).expect("write");
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The `-v` summary line (after the files, one a line): (looked at,
/// unchanged, read again).
fn counts(o: &Output) -> (usize, usize, usize) {
    let err = stderr(o);
    let line = err
        .lines()
        .find(|l| l.contains(" looked at: "))
        .unwrap_or_else(|| panic!("no cache line in {err}"));
    let numbers: Vec<usize> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    (numbers[0], numbers[1], numbers[2])
}

fn db() -> Db {
    let top = tempfile::tempdir().expect("tempdir");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(top.path(), std::fs::Permissions::from_mode(0o755))
            .expect("chmod");
    }
    let path = top.path().join("db");
    std::fs::create_dir(&path).expect("mkdir");
    write(&path, "a.example.yaml", CLEAN_A);
    write(&path, "b.example.yaml", CLEAN_B);
    Db { _top: top, path }
}

/// The database's cache directory (one per database).
fn cache_dir(dir: &Path) -> PathBuf {
    std::fs::read_dir(xdg(dir).join("urldb"))
        .expect("cache dir")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.is_dir())
        .expect("the database's cache dir")
}

#[test]
fn a_second_run_skips_clean_files_and_reports_the_same() {
    let dir = db();
    write(dir.path(), "c.example.yaml", BAD_B);
    let first = run_in(dir.path(), &["check", "-v", "--format", "concise"]);
    assert_eq!(first.status.code(), Some(1), "{}", stderr(&first));
    assert_eq!(counts(&first), (3, 0, 0));
    let second = run_in(dir.path(), &["check", "-v", "--format", "concise"]);
    assert_eq!(
        counts(&second).1,
        2,
        "the two clean files come from the cache"
    );
    let uncached = run_in(dir.path(), &["--no-cache", "check", "--format", "concise"]);
    assert_eq!(stdout(&second), stdout(&uncached));
    assert_eq!(second.status.code(), uncached.status.code());
    assert!(stdout(&second).contains("c.example.yaml"));

    // The cache is out of the work tree (so out of git's way and out of
    // the database's), in the user's cache directory, tagged as a cache.
    assert_eq!(
        std::fs::read_dir(dir.path()).expect("ls").count(),
        3,
        "only the domain files"
    );
    assert!(cache_dir(dir.path()).join("CACHEDIR.TAG").is_file());
}

#[test]
fn files_older_than_the_run_are_trusted_by_their_metadata() {
    let dir = db();
    // Metadata is trusted only when the file changed well before the run.
    std::thread::sleep(Duration::from_millis(2100));
    let first = run_in(dir.path(), &["check", "-v"]);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    let second = run_in(dir.path(), &["check", "-v"]);
    assert_eq!(counts(&second), (2, 2, 0), "no file read again");
    // `touch`: read again, found unchanged, and not checked.
    let file = std::fs::File::options()
        .write(true)
        .open(dir.path().join("b.example.yaml"))
        .expect("open");
    file.set_modified(std::time::SystemTime::now())
        .expect("touch");
    let third = run_in(dir.path(), &["check", "-v"]);
    assert_eq!(counts(&third), (2, 2, 1));
}

#[test]
fn a_change_that_keeps_size_and_modification_time_is_seen() {
    let dir = db();
    let path = dir.path().join("b.example.yaml");
    // Old enough for its metadata to be trusted: only ctime can tell.
    std::thread::sleep(Duration::from_millis(2100));
    let first = run_in(dir.path(), &["check", "-v"]);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    let mtime = std::fs::metadata(&path)
        .and_then(|m| m.modified())
        .expect("mtime");
    assert_eq!(BAD_B.len(), CLEAN_B.len());
    write(dir.path(), "b.example.yaml", BAD_B);
    std::fs::File::options()
        .write(true)
        .open(&path)
        .and_then(|f| f.set_modified(mtime))
        .expect("restore mtime");
    let second = run_in(dir.path(), &["check", "-v", "--format", "concise"]);
    assert_eq!(second.status.code(), Some(1), "{}", stdout(&second));
    assert!(
        stdout(&second).contains("path-escape-case"),
        "{}",
        stdout(&second)
    );
    assert_eq!(counts(&second), (2, 1, 0));
}

#[test]
fn cross_file_rules_see_cached_files() {
    let dir = db();
    // b claims a's cname: a file-level clean pair, a cross-file conflict.
    write(
        dir.path(),
        "b.example.yaml",
        "---\ncnames:\n- www.a.example\n---\n_path: /b\ncontent-type: text/html\n",
    );
    let first = run_in(dir.path(), &["check", "-v", "--format", "concise"]);
    let second = run_in(dir.path(), &["check", "-v", "--format", "concise"]);
    assert_eq!(counts(&second).1, 2, "{}", stderr(&second));
    assert_eq!(second.status.code(), Some(1));
    assert!(
        stdout(&second).contains("cname-conflict"),
        "{}",
        stdout(&second)
    );
    assert_eq!(stdout(&first), stdout(&second));
}

#[test]
fn each_set_of_options_has_its_own_cache() {
    let dir = db();
    // Clean under a narrow selection, not under the default one.
    write(dir.path(), "c.example.yaml", BAD_B);
    let narrow = ["check", "-v", "--select", "unsorted-keys"];
    assert_eq!(run_in(dir.path(), &narrow).status.code(), Some(0));
    let again = run_in(dir.path(), &narrow);
    assert_eq!(counts(&again).1, 3);
    let full = run_in(dir.path(), &["check", "-v"]);
    assert_eq!(full.status.code(), Some(1), "{}", stdout(&full));
    assert_eq!(counts(&full).1, 0, "the narrow run's entries are not used");
}

#[test]
fn fmt_uses_the_cache_and_its_writes_are_seen() {
    let dir = db();
    write(
        dir.path(),
        "c.example.yaml",
        "---\n---\ncontent-type: text/html\n_path: /c\n",
    );
    assert_eq!(
        run_in(dir.path(), &["fmt", "--check"]).status.code(),
        Some(1)
    );
    let fmt = run_in(dir.path(), &["fmt", "-v"]);
    assert_eq!(fmt.status.code(), Some(0), "{}", stderr(&fmt));
    assert_eq!(counts(&fmt).1, 2);
    let check = run_in(dir.path(), &["fmt", "--check", "-v"]);
    assert_eq!(check.status.code(), Some(0), "{}", stdout(&check));
    let (checked, unchanged, _) = counts(&check);
    assert_eq!(
        (checked, unchanged),
        (3, 2),
        "the rewritten file is checked again"
    );
    let after = run_in(dir.path(), &["check", "-v"]);
    assert_eq!(after.status.code(), Some(0));
    assert_eq!(counts(&after).1, 3);
}

#[test]
fn no_cache_neither_reads_nor_writes_it() {
    let dir = db();
    let out = run_in(dir.path(), &["--no-cache", "check", "-v"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stderr(&out).contains("2 files checked (--no-cache)"));
    assert!(!xdg(dir.path()).exists());
}

/// A cache entry that vouches for a file with findings: a run that reads
/// the cache believes it, `--no-cache` must not.
#[cfg(unix)]
#[test]
fn no_cache_does_not_believe_the_cache() {
    use std::os::unix::fs::MetadataExt;
    let dir = db();
    assert_eq!(run_in(dir.path(), &["check"]).status.code(), Some(0));
    write(dir.path(), "b.example.yaml", BAD_B);
    let meta = std::fs::metadata(dir.path().join("b.example.yaml")).expect("stat");
    let stat = format!(
        "{},{},{},{}",
        meta.len(),
        meta.mtime() * 1_000_000_000 + meta.mtime_nsec(),
        meta.ctime() * 1_000_000_000 + meta.ctime_nsec(),
        meta.ino()
    );
    let file = cache_file(dir.path());
    let forged: String = std::fs::read_to_string(&file)
        .expect("cache text")
        .lines()
        .map(|line| match line.strip_prefix("b.example.yaml\t") {
            // key TAB hash TAB stat TAB cnames
            Some(rest) => {
                let fields: Vec<&str> = rest.split('\t').collect();
                format!("b.example.yaml\t{}\t{stat}\t{}\n", fields[0], fields[2])
            }
            None => format!("{line}\n"),
        })
        .collect();
    std::fs::write(&file, forged).expect("forge");
    let trusting = run_in(dir.path(), &["check"]);
    assert_eq!(
        trusting.status.code(),
        Some(0),
        "the forged entry is believed"
    );
    let out = run_in(dir.path(), &["--no-cache", "check", "--format", "concise"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("path-escape-case"),
        "{}",
        stdout(&out)
    );
}

/// The database's cache file (one set of options: one file).
fn cache_file(dir: &Path) -> std::path::PathBuf {
    std::fs::read_dir(cache_dir(dir))
        .expect("cache dir")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "txt"))
        .expect("cache file")
}

#[test]
fn a_corrupt_cache_is_ignored_and_replaced() {
    let dir = db();
    run_in(dir.path(), &["check"]);
    let file = cache_file(dir.path());
    let text = std::fs::read_to_string(&file).expect("cache text");
    // Keep the header, break every entry.
    let header = text.lines().next().expect("header");
    std::fs::write(
        &file,
        format!("{header}\na.example.yaml\tnot a hash\t-\t\nb.example.yaml\n"),
    )
    .expect("corrupt");
    let out = run_in(dir.path(), &["check", "-v"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(counts(&out).1, 0);
    let again = run_in(dir.path(), &["check", "-v"]);
    assert_eq!(counts(&again).1, 2, "rewritten by the previous run");
}

#[test]
fn staged_runs_do_not_use_the_work_tree_cache() {
    let dir = db();
    let git = |args: &[&str]| crate::support::git(dir.path(), args);
    git(&["init", "-q"]);
    write(dir.path(), "b.example.yaml", BAD_B);
    git(&["add", "-A"]);
    // The work tree is clean again (and cached); the index is not.
    write(dir.path(), "b.example.yaml", CLEAN_B);
    run_in(dir.path(), &["check"]);
    let staged = run_in(dir.path(), &["check", "--staged", "-v"]);
    assert_eq!(staged.status.code(), Some(1), "{}", stdout(&staged));
    assert_eq!(counts(&staged).1, 0);
    // And git does not see the cache.
    let status = std::process::Command::new("git")
        .current_dir(dir.path())
        .args(["status", "--porcelain", "--untracked-files=all"])
        .output()
        .expect("git status");
    assert_eq!(
        String::from_utf8_lossy(&status.stdout),
        "A  a.example.yaml\nAM b.example.yaml\n"
    );
}

#[cfg(unix)]
#[test]
fn an_unwritable_database_directory_runs_without_a_cache() {
    use std::os::unix::fs::PermissionsExt;
    let dir = db();
    let mode = |m: u32| {
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(m)).expect("chmod")
    };
    mode(0o555);
    // As root the directory is writable anyway: drop to nobody when root.
    let (_bin_dir, mut cmd) = if is_root() {
        support::urldb_as_nobody()
    } else {
        (tempfile::tempdir().expect("tempdir"), support::urldb())
    };
    cmd.current_dir(dir.path())
        .args(["check", "-v"])
        .env("XDG_CACHE_HOME", xdg(dir.path()));
    let out = cmd.output().expect("run");
    mode(0o755);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!xdg(dir.path()).exists());
}

#[cfg(unix)]
fn is_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    // Files we create are owned by our effective user id.
    let probe = tempfile::NamedTempFile::new().expect("probe");
    probe.as_file().metadata().expect("meta").uid() == 0
}

#[test]
fn a_file_with_comments_is_judged_right_through_the_cache() {
    let dir = db();
    let commented = "# header\n---\n---\n_path: /c # why\ncontent-type: text/html\n";
    write(dir.path(), "c.example.yaml", commented);
    // Clean (comments are kept by fmt), so cached.
    let first = run_in(dir.path(), &["check", "-v"]);
    assert_eq!(first.status.code(), Some(0), "{}", stdout(&first));
    let second = run_in(dir.path(), &["check", "-v"]);
    assert_eq!(second.status.code(), Some(0));
    assert_eq!(counts(&second).1, 3, "the commented file is cached too");
    // Selecting yaml-comment is another set of options: not skipped.
    let selected = run_in(
        dir.path(),
        &["check", "-v", "--extend-select", "yaml-comment"],
    );
    assert_eq!(selected.status.code(), Some(1), "{}", stdout(&selected));
    assert!(stdout(&selected).contains("yaml-comment"));
    // A comment out of its canonical layout (indented under nothing) is
    // seen.
    write(
        dir.path(),
        "c.example.yaml",
        "# header\n---\n---\n_path: /c\n  # why\ncontent-type: text/html\n",
    );
    let moved = run_in(dir.path(), &["check", "-v"]);
    assert_eq!(moved.status.code(), Some(1), "{}", stdout(&moved));
    assert!(
        stdout(&moved).contains("not-canonical"),
        "{}",
        stdout(&moved)
    );
}
