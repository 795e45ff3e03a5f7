//! `verify` across a CI matrix: `--shard K/N`, results merged by `urldb
//! report`, `--format markdown`, and `--history` telling new failures
//! from persistent and flaky ones, against a real server on 127.0.0.1
//! (the one of `tests/it/verify/outcomes.rs`).

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

#[cfg(unix)]
use crate::support::git;
use crate::support::urldb;
use crate::verify::outcomes::{Run, Server, database, json, map_arg, record, verify};

/// A database of `pages` URLs that answer, `gone` that are 404, and the
/// given extra paths.
fn many(pages: usize, gone: usize, extra: &[&str]) -> tempfile::TempDir {
    let mut records: Vec<String> = (0..pages)
        .map(|i| record(&format!("/page/{i}"), "text/html", &[]))
        .collect();
    records.extend((0..gone).map(|i| record(&format!("/gone/{i}"), "text/html", &[])));
    records.extend(extra.iter().map(|p| record(p, "text/html", &[])));
    let refs: Vec<&str> = records.iter().map(String::as_str).collect();
    database("", &refs)
}

fn check(dir: &Path, server: &Server, extra: &[&str]) -> Run {
    let map = map_arg(server);
    let mut args = vec!["--allow-private", "--retries", "0", "--map", &map];
    args.extend_from_slice(extra);
    verify(dir, &args)
}

fn report(dir: &Path, args: &[&str]) -> Run {
    let out = urldb()
        .current_dir(dir)
        .arg("report")
        .args(args)
        .output()
        .expect("run urldb report");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        elapsed: std::time::Duration::ZERO,
    }
}

/// The URL results without their times (which differ run to run).
fn untimed(report: &serde_json::Value) -> Vec<serde_json::Value> {
    report["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            let mut r = r.clone();
            r.as_object_mut().expect("object").remove("ms");
            r
        })
        .collect()
}

