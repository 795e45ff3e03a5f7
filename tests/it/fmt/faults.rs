//! Fault injection with the real binary: files changed under urldb's feet,
//! read-only files and directories, symbolic links, a process killed in the
//! middle of `fmt`, two `fmt` runs at once. The promise under test is
//! the first one of `docs/dev/fuzzing.md`: no byte of user data is ever lost.

use crate::support;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use support::{Rng, run_in, urldb};

/// A record layout `fmt` rewrites (keys out of order, indented sequence,
/// extra spaces), with the value `i` in it.
fn messy_record(i: usize, rng: &mut Rng) -> String {
    let cats = ["b", "a", "c", "frontend", "zeta"];
    let mut s = format!("---\ncontent-type:   text/html\n_path: /page/{i:05}\n");
    if rng.chance(50) {
        s.push_str(&format!(
            "categories:\n  - {}\n  - {}\n",
            rng.pick(&cats),
            rng.pick(&cats)
        ));
    }
    if rng.chance(30) {
        s.push_str(&format!("note: 'text {}'\n", rng.next() % 1000));
    }
    s
}

/// A non-canonical domain file of `records` records (already sorted by
/// path, so `fmt` only changes layout, never what `check` complains of).
fn messy_file(seed: u64, records: usize) -> String {
    let mut rng = Rng::new(seed);
    let mut s = String::from("---\nhttps:   true\n");
    for i in 0..records {
        s.push_str(&messy_record(i, &mut rng));
    }
    s
}

/// A database of `n` messy files; returns the file names and their bytes.
fn messy_db(dir: &Path, n: usize, records: usize) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    for i in 0..n {
        let name = format!("d{i:04}.example.com.yaml");
        let text = messy_file(i as u64 + 1, records);
        std::fs::write(dir.join(&name), &text).expect("write");
        files.insert(name, text.into_bytes());
    }
    files
}

/// What `fmt` makes of each file: run it to completion on a copy.
fn formatted(files: &BTreeMap<String, Vec<u8>>) -> BTreeMap<String, Vec<u8>> {
    let copy = tempfile::tempdir().expect("tempdir");
    for (name, bytes) in files {
        std::fs::write(copy.path().join(name), bytes).expect("write");
    }
    let out = run_in(copy.path(), &["fmt"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    read_files(copy.path(), files.keys())
}

fn read_files<'a>(
    dir: &Path,
    names: impl Iterator<Item = &'a String>,
) -> BTreeMap<String, Vec<u8>> {
    names
        .map(|n| (n.clone(), std::fs::read(dir.join(n)).expect("read")))
        .collect()
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn no_panic(out: &std::process::Output) {
    assert!(!stderr(out).contains("panicked"), "{}", stderr(out));
}

/// Every entry of `dir` that is not one of `names`.
fn strays(dir: &Path, names: &BTreeMap<String, Vec<u8>>) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("ls")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| !names.contains_key(n))
        .collect()
}

fn spawn_fmt(dir: &Path, extra: &[&str]) -> Child {
    urldb()
        .current_dir(dir)
        .arg("fmt")
        .args(extra)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn urldb")
}

// ------------------------------------------------ changed between read and write

/// The bytes a process has read so far (`rchar` of /proc/PID/io).
#[cfg(target_os = "linux")]
fn bytes_read(pid: u32) -> Option<u64> {
    let io = std::fs::read_to_string(format!("/proc/{pid}/io")).ok()?;
    io.lines()
        .find_map(|l| l.strip_prefix("rchar: "))
        .and_then(|v| v.trim().parse().ok())
}

