//! Metadata booleans as the reference tool reads them (`docs/format.md`,
//! "Metadata booleans"): it took PyYAML's value with Python's truth, so
//! `https: 1`, `https: x` and `https: 'false'` were https to it, while
//! urldb reads `true`, `false` and their YAML 1.1 spellings and else the
//! default. Where the two differ, `invalid-boolean` is a gate finding:
//! nothing excuses it, and `ls` leaves the file's URLs out rather than
//! print another scheme, and `verify` requests none of them. Where they agree, excusing it is the user's
//! choice, and `ls` prints the scheme both read.

use crate::support::run_in;

fn database(config: &str, metadata: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("urldb.toml"), config).expect("write");
    std::fs::write(
        dir.path().join("example.org.yaml"),
        format!("---\n{metadata}\n---\n_path: /a\ncontent-type: text/html\n"),
    )
    .expect("write");
    dir
}

fn said(out: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Each way of excusing `invalid-boolean`: `[lint] ignore`, a comment in
/// the file, `--ignore`.
const EXCUSES: [(&str, &str, &[&str]); 3] = [
    ("[lint]\nignore = [\"invalid-boolean\"]\n", "", &[]),
    ("", "# urldb: ignore-file[invalid-boolean]\n", &[]),
    ("", "", &["--ignore", "invalid-boolean"]),
];

#[test]
fn a_boolean_the_reference_tool_reads_otherwise_fails_whatever_excuses_it() {
    for metadata in [
        "https: 1",
        "https: x",
        "https: 'false'",
        "https: \"no\"",
        "https: [x]",
        "https: 2001-12-14",
        "https: .nan",
        "case-sensitive-paths: 0",
        "case-sensitive-paths: 0.0",
        "case-sensitive-paths:",
        "case-sensitive-paths: ''",
        "case-sensitive-paths: []",
    ] {
        for (config, comment, flags) in EXCUSES {
            let dir = database(config, &format!("{comment}{metadata}"));
            let mut args = vec!["--no-cache", "check", "--format", "concise"];
            args.extend(flags);
            let out = run_in(dir.path(), &args);
            let what = format!("{metadata:?} {config:?} {comment:?} {flags:?}");
            assert_eq!(out.status.code(), Some(1), "{what}: {}", said(&out));
            assert!(
                said(&out).contains("invalid-boolean")
                    && said(&out).contains("the reference tool reads it as"),
                "{what}: {}",
                said(&out)
            );
        }
        if metadata.starts_with("https") {
            let dir = database("", metadata);
            let out = run_in(dir.path(), &["ls"]);
            assert!(
                !String::from_utf8_lossy(&out.stdout).contains("example.org/a"),
                "{metadata}: {}",
                said(&out)
            );
            assert!(
                said(&out).contains("so the scheme of its URLs is not known"),
                "{metadata}: {}",
                said(&out)
            );
            // `verify` requests none of its URLs, with either scheme.
            let server = crate::support::http::listen(|mut stream, _| {
                use std::io::Write as _;
                let _ = stream.write_all(
                    b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n",
                );
            });
            let map = format!("example.org=http://127.0.0.1:{}", server.port);
            let out = run_in(
                dir.path(),
                &["verify", "--allow-private", "--retries", "0", "--map", &map],
            );
            assert_eq!(out.status.code(), Some(2), "{metadata}: {}", said(&out));
            assert!(
                said(&out).contains("`https` means another scheme to the reference tool"),
                "{metadata}: {}",
                said(&out)
            );
        }
    }
}

#[test]
fn a_boolean_both_read_alike_is_the_users_to_excuse() {
    for (metadata, url) in [
        ("https: yes", "https://example.org/a"),
        ("https: 'yes'", "https://example.org/a"),
        ("https: 0", "http://example.org/a"),
        ("https: ''", "http://example.org/a"),
        ("https:", "http://example.org/a"),
        ("https: 0x0", "http://example.org/a"),
        ("case-sensitive-paths: 1", "http://example.org/a"),
        ("case-sensitive-paths: no", "http://example.org/a"),
    ] {
        let dir = database(
            "[lint]\nignore = [\"invalid-boolean\", \"not-canonical\"]\n",
            metadata,
        );
        let out = run_in(dir.path(), &["--no-cache", "check"]);
        assert_eq!(out.status.code(), Some(0), "{metadata}: {}", said(&out));
        let out = run_in(dir.path(), &["ls"]);
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim(),
            url,
            "{metadata}: {}",
            said(&out)
        );
    }
}
