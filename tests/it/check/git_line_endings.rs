//! Line-ending conversion in git: a work tree that git checked out with
//! CRLF (`core.autocrlf=true`, as Git for Windows sets it, or a
//! `.gitattributes` asking for CRLF) while the blobs keep LF. `--staged` and
//! `--since` compare the two as git does, after its conversion, so every
//! command behaves as on a checkout with LF: the same scenario runs on the
//! three (`docs/git.md`, "Line endings").

use super::git::{BAD_ESCAPE, CLEAN, Repo, UNSORTED, codes, stderr, stdout};

/// `text` with the line breaks of a checkout that uses `eol`.
fn written(text: &str, eol: &str) -> String {
    text.replace('\n', eol)
}

/// A repository configured by `setup` before anything is committed, with
/// two clean domain files committed and then checked out again, as a
/// clone's are: with `eol` line breaks in the work tree, LF in the blobs.
fn checkout(setup: impl Fn(&Repo), eol: &str) -> Repo {
    let repo = Repo::new();
    setup(&repo);
    for name in ["example.com.yaml", "example.org.yaml"] {
        repo.stage(name, CLEAN);
    }
    repo.commit("first");
    for name in ["example.com.yaml", "example.org.yaml"] {
        std::fs::remove_file(repo.db().join(name)).expect("remove");
    }
    repo.git(&["checkout", "--", "db"]);
    for name in ["example.com.yaml", "example.org.yaml"] {
        assert_eq!(
            repo.read(name),
            written(CLEAN, eol),
            "{name} as checked out"
        );
        assert_eq!(repo.staged(name), CLEAN, "{name} as staged");
    }
    // git sees nothing to commit: the conversion is all that differs.
    assert_eq!(repo.git(&["status", "--porcelain"]), "");
    repo
}

