//! `urldb.toml`: found upward from the current directory, every key has
//! its effect, and every mistake gets a message that says where and what.

use crate::support;

use std::path::Path;

use support::run_in;

fn write(dir: &Path, name: &str, text: &str) {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("mkdir");
    }
    std::fs::write(path, text).expect("write");
}

fn concise(dir: &Path, args: &[&str]) -> (String, Option<i32>, String) {
    let mut all = args.to_vec();
    all.extend(["--format", "concise"]);
    let out = run_in(dir, &all);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const ESCAPE: &str = "---\n---\n_path: /caf%c3%a9\ncontent-type: text/html\n";
const CLEAN: &str = "---\n---\n_path: /\ncontent-type: text/html\n";

#[test]
fn found_upward_and_root_is_relative_to_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        "urldb.toml",
        "root = \"db\"\n[lint]\nignore = [\"path-escape-case\"]\n",
    );
    write(dir.path(), "db/example.com.yaml", ESCAPE);
    write(dir.path(), "db/sub/deeper/.keep", "");
    // From the top, from the database and from deep below it: same config.
    for cwd in [
        dir.path().to_path_buf(),
        dir.path().join("db"),
        dir.path().join("db/sub/deeper"),
    ] {
        let (out, status, err) = concise(&cwd, &["check"]);
        assert_eq!(status, Some(0), "from {}: {out}{err}", cwd.display());
    }
    // Without the config the finding is back.
    let (out, status, _) = concise(&dir.path().join("db"), &["--config", "/dev/null", "check"]);
    assert_eq!(status, Some(1), "{out}");
}

#[test]
fn config_flag_and_db_flag_win() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "urldb.toml", "root = \"missing\"\n");
    write(
        dir.path(),
        "other.toml",
        "[lint]\nselect = [\"unsorted-records\"]\n",
    );
    write(dir.path(), "db/example.com.yaml", ESCAPE);
    let (_, status, err) = concise(dir.path(), &["check"]);
    assert_eq!(status, Some(2));
    assert!(
        err.contains("urldb.toml:1: root = \"missing\": no such directory"),
        "{err}"
    );
    let (out, status, _) = concise(
        dir.path(),
        &["--config", "other.toml", "--db", "db", "check"],
    );
    assert_eq!(status, Some(0), "{out}");
}

#[test]
fn exclude_skips_files() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "urldb.toml", "exclude = [\"drafts/**\"]\n");
    write(dir.path(), "example.com.yaml", CLEAN);
    write(dir.path(), "drafts/bad.com.yaml", ESCAPE);
    let (out, status, _) = concise(dir.path(), &["check"]);
    assert_eq!(status, Some(0), "{out}");
}

#[test]
fn lint_select_ignore_and_severity() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "example.com.yml", ESCAPE);
    write(
        dir.path(),
        "urldb.toml",
        "[lint]\nseverity = { wrong-extension = \"error\", path-escape-case = \"warning\" }\n",
    );
    let (out, _, _) = concise(dir.path(), &["check"]);
    assert!(out.contains(": error wrong-extension"), "{out}");
    assert!(out.contains(": warning path-escape-case"), "{out}");
    write(
        dir.path(),
        "urldb.toml",
        "[lint]\nselect = [\"wrong-extension\"]\n",
    );
    let (out, _, _) = concise(dir.path(), &["check"]);
    assert!(
        out.contains("wrong-extension") && !out.contains("path-escape-case"),
        "{out}"
    );
    // The command line adds to the configuration.
    let (out, status, _) = concise(dir.path(), &["check", "--ignore", "wrong-extension"]);
    assert_eq!(status, Some(0), "{out}");
}

#[test]
fn closed_category_vocabulary() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        "urldb.toml",
        "[lint]\ncategories = [\"frontend\", \"coreapp\"]\n",
    );
    write(
        dir.path(),
        "example.com.yaml",
        "---\n---\n_path: /\ncategories:\n- frontnd\ncontent-type: text/html\n",
    );
    let (out, status, _) = concise(dir.path(), &["check"]);
    assert_eq!(status, Some(1));
    assert!(out.contains("unknown-category"), "{out}");
}

#[test]
fn max_file_size() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "urldb.toml", "max-file-size = \"10 B\"\n");
    write(dir.path(), "example.com.yaml", CLEAN);
    let (out, status, _) = concise(dir.path(), &["check"]);
    assert_eq!(status, Some(1));
    assert!(out.contains("file-too-large"), "{out}");
}

