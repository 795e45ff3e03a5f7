//! `urldb add` against a real HTTP server on 127.0.0.1: a page, a redirect,
//! a 404, a slow answer, a missing Content-Type, and a 50 MB static body
//! (streamed: memory stays flat). Records land in the right file (by cname,
//! on a case-insensitive domain), sorted, and the files stay canonical.

use crate::support;

use std::fs;
use std::io::Write;
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use sha2::{Digest, Sha256};

const BIG: usize = 50 * 1024 * 1024;

/// The byte at offset `i` of the big body (not constant, so the digest
/// checks every byte).
fn big_byte(i: usize) -> u8 {
    (i.wrapping_mul(31) ^ (i >> 13)) as u8
}

fn big_digest() -> String {
    let mut hasher = Sha256::new();
    let mut chunk = vec![0u8; 1 << 16];
    let mut at = 0;
    while at < BIG {
        let n = chunk.len().min(BIG - at);
        for (k, b) in chunk[..n].iter_mut().enumerate() {
            *b = big_byte(at + k);
        }
        hasher.update(&chunk[..n]);
        at += n;
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn respond(mut stream: TcpStream, path: &str) {
    let head = |status: &str, headers: &str, len: usize| {
        format!("HTTP/1.1 {status}\r\n{headers}Content-Length: {len}\r\nConnection: close\r\n\r\n")
    };
    let _ = match path {
        "/page" | "/a/b%20c" | "/docs/index.html" => {
            let body = "<html></html>";
            stream.write_all(
                (head(
                    "200 OK",
                    "Content-Type: Text/HTML; charset=utf-8\r\n",
                    body.len(),
                ) + body)
                    .as_bytes(),
            )
        }
        "/moved" => {
            stream.write_all(head("301 Moved Permanently", "Location: /page\r\n", 0).as_bytes())
        }
        // Redirects with a body, as many servers send ("Moved: /page"),
        // which `--static` must not record as the URL's content.
        "/r301" | "/r302" | "/r307" | "/r308" => {
            let status = match path {
                "/r301" => "301 Moved Permanently",
                "/r302" => "302 Found",
                "/r307" => "307 Temporary Redirect",
                _ => "308 Permanent Redirect",
            };
            let body = "Moved: /page";
            stream.write_all(
                (head(
                    status,
                    "Location: /page\r\nContent-Type: text/plain\r\n",
                    body.len(),
                ) + body)
                    .as_bytes(),
            )
        }
        "/no-type" => stream.write_all((head("200 OK", "", 2) + "hi").as_bytes()),
        "/slow" => {
            std::thread::sleep(Duration::from_secs(3));
            stream.write_all(head("200 OK", "Content-Type: text/plain\r\n", 0).as_bytes())
        }
        "/big.bin" => {
            let mut result = stream.write_all(
                head("200 OK", "Content-Type: application/octet-stream\r\n", BIG).as_bytes(),
            );
            let mut chunk = vec![0u8; 1 << 16];
            let mut at = 0;
            while at < BIG && result.is_ok() {
                let n = chunk.len().min(BIG - at);
                for (k, b) in chunk[..n].iter_mut().enumerate() {
                    *b = big_byte(at + k);
                }
                result = stream.write_all(&chunk[..n]);
                at += n;
            }
            result
        }
        _ => stream.write_all(head("404 Not Found", "Content-Type: text/plain\r\n", 0).as_bytes()),
    };
}

/// Start the server; its address (`127.0.0.1:PORT`).
fn server() -> String {
    format!("127.0.0.1:{}", support::http::listen(respond).port)
}

fn database(dir: &Path) {
    fs::write(
        dir.join("example.com.yaml"),
        "---\ncnames:\n- www.example.com\n---\n_path: /a\ncontent-type: text/html\n---\n_path: /z\ncontent-type: text/html\n",
    )
    .expect("write");
    fs::write(
        dir.join("docs.example.org.yaml"),
        "---\ncase-sensitive-paths: false\n---\n_path: /readme\ncontent-type: text/plain\n",
    )
    .expect("write");
}

fn add(dir: &Path, addr: &str, args: &[&str]) -> Output {
    let map1 = format!("example.com={addr}");
    let map2 = format!("docs.example.org={addr}");
    let mut all = vec![
        "add",
        "--allow-private",
        "--map",
        &map1,
        "--map",
        &map2,
        "--timeout",
        "1s",
    ];
    all.extend_from_slice(args);
    support::run_in(dir, &all)
}

fn text(dir: &Path, name: &str) -> String {
    fs::read_to_string(dir.join(name)).expect("read")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn assert_clean(dir: &Path) {
    let fmt = support::run_in(dir, &["fmt", "--check"]);
    assert!(
        fmt.status.success(),
        "fmt --check: {}",
        String::from_utf8_lossy(&fmt.stdout)
    );
    let check = support::run_in(dir, &["check"]);
    assert!(
        check.status.success(),
        "check: {}",
        String::from_utf8_lossy(&check.stdout)
    );
}

#[test]
fn asks_the_server_and_inserts_in_sorted_position() {
    let addr = server();
    let dir = tempfile::tempdir().expect("tempdir");
    database(dir.path());
    // Through the cname, one write for two URLs of the same file.
    let out = add(
        dir.path(),
        &addr,
        &[
            "-c",
            "frontend",
            "http://www.example.com/page#top",
            "http://example.com/moved",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("fragment `#top` removed"),
        "{}",
        stderr(&out)
    );
    let file = text(dir.path(), "example.com.yaml");
    let paths: Vec<&str> = file
        .lines()
        .filter_map(|l| l.strip_prefix("_path: "))
        .collect();
    assert_eq!(paths, ["/a", "/moved", "/page", "/z"]);
    // The media type without parameters, lowercase; the redirect marker.
    assert!(
        file.contains("_path: /page\ncategories:\n- frontend\ncontent-type: text/html\n"),
        "{file}"
    );
    assert!(
        file.contains("_path: /moved\ncategories:\n- frontend\ncontent-type: X-301-Redirect\n"),
        "{file}"
    );
    assert_clean(dir.path());

    // A case-insensitive domain: the path is lowercased, escapes kept.
    let out = add(
        dir.path(),
        &addr,
        &["http://DOCS.example.org/Docs/Index.HTML"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let docs = text(dir.path(), "docs.example.org.yaml");
    assert!(
        docs.contains("_path: /docs/index.html\ncontent-type: text/html\n---\n_path: /readme"),
        "{docs}"
    );
    assert_clean(dir.path());

    // An existing (equivalent) path is left as it is, and said so.
    let before = text(dir.path(), "docs.example.org.yaml");
    let out = add(
        dir.path(),
        &addr,
        &[
            "--content-type",
            "text/html",
            "http://docs.example.org/README",
        ],
    );
    assert!(out.status.success());
    assert!(
        stderr(&out).contains("already in docs.example.org.yaml as `/readme`"),
        "{}",
        stderr(&out)
    );
    assert_eq!(text(dir.path(), "docs.example.org.yaml"), before);
}

#[test]
fn server_errors_are_clear_and_write_nothing() {
    let addr = server();
    let dir = tempfile::tempdir().expect("tempdir");
    database(dir.path());
    let before = text(dir.path(), "example.com.yaml");
    let cases = [
        ("http://example.com/missing", "answers HTTP 404"),
        ("http://example.com/slow", "timed out"),
        (
            "http://example.com/no-type",
            "sends no Content-Type; give one with --content-type",
        ),
    ];
    for (url, message) in cases {
        let out = add(dir.path(), &addr, &[url]);
        assert_eq!(out.status.code(), Some(1), "{url}: {}", stderr(&out));
        assert!(stderr(&out).contains(message), "{url}: {}", stderr(&out));
    }
    // Nothing listens on port 9 of 127.0.0.2.
    let out = support::run_in(
        dir.path(),
        &[
            "add",
            "--allow-private",
            "--map",
            "example.com=127.0.0.1:9",
            "--timeout",
            "2s",
            "http://example.com/x",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("http://127.0.0.1:9/x"),
        "{}",
        stderr(&out)
    );
    assert_eq!(text(dir.path(), "example.com.yaml"), before);
}

/// A redirect is stored as the reference tool stored it, `X-<status>-Redirect`
/// with the status seen, with `--static` too (without a length or digest:
/// `verify` never reads a redirect's body); the records pass `check` and
/// `verify` against the same server.
#[test]
fn redirects_are_stored_as_the_reference_tool_stores_them() {
    let addr = server();
    for static_ in [false, true] {
        let dir = tempfile::tempdir().expect("tempdir");
        database(dir.path());
        let mut args = vec!["-c", "redirects"];
        if static_ {
            args.push("--static");
        }
        let urls = [
            "http://example.com/r301",
            "http://example.com/r302",
            "http://example.com/r307",
            "http://example.com/r308",
        ];
        args.extend(urls);
        let out = add(dir.path(), &addr, &args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "--static {static_}: {}",
            stderr(&out)
        );
        let file = text(dir.path(), "example.com.yaml");
        for status in [301, 302, 307, 308] {
            let record = format!(
                "---\n_path: /r{status}\ncategories:\n- redirects\ncontent-type: X-{status}-Redirect\n---\n"
            );
            assert!(file.contains(&record), "--static {static_}: {file}");
            if static_ {
                assert!(
                    stderr(&out).contains(&format!(
                        "note: http://example.com/r{status}: a redirect ({status} to /page); \
                         recorded without content-length and content-sha256"
                    )),
                    "{}",
                    stderr(&out)
                );
            }
        }
        assert!(!file.contains("content-length"), "{file}");
        assert_clean(dir.path());
        let map = format!("example.com={addr}");
        let verify = support::run_in(
            dir.path(),
            &[
                "verify",
                "--allow-private",
                "--map",
                &map,
                "-c",
                "redirects",
            ],
        );
        assert_eq!(
            verify.status.code(),
            Some(0),
            "{}{}",
            String::from_utf8_lossy(&verify.stdout),
            stderr(&verify)
        );
        assert!(
            String::from_utf8_lossy(&verify.stdout).contains("4 URLs"),
            "{}",
            String::from_utf8_lossy(&verify.stdout)
        );
    }
}

#[test]
fn url_and_host_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    database(dir.path());
    let ct = ["add", "--content-type", "text/html"];
    let run = |url: &str| {
        let mut args = ct.to_vec();
        args.push(url);
        support::run_in(dir.path(), &args)
    };
    for (url, code, message) in [
        ("http://example.com:8080/", 2, "port 8080 cannot be stored"),
        ("http://joe:secret@example.com/", 2, "user name or password"),
        ("ftp://example.com/", 2, "`ftp:` URLs cannot be stored"),
        (
            "http://unknown.example/",
            1,
            "unknown host `unknown.example`",
        ),
        (
            "http://www.docs.example.org/",
            1,
            "`docs.example.org` is in docs.example.org.yaml",
        ),
    ] {
        let out = run(url);
        assert_eq!(out.status.code(), Some(code), "{url}: {}", stderr(&out));
        assert!(stderr(&out).contains(message), "{url}: {}", stderr(&out));
    }
    // A content type that breaks a rule is refused, naming the rule.
    let out = support::run_in(
        dir.path(),
        &["add", "--content-type", "html", "http://example.com/x"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("[invalid-content-type]"),
        "{}",
        stderr(&out)
    );
    // --create-domain makes a new canonical file (https from the URL).
    let out = support::run_in(
        dir.path(),
        &[
            "add",
            "--content-type",
            "text/html",
            "--create-domain",
            "https://New.Example/",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        text(dir.path(), "new.example.yaml"),
        "---\nhttps: true\n---\n_path: /\ncontent-type: text/html\n"
    );
    assert_clean(dir.path());
    // A file with comments is edited, and keeps them with their records.
    fs::write(
        dir.path().join("example.com.yaml"),
        "# header\n---\n# keep me\n---\n_path: /c # trailing\ncontent-type: text/html\n",
    )
    .expect("write");
    let out = run("http://example.com/b");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        text(dir.path(), "example.com.yaml"),
        "# header\n---\n---\n_path: /b\ncontent-type: text/html\n# keep me\n---\n_path: /c # trailing\ncontent-type: text/html\n"
    );
    // A file that cannot be rewritten (an anchor) is not edited.
    let blocked = "---\n---\n_path: /a\ncontent-type: text/html\nnote: &n x\n";
    fs::write(dir.path().join("example.com.yaml"), blocked).expect("write");
    let out = run("http://example.com/b");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("`yaml-alias` finding that blocks rewriting"),
        "{}",
        stderr(&out)
    );
    assert_eq!(text(dir.path(), "example.com.yaml"), blocked);
}

#[test]
fn rm_removes_records() {
    let dir = tempfile::tempdir().expect("tempdir");
    database(dir.path());
    let out = support::run_in(
        dir.path(),
        &[
            "rm",
            "http://www.example.com/z",
            "http://docs.example.org/README",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!text(dir.path(), "example.com.yaml").contains("/z"));
    assert!(!text(dir.path(), "docs.example.org.yaml").contains("/readme"));
    assert_clean(dir.path());
    let out = support::run_in(dir.path(), &["rm", "http://example.com/z"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("no record `/z` in example.com.yaml"),
        "{}",
        stderr(&out)
    );
    let out = support::run_in(dir.path(), &["rm", "http://nowhere.example/z"]);
    assert_eq!(out.status.code(), Some(1));
}

/// `--static` streams a 50 MB body into SHA-256 and length; the peak memory
/// of the process stays far below the body's size.
#[test]
fn static_body_is_streamed_with_flat_memory() {
    let addr = server();
    let dir = tempfile::tempdir().expect("tempdir");
    database(dir.path());
    let map = format!("example.com={addr}");
    let out = Command::new("/usr/bin/time")
        .args(["-f", "peak-rss-kb=%M"])
        .arg(env!("CARGO_BIN_EXE_urldb"))
        .args([
            "add",
            "--allow-private",
            "--map",
            &map,
            "--timeout",
            "20s",
            "--static",
            "http://example.com/big.bin",
        ])
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("run /usr/bin/time");
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    let file = text(dir.path(), "example.com.yaml");
    let expected = format!(
        "_path: /big.bin\ncontent-length: {BIG}\ncontent-sha256: {}\ncontent-type: application/octet-stream\n",
        big_digest()
    );
    assert!(file.contains(&expected), "{file}");
    let peak_kb: u64 = err
        .lines()
        .find_map(|l| l.strip_prefix("peak-rss-kb="))
        .and_then(|v| v.trim().parse().ok())
        .expect("peak RSS from /usr/bin/time");
    // What the binary itself takes (its code and libraries: more in a
    // debug build), measured the same way: the body may add little to it.
    let idle = Command::new("/usr/bin/time")
        .args(["-f", "peak-rss-kb=%M"])
        .arg(env!("CARGO_BIN_EXE_urldb"))
        .arg("rules")
        .stdout(Stdio::null())
        .output()
        .expect("run /usr/bin/time");
    let idle_kb: u64 = stderr(&idle)
        .lines()
        .find_map(|l| l.strip_prefix("peak-rss-kb="))
        .and_then(|v| v.trim().parse().ok())
        .expect("peak RSS from /usr/bin/time");
    eprintln!(
        "peak RSS of `urldb add --static` for a 50 MB body: {peak_kb} KiB ({idle_kb} KiB for `urldb rules`)"
    );
    assert!(
        peak_kb < idle_kb + 16 * 1024,
        "peak RSS {peak_kb} KiB for a 50 MB body ({idle_kb} KiB without one)"
    );
    assert_clean(dir.path());
}

/// A `--timeout` that is not a duration is the same mistake in `add` as
/// in `verify`: the same message, exit 2, before anything is asked.
#[test]
fn a_bad_timeout_is_the_same_usage_error_as_in_verify() {
    let dir = tempfile::tempdir().expect("tempdir");
    database(dir.path());
    let add = support::run_in(
        dir.path(),
        &["add", "--timeout", "soon", "http://example.com/x"],
    );
    let verify = support::run_in(dir.path(), &["verify", "--timeout", "soon"]);
    for out in [&add, &verify] {
        assert_eq!(out.status.code(), Some(2), "{}", stderr(out));
        assert_eq!(
            stderr(out).trim(),
            "error: timeout: `soon` is not a duration (try \"10s\" or \"500ms\")"
        );
    }
}

/// `--timeout 0` is a duration, one that would fail every URL: the
/// message says so rather than "not a duration"; so does a day or more.
#[test]
fn a_timeout_of_zero_says_why_it_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    database(dir.path());
    for (given, why) in [
        ("0", "is no time to wait: a timeout is more than 0"),
        ("0ms", "is no time to wait: a timeout is more than 0"),
        ("2000min", "is too long: a timeout is less than a day"),
        ("soon", "is not a duration"),
    ] {
        for args in [
            &["add", "--timeout", given, "http://example.com/x"][..],
            &["verify", "--timeout", given],
        ] {
            let out = support::run_in(dir.path(), args);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
            assert!(
                stderr(&out).starts_with(&format!("error: timeout: `{given}` {why}")),
                "{args:?}: {}",
                stderr(&out)
            );
        }
    }
}

/// `add` of a URL that is already there with another `--content-type`
/// says the stored type differs (even with `-q`: the database does not
/// hold what was asked), and leaves the record and the file as they are;
/// the same type is the quiet note it was.
#[test]
fn an_existing_url_with_another_type_says_the_stored_type_differs() {
    let dir = tempfile::tempdir().expect("tempdir");
    database(dir.path());
    let before = fs::read_to_string(dir.path().join("example.com.yaml")).expect("read");
    for quiet in [&[][..], &["-q"]] {
        let out = support::run_in(
            dir.path(),
            &[
                quiet,
                &[
                    "add",
                    "--content-type",
                    "text/plain",
                    "http://example.com/a",
                ],
            ]
            .concat(),
        );
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert_eq!(
            stderr(&out),
            "warning: http://example.com/a: already in example.com.yaml as `/a` with \
             content-type `text/html`, not `text/plain`; left as it is (edit the record's \
             `content-type` to change it)\n"
        );
    }
    let same = support::run_in(
        dir.path(),
        &["add", "--content-type", "text/html", "http://example.com/a"],
    );
    assert_eq!(
        stderr(&same),
        "http://example.com/a: already in example.com.yaml as `/a`; left as it is\n"
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("example.com.yaml")).expect("read"),
        before
    );
}
