//! Which files are in the database (`docs/files.md`, "Which files are in
//! the database"), through the binary, for every way a file reaches urldb:
//! the walk, named paths, `--staged`, `--since`, `--stdin-filename`, and
//! `check --show-files` to see the answer. The language server's side is in
//! `tests/it/server/`, the shipped hooks' in
//! `tests/it/project/first_hour.rs`.

use crate::support::reference_repo::{self, DB, EXAMPLE_CONFIG, NOT_CANONICAL, SECOND_DB};
use crate::support::{git, run_in, urldb};

use std::path::Path;
use std::process::{Output, Stdio};

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The repository like the reference one, in a git repository.
fn repository(ambiguous: bool) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    reference_repo::write(dir.path(), ambiguous);
    git(dir.path(), &["init", "-q"]);
    dir
}

/// Every YAML file of the repository, as a pre-commit hook names them.
const EVERY_YAML: &[&str] = &[
    "readthedocs.yml",
    "mkdocs.yml",
    "azure-pipelines.yml",
    "environment.yml",
    "ci/templates/build.yaml",
    "wwt_url_database/db/worldwidetelescope.org.yaml",
    "wwt_url_database/db/wwtassets.org.yaml",
    NOT_CANONICAL,
];

/// Without urldb.toml, a run over the whole database is a run over the one
/// folder of domain files: the repository's own YAML files are neither
/// checked nor formatted, and `ls`, `add` and `rm` see the same database.
#[test]
fn without_urldb_toml_the_database_is_the_one_folder_of_domain_files() {
    let dir = repository(false);
    let before = reference_repo::contents(dir.path());
    let check = run_in(dir.path(), &["check", "--format", "concise"]);
    assert_eq!(check.status.code(), Some(1), "{}", stderr(&check));
    assert!(
        stdout(&check)
            .lines()
            .all(|l| l.starts_with(&format!("{NOT_CANONICAL}:"))),
        "{}",
        stdout(&check)
    );
    assert!(
        stderr(&check).contains(&format!(
            "taking `{DB}` as the database, the one folder with domain files (3 domain files)"
        )),
        "{}",
        stderr(&check)
    );
    let fmt = run_in(dir.path(), &["fmt"]);
    assert_eq!(fmt.status.code(), Some(0), "{}", stderr(&fmt));
    let after = reference_repo::contents(dir.path());
    assert_eq!(
        reference_repo::changed(&before, &after),
        [Path::new(NOT_CANONICAL)]
    );
    let ls = run_in(dir.path(), &["ls"]);
    assert_eq!(
        stdout(&ls),
        "http://example.org/a\nhttp://example.org/b\nhttps://worldwidetelescope.org/\n\
         http://wwtassets.org/logo.png\n"
    );
    // A new domain goes into the database, not beside readthedocs.yml.
    let add = run_in(
        dir.path(),
        &[
            "add",
            "--create-domain",
            "--content-type",
            "text/html",
            "http://new.example.net/",
        ],
    );
    assert_eq!(add.status.code(), Some(0), "{}", stderr(&add));
    assert!(dir.path().join(DB).join("new.example.net.yaml").is_file());
}

/// Named paths: each one outside the database is skipped, never read or
/// written; a hook's many names get one line, one name its reason, `-v`
/// every reason, `-q` nothing. The run ends as if they were not named.
#[test]
fn named_files_that_are_not_in_the_database_are_skipped() {
    let dir = repository(false);
    // A directory that holds the database takes all of it; one beside it
    // is skipped whole.
    let top = run_in(dir.path(), &["check", "--format", "concise", ".", "ci"]);
    assert_eq!(top.status.code(), Some(1), "{}", stderr(&top));
    assert!(
        stdout(&top).starts_with(&format!("{NOT_CANONICAL}:6:8: error unsorted-records")),
        "{}",
        stdout(&top)
    );
    assert_eq!(
        stderr(&top),
        format!("note: ci: not in the database (outside the database root `{DB}`); skipped\n")
    );
    let before = reference_repo::contents(dir.path());
    let fmt = run_in(dir.path(), &[&["fmt"], EVERY_YAML].concat());
    assert_eq!(fmt.status.code(), Some(0), "{}", stderr(&fmt));
    assert_eq!(
        stderr(&fmt),
        format!(
            "note: skipped 5 files that are not in the database `{DB}` \
             (`urldb check --show-files PATH...` says why)\n"
        )
    );
    assert_eq!(stdout(&fmt), "1 file reformatted, 2 files left unchanged\n");
    let after = reference_repo::contents(dir.path());
    assert_eq!(
        reference_repo::changed(&before, &after),
        [Path::new(NOT_CANONICAL)]
    );
    let check = run_in(dir.path(), &[&["check"], EVERY_YAML].concat());
    assert_eq!(check.status.code(), Some(0), "{}", stdout(&check));

    let one = run_in(dir.path(), &["check", "readthedocs.yml"]);
    assert_eq!(one.status.code(), Some(0), "{}", stdout(&one));
    assert_eq!(
        stderr(&one),
        format!(
            "note: readthedocs.yml: not in the database (outside the database root `{DB}`); \
             skipped\n"
        )
    );
    let verbose = run_in(
        dir.path(),
        &["-v", "check", "mkdocs.yml", "environment.yml"],
    );
    assert!(
        stderr(&verbose).contains("note: mkdocs.yml: not in the database")
            && stderr(&verbose).contains("note: environment.yml: not in the database"),
        "{}",
        stderr(&verbose)
    );
    let quiet = run_in(dir.path(), &["-q", "fmt", "mkdocs.yml", "environment.yml"]);
    assert_eq!(quiet.status.code(), Some(0));
    assert_eq!(stderr(&quiet), "");
    assert_eq!(reference_repo::contents(dir.path()), after);
}

