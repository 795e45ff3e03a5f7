//! Every command sees every database, in every layout (`docs/files.md`,
//! "What a run covers"), as a property.
//!
//! A generator makes git repositories in the layouts users have: one
//! database at the top; the database in `db/` as `urldb init db` makes it;
//! databases nested one to three folders deep, with and without a
//! `urldb.toml` at the top; databases under a folder that has no
//! configuration. Each gets random domain files, one change committed
//! after the base, one staged and one left in the work tree. From each of
//! several working directories (the top, a database's root, a folder inside
//! a database) and each way of naming the files (no path, `.`, a file, a
//! folder, `--db`), it runs `check`, `check --staged`, `fmt --check`, `ls`,
//! `export --to json`, `diff` (index, `--staged`, `REV`) and `verify`
//! (plain, `--since REV`, `--staged`) against a server on 127.0.0.1 that
//! logs what it was asked, and the installed hook on a real `git commit`.
//!
//! The oracle never asks urldb: it walks the generated tree and applies
//! the rule of `docs/files.md` itself (a file's database is the nearest
//! `urldb.toml` above it, up to the work tree's top; a run with no path
//! covers the database that governs the working directory whole and
//! every database below it; a named folder covers every domain file below
//! it; `--db DIR` that database alone).

use std::collections::BTreeSet;
use std::io::Write as _;
use std::net::TcpStream;
use std::path::Path;
use std::process::Output;

use proptest::prelude::*;

use crate::support::{self, Rng};

/// The layouts the generator draws from.
#[derive(Debug, Clone, Copy)]
enum Layout {
    /// One database, its `urldb.toml` at the top.
    Top,
    /// `urldb init db`: `db/urldb.toml`, nothing at the top.
    InitDb,
    /// A database at the top and one to three below it.
    NestedUnderTop,
    /// One to three databases below a top with no configuration.
    NestedNoTop,
    /// A database below a folder that has no configuration.
    UnderPlainFolder,
}

const LAYOUTS: [Layout; 5] = [
    Layout::Top,
    Layout::InitDb,
    Layout::NestedUnderTop,
    Layout::NestedNoTop,
    Layout::UnderPlainFolder,
];

/// Folders nested databases are drawn from: one to three deep, some
/// inside others.
const NESTED: [&str; 6] = ["legacy", "sub", "sub/inner", "a/b/c", "teams/web", "db"];

/// A generated repository and what the oracle needs of its history.
struct Repo {
    dir: tempfile::TempDir,
    /// The base commit: `--since` and `diff REV` compare with it.
    base: String,
    /// Per domain file (repository-relative): its domain, its records'
    /// paths in the work tree, and in the index.
    files: Vec<DomainFile>,
    /// The records added after the base: committed, staged, in the work
    /// tree only; each with its file.
    committed: (String, String),
    staged: (String, String),
    unstaged: (String, String),
    /// Folders inside a database that hold a domain file (working
    /// directories and named folders).
    inner: Vec<String>,
}

struct DomainFile {
    path: String,
    domain: String,
    base_paths: Vec<String>,
    /// Written with a record's keys in the wrong order: `check` and
    /// `fmt --check` report it in every version.
    unsorted: bool,
}

impl Repo {
    fn top(&self) -> &Path {
        self.dir.path()
    }

    fn file(&self, path: &str) -> &DomainFile {
        self.files
            .iter()
            .find(|f| f.path == path)
            .expect("a generated file")
    }

    /// The URLs of `file`'s records in the work tree.
    fn work_tree_urls(&self, file: &str) -> BTreeSet<String> {
        let f = self.file(file);
        let mut paths = f.base_paths.clone();
        for (at, path) in [&self.committed, &self.staged, &self.unstaged] {
            if at == file {
                paths.push(path.clone());
            }
        }
        paths
            .iter()
            .map(|p| format!("http://{}{p}", f.domain))
            .collect()
    }

    fn url(&self, (file, path): &(String, String)) -> String {
        format!("http://{}{path}", self.file(file).domain)
    }
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("a folder")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

fn append(path: &Path, text: &str) {
    std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .expect("append");
}

fn join(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_string(),
        (_, true) => a.to_string(),
        _ => format!("{a}/{b}"),
    }
}

