//! `--config-from REV`: `urldb.toml` read through git from a revision the
//! pull request cannot change (its base), the data from the working tree
//! (`docs/security.md`, "Who controls what"). A pull request's own
//! `urldb.toml` narrows the gate in each way below when it is read, and in
//! none when the base's is: real repositories, the real binary, and for
//! `verify` a real server on 127.0.0.1.

use crate::support;

use std::io::Write;
use std::net::TcpStream;
use std::path::Path;
use std::process::Output;

use support::git;

/// A file with a finding (`path-escape-case`) and a URL the server below
/// answers with a 404.
const BAD: &str = "---\n---\n_path: /caf%c3%a9\ncontent-type: text/html\n";

/// The owner's configuration at the base: the database is `database/`.
const BASE: &str = "root = \"database\"\n[verify]\nretries = 0\n";

/// A repository whose base commit holds `base_config` (none if empty) and
/// `database/a.example.yaml` (clean); the working tree then adds
/// `database/bad.example.yaml` and an empty `empty/`, as a pull request
/// would. Returns it and the base commit.
fn repository(base_config: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    git(root, &["init", "-q"]);
    std::fs::create_dir_all(root.join("database")).expect("mkdir");
    std::fs::write(
        root.join("database/a.example.yaml"),
        "---\n---\n_path: /ok\ncontent-type: text/html\n",
    )
    .expect("write");
    if !base_config.is_empty() {
        std::fs::write(root.join("urldb.toml"), base_config).expect("write");
    }
    git(root, &["add", "-A"]);
    git(root, &["commit", "-qm", "base"]);
    let base = git(root, &["rev-parse", "HEAD"]).trim().to_string();
    std::fs::write(root.join("database/bad.example.yaml"), BAD).expect("write");
    std::fs::create_dir_all(root.join("empty")).expect("mkdir");
    std::fs::write(root.join("empty/.keep"), "").expect("write");
    (dir, base)
}

fn urldb(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = support::urldb();
    cmd.current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("URLDB_FORMAT")
        .env_remove("URLDB_CONFIG_FROM")
        .stdin(std::process::Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("run urldb")
}

fn show(out: &Output) -> String {
    format!(
        "exit {:?}\n{}\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A server on 127.0.0.1 that answers `/ok` with 200 and anything else
/// with 404; its request targets.
fn server() -> support::http::Listening {
    support::http::listen(|mut stream: TcpStream, path| {
        let status = if path == "/ok" {
            "200 OK"
        } else {
            "404 Not Found"
        };
        let _ = write!(
            stream,
            "HTTP/1.1 {status}\r\nConnection: close\r\nContent-Type: text/html\r\nContent-Length: 0\r\n\r\n"
        );
    })
}

/// Item 9 of the round's attacks: each setting a pull request's
/// `urldb.toml` can narrow the gate with lets the bad file through when
/// that file is read, and none does with `--config-from` the base.
#[test]
fn a_pull_requests_urldb_toml_narrows_nothing_under_config_from() {
    let (repo, base) = repository(BASE);
    let root = repo.path();
    let srv = server();
    let map_a = format!("a.example=http://127.0.0.1:{}", srv.port);
    let map_b = format!("bad.example=http://127.0.0.1:{}", srv.port);
    let verify = [
        "verify",
        "--allow-private",
        "--map",
        map_a.as_str(),
        "--map",
        map_b.as_str(),
    ];
    let narrowings: [(&str, &[&str]); 7] = [
        ("root = \"empty\"\n", &["check"]),
        ("root = \"database\"\nexclude = [\"bad.*\"]\n", &["check"]),
        (
            "root = \"database\"\n[lint]\nignore = [\"path-escape-case\"]\n",
            &["check"],
        ),
        (
            "root = \"database\"\n[lint.per-file-ignores]\n\"bad.*\" = [\"path-escape-case\"]\n",
            &["check"],
        ),
        (
            "root = \"database\"\n[lint]\nselect = [\"yaml-comment\"]\n",
            &["check"],
        ),
        (
            "root = \"database\"\n[verify]\naccept = [\"100-599\"]\n",
            &verify,
        ),
        ("root = \"database\"\n[verify]\nskip = [\"/\"]\n", &verify),
    ];
    for (narrowing, args) in narrowings {
        std::fs::write(root.join("urldb.toml"), narrowing).expect("write");
        let read = urldb(root, args, &[]);
        // A root with no domain file no longer passes: it is an error
        // (issue 49), and still no finding of the database is reported.
        let narrowed = if narrowing.contains("\"empty\"") {
            2
        } else {
            0
        };
        assert_eq!(
            read.status.code(),
            Some(narrowed),
            "{narrowing}{}",
            show(&read)
        );
        let flag = [&["--config-from", base.as_str()][..], args].concat();
        let protected = urldb(root, &flag, &[]);
        assert_eq!(
            protected.status.code(),
            Some(1),
            "{narrowing}{}",
            show(&protected)
        );
        // The variable the Action sets does the same.
        let env = urldb(root, args, &[("URLDB_CONFIG_FROM", &base)]);
        assert_eq!(env.status.code(), Some(1), "{narrowing}{}", show(&env));
    }
    // The broken URL: requested by the four protected runs and by the run
    // that accepted its 404; never by the run that skipped it.
    let hits = srv.requests.lock().expect("lock").clone();
    assert_eq!(
        hits.iter().filter(|p| p.starts_with("/caf")).count(),
        5,
        "{hits:?}"
    );
    // From a subdirectory, the nearest urldb.toml of the base is found,
    // and its `root` is where that file is in the working tree.
    let out = urldb(
        &root.join("database"),
        &["--config-from", &base, "check", "--format", "concise"],
        &[],
    );
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("bad.example.yaml:3:12: error path-escape-case"),
        "{}",
        show(&out)
    );
}

/// A base without `urldb.toml`: the defaults, and a note that the working
/// tree's is not read.
#[test]
fn a_base_without_urldb_toml_means_the_defaults_and_says_so() {
    let (repo, base) = repository("");
    let root = repo.path();
    std::fs::write(
        root.join("urldb.toml"),
        "[lint]\nignore = [\"path-escape-case\"]\n",
    )
    .expect("write");
    let db = root.join("database");
    std::fs::write(db.join("urldb.toml"), "exclude = [\"bad.*\"]\n").expect("write");
    let out = urldb(
        &db,
        &["--config-from", &base, "check", "--format", "concise"],
        &[],
    );
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "note: --config-from {base}: that revision has no urldb.toml anywhere; using the \
             defaults\n"
        )
    );
    // -q keeps it quiet; the findings stay.
    let quiet = urldb(&db, &["-q", "--config-from", &base, "check"], &[]);
    assert_eq!(quiet.status.code(), Some(1), "{}", show(&quiet));
    assert!(quiet.stderr.is_empty(), "{}", show(&quiet));
}

