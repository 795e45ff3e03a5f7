//! Annotations land on the pull request's files: GitHub reads an
//! annotation's `file=` from the repository's root (`GITHUB_WORKSPACE`),
//! not from the directory the step ran in, so with the README's
//! `working-directory: database` every `--format github` path (`check`,
//! `fmt --check`, `verify`, `report`, `diff`) must start with `database/`
//! (`docs/output.md`, "Paths in annotations"); without a workspace, paths
//! start at the repository's top the same way.
//!
//! Run through the binary in a directory below a workspace, then held to
//! the runner's view: every command the runner reads (`support::runner`)
//! that names a file names one that exists from the workspace, and the
//! `::notice` lines, which name none, are still there.

use crate::support::{self, runner};
use crate::verify::outcomes::{Server, map_arg};

use std::path::Path;
use std::process::Output;

/// A workspace with `database/` holding a file with a finding (excused
/// once by a comment), a file `fmt` would rewrite, a file it cannot
/// format, and a domain `verify` checks against `server`.
fn workspace() -> tempfile::TempDir {
    let ws = tempfile::tempdir().expect("tempdir");
    let db = ws.path().join("database");
    std::fs::create_dir_all(db.join("sub")).expect("mkdir");
    std::fs::write(
        db.join("docs.example.org.yaml"),
        "---\n---\n_path: /caf%c3%a9\ncontent-type: text/html\n---\n_path: /b%c3%a9 # urldb: ignore[path-escape-case]\ncontent-type: text/html\n",
    )
    .expect("write");
    std::fs::write(
        db.join("sub/unsorted.example.org.yaml"),
        "---\n---\ncontent-type: text/html\n_path: /a\n",
    )
    .expect("write");
    std::fs::write(db.join("broken.example.org.yaml"), "---\n---\n_path: [\n").expect("write");
    std::fs::write(
        db.join("example.test.yaml"),
        "---\n---\n_path: /missing\ncontent-type: text/html\n---\n_path: /skipped\ncategories:\n- skip-verify\ncontent-type: text/html\n",
    )
    .expect("write");
    ws
}

/// urldb in `dir` with `args`, `--format github`, on a runner whose
/// workspace is `workspace` (or none).
fn run(dir: &Path, workspace: Option<&Path>, args: &[&str]) -> Output {
    let mut cmd = support::urldb();
    cmd.current_dir(dir)
        .args(args)
        .args(["--format", "github"])
        .env("NO_COLOR", "1")
        .env_remove("URLDB_FORMAT")
        .stdin(std::process::Stdio::null());
    if let Some(ws) = workspace {
        cmd.env("GITHUB_WORKSPACE", ws);
    }
    cmd.output().expect("run urldb")
}

/// The `file=` of each command the runner reads in `stdout`, and the
/// commands themselves.
fn files(stdout: &str) -> (Vec<String>, Vec<String>) {
    let commands: Vec<String> = runner::commands(stdout)
        .into_iter()
        .map(str::to_string)
        .collect();
    let files = commands
        .iter()
        .filter_map(|c| {
            let props = c.split("::").nth(1)?;
            props
                .split_once(' ')?
                .1
                .split(',')
                .find_map(|p| p.strip_prefix("file="))
                .map(str::to_string)
        })
        .collect();
    (files, commands)
}

/// Every command of `out` that names a file names one under `database/`
/// that exists from the workspace; returns the files and commands.
fn land_in_the_workspace(ws: &Path, out: &Output, what: &str) -> (Vec<String>, Vec<String>) {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let (files, commands) = files(&stdout);
    assert!(
        !files.is_empty(),
        "{what}: no annotation on a file\n{stdout}"
    );
    for file in &files {
        assert!(
            file.starts_with("database/") && ws.join(file).is_file(),
            "{what}: `file={file}` is no file of the workspace\n{stdout}"
        );
    }
    (files, commands)
}

#[test]
fn every_github_annotation_names_its_file_from_the_workspace() {
    let ws = workspace();
    let db = ws.path().join("database");
    let server = Server::start();
    let map = map_arg(&server);

    // check: findings, and the notice of the one a comment excused.
    let check = run(&db, Some(ws.path()), &["--no-cache", "check"]);
    assert_eq!(check.status.code(), Some(1));
    let (files, commands) = land_in_the_workspace(ws.path(), &check, "check");
    assert!(files.contains(&"database/docs.example.org.yaml".to_string()));
    assert!(files.contains(&"database/broken.example.org.yaml".to_string()));
    assert!(
        commands
            .iter()
            .any(|c| c.starts_with("::notice title=urldb::") && !c.contains("file=")),
        "{commands:#?}"
    );

    // fmt --check: the file it would rewrite and the one it cannot
    // format; the command in the message is one to run from the root.
    let fmt = run(&db, Some(ws.path()), &["--no-cache", "fmt", "--check"]);
    assert_eq!(fmt.status.code(), Some(1));
    let (files, commands) = land_in_the_workspace(ws.path(), &fmt, "fmt --check");
    assert!(files.contains(&"database/sub/unsorted.example.org.yaml".to_string()));
    assert!(files.contains(&"database/broken.example.org.yaml".to_string()));
    assert!(
        commands
            .iter()
            .any(|c| c.contains("run `urldb fmt database/sub/unsorted.example.org.yaml`")),
        "{commands:#?}"
    );

    // verify, and report of its JSON: the broken URL's record, the file
    // it could not read, and the notice of the skipped URL.
    let verify_args = [
        "verify",
        "--allow-private",
        "--retries",
        "0",
        "--domain",
        "example.test",
        "--map",
        &map,
    ];
    let verify = run(&db, Some(ws.path()), &verify_args);
    // 2: a file it could not read is an error, beside the broken URL.
    assert_eq!(verify.status.code(), Some(2));
    let (files, commands) = land_in_the_workspace(ws.path(), &verify, "verify");
    assert!(files.contains(&"database/example.test.yaml".to_string()));
    assert!(files.contains(&"database/broken.example.org.yaml".to_string()));
    assert!(
        commands
            .iter()
            .any(|c| c.starts_with("::notice title=urldb verify::") && !c.contains("file=")),
        "{commands:#?}"
    );
    let json = support::urldb()
        .current_dir(&db)
        .args(verify_args)
        .args(["--format", "json"])
        .env_remove("URLDB_FORMAT")
        .output()
        .expect("verify --format json");
    std::fs::write(ws.path().join("results.json"), &json.stdout).expect("write");
    let report = run(&db, Some(ws.path()), &["report", "../results.json"]);
    let (report_files, _) = land_in_the_workspace(ws.path(), &report, "report");
    assert_eq!(report_files, files);
    assert_eq!(server.hits("/missing"), 2, "verify ran twice");

    // Run from a sibling directory with `--db ../database`: urldb shows
    // `../database/…`, the annotations name the same files.
    let sub = ws.path().join("elsewhere");
    std::fs::create_dir(&sub).expect("mkdir");
    let check_up = run(
        &sub,
        Some(ws.path()),
        &["--no-cache", "--db", "../database", "check"],
    );
    let (up, _) = land_in_the_workspace(ws.path(), &check_up, "--db ../database check");
    assert!(
        up.contains(&"database/docs.example.org.yaml".to_string()),
        "{up:?}"
    );
}

