//! The GitHub Action (`action.yml`) run as a runner runs it: its steps with
//! the environment a runner sets (`GITHUB_ACTION_PATH`, `RUNNER_TEMP`),
//! annotations printed, and inputs that never reach a shell as code.
//!
//! urldb comes from the prebuilt wheel when pip finds one (one test, with
//! the wheel of `tools/build-wheel` in a local directory and a `cargo`
//! that fails if run), else from `cargo install` of the action's own
//! checkout (the other tests: pip finds no wheel, as on a platform without
//! one). Either is a release build, so every test here is ignored by the
//! plain `cargo test` and run by `.ci/run` (`cargo test --test it project
//! -- --ignored`).

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
    action_command(
        Path::new(env!("CARGO_MANIFEST_DIR")),
        workspace,
        temp,
        inputs,
        wheels,
        path,
    )
    .output()
    .expect("run the action with the tests' Python")
}

/// The command that runs the action of `action_dir` (see [`run_action_with`]);
/// the caller may add an event and environment variables.
fn action_command(
    action_dir: &Path,
    workspace: &Path,
    temp: &Path,
    inputs: &serde_json::Value,
    wheels: &Path,
    path: &[&Path],
) -> Command {
    oracles::release_bin_dir();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut cmd = Command::new(support::python());
    cmd.arg(repo.join("tests/it/support/run_action.py"))
        .arg(action_dir)
        .arg(workspace)
        .arg(temp)
        .arg(inputs.to_string())
        // The fallback's `cargo install` finds the release build the
        // end-to-end tests share already made.
        .env("CARGO_TARGET_DIR", oracles::release_target_dir())
        .env("PIP_NO_INDEX", "1")
        .env("PIP_FIND_LINKS", wheels)
        .env("PATH", oracles::path_with(path))
        .env_remove("URLDB_ALLOW_ENV")
        .env_remove("URLDB_CONFIG_FROM")
        .env_remove("URLDB_NO_SUPPRESSIONS");
    cmd
}

/// Run the action where no wheel exists: the `cargo install` fallback.
fn run_action(workspace: &Path, temp: &Path, inputs: &serde_json::Value) -> Output {
    let no_wheels = tempfile::tempdir().expect("tempdir");
    run_action_with(workspace, temp, inputs, no_wheels.path(), &[])
}

const FALLBACK: &str = "::notice title=urldb::No prebuilt urldb";

#[test]
#[ignore = "builds urldb in release, as a user installs it (minutes on two cores): run by .ci/run"]
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
    // GitHub reads an annotation's path from the repository's root, not
    // from `working-directory` (src/output/github.rs).
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
        stdout.contains("::error file=database/example.com.yaml,line=3,col=12,endLine=3,endColumn=15,title=urldb (path-escape-case)::"),
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
#[ignore = "builds urldb in release, as a user installs it (minutes on two cores): run by .ci/run"]
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
        stdout.contains(
            "::error file=database/example.test.yaml,line=3,title=urldb verify (status)::"
        ),
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
        stdout.contains("::error file=database/example.com.yaml,line=3,col=12,endLine=3,endColumn=15,title=urldb (path-escape-case)::"),
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

/// Attack 8: `python3 -m pip` in the checkout ran a committed `pip/`
/// package instead of pip, which could drop its own `urldb` where the next
/// step runs it (and `actions/cache` saves it). Nothing of the checkout
/// runs while urldb is installed.
#[test]
#[ignore = "builds urldb in release, as a user installs it (minutes on two cores): run by .ci/run"]
fn the_install_step_runs_no_code_of_the_checkout() {
    let workspace = tempfile::tempdir().expect("tempdir");
    let temp = tempfile::tempdir().expect("tempdir");
    let db = workspace.path().join("database");
    std::fs::create_dir(&db).expect("mkdir");
    std::fs::write(
        db.join("example.com.yaml"),
        "---\n---\n_path: /caf%c3%a9\ncontent-type: text/html\n",
    )
    .expect("write");
    let mark = workspace.path().join("pwned");
    // A `pip` package in the checkout's root and in the database: it
    // leaves a mark and says it installed urldb.
    for dir in [workspace.path(), db.as_path()] {
        let pip = dir.join("pip");
        std::fs::create_dir(&pip).expect("mkdir");
        std::fs::write(pip.join("__init__.py"), "").expect("write");
        std::fs::write(
            pip.join("__main__.py"),
            format!(
                "open({:?}, 'w').write('pip from the checkout ran')\n",
                mark.display().to_string()
            ),
        )
        .expect("write");
    }
    let out = run_action(
        workspace.path(),
        temp.path(),
        &serde_json::json!({"working-directory": "database"}),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!mark.exists(), "the checkout's pip ran:\n{stdout}");
    // The real pip ran, found no wheel, and cargo built urldb, which ran.
    assert!(stdout.contains(FALLBACK), "{stdout}");
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("title=urldb (path-escape-case)::"),
        "{stdout}"
    );
}