fn broken_urls(report: &serde_json::Value) -> BTreeSet<String> {
    report["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter(|r| r["outcome"] == "broken")
        .map(|r| r["url"].as_str().expect("url").to_string())
        .collect()
}

#[test]
fn three_shards_check_every_url_once_and_merge_into_the_unsharded_run() {
    let server = Server::start();
    let db = many(297, 3, &[]);
    let mut shards = Vec::new();
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let run = check(db.path(), &server, &["--shard", &shard, "--format", "json"]);
        let file = db.path().join(format!("shard-{k}.json"));
        std::fs::write(&file, &run.stdout).expect("write");
        let report = json(&run);
        let expected = if broken_urls(&report).is_empty() {
            0
        } else {
            1
        };
        assert_eq!(run.code, expected, "{}", run.stderr);
        let n = report["results"].as_array().expect("results").len();
        assert!((40..=160).contains(&n), "shard {shard} has {n} URLs");
        assert_eq!(report["runs"][0]["shard"], shard.as_str());
        shards.push(report);
    }
    // The server saw each of the 300 URLs exactly once.
    let log = server.requests.lock().expect("lock").clone();
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for path in &log {
        *counts.entry(path.as_str()).or_default() += 1;
    }
    assert_eq!(counts.len(), 300);
    assert!(counts.values().all(|&n| n == 1), "{counts:?}");
    let broken: BTreeSet<String> = shards.iter().flat_map(broken_urls).collect();
    assert_eq!(broken.len(), 3, "{broken:?}");
    assert!(broken.iter().all(|u| u.contains("/gone/")), "{broken:?}");

    let merged = report(
        db.path(),
        &[
            "shard-1.json",
            "shard-2.json",
            "shard-3.json",
            "--format",
            "json",
        ],
    );
    assert_eq!(merged.code, 1, "{}", merged.stderr);
    assert!(merged.stderr.is_empty(), "{}", merged.stderr);
    let merged = json(&merged);
    let whole = check(db.path(), &server, &["--format", "json"]);
    assert_eq!(whole.code, 1, "{}", whole.stderr);
    let whole = json(&whole);
    assert_eq!(untimed(&merged), untimed(&whole));
    assert_eq!(merged["summary"], whole["summary"]);
    assert_eq!(merged["summary"]["urls"], 300);
    assert_eq!(merged["summary"]["broken"], 3);

    // The same merge in every other format, with verify's exit status.
    let markdown = report(
        db.path(),
        &[
            "shard-1.json",
            "shard-2.json",
            "shard-3.json",
            "--format",
            "markdown",
        ],
    );
    assert_eq!(markdown.code, 1);
    for url in &broken {
        assert!(
            markdown
                .stdout
                .contains(&format!("- `{url}` `HTTP 404 Not Found`")),
            "{url} not named:\n{}",
            markdown.stdout
        );
    }
    assert!(
        markdown.stdout.contains("Shards: 1/3, 2/3, 3/3."),
        "{}",
        markdown.stdout
    );
    let human = report(db.path(), &["shard-1.json", "shard-2.json", "shard-3.json"]);
    assert_eq!(human.stdout.lines().count(), 4, "{}", human.stdout);
    assert!(
        human.stdout.contains("3 of 300 URLs broken"),
        "{}",
        human.stdout
    );
    let github = report(
        db.path(),
        &[
            "shard-3.json",
            "shard-1.json",
            "shard-2.json",
            "--format",
            "github",
        ],
    );
    assert_eq!(
        github
            .stdout
            .matches("::error file=example.test.yaml")
            .count(),
        3
    );
    let junit = report(
        db.path(),
        &[
            "shard-1.json",
            "shard-2.json",
            "shard-3.json",
            "--format",
            "junit",
        ],
    );
    assert!(
        junit.stdout.contains(r#"tests="300" failures="3""#),
        "{}",
        junit.stdout
    );

    // A missing shard is named; the report still shows what it has.
    let partial = report(db.path(), &["shard-1.json", "shard-3.json"]);
    assert!(
        partial.stderr.contains("no results of shard 2/3"),
        "{}",
        partial.stderr
    );
    // A shard given twice is counted once, with a warning.
    let twice = report(
        db.path(),
        &["shard-1.json", "shard-1.json", "--format", "json"],
    );
    assert!(
        twice
            .stderr
            .contains("is in more than one results file; the result in shard-1.json is kept"),
        "{}",
        twice.stderr
    );
    assert_eq!(json(&twice)["summary"], shards[0]["summary"]);
}

#[test]
fn bad_shards_and_bad_results_files_exit_2_naming_them() {
    let db = many(1, 0, &[]);
    for bad in ["0/3", "4/3", "1/0", "x", "2"] {
        let run = verify(db.path(), &["--shard", bad]);
        assert_eq!(run.code, 2, "{bad}");
        assert!(
            run.stderr
                .contains("is not K/N with 1 <= K <= N (e.g. 2/4)"),
            "{bad}: {}",
            run.stderr
        );
    }
    let d = db.path();
    std::fs::write(d.join("not-json.json"), "{\"runs\": [").expect("write");
    std::fs::write(d.join("shape.json"), "{\"results\": 3}").expect("write");
    std::fs::write(d.join("extra.json"), "[1, 2]").expect("write");
    std::fs::write(d.join("evil\u{1b}[31m.json"), "nope").expect("write");
    for (file, expect) in [
        (
            "not-json.json",
            "not-json.json: not the output of `urldb verify --format json`",
        ),
        (
            "shape.json",
            "shape.json: not the output of `urldb verify --format json`",
        ),
        (
            "extra.json",
            "extra.json: not the output of `urldb verify --format json`",
        ),
        ("missing.json", "missing.json: "),
        (".", ".: is a directory"),
        ("evil\u{1b}[31m.json", "evil\\x1b[31m.json: not the output"),
    ] {
        let run = report(d, &[file]);
        assert_eq!(run.code, 2, "{file}: {}", run.stderr);
        assert!(run.stderr.contains(expect), "{file}: {}", run.stderr);
        assert!(!run.stderr.contains('\u{1b}'), "{}", run.stderr);
    }
    let none = report(d, &[]);
    assert_eq!(none.code, 2);
}

fn history_lines(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .expect("history")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

fn trend<'a>(report: &'a serde_json::Value, path: &str) -> &'a serde_json::Value {
    report["results"]
        .as_array()
        .expect("results")
        .iter()
        .find(|r| r["url"].as_str().is_some_and(|u| u.ends_with(path)))
        .map(|r| &r["history"])
        .expect("the URL")
}