/// A repository in `layout`, drawn from `rng`.
fn generate(layout: Layout, rng: &mut Rng) -> Repo {
    let dir = tempfile::tempdir().expect("tempdir");
    let top = dir.path();
    let mut databases: Vec<String> = match layout {
        Layout::Top => vec![String::new()],
        Layout::InitDb => vec!["db".to_string()],
        Layout::UnderPlainFolder => vec!["data/db".to_string()],
        Layout::NestedUnderTop | Layout::NestedNoTop => Vec::new(),
    };
    if matches!(layout, Layout::NestedUnderTop) {
        databases.push(String::new());
    }
    if matches!(layout, Layout::NestedUnderTop | Layout::NestedNoTop) {
        let n = 1 + rng.below(3);
        while databases.iter().filter(|d| !d.is_empty()).count() < n {
            let folder = rng.pick(&NESTED).to_string();
            if !databases.contains(&folder) {
                databases.push(folder);
            }
        }
    }
    for db in &databases {
        write(&top.join(db).join("urldb.toml"), "root = \".\"\n");
    }
    let mut files = Vec::new();
    let mut inner = Vec::new();
    for db in &databases {
        for _ in 0..1 + rng.below(3) {
            let i = files.len();
            // A file at the database's root, or in a folder of it that no
            // other database claims.
            let folder = match rng.below(3) {
                0 => join(db, &format!("part{i}")),
                1 => join(db, &format!("more/deep{i}")),
                _ => db.clone(),
            };
            if folder != *db {
                inner.push(folder.clone());
            }
            let domain = format!("d{i}.test");
            let base_paths: Vec<String> = (0..1 + rng.below(3))
                .map(|k| format!("/r{i}-{k}"))
                .collect();
            let unsorted = rng.chance(30);
            let mut text = String::from("---\n");
            for (k, path) in base_paths.iter().enumerate() {
                if unsorted && k == 0 {
                    text.push_str(&format!("---\ncontent-type: text/html\n_path: {path}\n"));
                } else {
                    text.push_str(&format!("---\n_path: {path}\ncontent-type: text/html\n"));
                }
            }
            let path = join(&folder, &format!("{domain}.yaml"));
            write(&top.join(&path), &text);
            files.push(DomainFile {
                path,
                domain,
                base_paths,
                unsorted,
            });
        }
    }
    support::git(top, &["init", "-q", "-b", "main"]);
    support::git(top, &["add", "-A"]);
    support::git(top, &["commit", "-qm", "base"]);
    let base = support::git(top, &["rev-parse", "HEAD"]).trim().to_string();
    let pick = |rng: &mut Rng| files[rng.below(files.len())].path.clone();
    // Paths after every base path (`/z…` > `/r…`), in the order added, so
    // each file stays sorted.
    let committed = (pick(rng), "/zc".to_string());
    append(
        &top.join(&committed.0),
        "---\n_path: /zc\ncontent-type: text/html\n",
    );
    support::git(top, &["commit", "-qam", "committed"]);
    let staged = (pick(rng), "/zs".to_string());
    append(
        &top.join(&staged.0),
        "---\n_path: /zs\ncontent-type: text/html\n",
    );
    support::git(top, &["add", &staged.0]);
    // In the work tree only, with a finding (`content-type-case`) that
    // `check` reports and `check --staged` must not.
    let unstaged = (pick(rng), "/zw".to_string());
    append(
        &top.join(&unstaged.0),
        "---\n_path: /zw\ncontent-type: Text/HTML\n",
    );
    Repo {
        dir,
        base,
        files,
        committed,
        staged,
        unstaged,
        inner,
    }
}

// ---------------------------------------------------------------------
// The oracle: the rule of docs/files.md, applied to the tree on disk.

/// Every `*.yaml` file below the top, repository-relative.
fn yaml_files(top: &Path) -> Vec<String> {
    support::files_below(top)
        .into_iter()
        .filter(|p| !p.starts_with(top.join(".git")))
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .map(|p| relative(top, &p))
        .collect()
}

fn relative(top: &Path, path: &Path) -> String {
    path.strip_prefix(top)
        .expect("below the top")
        .to_string_lossy()
        .replace('\\', "/")
}

fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(p, _)| p)
}

/// `path` is `dir` or below it (`""` is the top).
fn below(path: &str, dir: &str) -> bool {
    dir.is_empty() || path == dir || path.starts_with(&format!("{dir}/"))
}

