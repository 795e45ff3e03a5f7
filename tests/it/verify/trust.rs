//! What a pull request controls cannot grant `verify` a privilege
//! (`docs/security.md`, "Who controls what"): `urldb.toml` in the checkout
//! names no environment variable the run did not allow, the data cannot
//! make a credential travel over plain http, a history line from the
//! future hides nothing, and retries are bounded. Against real servers on
//! 127.0.0.1 that keep every request's head.

use crate::support;

use std::io::Write;
use std::net::TcpStream;
use std::path::Path;

use super::outcomes::{Run, json};

/// A server that answers 200 `text/html` to every path, keeping each
/// request's head.
fn server() -> support::http::Listening {
    support::http::listen(|mut stream: TcpStream, _| {
        let _ = stream.write_all(
            b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Type: text/html\r\nContent-Length: 2\r\n\r\nok",
        );
    })
}

fn heads(server: &support::http::Listening) -> Vec<String> {
    server.heads.lock().expect("lock").clone()
}

/// A database: `urldb.toml` and one domain file for `host`, its metadata
/// document `metadata`, one record at `/a`.
fn database(config: &str, host: &str, metadata: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("urldb.toml"), config).expect("write");
    std::fs::write(
        dir.path().join(format!("{host}.yaml")),
        format!("---\n{metadata}---\n_path: /a\ncontent-type: text/html\n"),
    )
    .expect("write");
    dir
}

