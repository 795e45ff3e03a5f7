//! A mistake fails loudly, and every message is a way out: what a user
//! meets past the first hour (a typo in a filter, an option where it does
//! nothing, a fix that could not be written) is an error that says what to
//! do next, and the advice works when followed.

use crate::support::{self, run_in};

use std::path::Path;
use std::process::Output;

const CLEAN: &str = "---\n---\n_path: /\ncontent-type: text/html\n";
/// One finding that `check --fix` repairs (trailing whitespace).
const FIXABLE: &str = "---\n---\n_path: /\ncontent-type: text/html \n";

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Run urldb in `dir` with its stderr and stdout in one stream, in the
/// order a terminal shows them.
fn run_merged(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let (reader, writer) = std::io::pipe().expect("pipe");
    let mut child = support::urldb()
        .current_dir(dir)
        .args(args)
        .env_remove("URLDB_FORMAT")
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::null())
        .stdout(writer.try_clone().expect("clone the pipe"))
        .stderr(writer)
        .spawn()
        .expect("run urldb");
    let mut text = String::new();
    std::io::Read::read_to_string(&mut { reader }, &mut text).expect("read");
    let status = child.wait().expect("wait");
    (status.code(), text)
}

fn repo_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).expect("write");
    }
    support::git(dir.path(), &["init", "-q"]);
    support::git(dir.path(), &["add", "-A"]);
    support::git(dir.path(), &["commit", "-q", "-m", "first"]);
    dir
}

/// `check --fix --staged` that cannot write (the work tree has unstaged
/// changes) says so and claims no fix; its advice, followed, fixes both
/// the index and the work tree.
#[test]
fn a_fix_that_was_not_written_is_not_counted_as_fixed() {
    let dir = repo_with(&[("example.com.yaml", FIXABLE)]);
    let file = dir.path().join("example.com.yaml");
    let edited = format!("{FIXABLE}---\n_path: /b\ncontent-type: text/html\n");
    std::fs::write(&file, &edited).expect("write");
    let out = run_in(dir.path(), &["check", "--fix", "--staged"]);
    let (said, err) = (stdout(&out), stderr(&out));
    assert_eq!(out.status.code(), Some(2), "{said}{err}");
    assert!(!said.contains("Fixed"), "{said}");
    assert!(said.contains("1 file could not be fixed"), "{said}");
    assert!(err.contains("unstaged changes"), "{err}");
    assert!(err.contains("`git add`"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).expect("read"), edited);
    assert_eq!(
        support::git(dir.path(), &["show", ":example.com.yaml"]),
        FIXABLE
    );
    // As advised: stage, and run again.
    support::git(dir.path(), &["add", "example.com.yaml"]);
    let out = run_in(dir.path(), &["check", "--fix", "--staged"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("Fixed 1 finding."),
        "{}",
        stdout(&out)
    );
    let fixed = std::fs::read_to_string(&file).expect("read");
    assert!(!fixed.contains("html \n"), "{fixed}");
    assert_eq!(
        support::git(dir.path(), &["show", ":example.com.yaml"]),
        fixed
    );
}

/// The errors a summary points to come before it, in the one stream a
/// terminal shows (`check` and `fmt`).
#[cfg(unix)]
#[test]
fn the_summary_follows_the_errors_it_points_to() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("example.com.yaml"), FIXABLE).expect("write");
    let outside = tempfile::NamedTempFile::new().expect("outside");
    std::os::unix::fs::symlink(outside.path(), dir.path().join("example.org.yaml"))
        .expect("symlink");
    let (code, text) = run_merged(dir.path(), &["check"]);
    assert_eq!(code, Some(2), "{text}");
    let error = text.find("error: example.org.yaml").expect(&text);
    let summary = text
        .find("could not be checked (see the errors above)")
        .expect(&text);
    assert!(error < summary, "{text}");
    let (code, text) = run_merged(dir.path(), &["fmt"]);
    assert_eq!(code, Some(2), "{text}");
    let error = text.find("error: example.org.yaml").expect(&text);
    let summary = text.find("file reformatted").expect(&text);
    assert!(error < summary, "{text}");
}

