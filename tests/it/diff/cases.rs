//! `urldb diff` through the binary: the two versions named each way git
//! names them, records and metadata, a renamed or moved domain file, a
//! side that does not parse, a shallow clone, what is read, each format,
//! and the errors.

use super::{Repo, diff_json, domain_file, record_changes, stderr, stdout, urldb_in};
use crate::support::git;
use crate::support::runner;

const HTML: &str = "text/html";

/// A base commit with two domain files, then a change of each kind in the
/// work tree: `/new` added, `/gone` removed, `/a`'s content type and
/// `/b`'s title changed, `https` turned on in example.com.
fn changed_repo() -> (Repo, String) {
    let repo = Repo::new();
    repo.write(
        "example.com.yaml",
        "---\n---\n_path: /a\ncontent-type: text/html\n---\n_path: /b\ncontent-type: text/html\n\
         ---\n_path: /gone\ncontent-type: text/html\n",
    );
    repo.write("other.org.yaml", &domain_file("", &[("/x", HTML)]));
    let base = repo.commit("base");
    repo.write(
        "example.com.yaml",
        "---\nhttps: true\n---\n_path: /a\ncontent-type: text/plain\n---\n_path: /b\n\
         content-type: text/html\ntitle: B\n---\n_path: /new\ncontent-type: text/html\n",
    );
    (repo, base)
}

