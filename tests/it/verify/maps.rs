//! Maps from a file and from `urldb.toml` (`--map-file`, `[verify.map]`):
//! 2,000 `--map` options do not fit a command line. The same parsing as
//! `--map`; `--map` wins over the file, the file over `urldb.toml`; a map
//! that only a checkout's `urldb.toml` makes never carries a credential
//! (`docs/security.md`, "Who controls what"). Against real servers on
//! 127.0.0.1 that keep every request's head.

use crate::support;

use std::io::Write;
use std::net::TcpStream;
use std::path::Path;

use super::outcomes::Run;

/// A server that answers 200 `text/html` to every path, keeping each
/// request's head.
fn server() -> support::http::Listening {
    support::http::listen(|mut stream: TcpStream, _| {
        let _ = stream.write_all(
            b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Type: text/html\r\nContent-Length: 2\r\n\r\nok",
        );
    })
}

/// The domain of each request the server saw, sorted: each domain's
/// record is at `/DOMAIN` (a map sends the mapped host in `Host:`).
fn hosts(server: &support::http::Listening) -> Vec<String> {
    let mut hosts: Vec<String> = server
        .heads
        .lock()
        .expect("lock")
        .iter()
        .filter_map(|head| {
            let target = head.split(' ').nth(1)?;
            Some(target.trim_start_matches('/').to_string())
        })
        .collect();
    hosts.sort();
    hosts
}

/// A database: `urldb.toml` and one domain file with one record at
/// `/HOST` for each of `hosts`.
fn database(config: &str, hosts: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("urldb.toml"), config).expect("write");
    for host in hosts {
        std::fs::write(
            dir.path().join(format!("{host}.yaml")),
            format!("---\n---\n_path: /{host}\ncontent-type: text/html\n"),
        )
        .expect("write");
    }
    dir
}

/// `urldb ARGS` in `dir`, with a clean environment for `verify`.
fn urldb(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let start = std::time::Instant::now();
    let mut cmd = support::urldb();
    cmd.current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("URLDB_FORMAT")
        .env_remove("URLDB_ALLOW_ENV")
        .stdin(std::process::Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run urldb");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        elapsed: start.elapsed(),
    }
}

const VERIFY: [&str; 4] = ["verify", "--allow-private", "--retries", "0"];

