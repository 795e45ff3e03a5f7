//! One configuration per file (`docs/files.md`, "One configuration per
//! file"): the `urldb.toml` that governs a file (the nearest above it, up
//! to the work tree's top) decides its settings, whichever way the file
//! reaches urldb. A fixture with a top `urldb.toml` (`root = "."`) and a
//! nested `db/sub/urldb.toml` whose `[lint]` and `exclude` differ gives
//! the same findings per file from the top, from `db/sub`, by name, with
//! `--db db/sub`, through `--staged` and `--since`, under `--config-from`,
//! from standard input and in the language server (a real client,
//! `tests/it/server/governed.py`); and a broken nested configuration is
//! exit 2 from each of them. Then the first hour's surprises that one
//! cause was behind, each through the binary.

use crate::support::{self, git, oracles};

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const UNSORTED: &str =
    "---\n---\n_path: /b\ncontent-type: text/html\n---\n_path: /a\ncontent-type: text/html\n";
const ESCAPE: &str = "---\n---\n_path: /caf%c3%a9\ncontent-type: text/html\n";
const CLEAN: &str = "---\n---\n_path: /\ncontent-type: text/html\n";

/// The nested database's configuration: its own `[lint]` and `exclude`.
const SUB_CONFIG: &str = "exclude = [\"skip.*\"]\n[lint]\nignore = [\"unsorted-records\"]\n";

/// Every domain file of the fixture, by its path from the top.
const FILES: &[&str] = &[
    "db/a.example.yaml",
    "db/sub/a.example.yaml",
    "db/sub/b.example.yaml",
    "db/sub/c.example.yaml",
    "db/sub/skip.example.yaml",
];

/// Rule codes per file (path from the top), files without findings left out.
type PerFile = BTreeMap<String, Vec<String>>;