/// A file edited by someone else while `fmt` works on it keeps the edit:
/// a large file is read, and while urldb parses and renders it the test
/// writes new content into it; urldb must refuse to write over it.
#[cfg(target_os = "linux")]
#[test]
fn fmt_does_not_overwrite_a_file_changed_after_it_was_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("example.com.yaml");
    let text = messy_file(7, 60_000);
    std::fs::write(&path, &text).expect("write");
    let size = text.len() as u64;
    let edit = "---\n---\n_path: /edited-by-someone-else\ncontent-type: text/html\n";

    let child = spawn_fmt(dir.path(), &["--threads", "1"]);
    let pid = child.id();
    let start = Instant::now();
    let mut seen = 0;
    // Wait until urldb has read the whole file (once, not yet twice: the
    // writer reads it again just before it writes).
    while start.elapsed() < Duration::from_secs(60) {
        seen = bytes_read(pid).unwrap_or(0);
        if seen >= size {
            break;
        }
        std::thread::sleep(Duration::from_micros(200));
    }
    assert!(
        seen >= size && seen < 2 * size,
        "did not catch urldb between its read and its write (read {seen} of {size} bytes)"
    );
    std::fs::write(&path, edit).expect("edit");
    let out = child.wait_with_output().expect("wait");
    no_panic(&out);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("changed on disk since it was read"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_to_string(&path).expect("read"), edit);
    assert!(
        strays(
            dir.path(),
            &BTreeMap::from([("example.com.yaml".into(), vec![])])
        )
        .is_empty()
    );
}

/// The writer's last look: a change made while urldb writes its lock file
/// (`FILE.lock`, after every earlier check passed), by an editor that does
/// not know urldb's lock, still wins.
#[test]
fn replace_keeps_a_change_made_while_the_temporary_file_is_written() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("example.com.yaml");
    std::fs::write(&path, "old").expect("write");
    let big = vec![b'x'; 64 * 1024 * 1024];
    let watcher = {
        let dir = dir.path().to_path_buf();
        let path = path.clone();
        std::thread::spawn(move || {
            let start = Instant::now();
            while start.elapsed() < Duration::from_secs(30) {
                let temp = std::fs::read_dir(&dir)
                    .expect("ls")
                    .filter_map(Result::ok)
                    .any(|e| e.file_name().to_string_lossy().ends_with(".yaml.lock"));
                if temp {
                    std::fs::write(&path, "theirs").expect("edit");
                    return true;
                }
            }
            false
        })
    };
    let result = urldb_store::write::replace(&path, b"old", &big, &|_| {});
    assert!(watcher.join().expect("watcher"), "never saw the lock file");
    let err = result.expect_err("a changed file must not be replaced");
    assert!(
        matches!(err, urldb_store::write::WriteError::Changed { .. }),
        "{err}"
    );
    assert_eq!(std::fs::read(&path).expect("read"), b"theirs");
    // The lock file is gone.
    assert_eq!(std::fs::read_dir(dir.path()).expect("ls").count(), 1);
}

// ------------------------------------------------ read-only files and directories

#[cfg(unix)]
fn is_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    // Files we create are owned by our effective user id.
    let probe = tempfile::NamedTempFile::new().expect("probe");
    probe.as_file().metadata().expect("meta").uid() == 0
}

/// A read-only domain file is the user saying "do not touch": `fmt` and
/// `check --fix` leave it as it is and say why. (This holds for root too:
/// urldb looks at the permission bits itself instead of relying on the
/// kernel, which lets root write anything and lets anyone rename over a
/// read-only file in a writable directory.)
#[cfg(unix)]
#[test]
fn read_only_file_is_not_rewritten() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("example.com.yaml");
    let messy = messy_file(3, 5);
    std::fs::write(&path, &messy).expect("write");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).expect("chmod");
    for args in [&["fmt"][..], &["check", "--fix"]] {
        let out = run_in(dir.path(), args);
        no_panic(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("example.com.yaml") && stderr(&out).contains("read-only"),
            "{args:?}: {}",
            stderr(&out)
        );
        assert_eq!(std::fs::read_to_string(&path).expect("read"), messy);
        assert_eq!(
            std::fs::metadata(&path).expect("meta").permissions().mode() & 0o777,
            0o444
        );
    }
    assert_eq!(std::fs::read_dir(dir.path()).expect("ls").count(), 1);
    // `check` without --fix only reads: it still reports the layout.
    let out = run_in(dir.path(), &["check", "--format", "concise"]);
    assert_eq!(out.status.code(), Some(1));
}