fn with<'a>(args: &[&'a str], more: &[&'a str]) -> Vec<&'a str> {
    [args, more].concat()
}

/// Three domains, each mapped by `urldb.toml`; the file maps two of them
/// elsewhere, and `--map` one of those elsewhere again: each domain's
/// request reaches the server of the strongest map, once.
#[test]
fn the_command_line_wins_over_the_map_file_and_the_file_over_urldb_toml() {
    let (toml_server, file_server, option_server) = (server(), server(), server());
    let at = |s: &support::http::Listening| format!("http://127.0.0.1:{}", s.port);
    let config = format!(
        "[verify.map]\n\"a.test\" = \"{0}\"\n\"B.Test.\" = \"{0}\"\n\"c.test\" = \"{0}\"\n",
        at(&toml_server)
    );
    let db = database(&config, &["a.test", "b.test", "c.test"]);
    std::fs::write(
        db.path().join("maps.txt"),
        format!(
            "# test servers\n\n  b.test = {0}  \nc.test={0}/\n# d.test=nowhere, a comment\n",
            at(&file_server)
        ),
    )
    .expect("write");
    let option = format!("c.test={}", at(&option_server));
    let run = urldb(
        db.path(),
        &with(&VERIFY, &["--map-file", "maps.txt", "--map", &option]),
        &[],
    );
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert_eq!(hosts(&toml_server), ["a.test"]);
    assert_eq!(hosts(&file_server), ["b.test"]);
    assert_eq!(hosts(&option_server), ["c.test"]);

    // urldb.toml's map alone: every domain to its server.
    let run = urldb(db.path(), &VERIFY, &[]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert_eq!(
        hosts(&toml_server),
        ["a.test", "a.test", "b.test", "c.test"]
    );
    // A map file that names a domain this run does not take (a file
    // for the whole database, one file verified) is no error.
    let run = urldb(
        db.path(),
        &with(&VERIFY, &["a.test.yaml", "--map-file", "maps.txt"]),
        &[],
    );
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
}

/// A map that is not one is said with where it is, before any request:
/// the file's line (never quoted: the file may be any file), urldb.toml's
/// line in `verify` and in `check`; a map file that is a symbolic link is
/// refused, as `--history` refuses one.
#[test]
fn a_bad_map_is_an_error_with_its_place_before_any_request() {
    let target = server();
    let good = format!("\"a.test\" = \"http://127.0.0.1:{}\"", target.port);
    let db = database(&format!("[verify.map]\n{good}\n"), &["a.test"]);
    let d = db.path();
    for (text, line, why) in [
        (
            "# ok\na.test=127.0.0.1:1\nsecret-token\n",
            3,
            "expected DOMAIN=HOST",
        ),
        (
            "a.test=ftp://127.0.0.1\n",
            1,
            "scheme `ftp` is not http or https",
        ),
        ("\n=127.0.0.1\n", 2, "the domain is empty"),
        (
            "a.test=http://u@127.0.0.1/\n",
            1,
            "expected a host with an optional port",
        ),
    ] {
        std::fs::write(d.join("maps.txt"), text).expect("write");
        let run = urldb(d, &with(&VERIFY, &["--map-file", "maps.txt"]), &[]);
        assert_eq!(run.code, 2, "{text}: {}", run.stderr);
        assert!(
            run.stderr
                .contains(&format!("error: --map-file maps.txt:{line}: {why}")),
            "{text}: {}",
            run.stderr
        );
        assert!(!run.stderr.contains("secret-token"), "{}", run.stderr);
    }
    // A link is refused; making one needs Unix (Windows asks for a privilege).
    #[cfg(unix)]
    {
        std::fs::write(d.join("real.txt"), "a.test=127.0.0.1:1\n").expect("write");
        std::os::unix::fs::symlink(d.join("real.txt"), d.join("link.txt")).expect("symlink");
        let run = urldb(d, &with(&VERIFY, &["--map-file", "link.txt"]), &[]);
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(run.stderr.contains("is a symbolic link"), "{}", run.stderr);
    }
    let run = urldb(d, &with(&VERIFY, &["--map-file", "missing.txt"]), &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("--map-file missing.txt: "),
        "{}",
        run.stderr
    );
    assert!(target.heads.lock().expect("lock").is_empty());

    for (bad, why) in [
        (
            "\"a.test\" = \"gopher://127.0.0.1\"",
            "scheme `gopher` is not http or https",
        ),
        (
            "\"a.test\" = \"127.0.0.1/x\"",
            "expected a host with an optional port",
        ),
        (
            "\"A.test\" = \"127.0.0.1\"\n\"a.test.\" = \"127.0.0.2\"",
            "is mapped twice",
        ),
    ] {
        std::fs::write(
            d.join("urldb.toml"),
            format!("[verify]\nretries = 0\n[verify.map]\n{bad}\n"),
        )
        .expect("write");
        for command in [&VERIFY[..], &["check"]] {
            let run = urldb(d, command, &[]);
            assert_eq!(run.code, 2, "{bad}: {}", run.stderr);
            assert!(
                run.stderr.contains("urldb.toml:") && run.stderr.contains(why),
                "{bad}: {}",
                run.stderr
            );
        }
    }
    std::fs::write(
        d.join("urldb.toml"),
        "[verify]\nmap = [\"a.test=127.0.0.1\"]\n",
    )
    .expect("write");
    let run = urldb(d, &["check"], &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(target.heads.lock().expect("lock").is_empty());
}

const SECRET: &str = "gh-token-7c1e9a";

/// A pull request's `urldb.toml` maps the owner's API host, whose section
/// sends a credential, to a server of its own: that URL is reported, not
/// requested, and nothing reaches the server. The runner's `--map` or
/// `--map-file`, or the owner's `urldb.toml` (`--config-from`), send it.
#[test]
fn a_map_only_the_checkouts_urldb_toml_makes_never_carries_a_credential() {
    let attacker = server();
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    support::git(root, &["init", "-q"]);
    let record =
        |host: &str| format!("---\nhttps: true\n---\n_path: /{host}\ncontent-type: text/html\n");
    for host in ["api.example", "other.example"] {
        std::fs::write(root.join(format!("{host}.yaml")), record(host)).expect("write");
    }
    let section = "[verify.domains.\"api.example\"]\nheaders = { Authorization = \"env:TOKEN\" }\n";
    let map = format!(
        "[verify.map]\n\"api.example\" = \"http://127.0.0.1:{0}\"\n\"other.example\" = \"http://127.0.0.1:{0}\"\n",
        attacker.port
    );
    std::fs::write(root.join("urldb.toml"), section).expect("write");
    support::git(root, &["add", "-A"]);
    support::git(root, &["commit", "-qm", "base"]);
    // The pull request adds the map.
    std::fs::write(root.join("urldb.toml"), format!("{section}{map}")).expect("write");
    let env = [("TOKEN", SECRET)];
    let allow = ["--allow-env", "TOKEN=api.example", "--format", "json"];

    let run = urldb(root, &with(&VERIFY, &allow), &env);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains(
            "urldb.toml's [verify.map] sends api.example elsewhere, and api.example is sent a \
             credential (`Authorization`)"
        ),
        "{}",
        run.stdout
    );
    // The other host, which carries nothing, is mapped and requested.
    assert_eq!(hosts(&attacker), ["other.example"]);
    let heads = attacker.heads.lock().expect("lock").join("\n");
    assert!(!heads.contains(SECRET), "{heads}");

    // The runner's map: sent (to the runner's server).
    let runners = format!("api.example=http://127.0.0.1:{}", attacker.port);
    let run = urldb(
        root,
        &with(&VERIFY, &[&allow[..], &["--map", &runners]].concat()),
        &env,
    );
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    std::fs::write(root.join("runner.map"), format!("{runners}\n")).expect("write");
    let run = urldb(
        root,
        &with(
            &VERIFY,
            &[&allow[..], &["--map-file", "runner.map"]].concat(),
        ),
        &env,
    );
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let sent = attacker
        .heads
        .lock()
        .expect("lock")
        .iter()
        .filter(|h| h.contains(SECRET))
        .count();
    assert_eq!(sent, 2);

    // The owner's map, read with --config-from: sent.
    std::fs::write(root.join("urldb.toml"), format!("{section}{map}")).expect("write");
    support::git(root, &["commit", "-qam", "the owner maps"]);
    std::fs::write(root.join("urldb.toml"), section).expect("write");
    let run = urldb(
        root,
        &with(&VERIFY, &[&["--config-from", "HEAD"], &allow[..]].concat()),
        &env,
    );
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let sent = attacker
        .heads
        .lock()
        .expect("lock")
        .iter()
        .filter(|h| h.contains(SECRET))
        .count();
    assert_eq!(sent, 3);
}
