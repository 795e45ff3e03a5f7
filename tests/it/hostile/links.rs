//! Writes and links (`docs/security.md` §2): no writing command (`man
//! --dir`, `init`, `fmt`, `add`, `rm`, `import`) writes through a symbolic
//! link it did not create. Each test plants links as a checkout can
//! (`git` stores them), to a victim file outside the database or to
//! nothing, runs the real binary, and looks at the victim afterwards.

use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::Output;

use crate::support::run_in;

const VICTIM: &str = "the victim's own bytes\n";

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn assert_untouched(victim: &Path) {
    assert_eq!(
        std::fs::read_to_string(victim).expect("the victim is still there"),
        VICTIM
    );
}

/// `urldb man --dir` with `man/urldb-check.1 -> ../victim` planted: the
/// victim keeps its bytes, the link stays a link, the run says why
/// (exit 2) and writes no page at all (none half replaced, nothing on
/// stdout). A dangling link makes no file where it points.
#[test]
fn man_dir_never_writes_through_a_planted_link() {
    let top = tempfile::tempdir().expect("tempdir");
    let victim = top.path().join("victim");
    std::fs::write(&victim, VICTIM).expect("write");
    std::fs::create_dir(top.path().join("man")).expect("mkdir");
    symlink("../victim", top.path().join("man/urldb-check.1")).expect("symlink");
    let out = run_in(top.path(), &["man", "--dir", "man"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out)
            .contains("urldb-check.1: is a symbolic link; urldb does not write through links"),
        "{}",
        stderr(&out)
    );
    assert_untouched(&victim);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "");
    let pages: Vec<_> = std::fs::read_dir(top.path().join("man"))
        .expect("man/")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(pages, ["urldb-check.1"], "pages were written");
    assert!(
        std::fs::symlink_metadata(top.path().join("man/urldb-check.1"))
            .expect("meta")
            .file_type()
            .is_symlink()
    );

    std::fs::remove_file(top.path().join("man/urldb-check.1")).expect("rm");
    symlink("../made-by-urldb", top.path().join("man/urldb-check.1")).expect("symlink");
    let out = run_in(top.path(), &["man", "--dir", "man"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(!top.path().join("made-by-urldb").exists());
}

/// `urldb man --dir DIR` makes DIR when it does not exist (the README's
/// `~/.local/share/man/man1` on a fresh account gave a raw "os error 2"),
/// and a second run replaces its own pages.
#[test]
fn man_dir_creates_the_folder_and_replaces_its_pages() {
    let top = tempfile::tempdir().expect("tempdir");
    let dir = top.path().join(".local/share/man/man1");
    for round in 0..2 {
        let out = run_in(top.path(), &["man", "--dir", ".local/share/man/man1"]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "round {round}: {}",
            stderr(&out)
        );
        let page = std::fs::read_to_string(dir.join("urldb-check.1")).expect("a page");
        assert!(page.contains(".TH urldb-check"), "{page}");
        assert!(dir.join("urldb.1").is_file());
    }
    // A file where the folder should be is an error, not a panic.
    std::fs::write(top.path().join("file"), "").expect("write");
    let out = run_in(top.path(), &["man", "--dir", "file/man1"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

/// `urldb init` with its files planted as links (`urldb.toml`, the new
/// database's `example.com.yaml`), to the victim or to nothing, or its
/// folder planted as a link to another: refused (exit 2) before anything
/// is written, and nothing is written where they point.
#[test]
fn init_never_writes_through_a_planted_link() {
    for (link, target_name, args) in [
        ("urldb.toml", "victim", &["init"][..]),
        ("urldb.toml", "nothing", &["init"]),
        ("example.com.yaml", "nothing", &["init"]),
        ("db", "elsewhere", &["init", "db"]),
        ("db", "elsewhere", &["init", "--root", "db"]),
    ] {
        let top = tempfile::tempdir().expect("tempdir");
        let victim = top.path().join("victim");
        std::fs::write(&victim, VICTIM).expect("write");
        std::fs::create_dir(top.path().join("elsewhere")).expect("mkdir");
        let work = top.path().join("work");
        std::fs::create_dir_all(&work).expect("mkdir");
        symlink(top.path().join(target_name), work.join(link)).expect("symlink");
        let out = run_in(&work, args);
        let what = format!("{args:?} with {link} -> {target_name}");
        assert_eq!(out.status.code(), Some(2), "{what}: {}", stderr(&out));
        // (A link to a file is a file that exists, to `init`, and a folder
        // that leads out of the work tree is outside it.)
        assert!(
            stderr(&out).contains("is a symbolic link; urldb does not write through links")
                || stderr(&out).contains("already exists; init writes only new files")
                || stderr(&out).contains("is outside `.`"),
            "{what}: {}",
            stderr(&out)
        );
        assert_untouched(&victim);
        assert!(!top.path().join("nothing").exists(), "{what}");
        let elsewhere = std::fs::read_dir(top.path().join("elsewhere")).expect("read_dir");
        assert_eq!(
            elsewhere.count(),
            0,
            "{what}: wrote through the folder's link"
        );
        // Refused before anything was written.
        let made: Vec<_> = std::fs::read_dir(&work)
            .expect("read_dir")
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(made, [std::ffi::OsString::from(link)], "{what}");
    }
    // A file named like a domain file that is a link to a file outside
    // the folder is not read through (the guess reads a file for a record
    // only inside the folder), so the folder is no database to adopt:
    // `init` refuses, and writes nothing, through the link or beside it.
    let top = tempfile::tempdir().expect("tempdir");
    let victim = top.path().join("victim");
    std::fs::write(&victim, VICTIM).expect("write");
    let work = top.path().join("work");
    std::fs::create_dir_all(&work).expect("mkdir");
    symlink(&victim, work.join("example.com.yaml")).expect("symlink");
    let out = run_in(&work, &["init"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("holds YAML files that are not domain files"),
        "{}",
        stderr(&out)
    );
    assert_untouched(&victim);
    assert!(!work.join("urldb.toml").exists());
}

/// `fmt`, `check --fix`, `add`, `rm` and `import` on a database whose
/// domain file is a link to a file outside it, or whose new file's name
/// is a dangling link: nothing written through either.
#[test]
fn database_writers_never_write_through_a_planted_link() {
    let top = tempfile::tempdir().expect("tempdir");
    let victim = top.path().join("victim");
    std::fs::write(&victim, VICTIM).expect("write");
    let db = top.path().join("db");
    std::fs::create_dir(&db).expect("mkdir");
    std::fs::write(db.join("urldb.toml"), "").expect("write");
    std::fs::write(
        db.join("a.example.yaml"),
        "---\n---\n_path: /a\ncontent-type: text/html\n",
    )
    .expect("write");
    symlink("../victim", db.join("b.example.yaml")).expect("symlink");
    symlink("../made-by-urldb", db.join("c.example.yaml")).expect("symlink");
    let list = top.path().join("list.txt");
    std::fs::write(&list, "http://b.example/x\nhttp://c.example/x\n").expect("write");
    let list = list.to_string_lossy().into_owned();
    for args in [
        &["fmt"][..],
        &["fmt", "b.example.yaml"],
        &["check", "--fix"],
        &["add", "http://b.example/x"],
        &["add", "http://c.example/x"],
        &["rm", "http://b.example/"],
        &["import", "--from", "urls", &list],
    ] {
        let out = run_in(&db, args);
        assert!(
            matches!(out.status.code(), Some(1 | 2)),
            "{args:?}: {:?} {}",
            out.status.code(),
            stderr(&out)
        );
        assert_untouched(&victim);
        assert!(
            !top.path().join("made-by-urldb").exists(),
            "{args:?}: wrote through a dangling link"
        );
        for name in ["b.example.yaml", "c.example.yaml"] {
            assert!(
                std::fs::symlink_metadata(db.join(name))
                    .expect("meta")
                    .file_type()
                    .is_symlink(),
                "{args:?}: {name} replaced"
            );
        }
    }
}