/// The cache key is the version in the action's own Cargo.toml and the
/// runner's OS and architecture: a tag moved to a release of another
/// version misses the old binary. Here the action's files are copied with
/// another version (its install then fails: there is nothing to build).
#[test]
#[ignore = "builds urldb in release, as a user installs it (minutes on two cores): run by .ci/run"]
fn the_cache_is_keyed_on_the_actions_own_version() {
    let workspace = tempfile::tempdir().expect("tempdir");
    let temp = tempfile::tempdir().expect("tempdir");
    let key = |action_dir: &Path| {
        let no_wheels = tempfile::tempdir().expect("tempdir");
        let out = action_command(
            action_dir,
            workspace.path(),
            temp.path(),
            &serde_json::json!({}),
            no_wheels.path(),
            &[],
        )
        .output()
        .expect("run the action");
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        stdout
            .lines()
            .find_map(|l| l.split(" key=").nth(1).map(str::to_string))
            .unwrap_or_else(|| panic!("no cache key in\n{stdout}"))
    };
    assert_eq!(
        key(Path::new(env!("CARGO_MANIFEST_DIR"))),
        format!("urldb-Linux-X64-{}", env!("CARGO_PKG_VERSION"))
    );
    let moved = tempfile::tempdir().expect("tempdir");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("action.yml"),
        moved.path().join("action.yml"),
    )
    .expect("copy");
    std::fs::write(
        moved.path().join("Cargo.toml"),
        "[package]\nname = \"urldb\"\nversion = \"9.9.9\"\n",
    )
    .expect("write");
    assert_eq!(key(moved.path()), "urldb-Linux-X64-9.9.9");
}

/// The inputs `allow-env` and `suppressions` reach urldb as the variables
/// it reads (`URLDB_ALLOW_ENV`, `URLDB_NO_SUPPRESSIONS`): seen by a server
/// on 127.0.0.1 as headers that urldb.toml reads from them.
#[test]
#[ignore = "builds urldb in release, as a user installs it (minutes on two cores): run by .ci/run"]
fn the_inputs_allow_env_and_suppressions_reach_urldb() {
    let server = support::http::listen(|mut stream, _| {
        use std::io::Write;
        let _ = stream.write_all(
            b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Type: text/html\r\nContent-Length: 0\r\n\r\n",
        );
    });
    let heads = || server.heads.lock().expect("lock").clone();
    let workspace = tempfile::tempdir().expect("tempdir");
    let temp = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        workspace.path().join("urldb.toml"),
        "[verify.domains.\"example.test\"]\n\
         headers = { X-Token = \"env:ACTION_SECRET\", X-No-Suppressions = \"env:URLDB_NO_SUPPRESSIONS\" }\n",
    )
    .expect("write");
    std::fs::write(
        workspace.path().join("example.test.yaml"),
        "---\n---\n_path: /ok\ncontent-type: text/html\n",
    )
    .expect("write");
    let args = format!(
        "verify --allow-private --retries 0 --map example.test=http://127.0.0.1:{}",
        server.port
    );
    let run = |inputs: serde_json::Value| {
        let no_wheels = tempfile::tempdir().expect("tempdir");
        action_command(
            Path::new(env!("CARGO_MANIFEST_DIR")),
            workspace.path(),
            temp.path(),
            &inputs,
            no_wheels.path(),
            &[],
        )
        .env("ACTION_SECRET", "s3cret-from-the-workflow")
        .output()
        .expect("run the action")
    };
    // Not allowed: urldb refuses before any request.
    let out = run(serde_json::json!({"args": args}));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    assert!(heads().is_empty());
    let out = run(serde_json::json!({
        "args": args,
        // Not a pull request (no `config-from`): each variable names its host.
        "allow-env": "ACTION_SECRET=example.test URLDB_NO_SUPPRESSIONS=example.test",
        "suppressions": "false",
    }));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert_eq!(heads().len(), 1);
    let head = heads().join("\n").to_ascii_lowercase();
    assert!(head.contains("x-token: s3cret-from-the-workflow"), "{head}");
    assert!(head.contains("x-no-suppressions: true"), "{head}");
    // Anything but true or false is refused.
    let out = run(serde_json::json!({"args": "check", "suppressions": "no"}));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    assert!(
        stdout.contains("The input suppressions is true or false."),
        "{stdout}"
    );
}

