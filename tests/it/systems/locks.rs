//! Lock files on every system (`docs/files.md`): a `FILE.lock` that a live
//! writer holds is waited for, then explained; one that a killed writer
//! left (not held, older than 2 s) is removed with a note and the write
//! goes ahead. On Windows "held" is a `LockFileEx` lock, which Windows lets
//! go of when the process ends, and "the same file" is its volume serial
//! number and file index.

use std::time::{Duration, Instant, SystemTime};

use super::{Hold, hold, read, run, stderr, write};

const UNSORTED: &str = "---\n---\ncontent-type: text/html\n_path: /a\n";

fn database() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    write(&dir.path().join("urldb.toml"), "");
    write(&dir.path().join("sub dir/a.org.yaml"), UNSORTED);
    dir
}

#[test]
fn a_lock_held_by_another_writer_is_waited_for_then_explained() {
    let db = database();
    let dir = db.path();
    let file = dir.join("sub dir/a.org.yaml");
    let lock = dir.join("sub dir/a.org.yaml.lock");
    write(&lock, "");
    let held = hold(&lock, Hold::Lock);
    // Old enough to be taken for a killed writer's, were it not held.
    let old = SystemTime::now() - Duration::from_secs(60);
    std::fs::File::options()
        .write(true)
        .open(&lock)
        .and_then(|f| f.set_modified(old))
        .expect("age the lock");
    let started = Instant::now();
    let out = run(dir, &["fmt"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("sub dir/a.org.yaml.lock: exists")
            && err.contains("another urldb is writing sub dir/a.org.yaml")
            && err.contains("if no urldb is running"),
        "{err}"
    );
    assert!(
        started.elapsed() >= Duration::from_secs(9),
        "gave up without waiting: {err}"
    );
    assert_eq!(read(&file), UNSORTED);
    assert!(lock.exists(), "a held lock was removed");
    drop(held);
    // Still there, now nobody's: removed as a killed writer's, then written.
    let out = run(dir, &["fmt"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("note: removed sub dir/a.org.yaml.lock: left by a urldb that was killed"),
        "{err}"
    );
    assert_ne!(read(&file), UNSORTED);
    assert!(!lock.exists());
}

#[test]
fn a_lock_left_by_a_killed_writer_is_removed() {
    let db = database();
    let dir = db.path();
    let lock = dir.join("sub dir/a.org.yaml.lock");
    // What a urldb killed mid-write leaves: part of the new text.
    write(&lock, "---\n---\n_pa");
    let old = SystemTime::now() - Duration::from_secs(60);
    std::fs::File::options()
        .write(true)
        .open(&lock)
        .and_then(|f| f.set_modified(old))
        .expect("age the lock");
    let out = run(
        dir,
        &["add", "--content-type", "text/html", "http://a.org/b"],
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("note: removed sub dir/a.org.yaml.lock: left by a urldb that was killed"),
        "{err}"
    );
    assert!(read(&dir.join("sub dir/a.org.yaml")).contains("_path: /b\n"));
    assert!(!lock.exists());
}