/// Every way `--config-from` cannot be honoured is exit 2 with the reason,
/// never a silent fall back to the working tree's file.
#[test]
fn config_from_that_cannot_be_read_is_an_error() {
    let (repo, base) = repository(BASE);
    let root = repo.path();
    std::fs::write(
        root.join("urldb.toml"),
        "[lint]\nignore = [\"path-escape-case\"]\n",
    )
    .expect("write");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["--config-from".into(), "no-such-branch".into()],
            "no revision `no-such-branch`",
        ),
        (
            vec![
                "--config-from".into(),
                base.clone(),
                "--config".into(),
                "other.toml".into(),
            ],
            "that revision has no `other.toml`",
        ),
    ];
    for (args, want) in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).chain(["check"]).collect();
        let out = urldb(root, &args, &[]);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", show(&out));
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(want),
            "{args:?}: {}",
            show(&out)
        );
    }
    // Not a repository.
    let plain = tempfile::tempdir().expect("tempdir");
    let out = urldb(plain.path(), &["--config-from", "HEAD", "check"], &[]);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("is not inside a git repository (needed by --config-from)"),
        "{}",
        show(&out)
    );
    // An invalid configuration at the revision is shown where it is there.
    std::fs::write(root.join("urldb.toml"), "[lint]\nignore = [\"nope\"]\n").expect("write");
    git(root, &["add", "urldb.toml"]);
    git(root, &["commit", "-qm", "bad config"]);
    let out = urldb(root, &["--config-from", "HEAD", "check"], &[]);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unknown rule code `nope`") && err.contains("HEAD:urldb.toml:2:11"),
        "{err}"
    );
    // A symbolic link at the revision is not followed.
    std::fs::remove_file(root.join("urldb.toml")).expect("rm");
    std::os::unix::fs::symlink("/etc/passwd", root.join("urldb.toml")).expect("symlink");
    git(root, &["add", "urldb.toml"]);
    git(root, &["commit", "-qm", "link"]);
    let out = urldb(root, &["--config-from", "HEAD", "check"], &[]);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("`urldb.toml` at `HEAD` is not a regular file"),
        "{}",
        show(&out)
    );
}