/// `urldb verify ARGS` in `dir` with `env` added to a clean environment
/// (no `URLDB_ALLOW_ENV` of the caller's).
fn verify(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let start = std::time::Instant::now();
    let mut cmd = support::urldb();
    cmd.current_dir(dir)
        .arg("verify")
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

const SECRET: &str = "gh-token-7c1e9a";

/// Attack 1: a pull request adds a host of its own and a header that
/// reads a variable of the step's environment.
#[test]
fn a_pull_request_cannot_choose_which_variable_is_sent() {
    let attacker = server();
    let db = database(
        "[verify.domains.\"attacker.test\"]\nheaders = { X-Steal = \"env:SOME_SECRET\" }\n",
        "attacker.test",
        "",
    );
    let map = format!("attacker.test=http://127.0.0.1:{}", attacker.port);
    let args = ["--allow-private", "--retries", "0", "--map", &map];
    let secret = [("SOME_SECRET", SECRET)];

    let refused = verify(db.path(), &args, &secret);
    assert_eq!(refused.code, 2, "{}\n{}", refused.stdout, refused.stderr);
    assert!(
        refused.stderr.contains(
            "reads the environment variable `SOME_SECRET`, which this run does not allow for \
             `attacker.test`"
        ) && refused
            .stderr
            .contains("run `urldb verify --allow-env SOME_SECRET=attacker.test`"),
        "{}",
        refused.stderr
    );
    assert!(heads(&attacker).is_empty(), "a request was made");
    assert!(!refused.stdout.contains(SECRET) && !refused.stderr.contains(SECRET));
    // The message says nothing of whether the variable exists.
    let unset = verify(db.path(), &args, &[]);
    assert_eq!((unset.code, &unset.stderr), (2, &refused.stderr));
    // Another variable allowed is not this one.
    let other = verify(
        db.path(),
        &[&args[..], &["--allow-env", "OTHER"]].concat(),
        &secret,
    );
    assert_eq!(other.code, 2, "{}", other.stderr);
    assert!(heads(&attacker).is_empty());

    // Allowed by whoever runs urldb for that host, on the command line
    // or in URLDB_ALLOW_ENV (commas or white space): sent. (Allowed without
    // a host, the checkout's urldb.toml would choose it:
    // `a_bare_allowed_variable_goes_only_where_the_owner_says`.)
    let allowed = verify(
        db.path(),
        &[&args[..], &["--allow-env", "SOME_SECRET=attacker.test"]].concat(),
        &secret,
    );
    assert_eq!(allowed.code, 0, "{}", allowed.stderr);
    let from_env = verify(
        db.path(),
        &args,
        &[
            ("SOME_SECRET", SECRET),
            ("URLDB_ALLOW_ENV", "OTHER, SOME_SECRET=Attacker.Test."),
        ],
    );
    assert_eq!(from_env.code, 0, "{}", from_env.stderr);
    let seen = heads(&attacker);
    assert_eq!(seen.len(), 2, "{seen:?}");
    assert!(
        seen.iter()
            .all(|h| h.contains(&format!("x-steal: {SECRET}"))
                || h.contains(&format!("X-Steal: {SECRET}"))),
        "{seen:?}"
    );
    // A name that is no variable's is refused where it is given.
    for (args, env, says) in [
        (
            vec!["--allow-env", "A-B"],
            vec![],
            "is not an environment variable's name",
        ),
        (
            vec![],
            vec![("URLDB_ALLOW_ENV", "GOOD, a-b=x.test")],
            "is not an environment variable's name",
        ),
        (
            vec!["--allow-env", "A=x.test/y"],
            vec![],
            "is not a host name",
        ),
        (
            vec![],
            vec![("URLDB_ALLOW_ENV", "A=")],
            "is not a host name",
        ),
    ] {
        let run = verify(db.path(), &args, &env);
        assert_eq!(run.code, 2, "{args:?} {env:?}: {}", run.stderr);
        assert!(run.stderr.contains(says), "{}", run.stderr);
    }
}

/// Attack 2: the data decides the scheme. A credential goes over https
/// only, unless the person running urldb maps the host to an explicit
/// `http://` address.
#[test]
fn a_credential_never_goes_over_plain_http_unless_the_run_maps_it_so() {
    let owner = server();
    let config = "[verify.domains.\"www.example.org\"]\n\
                  headers = { Authorization = \"env:TOKEN\", Accept-Language = \"en\" }\n\
                  [verify.domains.\"cookie.example.org\"]\nheaders = { Cookie = \"session=1\" }\n";
    let token = [
        ("TOKEN", SECRET),
        ("URLDB_ALLOW_ENV", "TOKEN=www.example.org"),
    ];
    let addr = format!("127.0.0.1:{}", owner.port);
    let not_sent = |run: &Run, host: &str, header: &str| {
        assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
        assert!(
            run.stdout.contains(&format!(
                "not checked: an http URL, and urldb.toml sends {host} a credential (`{header}`), \
                 which goes over https only"
            )),
            "{}",
            run.stdout
        );
    };

    // A pull request removed `https: true`: with a map that keeps the
    // record's scheme, nothing is sent, and the URL is reported.
    let db = database(config, "www.example.org", "");
    let plain = format!("www.example.org={addr}");
    let run = verify(db.path(), &["--allow-private", "--map", &plain], &token);
    not_sent(&run, "www.example.org", "Authorization");
    assert!(heads(&owner).is_empty(), "{:?}", heads(&owner));
    let report = json(&verify(
        db.path(),
        &["--allow-private", "--map", &plain, "--format", "json"],
        &token,
    ));
    assert_eq!(report["results"][0]["kind"], "not-checked");
    // A literal Cookie is a credential too.
    let cookie = database(config, "cookie.example.org", "");
    let cookie_map = format!("cookie.example.org={addr}");
    let run = verify(
        cookie.path(),
        &["--allow-private", "--map", &cookie_map],
        &token,
    );
    not_sent(&run, "cookie.example.org", "Cookie");
    assert!(heads(&owner).is_empty());

    // --both-schemes on an https host: the http URL is not requested; the
    // https one goes to the (plain) server as TLS, so no head is read.
    let db = database(config, "www.example.org", "https: true\n");
    let run = verify(
        db.path(),
        &[
            "--allow-private",
            "--retries",
            "0",
            "--both-schemes",
            "--map",
            &plain,
        ],
        &token,
    );
    assert!(
        run.stdout
            .contains(&format!("http://{addr}/a: not checked: an http URL")),
        "{}",
        run.stdout
    );
    for head in heads(&owner) {
        assert!(!head.contains(SECRET), "{head}");
    }

    // The person running urldb maps the host to an explicit http://
    // address (a test server): sent, with the other headers.
    let explicit = format!("www.example.org=http://{addr}");
    let run = verify(
        db.path(),
        &["--allow-private", "--both-schemes", "--map", &explicit],
        &token,
    );
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let sent: Vec<String> = heads(&owner)
        .into_iter()
        .filter(|h| h.contains(SECRET))
        .collect();
    assert_eq!(sent.len(), 1, "{:?}", heads(&owner));
    assert!(sent[0].to_ascii_lowercase().contains("accept-language: en"));

    // `[verify]`'s headers go to every host, a pull request's new one
    // too: no credential there.
    let db = database(
        "[verify]\nheaders = { Cookie = \"session=1\" }\n",
        "www.example.org",
        "",
    );
    let run = verify(db.path(), &["--allow-private", "--map", &explicit], &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("verify.headers.Cookie: a credential belongs to one host"),
        "{}",
        run.stderr
    );
}

/// Item 8 of round 5: the owner allows `TOKEN` for their API host
/// (`URLDB_ALLOW_ENV=TOKEN`), and a pull request's `urldb.toml` adds a
/// section for its own host with `env:TOKEN`. Without `--config-from`, a
/// bare name lets the checkout's file choose the host: the run stops
/// before any request ("name the host"). `TOKEN=HOST` sends it to that
/// host alone (as `verify` requests it, no subdomain); with `--config-from`
/// the base's file, which the pull request cannot change, says the host.
#[test]
fn a_bare_allowed_variable_goes_only_where_the_owner_says() {
    let api = server();
    let attacker = server();
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    support::git(root, &["init", "-q"]);
    let record = "---\n---\n_path: /a\ncontent-type: text/html\n";
    std::fs::write(root.join("api.example.yaml"), record).expect("write");
    std::fs::write(
        root.join("urldb.toml"),
        "[verify.domains.\"api.example\"]\nheaders = { Authorization = \"env:TOKEN\" }\n",
    )
    .expect("write");
    support::git(root, &["add", "-A"]);
    support::git(root, &["commit", "-qm", "base"]);
    // The pull request: a file of its own host, its section reading TOKEN.
    std::fs::write(root.join("attacker.example.yaml"), record).expect("write");
    std::fs::write(
        root.join("urldb.toml"),
        "[verify.domains.\"api.example\"]\nheaders = { Authorization = \"env:TOKEN\" }\n\
         [verify.domains.\"attacker.example\"]\nheaders = { X-Steal = \"env:TOKEN\" }\n",
    )
    .expect("write");
    let maps = [
        format!("api.example=http://127.0.0.1:{}", api.port),
        format!("attacker.example=http://127.0.0.1:{}", attacker.port),
    ];
    let args = [
        "--allow-private",
        "--retries",
        "0",
        "--map",
        &maps[0],
        "--map",
        &maps[1],
    ];
    fn with<'a>(args: &[&'a str], more: &[&'a str]) -> Vec<&'a str> {
        [args, more].concat()
    }

    // A bare name, the checkout's urldb.toml: stopped before any request,
    // on the command line as in URLDB_ALLOW_ENV.
    for (extra, env) in [
        (vec!["--allow-env", "TOKEN"], vec![("TOKEN", SECRET)]),
        (
            vec![],
            vec![("TOKEN", SECRET), ("URLDB_ALLOW_ENV", "TOKEN")],
        ),
    ] {
        let run = verify(root, &with(&args, &extra), &env);
        assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
        assert!(
            // (The first section that reads it: the owner's own.)
            run.stderr
                .contains("name the host: --allow-env TOKEN=api.example"),
            "{}",
            run.stderr
        );
        assert!(!run.stderr.contains(SECRET) && !run.stdout.contains(SECRET));
    }
    assert!(heads(&api).is_empty() && heads(&attacker).is_empty());

    // Bound to the API host (also as `API.Example.`): the pull request's
    // section for its own host is refused, before any request.
    for bound in ["TOKEN=api.example", "TOKEN=API.Example."] {
        let run = verify(
            root,
            &with(&args, &["--allow-env", bound]),
            &[("TOKEN", SECRET)],
        );
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(
            run.stderr.contains(
                "reads the environment variable `TOKEN`, which this run does not allow for \
                 `attacker.example`"
            ),
            "{}",
            run.stderr
        );
    }
    // Nor does a binding reach a subdomain of its host.
    let run = verify(
        root,
        &with(
            &args,
            &[
                "--allow-env",
                "TOKEN=example",
                "--allow-env",
                "TOKEN=api.example",
            ],
        ),
        &[("TOKEN", SECRET)],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(heads(&api).is_empty() && heads(&attacker).is_empty());

    // The owner's configuration (`--config-from` the base): the bare name
    // goes where it says, to the API host alone, and the pull request's
    // host is requested without it.
    let run = verify(
        root,
        &with(&args, &["--config-from", "HEAD", "--allow-env", "TOKEN"]),
        &[("TOKEN", SECRET)],
    );
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let api_heads = heads(&api).join("\n").to_ascii_lowercase();
    assert!(
        api_heads.contains(&format!("authorization: {SECRET}")),
        "{api_heads}"
    );
    let attacker_heads = heads(&attacker);
    assert_eq!(attacker_heads.len(), 1, "{attacker_heads:?}");
    assert!(!attacker_heads[0].contains(SECRET), "{attacker_heads:?}");
}

/// A history line of run `id`, started at `started`, for `url`.
fn history_line(id: &str, started: jiff::Timestamp, url: &str, verdict: &str) -> String {
    let started = format!("{started:.3}");
    serde_json::json!({
        "run": id, "started": started, "url": url, "file": "example.test.yaml",
        "line": 2, "time": started, "status": 200, "verdict": verdict, "reason": null, "ms": 1,
    })
    .to_string()
}

/// Attack 3: a line dated 2099 hid a URL for ever under `--max-age`, and
/// a URL that failed after it passed counted as fresh.
#[test]
fn a_history_from_the_future_or_a_later_failure_hides_nothing() {
    let srv = server();
    let dir = tempfile::tempdir().expect("tempdir");
    let records: String = ["/future", "/failed-since", "/skewed", "/passed"]
        .iter()
        .map(|p| format!("---\n_path: {p}\ncontent-type: text/html\n"))
        .collect();
    std::fs::write(
        dir.path().join("example.test.yaml"),
        format!("---\n{records}"),
    )
    .expect("write");
    let url = |p: &str| format!("http://127.0.0.1:{}{p}", srv.port);
    let now = jiff::Timestamp::now();
    let hours = |h| {
        now.checked_add(jiff::SignedDuration::from_hours(h))
            .expect("time")
    };
    let mins = |m| {
        now.checked_add(jiff::SignedDuration::from_mins(m))
            .expect("time")
    };
    let y2099 = "2099-01-01T00:00:00Z".parse().expect("time");
    let history = dir.path().join("history.jsonl");
    let lines = [
        history_line("r2099", y2099, &url("/future"), "ok"),
        history_line("r-2d", hours(-48), &url("/failed-since"), "ok"),
        history_line("r-1d", hours(-24), &url("/failed-since"), "broken"),
        // Another machine's clock two minutes ahead: within the allowance.
        history_line("r-skewed", mins(2), &url("/skewed"), "ok"),
        history_line("r-2d", hours(-48), &url("/passed"), "ok"),
    ];
    std::fs::write(&history, lines.join("\n") + "\n").expect("write");
    let h = history.to_str().expect("UTF-8 path");
    let map = format!("example.test=http://127.0.0.1:{}", srv.port);
    let args = [
        "--allow-private",
        "--map",
        &map,
        "--history",
        h,
        "--max-age",
        "7d",
    ];
    let run = verify(dir.path(), &args, &[]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let mut requested = srv.requests.lock().expect("lock").clone();
    requested.sort();
    assert_eq!(requested, ["/failed-since", "/future"]);
    assert!(
        run.stderr.contains(
            "history.jsonl: run `r2099` starts at 2099-01-01T00:00:00.000Z, after this \
             run (more than 5 minutes ahead of this machine's clock); its lines skipped"
        ),
        "{}",
        run.stderr
    );
    // The run's lines rewrote the file without the future's.
    let kept = std::fs::read_to_string(&history).expect("read");
    assert!(!kept.contains("r2099"), "{kept}");
    let again = verify(
        dir.path(),
        &[&args[..], &["--format", "json"]].concat(),
        &[],
    );
    assert_eq!(json(&again)["summary"]["fresh"], 4, "{}", again.stderr);
    // Every URL fresh: one note says that none is requested (issue 49),
    // and nothing else is said.
    assert_eq!(
        again.stderr,
        "note: --max-age: all 4 URLs passed within that age; none is requested; nothing to do\n"
    );
}

/// Attack 9, second half: `retries` from `urldb.toml` had no cap, and the
/// wait doubled without limit.
#[test]
fn retries_above_the_cap_are_refused_before_any_request() {
    let srv = server();
    let map = format!("example.test=http://127.0.0.1:{}", srv.port);
    let db = database("[verify]\nretries = 20\n", "example.test", "");
    let run = verify(db.path(), &["--allow-private", "--map", &map], &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    for want in [
        "verify.retries: 20 is too many; urldb tries a URL again at most 10 times",
        "urldb.toml:2:1",
    ] {
        assert!(
            run.stderr.contains(want),
            "missing `{want}` in\n{}",
            run.stderr
        );
    }
    // `check` reads the same file and says the same.
    let check = support::run_in(db.path(), &["check"]);
    assert_eq!(check.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&check.stderr).contains("verify.retries: 20 is too many"));
    let db = database("[verify]\nretries = 10\n", "example.test", "");
    let run = verify(
        db.path(),
        &["--allow-private", "--map", &map, "--retries", "11"],
        &[],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--retries"), "{}", run.stderr);
    assert!(srv.requests.lock().expect("lock").is_empty());
    // The cap itself is allowed.
    let run = verify(db.path(), &["--allow-private", "--map", &map], &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}