/// A directory urldb may not write to: the temporary file cannot be made,
/// the error names the file, the run goes on with other files, nothing is
/// lost. Root ignores permission bits, so as root the binary runs as the
/// user `nobody` (uid 65534), for whom they hold.
#[cfg(unix)]
#[test]
fn read_only_directory_is_reported_and_the_rest_is_formatted() {
    use std::os::unix::fs::PermissionsExt;
    let root = is_root();
    let dir = tempfile::tempdir().expect("tempdir");
    let locked = dir.path().join("locked");
    let open = dir.path().join("open");
    std::fs::create_dir(&locked).expect("mkdir");
    std::fs::create_dir(&open).expect("mkdir");
    // The database is both folders: urldb.toml says so (without it, two
    // folders of domain files are for the user to tell apart).
    std::fs::write(dir.path().join("urldb.toml"), "").expect("write");
    let messy = messy_file(4, 3);
    std::fs::write(locked.join("a.example.com.yaml"), &messy).expect("write");
    std::fs::write(open.join("b.example.com.yaml"), &messy).expect("write");
    let mode = |p: &Path, m: u32| {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).expect("chmod")
    };
    if root {
        for p in [dir.path(), &open, &open.join("b.example.com.yaml")] {
            std::os::unix::fs::chown(p, Some(65534), Some(65534)).expect("chown");
        }
        std::os::unix::fs::chown(&locked, Some(65534), Some(65534)).expect("chown");
        std::os::unix::fs::chown(locked.join("a.example.com.yaml"), Some(65534), Some(65534))
            .expect("chown");
    }
    mode(dir.path(), 0o755);
    mode(&locked, 0o555);
    let (_bin_dir, mut cmd) = if root {
        support::urldb_as_nobody()
    } else {
        (tempfile::tempdir().expect("tempdir"), urldb())
    };
    cmd.current_dir(dir.path())
        .arg("fmt")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null());
    let out = cmd.output().expect("run urldb");
    mode(&locked, 0o755);
    no_panic(&out);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("a.example.com.yaml"),
        "{}",
        stderr(&out)
    );
    assert!(
        stderr(&out).to_lowercase().contains("permission denied"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        std::fs::read_to_string(locked.join("a.example.com.yaml")).expect("read"),
        messy
    );
    assert_eq!(std::fs::read_dir(&locked).expect("ls").count(), 1);
    // The file in the writable directory was formatted.
    let b = std::fs::read_to_string(open.join("b.example.com.yaml")).expect("read");
    assert_ne!(b, messy);
    assert!(
        b.starts_with("---\nhttps: true\n---\n_path: /page/00000\n"),
        "{b}"
    );
}

// ------------------------------------------------ symbolic links

/// A domain file that is a link to another file of the database: read and
/// checked, never written through (the target is formatted as itself).
#[cfg(unix)]
#[test]
fn symlinked_domain_file_inside_the_database_is_not_written_through() {
    let dir = tempfile::tempdir().expect("tempdir");
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).expect("mkdir");
    let messy = messy_file(5, 3);
    let target = sub.join("real.example.com.yaml");
    std::fs::write(&target, &messy).expect("write");
    let link = dir.path().join("link.example.com.yaml");
    std::os::unix::fs::symlink("sub/real.example.com.yaml", &link).expect("symlink");
    // Only the link is named: the target must stay as it is.
    for args in [
        &["fmt", "link.example.com.yaml"][..],
        &["check", "--fix", "link.example.com.yaml"],
    ] {
        let out = run_in(dir.path(), args);
        no_panic(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?} {}", stderr(&out));
        assert!(
            stderr(&out).contains("link.example.com.yaml")
                && stderr(&out).contains("symbolic link"),
            "{}",
            stderr(&out)
        );
        assert_eq!(std::fs::read_to_string(&target).expect("read"), messy);
        assert!(
            std::fs::symlink_metadata(&link)
                .expect("meta")
                .file_type()
                .is_symlink()
        );
    }
    // `check` reads through it like a file.
    let out = run_in(
        dir.path(),
        &["check", "--format", "json", "link.example.com.yaml"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("not-canonical"));
}