#[test]
fn records_and_metadata_that_changed_are_listed_with_their_keys() {
    let (repo, base) = changed_repo();
    let json = diff_json(&repo, &[&base]);
    assert_eq!(
        json["old"],
        serde_json::json!({"kind": "revision", "revision": base})
    );
    assert_eq!(json["new"], serde_json::json!({"kind": "work-tree"}));
    assert_eq!(
        json["summary"],
        serde_json::json!({"files": 1, "added": 1, "removed": 1, "changed": 2})
    );
    let file = &json["files"][0];
    assert_eq!(file["path"], "db/example.com.yaml");
    assert_eq!(file["domain"], "example.com");
    assert_eq!(file["status"], "modified");
    assert_eq!(
        file["metadata"],
        serde_json::json!([{"key": "https", "old": "false", "new": "true", "every-url": true}])
    );
    assert_eq!(file["verify-every-record"], true, "https changed");
    let records = file["records"].as_array().expect("records");
    let summary: Vec<(String, String, serde_json::Value)> = records
        .iter()
        .map(|r| {
            (
                r["path"].as_str().expect("path").to_string(),
                r["status"].as_str().expect("status").to_string(),
                r["keys"].clone(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (
                "/a".to_string(),
                "changed".to_string(),
                serde_json::json!([{"key": "content-type", "old": "text/html", "new": "text/plain"}])
            ),
            (
                "/b".to_string(),
                "changed".to_string(),
                serde_json::json!([{"key": "title", "old": null, "new": "B"}])
            ),
            (
                "/new".to_string(),
                "added".to_string(),
                serde_json::json!([])
            ),
            (
                "/gone".to_string(),
                "removed".to_string(),
                serde_json::json!([])
            ),
        ]
    );
    // Lines on the side that has the record; the URL by the new `https`.
    assert_eq!(records[2]["line"], 11);
    assert_eq!(records[2]["url"], "https://example.com/new");
    assert_eq!(records[3]["line"], serde_json::Value::Null);
    assert_eq!(records[3]["old-line"], 9);
    // A key verify reads, or not.
    assert_eq!(records[0]["verify"], true);
    assert_eq!(records[1]["verify"], false);

    // The same change in the human form, grouped by domain file.
    let out = repo.urldb(&["diff", &base]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        format!(
            "example.com db/example.com.yaml\n\
             \x20 metadata https: false → true (every URL of the domain)\n\
             \x20 ~ /a  content-type: text/html → text/plain\n\
             \x20 ~ /b  title: (none) → B\n\
             \x20 + /new  https://example.com/new\n\
             \x20 - /gone\n\
             1 record added, 1 removed, 2 changed in 1 domain file ({base} → the work tree).\n"
        )
    );
    // `--exit-code`: 1 when something changed, as `git diff --exit-code`.
    assert_eq!(
        repo.urldb(&["diff", &base, "--exit-code"]).status.code(),
        Some(1)
    );
    assert_eq!(
        repo.urldb(&["diff", "HEAD..HEAD", "--exit-code"])
            .status
            .code(),
        Some(0)
    );
}

#[test]
fn colours_only_on_a_terminal_or_when_asked() {
    let (repo, base) = changed_repo();
    let plain = stdout(&repo.urldb(&["diff", &base]));
    assert!(!plain.contains('\u{1b}'), "{plain}");
    let coloured = stdout(&repo.urldb(&["diff", &base, "--color", "always"]));
    assert!(coloured.contains("\u{1b}[32m+\u{1b}[0m /new"), "{coloured}");
    assert!(
        coloured.contains("\u{1b}[31m-\u{1b}[0m /gone"),
        "{coloured}"
    );
    assert!(coloured.contains("\u{1b}[33m~\u{1b}[0m /a"), "{coloured}");
    // Nothing but the escape sequences differs.
    let stripped = coloured
        .replace("\u{1b}[0m", "")
        .replace("\u{1b}[1m", "")
        .replace("\u{1b}[31m", "")
        .replace("\u{1b}[32m", "")
        .replace("\u{1b}[33m", "");
    assert_eq!(stripped, plain);
}

/// `fmt` changes layout, never a value: after it, no record changed.
#[test]
fn layout_alone_is_no_change() {
    let repo = Repo::new();
    repo.write(
        "example.com.yaml",
        "--- {https: yes}\n---\n{content-type: \"text/html\", _path: '/b', categories: [z, a]}\n\
         ---\ncontent-type: text/html\n_path: /a\n",
    );
    repo.commit("base");
    let out = repo.urldb(&["fmt"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        !repo.git(&["status", "--porcelain"]).is_empty(),
        "fmt changed nothing"
    );
    let out = repo.urldb(&["diff", "HEAD", "--exit-code"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(stdout(&out), "No record changed (HEAD → the work tree).\n");
}

/// Nothing, `--staged`, `REV`, `REV..REV`: the sides `git diff` compares.
#[test]
fn the_versions_compared_are_those_git_diff_compares() {
    let repo = Repo::new();
    repo.write("example.com.yaml", &domain_file("", &[("/a", HTML)]));
    let first = repo.commit("first");
    repo.write(
        "example.com.yaml",
        &domain_file("", &[("/a", HTML), ("/b", HTML)]),
    );
    let second = repo.commit("second");
    // Staged: /c. Work tree: /c and /d.
    repo.write(
        "example.com.yaml",
        &domain_file("", &[("/a", HTML), ("/b", HTML), ("/c", HTML)]),
    );
    repo.git(&["add", "-A"]);
    repo.write(
        "example.com.yaml",
        &domain_file(
            "",
            &[("/a", HTML), ("/b", HTML), ("/c", HTML), ("/d", HTML)],
        ),
    );
    let added = |args: &[&str]| -> Vec<String> {
        record_changes(&diff_json(&repo, args))
            .into_iter()
            .map(|(_, path, status)| format!("{status} {path}"))
            .collect()
    };
    assert_eq!(added(&[]), ["added /d"], "the index → the work tree");
    assert_eq!(added(&["--staged"]), ["added /c"], "HEAD → the index");
    assert_eq!(added(&["--staged", &first]), ["added /b", "added /c"]);
    assert_eq!(added(&["HEAD"]), ["added /c", "added /d"]);
    assert_eq!(added(&[&format!("{first}..{second}")]), ["added /b"]);
    assert_eq!(added(&[&format!("{second}..{first}")]), ["removed /b"]);
    assert_eq!(
        added(&["HEAD~1.."]),
        ["added /b"],
        "a side left out is HEAD"
    );
    let json = diff_json(&repo, &["--staged"]);
    assert_eq!(
        json["old"],
        serde_json::json!({"kind": "revision", "revision": "HEAD"})
    );
    assert_eq!(json["new"], serde_json::json!({"kind": "index"}));
}

/// A repository without a commit: `--staged` compares with nothing.
#[test]
fn staged_before_the_first_commit_is_every_record_added() {
    let repo = Repo::new();
    repo.write("example.com.yaml", &domain_file("", &[("/a", HTML)]));
    repo.git(&["add", "-A"]);
    let changes = record_changes(&diff_json(&repo, &["--staged"]));
    assert_eq!(
        changes,
        [("db/example.com.yaml".into(), "/a".into(), "added".into())]
    );
}

/// `git mv` of a domain file is a change of domain for its records, not
/// every record removed and added; into another folder, a move.
#[test]
fn a_renamed_domain_file_is_a_change_of_domain() {
    let repo = Repo::new();
    let records: Vec<(String, &str)> = (0..6).map(|i| (format!("/p{i}"), HTML)).collect();
    let records: Vec<(&str, &str)> = records.iter().map(|(p, t)| (p.as_str(), *t)).collect();
    repo.write("old.example.yaml", &domain_file("", &records));
    repo.write("stay.example.yaml", &domain_file("", &[("/s", HTML)]));
    let base = repo.commit("base");
    repo.git(&["mv", "db/old.example.yaml", "db/new.example.yaml"]);
    // Renamed and edited: one record more, one less.
    let mut edited = records.clone();
    edited.remove(0);
    edited.push(("/p9", HTML));
    repo.write("new.example.yaml", &domain_file("", &edited));
    std::fs::create_dir(repo.db().join("sub")).expect("mkdir");
    repo.git(&["mv", "db/stay.example.yaml", "db/sub/stay.example.yaml"]);
    let json = diff_json(&repo, &[&base]);
    let files = json["files"].as_array().expect("files");
    assert_eq!(files.len(), 2, "{json:#}");
    assert_eq!(files[0]["path"], "db/new.example.yaml");
    assert_eq!(files[0]["status"], "renamed");
    assert_eq!(
        files[0]["renamed-from"],
        serde_json::json!({"path": "db/old.example.yaml", "domain": "old.example"})
    );
    assert_eq!(files[0]["verify-every-record"], true);
    assert_eq!(
        record_changes(&json)
            .iter()
            .map(|(_, p, s)| format!("{s} {p}"))
            .collect::<Vec<_>>(),
        ["added /p9", "removed /p0"]
    );
    assert_eq!(files[1]["path"], "db/sub/stay.example.yaml");
    assert_eq!(files[1]["status"], "moved");
    assert_eq!(files[1]["verify-every-record"], false);
    let out = repo.urldb(&["diff", &base]);
    let text = stdout(&out);
    assert!(
        text.contains(
            "new.example db/new.example.yaml (renamed from old.example in db/old.example.yaml: \
             every URL changes domain)\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("stay.example db/sub/stay.example.yaml (moved from db/stay.example.yaml)\n"),
        "{text}"
    );
    assert!(
        text.contains("; 1 renamed (every URL of it changes domain)"),
        "{text}"
    );
}

/// A side that does not parse is said so; its records are neither all
/// removed nor all added.
#[test]
fn a_file_that_does_not_parse_at_one_side_is_reported_as_such() {
    let repo = Repo::new();
    repo.write("example.com.yaml", "---\n---\n_path: [\n");
    repo.write("fine.example.yaml", &domain_file("", &[("/a", HTML)]));
    let base = repo.commit("broken");
    repo.write(
        "example.com.yaml",
        &domain_file("", &[("/a", HTML), ("/b", HTML)]),
    );
    std::fs::write(
        repo.db().join("fine.example.yaml"),
        b"---\n---\n_path: /\xff\n",
    )
    .expect("write");
    let out = repo.urldb(&["diff", &base, "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    assert!(record_changes(&json).is_empty(), "{json:#}");
    let unreadable: Vec<(String, serde_json::Value)> = json["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|f| {
            (
                f["path"].as_str().expect("path").to_string(),
                f["unreadable"].clone(),
            )
        })
        .collect();
    assert_eq!(
        unreadable,
        [
            (
                "db/example.com.yaml".to_string(),
                serde_json::json!([{"side": "old", "reason": "does not parse as YAML (`urldb check` says more)", "error": false}])
            ),
            (
                "db/fine.example.yaml".to_string(),
                serde_json::json!([{"side": "new", "reason": "not UTF-8 text (`urldb check` says more)", "error": false}])
            ),
        ]
    );
    let text = stdout(&repo.urldb(&["diff", &base]));
    assert!(
        text.contains(&format!(
            "  ! the old side ({base}) cannot be read: does not parse as YAML (`urldb check` says \
             more); its records are not compared\n"
        )),
        "{text}"
    );
}

/// A pull request's checkout: a clone of depth 1, with the base fetched
/// alone (as the Action does). Without the base, a clear error.
#[test]
fn a_shallow_clone_with_the_base_fetched() {
    let origin = Repo::new();
    origin.write("example.com.yaml", &domain_file("", &[("/a", HTML)]));
    let base = origin.commit("base");
    origin.write(
        "example.com.yaml",
        &domain_file("", &[("/a", HTML), ("/b", HTML)]),
    );
    origin.commit("pull request");
    let url = format!("file://{}", origin.root().display());
    let clone = tempfile::tempdir().expect("tempdir");
    git(clone.path(), &["clone", "-q", "--depth", "1", &url, "."]);
    // The base is not there yet.
    let out = urldb_in(clone.path(), &["diff", &base]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(
        stderr(&out).starts_with(&format!(
            "error: no revision `{base}` in the repository at "
        )),
        "{}",
        stderr(&out)
    );
    git(clone.path(), &["fetch", "-q", "--depth=1", "origin", &base]);
    let out = urldb_in(
        clone.path(),
        &["diff", &format!("{base}..HEAD"), "--format", "json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    assert_eq!(
        record_changes(&json),
        [("db/example.com.yaml".into(), "/b".into(), "added".into())]
    );
}

/// Between two revisions only the blobs that differ are read: an
/// unchanged file's object removed from the repository, and the work tree
/// made unreadable, change nothing.
#[test]
fn between_revisions_only_the_files_that_changed_are_read() {
    let repo = Repo::new();
    repo.write("example.com.yaml", &domain_file("", &[("/a", HTML)]));
    repo.write(
        "same.example.yaml",
        &domain_file("", &[("/unchanged-and-unique", HTML)]),
    );
    let first = repo.commit("first");
    repo.write(
        "example.com.yaml",
        &domain_file("", &[("/a", HTML), ("/b", HTML)]),
    );
    let second = repo.commit("second");
    let blob = repo.git(&["rev-parse", "HEAD:db/same.example.yaml"]);
    let blob = blob.trim();
    let object = repo
        .root()
        .join(".git/objects")
        .join(&blob[..2])
        .join(&blob[2..]);
    std::fs::remove_file(&object).expect("a loose object");
    std::fs::write(repo.db().join("example.com.yaml"), "---\n---\n_path: [\n").expect("write");
    let json = diff_json(&repo, &[&format!("{first}..{second}")]);
    assert_eq!(
        record_changes(&json),
        [("db/example.com.yaml".into(), "/b".into(), "added".into())]
    );
    // The object is gone indeed: a diff that must read it cannot.
    repo.write("same.example.yaml", &domain_file("", &[("/changed", HTML)]));
    let out = repo.urldb(&["diff", "HEAD", "--format", "json"]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("error: db/same.example.yaml: git: "),
        "{}",
        stderr(&out)
    );
}

/// GitHub annotations: one `::notice` per changed record, on its line;
/// a `_path` that carries a workflow command stays inside its notice.
#[test]
fn github_notices_sit_on_the_records_and_carry_no_command() {
    let (repo, base) = changed_repo();
    repo.write(
        "evil.example.yaml",
        "---\n---\n_path: \"/x\\n::error file=a::forged\\r##[error]b\"\ncontent-type: text/html\n",
    );
    let out = repo.urldb(&["diff", &base, "--format", "github"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let removed = format!(
        "::notice file=db/example.com.yaml,title=urldb diff (removed)::/gone (line 9 of {base})"
    );
    assert_eq!(
        text.lines().collect::<Vec<_>>(),
        [
            "::notice file=db/evil.example.yaml,line=3,title=urldb diff (added)::/x\\n::error file=a::forged\\r##[error]b",
            "::notice file=db/example.com.yaml,line=1,title=urldb diff (metadata)::https: false → true (every URL of the domain)",
            "::notice file=db/example.com.yaml,line=4,title=urldb diff (changed)::/a: content-type: text/html → text/plain",
            "::notice file=db/example.com.yaml,line=7,title=urldb diff (changed)::/b: title: (none) → B",
            "::notice file=db/example.com.yaml,line=11,title=urldb diff (added)::/new: https://example.com/new",
            removed.as_str(),
        ]
    );
    let commands: Vec<&str> = runner::commands(&text)
        .into_iter()
        .filter_map(runner::command_in)
        .collect();
    assert_eq!(commands, ["notice"; 6]);
}

/// The Markdown summary: every value a code span, and within the size
/// asked for, saying what it left out.
#[test]
fn markdown_is_cut_to_its_limit_and_keeps_values_in_code_spans() {
    let repo = Repo::new();
    repo.write("example.com.yaml", &domain_file("", &[("/a", HTML)]));
    let base = repo.commit("base");
    let paths: Vec<String> = (0..400).map(|i| format!("/page-{i:03}-`|[x](y)")).collect();
    let records: Vec<(&str, &str)> = paths.iter().map(|p| (p.as_str(), HTML)).collect();
    let mut text = String::from("---\n");
    for (path, ct) in &records {
        text.push_str(&format!("---\n_path: \"{path}\"\ncontent-type: {ct}\n"));
    }
    repo.write("example.com.yaml", &text);
    let out = repo.urldb(&[
        "diff",
        &base,
        "--format",
        "markdown",
        "--summary-limit",
        "4096",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let md = stdout(&out);
    assert!(md.len() <= 4096, "{} bytes", md.len());
    assert!(
        md.starts_with(
            "## urldb diff\n\n**400 records added, 1 removed, 0 changed in 1 domain file** (`"
        ),
        "{md}"
    );
    assert!(
        md.contains("- added ``/page-000-`|[x](y)`` `http://example.com/page-000-%60|[x](y)`\n"),
        "{md}"
    );
    assert!(
        md.contains(" more lines (")
            && md.contains("`urldb diff --format json` lists every change."),
        "{md}"
    );
    // The whole list without a limit.
    let out = repo.urldb(&["diff", &base, "--format", "markdown"]);
    let md = stdout(&out);
    assert_eq!(md.matches("\n- added ").count(), 400);
    assert!(md.contains("\n- removed `/a`\n"), "{md}");
    assert!(!md.contains("more lines"), "{md}");
}

#[test]
fn a_revision_before_the_first_commit_says_there_is_none_yet() {
    let repo = Repo::new();
    repo.write("example.com.yaml", &domain_file("", &[("/a", HTML)]));
    for args in [&["diff", "HEAD"][..], &["diff", "--staged", "HEAD"]] {
        let out = repo.urldb(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stdout(&out));
        assert!(
            stderr(&out).starts_with("error: no revision `HEAD`: the repository at ")
                && stderr(&out).contains("has no commit yet; commit first, or compare without"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    // With no revision, the index and the work tree are compared.
    let out = repo.urldb(&["diff"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn what_cannot_be_compared_is_an_error() {
    let repo = Repo::new();
    repo.write("example.com.yaml", &domain_file("", &[("/a", HTML)]));
    repo.commit("base");
    let cases: [(&[&str], &str); 4] = [
        (
            &["diff", "no-such-rev"],
            "error: no revision `no-such-rev` in the repository at ",
        ),
        (
            &["diff", "HEAD...HEAD"],
            "error: `HEAD...HEAD`: `A...B` (the changes on B since it left A) is not supported; give `$(git merge-base A B)..B`",
        ),
        (
            &["diff", "--staged", "HEAD..HEAD"],
            "error: --staged compares a revision with the index: give one revision, not a range",
        ),
        (
            &["diff", "HEAD:urldb.toml"],
            "error: revision `HEAD:urldb.toml` names no commit or tree",
        ),
    ];
    for (args, message) in cases {
        let out = repo.urldb(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stdout(&out));
        assert!(
            stderr(&out).starts_with(message),
            "{args:?}: {}",
            stderr(&out)
        );
        assert!(stdout(&out).is_empty(), "{args:?}");
    }
    let outside = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        outside.path().join("example.com.yaml"),
        domain_file("", &[("/a", HTML)]),
    )
    .expect("write");
    let out = urldb_in(outside.path(), &["diff"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("is not inside a git repository (needed by urldb diff)"),
        "{}",
        stderr(&out)
    );
}

/// A side over `max-file-size` is said too large, not read; a work-tree
/// file the read policy refuses (a link out of the root) is an error.
#[test]
fn a_side_too_large_or_refused_is_said_and_the_refusal_is_exit_2() {
    let repo = Repo::new();
    std::fs::write(
        repo.root().join("urldb.toml"),
        "root = \"db\"\nmax-file-size = \"1 KiB\"\n",
    )
    .expect("write");
    repo.write("small.example.yaml", &domain_file("", &[("/a", HTML)]));
    let base = repo.commit("base");
    let many: Vec<String> = (0..40).map(|i| format!("/page-{i}")).collect();
    let records: Vec<(&str, &str)> = many.iter().map(|p| (p.as_str(), HTML)).collect();
    repo.write("small.example.yaml", &domain_file("", &records));
    let json = diff_json(&repo, &[&base]);
    assert_eq!(
        json["files"][0]["unreadable"],
        serde_json::json!([{"side": "new", "reason": "too large (1754 bytes; see `max-file-size`)", "error": false}]),
        "{json:#}"
    );
    assert!(record_changes(&json).is_empty());

    #[cfg(unix)]
    {
        let outside = tempfile::tempdir().expect("tempdir");
        let secret = outside.path().join("secret.yaml");
        std::fs::write(&secret, domain_file("", &[("/secret", HTML)])).expect("write");
        std::os::unix::fs::symlink(&secret, repo.db().join("link.example.yaml")).expect("symlink");
        let out = repo.urldb(&["diff", &base]);
        assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
        assert!(
            stderr(&out).contains(
                "error: db/link.example.yaml: symbolic link to a file outside the database root; not read"
            ),
            "{}",
            stderr(&out)
        );
        assert!(!stdout(&out).contains("/secret"), "{}", stdout(&out));
    }
}

/// `-q` prints less: the totals line alone (whether and how much
/// changed), not the records, and the same exit status.
#[test]
fn quiet_prints_the_totals_not_the_records() {
    let (repo, base) = changed_repo();
    let loud = repo.urldb(&["diff", &base]);
    let quiet = repo.urldb(&["-q", "diff", &base]);
    assert_eq!(quiet.status.code(), Some(0), "{}", stderr(&quiet));
    let totals = stdout(&loud)
        .lines()
        .last()
        .expect("the totals line")
        .to_string();
    assert!(totals.contains("1 removed"), "{totals}");
    assert_eq!(stdout(&quiet), format!("{totals}\n"));
    let exit = repo.urldb(&["-q", "diff", "--exit-code", &base]);
    assert_eq!(exit.status.code(), Some(1));
    assert_eq!(stdout(&exit), format!("{totals}\n"));
}