/// What a user of any checkout sees, whatever its line endings (`eol`).
fn behaves_as_an_lf_checkout(repo: &Repo, eol: &str) {
    // --since: no file differs from HEAD but by the conversion.
    let out = repo.urldb(&["check", "--since", "HEAD", "--format", "concise"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    assert_eq!(stdout(&out), "");
    let out = repo.urldb(&["fmt", "--check", "--since", "HEAD"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    assert_eq!(
        stdout(&out),
        "0 files would be reformatted, 0 files left unchanged\n"
    );

    // A real change is seen, and only it.
    repo.write("example.org.yaml", &written(BAD_ESCAPE, eol));
    let out = repo.urldb(&["check", "--since", "HEAD", "--format", "concise"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.lines()
            .all(|l| l.starts_with("db/example.org.yaml:3:") && l.contains("path-escape-case")),
        "{text}"
    );
    assert_eq!(codes(&out), ["path-escape-case"]);
    let out = repo.urldb(&["fmt", "--check", "--since", "HEAD"]);
    assert_eq!(
        stdout(&out),
        "0 files would be reformatted, 1 file left unchanged\n"
    );

    // --staged: `git add` stores LF; check reads the staged blob.
    repo.git(&["add", "db/example.org.yaml"]);
    assert_eq!(repo.staged("example.org.yaml"), BAD_ESCAPE);
    let out = repo.urldb(&["check", "--staged", "--format", "concise"]);
    assert_eq!(codes(&out), ["path-escape-case"], "{}", stderr(&out));
    // check --fix --staged repairs both, the work tree as git checks it
    // out: git then sees the change staged and nothing unstaged.
    let out = repo.urldb(&["check", "--fix", "--staged"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    let fixed = "---\n---\n_path: /a%2Fb\ncontent-type: text/html\n";
    assert_eq!(repo.staged("example.org.yaml"), fixed);
    assert_eq!(repo.read("example.org.yaml"), written(fixed, eol));
    assert_eq!(
        repo.git(&["status", "--porcelain"]),
        "M  db/example.org.yaml\n"
    );

    // fmt --staged formats a staged edit in both places.
    repo.write("example.com.yaml", &written(UNSORTED, eol));
    repo.git(&["add", "db/example.com.yaml"]);
    let out = repo.urldb(&["fmt", "--staged"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    assert!(
        stdout(&out).starts_with("1 file reformatted"),
        "{}",
        stdout(&out)
    );
    assert_eq!(repo.staged("example.com.yaml"), CLEAN);
    assert_eq!(repo.read("example.com.yaml"), written(CLEAN, eol));
    // Formatted back to what HEAD holds: git sees no change to it at all.
    assert_eq!(
        repo.git(&["status", "--porcelain"]),
        "M  db/example.org.yaml\n"
    );
    let out = repo.urldb(&["fmt", "--check", "--staged"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );

    // Unstaged work is still never touched.
    repo.write("example.com.yaml", &written(UNSORTED, eol));
    repo.git(&["add", "db/example.com.yaml"]);
    let unstaged = written(
        &format!("{UNSORTED}---\n_path: /b\ncontent-type: text/html\n"),
        eol,
    );
    repo.write("example.com.yaml", &unstaged);
    let out = repo.urldb(&["fmt", "--staged"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(
        stderr(&out)
            .contains("db/example.com.yaml: not formatted: the working tree has unstaged changes"),
        "{}",
        stderr(&out)
    );
    assert_eq!(repo.read("example.com.yaml"), unstaged);
    assert_eq!(repo.staged("example.com.yaml"), UNSORTED);
}

/// The scenario on a checkout with LF: what the others are held to.
#[test]
fn an_lf_checkout() {
    let repo = checkout(|_| {}, "\n");
    behaves_as_an_lf_checkout(&repo, "\n");
}

/// Git for Windows' default: `core.autocrlf=true`.
#[test]
fn core_autocrlf_true_is_compared_after_conversion() {
    let repo = checkout(
        |repo| {
            repo.git(&["config", "core.autocrlf", "true"]);
        },
        "\r\n",
    );
    behaves_as_an_lf_checkout(&repo, "\r\n");
}

/// The repository asks for CRLF itself, whatever `core.autocrlf` says.
#[test]
fn gitattributes_text_auto_eol_crlf_is_compared_after_conversion() {
    let repo = checkout(
        |repo| {
            std::fs::write(repo.root().join(".gitattributes"), "* text=auto eol=crlf\n")
                .expect("write");
            repo.git(&["add", ".gitattributes"]);
        },
        "\r\n",
    );
    behaves_as_an_lf_checkout(&repo, "\r\n");
}

/// A `filter=` attribute names a program in git's configuration: urldb
/// never runs it (the file is compared without it).
#[test]
fn filter_programs_are_never_run() {
    let repo = Repo::new();
    std::fs::write(repo.root().join(".gitattributes"), "*.yaml filter=mark\n").expect("write");
    repo.git(&["add", ".gitattributes"]);
    repo.stage("example.com.yaml", CLEAN);
    repo.commit("first");
    repo.stage("example.com.yaml", UNSORTED);
    // Configured after git has done its part, so that only urldb could
    // run it from here on.
    let marker = repo.root().join("filter-ran");
    let program = format!("touch '{}'; cat", marker.display());
    for key in ["clean", "smudge"] {
        repo.git(&["config", &format!("filter.mark.{key}"), &program]);
    }
    repo.git(&["config", "filter.mark.required", "true"]);

    let out = repo.urldb(&["fmt", "--check", "--since", "HEAD"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    let out = repo.urldb(&["fmt", "--staged"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    assert_eq!(repo.staged("example.com.yaml"), CLEAN);
    assert_eq!(repo.read("example.com.yaml"), CLEAN);
    assert!(!marker.exists(), "urldb ran the filter program");
}

/// `--since` reads the index for git's conversion: an index git cannot
/// read either is an error (exit 2), not every file changed.
#[test]
fn since_with_an_unreadable_index_is_an_error() {
    let repo = Repo::new();
    repo.stage("example.com.yaml", CLEAN);
    repo.commit("first");
    std::fs::write(repo.root().join(".git/index"), "DIRC").expect("write");
    let out = repo.urldb(&["check", "--since", "HEAD"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    assert!(stderr(&out).starts_with("error: git: "), "{}", stderr(&out));
}