/// The folder of the `urldb.toml` nearest above `dir`, up to the top.
fn governing(top: &Path, dir: &str) -> Option<String> {
    let mut at = dir.to_string();
    loop {
        if top.join(&at).join("urldb.toml").is_file() {
            return Some(at);
        }
        if at.is_empty() {
            return None;
        }
        at = parent(&at).to_string();
    }
}

/// How a run names its files.
#[derive(Debug, Clone)]
enum Naming {
    /// No path.
    Nothing,
    /// `.`
    Dot,
    /// A domain file (repository-relative).
    File(String),
    /// A folder (repository-relative).
    Folder(String),
    /// `--db DIR` (repository-relative).
    Db(String),
}

impl Naming {
    /// The arguments, relative to the working directory `cwd`.
    fn args(&self, cwd: &str) -> Vec<String> {
        let rel = |p: &str| {
            let rest = if p == cwd {
                "."
            } else if cwd.is_empty() {
                p
            } else {
                p.strip_prefix(&format!("{cwd}/")).expect("below the cwd")
            };
            rest.to_string()
        };
        match self {
            Naming::Nothing => Vec::new(),
            Naming::Dot => vec![".".to_string()],
            Naming::File(f) => vec![rel(f)],
            Naming::Folder(d) => vec![rel(d)],
            Naming::Db(d) => vec!["--db".to_string(), rel(d)],
        }
    }
}

/// The domain files a run in `cwd` naming `naming` covers.
fn covered(top: &Path, cwd: &str, naming: &Naming) -> BTreeSet<String> {
    let files = yaml_files(top);
    let database = |f: &str| governing(top, parent(f));
    match naming {
        Naming::Nothing => {
            let here = governing(top, cwd);
            files
                .into_iter()
                .filter(|f| match database(f) {
                    Some(db) => Some(&db) == here.as_ref() || (db != cwd && below(&db, cwd)),
                    None => false,
                })
                .collect()
        }
        Naming::Dot => files
            .into_iter()
            .filter(|f| database(f).is_some() && below(f, cwd))
            .collect(),
        Naming::File(f) => BTreeSet::from([f.clone()]),
        Naming::Folder(d) => files
            .into_iter()
            .filter(|f| database(f).is_some() && below(f, d))
            .collect(),
        Naming::Db(d) => files
            .into_iter()
            .filter(|f| database(f).as_deref() == Some(d.as_str()))
            .collect(),
    }
}

// ---------------------------------------------------------------------
// Running urldb and reading what it says.

/// A server on 127.0.0.1 that answers every request with a page and logs
/// its target.
fn server() -> support::http::Listening {
    support::http::listen(|mut stream: TcpStream, _target: &str| {
        let body = "<html></html>";
        let _ = write!(
            stream,
            "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
    })
}

fn run(repo: &Repo, cwd: &str, args: &[String]) -> Output {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    support::urldb_in(&repo.top().join(cwd), &args)
}

fn show(out: &Output) -> String {
    format!(
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A path urldb printed, relative to `cwd`, as repository-relative.
fn from_cwd(cwd: &str, printed: &str) -> String {
    let mut parts: Vec<&str> = cwd.split('/').filter(|p| !p.is_empty()).collect();
    for part in printed.split('/') {
        match part {
            "." => {}
            ".." => {
                parts.pop();
            }
            part => parts.push(part),
        }
    }
    parts.join("/")
}

/// The files of `check --format concise`'s findings.
fn finding_files(cwd: &str, out: &Output) -> BTreeSet<String> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_once(':').map(|(p, _)| from_cwd(cwd, p)))
        .collect()
}

/// The files `fmt --check` would reformat.
fn reformatted(cwd: &str, out: &Output) -> BTreeSet<String> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.strip_prefix("Would reformat: "))
        .map(|p| from_cwd(cwd, p))
        .collect()
}

fn urls_listed(out: &Output) -> BTreeSet<String> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.starts_with("http"))
        .map(str::to_string)
        .collect()
}

fn urls_exported(out: &Output) -> BTreeSet<String> {
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("export --to json: {e}\n{}", show(out));
    });
    json.as_array()
        .expect("an array")
        .iter()
        .map(|r| r["url"].as_str().expect("a url").to_string())
        .collect()
}

