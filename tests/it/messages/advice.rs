//! Advice a newcomer can follow: what to type when the server cannot be
//! asked, no advice about text a file does not hold, and git's revisions
//! in urldb's words.

use crate::support::{self, run_in};

const CLEAN: &str = "---\n---\n_path: /\ncontent-type: text/html\n";

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `add` with no server to ask (offline, or a host not up yet) says how to
/// add the URL without asking, and that way works with no request at all.
#[test]
fn add_without_a_server_names_content_type() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("example.com.yaml"), CLEAN).expect("write");
    // Nothing listens on port 9.
    let out = run_in(
        dir.path(),
        &[
            "add",
            "--allow-private",
            "--timeout",
            "2s",
            "--map",
            "example.com=127.0.0.1:9",
            "https://example.com/x.html",
        ],
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("give its content type with --content-type"),
        "{err}"
    );
    assert_eq!(
        err.matches("https://example.com/x.html").count(),
        1,
        "{err}"
    );
    // As advised: no request, the record is added.
    let out = run_in(
        dir.path(),
        &[
            "add",
            "--map",
            "example.com=127.0.0.1:9",
            "--content-type",
            "text/html",
            "https://example.com/x.html",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(dir.path().join("example.com.yaml")).expect("read");
    assert!(
        text.contains("_path: /x.html\ncontent-type: text/html\n"),
        "{text}"
    );
}

/// A file that is not UTF-8 is shown with U+FFFD where its bad bytes are;
/// no finding speaks of that character or advises writing it
/// (`%EF%BF%BD` would corrupt the URL): `invalid-utf8` says where the bytes
/// are. A file that holds U+FFFD itself still gets the advice, which is
/// right there.
#[test]
fn no_finding_advises_text_the_file_does_not_hold() {
    let dir = tempfile::tempdir().expect("tempdir");
    let latin1 = b"---\n---\n_path: /caf\xe9 menu\ncontent-type: text/html\n---\n_path: /z\xff\xfe\ncontent-type: text/html\n";
    std::fs::write(dir.path().join("example.com.yaml"), latin1).expect("write");
    std::fs::write(
        dir.path().join("example.org.yaml"),
        "---\n---\n_path: /caf\u{fffd}\ncontent-type: text/html\n",
    )
    .expect("write");
    let out = run_in(dir.path(), &["check", "--format", "json"]);
    let findings: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let findings = findings.as_array().expect("array");
    let of = |path: &str| -> Vec<&serde_json::Value> {
        findings.iter().filter(|f| f["path"] == path).collect()
    };
    let codes: Vec<&str> = of("example.com.yaml")
        .iter()
        .filter_map(|f| f["code"].as_str())
        .collect();
    assert!(codes.contains(&"invalid-utf8"), "{findings:?}");
    for f in of("example.com.yaml") {
        let said = format!("{} {}", f["message"], f["help"]);
        assert!(
            !said.contains('\u{fffd}') && !said.contains("EF%BF%BD"),
            "a finding about text the file does not hold: {f}"
        );
    }
    // The space in the same path is the file's own: still reported.
    assert!(
        codes.contains(&"path-invalid-char") || codes.len() == 1,
        "{findings:?}"
    );
    let genuine: Vec<String> = of("example.org.yaml")
        .iter()
        .map(|f| f["help"].to_string())
        .collect();
    assert!(
        genuine.iter().any(|h| h.contains("%EF%BF%BD")),
        "{genuine:?}"
    );
    // Nothing is rewritten in a file urldb cannot read exactly.
    let out = run_in(dir.path(), &["check", "--fix", "example.com.yaml"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        std::fs::read(dir.path().join("example.com.yaml")).expect("read"),
        latin1
    );
}

/// A revision git cannot find is said in urldb's words, with what to give
/// instead; git's own wording (`couldn't parse revision`) is not shown.
#[test]
fn a_revision_error_is_in_urldbs_words() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("example.com.yaml"), CLEAN).expect("write");
    support::git(dir.path(), &["init", "-q"]);
    support::git(dir.path(), &["add", "-A"]);
    support::git(dir.path(), &["commit", "-q", "-m", "first"]);
    for (rev, want) in [
        ("nosuchrev", "no revision `nosuchrev` in the repository"),
        ("HEAD~3", "no revision `HEAD~3` in the repository"),
        (
            "HEAD:example.com.yaml",
            "revision `HEAD:example.com.yaml` names no commit or tree",
        ),
    ] {
        let out = run_in(dir.path(), &["check", "--since", rev]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{rev}: {err}");
        assert!(err.contains(want), "{rev}: {err}");
        for git_words in ["couldn't parse", "input=", "Reference", "revspec"] {
            assert!(!err.contains(git_words), "{rev}: {err}");
        }
    }
}