/// The fixture, committed: the top database (`root = "."`) holds
/// `db/a.example.yaml` (unsorted: a finding there); `db/sub/` is a
/// database of its own that ignores `unsorted-records` and excludes
/// `skip.*`, and holds `a.example.yaml` too (one database would make that a
/// `domain-conflict`).
fn fixture() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let top = dir.path();
    for (name, text) in [
        ("urldb.toml", "root = \".\"\n"),
        ("db/a.example.yaml", UNSORTED),
        ("db/sub/urldb.toml", SUB_CONFIG),
        ("db/sub/a.example.yaml", CLEAN),
        ("db/sub/b.example.yaml", UNSORTED),
        ("db/sub/c.example.yaml", ESCAPE),
        ("db/sub/skip.example.yaml", UNSORTED),
    ] {
        let path = top.join(name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
    git(top, &["init", "-q"]);
    // A first commit with nothing in it: `--since empty` takes every file.
    git(top, &["commit", "-q", "--allow-empty", "-m", "empty"]);
    git(top, &["tag", "empty"]);
    git(top, &["add", "-A"]);
    git(top, &["commit", "-qm", "start"]);
    dir
}

/// What every entry point must say: each file with its own database's
/// settings.
fn expected(only: &str) -> PerFile {
    // `/caf%c3%a9`: one finding for each escape.
    [
        ("db/a.example.yaml", &["unsorted-records"][..]),
        ("db/sub/c.example.yaml", &["path-escape-case"; 2]),
    ]
    .into_iter()
    .filter(|(f, _)| f.starts_with(only))
    .map(|(f, c)| (f.to_string(), c.iter().map(|c| c.to_string()).collect()))
    .collect()
}

fn urldb_in(dir: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    let mut cmd = support::urldb();
    cmd.current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("URLDB_FORMAT")
        .env_remove("URLDB_CONFIG_FROM")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("run urldb");
    let mut input = child.stdin.take().expect("stdin");
    if let Some(text) = stdin {
        std::io::Write::write_all(&mut input, text.as_bytes()).expect("write stdin");
    }
    drop(input);
    child.wait_with_output().expect("urldb")
}

fn show(out: &Output) -> String {
    format!(
        "exit {:?}\n{}{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// `check --format json ARGS` run in `top/cwd`: the codes per file, by
/// its path from the top.
fn findings(top: &Path, cwd: &str, args: &[&str], stdin: Option<&str>) -> PerFile {
    let dir = top.join(cwd);
    let args: Vec<&str> = args.iter().copied().chain(["--format", "json"]).collect();
    let out = urldb_in(&dir, &args, stdin);
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{cwd}: {args:?}: {}",
        show(&out)
    );
    // A file not in its database, from standard input: nothing at all.
    let report: Vec<serde_json::Value> = if out.stdout.is_empty() {
        Vec::new()
    } else {
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", show(&out)))
    };
    let canonical_top = dunce::canonicalize(top).expect("canonical");
    let mut per_file = PerFile::new();
    for f in report {
        let path = dir.join(f["path"].as_str().expect("a path"));
        let path = dunce::canonicalize(&path).unwrap_or(path);
        let rel = path
            .strip_prefix(&canonical_top)
            .unwrap_or(&path)
            .to_string_lossy()
            .into_owned();
        per_file
            .entry(rel)
            .or_default()
            .push(f["code"].as_str().expect("a code").to_string());
    }
    for codes in per_file.values_mut() {
        codes.sort();
    }
    per_file
}

/// The language server's diagnostics for each of `names` (opened from
/// `top` by a real client), and the messages it showed.
fn in_the_editor(top: &Path, names: &[&str]) -> (PerFile, Vec<String>) {
    let out = Command::new(support::python())
        .arg(oracles::repo().join("tests/it/server/governed.py"))
        .arg(support::binary())
        .arg(top)
        .args(names)
        .env("XDG_CACHE_HOME", oracles::target_tmp().join("xdg-cache"))
        .output()
        .expect("run the LSP client with the tests' Python");
    assert!(out.status.success(), "{}", show(&out));
    let seen: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", show(&out)));
    let mut per_file = PerFile::new();
    for (name, codes) in seen["diagnostics"].as_object().expect("diagnostics") {
        let codes: Vec<String> = codes
            .as_array()
            .expect("codes")
            .iter()
            .map(|c| c.as_str().expect("a code").to_string())
            .collect();
        if !codes.is_empty() {
            per_file.insert(name.clone(), codes);
        }
    }
    let messages = seen["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .map(|m| m.as_str().unwrap_or_default().to_string())
        .collect();
    (per_file, messages)
}

/// The Done-when of `docs/files.md`'s "One configuration per file": the
/// same findings per file from every entry point, no `domain-conflict`
/// between the two databases, and `--show-files` naming the configuration
/// that governs a file.
#[test]
fn every_entry_point_gives_each_file_its_own_databases_findings() {
    let dir = fixture();
    let top = dir.path();
    let sub = "db/sub";
    let all = expected("");
    // From the top: the top database (its walk stops at `db/sub`) and
    // `db/sub` as its own database, with no path (`docs/files.md`, "What
    // a run covers") as with the top folder named; `--db .` the top
    // database alone.
    assert_eq!(findings(top, ".", &["check"], None), all);
    assert_eq!(
        findings(top, ".", &["--db", ".", "check"], None),
        expected("db/a")
    );
    assert_eq!(findings(top, ".", &["check", "."], None), all);
    assert_eq!(findings(top, ".", &["check", "db"], None), all);
    // From db/sub, with --db db/sub, by name (as a hook names them).
    assert_eq!(findings(top, sub, &["check"], None), expected(sub));
    assert_eq!(
        findings(top, ".", &["--db", sub, "check"], None),
        expected(sub)
    );
    let named: Vec<&str> = ["check"].into_iter().chain(FILES.iter().copied()).collect();
    assert_eq!(findings(top, ".", &named, None), all);
    // Through --staged (the index's blobs) and under --config-from (the
    // committed configurations), by name and from each database.
    let staged: Vec<&str> = ["check", "--staged"]
        .into_iter()
        .chain(FILES.iter().copied())
        .collect();
    assert_eq!(findings(top, ".", &staged, None), all);
    assert_eq!(
        findings(top, sub, &["check", "--staged"], None),
        expected(sub)
    );
    let from_head: Vec<&str> = ["--config-from", "HEAD", "check"]
        .into_iter()
        .chain(FILES.iter().copied())
        .collect();
    assert_eq!(findings(top, ".", &from_head, None), all);
    assert_eq!(
        findings(top, sub, &["--config-from", "HEAD", "check"], None),
        expected(sub)
    );
    // --since: the files changed since a revision (here, every one).
    assert_eq!(
        findings(top, ".", &["check", "--since", "empty", "."], None),
        all
    );
    assert_eq!(
        findings(top, sub, &["check", "--since", "empty"], None),
        expected(sub)
    );
    // From standard input, each file as itself.
    let mut stdin = PerFile::new();
    for name in FILES {
        let text = std::fs::read_to_string(top.join(name)).expect("read");
        stdin.extend(findings(
            top,
            ".",
            &["check", "--stdin-filename", name],
            Some(&text),
        ));
    }
    assert_eq!(stdin, all);
    // In the editor.
    let (editor, messages) = in_the_editor(top, FILES);
    assert_eq!(editor, all, "{messages:?}");
    assert!(messages.is_empty(), "{messages:?}");
    // Which configuration governs which file.
    let shown = urldb_in(top, &["check", "--show-files"], None);
    let listed = String::from_utf8_lossy(&shown.stdout);
    assert!(
        listed.contains("db/a.example.yaml: in the database\n")
            && listed.contains(
                "db/sub/b.example.yaml: not in the database (governed by db/sub/urldb.toml)\n"
            ),
        "{}",
        show(&shown)
    );
    let named = urldb_in(
        top,
        &["check", "--show-files", "db/sub/b.example.yaml"],
        None,
    );
    assert_eq!(
        String::from_utf8_lossy(&named.stdout),
        "db/sub/b.example.yaml: in the database of db/sub/urldb.toml\n",
        "{}",
        show(&named)
    );
    // With --db, one database: a folder in it with its own configuration
    // is another's, skipped.
    let one = urldb_in(top, &["--db", "db", "check", "db/sub/b.example.yaml"], None);
    assert_eq!(one.status.code(), Some(0), "{}", show(&one));
    assert_eq!(
        String::from_utf8_lossy(&one.stderr),
        "note: db/sub/b.example.yaml: not in the database (governed by db/sub/urldb.toml); \
         skipped\n"
    );
    // `fmt` too: the excluded file is left as it is, the others formatted
    // by their own database.
    let fmt = urldb_in(top, &["fmt", "."], None);
    assert_eq!(fmt.status.code(), Some(0), "{}", show(&fmt));
    assert_eq!(
        std::fs::read_to_string(top.join("db/sub/skip.example.yaml")).expect("read"),
        UNSORTED
    );
    assert_ne!(
        std::fs::read_to_string(top.join("db/sub/b.example.yaml")).expect("read"),
        UNSORTED
    );
}

/// A broken configuration is an error (exit 2) in every run that touches a
/// file it governs, whichever way the file arrives; the top database's own
/// run, whose walk stops at the nested folder, does not read it.
#[test]
fn a_broken_nested_configuration_is_exit_2_from_every_entry_point() {
    let dir = fixture();
    let top = dir.path();
    std::fs::write(top.join("db/sub/urldb.toml"), "[lint]\n[lint]\n").expect("write");
    git(top, &["add", "-A"]);
    git(top, &["commit", "-qm", "broken"]);
    let file = "db/sub/b.example.yaml";
    let text = std::fs::read_to_string(top.join(file)).expect("read");
    let runs: [(&str, Vec<&str>, Option<&str>); 9] = [
        (".", vec!["check", "."], None),
        (".", vec!["check", file], None),
        (".", vec!["fmt", "--check", "db"], None),
        ("db/sub", vec!["check"], None),
        (".", vec!["--db", "db/sub", "check"], None),
        (".", vec!["check", "--staged", file], None),
        ("db/sub", vec!["fmt", "--check", "--staged"], None),
        (".", vec!["--config-from", "HEAD", "check", file], None),
        (".", vec!["check", "--stdin-filename", file], Some(&text)),
    ];
    for (cwd, args, stdin) in runs {
        let out = urldb_in(&top.join(cwd), &args, stdin);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{cwd}: {args:?}: {}",
            show(&out)
        );
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("duplicate table `[lint]`"),
            "{cwd}: {args:?}: {}",
            show(&out)
        );
    }
    let (editor, messages) = in_the_editor(top, &[file]);
    assert!(editor.is_empty(), "{editor:?}");
    assert!(
        messages.iter().any(|m| m.contains("db/sub/urldb.toml")),
        "{messages:?}"
    );
    // The top database alone (`--db .`): its own findings, the nested
    // folder unread; with no path the nested database is covered too, and
    // its broken configuration is exit 2.
    let own = urldb_in(top, &["--db", ".", "check", "--format", "concise"], None);
    assert_eq!(own.status.code(), Some(1), "{}", show(&own));
    let bare = urldb_in(top, &["check", "--format", "concise"], None);
    assert_eq!(bare.status.code(), Some(2), "{}", show(&bare));
}

/// Item 1 of the first hour: a database's own `urldb.toml` governs its
/// files when the database is named from its parent (outside git), by
/// `--db`, by a file's name or from inside it; a broken one is exit 2 in
/// each, and `style = "pyyaml"` gives one answer from each.
#[test]
fn a_databases_own_configuration_governs_it_from_its_parent() {
    let dir = tempfile::tempdir().expect("tempdir");
    let top = dir.path();
    let init = urldb_in(top, &["init", "mydb"], None);
    assert_eq!(init.status.code(), Some(0), "{}", show(&init));
    let config = top.join("mydb/urldb.toml");
    let mut text = std::fs::read_to_string(&config).expect("read");
    text.push_str("[lint]\n");
    std::fs::write(&config, text).expect("write");
    for (cwd, args) in [
        ("mydb", vec!["check"]),
        (".", vec!["check", "mydb"]),
        (".", vec!["--db", "mydb", "check"]),
        (".", vec!["check", "mydb/example.com.yaml"]),
    ] {
        let out = urldb_in(&top.join(cwd), &args, None);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{cwd}: {args:?}: {}",
            show(&out)
        );
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("duplicate table `[lint]`"),
            "{cwd}: {args:?}: {}",
            show(&out)
        );
    }
    // PyYAML's style, asked by the database's own file: one answer.
    std::fs::create_dir(top.join("db")).expect("mkdir");
    std::fs::write(top.join("db/urldb.toml"), "style = \"pyyaml\"\n").expect("write");
    std::fs::write(
        top.join("db/example.com.yaml"),
        "---\n---\n_path: /\ncategories:\n- café\ncontent-type: text/html\n",
    )
    .expect("write");
    for (cwd, args) in [
        ("db", vec!["fmt", "--check"]),
        (".", vec!["--db", "db", "fmt", "--check"]),
        (".", vec!["fmt", "--check", "db"]),
        (".", vec!["fmt", "--check", "db/example.com.yaml"]),
    ] {
        let out = urldb_in(&top.join(cwd), &args, None);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{cwd}: {args:?}: {}",
            show(&out)
        );
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("Would reformat"),
            "{cwd}: {args:?}: {}",
            show(&out)
        );
    }
}

