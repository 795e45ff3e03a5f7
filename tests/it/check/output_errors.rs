//! Standard output that fails: a reader that closes the pipe early
//! (`urldb ls | head -1`) is a quiet success, as in ripgrep; a write that
//! fails (a full disk: `/dev/full`) is exit 2 with a message, never a panic
//! and never a silent success.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::Stdio;

use crate::support;

/// A database whose listing, report and diff are far larger than a pipe's
/// buffer (64 KiB), so the writer is still writing when the reader leaves.
fn big_database() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut text = String::from("---\n");
    for i in 0..4000 {
        // Keys out of order: `fmt --diff` and `check` have plenty to say.
        text.push_str(&format!(
            "---\ncontent-type: text/html\n_path: /page/{i:05}/with/a/longer/path\n"
        ));
    }
    std::fs::write(dir.path().join("example.org.yaml"), text).expect("write");
    dir
}

/// urldb in `dir` with `args`, its output and errors piped to the test.
fn spawn_piped(dir: &Path, args: &[&str]) -> std::process::Child {
    support::urldb()
        .current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("URLDB_FORMAT")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn urldb")
}

/// Run urldb in `dir` with the reading end of its output closed before it
/// writes: every command's first write meets the closed pipe, whatever the
/// size of its output (a reader that stops after one line only does so
/// once the pipe's 64 KiB buffer is full).
fn output_closed(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let mut child = spawn_piped(dir, args);
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("wait");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Run urldb in `dir`, read one line of its output, then close the pipe
/// (`| head -1`), with most of a large output unread.
fn first_line_then_close(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let mut child = spawn_piped(dir, args);
    let mut line = String::new();
    {
        let stdout = child.stdout.take().expect("stdout");
        BufReader::new(stdout).read_line(&mut line).expect("read");
    }
    let out = child.wait_with_output().expect("wait");
    (
        out.status.code(),
        line,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_closed_pipe_is_a_quiet_success() {
    let db = big_database();
    // `| head -1` on outputs far larger than the pipe's buffer.
    for args in [
        vec!["ls"],
        vec!["ls", "--format", "json"],
        vec!["export", "--to", "csv"],
        // JSON: the human formats show 50 findings per rule and file, a
        // few KiB that the pipe takes whole, and then the run ends with
        // its findings' exit 1 before the reader has closed anything.
        vec!["--no-cache", "check", "--format", "json"],
        vec!["--no-cache", "fmt", "--diff"],
    ] {
        let (code, line, err) = first_line_then_close(db.path(), &args);
        assert!(!line.is_empty(), "urldb {args:?} printed nothing");
        assert_eq!(code, Some(0), "urldb {args:?}: {err}");
        assert!(err.is_empty(), "urldb {args:?} said: {err}");
    }
    // Every command, its output closed before it writes anything.
    for args in [
        vec!["ls"],
        vec!["export", "--to", "json"],
        vec!["--no-cache", "check"],
        vec!["--no-cache", "fmt", "--check"],
        vec!["rules"],
        vec!["rule", "path-case"],
        vec!["completions", "bash"],
        vec!["man"],
    ] {
        let (code, err) = output_closed(db.path(), &args);
        assert_eq!(code, Some(0), "urldb {args:?}: {err}");
        assert!(err.is_empty(), "urldb {args:?} said: {err}");
    }
}

#[test]
fn a_failed_write_to_stdout_is_exit_2_with_a_message() {
    let db = big_database();
    for args in [
        vec!["ls"],
        vec!["export", "--to", "json"],
        vec!["--no-cache", "check"],
        vec!["--no-cache", "fmt", "--diff"],
        vec!["--no-cache", "fmt", "--check"],
        vec!["rules"],
        vec!["rule", "path-case"],
        vec!["completions", "bash"],
        vec!["man"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let out = support::urldb()
            .current_dir(db.path())
            .args(&args)
            .env("NO_COLOR", "1")
            .env_remove("URLDB_FORMAT")
            .stdin(Stdio::null())
            .stdout(full)
            .output()
            .expect("run urldb");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "urldb {args:?}: {err}");
        assert!(
            err.contains("cannot write the output") && !err.contains("panicked"),
            "urldb {args:?}: {err}"
        );
    }
}