#[test]
fn history_tells_new_from_persistent_and_flaky_and_keeps_n_runs() {
    let server = Server::start();
    // 295 fine, 3 always gone, /flaky (500 once, then fine), /sours (fine
    // once, then gone).
    let db = many(295, 3, &["/flaky", "/sours"]);
    let history = db.path().join("history.jsonl");
    let h = "history.jsonl";
    let first = check(
        db.path(),
        &server,
        &["--history", h, "--run-id", "r1", "--format", "json"],
    );
    assert_eq!(first.code, 1, "{}", first.stderr);
    let first = json(&first);
    assert_eq!(
        first["summary"]["new"], 4,
        "every failure of a first run is new"
    );
    // One run line and one line per URL.
    assert_eq!(history_lines(&history).len(), 301);

    let second = check(
        db.path(),
        &server,
        &["--history", h, "--run-id", "r2", "--format", "json"],
    );
    assert_eq!(second.code, 1, "{}", second.stderr);
    let second = json(&second);
    // Still one line per URL, now with two letters: its verdicts in r1
    // and r2, and its last status.
    let lines = history_lines(&history);
    assert_eq!(lines.len(), 302);
    let results = second["results"].as_array().expect("results");
    assert_eq!(results.len(), 300);
    let by_url: std::collections::HashMap<&str, &serde_json::Value> = lines
        .iter()
        .filter_map(|l| Some((l["url"].as_str()?, l)))
        .collect();
    for result in results {
        let line = by_url[result["url"].as_str().expect("url")];
        assert_eq!(line["at"], "r2", "{line}");
        assert_eq!(line["status"], result["status"], "{line}");
        assert_eq!(
            line["recent"], result["history"]["recent"],
            "{line} {result}"
        );
    }
    assert_eq!(trend(&second, "/flaky")["class"], "passing");
    assert_eq!(trend(&second, "/flaky")["flaky"], true);
    assert_eq!(trend(&second, "/flaky")["recent"], "xo");
    assert_eq!(trend(&second, "/sours")["class"], "new");
    assert_eq!(trend(&second, "/sours")["flaky"], false);
    assert_eq!(trend(&second, "/gone/0")["class"], "persistent");
    assert_eq!(second["summary"]["new"], 1);
    assert_eq!(second["summary"]["flaky"], 1);
    assert_eq!(
        second["history"],
        serde_json::json!([
            {"id": "r1", "started": first["runs"][0]["started"], "checked": 300, "broken": 4, "blocked": 0, "skipped": 0, "accepted": 0},
            {"id": "r2", "started": second["runs"][0]["started"], "checked": 300, "broken": 4, "blocked": 0, "skipped": 0, "accepted": 0},
        ])
    );

    // A malformed line is named and skipped; the run goes on.
    let mut text = std::fs::read_to_string(&history).expect("read");
    text.push_str("{\"run\": \"r2\", \"url\": \u{1b}]\n");
    std::fs::write(&history, text).expect("write");
    // Only persistent failures left: `--fail-on new` passes, the default fails.
    let third = check(
        db.path(),
        &server,
        &[
            "--history",
            h,
            "--run-id",
            "r3",
            "--fail-on",
            "new",
            "--format",
            "markdown",
        ],
    );
    assert_eq!(third.code, 0, "{}\n{}", third.stdout, third.stderr);
    assert!(
        third
            .stderr
            .contains("warning: history.jsonl:303: not a history line"),
        "{}",
        third.stderr
    );
    assert!(!third.stderr.contains('\u{1b}'), "{}", third.stderr);
    assert!(
        third
            .stdout
            .contains("**4 of 300 URLs broken**, 0 newly broken."),
        "{}",
        third.stdout
    );
    assert!(
        third.stdout.contains("### Still broken (4)"),
        "{}",
        third.stdout
    );
    assert!(
        third
            .stdout
            .contains("### Flaky (passing now, failed recently) (1)"),
        "{}",
        third.stdout
    );
    assert_eq!(
        history_lines(&history).len(),
        303,
        "the malformed line is dropped"
    );

    let fourth = check(
        db.path(),
        &server,
        &["--history", h, "--run-id", "r4", "--history-keep", "2"],
    );
    assert_eq!(fourth.code, 1, "{}", fourth.stderr);
    let runs: BTreeSet<String> = history_lines(&history)
        .iter()
        .filter_map(|l| Some(l["run"].as_str()?.to_string()))
        .collect();
    assert_eq!(runs, BTreeSet::from(["r3".to_string(), "r4".to_string()]));
    assert_eq!(history_lines(&history).len(), 302);
    let lines = history_lines(&history);
    for key in [
        "run", "started", "checked", "broken", "blocked", "skipped", "accepted",
    ] {
        assert!(lines[0].get(key).is_some(), "{key} missing in {}", lines[0]);
    }
    for key in ["url", "at", "recent", "status"] {
        assert!(lines[2].get(key).is_some(), "{key} missing in {}", lines[2]);
    }
    assert_eq!(lines[2]["recent"].as_str().map(str::len), Some(2));
}

