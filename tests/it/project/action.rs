//! The GitHub Action (`action.yml`) run as a runner runs it: its steps with
//! the environment a runner sets (`GITHUB_ACTION_PATH`, `RUNNER_TEMP`),
//! annotations printed, and inputs that never reach a shell as code.
//!
//! urldb comes from the prebuilt wheel when pip finds one (the ignored
//! test, with the wheel of `tools/build-wheel` in a local directory and a
//! `cargo` that fails if run), else from `cargo install` of the action's own
//! checkout (the other tests: pip finds no wheel, as on a platform without
//! one).

use crate::support;
use crate::support::oracles;

use std::path::Path;
use std::process::{Command, Output};

/// Run the action. pip looks for the wheel in `wheels` only (never on
/// PyPI); `path` goes first on `PATH`.
fn run_action_with(
    workspace: &Path,
    temp: &Path,
    inputs: &serde_json::Value,
    wheels: &Path,
    path: &[&Path],
) -> Output {
    oracles::release_bin_dir();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    Command::new(support::python())
        .arg(repo.join("tests/it/support/run_action.py"))
        .arg(repo)
        .arg(workspace)
        .arg(temp)
        .arg(inputs.to_string())
        // The fallback's `cargo install` finds the release build the
        // end-to-end tests share already made.
        .env("CARGO_TARGET_DIR", oracles::release_target_dir())
        .env("PIP_NO_INDEX", "1")
        .env("PIP_FIND_LINKS", wheels)
        .env("PATH", oracles::path_with(path))
        .output()
        .expect("run the action with the tests' Python")
}

/// Run the action where no wheel exists: the `cargo install` fallback.
fn run_action(workspace: &Path, temp: &Path, inputs: &serde_json::Value) -> Output {
    let no_wheels = tempfile::tempdir().expect("tempdir");
    run_action_with(workspace, temp, inputs, no_wheels.path(), &[])
}

const FALLBACK: &str = "::notice title=urldb::No prebuilt urldb";

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
    // No wheel: cargo builds urldb, and the log says so.
    assert!(stdout.contains("--- run: Install urldb\n"), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "{FALLBACK} {} for this runner (the urldb-cli wheel); building it from the action's checkout with cargo install",
            env!("CARGO_PKG_VERSION")
        )),
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

/// With the wheel of the action's version where pip looks, the action
/// installs it and never runs cargo: `cargo` on `PATH` is a script that
/// fails loudly and leaves a mark.
#[test]
#[ignore = "builds the wheel, a third release build (tools/build-wheel): run by .ci/run"]
fn action_installs_the_prebuilt_wheel_without_cargo() {
    let wheels = super::wheel::wheel_dir();
    let workspace = tempfile::tempdir().expect("tempdir");
    let temp = tempfile::tempdir().expect("tempdir");
    let db = workspace.path().join("database");
    std::fs::create_dir(&db).expect("mkdir");
    std::fs::write(
        db.join("example.com.yaml"),
        "---\n---\n_path: /caf%c3%a9\ncontent-type: text/html\n",
    )
    .expect("write");
    let shims = tempfile::tempdir().expect("tempdir");
    let mark = shims.path().join("cargo-ran");
    super::wheel::failing_cargo(shims.path(), &mark);

    let out = run_action_with(
        workspace.path(),
        temp.path(),
        &serde_json::json!({"working-directory": "database"}),
        wheels,
        &[shims.path()],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}{stderr}");
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(
        stdout.contains(&format!(
            "Installed the prebuilt urldb {} (the urldb-cli wheel) with pip.",
            env!("CARGO_PKG_VERSION")
        )),
        "{stdout}"
    );
    assert!(!stdout.contains(FALLBACK), "{stdout}");
    assert!(!mark.exists(), "cargo ran:\n{stdout}\n{stderr}");
    assert!(
        stdout.contains("::error file=example.com.yaml,line=3,col=12,endLine=3,endColumn=15,title=urldb (path-escape-case)::"),
        "{stdout}"
    );
    // What ran is the wheel's binary, byte for byte.
    let installed =
        std::fs::read(temp.path().join("urldb/bin/urldb")).expect("the installed urldb");
    assert_eq!(
        installed,
        super::wheel::wheel_binary(),
        "not the wheel's urldb"
    );

    // The fallback is that same `cargo`: without the wheel, it runs.
    let temp = tempfile::tempdir().expect("tempdir");
    let no_wheels = tempfile::tempdir().expect("tempdir");
    let out = run_action_with(
        workspace.path(),
        temp.path(),
        &serde_json::json!({"working-directory": "database"}),
        no_wheels.path(),
        &[shims.path()],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains(FALLBACK), "{stdout}");
    assert!(mark.exists(), "the fallback did not reach cargo:\n{stdout}");
    assert_ne!(out.status.code(), Some(0), "{stdout}");
}