/// The base's layout for the configuration-location attacks: `site/`
/// (strict: `root = "."`) and `legacy/` (which ignores
/// `path-escape-case`), each a database with a clean file. Returns the
/// repository and the base commit.
fn two_databases() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    git(root, &["init", "-q"]);
    for (name, text) in [
        ("site/urldb.toml", "root = \".\"\n"),
        (
            "site/ok.example.yaml",
            "---\n---\n_path: /ok\ncontent-type: text/html\n",
        ),
        (
            "legacy/urldb.toml",
            "root = \".\"\n[lint]\nignore = [\"path-escape-case\"]\n",
        ),
        (
            "legacy/old.example.yaml",
            "---\n---\n_path: /old\ncontent-type: text/html\n",
        ),
    ] {
        let path = root.join(name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
    git(root, &["add", "-A"]);
    git(root, &["commit", "-qm", "base"]);
    let base = git(root, &["rev-parse", "HEAD"]).trim().to_string();
    (dir, base)
}

/// Round 5, item 3: the configuration is found on the path as the shell
/// names it (`$PWD`), never through a link. A pull request that replaces
/// `site/` with a link to `site2/` (its own folder, with a bad file) and
/// runs in `site` gets exit 2 naming the link, not the defaults; so does
/// `--config site/urldb.toml` through it; and from the link's target
/// itself, where the base has no configuration on the path but has some
/// elsewhere, exit 2 lists them.
#[cfg(unix)]
#[test]
fn a_link_in_the_work_tree_never_chooses_the_bases_configuration() {
    let (repo, base) = two_databases();
    let root = repo.path();
    // Before the attack: the base's strict configuration, from `site`.
    std::fs::write(root.join("site/bad.example.yaml"), BAD).expect("write");
    let site = root.join("site");
    let pwd = site.to_string_lossy().into_owned();
    let out = urldb(&site, &["--config-from", &base, "check"], &[("PWD", &pwd)]);
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    // The pull request: `site` is now a link to its own `site2`.
    std::fs::rename(root.join("site"), root.join("site2")).expect("rename");
    std::os::unix::fs::symlink("site2", root.join("site")).expect("symlink");
    let link = "--config-from {BASE}: `site` is a symbolic link in the working tree; the \
                configuration is looked up on the path as the revision has it, and a link there \
                could put the files under another of its configurations: refused";
    let link = link.replace("{BASE}", &base);
    for (dir, args) in [
        (site.clone(), vec!["--config-from", base.as_str(), "check"]),
        (
            site.clone(),
            vec!["--config-from", base.as_str(), "fmt", "--check"],
        ),
        (
            root.to_path_buf(),
            vec![
                "--config",
                "site/urldb.toml",
                "--config-from",
                base.as_str(),
                "check",
            ],
        ),
    ] {
        let out = urldb(&dir, &args, &[("PWD", &pwd)]);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", show(&out));
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!("error: {link}\n"),
            "{args:?}"
        );
    }
    // The link's target, as the system names it: the base has nothing on
    // that path, and two configurations elsewhere.
    let out = urldb(
        &root.join("site2"),
        &["--config-from", &base, "check"],
        &[("PWD", "")],
    );
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "error: --config-from {base}: that revision has no urldb.toml on the path to \
             `site2`; it has `legacy/urldb.toml`, `site/urldb.toml`. Run urldb in the folder of \
             the one that applies, or name it with `--config FILE`\n"
        )
    );
}

/// Round 5, item 3: the defaults only when the revision has no
/// `urldb.toml` at all; one elsewhere (not on the working directory's
/// path) is an error that lists them, never the defaults.
#[test]
fn a_base_with_configurations_elsewhere_is_an_error_not_the_defaults() {
    let (repo, base) = two_databases();
    let root = repo.path();
    std::fs::write(root.join("bad.example.yaml"), BAD).expect("write");
    let out = urldb(root, &["--config-from", &base, "check"], &[]);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "error: --config-from {base}: that revision has no urldb.toml on the path to `.`; \
             it has `legacy/urldb.toml`, `site/urldb.toml`. Run urldb in the folder of the one \
             that applies, or name it with `--config FILE`\n"
        )
    );
    // Each named file is looked up on its own path: in `legacy`, the
    // base's `legacy/urldb.toml` (which ignores the finding).
    std::fs::write(root.join("legacy/bad.example.yaml"), BAD).expect("write");
    let out = urldb(
        &root.join("legacy"),
        &["--config-from", &base, "check", "bad.example.yaml"],
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
}

/// Under `--config-from` the revision's `urldb.toml` files say which
/// folders are databases of their own: one the pull request adds in the
/// working tree hides no folder from the guess made without any (a base
/// with two folders of domain files stays ambiguous, exit 2, not a run
/// over the other folder alone).
#[test]
fn a_urldb_toml_the_pull_request_adds_hides_no_folder_under_config_from() {
    let (repo, _) = repository("");
    let root = repo.path();
    std::fs::create_dir_all(root.join("site")).expect("mkdir");
    std::fs::write(
        root.join("site/b.example.yaml"),
        "---\n---\n_path: /ok\ncontent-type: text/html\n",
    )
    .expect("write");
    git(root, &["add", "-A"]);
    git(root, &["commit", "-qm", "a second folder"]);
    let base = git(root, &["rev-parse", "HEAD"]).trim().to_string();
    std::fs::write(root.join("database/urldb.toml"), "").expect("write");
    let out = urldb(root, &["--config-from", &base, "check"], &[]);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("more than one folder"),
        "{}",
        show(&out)
    );
}