/// In a pull-request run, urldb.toml comes from the base commit (fetched
/// into a shallow checkout that lacks it): the pull request's own
/// urldb.toml, which ignores the rule its bad file breaks, is not read.
/// `config-from: ''` reads the working tree's, so the test is not vacuous.
#[test]
#[ignore = "builds urldb in release, as a user installs it (minutes on two cores): run by .ci/run"]
fn in_a_pull_request_the_configuration_is_the_bases() {
    let git = |dir: &Path, args: &[&str]| support::git(dir, args);
    let origin = tempfile::tempdir().expect("tempdir");
    let author = tempfile::tempdir().expect("tempdir");
    git(origin.path(), &["init", "-q", "--bare"]);
    let a = author.path();
    git(a, &["init", "-q"]);
    std::fs::write(a.join("urldb.toml"), "root = \"database\"\n").expect("write");
    std::fs::create_dir(a.join("database")).expect("mkdir");
    std::fs::write(
        a.join("database/example.com.yaml"),
        "---\n---\n_path: /ok\ncontent-type: text/html\n",
    )
    .expect("write");
    git(a, &["add", "-A"]);
    git(a, &["commit", "-qm", "base"]);
    let base = git(a, &["rev-parse", "HEAD"]).trim().to_string();
    std::fs::write(
        a.join("urldb.toml"),
        "root = \"database\"\n[lint]\nignore = [\"path-escape-case\"]\n",
    )
    .expect("write");
    std::fs::write(
        a.join("database/bad.example.yaml"),
        "---\n---\n_path: /caf%c3%a9\ncontent-type: text/html\n",
    )
    .expect("write");
    git(a, &["add", "-A"]);
    git(a, &["commit", "-qm", "pull request"]);
    let url = format!("file://{}", origin.path().display());
    git(a, &["push", "-q", &url, "HEAD:refs/heads/pr"]);
    let checkout = tempfile::tempdir().expect("tempdir");
    git(
        checkout.path(),
        &["clone", "-q", "--depth", "1", "--branch", "pr", &url, "."],
    );
    let temp = tempfile::tempdir().expect("tempdir");
    let event = serde_json::json!({"pull_request": {"base": {"sha": base}}});
    let run = |inputs: serde_json::Value| {
        let no_wheels = tempfile::tempdir().expect("tempdir");
        action_command(
            Path::new(env!("CARGO_MANIFEST_DIR")),
            checkout.path(),
            temp.path(),
            &inputs,
            no_wheels.path(),
            &[],
        )
        .arg(event.to_string())
        .output()
        .expect("run the action")
    };
    let out = run(serde_json::json!({}));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("::error file=database/bad.example.yaml,line=3,col=12"),
        "{stdout}"
    );
    // The pull request's urldb.toml when asked for.
    let out = run(serde_json::json!({"config-from": ""}));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// A pull-request run of `verify`: only the records the pull request