/// `rm` of a host the database does not have offers what `rm` accepts: a
/// close host, else `urldb ls`; never `add`'s `--create-domain`.
#[test]
fn rm_of_an_unknown_host_offers_what_rm_takes() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("example.com.yaml"), CLEAN).expect("write");
    for (url, want) in [
        ("https://exampel.com/", "did you mean `example.com`?"),
        ("https://unrelated.org/", "`urldb ls`"),
    ] {
        let out = run_in(dir.path(), &["rm", url]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.contains(want), "{url}: {err}");
        assert!(!err.contains("--create-domain"), "{url}: {err}");
    }
    // `add` still offers it, and it works.
    let out = run_in(
        dir.path(),
        &["add", "--content-type", "text/html", "https://new.org/"],
    );
    assert!(stderr(&out).contains("--create-domain"), "{}", stderr(&out));
    let out = run_in(
        dir.path(),
        &[
            "add",
            "--create-domain",
            "--content-type",
            "text/html",
            "https://new.org/",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// An option given before the command that does nothing in it is refused
/// (exit 2) and named, as clap refuses it after the command; one that
/// acts there is taken before it as after it.
#[test]
fn options_before_the_command_are_refused_where_they_do_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (args, command, option) in [
        (
            &["--threads", "4", "--no-cache", "init"][..],
            "init",
            "--threads",
        ),
        (&["--no-cache", "init"][..], "init", "--no-cache"),
        (&["--color", "never", "rules"][..], "rules", "--color"),
        (
            &["--db", ".", "completions", "bash"][..],
            "completions",
            "--db",
        ),
        (
            &["--verbose", "add", "https://example.com/"][..],
            "add",
            "--verbose",
        ),
        (&["--threads", "2", "verify"][..], "verify", "--threads"),
        (&["--db", ".", "server"][..], "server", "--db"),
    ] {
        let out = run_in(dir.path(), args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(&format!("{option} does nothing in `urldb {command}`")),
            "{args:?}: {err}"
        );
        // As after the command: refused there too.
        let mut after: Vec<&str> = args
            .iter()
            .skip_while(|a| **a != command)
            .copied()
            .collect();
        after.push(option);
        let out = run_in(dir.path(), &after);
        assert_eq!(out.status.code(), Some(2), "{after:?}");
        assert!(!dir.path().join("urldb.toml").exists(), "{args:?}");
    }
    // Taken where they act, before the command as after it.
    std::fs::write(dir.path().join("example.com.yaml"), CLEAN).expect("write");
    for args in [
        &["-q", "init"][..],
        &["--threads", "2", "--no-cache", "check"],
        &["--db", ".", "--color", "never", "ls"],
        &["--config-from", "", "-v", "fmt", "--check"],
    ] {
        let out = run_in(dir.path(), args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    }
}

/// `check --help` says what the default output is: `full`, everywhere.
#[test]
fn check_help_says_the_default_format_without_a_terminal() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = run_in(dir.path(), &["check", "--help"]);
    let help = stdout(&out);
    assert!(!help.contains("default on a terminal"), "{help}");
    assert!(help.contains("[default: full]"), "{help}");
}

/// A database with two records: `/engine/a.html` (frontend) and
/// `/docs/` (coreapp, deprecated).
fn two_records() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("urldb.toml"), "root = \".\"\n").expect("write");
    std::fs::write(
        dir.path().join("example.com.yaml"),
        "---\n---\n_path: /docs/\ncategories:\n- coreapp\n- deprecated\ncontent-type: text/html\n\
         ---\n_path: /engine/a.html\ncategories:\n- frontend\ncontent-type: text/html\n",
    )
    .expect("write");
    dir
}