/// With urldb.toml, a named file that an `exclude` glob or a hidden name
/// keeps out is skipped too (as ruff with `--force-exclude`), and a file
/// that is no YAML file: naming it does not make it a domain file.
#[test]
fn named_excluded_hidden_and_non_yaml_files_are_skipped() {
    let dir = tempfile::tempdir().expect("tempdir");
    let unsorted =
        "---\n---\n_path: /b\ncontent-type: text/html\n---\n_path: /a\ncontent-type: text/html\n";
    for name in ["drafts/a.org.yaml", ".hidden/b.org.yaml", "notes.txt"] {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, unsorted).expect("write");
    }
    std::fs::write(dir.path().join("urldb.toml"), "exclude = [\"drafts/**\"]\n").expect("write");
    for (name, reason) in [
        (
            "drafts/a.org.yaml",
            "excluded by `exclude` glob `drafts/**`",
        ),
        (".hidden/b.org.yaml", "hidden name `.hidden`"),
        ("notes.txt", "not a `.yaml` file"),
    ] {
        let out = run_in(dir.path(), &["fmt", name]);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", stderr(&out));
        assert_eq!(
            stderr(&out),
            format!("note: {name}: not in the database ({reason}); skipped\n")
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join(name)).expect("read"),
            unsorted,
            "{name}"
        );
    }
}

