//! No output line of any command, in any format, is a CI runner command
//! that the database wrote. Arbitrary file names, keys and values, built
//! from the pieces of both command forms and every white space character
//! the runner trims, go through every command that prints them; each line
//! of stdout and stderr is read by the runner's own rules
//! ([`support::runner`], written independently of urldb's gate).

use crate::support;

use std::io::Write;
use std::path::Path;

use proptest::prelude::*;
use support::run_in;

/// Pieces of command forms, the white space .NET's `TrimStart()` removes,
/// the runner's own escape characters and line breaks.
const PIECES: &[&str] = &[
    "::",
    ":",
    "##[",
    "##vso[",
    "#",
    "[",
    "]",
    "error",
    "warning ",
    "stop-commands",
    "add-mask",
    "x",
    " ",
    "\t",
    "\u{a0}",
    "\u{1680}",
    "\u{2000}",
    "\u{2007}",
    "\u{200a}",
    "\u{202f}",
    "\u{205f}",
    "\u{3000}",
    "\u{85}",
    "\u{2028}",
    "\n",
    "\r",
    "%",
    ",",
    "=",
    "é",
    "-",
    ".",
];

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 1..7).prop_map(|p| p.concat())
}

/// A double-quoted YAML scalar holding exactly `s` (JSON's escapes are
/// YAML's).
fn quoted(s: &str) -> String {
    serde_json::to_string(s).expect("a string")
}

/// The commands that print names, keys and values, each with its
/// arguments; verify's are run against `server`.
fn commands(port: u16) -> Vec<Vec<String>> {
    let map = format!("example.org=http://127.0.0.1:{port}");
    let mut all: Vec<Vec<String>> = Vec::new();
    for format in ["full", "concise", "json", "github", "junit", "sarif"] {
        all.push(vec![
            "--no-cache".into(),
            "check".into(),
            "--format".into(),
            format.into(),
        ]);
    }
    for args in [
        &["--no-cache", "check", "--statistics", "--format", "concise"][..],
        &["--no-cache", "check", "--diff"],
        &["--no-cache", "fmt", "--check"],
        &["--no-cache", "fmt", "--check", "--format", "github"],
        &["--no-cache", "fmt", "--diff"],
        &["ls"],
        &["ls", "--format", "json"],
        &["ls", "--format", "csv"],
        &["export", "--to", "urls"],
        &["export", "--to", "json"],
        &["export", "--to", "csv"],
        &["export", "--to", "uri-catalogue"],
    ] {
        all.push(args.iter().map(|a| a.to_string()).collect());
    }
    for format in ["human", "github", "markdown", "json", "junit", "html"] {
        all.push(
            [
                "verify",
                "--allow-private",
                "--retries",
                "0",
                "--map",
                &map,
                "--format",
                format,
            ]
            .iter()
            .map(|a| a.to_string())
            .collect(),
        );
    }
    all
}

/// A database with `name` as a file name and `key` and `value` in records
/// of it and of `example.org.yaml`, the domain verify fetches.
fn database(dir: &Path, name: &str, key: &str, value: &str) {
    let record = format!(
        "---\n_path: {}\ncontent-type: text/html\ncategories: [{}]\n{}: {}\n",
        quoted(&format!("/{value}")),
        quoted(value),
        quoted(key),
        quoted(value),
    );
    let file = format!("---\n{}: {}\n{record}", quoted(key), quoted(value));
    std::fs::write(dir.join("example.org.yaml"), &file).expect("write");
    let hostile = dir.join(format!("{name}.yaml"));
    if let Ok(mut f) = std::fs::File::create(&hostile) {
        f.write_all(file.as_bytes()).expect("write");
    }
}

/// Every runner command in `output` that urldb did not mean: under
/// `--format github`, urldb's own lines are commands, and each starts at
/// the left margin with the name and properties it writes.
fn forged(output: &str, github: bool) -> Vec<&str> {
    support::runner::commands(output)
        .into_iter()
        .filter(|line| {
            !(github && (line.starts_with("::error file=") || line.starts_with("::warning file=")))
        })
        .collect()
}