/// Each run rewrites the history (through a new file renamed over it),
/// with the newest `--history-keep` runs: one line per run and one per
/// URL, a last line without its newline read as any other
/// (docs/verify.md, "History").
#[cfg(unix)]
#[test]
fn history_is_rewritten_with_the_newest_runs() {
    use std::os::unix::fs::MetadataExt;
    let server = Server::start();
    let db = many(20, 1, &[]);
    let d = db.path();
    let history = d.join("h.jsonl");
    let run = |id: &str| {
        let run = check(
            d,
            &server,
            &[
                "--history",
                "h.jsonl",
                "--run-id",
                id,
                "--history-keep",
                "2",
            ],
        );
        assert_eq!(run.code, 1, "{}", run.stderr);
    };
    let runs = || -> Vec<String> {
        history_lines(&history)
            .iter()
            .filter_map(|l| Some(l["run"].as_str()?.to_string()))
            .collect()
    };
    run("r1");
    // As an editor may leave it: no newline after the last line.
    let mut before = std::fs::read(&history).expect("read");
    assert_eq!(before.pop(), Some(b'\n'));
    std::fs::write(&history, &before).expect("write");
    let inode = std::fs::metadata(&history).expect("stat").ino();
    run("r2");
    assert_eq!(runs(), ["r1", "r2"]);
    assert_ne!(
        std::fs::metadata(&history).expect("stat").ino(),
        inode,
        "rewritten, through a new file renamed over it"
    );
    run("r3");
    run("r4");
    assert_eq!(runs(), ["r3", "r4"]);
    assert_eq!(history_lines(&history).len(), 2 + 21);
    let text = std::fs::read_to_string(&history).expect("read");
    assert!(text.ends_with('\n'));
    assert_eq!(text.matches("\"recent\":\"xx\"").count(), 1, "{text}");
}