/// `max-file-size` is capped at 1 GiB, as `retries` at 10: a pull
/// request's `urldb.toml` cannot make every run read files of any size
/// (`docs/security.md` §8). More is an error with its line, in every
/// command that reads the file; the cap itself is accepted.
#[test]
fn max_file_size_over_a_gib_is_an_error_with_its_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "example.com.yaml", CLEAN);
    for size in ["1025 MiB", "2 GiB", "1073741825", "18446744073709551615"] {
        write(
            dir.path(),
            "urldb.toml",
            &format!("style = \"urldb\"\nmax-file-size = \"{size}\"\n"),
        );
        for args in [&["check"][..], &["fmt", "--check"], &["ls"]] {
            let out = run_in(dir.path(), args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{size} {args:?}: {stderr}");
            for want in [
                format!("max-file-size: `{size}` is too large; urldb reads files of at most 1 GiB"),
                "urldb.toml:2:1".to_string(),
            ] {
                assert!(
                    stderr.contains(&want),
                    "{size} {args:?}: no `{want}` in {stderr}"
                );
            }
        }
    }
    for size in ["1 GiB", "1073741824", "1024 MiB"] {
        write(
            dir.path(),
            "urldb.toml",
            &format!("max-file-size = \"{size}\"\n"),
        );
        let out = run_in(dir.path(), &["check"]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{size}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn line_ending_and_empty_metadata_shape_what_fmt_writes() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        "urldb.toml",
        "line-ending = \"crlf\"\nempty-metadata = \"braces\"\n",
    );
    write(
        dir.path(),
        "example.com.yaml",
        "---\nnull\n---\ncontent-type: text/html\n_path: /\n",
    );
    let out = run_in(dir.path(), &["fmt"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("example.com.yaml")).expect("read"),
        "--- {}\r\n---\r\n_path: /\r\ncontent-type: text/html\r\n"
    );
}

#[test]
fn mistakes_are_explained_where_they_are() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "example.com.yaml", CLEAN);
    let cases: &[(&str, &[&str])] = &[
        (
            "[lint]\nselct = [\"ALL\"]\n",
            &[
                "unknown key `selct` in [lint]",
                "did you mean `select`?",
                "urldb.toml:2:1",
            ],
        ),
        (
            "roots = \"db\"\n",
            &["unknown key `roots`", "did you mean `root`?"],
        ),
        (
            "line-ending = \"mac\"\n",
            &[
                "line-ending: unknown value `mac`",
                "`auto`, `lf`, `crlf`, `native`",
            ],
        ),
        (
            "max-file-size = \"lots\"\n",
            &["`lots` is not a size", "urldb.toml:1:1"],
        ),
        (
            "[lint]\nignore = [\"yaml-coment\"]\n",
            &[
                "unknown rule code `yaml-coment`",
                "did you mean `yaml-comment`?",
                "urldb.toml:2:11",
            ],
        ),
        ("exclude = [\"[\"]\n", &["invalid glob"]),
        (
            "empty-metadata = \"none\"\n",
            &[
                "empty-metadata: unknown value `none`",
                "expected `bare` or `braces`",
                "urldb.toml:1",
            ],
        ),
        (
            "style = \"pyaml\"\n",
            &[
                "style: unknown value `pyaml`",
                "expected `readable` or `pyyaml`",
                "did you mean `pyyaml`?",
                "urldb.toml:1:9",
            ],
        ),
        (
            "[lint]\nseverity = { yaml-comment = \"fatal\" }\n",
            &[
                "lint.severity.yaml-comment: unknown value `fatal`",
                "urldb.toml:2",
            ],
        ),
        (
            "[lint]\ncategories = \"frontend\"\n",
            &[
                "lint.categories: expected an array, found the string \"frontend\"",
                "urldb.toml:2",
            ],
        ),
        (
            "[verify]\nconcurency = 4\n",
            &[
                "unknown key `concurency` in [verify]",
                "did you mean `concurrency`?",
            ],
        ),
        (
            "[verify]\ntimeout = \"forever\"\n",
            &[
                "verify.timeout: `forever` is not a duration",
                "urldb.toml:2:1",
            ],
        ),
        (
            "[verify]\nconcurrency = 0\n",
            &["verify.concurrency must be at least 1", "urldb.toml:2:1"],
        ),
        ("root = \n", &["urldb.toml:1"]),
        // In the file's words: a range, not `usize`; a table, not a map.
        (
            "[verify]\nconcurrency = -3\n",
            &[
                "verify.concurrency: expected an integer from 1 to 256, found -3",
                "urldb.toml:2:15",
            ],
        ),
        (
            "[verify]\nretries = \"two\"\n",
            &["verify.retries: expected an integer from 0 up, found the string \"two\""],
        ),
        (
            "[[lint]]\nselect = [\"ALL\"]\n",
            &[
                "lint: `[[lint]]` is an array of tables; write `[lint]`, one table",
                "urldb.toml:1:1",
            ],
        ),
        (
            "root = 3\n",
            &[
                "root: expected a string (a path), found 3",
                "urldb.toml:1:8",
            ],
        ),
    ];
    for (toml, wants) in cases {
        write(dir.path(), "urldb.toml", toml);
        let out = run_in(dir.path(), &["check"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{toml}: {err}");
        for want in *wants {
            assert!(err.contains(want), "{toml}: missing `{want}` in\n{err}");
        }
        // serde's and Rust's words are not the user's.
        for jargon in [
            "usize", "u32", "sequence", " map", "struct ", "variant", "field",
        ] {
            assert!(!err.contains(jargon), "{toml}: `{jargon}` in\n{err}");
        }
    }
}

/// One run says every mistake of the file that the parser lets it read,
/// each with its line, in the order of the file; a syntax error stops the
/// reading (what follows it cannot be trusted).
#[test]
fn every_mistake_in_the_file_is_said_at_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "example.com.yaml", CLEAN);
    write(
        dir.path(),
        "urldb.toml",
        "style = \"pyaml\"\nmax-file-size = \"lots\"\n[lint]\nselct = [\"ALL\"]\n\
         ignore = [\"yaml-coment\"]\n[verify]\nconcurrency = -3\nretries = \"two\"\n",
    );
    let out = run_in(dir.path(), &["check"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    let wants = [
        "urldb.toml:1:9",
        "urldb.toml:2:1",
        "urldb.toml:4:1",
        "urldb.toml:5:11",
        "urldb.toml:7:15",
        "urldb.toml:8:11",
    ];
    let mut at = 0;
    for want in wants {
        let found = err[at..].find(want);
        assert!(found.is_some(), "missing `{want}` (in order) in\n{err}");
        at += found.unwrap_or(0) + want.len();
    }
    assert_eq!(err.matches("  × ").count(), wants.len(), "{err}");

    // Two syntax errors are both said; nothing after them is judged.
    write(dir.path(), "urldb.toml", "root = \n[lint\nselct = 1\n");
    let out = run_in(dir.path(), &["check"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    let first = err.find("urldb.toml:1:");
    let second = err.find("urldb.toml:2:");
    assert!(first.is_some() && first < second, "{err}");
    assert!(!err.contains("unknown key"), "{err}");
}

/// The database directory a message names says who named it: `root` in
/// `urldb.toml` (file and line), or `--db`; a file is "not a directory".
#[test]
fn a_missing_database_directory_says_who_named_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "example.com.yaml", CLEAN);
    write(
        dir.path(),
        "urldb.toml",
        "# the database\nroot = \"nonexist\"\n",
    );
    let out = run_in(dir.path(), &["check"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("urldb.toml:2: root = \"nonexist\": no such directory"),
        "{err}"
    );
    write(dir.path(), "urldb.toml", "root = \"example.com.yaml\"\n");
    let err = String::from_utf8_lossy(&run_in(dir.path(), &["check"]).stderr).into_owned();
    assert!(
        err.contains("urldb.toml:1: root = \"example.com.yaml\": not a directory"),
        "{err}"
    );
    std::fs::remove_file(dir.path().join("urldb.toml")).expect("rm");
    let out = run_in(dir.path(), &["--db", "example.com.yaml", "check"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--db `example.com.yaml` is not a directory")
            && !err.contains("does not exist"),
        "{err}"
    );
}

/// A directory named `urldb.toml` where the configuration is looked for is
/// an error, not passed over: the user meant a configuration there.
#[test]
fn a_directory_named_urldb_toml_is_an_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "db/example.com.yaml", CLEAN);
    std::fs::create_dir(dir.path().join("urldb.toml")).expect("mkdir");
    let out = run_in(&dir.path().join("db"), &["check"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("urldb.toml is a directory; urldb's configuration is a file"),
        "{err}"
    );
}

/// A `urldb.toml` written to fool its reader: every mistake of a file of
/// thousands is not printed (the first 20, then a count), and the keys,
/// values and lines a report quotes show their control characters
/// escaped, as any human output of urldb (`docs/security.md`).
#[test]
fn a_hostile_configuration_neither_floods_nor_forges_the_log() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "example.com.yaml", CLEAN);
    // A raw ESC is a syntax error; the line shown escapes it.
    write(dir.path(), "urldb.toml", "root = \"\u{1b}]0;owned\u{7}\"\n");
    let out = run_in(dir.path(), &["check"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(!err.chars().any(|c| c.is_control() && c != '\n'), "{err}");
    assert!(err.contains("root = \"\\x1b]0;owned\\x07\""), "{err}");
    // Thousands of unknown keys holding ESC (a TOML escape): 20 said.
    let mut toml = String::from("[lint]\n");
    for i in 0..3000 {
        toml.push_str(&format!("\"k{i}\\u001b[31m\" = 1\n"));
    }
    write(dir.path(), "urldb.toml", &toml);
    let out = run_in(dir.path(), &["check"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        !err.chars().any(|c| c.is_control() && c != '\n'),
        "a raw control character in\n{err}"
    );
    assert!(err.contains("unknown key `k0\\x1b[31m` in [lint]"), "{err}");
    assert_eq!(err.matches("  × ").count(), 20, "{err}");
    assert!(err.contains("and 2980 more problems in this file"), "{err}");
    assert!(err.len() < 20_000, "{} bytes", err.len());
}