/// The URLs of the records `diff --format json` says were added.
fn urls_added(out: &Output) -> BTreeSet<String> {
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("diff --format json: {e}\n{}", show(out));
    });
    json["files"]
        .as_array()
        .expect("files")
        .iter()
        .flat_map(|f| f["records"].as_array().expect("records").iter())
        .filter(|r| r["status"] == "added")
        .map(|r| r["url"].as_str().expect("a url").to_string())
        .collect()
}

/// The URLs of `files` whose path is one of the server's request targets.
fn requested(repo: &Repo, files: &BTreeSet<String>, targets: &[String]) -> BTreeSet<String> {
    let targets: BTreeSet<&str> = targets.iter().map(String::as_str).collect();
    repo.files
        .iter()
        .filter(|f| files.contains(&f.path))
        .flat_map(|f| repo.work_tree_urls(&f.path))
        .filter(|u| {
            let path = &u[u.find(".test").expect("a .test domain") + 5..];
            targets.contains(path)
        })
        .collect()
}

/// One check of the matrix: what was run, what the oracle expected, what
/// urldb did.
fn expect_eq(
    what: &str,
    expected: &BTreeSet<String>,
    got: &BTreeSet<String>,
    out: &Output,
) -> Result<(), TestCaseError> {
    prop_assert!(
        expected == got,
        "{what}\nexpected {expected:?}\ngot      {got:?}\n{}",
        show(out)
    );
    Ok(())
}

/// Run every command from `cwd` naming `naming`, against the oracle.
fn check_all(
    repo: &Repo,
    server: &support::http::Listening,
    cwd: &str,
    naming: &Naming,
) -> Result<(), TestCaseError> {
    let top = repo.top();
    let cov = covered(top, cwd, naming);
    let names = naming.args(cwd);
    let with = |before: &[&str], after: &[&str]| -> Vec<String> {
        // `--db` is an option of each command: after the command's name.
        before
            .iter()
            .map(|s| s.to_string())
            .chain(names.iter().cloned())
            .chain(after.iter().map(|s| s.to_string()))
            .collect()
    };
    let label = |command: &str| format!("`urldb {command}` in `{cwd}/` naming {naming:?}");
    let unsorted: BTreeSet<String> = cov
        .iter()
        .filter(|f| repo.file(f).unsorted)
        .cloned()
        .collect();

    // check: the work tree (the unstaged record has a finding).
    let out = run(repo, cwd, &with(&["check", "--format", "concise"], &[]));
    let mut expected = unsorted.clone();
    if cov.contains(&repo.unstaged.0) {
        expected.insert(repo.unstaged.0.clone());
    }
    expect_eq(&label("check"), &expected, &finding_files(cwd, &out), &out)?;
    prop_assert_eq!(
        out.status.code(),
        Some(if expected.is_empty() { 0 } else { 1 }),
        "{}",
        show(&out)
    );

    // check --staged: the index (the unstaged record is not there).
    let out = run(
        repo,
        cwd,
        &with(&["check", "--staged", "--format", "concise"], &[]),
    );
    expect_eq(
        &label("check --staged"),
        &unsorted,
        &finding_files(cwd, &out),
        &out,
    )?;
    prop_assert!(matches!(out.status.code(), Some(0 | 1)), "{}", show(&out));

    // fmt --check.
    let out = run(repo, cwd, &with(&["fmt", "--check"], &[]));
    expect_eq(
        &label("fmt --check"),
        &unsorted,
        &reformatted(cwd, &out),
        &out,
    )?;

    // ls and export: every record of the covered files.
    let all: BTreeSet<String> = cov.iter().flat_map(|f| repo.work_tree_urls(f)).collect();
    let out = run(repo, cwd, &with(&["ls"], &[]));
    expect_eq(&label("ls"), &all, &urls_listed(&out), &out)?;
    let out = run(repo, cwd, &with(&["export", "--to", "json"], &[]));
    expect_eq(&label("export"), &all, &urls_exported(&out), &out)?;

    // diff: the index to the work tree, HEAD to the index, the base to
    // the work tree.
    let changed = |changes: &[&(String, String)]| -> BTreeSet<String> {
        changes
            .iter()
            .filter(|(file, _)| cov.contains(file))
            .map(|c| repo.url(c))
            .collect()
    };
    let in_diff = |before: &[&str]| -> Vec<String> {
        // Paths after `--`, as git takes them; `--db` before it.
        let mut args: Vec<String> = before.iter().map(|s| s.to_string()).collect();
        args.extend(["--format".to_string(), "json".to_string()]);
        match naming {
            Naming::Db(_) => args.extend(names.iter().cloned()),
            Naming::Nothing => {}
            _ => {
                args.push("--".to_string());
                args.extend(names.iter().cloned());
            }
        }
        args
    };
    let out = run(repo, cwd, &in_diff(&["diff"]));
    expect_eq(
        &label("diff"),
        &changed(&[&repo.unstaged]),
        &urls_added(&out),
        &out,
    )?;
    let out = run(repo, cwd, &in_diff(&["diff", "--staged"]));
    expect_eq(
        &label("diff --staged"),
        &changed(&[&repo.staged]),
        &urls_added(&out),
        &out,
    )?;
    let out = run(repo, cwd, &in_diff(&["diff", &repo.base]));
    let since = changed(&[&repo.committed, &repo.staged, &repo.unstaged]);
    expect_eq(&label("diff BASE"), &since, &urls_added(&out), &out)?;

    // verify: each covered domain sent to the server.
    let maps: Vec<String> = cov
        .iter()
        .flat_map(|f| {
            [
                "--map".to_string(),
                format!("{}=http://127.0.0.1:{}", repo.file(f).domain, server.port),
            ]
        })
        .collect();
    let verify = |extra: &[&str], expected: &BTreeSet<String>| -> Result<(), TestCaseError> {
        server.requests.lock().expect("lock").clear();
        let mut args = with(&["verify", "--allow-private", "--retries", "0"], extra);
        args.extend(maps.iter().cloned());
        let out = run(repo, cwd, &args);
        let targets = server.requests.lock().expect("lock").clone();
        let got = requested(repo, &cov, &targets);
        let what = label(&format!("verify {}", extra.join(" ")));
        prop_assert_eq!(
            targets.len(),
            got.len(),
            "{}: a request outside the covered files\n{}",
            what,
            show(&out)
        );
        expect_eq(&what, expected, &got, &out)
    };
    verify(&[], &all)?;
    verify(&["--since", &repo.base], &since)?;
    verify(&["--staged"], &changed(&[&repo.staged]))?;
    Ok(())
}