/// added or changed are requested (a broken URL it did not touch is not),
/// in a shallow checkout whose base the action fetches, and the job
/// summary shows the record-level diff beside the verdicts.
/// `verify-scope: all`, and a run without a base (a push, a schedule),
/// verify the whole database.
#[test]
#[ignore = "builds urldb in release, as a user installs it (minutes on two cores): run by .ci/run"]
fn in_a_pull_request_verify_takes_only_what_changed() {
    let server = crate::verify::outcomes::Server::start();
    let git = |dir: &Path, args: &[&str]| support::git(dir, args);
    let origin = tempfile::tempdir().expect("tempdir");
    let author = tempfile::tempdir().expect("tempdir");
    git(origin.path(), &["init", "-q", "--bare"]);
    let a = author.path();
    git(a, &["init", "-q"]);
    std::fs::create_dir(a.join("database")).expect("mkdir");
    let file = a.join("database/example.test.yaml");
    std::fs::write(
        &file,
        "---\n---\n_path: /missing\ncontent-type: text/html\n---\n_path: /plain\ncontent-type: text/html\n",
    )
    .expect("write");
    git(a, &["add", "-A"]);
    git(a, &["commit", "-qm", "base"]);
    let base = git(a, &["rev-parse", "HEAD"]).trim().to_string();
    // The pull request: /ok added, /plain's type set right; /missing
    // (broken) untouched.
    std::fs::write(
        &file,
        "---\n---\n_path: /missing\ncontent-type: text/html\n---\n_path: /ok\ncontent-type: text/html\n\
         ---\n_path: /plain\ncontent-type: text/plain\n",
    )
    .expect("write");
    git(a, &["commit", "-qam", "pull request"]);
    let url = format!("file://{}", origin.path().display());
    git(a, &["push", "-q", &url, "HEAD:refs/heads/pr"]);
    let checkout = tempfile::tempdir().expect("tempdir");
    git(
        checkout.path(),
        &["clone", "-q", "--depth", "1", "--branch", "pr", &url, "."],
    );
    let args = format!(
        "verify --allow-private --retries 0 --map {}",
        crate::verify::outcomes::map_arg(&server)
    );
    let event = serde_json::json!({"pull_request": {"base": {"sha": base}}});
    let run = |inputs: serde_json::Value, event: Option<&serde_json::Value>| {
        let temp = tempfile::tempdir().expect("tempdir");
        let no_wheels = tempfile::tempdir().expect("tempdir");
        let mut cmd = action_command(
            Path::new(env!("CARGO_MANIFEST_DIR")),
            checkout.path(),
            temp.path(),
            &inputs,
            no_wheels.path(),
            &[],
        );
        if let Some(event) = event {
            cmd.arg(event.to_string());
        }
        let out = cmd.output().expect("run the action");
        let summary =
            std::fs::read_to_string(temp.path().join("step_summary.md")).unwrap_or_default();
        (out, summary)
    };
    let (out, summary) = run(
        serde_json::json!({"args": args, "working-directory": "database"}),
        Some(&event),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(server.hits("/missing"), 0, "{stdout}");
    assert_eq!((server.hits("/ok"), server.hits("/plain")), (1, 1));
    assert!(
        summary.contains("## urldb verify\n\nAll 2 URLs passed."),
        "{summary}"
    );
    assert!(summary.contains("## urldb diff\n"), "{summary}");
    assert!(
        summary.contains("**1 record added, 0 removed, 1 changed in 1 domain file**"),
        "{summary}"
    );
    assert!(
        summary.contains("- added `/ok` `http://example.test/ok`\n"),
        "{summary}"
    );
    assert!(
        summary.contains("- changed `/plain`: `content-type` `text/html` → `text/plain`\n"),
        "{summary}"
    );
    // The whole database when asked, and outside a pull request.
    for (inputs, event) in [
        (
            serde_json::json!({"args": args, "working-directory": "database", "verify-scope": "all"}),
            Some(&event),
        ),
        (
            serde_json::json!({"args": args, "working-directory": "database"}),
            None,
        ),
    ] {
        let before = server.hits("/missing");
        let (out, summary) = run(inputs.clone(), event);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{inputs}: {stdout}");
        assert_eq!(server.hits("/missing"), before + 1, "{inputs}");
        assert!(summary.contains("**1 of 3 URLs broken.**"), "{summary}");
        assert_eq!(
            summary.contains("## urldb diff"),
            event.is_some(),
            "{summary}"
        );
    }
    // A verify-scope that is neither is refused.
    let (out, _) = run(
        serde_json::json!({"args": args, "verify-scope": "some"}),
        Some(&event),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    assert!(
        stdout.contains("The input verify-scope is changed or all."),
        "{stdout}"
    );
}

/// The action reads the command, not the first word: with the global
/// options before it (`--db database verify`, `-q verify`, `--color never
/// verify`), a pull request's `verify` still requests only what the pull
/// request changed, writes the job summary with the diff, and annotates
/// the broken URL it added, as `verify …` does.
#[test]
#[ignore = "builds urldb in release, as a user installs it (minutes on two cores): run by .ci/run"]
fn global_options_before_verify_keep_the_pull_requests_narrowing() {
    let server = crate::verify::outcomes::Server::start();
    let git = |dir: &Path, args: &[&str]| support::git(dir, args);
    let origin = tempfile::tempdir().expect("tempdir");
    let author = tempfile::tempdir().expect("tempdir");
    git(origin.path(), &["init", "-q", "--bare"]);
    let a = author.path();
    git(a, &["init", "-q"]);
    std::fs::create_dir(a.join("database")).expect("mkdir");
    let file = a.join("database/example.test.yaml");
    std::fs::write(
        &file,
        "---\n---\n_path: /missing\ncontent-type: text/html\n",
    )
    .expect("write");
    git(a, &["add", "-A"]);
    git(a, &["commit", "-qm", "base"]);
    let base = git(a, &["rev-parse", "HEAD"]).trim().to_string();
    // The pull request adds a broken URL; /missing (broken) is untouched.
    std::fs::write(
        &file,
        "---\n---\n_path: /gone/new\ncontent-type: text/html\n---\n_path: /missing\ncontent-type: text/html\n",
    )
    .expect("write");
    git(a, &["commit", "-qam", "pull request"]);
    let url = format!("file://{}", origin.path().display());
    git(a, &["push", "-q", &url, "HEAD:refs/heads/pr"]);
    let checkout = tempfile::tempdir().expect("tempdir");
    git(
        checkout.path(),
        &["clone", "-q", "--depth", "1", "--branch", "pr", &url, "."],
    );
    let verify = format!(
        "verify --allow-private --retries 0 --map {}",
        crate::verify::outcomes::map_arg(&server)
    );
    let event = serde_json::json!({"pull_request": {"base": {"sha": base}}});
    for (args, dir) in [
        (verify.clone(), "database"),
        (format!("--db database {verify}"), "."),
        (format!("-q {verify}"), "database"),
        (format!("--color never {verify}"), "database"),
    ] {
        let temp = tempfile::tempdir().expect("tempdir");
        let no_wheels = tempfile::tempdir().expect("tempdir");
        let inputs = serde_json::json!({"args": args, "working-directory": dir});
        let mut cmd = action_command(
            Path::new(env!("CARGO_MANIFEST_DIR")),
            checkout.path(),
            temp.path(),
            &inputs,
            no_wheels.path(),
            &[],
        );
        cmd.arg(event.to_string());
        let before = (server.hits("/missing"), server.hits("/gone/new"));
        let out = cmd.output().expect("run the action");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let summary =
            std::fs::read_to_string(temp.path().join("step_summary.md")).unwrap_or_default();
        assert_eq!(
            out.status.code(),
            Some(1),
            "{inputs}: {stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            (server.hits("/missing"), server.hits("/gone/new")),
            (before.0, before.1 + 1),
            "{inputs}: only what the pull request changed\n{stdout}"
        );
        assert!(
            stdout.contains(
                "::error file=database/example.test.yaml,line=3,title=urldb verify (status)::"
            ),
            "{inputs}: {stdout}"
        );
        assert!(summary.contains("## urldb diff\n"), "{inputs}: {summary}");
        assert!(
            summary.contains("- added `/gone/new` `http://example.test/gone/new`\n"),
            "{inputs}: {summary}"
        );
    }
}

/// The job summary has one budget (GitHub drops a step's summary over 1 MiB
/// whole): a pull request adding 3,000 long paths, five of them broken,
/// fills the verdicts and the record-level diff near their limits, and the
/// two together stay within 1 MiB, each saying what it left out.
#[test]
#[ignore = "builds urldb in release, as a user installs it (minutes on two cores): run by .ci/run"]
fn the_job_summary_has_one_budget_for_the_verdicts_and_the_diff() {
    let server = crate::verify::outcomes::Server::start();
    let git = |dir: &Path, args: &[&str]| support::git(dir, args);
    let origin = tempfile::tempdir().expect("tempdir");
    let author = tempfile::tempdir().expect("tempdir");
    git(origin.path(), &["init", "-q", "--bare"]);
    let a = author.path();
    git(a, &["init", "-q"]);
    std::fs::create_dir(a.join("database")).expect("mkdir");
    let file = a.join("database/example.test.yaml");
    std::fs::write(&file, "---\n---\n_path: /ok\ncontent-type: text/html\n").expect("write");
    git(a, &["add", "-A"]);
    git(a, &["commit", "-qm", "base"]);
    let base = git(a, &["rev-parse", "HEAD"]).trim().to_string();
    let long = "x".repeat(300);
    let mut paths: Vec<String> = (0..2995).map(|i| format!("/page/{i:04}-{long}")).collect();
    paths.extend((0..5).map(|i| format!("/gone/{i}-{long}")));
    paths.push("/ok".to_string());
    paths.sort();
    let mut text = String::from("---\n");
    for path in &paths {
        text.push_str(&format!("---\n_path: {path}\ncontent-type: text/html\n"));
    }
    std::fs::write(&file, text).expect("write");
    git(a, &["commit", "-qam", "pull request"]);
    let url = format!("file://{}", origin.path().display());
    git(a, &["push", "-q", &url, "HEAD:refs/heads/pr"]);
    let checkout = tempfile::tempdir().expect("tempdir");
    git(
        checkout.path(),
        &["clone", "-q", "--depth", "1", "--branch", "pr", &url, "."],
    );
    let args = format!(
        "verify --allow-private --retries 0 --concurrency 32 --map {}",
        crate::verify::outcomes::map_arg(&server)
    );
    let temp = tempfile::tempdir().expect("tempdir");
    let no_wheels = tempfile::tempdir().expect("tempdir");
    let mut cmd = action_command(
        Path::new(env!("CARGO_MANIFEST_DIR")),
        checkout.path(),
        temp.path(),
        &serde_json::json!({"args": args, "working-directory": "database"}),
        no_wheels.path(),
        &[],
    );
    cmd.arg(serde_json::json!({"pull_request": {"base": {"sha": base}}}).to_string());
    let out = cmd.output().expect("run the action");
    let summary = std::fs::read(temp.path().join("step_summary.md")).unwrap_or_default();
    let text = String::from_utf8_lossy(&summary);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(summary.len() <= 1 << 20, "{} bytes", summary.len());
    assert!(
        text.contains("**5 of 3000 URLs broken.**"),
        "{}",
        &text[..500]
    );
    assert!(text.contains("## urldb diff\n"), "the diff was left out");
    assert!(
        text.contains("**3000 records added, 0 removed, 0 changed in 1 domain file**"),
        "{}",
        &text[..2000]
    );
    // The diff was cut to what the verdicts left, and says so.
    assert!(
        text.contains("`urldb diff --format json` lists every change."),
        "{} bytes",
        summary.len()
    );
    assert!(
        summary.len() > 900_000,
        "{} bytes: the budget went unused",
        summary.len()
    );
}

/// The action finds the command past the global options that take a
/// value: it names each of them (`urldb --help` lists them), so that none
/// is taken for the command.
#[test]
fn the_action_knows_every_global_option_that_takes_a_value() {
    let help = support::urldb()
        .arg("--help")
        .output()
        .expect("urldb --help");
    let help = String::from_utf8_lossy(&help.stdout);
    let action = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("action.yml"))
        .expect("action.yml");
    let case = action
        .lines()
        .find(|l| l.trim_start().starts_with("--db|"))
        .expect("the action's case of global options with a value");
    let listed: Vec<&str> = case
        .trim()
        .split(')')
        .next()
        .expect("pattern")
        .split('|')
        .collect();
    let global = help
        .split_once("Database options:")
        .expect("global options in --help")
        .1;
    let with_value: Vec<&str> = global
        .lines()
        .filter_map(|l| {
            let l = l
                .trim_start()
                .trim_start_matches("-q, ")
                .trim_start_matches("-v, ");
            let (option, rest) = l.split_once(' ')?;
            (option.starts_with("--") && rest.starts_with('<')).then_some(option)
        })
        .collect();
    assert!(with_value.contains(&"--db") && with_value.contains(&"--threads"));
    let mut sorted = listed.clone();
    sorted.sort_unstable();
    let mut wanted = with_value.clone();
    wanted.sort_unstable();
    assert_eq!(sorted, wanted, "{case}");
}