/// A history write that fails half way (here: past the file size limit,
/// `ulimit -f`) leaves the file as it was, exit 2.
#[test]
fn a_history_append_that_fails_leaves_the_file_as_it_was() {
    let server = Server::start();
    let db = many(40, 0, &[]);
    let d = db.path();
    let first = check(d, &server, &["--history", "h.jsonl", "--run-id", "r1"]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let before = std::fs::read(d.join("h.jsonl")).expect("read");
    // Less room than the file's next version, one more letter per URL
    // (`ulimit -f` counts 1024-byte blocks); SIGXFSZ ignored, so the write
    // fails with EFBIG instead of killing urldb.
    let blocks = before.len() / 1024;
    let map = map_arg(&server);
    let out = std::process::Command::new("bash")
        .current_dir(d)
        .args([
            "-c",
            "trap '' XFSZ; ulimit -f \"$1\"; shift; exec \"$@\"",
            "-",
        ])
        .arg(blocks.to_string())
        .arg(env!("CARGO_BIN_EXE_urldb"))
        .args(["verify", "--allow-private", "--retries", "0", "--map", &map])
        .args(["--history", "h.jsonl", "--run-id", "r2"])
        .env("NO_COLOR", "1")
        .output()
        .expect("run urldb under bash");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("cannot write the history: h.jsonl: File too large"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(d.join("h.jsonl")).expect("read"), before);
    assert!(!d.join("h.jsonl.lock").exists(), "the lock is given back");
}

#[test]
fn shard_histories_concatenate() {
    let server = Server::start();
    let db = many(57, 3, &[]);
    let d = db.path();
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let file = format!("h{k}.jsonl");
        let run = check(
            d,
            &server,
            &["--shard", &shard, "--history", &file, "--run-id", "ci-1"],
        );
        assert!(run.code == 0 || run.code == 1, "{}", run.stderr);
    }
    let mut all = String::new();
    for k in 1..=3 {
        all.push_str(&std::fs::read_to_string(d.join(format!("h{k}.jsonl"))).expect("read"));
    }
    // Each shard job appends to its own copy of the same earlier history:
    // concatenated, those earlier lines are there three times.
    std::fs::write(d.join("h.jsonl"), format!("{all}{all}")).expect("write");
    let run = check(
        d,
        &server,
        &[
            "--history",
            "h.jsonl",
            "--run-id",
            "ci-2",
            "--format",
            "json",
        ],
    );
    let report = json(&run);
    assert_eq!(report["summary"]["broken"], 3);
    assert_eq!(report["summary"]["new"], 0, "{}", run.stdout);
    assert_eq!(
        report["history"][0],
        serde_json::json!({"id": "ci-1", "started": report["history"][0]["started"], "checked": 60, "broken": 3, "blocked": 0, "skipped": 0, "accepted": 0})
    );
    // One line per run part (ci-1's three shards, ci-2) and per URL: the
    // duplicates are dropped.
    assert_eq!(history_lines(&d.join("h.jsonl")).len(), 3 + 1 + 60);
}

