//! Names compared as hosts (`docs/security.md`, "Who controls what"):
//! two spellings of one host (`Example.com`, `example.com.`, an IDN and
//! its A-label form) are one host to `verify`, and so to every rule that
//! compares names (`domain-conflict`, `cname-conflict`, `cname-is-primary`,
//! `duplicate-cname`). Two files, or a file and a cname, naming one host
//! is a gate finding: a pull request cannot excuse it.

use std::path::Path;

use crate::support::run_in;

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).expect("write");
}

/// The findings of `check --format json` as (file, code) pairs, and the
/// exit code.
fn findings(dir: &Path, args: &[&str]) -> (Vec<(String, String)>, Option<i32>) {
    let mut all = vec!["--no-cache", "check", "--format", "json"];
    all.extend_from_slice(args);
    let out = run_in(dir, &all);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let pairs = json
        .as_array()
        .expect("array")
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap_or_default().to_string(),
                f["code"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    (pairs, out.status.code())
}

fn has(found: &[(String, String)], file: &str, code: &str) -> bool {
    found.iter().any(|(f, c)| f == file && c == code)
}

const RECORD: &str = "content-type: text/html\n";

/// The attack of the report: `Example.com.yaml` (its `invalid-domain-name`
/// excused by a comment, and the conflict too) beside `example.com.yaml`
/// passed `check`, and `ls` listed both files' records under one host.
/// Whatever comments, `urldb.toml` and the command line say, `check` now
/// fails in both files.
#[test]
fn two_spellings_of_one_host_fail_check_whatever_excuses_them() {
    for other in ["Example.com.yaml", "example.com..yaml", "EXAMPLE.COM..yaml"] {
        let dir = tempfile::tempdir().expect("tempdir");
        write(
            dir.path(),
            "urldb.toml",
            "[lint]\nignore = [\"domain-conflict\"]\n\n[lint.per-file-ignores]\n\"*\" = [\"ALL\"]\n",
        );
        write(
            dir.path(),
            "example.com.yaml",
            &format!("---\nhttps: true\n---\n_path: /a\n{RECORD}"),
        );
        write(
            dir.path(),
            other,
            &format!(
                "# urldb: ignore-file[invalid-domain-name, domain-conflict]\n---\n---\n_path: /b\n{RECORD}"
            ),
        );
        for args in [&[][..], &["--ignore", "domain-conflict"]] {
            let (found, code) = findings(dir.path(), args);
            assert_eq!(code, Some(1), "{other} {args:?}: {found:?}");
            assert!(
                has(&found, "example.com.yaml", "domain-conflict")
                    && has(&found, other, "domain-conflict"),
                "{other} {args:?}: {found:?}"
            );
        }
    }
}

/// A cname spelt otherwise than another file's name, or than a cname of
/// another file, is the same host: a gate finding in every file involved.
#[test]
fn a_cname_of_another_spelling_conflicts_and_cannot_be_excused() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        "urldb.toml",
        "[lint]\nselect = [\"path-case\"]\n",
    );
    let excuse = "# urldb: ignore-file[cname-conflict, invalid-cname]\n";
    write(
        dir.path(),
        "example.com.yaml",
        &format!("{excuse}---\ncnames:\n- WWW.Example.com.\n---\n_path: /a\n{RECORD}"),
    );
    write(
        dir.path(),
        "example.net.yaml",
        &format!("{excuse}---\ncnames:\n- www.example.com\n---\n_path: /b\n{RECORD}"),
    );
    write(
        dir.path(),
        "shop.example.org.yaml",
        &format!("{excuse}---\n---\n_path: /c\n{RECORD}"),
    );
    write(
        dir.path(),
        "example.org.yaml",
        &format!("{excuse}---\ncnames:\n- SHOP.example.org\n---\n_path: /d\n{RECORD}"),
    );
    let (found, code) = findings(dir.path(), &["--ignore", "cname-conflict"]);
    assert_eq!(code, Some(1), "{found:?}");
    for file in [
        "example.com.yaml",
        "example.net.yaml",
        "shop.example.org.yaml",
        "example.org.yaml",
    ] {
        assert!(has(&found, file, "cname-conflict"), "{file}: {found:?}");
    }
    let out = run_in(dir.path(), &["--no-cache", "check", "--format", "concise"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(
            "cname `WWW.Example.com.` (the host `www.example.com`) is also listed by `example.net.yaml`"
        ),
        "{stdout}"
    );
}

/// In one file: `cnames: [WWW.example.com, www.example.com, Example.com]`
/// in `example.com.yaml` lists one alias twice and the file's own host;
/// both rules say so, and `check --fix` leaves one alias.
#[test]
fn one_files_cnames_are_compared_as_hosts() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "urldb.toml", "");
    write(
        dir.path(),
        "example.com.yaml",
        &format!(
            "---\ncnames:\n- WWW.example.com\n- www.example.com\n- Example.com\n---\n_path: /a\n{RECORD}"
        ),
    );
    let (found, code) = findings(dir.path(), &[]);
    assert_eq!(code, Some(1));
    assert!(
        has(&found, "example.com.yaml", "duplicate-cname"),
        "{found:?}"
    );
    assert!(
        has(&found, "example.com.yaml", "cname-is-primary"),
        "{found:?}"
    );
    let fix = run_in(dir.path(), &["--no-cache", "check", "--fix"]);
    assert_eq!(
        fix.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&fix.stdout)
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("example.com.yaml")).expect("read"),
        format!("---\ncnames:\n- www.example.com\n---\n_path: /a\n{RECORD}")
    );
}

/// A file that starts with a comment (the `ignore-file` line
/// `--add-suppressions` writes at the top) lists its cnames all the same
/// when it is not checked: `check b.org.yaml` (a hook naming the files of
/// a commit, `--since`) found no conflict with such an `a.org.yaml`, whose
/// metadata was read as the comment alone, and passed.
#[test]
fn a_conflict_with_a_file_that_starts_with_a_comment_is_found_naming_either_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "urldb.toml", "");
    write(
        dir.path(),
        "a.org.yaml",
        &format!(
            "# urldb: ignore-file[cname-conflict]\n\n---\ncnames:\n- www.shared.org\n---\n_path: /a\n{RECORD}"
        ),
    );
    write(
        dir.path(),
        "b.org.yaml",
        &format!("---\ncnames:\n- www.shared.org\n---\n_path: /b\n{RECORD}"),
    );
    for (named, other) in [("b.org.yaml", "a.org.yaml"), ("a.org.yaml", "b.org.yaml")] {
        let (found, code) = findings(dir.path(), &[named]);
        assert_eq!(code, Some(1), "{named}: {found:?}");
        assert!(has(&found, named, "cname-conflict"), "{named}: {found:?}");
        assert!(!found.iter().any(|(f, _)| f == other), "{named}: {found:?}");
    }
}
