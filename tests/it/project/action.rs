//! The GitHub Action (`action.yml`) run as a runner runs it: its steps with
//! the environment a runner sets (`GITHUB_ACTION_PATH`, `RUNNER_TEMP`), urldb
//! built from the action's own checkout, annotations printed, and inputs that
//! never reach a shell as code.

use crate::support;
use crate::support::oracles;

use std::path::Path;
use std::process::{Command, Output};

fn run_action(workspace: &Path, temp: &Path, inputs: &serde_json::Value) -> Output {
    oracles::release_bin_dir();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    Command::new(support::python())
        .arg(repo.join("tests/it/support/run_action.py"))
        .arg(repo)
        .arg(workspace)
        .arg(temp)
        .arg(inputs.to_string())
        // The action's `cargo install` finds the release build the
        // end-to-end tests share already made.
        .env("CARGO_TARGET_DIR", oracles::release_target_dir())
        .output()
        .expect("run the action with the tests' Python")
}

#[test]
fn action_annotates_and_never_runs_inputs_as_code() {
    let workspace = tempfile::tempdir().expect("tempdir");
    let temp = tempfile::tempdir().expect("tempdir");
    let db = workspace.path().join("database");
    std::fs::create_dir(&db).expect("mkdir");
    std::fs::write(
        db.join("example.com.yaml"),
        "---\n---\n_path: /caf%c3%a9\ncontent-type: text/html\n",
    )
    .expect("write");

    let out = run_action(
        workspace.path(),
        temp.path(),
        &serde_json::json!({"working-directory": "database"}),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("--- run: Install urldb from the action's checkout"),
        "{stdout}"
    );
    assert!(
        stdout.contains("::error file=example.com.yaml,line=3,col=12,endLine=3,endColumn=15,title=urldb (path-escape-case)::"),
        "{stdout}"
    );

    // Hostile inputs: word-split, never evaluated.
    let pwned = workspace.path().join("pwned");
    for args in [
        "check $(touch pwned)",
        "check `touch pwned`",
        "check; touch pwned",
        "check && touch pwned",
    ] {
        let out = run_action(
            workspace.path(),
            temp.path(),
            &serde_json::json!({"args": args}),
        );
        assert!(!pwned.exists(), "input {args:?} ran as code");
        assert_ne!(out.status.code(), Some(0), "{args:?}");
    }
    let out = run_action(
        workspace.path(),
        temp.path(),
        &serde_json::json!({"args": "fmt --check", "working-directory": "database"}),
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn action_verify_writes_the_job_summary_and_annotations() {
    let server = crate::verify::outcomes::Server::start();
    let workspace = tempfile::tempdir().expect("tempdir");
    let temp = tempfile::tempdir().expect("tempdir");
    let db = workspace.path().join("database");
    std::fs::create_dir(&db).expect("mkdir");
    std::fs::write(
        db.join("example.test.yaml"),
        "---\n---\n_path: /missing\ncontent-type: text/html\n---\n_path: /ok\ncontent-type: text/html\n",
    )
    .expect("write");
    let args = format!(
        "verify --allow-private --retries 0 --map {}",
        crate::verify::outcomes::map_arg(&server)
    );
    let out = run_action(
        workspace.path(),
        temp.path(),
        &serde_json::json!({"args": args, "working-directory": "database"}),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("::error file=example.test.yaml,line=3,title=urldb verify (status)::"),
        "{stdout}"
    );
    let summary = std::fs::read_to_string(temp.path().join("step_summary.md"))
        .expect("the action wrote the job summary");
    assert!(summary.contains("**1 of 2 URLs broken.**"), "{summary}");
    assert!(
        summary.contains("/missing` `HTTP 404 Not Found` at `example.test.yaml:3`"),
        "{summary}"
    );
    assert_eq!(server.hits("/missing"), 1, "verify ran once");
}