#[cfg(unix)]
#[test]
fn history_errors_exit_2() {
    let server = Server::start();
    let db = many(2, 0, &[]);
    let d = db.path();
    std::fs::create_dir(d.join("dir.jsonl")).expect("mkdir");
    let run = check(d, &server, &["--history", "dir.jsonl"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("dir.jsonl: is a directory")
            || run.stderr.contains("dir.jsonl: is not a regular file"),
        "{}",
        run.stderr
    );
    std::fs::write(d.join("real.jsonl"), "").expect("write");
    std::os::unix::fs::symlink(d.join("real.jsonl"), d.join("link.jsonl")).expect("symlink");
    let run = check(d, &server, &["--history", "link.jsonl"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("is a symbolic link; urldb does not write through links"),
        "{}",
        run.stderr
    );
    // Read-only: read, never written, whether it would be appended to or
    // rewritten.
    let run = check(d, &server, &["--history", "ro.jsonl"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let ro = std::fs::read(d.join("ro.jsonl")).expect("read");
    std::fs::set_permissions(
        d.join("ro.jsonl"),
        std::os::unix::fs::PermissionsExt::from_mode(0o444),
    )
    .expect("chmod");
    for keep in ["30", "1"] {
        let run = check(
            d,
            &server,
            &["--history", "ro.jsonl", "--history-keep", keep],
        );
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(run.stderr.contains("is read-only"), "{}", run.stderr);
        assert_eq!(std::fs::read(d.join("ro.jsonl")).expect("read"), ro);
    }
    let run = check(d, &server, &["--history", "h.jsonl", "--history-keep", "0"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("--history-keep must be at least 1"),
        "{}",
        run.stderr
    );
}

/// The workflow of docs/verify.md, "A scheduled workflow", run three times
/// by `support/run_workflow.py`: shard jobs, the merge job, the history
/// on a branch of a local bare `origin`, the issue (through a `gh` stub
/// that records its arguments: the one part that cannot run for real).
#[cfg(unix)]
#[test]
fn the_documented_scheduled_workflow_runs_end_to_end() {
    let server = Server::start();
    let tmp = tempfile::tempdir().expect("tempdir");
    let t = tmp.path();
    // The database repository: 57 pages, one gone, one that goes.
    let src = t.join("src");
    std::fs::create_dir(&src).expect("mkdir");
    let db = many(57, 1, &["/sours"]);
    std::fs::copy(
        db.path().join("example.test.yaml"),
        src.join("example.test.yaml"),
    )
    .expect("copy");
    git(&src, &["init", "-q", "-b", "main"]);
    git(&src, &["add", "."]);
    git(&src, &["commit", "-qm", "database"]);
    git(t, &["clone", "-q", "--bare", "src", "origin.git"]);
    let origin = t.join("origin.git");

    let bin = t.join("bin");
    std::fs::create_dir(&bin).expect("mkdir");
    let gh = bin.join("gh");
    std::fs::write(
        &gh,
        "#!/bin/sh\nprintf 'gh %s\\n' \"$*\" >> \"$GH_LOG\"\ncmd=\"$1 $2\"\nprev=\nfor a in \"$@\"; do\n  if [ \"$prev\" = --body-file ]; then cat \"$a\" >> \"$GH_LOG\"; fi\n  prev=$a\ndone\ncase \"$cmd\" in\n  \"issue create\") echo 7 > \"$GH_LOG.open\"; echo https://github.com/example/db/issues/7 ;;\n  \"issue list\") cat \"$GH_LOG.open\" 2>/dev/null || true ;;\nesac\n",
    )
    .expect("write");
    std::fs::set_permissions(&gh, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
    let urldb_dir = Path::new(env!("CARGO_BIN_EXE_urldb"))
        .parent()
        .expect("dir");
    let path = format!(
        "{}:{}:{}",
        bin.display(),
        urldb_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let gh_log = t.join("gh.log");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let options = format!("--allow-private --retries 0 --map {}", map_arg(&server));
    let run = |n: usize| {
        let work = t.join(format!("work-{n}"));
        std::fs::create_dir(&work).expect("mkdir");
        let out = std::process::Command::new(crate::support::python())
            .arg(repo.join("tests/it/support/run_workflow.py"))
            .arg(repo.join("docs/verify.md"))
            .arg(&origin)
            .arg(&work)
            .arg(format!("10{n}"))
            .arg(serde_json::json!({"VERIFY_OPTIONS": options}).to_string())
            .env("PATH", &path)
            .env("GH_LOG", &gh_log)
            .output()
            .expect("run the workflow");
        let log = format!(
            "{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(out.status.code(), Some(0), "run {n}:\n{log}");
        let summary = std::fs::read_to_string(work.join("runner-report/step_summary.md"))
            .expect("the merge job's summary");
        (log, summary)
    };
    let history = || git(&origin, &["show", "urldb-history:history.jsonl"]);
    let gh_calls = || std::fs::read_to_string(&gh_log).unwrap_or_default();

    let (log, summary) = run(1);
    assert_eq!(log.matches("--- run: Verify shard").count(), 3, "{log}");
    assert_eq!(
        server.requests.lock().expect("lock").len(),
        59,
        "each URL once"
    );
    assert!(
        summary.contains("**1 of 59 URLs broken**, 1 newly broken."),
        "{summary}"
    );
    assert!(summary.contains("Shards: 1/3, 2/3, 3/3."), "{summary}");
    // One line per shard's run and one per URL: 3 + 59.
    assert_eq!(history().lines().count(), 62);
    let calls = gh_calls();
    assert!(
        calls.contains("gh issue create --title urldb verify: newly broken URLs --body-file summary.md\n## urldb verify"),
        "{calls}"
    );

    let (_, summary) = run(2);
    assert_eq!(server.requests.lock().expect("lock").len(), 118);
    // Each shard wrote every URL, its own ones new: merged, a URL has its
    // new line and the others' copy of the old one (the reader takes the
    // newest), whatever the number of runs.
    assert_eq!(history().lines().count(), 6 + 2 * 59);
    let new = summary.split("### Still broken").next().expect("text");
    assert!(
        new.contains("### Newly broken (1)") && new.contains("/sours`"),
        "{summary}"
    );
    assert!(
        summary.contains("### Still broken (1)") && summary.contains("/gone/0`"),
        "{summary}"
    );
    let calls = gh_calls();
    assert!(
        calls.contains("gh issue comment 7 --body-file summary.md\n"),
        "{calls}"
    );
    assert_eq!(calls.matches("gh issue create").count(), 1, "{calls}");

    // Nothing newly broken: no word to the issue.
    let before = gh_calls();
    let (_, summary) = run(3);
    assert!(
        summary.contains("2 of 59 URLs broken**, 0 newly broken."),
        "{summary}"
    );
    assert_eq!(gh_calls(), before);
    assert_eq!(history().lines().count(), 9 + 2 * 59);
    assert!(history().contains("\"recent\":\"xxx\""), "{}", history());
}

/// A history of junk lines costs a few lines of warnings, not one per
/// line: the first ones are named, the rest counted (`docs/security.md`,
/// "Budgets"). The junk is dropped when the run's lines are added.
#[test]
fn history_warnings_are_capped() {
    let server = Server::start();
    let db = many(1, 0, &[]);
    let d = db.path();
    std::fs::write(d.join("h.jsonl"), "junk ##[error]x\n".repeat(100_000)).expect("write");
    let run = check(d, &server, &["--history", "h.jsonl"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.len() < 8_000,
        "{} bytes of stderr",
        run.stderr.len()
    );
    assert!(
        run.stderr.contains("h.jsonl:1: not a history line"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("99980 more malformed lines in h.jsonl skipped"),
        "{}",
        run.stderr
    );
    let after = std::fs::read_to_string(d.join("h.jsonl")).expect("read");
    // This run's line and its URL's.
    assert_eq!(after.lines().count(), 2, "{after}");
}

/// A history that is a symbolic link is not read: nothing of its target
/// reaches the output, whatever the format, and the run is exit 2.
#[cfg(unix)]
#[test]
fn a_history_through_a_link_is_not_read() {
    let server = Server::start();
    let db = many(1, 0, &[]);
    let d = db.path();
    let secret = d.join("secret.txt");
    // A well-formed history line: read, its run would be in every report.
    let line = r#"{"run":"SECRET-RUN","started":"2026-01-01T00:00:00.000Z","url":"http://x/","file":"x.yaml","line":1,"time":"2026-01-01T00:00:00.000Z","status":200,"verdict":"ok","reason":null,"ms":1}"#;
    std::fs::write(&secret, format!("{line}\n")).expect("write");
    std::os::unix::fs::symlink(&secret, d.join("h.jsonl")).expect("symlink");
    for format in ["human", "json", "html"] {
        let run = check(d, &server, &["--history", "h.jsonl", "--format", format]);
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(run.stderr.contains("is a symbolic link"), "{}", run.stderr);
        assert!(
            !run.stdout.contains("SECRET") && !run.stderr.contains("SECRET"),
            "{format}: {}{}",
            run.stdout,
            run.stderr
        );
    }
    assert_eq!(
        std::fs::read_to_string(&secret).expect("read"),
        format!("{line}\n")
    );
}