/// Run every command of [`commands`] in `dir`: everything they printed, or
/// the first line a runner reads as a command that urldb did not mean.
fn run_every_command(dir: &Path, port: u16) -> Result<String, String> {
    let mut seen = String::new();
    for args in commands(port) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run_in(dir, &args);
        let github = args.contains(&"github");
        for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
            let output = String::from_utf8_lossy(bytes);
            let forged = forged(&output, github && stream == "stdout");
            if !forged.is_empty() {
                return Err(format!(
                    "urldb {args:?}, {stream}: the runner reads {forged:?}\n{output}"
                ));
            }
            seen.push_str(&output);
        }
    }
    Ok(seen)
}

proptest! {
    #![proptest_config(crate::support::property_config(16))]

    #[test]
    fn no_output_line_is_a_command_the_data_wrote(
        name in text().prop_filter("a file name", |n| !n.contains('/') && n != "." && n != ".."),
        key in text(),
        value in text(),
    ) {
        let server = support::http::listen(|mut stream, _| {
            let _ = stream.write_all(
                b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Type: text/html\r\nContent-Length: 2\r\n\r\nok",
            );
        });
        let db = tempfile::tempdir().expect("tempdir");
        // A configuration: every `.yaml` file is a domain file, dotless names
        // included (a bare run would leave those out).
        std::fs::write(db.path().join("urldb.toml"), "").expect("write");
        database(db.path(), &name, &key, &value);
        if let Err(forged) = run_every_command(db.path(), server.port) {
            prop_assert!(false, "{forged}\nname {name:?} key {key:?} value {value:?}");
        }
    }
}

/// The two forms an attacker used, named as they were: a file named
/// `##[error]X.invalid.yaml`, a `_path` and a metadata key holding
/// `##[warning]…`, and a file name starting with U+00A0 then `::error::`.
/// Each reaches the output (so the test sees it) and none is a command.
#[test]
fn the_older_form_and_unicode_white_space_forge_nothing() {
    let server = support::http::listen(|mut stream, _| {
        let _ = stream
            .write_all(b"HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
    });
    let db = tempfile::tempdir().expect("tempdir");
    // Configured: every `*.yaml` is a domain file, whatever its name (a
    // bare run leaves out names that are no domain names).
    std::fs::write(db.path().join("urldb.toml"), "").expect("write");
    let text =
        "---\n\"##[warning]key\": 1\n---\n_path: \"/##[warning]p\"\ncontent-type: text/html\n";
    for name in [
        "##[error]X.invalid.yaml",
        "\u{a0}::error::forged.yaml",
        "\u{3000}::warning::forged.yaml",
        "example.org.yaml",
    ] {
        std::fs::write(db.path().join(name), text).expect("write");
    }
    let seen = match run_every_command(db.path(), server.port) {
        Ok(seen) => seen,
        Err(forged) => panic!("{forged}"),
    };
    // The data was printed, in each stream's own escape.
    for shown in [
        "##\\x5berror]X.invalid.yaml",
        "\u{a0}\\x3a:error::forged.yaml",
        "##\\x5bwarning]key",
        "##\\u005bwarning]p",
        // The URL list leaves the record out (its `#` starts a fragment:
        // no URL of its own), and the warning quotes its `_path`.
        "`/##\\x5bwarning]p` would not be on",
        "##&#91;warning]p",
    ] {
        assert!(seen.contains(shown), "{shown:?} not in the output");
    }
}

/// A stranger's file name passed on the command line (`urldb check
/// $(git diff --name-only …)`) that clap refuses is quoted in its usage
/// error: that message goes through the gate too, with its control
/// characters escaped, and is still the usage error (exit 2).
#[test]
fn a_refused_argument_forges_nothing_in_the_usage_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    for name in [
        "--##[error]x.org.yaml",
        "--x\n::error file=a.yaml::forged.org.yaml",
        "--a\u{1b}[31mb.org.yaml",
    ] {
        let out = run_in(dir.path(), &["check", name]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("unexpected argument"), "{stderr}");
        assert_eq!(support::runner::commands(&stderr), Vec::<&str>::new());
        assert!(!stderr.contains('\u{1b}'), "{stderr:?}");
    }
    // Help still goes to stdout, whole, and exits 0.
    let out = run_in(dir.path(), &["check", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("Usage: urldb check"));
}