/// Links out of the database: a file link is refused, a directory link is
/// not followed — nothing outside the root is written.
#[cfg(unix)]
#[test]
fn symlinks_pointing_outside_the_database_are_never_written() {
    let db = tempfile::tempdir().expect("tempdir");
    let outside = tempfile::tempdir().expect("tempdir");
    let messy = messy_file(6, 3);
    let out_file = outside.path().join("x.example.com.yaml");
    std::fs::write(&out_file, &messy).expect("write");
    std::fs::create_dir(outside.path().join("tree")).expect("mkdir");
    let out_tree_file = outside.path().join("tree/y.example.com.yaml");
    std::fs::write(&out_tree_file, &messy).expect("write");
    std::os::unix::fs::symlink(&out_file, db.path().join("x.example.com.yaml")).expect("link");
    std::os::unix::fs::symlink(outside.path().join("tree"), db.path().join("tree")).expect("link");
    std::fs::write(db.path().join("inside.example.com.yaml"), &messy).expect("write");

    for args in [&["fmt"][..], &["check", "--fix"]] {
        let out = run_in(db.path(), args);
        no_panic(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?} {}", stderr(&out));
        assert!(
            stderr(&out).contains("x.example.com.yaml") && stderr(&out).contains("symbolic link"),
            "{}",
            stderr(&out)
        );
        assert!(
            !stderr(&out).contains("y.example.com.yaml"),
            "{}",
            stderr(&out)
        );
        assert_eq!(std::fs::read_to_string(&out_file).expect("read"), messy);
        assert_eq!(
            std::fs::read_to_string(&out_tree_file).expect("read"),
            messy
        );
    }
    // The real file inside the database was formatted.
    assert_ne!(
        std::fs::read_to_string(db.path().join("inside.example.com.yaml")).expect("read"),
        messy
    );
    // Nothing was left outside.
    assert_eq!(std::fs::read_dir(outside.path()).expect("ls").count(), 2);
}

// ------------------------------------------------ killed in the middle

/// SIGKILL in the middle of `fmt` over 1,000 files: every file is byte for
/// byte either what it was or what `fmt` writes, never a mix or a partial
/// write; leftovers can only be urldb's lock files (`FILE.lock`), which no
/// later run takes for domain files; a second run finishes the job.
#[cfg(unix)]
#[test]
fn killed_fmt_leaves_every_file_old_or_new() {
    let dir = tempfile::tempdir().expect("tempdir");
    let old = messy_db(dir.path(), 1000, 12);
    let new = formatted(&old);
    assert!(old.iter().all(|(n, b)| new[n] != *b), "every file changes");

    // urldb checks every file, then writes: the first lock file it
    // creates changes the directory's mtime. Kill it at several points
    // after that, each time from the old files again. How long the writes
    // take depends on the machine's load, so the delays cycle until three
    // kills have landed mid-run (every kill is checked, caught or not).
    const DELAYS_MS: [u64; 9] = [0, 1, 2, 5, 10, 20, 40, 80, 150];
    let mut caught = 0;
    for attempt in 0..45 {
        if caught >= 3 {
            break;
        }
        let delay_ms = DELAYS_MS[attempt % DELAYS_MS.len()];
        let dir_mtime = || {
            std::fs::metadata(dir.path())
                .and_then(|m| m.modified())
                .expect("mtime")
        };
        let before = dir_mtime();
        let mut child = spawn_fmt(dir.path(), &["--threads", "2"]);
        let start = Instant::now();
        while dir_mtime() == before && start.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(Duration::from_micros(100));
        }
        std::thread::sleep(Duration::from_millis(delay_ms));
        child.kill().expect("SIGKILL");
        child.wait().expect("wait");
        let now = read_files(dir.path(), old.keys());
        let mut n_new = 0;
        for (name, bytes) in &now {
            if *bytes == new[name] {
                n_new += 1;
            } else {
                assert_eq!(*bytes, old[name], "{name} is neither old nor new");
            }
        }
        for stray in strays(dir.path(), &old) {
            assert!(stray.ends_with(".yaml.lock"), "unexpected file {stray}");
        }
        if n_new > 0 && n_new < old.len() {
            caught += 1;
        }
        for (name, bytes) in &old {
            std::fs::write(dir.path().join(name), bytes).expect("restore");
        }
    }
    assert!(caught > 0, "never killed urldb in the middle of its run");

    // A later run sees exactly the domain files (no lock file is taken for
    // one) and finishes the job: a killed run's lock, which no process
    // holds, is removed.
    let out = run_in(dir.path(), &["fmt", "--check"]);
    no_panic(&out);
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        report.contains("1000 files would be reformatted, 0 files left unchanged"),
        "{report}"
    );
    assert!(!report.contains(".lock"), "{report}");
    let out = run_in(dir.path(), &["fmt"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(read_files(dir.path(), old.keys()), new);
}

// ------------------------------------------------ permissions

#[cfg(unix)]
#[test]
fn permissions_survive_a_rewrite() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let modes = [0o640, 0o755, 0o600, 0o664, 0o700, 0o604];
    let messy = messy_file(8, 3);
    for (i, mode) in modes.iter().enumerate() {
        let path = dir.path().join(format!("m{i}.example.com.yaml"));
        std::fs::write(&path, &messy).expect("write");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(*mode)).expect("chmod");
    }
    let out = run_in(dir.path(), &["fmt"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    for (i, mode) in modes.iter().enumerate() {
        let path = dir.path().join(format!("m{i}.example.com.yaml"));
        assert_ne!(std::fs::read_to_string(&path).expect("read"), messy);
        let got = std::fs::metadata(&path).expect("meta").permissions().mode() & 0o7777;
        assert_eq!(
            got,
            *mode,
            "{}: {got:o} instead of {mode:o}",
            path.display()
        );
    }
    // check --fix keeps them too.
    let path = dir.path().join("fix.example.com.yaml");
    std::fs::write(&path, "---\n---\n_path: /A%7e\ncontent-type: text/html\n").expect("write");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).expect("chmod");
    let out = run_in(dir.path(), &["check", "--fix"]);
    no_panic(&out);
    assert_eq!(
        std::fs::read_to_string(&path).expect("read"),
        "---\n---\n_path: /A~\ncontent-type: text/html\n"
    );
    assert_eq!(
        std::fs::metadata(&path).expect("meta").permissions().mode() & 0o7777,
        0o640
    );
}