/// Item 3: the README's "Your first database", followed inside another
/// git repository (a clone of urldb): `urldb init mydb` puts urldb.toml
/// in `mydb`, says so, and `mydb`'s first commit holds it.
#[test]
fn a_new_database_inside_another_repository_keeps_its_configuration() {
    let dir = tempfile::tempdir().expect("tempdir");
    let clone = dir.path();
    std::fs::write(clone.join("Cargo.toml"), "[package]\nname = \"x\"\n").expect("write");
    git(clone, &["init", "-q"]);
    git(clone, &["add", "-A"]);
    git(clone, &["commit", "-qm", "the enclosing project"]);
    let init = urldb_in(clone, &["init", "mydb"], None);
    assert_eq!(init.status.code(), Some(0), "{}", show(&init));
    assert!(
        String::from_utf8_lossy(&init.stdout)
            .starts_with("Created mydb/urldb.toml and mydb/example.com.yaml.\n"),
        "{}",
        show(&init)
    );
    assert!(!clone.join("urldb.toml").exists());
    let db = clone.join("mydb");
    git(&db, &["init", "-q"]);
    let add = urldb_in(
        &db,
        &[
            "add",
            "https://docs.example.org/guide.html",
            "--create-domain",
            "--content-type",
            "text/html",
            "-c",
            "frontend",
        ],
        None,
    );
    assert_eq!(add.status.code(), Some(0), "{}", show(&add));
    let check = urldb_in(&db, &["check"], None);
    assert_eq!(check.status.code(), Some(0), "{}", show(&check));
    git(&db, &["add", "-A"]);
    git(&db, &["commit", "-qm", "First URLs"]);
    assert_eq!(
        git(&db, &["ls-tree", "-r", "--name-only", "HEAD"]),
        "docs.example.org.yaml\nexample.com.yaml\nurldb.toml\n"
    );
    // The enclosing repository's own run does not take mydb's files.
    let outer = urldb_in(clone, &["check", "--show-files"], None);
    assert!(
        String::from_utf8_lossy(&outer.stdout)
            .lines()
            .all(|l| !l.ends_with(": in the database")),
        "{}",
        show(&outer)
    );
}

