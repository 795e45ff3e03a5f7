//! `verify --since REV` and `--staged` against a server on 127.0.0.1 and
//! real repositories: only the records added or changed are requested (a
//! key verify reads, or their domain's `https` or `cnames`, or a renamed
//! file), nothing selected is one note and exit 0, and the other filters
//! (`PATH`, `--shard`, `--history`, `--max-age`) still apply.

use std::collections::BTreeSet;

use super::outcomes::Server;
use crate::diff::{Repo, domain_file, stderr, stdout, urldb_in};

const HTML: &str = "text/html";

/// `urldb verify ARGS` at the top of `repo`, every request of
/// example.test sent to `server` over http (whatever `https` says).
fn verify(repo: &Repo, server: &Server, args: &[&str]) -> std::process::Output {
    let map = format!("example.test=http://{}", server.addr());
    let common = ["verify", "--allow-private", "--retries", "0", "--map", &map];
    repo.urldb(&[&common[..], args].concat())
}

/// The `_path`s of the URLs in a JSON report.
fn paths(out: &std::process::Output) -> BTreeSet<String> {
    let json: serde_json::Value = serde_json::from_str(&stdout(out))
        .unwrap_or_else(|e| panic!("{e}: {}{}", stdout(out), stderr(out)));
    json["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            let url = r["url"].as_str().expect("url");
            format!("/{}", url.splitn(4, '/').nth(3).expect("path"))
        })
        .collect()
}

fn set(paths: &[&str]) -> BTreeSet<String> {
    paths.iter().map(|p| p.to_string()).collect()
}

/// A base with a broken URL (`/missing`) and one whose type is wrong
/// (`/plain`); then `/also-ok` added, `/plain`'s type set right, a title
/// given to `/missing` (not a key verify reads), `/ok` removed.
fn pull_request() -> (Repo, String) {
    let repo = Repo::new();
    repo.write(
        "example.test.yaml",
        &domain_file("", &[("/missing", HTML), ("/ok", HTML), ("/plain", HTML)]),
    );
    let base = repo.commit("base");
    repo.write(
        "example.test.yaml",
        "---\n---\n_path: /also-ok\ncontent-type: text/html\n---\n_path: /missing\n\
         content-type: text/html\ntitle: Gone for good\n---\n_path: /plain\ncontent-type: text/plain\n",
    );
    (repo, base)
}

