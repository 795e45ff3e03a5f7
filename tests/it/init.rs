//! `urldb init` through the binary (`docs/guide.md`, "urldb init"): it
//! adopts the database that is there (urldb.toml at the top of the git
//! work tree, `root` naming the folder, nothing in the database added or
//! changed, the same files in it as before), asks for `--root` where more
//! than one folder could be the database, makes a new database in an empty
//! directory, and refuses, writing nothing, what it cannot do.

use crate::support::reference_repo::{
    self, DB, EXAMPLE_CONFIG, NOT_CANONICAL, SECOND_DB, SECOND_DB_FILE,
};
use crate::support::{git, run_in};

use std::path::Path;
use std::process::Output;

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn repository(ambiguous: bool) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    reference_repo::write(dir.path(), ambiguous);
    git(dir.path(), &["init", "-q"]);
    dir
}

/// The lines of `check --show-files` that name a file in the database.
fn members(dir: &Path) -> Vec<String> {
    let out = run_in(dir, &["check", "--show-files"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    stdout(&out)
        .lines()
        .filter(|l| l.ends_with(": in the database"))
        .map(str::to_string)
        .collect()
}

/// Run from a folder inside the repository, `init` finds the database,
/// writes urldb.toml at the top of the work tree, and the database holds
/// exactly the files it held without it: a YAML file in it whose name is
/// no domain name stays out, through `exclude`.
#[test]
fn init_adopts_the_one_folder_of_domain_files() {
    let dir = repository(false);
    std::fs::write(dir.path().join(DB).join("notes.yml"), "a: 1\n").expect("write");
    let before = reference_repo::contents(dir.path());
    let listed = stdout(&run_in(dir.path(), &["ls"]));
    let in_before = members(dir.path());

    let out = run_in(&dir.path().join("wwt_url_database"), &["init"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
    // Above the current directory, urldb.toml is shown by its full path.
    let config = dunce::canonicalize(dir.path())
        .expect("canonical")
        .join("urldb.toml");
    let config = config.display();
    // Then the pre-commit hooks (`project::pre_commit` runs them).
    let printed = stdout(&out);
    let (said, hooks) = printed
        .split_once("For pre-commit, ")
        .expect("init offers the pre-commit hooks");
    assert!(hooks.contains("\nrepos:\n  - repo: local\n"), "{hooks}");
    assert_eq!(
        said,
        format!(
            "Found 3 domain files in `db`.\n\
             Created {config} with root = \"wwt_url_database/db\"; no domain file was added or \
             changed.\n\
             No domain file is in one style alone; if the reference tool (wwturldb) still writes \
             them, set style = \"pyyaml\" in {config}: it keeps the bytes wwturldb writes \
             (non-ASCII escaped, long values folded), which `urldb fmt` would rewrite in the \
             readable style (the default).\n\
             Left out 1 YAML file whose names are no domain names (`exclude` in {config}): \
             `notes.yml`.\n\
             Next: `urldb check` (urldb finds {config} from every directory below it), then \
             `urldb check --fix`.\n"
        )
    );
    let after = reference_repo::contents(dir.path());
    assert_eq!(
        reference_repo::changed(&before, &after),
        [Path::new("urldb.toml")]
    );
    let config = std::fs::read_to_string(dir.path().join("urldb.toml")).expect("read");
    assert!(
        config.contains("root = \"wwt_url_database/db\"")
            && config.contains("exclude = [\n  \"notes.yml\",\n]"),
        "{config}"
    );
    // The same database, now said by urldb.toml, from anywhere in the
    // repository.
    assert_eq!(stdout(&run_in(dir.path(), &["ls"])), listed);
    assert_eq!(members(dir.path()), in_before);
    let deep = run_in(
        &dir.path().join("ci/templates"),
        &["check", "--format", "concise"],
    );
    assert_eq!(deep.status.code(), Some(1), "{}", stderr(&deep));
    assert!(
        stdout(&deep).contains(&format!("/{NOT_CANONICAL}:6:8: error unsorted-records")),
        "{}",
        stdout(&deep)
    );
    // A second init never overwrites.
    let again = run_in(dir.path(), &["init"]);
    assert_eq!(again.status.code(), Some(2));
    assert_eq!(
        stderr(&again),
        "error: `urldb.toml` already exists; init writes only new files\n"
    );
}

/// Several folders could be the database: `init` writes nothing and says
/// to name one; `init --root DIR` adopts it, and then the hooks' way of
/// running urldb (every YAML file named) changes the database only.
#[test]
fn init_asks_which_folder_and_root_settles_it() {
    let dir = repository(true);
    let before = reference_repo::contents(dir.path());
    let out = run_in(dir.path(), &["init"]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "error: more than one folder below `.` holds files named like domain files: \
             `{SECOND_DB}` (`example.net.yaml`), `{DB}` (3 files); run `urldb init --root DIR` \
             with the database's folder\n"
        )
    );
    assert_eq!(reference_repo::contents(dir.path()), before);

    let out = run_in(dir.path(), &["init", "--root", DB]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with(&format!("Adopted 3 domain files in `{DB}`.\n")),
        "{}",
        stdout(&out)
    );
    let adopted = reference_repo::contents(dir.path());
    let every_yaml = [
        "readthedocs.yml",
        "mkdocs.yml",
        "environment.yml",
        "azure-pipelines.yml",
        "ci/templates/build.yaml",
        EXAMPLE_CONFIG,
        SECOND_DB_FILE,
        NOT_CANONICAL,
    ];
    let fmt = run_in(dir.path(), &[&["fmt"][..], &every_yaml].concat());
    assert_eq!(fmt.status.code(), Some(0), "{}", stderr(&fmt));
    assert_eq!(
        reference_repo::changed(&adopted, &reference_repo::contents(dir.path())),
        [Path::new(NOT_CANONICAL)]
    );
}

/// In an empty directory `init` makes a new database, as before; `-q`
/// says nothing. In a git repository too the new database is a folder of
/// its own: urldb.toml goes into it (`root = "."`), and the message says
/// where, not to the top of the work tree (where the enclosing project's
/// own configuration would be).
#[test]
fn init_makes_a_new_database_where_there_is_none_and_q_is_quiet() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = run_in(dir.path(), &["-q", "init", "urls"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!((stdout(&out).as_str(), stderr(&out).as_str()), ("", ""));
    assert!(dir.path().join("urls/urldb.toml").is_file());
    assert!(dir.path().join("urls/example.com.yaml").is_file());
    assert_eq!(
        run_in(&dir.path().join("urls"), &["check"]).status.code(),
        Some(0)
    );

    // Not quiet: the example file is said to be one, with how to be rid of
    // it; done as said, the database is still clean.
    let out = run_in(dir.path(), &["init", "more"]);
    assert!(
        stdout(&out).contains(
            "more/example.com.yaml is an example (one record, http://example.com/): delete it \
             once the database has a domain file of its own.\n"
        ),
        "{}",
        stdout(&out)
    );
    let more = dir.path().join("more");
    std::fs::write(
        more.join("example.org.yaml"),
        "---\n---\n_path: /\ncontent-type: text/html\n",
    )
    .expect("write");
    std::fs::remove_file(more.join("example.com.yaml")).expect("delete the example");
    assert_eq!(run_in(&more, &["check"]).status.code(), Some(0));
    assert_eq!(stdout(&run_in(&more, &["ls"])), "http://example.org/\n");
    // The configuration names where its keys are explained: the guide of
    // this version at the published repository (a wheel's user has no
    // docs/), at the section that exists.
    let config = std::fs::read_to_string(more.join("urldb.toml")).expect("read");
    let address = config
        .lines()
        .nth(1)
        .and_then(|l| l.strip_prefix("# "))
        .expect("the address on the second line");
    let (page, section) = address.split_once('#').expect("a section");
    assert_eq!(
        page,
        format!(
            "{}/blob/v{}/docs/guide.md",
            env!("CARGO_PKG_REPOSITORY"),
            env!("CARGO_PKG_VERSION")
        )
    );
    let guide = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/guide.md"),
    )
    .expect("guide");
    let slugs: Vec<String> = guide
        .lines()
        .filter_map(|l| l.strip_prefix("## "))
        .map(|h| {
            h.to_lowercase()
                .chars()
                .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-')
                .map(|c| if c == ' ' { '-' } else { c })
                .collect()
        })
        .collect();
    assert!(slugs.iter().any(|s| s == section), "{section}: {slugs:?}");

    let repo = tempfile::tempdir().expect("tempdir");
    git(repo.path(), &["init", "-q"]);
    std::fs::create_dir(repo.path().join("src")).expect("mkdir");
    let out = run_in(&repo.path().join("src"), &["init", "urls"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out).lines().next(),
        Some("Created urls/urldb.toml and urls/example.com.yaml.")
    );
    assert!(!repo.path().join("urldb.toml").exists());
    let config = std::fs::read_to_string(repo.path().join("src/urls/urldb.toml")).expect("read");
    assert!(config.contains("root = \".\""), "{config}");
    assert_eq!(
        run_in(&repo.path().join("src/urls"), &["check"])
            .status
            .code(),
        Some(0)
    );
}

/// What `init` refuses, each with its reason and exit 2, writing nothing:
/// a file where a directory is wanted, a directory of YAML files that are
/// not domain files, a `--root` outside the directory urldb.toml goes to,
/// a `--root` that names no folder (a typo would start a second, empty
/// database that `check` passes over for ever: the folder of domain files
/// nearest by name is offered).
#[test]
fn init_refuses_and_writes_nothing() {
    let dir = repository(false);
    let before = reference_repo::contents(dir.path());
    for (args, message) in [
        (
            vec!["init", "setup.cfg"],
            "error: `setup.cfg` is not a directory\n".to_string(),
        ),
        (
            vec!["init", "--root", "setup.cfg"],
            "error: `setup.cfg` is not a directory\n".to_string(),
        ),
        (
            vec!["init", "--root", ".."],
            "error: `..` is outside `.`, the directory that urldb.toml goes to (the top of \
             the git work tree); the database must be inside it\n"
                .to_string(),
        ),
        (
            vec!["init", "--root", "wwt_url_database/Db"],
            "error: --root `wwt_url_database/Db`: no such folder; --root names the existing \
             folder of a database to adopt; did you mean `wwt_url_database/db` (3 domain \
             files)? To start a new database, `urldb init DIR`\n"
                .to_string(),
        ),
        (
            vec!["init", "ci"],
            "error: `ci` holds YAML files that are not domain files (`templates/build.yaml`), \
             and no domain file (`<domain>.yaml`): a database there would take them for domain \
             files. Make the database a folder of its own: `urldb init --root DIR` (created if \
             needed)\n"
                .to_string(),
        ),
    ] {
        let out = run_in(dir.path(), &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stdout(&out));
        assert_eq!(stderr(&out), message, "{args:?}");
        assert_eq!(stdout(&out), "", "{args:?}");
        assert_eq!(reference_repo::contents(dir.path()), before, "{args:?}");
    }
}

/// Names that come from the repository are data: files left out whose
/// names hold a quote, a backslash, an escape character or a glob's `*`
/// are written into urldb.toml so that it parses and each glob matches
/// its one file (`ex*.yaml` unescaped would take `example.com.yaml` out of
/// the database), and no raw control character reaches the output.
#[test]
fn init_writes_hostile_names_as_data() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("db");
    std::fs::create_dir(&db).expect("mkdir");
    std::fs::write(
        db.join("example.com.yaml"),
        "---\n---\n_path: /\ncontent-type: text/html\n",
    )
    .expect("write");
    for name in ["we\"ird\\x\u{1b}[31m.yml", "ex*.yaml"] {
        std::fs::write(db.join(name), "a: 1\n").expect("write");
    }
    let out = run_in(dir.path(), &["init"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!stdout(&out).contains('\u{1b}'), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("Left out 2 YAML files"),
        "{}",
        stdout(&out)
    );
    let mut names: Vec<String> = std::fs::read_dir(&db)
        .expect("read_dir")
        .map(|e| format!("db/{}", e.expect("entry").file_name().to_string_lossy()))
        .collect();
    names.sort();
    let args: Vec<&str> = ["check", "--show-files"]
        .into_iter()
        .chain(names.iter().map(String::as_str))
        .collect();
    let shown = run_in(dir.path(), &args);
    assert_eq!(shown.status.code(), Some(0), "{}", stderr(&shown));
    let text = stdout(&shown);
    assert!(!text.contains('\u{1b}'), "{text}");
    assert_eq!(text.lines().count(), 3, "{text}");
    assert!(
        text.contains("db/example.com.yaml: in the database"),
        "{text}"
    );
    assert_eq!(
        text.matches(": not in the database (excluded by `exclude` glob `")
            .count(),
        2,
        "{text}"
    );
}

/// A database as the reference tool writes it (PyYAML's defaults:
/// non-ASCII escaped, long values folded at 80 columns): `init` notices
/// and writes `style = "pyyaml"`, saying so, and the database passes `fmt
/// --check` and `check` without a diff, as the adoption guide promises.
/// A database in the readable style keeps the default.
#[test]
fn init_keeps_the_style_the_reference_tool_wrote() {
    const WRITE: &str = r#"
import os, sys, yaml
db = sys.argv[1]
long = "a long value with many words that PyYAML folds once its line is past eighty columns"
files = {
    "worldwidetelescope.org": [{"https": True}, {"_path": "/", "content-type": "text/html",
        "categories": ["frontend"], "title": "Caf\u00e9 " + long}],
    "wwtassets.org": [{}, {"_path": "/logo.png", "content-type": "image/png"}],
}
if sys.argv[2] == "readable":
    files["worldwidetelescope.org"][1]["title"] = "Caf\u00e9"
for name, docs in files.items():
    with open(os.path.join(db, name + ".yaml"), "w", encoding="utf-8", newline="") as f:
        f.write(yaml.dump_all(docs, explicit_start=True, sort_keys=True,
                              **({"allow_unicode": True} if sys.argv[2] == "readable" else {})))
"#;
    for style in ["pyyaml", "readable"] {
        let dir = tempfile::tempdir().expect("tempdir");
        let db = dir.path().join(DB);
        std::fs::create_dir_all(&db).expect("mkdir");
        std::fs::write(dir.path().join("mkdocs.yml"), "site_name: x\n").expect("write");
        git(dir.path(), &["init", "-q"]);
        let written =
            crate::support::run_python(WRITE, &[db.as_os_str(), std::ffi::OsStr::new(style)], b"");
        assert!(written.status.success(), "{}", stderr(&written));
        let before = std::fs::read(db.join("worldwidetelescope.org.yaml")).expect("read");
        let out = run_in(dir.path(), &["init"]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let config = std::fs::read_to_string(dir.path().join("urldb.toml")).expect("read");
        let said = stdout(&out);
        if style == "pyyaml" {
            assert!(
                String::from_utf8_lossy(&before).contains("\\xE9"),
                "PyYAML escapes"
            );
            assert!(config.contains("\nstyle = \"pyyaml\""), "{config}");
            assert!(
                said.contains("Set style = \"pyyaml\" in urldb.toml: 1 domain file is in PyYAML's default output"),
                "{said}"
            );
        } else {
            assert!(config.contains("\n# style = \"readable\""), "{config}");
            assert!(!said.contains("style"), "{said}");
        }
        for args in [&["fmt", "--check"][..], &["check"]] {
            let out = run_in(dir.path(), args);
            assert_eq!(
                out.status.code(),
                Some(0),
                "{style} {args:?}: {}{}",
                stdout(&out),
                stderr(&out)
            );
        }
        let out = run_in(dir.path(), &["fmt", "--diff"]);
        assert!(stdout(&out).is_empty(), "{}", stdout(&out));
        assert_eq!(
            std::fs::read(db.join("worldwidetelescope.org.yaml")).expect("read"),
            before
        );
    }
}