/// Item 5: a `urldb.toml` in a shared parent (`/tmp`) governs no checkout
/// below it; outside a repository it is found as far up as before.
#[test]
fn a_configuration_above_the_repository_governs_nothing_in_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let shared = dir.path();
    std::fs::write(
        shared.join("urldb.toml"),
        "[lint]\nignore = [\"path-escape-case\"]\n",
    )
    .expect("write");
    let repo = shared.join("checkout");
    std::fs::create_dir(&repo).expect("mkdir");
    std::fs::write(repo.join("example.com.yaml"), ESCAPE).expect("write");
    git(&repo, &["init", "-q"]);
    let out = urldb_in(&repo, &["check", "--format", "concise"], None);
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("path-escape-case"),
        "{}",
        show(&out)
    );
    // Outside a repository the shared file is the nearest one, as before.
    std::fs::remove_dir_all(repo.join(".git")).expect("rm .git");
    let out = urldb_in(&repo, &["check", "--format", "concise"], None);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
}

/// An outer `root` that names a folder with a `urldb.toml` of its own, or
/// lies below one, would take that database's files: exit 2.
#[test]
fn an_outer_root_inside_another_database_is_an_error() {
    let dir = fixture();
    let top = dir.path();
    for root in ["db/sub", "db/sub/deeper"] {
        std::fs::create_dir_all(top.join(root)).expect("mkdir");
        std::fs::write(top.join("urldb.toml"), format!("root = \"{root}\"\n")).expect("write");
        let out = urldb_in(top, &["check"], None);
        assert_eq!(out.status.code(), Some(2), "{root}: {}", show(&out));
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!(
                "error: urldb.toml: root = \"{root}\" is governed by db/sub/urldb.toml: a \
                 database never takes in another's folder (point root elsewhere, or remove one \
                 of the two)\n"
            )
        );
    }
}

