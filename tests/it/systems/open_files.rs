//! A domain file that another program holds open while urldb replaces it
//! (`docs/files.md`). urldb writes a file by renaming a new one over it. On
//! Unix that always works, and the other program keeps reading the old
//! text. On Windows a file opened without `FILE_SHARE_DELETE` (C's `fopen`,
//! Python's `open`, many editors) cannot be replaced while it is open: urldb
//! tries again for 2 s, then says so and leaves the file exactly as it was,
//! with no lock file behind. Never is anything lost.

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::{Duration, Instant};

use super::{Hold, hold, read, run, stderr, stdout, urldb_on_windows, write};
use crate::support;

const UNSORTED: &str = "---\n---\ncontent-type: text/html\n_path: /a\n";
const CANONICAL: &str = "---\n---\n_path: /a\ncontent-type: text/html\n";

fn database() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    write(&dir.path().join("urldb.toml"), "");
    write(&dir.path().join("sub dir/a.org.yaml"), UNSORTED);
    dir
}

#[test]
fn a_file_held_open_is_replaced_or_left_whole() {
    let db = database();
    let dir = db.path();
    let file = dir.join("sub dir/a.org.yaml");
    let held = hold(&file, Hold::Read);
    let started = Instant::now();
    let out = run(dir, &["fmt"]);
    let err = stderr(&out);
    if urldb_on_windows() {
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains(
                "note: sub dir/a.org.yaml: open in another program; trying again for up to 2 s"
            ),
            "{err}"
        );
        assert!(
            err.contains("error: sub dir/a.org.yaml: ")
                && err.contains("another program has it open and does not let it be replaced")
                && err.contains("the file is unchanged"),
            "{err}"
        );
        assert!(started.elapsed() >= Duration::from_secs(2), "no retry");
        assert!(
            stdout(&out).contains("1 not written (see above)"),
            "{}",
            stdout(&out)
        );
        assert_eq!(read(&file), UNSORTED, "the file changed");
        // `add` reads the file under the lock, then is refused the same way.
        let out = run(
            dir,
            &["add", "--content-type", "text/html", "http://a.org/b"],
        );
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(!stderr(&out).contains("added /b"), "{}", stderr(&out));
        assert_eq!(read(&file), UNSORTED, "the file changed");
    } else {
        assert_eq!(out.status.code(), Some(0), "{err}");
        assert_eq!(read(&file), CANONICAL);
    }
    assert!(
        !dir.join("sub dir/a.org.yaml.lock").exists(),
        "a lock file was left behind"
    );
    // Let go: the write goes ahead.
    drop(held);
    let out = run(dir, &["fmt"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(read(&file), CANONICAL);
}

/// A program that lets go of the file while urldb tries again: the write
/// goes ahead.
#[test]
fn a_file_let_go_while_urldb_waits_is_replaced() {
    let db = database();
    let dir = db.path();
    let file = dir.join("sub dir/a.org.yaml");
    let held = hold(&file, Hold::Read);
    let mut child = support::urldb()
        .current_dir(dir)
        .arg("fmt")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run urldb");
    let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
    let mut err = String::new();
    if urldb_on_windows() {
        // Let go once urldb says it is trying again.
        for line in lines.by_ref() {
            let line = line.expect("stderr line");
            err.push_str(&line);
            err.push('\n');
            if line.contains("open in another program; trying again") {
                break;
            }
        }
    }
    drop(held);
    for line in lines {
        err.push_str(&line.expect("stderr line"));
        err.push('\n');
    }
    let status = child.wait().expect("urldb");
    assert_eq!(status.code(), Some(0), "{err}");
    if urldb_on_windows() {
        assert!(err.contains("trying again"), "{err}");
    }
    assert_eq!(read(&file), CANONICAL);
    assert!(!dir.join("sub dir/a.org.yaml.lock").exists());
}

/// A program that shares deletion (`FILE_SHARE_DELETE`, as Rust's std
/// and .NET's `FileShare.Delete` open) does not stand in the way.
#[test]
fn a_file_open_with_delete_sharing_is_replaced() {
    let db = database();
    let dir = db.path();
    let file = dir.join("sub dir/a.org.yaml");
    let _held = hold(&file, Hold::ReadSharingDelete);
    let out = run(dir, &["fmt"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!stderr(&out).contains("trying again"), "{}", stderr(&out));
    assert_eq!(read(&file), CANONICAL);
}