/// `--staged` with a named file outside the database skips it (it used to
/// stop with exit 2, "no staged domain file here"), and checks the staged
/// domain files named with it.
#[test]
fn staged_skips_a_named_file_outside_the_database() {
    let dir = repository(false);
    git(dir.path(), &["add", "-A"]);
    let out = run_in(
        dir.path(),
        &[
            "fmt",
            "--check",
            "--staged",
            "readthedocs.yml",
            NOT_CANONICAL,
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        stdout(&out).lines().next(),
        Some(&*format!("Would reformat: {NOT_CANONICAL}"))
    );
    assert!(
        stderr(&out)
            .contains("note: readthedocs.yml: not in the database (outside the database root"),
        "{}",
        stderr(&out)
    );
    let only_outside = run_in(dir.path(), &["check", "--staged", "mkdocs.yml"]);
    assert_eq!(
        only_outside.status.code(),
        Some(0),
        "{}",
        stderr(&only_outside)
    );
    let before = reference_repo::contents(dir.path());
    let index = git(dir.path(), &["ls-files", "--stage"]);
    let written = run_in(
        dir.path(),
        &["fmt", "--staged", "readthedocs.yml", "mkdocs.yml"],
    );
    assert_eq!(written.status.code(), Some(0), "{}", stderr(&written));
    assert_eq!(reference_repo::contents(dir.path()), before);
    assert_eq!(git(dir.path(), &["ls-files", "--stage"]), index);
}

/// `--since` takes the changed files that are in the database only.
#[test]
fn since_takes_only_the_changed_files_in_the_database() {
    let dir = repository(false);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-qm", "start"]);
    std::fs::write(dir.path().join("mkdocs.yml"), "site_name: y\n").expect("write");
    let out = run_in(
        dir.path(),
        &[
            "check",
            "--since",
            "HEAD",
            "--format",
            "concise",
            "mkdocs.yml",
            DB,
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    assert!(
        stderr(&out).contains("note: mkdocs.yml: not in the database"),
        "{}",
        stderr(&out)
    );
    std::fs::write(
        dir.path().join(NOT_CANONICAL),
        "---\n---\n_path: /c\ncontent-type: text/nope/x\n",
    )
    .expect("write");
    let out = run_in(
        dir.path(),
        &["check", "--since", "HEAD", "--format", "concise"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).starts_with(NOT_CANONICAL), "{}", stdout(&out));
}

/// `--stdin-filename NAME` with NAME not in the database: `fmt` and
/// `check --fix` give the text back exactly, `check` says nothing; exit 0.
#[test]
fn stdin_named_outside_the_database_is_given_back_unchanged() {
    let dir = repository(false);
    let text = "version: 2\nbuild:\n  os: x\n# comment\nsphinx: {}\n\u{1b}[31m\n";
    let run = |args: &[&str]| {
        let mut child = urldb()
            .current_dir(dir.path())
            .args(args)
            .env("NO_COLOR", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), text.as_bytes())
            .expect("write");
        child.wait_with_output().expect("wait")
    };
    for args in [
        &["fmt", "--stdin-filename", "readthedocs.yml"][..],
        &["check", "--fix", "--stdin-filename", "readthedocs.yml"],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert_eq!(out.stdout, text.as_bytes(), "{args:?}");
        assert!(
            stderr(&out).contains("not in the database"),
            "{}",
            stderr(&out)
        );
    }
    let out = run(&["check", "--stdin-filename", EXAMPLE_CONFIG]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    let quiet = run(&["-q", "check", "--stdin-filename", "mkdocs.yml"]);
    assert_eq!(stderr(&quiet), "");
    // A member is checked as before.
    let member = run(&["check", "--stdin-filename", NOT_CANONICAL]);
    assert_eq!(member.status.code(), Some(1), "{}", stdout(&member));
}

/// Where more than one folder could be the database, every command that
/// uses it changes nothing, exits 2, and says which folders and what to run.
#[test]
fn several_folders_of_domain_files_change_nothing_and_say_so() {
    let dir = repository(true);
    let before = reference_repo::contents(dir.path());
    for args in [
        vec!["fmt"],
        [&["fmt"], EVERY_YAML, &[EXAMPLE_CONFIG]].concat(),
        vec!["check", "--fix"],
        vec!["ls"],
    ] {
        let out = run_in(dir.path(), &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert_eq!(stdout(&out), "", "{args:?}");
        assert_eq!(
            stderr(&out),
            format!(
                "error: no urldb.toml, and more than one folder below `.` holds files named like \
                 domain files: `{SECOND_DB}` (`example.net.yaml`), `{DB}` (3 files); urldb \
                 cannot tell which is the database, and changes nothing. Run `urldb init --root \
                 DIR` with the database's folder (it writes urldb.toml), or pass `--db DIR`\n"
            ),
            "{args:?}"
        );
    }
    assert_eq!(reference_repo::contents(dir.path()), before);
    // `--db` says which.
    let out = run_in(dir.path(), &["--db", DB, "fmt"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// Round 5, item 4: without urldb.toml, a folder counts as the database
/// only for its domain files: a YAML file named like one that holds no
/// record (`docs/config.example.yaml`, one mapping), a `.yml` name
/// (`docker-compose.prod.yml` at the top) or a compose file
/// (`deploy/docker-compose.prod.yaml`) never makes its folder, or the
/// whole repository, the database. A hook over every YAML file changes
/// the database only; two folders of real domain files still stop with
/// exit 2.
#[test]
fn a_yaml_file_that_is_no_domain_file_never_makes_its_folder_the_database() {
    let dir = repository(false);
    let decoys = [
        (EXAMPLE_CONFIG, reference_repo::EXAMPLE_CONFIG_TEXT),
        (
            "docker-compose.prod.yml",
            "services:\n  web:\n    image: nginx\n    ports:\n    - 80:80\n",
        ),
        (
            "deploy/docker-compose.prod.yaml",
            "---\nservices:\n  db: {image: postgres}\n",
        ),
    ];
    for (name, text) in decoys {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
    let before = reference_repo::contents(dir.path());
    let every_yaml: Vec<&str> = EVERY_YAML
        .iter()
        .copied()
        .chain(decoys.iter().map(|(n, _)| *n))
        .collect();
    let fmt = run_in(dir.path(), &[&["fmt"][..], &every_yaml].concat());
    assert_eq!(fmt.status.code(), Some(0), "{}", stderr(&fmt));
    assert_eq!(
        reference_repo::changed(&before, &reference_repo::contents(dir.path())),
        [Path::new(NOT_CANONICAL)]
    );
    let shown = run_in(dir.path(), &["check", "--show-files"]);
    assert_eq!(
        stderr(&shown),
        format!("note: the database is `{DB}` (no urldb.toml: the one folder with domain files)\n")
    );
    // A second folder of real domain files: ambiguous, nothing changed.
    let second = dir.path().join(SECOND_DB);
    std::fs::create_dir_all(&second).expect("mkdir");
    std::fs::write(
        second.join("example.net.yaml"),
        "---\n---\n_path: /b\ncontent-type: text/html\n---\n_path: /a\ncontent-type: text/html\n",
    )
    .expect("write");
    let before = reference_repo::contents(dir.path());
    let fmt = run_in(dir.path(), &[&["fmt"][..], &every_yaml].concat());
    assert_eq!(fmt.status.code(), Some(2), "{}", stderr(&fmt));
    assert_eq!(reference_repo::contents(dir.path()), before);
}

/// `check --show-files`: each file and whether it is in the database, with
/// the reason; how the root was chosen on stderr.
#[test]
fn show_files_says_which_files_are_in_and_why() {
    let dir = repository(false);
    std::fs::write(dir.path().join(DB).join("notes.yml"), "a: 1\n").expect("write");
    let out = run_in(dir.path(), &["check", "--show-files"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        format!(
            "{DB}/example.org.yaml: in the database\n\
             {DB}/notes.yml: not in the database (its name is a single label ending in \
             `.yml`, as a project's own files are named: a domain file is `<domain>.yaml`)\n\
             {DB}/worldwidetelescope.org.yaml: in the database\n\
             {DB}/wwtassets.org.yaml: in the database\n"
        )
    );
    assert_eq!(
        stderr(&out),
        format!("note: the database is `{DB}` (no urldb.toml: the one folder with domain files)\n")
    );
    let named = run_in(
        dir.path(),
        &[
            "check",
            "--show-files",
            "readthedocs.yml",
            ".travis.yml",
            "setup.cfg",
            "nothing.yaml",
        ],
    );
    assert_eq!(named.status.code(), Some(2), "{}", stderr(&named));
    assert_eq!(
        stdout(&named),
        format!(
            "readthedocs.yml: not in the database (outside the database root `{DB}`)\n\
             .travis.yml: not in the database (outside the database root `{DB}`)\n\
             setup.cfg: not in the database (outside the database root `{DB}`)\n"
        )
    );
    assert!(stderr(&named).contains("error: nothing.yaml: no such file or directory"));
    // With urldb.toml: its root, and every reason.
    std::fs::write(
        dir.path().join("urldb.toml"),
        format!("root = \"{DB}\"\nexclude = [\"old/**\"]\n"),
    )
    .expect("write");
    for name in [
        "old/x.org.yaml",
        ".cache/y.org.yaml",
        "README.md",
        "notes.org.yml",
    ] {
        let path = dir.path().join(DB).join(name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, "---\n").expect("write");
    }
    let db = |name: &str| format!("{DB}/{name}");
    let out = run_in(
        dir.path(),
        &[
            "check",
            "--show-files",
            &db("old/x.org.yaml"),
            &db(".cache/y.org.yaml"),
            &db("README.md"),
            &db("notes.yml"),
            &db("notes.org.yml"),
        ],
    );
    assert_eq!(
        stdout(&out),
        format!(
            "{DB}/old/x.org.yaml: not in the database (excluded by `exclude` glob `old/**`)\n\
             {DB}/.cache/y.org.yaml: not in the database (hidden name `.cache`)\n\
             {DB}/README.md: not in the database (not a `.yaml` file)\n\
             {DB}/notes.yml: not in the database (its name is a single label ending in \
             `.yml`, as a project's own files are named: a domain file is `<domain>.yaml`)\n\
             {DB}/notes.org.yml: in the database\n"
        )
    );
    assert_eq!(
        stderr(&out),
        format!("note: the database is `{DB}` (from urldb.toml)\n")
    );
}

/// A single label (`localhost.yaml`) is a valid domain file name
/// (`invalid-domain-name` accepts it), and so in the database that
/// urldb.toml names; without urldb.toml its name cannot tell it from
/// `mkdocs.yml`, and it is not. Nor is a `.yml` name without urldb.toml
/// (`docker-compose.prod.yml` has a dot too); with one, a `.yml` domain
/// file is in the database, with `wrong-extension`.
#[test]
fn single_label_and_yml_names_follow_the_rule() {
    let dir = tempfile::tempdir().expect("tempdir");
    let clean = "---\n---\n_path: /\ncontent-type: text/html\n";
    for name in ["localhost.yaml", "example.com.yaml", "example.org.yml"] {
        std::fs::write(dir.path().join(name), clean).expect("write");
    }
    let bare = run_in(dir.path(), &["check", "--format", "concise"]);
    assert_eq!(bare.status.code(), Some(0), "{}", stdout(&bare));
    assert_eq!(stdout(&bare), "");
    assert!(
        stderr(&bare).contains(
            "not domain files (a domain file is `<domain>.yaml`): `example.org.yml` \
             (`.yml`, not `.yaml`), `localhost.yaml` (a single label)"
        ),
        "{}",
        stderr(&bare)
    );
    std::fs::write(dir.path().join("urldb.toml"), "").expect("write");
    let configured = run_in(dir.path(), &["check", "--format", "concise"]);
    assert_eq!(configured.status.code(), Some(1));
    assert_eq!(
        stdout(&configured),
        "example.org.yml:1:1: warning wrong-extension domain files end in `.yaml`; \
         `example.org.yml` is checked but tools that look for `*.yaml` miss it\n",
    );
    let listed = run_in(dir.path(), &["ls"]);
    assert!(
        stdout(&listed).contains("http://localhost/"),
        "{}",
        stdout(&listed)
    );
}

/// `root = "."` at a repository's top: the project's own `mkdocs.yml`
/// (a single label ending in `.yml`) is in no database, as `urldb init`
/// decides, while `localhost.yaml` stays a member; without urldb.toml
/// each left-out file's note gives its own reason (issue 56).
#[test]
fn a_project_file_is_no_member_even_with_root_dot() {
    let dir = tempfile::tempdir().expect("tempdir");
    git(dir.path(), &["init", "-q"]);
    let clean = "---\n---\n_path: /\ncontent-type: text/html\n";
    std::fs::write(dir.path().join("example.com.yaml"), clean).expect("write");
    std::fs::write(dir.path().join("localhost.yaml"), clean).expect("write");
    std::fs::write(dir.path().join("mkdocs.yml"), "site_name: x\n").expect("write");
    std::fs::write(dir.path().join("example.net.yml"), clean).expect("write");

    let bare = run_in(dir.path(), &["check", "--format", "concise"]);
    assert!(
        stderr(&bare).contains(
            "note: not domain files (a domain file is `<domain>.yaml`): `example.net.yml` \
             (`.yml`, not `.yaml`), `localhost.yaml` (a single label), `mkdocs.yml` \
             (a project's own file)"
        ),
        "{}",
        stderr(&bare)
    );
    let named = run_in(dir.path(), &["-v", "check", "example.net.yml"]);
    assert!(
        stderr(&named).contains(
            "note: example.net.yml: not in the database (no urldb.toml, and its name ends in \
             `.yml`: a domain file is `<domain>.yaml`); skipped"
        ),
        "{}",
        stderr(&named)
    );

    std::fs::write(dir.path().join("urldb.toml"), "root = \".\"\n").expect("write");
    let configured = run_in(dir.path(), &["check", "--format", "concise"]);
    // `example.net.yml` is a member with a warning; `mkdocs.yml` none.
    assert_eq!(
        stdout(&configured),
        "example.net.yml:1:1: warning wrong-extension domain files end in `.yaml`; \
         `example.net.yml` is checked but tools that look for `*.yaml` miss it\n",
    );
    let named = run_in(dir.path(), &["-v", "check", "mkdocs.yml"]);
    assert_eq!(named.status.code(), Some(0), "{}", stdout(&named));
    assert!(
        stderr(&named).contains(
            "note: mkdocs.yml: not in the database (its name is a single label ending in \
             `.yml`, as a project's own files are named: a domain file is `<domain>.yaml`); \
             skipped"
        ),
        "{}",
        stderr(&named)
    );
    let listed = stdout(&run_in(dir.path(), &["ls"]));
    assert!(listed.contains("http://localhost/"), "{listed}");
    let shown = stdout(&run_in(dir.path(), &["check", "--show-files"]));
    assert!(!shown.lines().any(|l| l == "mkdocs.yml"), "{shown}");
}