/// `-c`, `--path-prefix` and `--match` that match no record are errors in
/// `ls`, `export` and `verify` (exit 2, as `-d nosuch.org`), each with
/// what to write instead; the suggestion, followed, selects records.
#[test]
fn a_filter_that_selects_nothing_is_an_error() {
    let dir = two_records();
    let cases: [(&[&str], &str, &str); 6] = [
        (
            &["-c", "frontnd"],
            "--category `frontnd`: no record has this category (did you mean `frontend`?)",
            "frontend",
        ),
        (
            &["-c", "frontend", "-c", "zzz"],
            "--category `zzz`: no record has this category (the categories in use: `coreapp`, `deprecated`, `frontend`)",
            "",
        ),
        (
            &["--path-prefix", "engine/"],
            "--path-prefix `engine/`: no record's path starts with it (a path starts with `/`: did you mean `/engine/`?)",
            "/engine/",
        ),
        (
            &["--path-prefix", "/engnie/"],
            "(did you mean `/engine/`?)",
            "/engine/",
        ),
        (
            &["--match", "docs"],
            "--match `docs`: no record's path matches it (a path starts with `/`: did you mean `/docs`?)",
            "/docs",
        ),
        (
            &["-d", "example.com", "--match", "/nothing"],
            "--match `/nothing`: no record's path matches it",
            "",
        ),
    ];
    for command in [&["ls"][..], &["export", "--to", "json"], &["verify"]] {
        for (filter, want, fixed) in &cases {
            let args: Vec<&str> = command.iter().chain(filter.iter()).copied().collect();
            let out = run_in(dir.path(), &args);
            let err = stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
            assert!(err.contains(want), "{args:?}: {err}");
            assert!(stdout(&out).is_empty(), "{args:?}");
            if fixed.is_empty() || command[0] == "verify" {
                continue;
            }
            // As suggested: the same option with the value offered.
            let mut args = args.clone();
            *args.last_mut().expect("value") = fixed;
            let out = run_in(
                dir.path(),
                &[&args[..], &["--include-deprecated"][..]]
                    .concat()
                    .into_iter()
                    .filter(|a| command[0] == "ls" || *a != "--include-deprecated")
                    .collect::<Vec<_>>(),
            );
            assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
            assert!(stdout(&out).contains("example.com"), "{args:?}");
        }
    }
    // A category only deprecated records have is no typo: nothing listed
    // without `--include-deprecated`, and no error.
    let out = run_in(dir.path(), &["ls", "-c", "coreapp"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = run_in(dir.path(), &["ls", "-c", "coreapp", "--include-deprecated"]);
    assert_eq!(stdout(&out), "http://example.com/docs/\n");
}

/// Filters that each match records but no record together select
/// nothing as surely as a typo: exit 2 in `ls`, `export` and `verify`,
/// the message naming the combination and saying that each alone
/// matches; a combination that selects something is no error.
#[test]
fn a_selection_that_selects_nothing_as_a_whole_is_an_error() {
    let dir = two_records();
    std::fs::write(
        dir.path().join("other.org.yaml"),
        "---\n---\n_path: /other\ncategories:\n- coreapp\ncontent-type: text/html\n",
    )
    .expect("write");
    let cases: [(&[&str], &str); 5] = [
        (
            &["-c", "frontend", "--path-prefix", "/docs/"],
            "--category `frontend` --path-prefix `/docs/`: no record matches all of these filters, \
             though each of them alone matches records",
        ),
        (
            &["-c", "frontend", "--match", "/docs"],
            "--category `frontend` --match `/docs`: no record matches all",
        ),
        (
            &["--path-prefix", "/engine/", "--match", "/docs"],
            "--path-prefix `/engine/` --match `/docs`: no record matches all",
        ),
        (
            &["-d", "other.org", "-c", "frontend"],
            "--domain `other.org` --category `frontend`: no record matches all",
        ),
        (
            &["-d", "other.org", "--path-prefix", "/engine/"],
            "--domain `other.org` --path-prefix `/engine/`: no record matches all",
        ),
    ];
    for command in [&["ls"][..], &["export", "--to", "json"], &["verify"]] {
        for (filter, want) in &cases {
            let args: Vec<&str> = command.iter().chain(filter.iter()).copied().collect();
            let out = run_in(dir.path(), &args);
            let err = stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
            assert!(err.contains(want), "{args:?}: {err}");
            assert!(stdout(&out).is_empty(), "{args:?}: {}", stdout(&out));
        }
    }
    // Together they select a record: listed, exit 0.
    for filter in [
        &["-c", "frontend", "--path-prefix", "/engine/"][..],
        &["-d", "other.org", "-c", "coreapp", "--match", "/other"],
    ] {
        let out = run_in(dir.path(), &[&["ls"][..], filter].concat());
        assert_eq!(out.status.code(), Some(0), "{filter:?}: {}", stderr(&out));
        assert!(!stdout(&out).is_empty(), "{filter:?}");
    }
}

/// Paths named to `ls`, `export` or `verify` of which none is a domain
/// file of the database (hidden, excluded, not YAML, a project's own
/// file): exit 2 with nothing on stdout, not `[]` and exit 0, which reads
/// as an empty selection; `check` and `fmt` stay quiet there, since a
/// pre-commit hook names every YAML file of a commit (issue 56).
#[test]
fn named_paths_outside_the_database_select_nothing_loudly() {
    let dir = two_records();
    std::fs::create_dir(dir.path().join(".hidden")).expect("mkdir");
    std::fs::write(dir.path().join(".hidden/x.org.yaml"), CLEAN).expect("write");
    std::fs::write(dir.path().join("mkdocs.yml"), "site_name: x\n").expect("write");
    for command in [
        &["ls"][..],
        &["export", "--to", "json"],
        &["export", "--to", "csv"],
        &["verify"],
    ] {
        for named in [&[".hidden/x.org.yaml"][..], &["mkdocs.yml", ".hidden"]] {
            let args: Vec<&str> = command.iter().chain(named).copied().collect();
            let out = run_in(dir.path(), &args);
            let err = stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
            assert!(stdout(&out).is_empty(), "{args:?}: {}", stdout(&out));
            assert!(
                err.contains("none of the paths named is a domain file of the database"),
                "{args:?}: {err}"
            );
        }
        // One of them in the database: its records, exit 0.
        let args: Vec<&str> = command
            .iter()
            .chain(&["mkdocs.yml", "example.com.yaml"])
            .copied()
            .collect();
        if command[0] != "verify" {
            let out = run_in(dir.path(), &args);
            assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
            assert!(stdout(&out).contains("/engine/a.html"), "{args:?}");
        }
    }
    for command in [&["check"][..], &["fmt", "--check"]] {
        let args: Vec<&str> = command.iter().chain(&["mkdocs.yml"]).copied().collect();
        let out = run_in(dir.path(), &args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    }
}

/// A `urldb.toml` whose root holds no domain file, `--db` at an empty
/// folder, or no database at all: `check`, `fmt`, `ls`, `export` and
/// `verify` exit 2 and say where they looked, instead of "All checks
/// passed.".
#[test]
fn a_database_with_no_domain_file_is_an_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).expect("mkdir");
    std::fs::write(dir.path().join("urldb.toml"), "root = \"empty\"\n").expect("write");
    std::fs::write(dir.path().join("example.com.yaml"), CLEAN).expect("write");
    let commands: [&[&str]; 6] = [
        &["check"],
        &["fmt", "--check"],
        &["fmt"],
        &["ls"],
        &["export", "--to", "csv"],
        &["verify"],
    ];
    for command in commands {
        let out = run_in(dir.path(), command);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{command:?}: {err}");
        assert!(
            err.contains("the database `empty` holds no domain file")
                && err.contains("check `root` in urldb.toml")
                && err.contains("`working-directory` in CI"),
            "{command:?}: {err}"
        );
        assert!(!stdout(&out).contains("passed"), "{command:?}");
        let out = run_in(dir.path(), &[&["--db", "empty"][..], command].concat());
        assert_eq!(out.status.code(), Some(2), "{command:?}");
        assert!(
            stderr(&out).contains("(--db) holds no domain file"),
            "{command:?}"
        );
        let nothing = tempfile::tempdir().expect("tempdir");
        let out = run_in(nothing.path(), command);
        assert_eq!(out.status.code(), Some(2), "{command:?}");
        assert!(
            stderr(&out).contains("no urldb.toml, and no domain file"),
            "{command:?}: {}",
            stderr(&out)
        );
    }
    // `add` and `import` into the new database are how it starts.
    let out = run_in(
        dir.path(),
        &[
            "add",
            "--create-domain",
            "--content-type",
            "text/html",
            "https://example.org/",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = run_in(dir.path(), &["check"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(empty.join("example.org.yaml").exists());
}

/// `--since`, `--staged`, `--shard` and `--max-age` that select nothing
/// are no mistake (a pull request that changed no record, an empty
/// shard): exit 0, with one note that says what was selected.
#[test]
fn a_selection_by_the_run_that_is_empty_is_a_note() {
    let dir = repo_with(&[("example.com.yaml", CLEAN)]);
    let cases: [(&[&str], &str); 4] = [
        (
            &["check", "--since", "HEAD"],
            "note: --since HEAD: no domain file changed since that revision; nothing to do",
        ),
        (
            &["fmt", "--check", "--since", "HEAD"],
            "no domain file changed since that revision",
        ),
        (
            &["check", "--shard", "2/2"],
            "note: --shard 2/2: none of the 1 files falls in this shard; nothing to do",
        ),
        (&["check", "-q", "--since", "HEAD"], ""),
    ];
    for (args, want) in cases {
        let out = run_in(dir.path(), args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        if want.is_empty() {
            assert!(err.is_empty(), "{args:?}: {err}");
        } else {
            assert!(err.contains(want), "{args:?}: {err}");
            assert_eq!(err.matches("note:").count(), 1, "{args:?}: {err}");
        }
    }
    // The one URL is in one of two shards; the other is empty. Nothing
    // listens on port 9: the URL, if requested, goes nowhere.
    let notes: Vec<bool> = ["1/2", "2/2"]
        .iter()
        .map(|shard| {
            let out = run_in(
                dir.path(),
                &[
                    "verify",
                    "--shard",
                    shard,
                    "--timeout",
                    "1s",
                    "--retries",
                    "0",
                    "--allow-private",
                    "--map",
                    "example.com=127.0.0.1:9",
                ],
            );
            let err = stderr(&out);
            let empty = err.contains("none of the 1 URLs falls in this shard; nothing to do");
            assert_eq!(
                out.status.code(),
                Some(if empty { 0 } else { 1 }),
                "{shard}: {err}"
            );
            empty
        })
        .collect();
    assert_eq!(notes.iter().filter(|n| **n).count(), 1, "{notes:?}");
    // An index with no domain file: the database's files are not staged yet.
    let fresh = tempfile::tempdir().expect("tempdir");
    std::fs::write(fresh.path().join("example.com.yaml"), CLEAN).expect("write");
    support::git(fresh.path(), &["init", "-q"]);
    let out = run_in(fresh.path(), &["check", "--staged"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("--staged: the git index holds no domain file"),
        "{}",
        stderr(&out)
    );
}

/// A server on 127.0.0.1 that answers every connection in plain HTTP,
/// whatever it is sent (a TLS hello too), as `python -m http.server`
/// does; how many connections it took.
fn plain_http_server() -> (u16, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::io::{Read, Write};
    use std::sync::atomic::Ordering;
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let count = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = std::sync::Arc::clone(&count);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            counted.fetch_add(1, Ordering::SeqCst);
            let mut buf = [0u8; 4096];
            let _ = stream.read(&mut buf);
            let _ = stream.write_all(
                b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok",
            );
        }
    });
    (port, count)
}

/// `add` refuses loopback and private addresses as `verify` does, unless
/// `--allow-private`, which it now takes; `--map HOST=127.0.0.1:PORT` to
/// a plain-http server is said as such, with the map that works, by `add`
/// and `verify`, and that map works.
#[test]
fn add_guards_private_addresses_and_a_plain_server_gets_the_map_that_works() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("example.com.yaml");
    std::fs::write(
        &file,
        "---\nhttps: true\n---\n_path: /\ncontent-type: text/html\n",
    )
    .expect("write");
    let (port, connections) = plain_http_server();
    let map = format!("example.com=127.0.0.1:{port}");
    let url = "https://example.com/new.html";
    let out = run_in(dir.path(), &["add", "--map", &map, url]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("loopback address"), "{err}");
    assert!(err.contains("pass --allow-private"), "{err}");
    assert_eq!(connections.load(std::sync::atomic::Ordering::SeqCst), 0);
    let out = run_in(dir.path(), &["add", "--allow-private", "--map", &map, url]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let advice = format!(
        "that server does not speak TLS; write `--map example.com=http://127.0.0.1:{port}`"
    );
    assert!(err.contains(&advice), "{err}");
    assert!(!err.contains("InvalidContentType"), "{err}");
    let out = run_in(
        dir.path(),
        &["verify", "--allow-private", "--retries", "0", "--map", &map],
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains(&advice), "{err}");
    // As advised.
    let works = format!("example.com=http://127.0.0.1:{port}");
    let out = run_in(
        dir.path(),
        &["add", "--allow-private", "--map", &works, url],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        std::fs::read_to_string(&file)
            .expect("read")
            .contains("_path: /new.html")
    );
    let out = run_in(dir.path(), &["verify", "--allow-private", "--map", &works]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// `--since HEAD~1` in a shallow clone (CI's default checkout) names the
/// missing history and how to fetch it, not `HEAD~1` again; done as
/// said, the same run works.
#[test]
fn a_shallow_clones_missing_revision_says_to_fetch_the_history() {
    let origin = repo_with(&[("example.com.yaml", CLEAN)]);
    std::fs::write(origin.path().join("example.org.yaml"), CLEAN).expect("write");
    support::git(origin.path(), &["add", "-A"]);
    support::git(origin.path(), &["commit", "-q", "-m", "second"]);
    let clone = tempfile::tempdir().expect("tempdir");
    let url = format!("file://{}", origin.path().display());
    support::git(clone.path(), &["clone", "-q", "--depth", "1", &url, "db"]);
    let db = clone.path().join("db");
    let out = run_in(&db, &["check", "--since", "HEAD~1"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("it is a shallow clone"), "{err}");
    assert!(err.contains("`fetch-depth: 0`"), "{err}");
    assert!(err.contains("`git fetch --unshallow`"), "{err}");
    assert!(!err.contains("such as `HEAD~1`"), "{err}");
    support::git(&db, &["fetch", "-q", "--unshallow"]);
    let out = run_in(&db, &["check", "--since", "HEAD~1"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// `urldb.toml` mistakes a person makes by appending: a top-level key
/// after the last table is said to belong above the first one, and a
/// second `[lint]` (or a key given twice) names the line of the first;
/// the file written as advised is read.
#[test]
fn configuration_mistakes_name_where_the_key_belongs() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("example.com.yaml"), CLEAN).expect("write");
    let config = dir.path().join("urldb.toml");
    let out = run_in(dir.path(), &["init", "-q"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let written = std::fs::read_to_string(&config).expect("read");
    std::fs::write(&config, format!("{written}exclude = [\"drafts/**\"]\n")).expect("write");
    let out = run_in(dir.path(), &["check"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("unknown key `exclude` in [verify]"), "{err}");
    assert!(
        err.contains("`exclude` is a top-level key: write it above the first table (`[lint]`)"),
        "{err}"
    );
    // As advised.
    std::fs::write(
        &config,
        written.replacen("[lint]", "exclude = [\"drafts/**\"]\n\n[lint]", 1),
    )
    .expect("write");
    let out = run_in(dir.path(), &["check"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    for (text, want) in [
        (
            "root = \".\"\n[lint]\nselect = [\"ALL\"]\n\n[lint]\nignore = [\"yaml-comment\"]\n",
            "duplicate table `[lint]`: already defined on line 2",
        ),
        (
            "root = \".\"\n[verify]\ntimeout = \"1s\"\n# longer\ntimeout = \"2s\"\n",
            "duplicate key `timeout`: already defined on line 3",
        ),
    ] {
        std::fs::write(&config, text).expect("write");
        let out = run_in(dir.path(), &["check"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(want), "{text}: {err}");
    }
}

/// Run urldb in `dir` with `input` on its standard input.
fn run_with_stdin(dir: &Path, args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = support::urldb()
        .current_dir(dir)
        .args(args)
        .env_remove("URLDB_FORMAT")
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run urldb");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input.as_bytes()).expect("write stdin");
    drop(stdin);
    child.wait_with_output().expect("wait")
}

/// `urldb check -` reads standard input, as ruff and yamllint do, and
/// asks for the file's name (`--stdin-filename`) rather than saying "no
/// such file"; with it, `-` is standard input for `check` and `fmt`.
#[test]
fn a_dash_reads_standard_input_with_its_name() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("example.com.yaml"), CLEAN).expect("write");
    for command in ["check", "fmt"] {
        let out = run_with_stdin(dir.path(), &[command, "-"], FIXABLE);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{command}: {err}");
        assert!(
            err.contains("add `--stdin-filename NAME`"),
            "{command}: {err}"
        );
        assert!(!err.contains("no such file"), "{command}: {err}");
        let out = run_with_stdin(dir.path(), &[command, "-", "example.com.yaml"], FIXABLE);
        assert_eq!(out.status.code(), Some(2), "{command}");
        assert!(
            stderr(&out).contains("`-` (standard input) is the only file"),
            "{command}"
        );
    }
    let named = ["-", "--stdin-filename", "example.com.yaml"];
    let out = run_with_stdin(dir.path(), &[&["check"][..], &named].concat(), FIXABLE);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("trailing whitespace"),
        "{}",
        stdout(&out)
    );
    let out = run_with_stdin(dir.path(), &[&["fmt"][..], &named].concat(), FIXABLE);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), CLEAN);
}

/// `--config-from REV` (the Action's pull-request runs) reads `urldb.toml`
/// as REV has it: a pull request's edit to it is said once, naming the
/// file, instead of seeming to do nothing; no edit, no note.
#[test]
fn config_from_says_once_that_the_work_trees_edit_is_not_used() {
    let dir = repo_with(&[
        ("urldb.toml", "root = \".\"\n"),
        ("example.com.yaml", FIXABLE),
    ]);
    let out = run_in(dir.path(), &["check", "--config-from", "HEAD"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(!stderr(&out).contains("note:"), "{}", stderr(&out));
    std::fs::write(
        dir.path().join("urldb.toml"),
        "root = \".\"\n[lint]\nignore = [\"trailing-whitespace\"]\n",
    )
    .expect("write");
    for args in [&["check", "--config-from", "HEAD"][..], &["check"]] {
        let out = support::urldb()
            .current_dir(dir.path())
            .args(args)
            .env("URLDB_CONFIG_FROM", "HEAD")
            .env("NO_COLOR", "1")
            .output()
            .expect("run");
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{err}");
        let note = "note: --config-from HEAD: urldb.toml is read as that revision has it; \
                    the working tree's changes to it are not used by this run";
        assert_eq!(err.matches(note).count(), 1, "{args:?}: {err}");
    }
}

/// `www.example.org.YAML` is no domain file (as ruff and yamllint match
/// extensions), but it is no longer silently left out: `check`, `ls` and
/// `verify` say so, with the name that makes it one; renamed as said,
/// it is checked.
#[test]
fn a_domain_file_with_an_uppercase_extension_is_said() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("urldb.toml"), "root = \".\"\n").expect("write");
    std::fs::write(dir.path().join("example.com.yaml"), CLEAN).expect("write");
    std::fs::write(dir.path().join("www.example.org.YAML"), FIXABLE).expect("write");
    let warning = "warning: www.example.org.YAML: not in the database: a domain file's name \
                   ends in `.yaml` (or `.yml`) in lowercase; rename it `www.example.org.yaml`";
    for args in [
        &["check"][..],
        &["check", "-q"],
        &["ls"],
        // Refused before any connection: no private address is allowed.
        &["verify", "--map", "example.com=127.0.0.1:9"],
    ] {
        let out = run_in(dir.path(), args);
        let err = stderr(&out);
        let code = if args[0] == "verify" { 1 } else { 0 };
        assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
        assert_eq!(err.matches(warning).count(), 1, "{args:?}: {err}");
    }
    std::fs::rename(
        dir.path().join("www.example.org.YAML"),
        dir.path().join("www.example.org.yaml"),
    )
    .expect("rename");
    let out = run_in(dir.path(), &["check"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("www.example.org.yaml"),
        "{}",
        stdout(&out)
    );
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
}

/// `FORCE_COLOR` and `CLICOLOR_FORCE` colour the output where no terminal
/// is (a CI log), as in ruff and cargo; `NO_COLOR` wins, `0` forces
/// nothing, and `--color never` wins over all.
#[test]
fn force_color_variables_are_honoured() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("example.com.yaml"), FIXABLE).expect("write");
    for (vars, args, coloured) in [
        (&[("FORCE_COLOR", "1")][..], &["check"][..], true),
        (&[("CLICOLOR_FORCE", "1")], &["check"], true),
        (&[("FORCE_COLOR", "0")], &["check"], false),
        (&[], &["check"], false),
        (
            &[("FORCE_COLOR", "1"), ("NO_COLOR", "1")],
            &["check"],
            false,
        ),
        (
            &[("CLICOLOR_FORCE", "1")],
            &["check", "--color", "never"],
            false,
        ),
    ] {
        let mut cmd = support::urldb();
        cmd.current_dir(dir.path())
            .args(args)
            .env_remove("NO_COLOR")
            .env_remove("FORCE_COLOR")
            .env_remove("CLICOLOR_FORCE")
            .env_remove("URLDB_FORMAT");
        for (name, value) in vars {
            cmd.env(name, value);
        }
        let out = cmd.output().expect("run");
        assert_eq!(out.status.code(), Some(1), "{vars:?}");
        assert_eq!(
            stdout(&out).contains('\u{1b}'),
            coloured,
            "{vars:?} {args:?}"
        );
    }
}

/// `export --to uri-catalogue` stamps what it makes up with a time that
/// does not change between runs: `SOURCE_DATE_EPOCH`, else the time of
/// the database's `HEAD` commit; one that is no number is an error.
#[test]
fn the_catalogue_export_is_reproducible() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("example.com.yaml"), CLEAN).expect("write");
    support::git(dir.path(), &["init", "-q"]);
    support::git(dir.path(), &["add", "-A"]);
    let committed = support::git_command(dir.path())
        .args(["commit", "-q", "-m", "first"])
        .env("GIT_COMMITTER_DATE", "2001-02-03T04:05:06Z")
        .env("GIT_AUTHOR_DATE", "2001-02-03T04:05:06Z")
        .status()
        .expect("git commit");
    assert!(committed.success());
    let export = |epoch: Option<&str>| {
        let mut cmd = support::urldb();
        cmd.current_dir(dir.path())
            .args(["export", "--to", "uri-catalogue"])
            .env_remove("SOURCE_DATE_EPOCH");
        if let Some(epoch) = epoch {
            cmd.env("SOURCE_DATE_EPOCH", epoch);
        }
        cmd.output().expect("run")
    };
    let first = export(None);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    assert!(
        stdout(&first).contains("03/02/2001 04:05:06"),
        "{}",
        stdout(&first)
    );
    std::thread::sleep(std::time::Duration::from_millis(1100));
    assert_eq!(export(None).stdout, first.stdout);
    let epoch = export(Some("0"));
    assert!(
        stdout(&epoch).contains("01/01/1970 00:00:00"),
        "{}",
        stdout(&epoch)
    );
    let bad = export(Some("yesterday"));
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("SOURCE_DATE_EPOCH: `yesterday` is not a number"),
        "{}",
        stderr(&bad)
    );
}

/// A tab the parser stops at is shown where it is, not at the end of the
/// line before (where the value the parser was reading started).
#[test]
fn a_tab_error_points_at_the_tab() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("example.com.yaml"),
        "---\n---\n_path: /\n\tcontent-type: text/html\n",
    )
    .expect("write");
    let out = run_in(dir.path(), &["check", "--format", "concise"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let said = stdout(&out);
    assert!(
        said.starts_with("example.com.yaml:4:1: error yaml-syntax"),
        "{said}"
    );
    assert!(said.contains("found a tab"), "{said}");
}

/// `-v` lists the files the run processed, each checked or known clean,
/// then how many of each, in words rather than the cache's workings.
#[test]
fn verbose_lists_the_files_processed() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("urldb.toml"), "root = \".\"\n").expect("write");
    std::fs::write(dir.path().join("example.com.yaml"), CLEAN).expect("write");
    std::fs::write(dir.path().join("example.org.yaml"), CLEAN).expect("write");
    let cache = tempfile::tempdir().expect("cache");
    let run = |args: &[&str]| {
        support::urldb()
            .current_dir(dir.path())
            .args(args)
            .env("XDG_CACHE_HOME", cache.path())
            .env("NO_COLOR", "1")
            .output()
            .expect("run")
    };
    let first = run(&["check", "-v"]);
    let err = stderr(&first);
    assert_eq!(first.status.code(), Some(0), "{err}");
    for name in ["example.com.yaml", "example.org.yaml"] {
        assert!(err.contains(&format!("{name}: checked\n")), "{err}");
    }
    assert!(
        err.contains("2 files looked at: 0 unchanged since a clean run"),
        "{err}"
    );
    assert!(!err.contains("cache:"), "{err}");
    let second = run(&["check", "-v"]);
    let err = stderr(&second);
    assert!(
        err.contains("example.com.yaml: unchanged since a clean run; not checked again\n"),
        "{err}"
    );
    assert!(
        err.contains("2 files looked at: 2 unchanged since a clean run"),
        "{err}"
    );
    assert!(err.contains(", 0 checked;"), "{err}");
}
