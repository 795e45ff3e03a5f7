//! One spelling of a path in every output, on every system: relative to
//! where urldb runs, `/` between its parts, as git prints them
//! (`docs/output.md`). A Windows path named with `\` on the command line
//! is shown with `/` too; SARIF's URIs are URI references, and its root is
//! the `file:` URI of the working directory (`file:///C:/...` on Windows).

use std::path::Path;

use super::{file_uri, run, stderr, stdout, urldb_on_windows, write};

/// A finding in a file two directories down, one of them with a space.
const FILE: &str = "sub dir/nested/example.org.yaml";
const ESCAPE: &str = "---\n---\n_path: /%7e\ncontent-type: text/html\n";
/// Beside it, a file `fmt` rewrites.
const UNSORTED_FILE: &str = "sub dir/nested/unsorted.org.yaml";
const UNSORTED: &str = "---\n---\ncontent-type: text/html\n_path: /a\n";

fn database() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    write(&dir.path().join("urldb.toml"), "");
    write(&dir.path().join(FILE), ESCAPE);
    write(&dir.path().join(UNSORTED_FILE), UNSORTED);
    dir
}

/// What each format writes for the path `sub dir/nested/example.org.yaml`.
fn spelled(format: &str) -> &'static str {
    match format {
        "full" => "╭─[sub dir/nested/example.org.yaml:3:9]",
        "concise" => "sub dir/nested/example.org.yaml:3:9: error path-unneeded-escape",
        "json" => "\"path\": \"sub dir/nested/example.org.yaml\"",
        "github" => "::error file=sub dir/nested/example.org.yaml,line=3,col=9,",
        "junit" => "file=\"sub dir/nested/example.org.yaml\"",
        "sarif" => "\"uri\": \"sub%20dir/nested/example.org.yaml\"",
        _ => unreachable!("{format}"),
    }
}

const FORMATS: [&str; 6] = ["full", "concise", "json", "github", "junit", "sarif"];

fn check(dir: &Path, format: &str, paths: &[&str]) -> String {
    let mut args = vec!["check", "--format", format];
    args.extend_from_slice(paths);
    let out = run(dir, &args);
    assert_eq!(out.status.code(), Some(1), "{format}: {}", stderr(&out));
    stdout(&out)
}

#[test]
fn every_format_spells_a_path_with_slashes() {
    let db = database();
    let dir = db.path();
    // The whole database, the directory named as `.`, the file itself, and
    // (where `\` separates) the file named the Windows way: one spelling.
    let mut namings: Vec<Vec<&str>> = vec![vec![], vec!["."], vec!["sub dir"], vec![FILE]];
    if urldb_on_windows() {
        namings.push(vec![r"sub dir\nested\example.org.yaml"]);
        namings.push(vec![r".\sub dir\nested"]);
    }
    for format in FORMATS {
        for paths in &namings {
            let out = check(dir, format, paths);
            assert!(out.contains(spelled(format)), "{format} {paths:?}: {out}");
            assert!(
                !out.contains("nested\\") && !out.contains("./sub") && !out.contains(".\\sub"),
                "{format} {paths:?}: a path spelled another way: {out}"
            );
        }
    }
    let out = run(dir, &["fmt", "--check"]);
    assert!(
        stdout(&out).contains("Would reformat: sub dir/nested/unsorted.org.yaml"),
        "{}",
        stdout(&out)
    );
}

/// SARIF's `%SRCROOT%` is the working directory as a `file:` URI, which the
/// relative URIs of the results resolve against: on Windows `file:///C:/…`,
/// never a drive letter after `file://`.
#[test]
fn sarif_root_is_the_file_uri_of_the_working_directory() {
    let db = database();
    let dir = db.path().join("sub dir");
    // A database of its own, so that its paths are below the run's folder
    // (the top's urldb.toml would make the whole tree one database).
    write(&dir.join("urldb.toml"), "");
    let out = run(&dir, &["check", "--format", "sarif"]);
    let sarif: serde_json::Value = serde_json::from_slice(&out.stdout).expect("SARIF is JSON");
    let root = sarif["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"]
        .as_str()
        .expect("a root URI")
        .to_string();
    assert_eq!(root, format!("{}/", file_uri(&dir)), "{root}");
    assert!(root.ends_with("/sub%20dir/"), "{root}");
    let result = &sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
    assert_eq!(
        result["artifactLocation"]["uri"], "nested/example.org.yaml",
        "{result}"
    );
    // The two together name the file.
    let joined = url::Url::parse(&root)
        .and_then(|r| r.join("nested/example.org.yaml"))
        .expect("a URI");
    assert_eq!(
        joined.as_str(),
        file_uri(&dir.join("nested").join("example.org.yaml"))
    );
}

/// An error that names a file spells it as the outputs do.
#[test]
fn errors_name_a_file_with_slashes() {
    let db = database();
    let dir = db.path();
    let file = dir.join(UNSORTED_FILE);
    let mut permissions = std::fs::metadata(&file).expect("meta").permissions();
    permissions.set_readonly(true);
    std::fs::set_permissions(&file, permissions).expect("read-only");
    let out = run(dir, &["fmt"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("sub dir/nested/unsorted.org.yaml: is read-only"),
        "{err}"
    );
    assert!(!err.contains("nested\\"), "{err}");
    assert!(
        stdout(&out).contains("1 not written (see above)"),
        "{}",
        stdout(&out)
    );
    assert_eq!(std::fs::read_to_string(&file).expect("read"), UNSORTED);
}

/// `--config /dev/null` means no configuration; on Windows `NUL` too
/// (its null device, which Git Bash passes for `/dev/null`).
#[test]
fn the_null_device_is_no_configuration() {
    let db = database();
    let dir = db.path();
    write(
        &dir.join("urldb.toml"),
        "[lint]\nignore = [\"path-unneeded-escape\", \"unsorted-keys\"]\n",
    );
    let out = run(dir, &["check"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let mut nulls = vec!["/dev/null"];
    if urldb_on_windows() {
        nulls.extend(["NUL", "nul", r"\\.\NUL"]);
    }
    for null in nulls {
        let out = run(dir, &["--config", null, "check", "--format", "concise"]);
        assert_eq!(out.status.code(), Some(1), "{null}: {}", stderr(&out));
        assert!(
            stdout(&out).contains("path-unneeded-escape"),
            "{null}: {}",
            stdout(&out)
        );
    }
}
