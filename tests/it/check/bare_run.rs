//! A bare run (no `urldb.toml`, no `--db`) at the root of a repository
//! whose database is in a subdirectory, as a new user tries it: the
//! database is the one folder of domain files, the repository's own YAML
//! files are not domain files, and urldb says which directory it took as
//! the database, or what to do when it found none.

use crate::support;

#[test]
fn a_bare_run_at_a_repository_root_finds_the_database_and_says_so() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    std::fs::write(
        root.join("readthedocs.yml"),
        "version: 2\nbuild:\n  os: ubuntu-22.04\n",
    )
    .expect("write");
    std::fs::write(
        root.join("mkdocs.yml"),
        "site_name: x\nnav:\n- Home: index.md\n",
    )
    .expect("write");
    std::fs::write(root.join(".pre-commit-config.yaml"), "repos: []\n").expect("write");
    std::fs::create_dir(root.join("database")).expect("mkdir");
    std::fs::write(
        root.join("database/example.com.yaml"),
        "---\n---\n_path: /a\ncontent-type: text/nope/x\n",
    )
    .expect("write");
    let out = support::run_in(root, &["check", "--format", "concise"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // The one real finding; nothing about the repository's own files.
    assert_eq!(
        stdout
            .lines()
            .map(|l| l.split(' ').take(3).collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>(),
        ["database/example.com.yaml:4:15: error invalid-content-type"],
        "{stdout}"
    );
    // The database is the folder of domain files, not the repository:
    // the repository's own files are outside it, not even looked at.
    assert!(
        stderr.contains(
            "taking `database` as the database, the one folder with domain files (1 domain file)"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("readthedocs"), "{stderr}");
    // With a configuration whose root is the repository's top, a name
    // that is a single label ending in `.yml` is still a project's own
    // file, as `urldb init` decides (issue 56).
    std::fs::write(root.join("urldb.toml"), "").expect("write");
    let configured = support::run_in(root, &["check", "--format", "concise"]);
    let stdout = String::from_utf8_lossy(&configured.stdout);
    assert!(!stdout.contains("readthedocs.yml"), "{stdout}");
    assert!(stdout.contains("database/example.com.yaml"), "{stdout}");
}

#[test]
fn a_bare_run_without_domain_files_points_to_init_and_db() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("mkdocs.yml"), "site_name: x\n").expect("write");
    let out = support::run_in(dir.path(), &["check"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // No database is an error, not "All checks passed." (issue 49).
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("no domain file (`<domain>.yaml`) below `.`; 1 YAML file not named `<domain>.yaml` (`urldb check --show-files` says why): run urldb in the database directory or pass `--db DIR`; `urldb init` writes a urldb.toml"),
        "{stderr}"
    );
}

/// `ls --domain` finds the files once to check the domain it is asked for
/// and to list it: its notes are said once.
#[test]
fn a_bare_listing_of_one_domain_says_its_notes_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("example.com.yaml"),
        "---\n---\n_path: /\ncontent-type: text/html\n",
    )
    .expect("write");
    std::fs::write(dir.path().join("mkdocs.yml"), "site_name: x\n").expect("write");
    let out = support::run_in(dir.path(), &["ls", "--domain", "example.com"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "http://example.com/\n"
    );
    assert_eq!(
        stderr.matches("taking `.` as the database").count(),
        1,
        "{stderr}"
    );
    assert_eq!(stderr.matches("not domain files").count(), 1, "{stderr}");
}