/// The working directories and namings tried in `repo`: the top, a
/// database's root, a folder inside a database; no path, `.`, a file, a
/// folder and `--db` below the working directory.
fn runs(repo: &Repo, rng: &mut Rng) -> Vec<(String, Naming)> {
    let top = repo.top();
    let databases: Vec<String> = support::files_below(top)
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|n| n == "urldb.toml"))
        .map(|p| relative(top, p.parent().expect("a folder")))
        .collect();
    let mut cwds = vec![String::new()];
    cwds.push(databases[rng.below(databases.len())].clone());
    if !repo.inner.is_empty() {
        cwds.push(repo.inner[rng.below(repo.inner.len())].clone());
    }
    cwds.dedup();
    let mut runs = Vec::new();
    for cwd in cwds {
        runs.push((cwd.clone(), Naming::Nothing));
        runs.push((cwd.clone(), Naming::Dot));
        let files: Vec<&DomainFile> = repo
            .files
            .iter()
            .filter(|f| below(&f.path, &cwd) && f.path != cwd)
            .collect();
        if !files.is_empty() {
            let f = files[rng.below(files.len())];
            runs.push((cwd.clone(), Naming::File(f.path.clone())));
        }
        let folders: Vec<String> = databases
            .iter()
            .chain(&repo.inner)
            .filter(|d| *d != &cwd && below(d, &cwd))
            .cloned()
            .collect();
        if !folders.is_empty() {
            runs.push((
                cwd.clone(),
                Naming::Folder(folders[rng.below(folders.len())].clone()),
            ));
        }
        let dbs: Vec<&String> = databases.iter().filter(|d| below(d, &cwd)).collect();
        if !dbs.is_empty() {
            runs.push((cwd.clone(), Naming::Db(dbs[rng.below(dbs.len())].clone())));
        }
    }
    runs
}