// ------------------------------------------------ concurrent runs

/// Two `fmt` runs at once on the same database: each file is written by
/// one of them or refused as changed by the other, and in the end every
/// file is exactly its canonical text.
#[test]
fn two_fmt_runs_at_once_lose_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let old = messy_db(dir.path(), 300, 20);
    let new = formatted(&old);
    let a = spawn_fmt(dir.path(), &["--threads", "1"]);
    let b = spawn_fmt(dir.path(), &["--threads", "1"]);
    for child in [a, b] {
        let out = child.wait_with_output().expect("wait");
        no_panic(&out);
        // 0: wrote; 2: some file was already rewritten by the other run
        // and was left alone.
        assert!(matches!(out.status.code(), Some(0 | 2)), "{}", stderr(&out));
        for line in stderr(&out).lines().filter(|l| l.starts_with("error")) {
            assert!(line.contains("changed on disk since it was read"), "{line}");
        }
    }
    assert_eq!(read_files(dir.path(), old.keys()), new);
    assert!(
        strays(dir.path(), &old).is_empty(),
        "{:?}",
        strays(dir.path(), &old)
    );
    let out = run_in(dir.path(), &["fmt", "--check"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// A committed `X.yaml.lock` that is a directory or a symbolic link can
/// never be urldb's lock: each such file is an immediate, clear error
/// (nothing written to it), not the full lock wait, and the other files
/// are formatted.
#[cfg(unix)]
#[test]
fn a_lock_that_is_not_a_file_is_an_error_at_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let messy = messy_file(2, 1);
    for i in 0..3 {
        let name = format!("d{i}.example.com.yaml");
        std::fs::write(dir.path().join(&name), &messy).expect("write");
        std::fs::create_dir(dir.path().join(format!("{name}.lock"))).expect("mkdir");
    }
    std::fs::write(dir.path().join("l.example.com.yaml"), &messy).expect("write");
    std::os::unix::fs::symlink("/tmp", dir.path().join("l.example.com.yaml.lock")).expect("link");
    std::fs::write(dir.path().join("ok.example.com.yaml"), &messy).expect("write");
    let started = std::time::Instant::now();
    let out = run_in(dir.path(), &["fmt"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(5),
        "waited: {stderr}"
    );
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr
            .matches("is a directory, not a lock urldb takes")
            .count(),
        3,
        "{stderr}"
    );
    assert!(
        stderr.contains("is a symbolic link, not a lock urldb takes"),
        "{stderr}"
    );
    for name in ["d0", "d1", "d2", "l"] {
        let text = std::fs::read_to_string(dir.path().join(format!("{name}.example.com.yaml")));
        assert_eq!(text.expect("read"), messy, "{name} written");
    }
    let ok = std::fs::read_to_string(dir.path().join("ok.example.com.yaml")).expect("read");
    assert_ne!(ok, messy, "the file without a stray lock is formatted");
}