#[test]
fn since_verifies_only_the_records_added_or_changed() {
    let server = Server::start();
    let (repo, base) = pull_request();
    let out = verify(&repo, &server, &["--since", &base, "--format", "json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    assert_eq!(paths(&out), set(&["/also-ok", "/plain"]));
    assert_eq!(
        server.hits("/missing"),
        0,
        "a title is not a key verify reads"
    );
    assert_eq!(server.hits("/ok"), 0, "a removed record is not requested");
    // The whole database: the broken URL is there.
    let out = verify(&repo, &server, &["--format", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(paths(&out), set(&["/also-ok", "/missing", "/plain"]));
}

#[test]
fn nothing_selected_is_one_note_and_exit_0() {
    let server = Server::start();
    let repo = Repo::new();
    repo.write("example.test.yaml", &domain_file("", &[("/missing", HTML)]));
    repo.commit("base");
    // Layout and a key verify does not read.
    repo.write(
        "example.test.yaml",
        "--- {}\n---\n{content-type: \"text/html\", _path: /missing, title: x}\n",
    );
    for format in ["human", "json", "markdown"] {
        let out = verify(&repo, &server, &["--since", "HEAD", "--format", format]);
        assert_eq!(out.status.code(), Some(0), "{format}: {}", stdout(&out));
        assert_eq!(
            stderr(&out),
            "note: no record changed since HEAD\n",
            "{format}"
        );
        assert_eq!(stdout(&out), "", "{format}");
    }
    let out = verify(&repo, &server, &["--staged", "-q"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stderr(&out), "");
    let out = verify(&repo, &server, &["--staged"]);
    assert_eq!(
        stderr(&out),
        "note: no record changed in the index since HEAD\n"
    );
    assert!(server.requests.lock().expect("lock").is_empty());
}

/// `https` or `cnames` changes every URL of the domain; a renamed file
/// moves every record to another domain; a file whose old side does not
/// parse cannot say what changed: every record is verified.
#[test]
fn a_domain_wide_change_verifies_every_record_of_the_domain() {
    let server = Server::start();
    let records = [("/ok", HTML), ("/also-ok", HTML), ("/plain", "text/plain")];
    let check = |base_text: &str, new_name: &str, new_text: &str| {
        let repo = Repo::new();
        repo.write("example.test.yaml", base_text);
        repo.write("other.test.yaml", &domain_file("", &[("/missing", HTML)]));
        let base = repo.commit("base");
        if new_name != "example.test.yaml" {
            std::fs::remove_file(repo.db().join("example.test.yaml")).expect("rm");
        }
        repo.write(new_name, new_text);
        let out = verify(&repo, &server, &["--since", &base, "--format", "json"]);
        assert_eq!(out.status.code(), Some(0), "{new_text}: {}", stderr(&out));
        assert_eq!(
            paths(&out),
            set(&["/also-ok", "/ok", "/plain"]),
            "{new_text}"
        );
    };
    let plain = domain_file("", &records);
    // https (the map keeps the requests on the test server's http).
    check(
        &plain,
        "example.test.yaml",
        &domain_file("https: true\n", &records),
    );
    check(
        &plain,
        "example.test.yaml",
        &domain_file("cnames:\n- www.example.test\n", &records),
    );
    // Renamed: the old domain is another.
    let repo_rename = |from: &str| {
        let repo = Repo::new();
        repo.write(from, &plain);
        let base = repo.commit("base");
        repo.git(&["mv", &format!("db/{from}"), "db/example.test.yaml"]);
        let out = verify(&repo, &server, &["--since", &base, "--format", "json"]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        paths(&out)
    };
    assert_eq!(
        repo_rename("old.test.yaml"),
        set(&["/also-ok", "/ok", "/plain"])
    );
    // Moved to another folder: the same domain, nothing changed.
    let repo = Repo::new();
    std::fs::create_dir(repo.db().join("sub")).expect("mkdir");
    repo.write("sub/example.test.yaml", &plain);
    let base = repo.commit("base");
    repo.git(&["mv", "db/sub/example.test.yaml", "db/example.test.yaml"]);
    let out = verify(&repo, &server, &["--since", &base]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stderr(&out),
        format!("note: no record changed since {base}\n")
    );
    // The old side does not parse.
    check("---\n---\n_path: [\n", "example.test.yaml", &plain);
}

/// A new side that cannot be verified is exit 2, as without `--since`.
#[test]
fn a_changed_file_that_does_not_parse_is_a_problem() {
    let server = Server::start();
    let repo = Repo::new();
    repo.write("example.test.yaml", &domain_file("", &[("/ok", HTML)]));
    let base = repo.commit("base");
    repo.write("example.test.yaml", "---\n---\n_path: [\n");
    let out = verify(&repo, &server, &["--since", &base]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("error: db/example.test.yaml: the file does not parse as YAML"),
        "{}",
        stderr(&out)
    );
}

/// `--staged` verifies the records as staged, not as the work tree has
/// them.
#[test]
fn staged_verifies_the_staged_records() {
    let server = Server::start();
    let repo = Repo::new();
    repo.write("example.test.yaml", &domain_file("", &[("/ok", HTML)]));
    repo.commit("base");
    repo.write(
        "example.test.yaml",
        &domain_file("", &[("/ok", HTML), ("/plain", "text/plain")]),
    );
    repo.git(&["add", "-A"]);
    // Unstaged: /plain's type made wrong, /also-ok added.
    repo.write(
        "example.test.yaml",
        &domain_file("", &[("/also-ok", HTML), ("/ok", HTML), ("/plain", HTML)]),
    );
    let out = verify(&repo, &server, &["--staged", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(paths(&out), set(&["/plain"]));
    // The work tree's /plain is wrong: --since HEAD says so.
    let out = verify(&repo, &server, &["--since", "HEAD", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(paths(&out), set(&["/also-ok", "/plain"]));
}

/// `PATH`, `--shard`, `--history` and `--max-age` narrow what `--since`
/// selects, as they narrow the whole database.
#[test]
fn since_works_with_paths_shards_history_and_max_age() {
    let server = Server::start();
    let repo = Repo::new();
    repo.write("example.test.yaml", &domain_file("", &[("/missing", HTML)]));
    repo.write("other.test.yaml", &domain_file("", &[("/x", HTML)]));
    let base = repo.commit("base");
    let pages: Vec<String> = (0..8).map(|i| format!("/page/{i}")).collect();
    let mut records: Vec<(&str, &str)> = pages.iter().map(|p| (p.as_str(), HTML)).collect();
    records.push(("/missing", HTML));
    repo.write("example.test.yaml", &domain_file("", &records));
    repo.write(
        "other.test.yaml",
        &domain_file("", &[("/x", HTML), ("/y", HTML)]),
    );
    let changed: BTreeSet<String> = pages.iter().cloned().collect();
    // A path: the other file's change is left out.
    let out = verify(
        &repo,
        &server,
        &["--since", &base, "--format", "json", "db/example.test.yaml"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(paths(&out), changed);
    // Two shards: together the changed records, each once.
    let shard = |k: &str| {
        let out = verify(
            &repo,
            &server,
            &[
                "--since",
                &base,
                "--shard",
                k,
                "--format",
                "json",
                "db/example.test.yaml",
            ],
        );
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        paths(&out)
    };
    let (one, two) = (shard("1/2"), shard("2/2"));
    assert!(one.is_disjoint(&two), "{one:?} {two:?}");
    assert_eq!(one.union(&two).cloned().collect::<BTreeSet<_>>(), changed);
    // History: the run is kept; with --max-age the next one finds them
    // all fresh and requests nothing.
    let history = repo.root().join("history.jsonl");
    let history = history.to_str().expect("utf-8");
    let run = |extra: &[&str]| {
        let args = [
            &["--since", &base, "--history", history, "--format", "json"][..],
            extra,
            &["db/example.test.yaml"],
        ]
        .concat();
        verify(&repo, &server, &args)
    };
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let before = server.requests.lock().expect("lock").len();
    let out = run(&["--max-age", "1d"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    assert_eq!(json["summary"]["fresh"], 8, "{json:#}");
    assert_eq!(server.requests.lock().expect("lock").len(), before);
    assert_eq!(server.hits("/missing"), 0);
}

#[test]
fn since_outside_a_repository_is_an_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("example.test.yaml"),
        domain_file("", &[("/ok", HTML)]),
    )
    .expect("write");
    for args in [&["verify", "--since", "HEAD"][..], &["verify", "--staged"]] {
        let out = urldb_in(dir.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains(&format!(
                "is not inside a git repository (needed by {})",
                args[1]
            )),
            "{}",
            stderr(&out)
        );
    }
    let repo = Repo::new();
    repo.write("example.test.yaml", &domain_file("", &[("/ok", HTML)]));
    repo.commit("one file");
    let out = repo.urldb(&["verify", "--since", "no-such-rev"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("error: no revision `no-such-rev` in the repository at "),
        "{}",
        stderr(&out)
    );
    let out = repo.urldb(&["verify", "--since", "HEAD", "--staged"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("cannot be used with"),
        "{}",
        stderr(&out)
    );
}

/// A pull request's checkout: a clone of depth 1 and its base fetched
/// alone; without the base, an error before any request.
#[test]
fn since_in_a_shallow_clone_with_the_base_fetched() {
    let server = Server::start();
    let (origin, base) = pull_request();
    origin.commit("pull request");
    let url = format!("file://{}", origin.root().display());
    let clone = tempfile::tempdir().expect("tempdir");
    crate::support::git(clone.path(), &["clone", "-q", "--depth", "1", &url, "."]);
    let map = format!("example.test=http://{}", server.addr());
    let args = [
        "verify",
        "--allow-private",
        "--retries",
        "0",
        "--map",
        &map,
        "--since",
        &base,
        "--format",
        "json",
    ];
    let out = urldb_in(clone.path(), &args);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(
        stderr(&out).starts_with("error: no revision `"),
        "{}",
        stderr(&out)
    );
    assert!(server.requests.lock().expect("lock").is_empty());
    crate::support::git(clone.path(), &["fetch", "-q", "--depth=1", "origin", &base]);
    let out = urldb_in(clone.path(), &args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(paths(&out), set(&["/also-ok", "/plain"]));
}