/// `PATH` with the tested urldb first: the installed hook runs `urldb`
/// from `PATH`, as a user's does.
fn path_with_urldb() -> String {
    let bin_dir = support::binary().parent().expect("a folder").to_path_buf();
    format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// The hook `urldb install-hook` writes at the top stops a commit of a
/// staged finding in any database, and lets a clean one through.
fn hook_covers_every_database(repo: &Repo, rng: &mut Rng) -> Result<(), TestCaseError> {
    let top = repo.top();
    let path = path_with_urldb();
    let out = support::urldb_in(top, &["install-hook"]);
    prop_assert!(out.status.success(), "{}", show(&out));
    // Commit what is staged, the work tree's own change dropped and the
    // unsorted files put right first.
    support::git(top, &["checkout", "--", "."]);
    for f in repo.files.iter().filter(|f| f.unsorted) {
        let out = support::urldb_in(top, &["fmt", "--staged", &f.path]);
        prop_assert!(out.status.success(), "{}", show(&out));
    }
    let commit = |message: &str| {
        support::git_command(top)
            .env("PATH", &path)
            .args(["commit", "-qm", message])
            .output()
            .expect("git commit")
    };
    let out = commit("clean");
    prop_assert!(
        out.status.success(),
        "a clean commit is stopped\n{}",
        show(&out)
    );
    // A finding staged in a random file of a random database.
    let file = &repo.files[rng.below(repo.files.len())];
    append(
        &top.join(&file.path),
        "---\n_path: /zz\ncontent-type: Text/HTML\n",
    );
    support::git(top, &["add", &file.path]);
    let out = commit("broken");
    prop_assert!(
        !out.status.success(),
        "the hook let a finding in {} through\n{}",
        file.path,
        show(&out)
    );
    Ok(())
}

fn matrix(seed: u64) -> Result<(), TestCaseError> {
    let mut rng = Rng::new(seed);
    let layout = LAYOUTS[rng.below(LAYOUTS.len())];
    let repo = generate(layout, &mut rng);
    let server = server();
    for (cwd, naming) in runs(&repo, &mut rng) {
        check_all(&repo, &server, &cwd, &naming)
            .map_err(|e| TestCaseError::fail(format!("layout {layout:?}, seed {seed}: {e}")))?;
    }
    hook_covers_every_database(&repo, &mut rng)
        .map_err(|e| TestCaseError::fail(format!("layout {layout:?}, seed {seed}: {e}")))
}

proptest! {
    #![proptest_config(support::property_config(3))]

    /// Every command, from every working directory and every way of
    /// naming files, covers what `docs/files.md` says, in every layout.
    #[test]
    fn every_command_covers_what_the_rule_says_in_every_layout(seed in any::<u64>()) {
        matrix(seed)?;
    }
}

/// Each layout once, whatever the property's seed draws.
#[test]
fn each_layout_once() {
    for (i, _) in LAYOUTS.iter().enumerate() {
        // A seed whose first draw is layout `i`.
        let seed = (0..u64::MAX)
            .find(|s| Rng::new(*s).below(LAYOUTS.len()) == i)
            .expect("a seed");
        if let Err(e) = matrix(seed) {
            panic!("{e}");
        }
    }
}

// ---------------------------------------------------------------------
// The four failures that opened this, each through the binary.

/// A repository in the layout `urldb init db` makes, committed, then a
/// record added to `db/example.com.yaml` and committed.
fn init_db_layout() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let top = dir.path();
    support::git(top, &["init", "-q", "-b", "main"]);
    std::fs::create_dir(top.join("db")).expect("mkdir");
    let out = support::urldb_in(top, &["init", "db"]);
    assert!(out.status.success(), "{}", show(&out));
    support::git(top, &["add", "-A"]);
    support::git(top, &["commit", "-qm", "base"]);
    append(
        &top.join("db/example.com.yaml"),
        "---\n_path: /new\ncontent-type: text/html\n",
    );
    support::git(top, &["commit", "-qam", "add"]);
    dir
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Item 1: `verify --since` and `diff` at the top of the `init db` layout
/// see the record added in `db/`.
#[test]
fn change_sets_at_the_top_of_the_init_db_layout_see_the_database_below() {
    let dir = init_db_layout();
    let top = dir.path();
    let out = support::urldb_in(top, &["diff", "HEAD~1"]);
    assert!(stdout(&out).contains("+ /new"), "{}", show(&out));
    let server = server();
    let map = format!("example.com=http://127.0.0.1:{}", server.port);
    for args in [
        vec![
            "verify",
            "--since",
            "HEAD~1",
            "--allow-private",
            "--map",
            &map,
        ],
        vec![
            "verify",
            "--since",
            "HEAD~1",
            "--allow-private",
            "--map",
            &map,
            "db",
        ],
    ] {
        server.requests.lock().expect("lock").clear();
        let out = support::urldb_in(top, &args);
        assert_eq!(
            *server.requests.lock().expect("lock"),
            ["/new"],
            "{args:?}\n{}",
            show(&out)
        );
    }
}

/// Item 1, nested: `verify --since BASE .` and `diff BASE` at the top see
/// what changed in a nested database, judged with its own `[verify]`.
#[test]
fn change_sets_cover_a_nested_database_with_its_own_settings() {
    let dir = tempfile::tempdir().expect("tempdir");
    let top = dir.path();
    write(&top.join("urldb.toml"), "root = \".\"\n");
    write(
        &top.join("a.test.yaml"),
        "---\n---\n_path: /a\ncontent-type: text/html\n",
    );
    // The nested database skips what it says it skips.
    write(
        &top.join("legacy/urldb.toml"),
        "root = \".\"\n[verify]\nskip = [\"http://b.test/skipped\"]\n",
    );
    write(
        &top.join("legacy/b.test.yaml"),
        "---\n---\n_path: /b\ncontent-type: text/html\n",
    );
    support::git(top, &["init", "-q", "-b", "main"]);
    support::git(top, &["add", "-A"]);
    support::git(top, &["commit", "-qm", "base"]);
    append(
        &top.join("legacy/b.test.yaml"),
        "---\n_path: /c\ncontent-type: text/html\n---\n_path: /skipped\ncontent-type: text/html\n",
    );
    let out = support::urldb_in(top, &["diff", "HEAD"]);
    assert!(stdout(&out).contains("+ /c"), "{}", show(&out));
    let server = server();
    let map = format!("b.test=http://127.0.0.1:{}", server.port);
    let out = support::urldb_in(
        top,
        &[
            "verify",
            "--since",
            "HEAD",
            "--allow-private",
            "--map",
            &map,
            ".",
        ],
    );
    assert_eq!(
        *server.requests.lock().expect("lock"),
        ["/c"],
        "{}",
        show(&out)
    );
}

/// Item 2: the installed hook stops a broken domain file in the `init db`
/// layout and in a nested database, on a real `git commit`.
#[test]
fn the_installed_hook_stops_a_broken_file_in_every_database() {
    let path = path_with_urldb();
    for broken in ["db/bad.org.yaml", "db/sub/bad.org.yaml"] {
        let dir = init_db_layout();
        let top = dir.path();
        if broken.starts_with("db/sub/") {
            write(&top.join("db/sub/urldb.toml"), "root = \".\"\n");
            write(
                &top.join("db/sub/ok.org.yaml"),
                "---\n---\n_path: /\ncontent-type: text/html\n",
            );
            support::git(top, &["add", "-A"]);
            support::git(top, &["commit", "-qm", "nested"]);
        }
        let out = support::urldb_in(top, &["install-hook"]);
        assert!(out.status.success(), "{}", show(&out));
        write(&top.join(broken), "---\n---\n_path: /x\ncontent-type: [\n");
        support::git(top, &["add", "-A"]);
        let out = support::git_command(top)
            .env("PATH", &path)
            .args(["commit", "-qm", "broken"])
            .output()
            .expect("git commit");
        assert!(
            !out.status.success(),
            "{broken} was committed\n{}",
            show(&out)
        );
        assert!(stderr(&out).contains("bad.org.yaml"), "{}", show(&out));
    }
}

/// Item 3: `check --staged .` takes nested databases, and in the `init db`
/// layout the database below.
#[test]
fn check_staged_dot_takes_the_databases_below() {
    let dir = init_db_layout();
    let top = dir.path();
    let out = support::urldb_in(top, &["check", "--staged", "."]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    write(&top.join("db/sub/urldb.toml"), "root = \".\"\n");
    write(
        &top.join("db/sub/x.org.yaml"),
        "---\n---\n_path: /x\ncontent-type: Text/HTML\n",
    );
    support::git(top, &["add", "-A"]);
    for args in [
        &["check", "--staged", "."][..],
        &["check", "--staged"],
        &["check", "--staged", "db"],
    ] {
        let out = support::urldb_in(top, args);
        assert_eq!(out.status.code(), Some(1), "{args:?}\n{}", show(&out));
        assert!(
            stdout(&out).contains("content-type-case"),
            "{args:?}\n{}",
            show(&out)
        );
    }
}

/// Item 4: a bare run at the top covers nested databases, and the
/// `init db` layout's database; nothing suggests `init` there, and `init`
/// itself refuses to make a second database above it.
#[test]
fn a_bare_run_at_the_top_covers_every_database() {
    let dir = tempfile::tempdir().expect("tempdir");
    let top = dir.path();
    write(&top.join("urldb.toml"), "root = \".\"\n");
    write(
        &top.join("a.test.yaml"),
        "---\n---\n_path: /a\ncontent-type: text/html\n",
    );
    write(&top.join("sub/urldb.toml"), "root = \".\"\n");
    write(
        &top.join("sub/b.test.yaml"),
        "---\n---\n_path: /b\ncontent-type: Text/HTML\n",
    );
    let out = support::urldb_in(top, &["check"]);
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(stdout(&out).contains("sub/b.test.yaml"), "{}", show(&out));

    let dir = init_db_layout();
    let top = dir.path();
    for args in [
        &["check"][..],
        &["ls"],
        &["export", "--to", "json"],
        &["fmt", "--check"],
        &[
            "verify",
            "--allow-private",
            "--timeout",
            "1s",
            "--retries",
            "0",
        ],
    ] {
        let out = support::urldb_in(top, args);
        assert!(
            !stderr(&out).contains("init") && !stderr(&out).contains("no domain file"),
            "{args:?}\n{}",
            show(&out)
        );
        assert_ne!(out.status.code(), Some(2), "{args:?}\n{}", show(&out));
    }
    let out = support::urldb_in(top, &["ls"]);
    assert!(
        stdout(&out).contains("http://example.com/new"),
        "{}",
        show(&out)
    );
    let out = support::urldb_in(top, &["init"]);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    assert!(stderr(&out).contains("db/urldb.toml"), "{}", show(&out));
    assert!(!top.join("urldb.toml").exists());
    let out = support::urldb_in(top, &["init", "--another"]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
}

/// `install-hook --merge-driver` at the top sets the driver up for every
/// database a run there covers: one `.gitattributes` line each.
#[test]
fn the_merge_driver_is_set_up_for_every_database() {
    let dir = init_db_layout();
    let top = dir.path();
    write(&top.join("db/sub/urldb.toml"), "root = \".\"\n");
    write(
        &top.join("db/sub/x.org.yaml"),
        "---\n---\n_path: /x\ncontent-type: text/html\n",
    );
    let out = support::urldb_in(top, &["install-hook", "--merge-driver"]);
    assert!(out.status.success(), "{}", show(&out));
    let attributes = std::fs::read_to_string(top.join(".gitattributes")).expect("read");
    assert_eq!(
        attributes,
        "db/**/*.yaml merge=urldb\ndb/sub/**/*.yaml merge=urldb\n",
        "{}",
        show(&out)
    );
    // Again: nothing added twice.
    let out = support::urldb_in(top, &["install-hook", "--merge-driver"]);
    assert!(out.status.success(), "{}", show(&out));
    assert_eq!(
        std::fs::read_to_string(top.join(".gitattributes")).expect("read"),
        attributes
    );
}

/// A named folder takes every database below it whole, whatever else is
/// named before it: a file of a nested database named first does not
/// narrow that database to the file, and a file named twice is checked
/// once.
#[test]
fn a_named_folder_covers_a_nested_database_whatever_is_named_before_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let top = dir.path();
    write(&top.join("urldb.toml"), "root = \".\"\n");
    write(&top.join("sub/urldb.toml"), "root = \".\"\n");
    for name in ["sub/b.org.yaml", "sub/c.org.yaml"] {
        write(
            &top.join(name),
            "---\n---\n_path: /x\ncontent-type: Text/HTML\n",
        );
    }
    let both = BTreeSet::from(["sub/b.org.yaml".to_string(), "sub/c.org.yaml".to_string()]);
    for args in [
        &["check", "--format", "concise", "."][..],
        &["check", "--format", "concise", "sub/b.org.yaml", "."],
        &["check", "--format", "concise", ".", "sub/b.org.yaml"],
    ] {
        let out = support::urldb_in(top, args);
        let lines = String::from_utf8_lossy(&out.stdout).lines().count();
        assert_eq!(finding_files("", &out), both, "{args:?}\n{}", show(&out));
        assert_eq!(lines, 2, "each finding once: {args:?}\n{}", show(&out));
    }
}
