//! Standard output that fails: a reader that closes the pipe early
//! (`urldb check | head -1`) changes nothing but what is printed: the
//! command runs to its end and exits with the status its findings give,
//! so that `set -o pipefail` with a trimmed log keeps a red job red
//! (`docs/output.md`, "A closed output"); a write that fails (a full
//! disk: `/dev/full`) is exit 2 with a message, never a panic and never a
//! silent success.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::Stdio;

use crate::support;
use crate::verify::outcomes::{Server, map_arg, record};

/// A pipe's buffer on Linux: an output larger than this is still being
/// written when a reader that stops after one line leaves.
const PIPE_BUFFER: usize = 64 * 1024;

/// A database whose listing, report and diff are far larger than a pipe's
/// buffer, with one record `ls` and `export` leave out (exit 1, as a
/// finding: `docs/urls.md`), so that every command here has a verdict
/// that is not success.
fn big_database() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("example.org.yaml"), big_text(4000)).expect("write");
    dir
}

/// `n` records with their keys out of order (`fmt --diff` and `check`
/// have plenty to say), then one whose `_path` names another host.
fn big_text(n: usize) -> String {
    let mut text = String::from("---\n");
    for i in 0..n {
        text.push_str(&format!(
            "---\ncontent-type: text/html\n_path: /page/{i:05}/with/a/longer/path\n"
        ));
    }
    text.push_str("---\n_path: .attacker.example/steal\ncontent-type: text/html\n");
    text
}

/// urldb in `dir` with `args`, its output and errors piped to the test.
fn spawn_piped(dir: &Path, args: &[&str]) -> std::process::Child {
    support::urldb()
        .current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("URLDB_FORMAT")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn urldb")
}

/// Run urldb in `dir` with its whole output read: the exit status and the
/// size of the output.
fn read_whole(dir: &Path, args: &[&str]) -> (Option<i32>, usize, String) {
    let out = spawn_piped(dir, args).wait_with_output().expect("wait");
    (
        out.status.code(),
        out.stdout.len(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
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

/// urldb `args` in `dir` exits `expected` whether its output is read to
/// the end, read for one line and closed, or closed before it writes;
/// its whole output is larger than a pipe's buffer, so the reader of one
/// line leaves while it is still writing.
fn same_status_however_read(dir: &Path, args: &[&str], expected: i32) {
    let (code, size, err) = read_whole(dir, args);
    assert_eq!(code, Some(expected), "urldb {args:?} read whole: {err}");
    assert!(
        size > PIPE_BUFFER,
        "urldb {args:?} printed {size} bytes, no more than a pipe holds"
    );
    let (code, line, err) = first_line_then_close(dir, args);
    assert!(!line.is_empty(), "urldb {args:?} printed nothing");
    assert_eq!(code, Some(expected), "urldb {args:?} | head -1: {err}");
    assert!(
        !err.contains("cannot write") && !err.contains("panicked"),
        "urldb {args:?} | head -1 said: {err}"
    );
    let (code, err) = output_closed(dir, args);
    assert_eq!(code, Some(expected), "urldb {args:?} >&-: {err}");
}

#[test]
fn a_closed_pipe_never_changes_the_exit_status() {
    let db = big_database();
    // ls and export leave out the record whose path names another host:
    // exit 1 (`docs/urls.md`), and so with the reader gone.
    for args in [
        vec!["ls"],
        vec!["ls", "--format", "json"],
        vec!["export", "--to", "csv"],
        vec!["export", "--to", "json"],
        // check: findings; fmt: files to reformat.
        vec!["--no-cache", "check", "--format", "json"],
        vec!["--no-cache", "fmt", "--diff"],
    ] {
        same_status_however_read(db.path(), &args, 1);
    }
    // The human formats show 50 findings of a rule in a file: many files
    // make their output large.
    let many = tempfile::tempdir().expect("tempdir");
    for i in 0..200 {
        std::fs::write(
            many.path().join(format!("host{i:03}.example.org.yaml")),
            big_text(5),
        )
        .expect("write");
    }
    for format in ["full", "concise"] {
        same_status_however_read(many.path(), &["--no-cache", "check", "--format", format], 1);
    }
    // Nothing to find: success, whoever reads.
    let clean = tempfile::tempdir().expect("tempdir");
    let mut text = String::from("---\n");
    for i in 0..4000 {
        text.push_str(&format!(
            "---\n_path: /page/{i:05}/with/a/longer/path\ncontent-type: text/html\n"
        ));
    }
    std::fs::write(clean.path().join("example.org.yaml"), text).expect("write");
    same_status_however_read(clean.path(), &["ls"], 0);
    // Commands whose output is small, closed before they write.
    for (args, expected) in [
        (vec!["--no-cache", "fmt", "--check"], 1),
        (vec!["rules"], 0),
        (vec!["rule", "path-case"], 0),
        (vec!["completions", "bash"], 0),
        (vec!["man"], 0),
    ] {
        let (code, err) = output_closed(db.path(), &args);
        assert_eq!(code, Some(expected), "urldb {args:?}: {err}");
        assert!(err.is_empty(), "urldb {args:?} said: {err}");
    }
}

/// `diff --exit-code` says a change with exit 1, and a reader that stops
/// early does not turn it into 0.
#[test]
fn a_closed_pipe_keeps_diffs_exit_code() {
    let repo = crate::diff::Repo::new();
    repo.write("example.org.yaml", &big_text(3000));
    repo.commit("first");
    repo.write(
        "example.org.yaml",
        &big_text(3000).replace("text/html", "text/plain"),
    );
    same_status_however_read(repo.root(), &["diff", "--exit-code"], 1);
    same_status_however_read(repo.root(), &["diff", "--exit-code", "--format", "json"], 1);
}

/// `verify` with thousands of broken URLs, and `report` of its results:
/// exit 1 however the output is read.
#[test]
fn a_closed_pipe_keeps_verifys_and_reports_broken_urls() {
    let server = Server::start();
    let dir = tempfile::tempdir().expect("tempdir");
    let mut text = String::from("---\n");
    for i in 0..1500 {
        text.push_str("---\n");
        text.push_str(&record(
            &format!("/gone/{i:05}/a/path/long/enough/to/fill/the/pipe"),
            "text/html",
            &[],
        ));
    }
    std::fs::write(dir.path().join("example.test.yaml"), text).expect("write");
    let map = map_arg(&server);
    let verify = ["verify", "--allow-private", "--retries", "0", "--map", &map];
    same_status_however_read(dir.path(), &verify, 1);
    same_status_however_read(
        dir.path(),
        &[&verify[..], &["--format", "json"]].concat(),
        1,
    );
    let mut json = Vec::new();
    spawn_piped(dir.path(), &[&verify[..], &["--format", "json"]].concat())
        .stdout
        .take()
        .expect("stdout")
        .read_to_end(&mut json)
        .expect("read");
    let results = dir.path().join("results.json");
    std::fs::write(&results, json).expect("write");
    same_status_however_read(dir.path(), &["report", "results.json"], 1);
    same_status_however_read(
        dir.path(),
        &["report", "results.json", "--format", "json"],
        1,
    );
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