/// `verify` takes its run-level keys (`concurrency`, `timeout`, `retries`,
/// `map`) from the databases it runs over: when those differ and no
/// `--config` says which, exit 2 before any request.
#[test]
fn verify_over_databases_whose_run_level_keys_differ_is_exit_2() {
    for sub in [
        "[verify]\nretries = 0\n",
        "[verify.map]\n\"a.example\" = \"http://127.0.0.1:9\"\n",
    ] {
        verify_over_databases_whose_keys_differ(sub);
    }
}

fn verify_over_databases_whose_keys_differ(sub: &str) {
    let dir = fixture();
    let top = dir.path();
    std::fs::write(top.join("db/sub/urldb.toml"), sub).expect("write");
    let out = urldb_in(
        top,
        &["verify", "db/a.example.yaml", "db/sub/a.example.yaml"],
        None,
    );
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: urldb.toml and db/sub/urldb.toml set [verify] concurrency, timeout, retries or map \
         differently, and this run takes files of both: verify each database on its own, or \
         pass `--config FILE`\n"
    );
}

/// The same as a property: random trees of folders, some with a
/// `urldb.toml` of their own that turns off a random set of the two codes
/// the files can hold, checked from every command-line entry point. The
/// oracle is the rule itself (`docs/files.md`): a file's findings are its
/// text's, less what the nearest `urldb.toml` above it ignores, and a run
/// with no path is the run of the database that governs the working
/// directory.
#[test]
fn random_trees_give_each_file_its_own_databases_findings() {
    const FOLDERS: [&str; 6] = ["", "a", "a/b", "a/b/c", "d", "d/e"];
    const TEXTS: [(&str, &[&str]); 3] = [
        (UNSORTED, &["unsorted-records"]),
        (ESCAPE, &["path-escape-case", "path-escape-case"]),
        (CLEAN, &[]),
    ];
    const CODES: [&str; 2] = ["unsorted-records", "path-escape-case"];
    let mut rng = support::Rng::new(48);
    for case in 0..12 {
        let dir = tempfile::tempdir().expect("tempdir");
        let top = dir.path();
        git(top, &["init", "-q"]);
        // Each folder's `urldb.toml`, if it has one: what it ignores. The
        // top's is `root = "."` and ignores nothing.
        let mut configs: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        configs.insert("", Vec::new());
        std::fs::write(top.join("urldb.toml"), "root = \".\"\n").expect("write");
        for folder in &FOLDERS[1..] {
            std::fs::create_dir_all(top.join(folder)).expect("mkdir");
            if rng.chance(40) {
                let ignored: Vec<&str> = CODES.into_iter().filter(|_| rng.chance(50)).collect();
                let list: Vec<String> = ignored.iter().map(|c| format!("{c:?}")).collect();
                let text = format!("[lint]\nignore = [{}]\n", list.join(", "));
                std::fs::write(top.join(folder).join("urldb.toml"), text).expect("write");
                configs.insert(folder, ignored);
            }
        }
        // The folder whose `urldb.toml` governs `folder`.
        let governing = |folder: &str| -> &str {
            let mut at = folder;
            loop {
                if let Some((&found, _)) = configs.get_key_value(at) {
                    return found;
                }
                at = at.rsplit_once('/').map_or("", |(up, _)| up);
            }
        };
        // The domain files (names unique in the tree: no `domain-conflict`)
        // and what each must report.
        let mut files: Vec<(String, &str, &str)> = Vec::new();
        let mut all = PerFile::new();
        for folder in FOLDERS {
            for _ in 0..rng.below(3) {
                let name = format!("h{}.example.yaml", files.len());
                let path = if folder.is_empty() {
                    name
                } else {
                    format!("{folder}/{name}")
                };
                let (text, codes) = TEXTS[rng.below(TEXTS.len())];
                std::fs::write(top.join(&path), text).expect("write");
                let ignored = &configs[governing(folder)];
                let codes: Vec<String> = codes
                    .iter()
                    .filter(|c| !ignored.contains(c))
                    .map(|c| c.to_string())
                    .collect();
                if !codes.is_empty() {
                    all.insert(path.clone(), codes);
                }
                files.push((path, folder, text));
            }
        }
        let layout = format!("case {case}: configurations {configs:?}, files {files:?}");
        let only = |keep: &dyn Fn(&str) -> bool| -> PerFile {
            all.iter()
                .filter(|(path, _)| keep(path))
                .map(|(p, c)| (p.clone(), c.clone()))
                .collect()
        };
        // The top folder named: every database below.
        assert_eq!(findings(top, ".", &["check", "."], None), all, "{layout}");
        for (path, folder, text) in &files {
            // By name from the top, and from standard input.
            let alone = only(&|p| p == path);
            assert_eq!(
                findings(top, ".", &["check", path], None),
                alone,
                "{layout}: {path}"
            );
            let stdin = ["check", "--stdin-filename", path, "-"];
            assert_eq!(
                findings(top, ".", &stdin, Some(text)),
                alone,
                "{layout}: {path} from standard input"
            );
            // With no path, in the file's folder: the database that
            // governs the folder, every file of it, and every database
            // whose configuration lies below the folder.
            let db = governing(folder);
            let run = only(&|p| {
                let of = p.rsplit_once('/').map_or("", |(up, _)| up);
                let its = governing(of);
                let below = folder.is_empty() || its.starts_with(&format!("{folder}/"));
                its == db || (its != *folder && below && !its.is_empty())
            });
            let cwd = if folder.is_empty() { "." } else { folder };
            assert_eq!(
                findings(top, cwd, &["check"], None),
                run,
                "{layout}: no path in {cwd}"
            );
        }
    }
}