/// Without `GITHUB_WORKSPACE` and outside any git repository, paths start
/// where urldb runs; a file outside the workspace is named from it with
/// `..`: never absolute, and never a name that GitHub would read as
/// another file of the repository.
#[test]
fn without_a_workspace_paths_start_where_urldb_runs() {
    let ws = workspace();
    let db = ws.path().join("database");
    let stdout = |out: &Output| String::from_utf8_lossy(&out.stdout).into_owned();
    let bare = run(&db, None, &["--no-cache", "check"]);
    let (here, _) = files(&stdout(&bare));
    assert!(
        here.contains(&"docs.example.org.yaml".to_string()),
        "{here:?}"
    );
    let other = tempfile::tempdir().expect("tempdir");
    let outside = run(&db, Some(other.path()), &["--no-cache", "check"]);
    let (named, _) = files(&stdout(&outside));
    assert!(!named.is_empty());
    for file in &named {
        assert!(
            file.starts_with("../") && !file.contains("/./") && other.path().join(file).is_file(),
            "{file}"
        );
    }
}

/// A git repository whose `urldb.toml` says `root = "./database"`, with a
/// change to commit: `database/example.com.yaml` changed, a record with a
/// finding, a file `fmt` would rewrite.
fn repository() -> tempfile::TempDir {
    let top = tempfile::tempdir().expect("tempdir");
    support::git(top.path(), &["init", "-q", "-b", "main"]);
    std::fs::write(top.path().join("urldb.toml"), "root = \"./database\"\n").expect("write");
    let db = top.path().join("database");
    std::fs::create_dir(&db).expect("mkdir");
    std::fs::write(
        db.join("example.com.yaml"),
        "---\n---\n_path: /a\ncontent-type: text/html\n",
    )
    .expect("write");
    support::git(top.path(), &["add", "-A"]);
    support::git(top.path(), &["commit", "-q", "-m", "first"]);
    std::fs::write(
        db.join("example.com.yaml"),
        "---\n---\n_path: /a\ncontent-type: text/plain\n---\ncontent-type: text/html\n_path: /caf%c3%a9\n",
    )
    .expect("write");
    top
}

/// Every GitHub output (`check`, `fmt --check`, `verify`, `report`,
/// `diff`) names a file the one way: from `GITHUB_WORKSPACE` when it is
/// set, else from the repository's top; never absolute and never with
/// `./` inside, with `root = "./database"`, from the top or from
/// `database/`.
#[test]
fn every_github_output_names_files_from_the_top_of_the_repository() {
    let top = repository();
    let server = Server::start();
    let map = format!("example.com={}", server.addr());
    let db = top.path().join("database");
    for dir in [top.path(), db.as_path()] {
        // The results name files from where verify ran: report them there.
        let json = support::urldb()
            .current_dir(dir)
            .args([
                "verify",
                "--allow-private",
                "--retries",
                "0",
                "--map",
                &map,
                "--format",
                "json",
            ])
            .env_remove("URLDB_FORMAT")
            .output()
            .expect("verify --format json");
        let results = top.path().join("results.json");
        std::fs::write(&results, &json.stdout).expect("write");
        let results = results.to_string_lossy().into_owned();
        for workspace in [Some(top.path()), None] {
            for args in [
                &["--no-cache", "check"][..],
                &["--no-cache", "fmt", "--check"],
                &["verify", "--allow-private", "--retries", "0", "--map", &map],
                &["report", &results],
                &["diff"],
            ] {
                let out = run(dir, workspace, args);
                let stdout = String::from_utf8_lossy(&out.stdout);
                let (files, commands) = files(&stdout);
                let what = format!("{args:?} in {} ({workspace:?})", dir.display());
                assert!(!files.is_empty(), "{what}: no annotation\n{stdout}");
                for file in &files {
                    assert_eq!(file, "database/example.com.yaml", "{what}\n{stdout}");
                }
                for command in commands.iter().filter(|c| c.contains("run `urldb")) {
                    assert!(
                        command.contains(
                            "run `urldb fmt database/example.com.yaml` from the repository's top"
                        ),
                        "{what}: {command}"
                    );
                }
            }
        }
    }
}
