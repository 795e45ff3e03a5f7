//! The path equivalence (`docs/urls.md`, "Path equivalence") through every
//! user, on the one table of cases `tests/data/path-equivalence.tsv`: the
//! function itself, `ls --match` (both ways), the `equivalent-paths` rule,
//! `rm` (A typed, B in the file), robots.txt matching, and url-normalize
//! wherever it makes A and B one URL.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::support;
use urldb_core::model::path::equivalence_key;
use urldb_core::url::matches;
use urldb_verify::RobotsRules;

struct Case {
    a: String,
    b: String,
    same: bool,
}

fn table() -> Vec<Case> {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/path-equivalence.tsv"),
    )
    .expect("read the table");
    let cases: Vec<Case> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 4, "four fields: {l:?}");
            assert!(matches!(f[2], "same" | "distinct"), "{l:?}");
            Case {
                a: f[0].to_string(),
                b: f[1].to_string(),
                same: f[2] == "same",
            }
        })
        .collect();
    assert!(cases.iter().filter(|c| c.same).count() >= 10);
    assert!(cases.iter().filter(|c| !c.same).count() >= 5);
    cases
}

/// A YAML double-quoted scalar of `text` (the table holds no `"` or `\`).
fn quoted(text: &str) -> String {
    assert!(!text.contains(['"', '\\']));
    format!("\"{}\"", text.replace('\0', "\\0"))
}

/// A database whose `example.com.yaml` holds records of `paths`.
fn database(paths: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut text = String::from("---\n");
    for p in paths {
        text.push_str(&format!(
            "---\n_path: {}\ncontent-type: text/html\n",
            quoted(p)
        ));
    }
    std::fs::write(dir.path().join("example.com.yaml"), text).expect("write");
    dir
}

#[test]
fn the_function_and_robots_matching() {
    for c in table() {
        let (a, b) = (c.a.as_str(), c.b.as_str());
        assert_eq!(
            equivalence_key(a, true) == equivalence_key(b, true),
            c.same,
            "key: {a} / {b}"
        );
        assert_eq!(matches(a, b) && matches(b, a), c.same, "matches: {a} / {b}");
        assert_eq!(matches(a, b) || matches(b, a), c.same, "prefix: {a} / {b}");
        for (pattern, path) in [(a, b), (b, a)] {
            let robots = RobotsRules::parse(&format!("User-agent: *\nDisallow: {pattern}\n"));
            assert_eq!(!robots.allowed(path), c.same, "robots: {pattern} / {path}");
        }
    }
}

#[test]
fn ls_match() {
    for c in table() {
        for (pattern, path) in [(&c.a, &c.b), (&c.b, &c.a)] {
            let dir = database(&[path]);
            let out = support::run_in(dir.path(), &["ls", "--match", pattern]);
            let stderr = String::from_utf8_lossy(&out.stderr);
            let listed = String::from_utf8_lossy(&out.stdout).lines().count();
            // A record `verify` does not request (a space, a non-ASCII
            // character in its `_path`) is never listed: said, exit 1.
            if stderr.contains("so `verify` does not request it") {
                assert_eq!(out.status.code(), Some(1), "{stderr}");
                assert_eq!(listed, 0, "--match {pattern} on {path}");
                continue;
            }
            // A pattern that matches no record is an error (issue 49).
            assert_eq!(out.status.success(), c.same, "{stderr}");
            assert_eq!(listed, usize::from(c.same), "--match {pattern} on {path}");
        }
    }
}

#[test]
fn equivalent_paths_rule() {
    for c in table() {
        let dir = database(&[&c.a, &c.b]);
        let out = support::run_in(
            dir.path(),
            &["check", "--select", "equivalent-paths", "--format", "json"],
        );
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let all = json.as_array().expect("array");
        let found = all
            .iter()
            .filter(|f| f["code"] == "equivalent-paths")
            .count();
        assert_eq!(found, usize::from(c.same), "{} / {}: {json}", c.a, c.b);
        // Besides, only gate findings (a path verify does not request),
        // which `--select` does not turn off (docs/suppressions.md).
        for f in all.iter().filter(|f| f["code"] != "equivalent-paths") {
            let code = f["code"].as_str().unwrap_or_default();
            assert!(
                urldb_core::rules::gate_findings::always(code) && f["severity"] == "error",
                "{} / {}: {f}",
                c.a,
                c.b
            );
        }
        assert_eq!(out.status.code(), Some(i32::from(!all.is_empty())));
    }
}

#[test]
fn rm_lookup() {
    for c in table() {
        let dir = database(&[&c.b]);
        let url = format!("http://example.com{}", c.a);
        let out = support::run_in(dir.path(), &["rm", &url]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let left = std::fs::read_to_string(dir.path().join("example.com.yaml")).expect("read");
        if c.same {
            assert_eq!(out.status.code(), Some(0), "rm {url} on {}: {stderr}", c.b);
            assert!(!left.contains("_path"), "rm {url} left {left}");
        } else {
            assert_eq!(out.status.code(), Some(1), "rm {url} on {}: {stderr}", c.b);
            assert!(stderr.contains("no record"), "{stderr}");
            assert!(left.contains("_path"));
        }
    }
}

/// Where url-normalize 3.1.0 turns A and B into one URL, they are one URL
/// to urldb too (urldb also decodes the reserved characters it keeps, as
/// the robots.txt draft does; `docs/urls.md`).
#[test]
fn agrees_with_url_normalize_where_it_joins() {
    const ORACLE: &str = r#"
import json, sys
from url_normalize import url_normalize
for line in sys.stdin:
    a, b = json.loads(line)
    one = url_normalize("http://example.com" + a) == url_normalize("http://example.com" + b)
    print(json.dumps(one))
"#;
    let cases = table();
    let mut child = Command::new(support::oracles::python())
        .args(["-c", ORACLE])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run the venv's python");
    let mut input = String::new();
    for c in &cases {
        input.push_str(&serde_json::to_string(&[&c.a, &c.b]).expect("json"));
        input.push('\n');
    }
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("python output");
    writer.join().expect("writer").expect("write to python");
    assert!(output.status.success(), "url-normalize failed");
    let joined: Vec<bool> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| l == "true")
        .collect();
    assert_eq!(joined.len(), cases.len());
    for (c, joined) in cases.iter().zip(&joined) {
        if *joined {
            assert!(c.same, "url-normalize makes {} and {} one URL", c.a, c.b);
        }
    }
    // url-normalize has an opinion on most of the table.
    assert!(joined.iter().filter(|j| **j).count() >= 8, "{joined:?}");
}

/// `add` of a path equivalent to a record's is what `add` of the record's
/// own path is: the file is left as it is, with the same note; a distinct
/// path is added.
#[test]
fn add_lookup() {
    for c in table() {
        let dir = database(&[&c.b]);
        let before = std::fs::read_to_string(dir.path().join("example.com.yaml")).expect("read");
        let url = format!("http://example.com{}", c.a);
        let out = support::run_in(dir.path(), &["add", "--content-type", "text/html", &url]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let after = std::fs::read_to_string(dir.path().join("example.com.yaml")).expect("read");
        if c.same {
            assert_eq!(out.status.code(), Some(0), "add {url} on {}: {stderr}", c.b);
            assert!(
                stderr.contains("already in example.com.yaml as"),
                "{stderr}"
            );
            assert_eq!(after, before, "add {url} on {}", c.b);
        } else {
            assert_ne!(after, before, "add {url} on {}: {stderr}", c.b);
            assert_eq!(after.matches("_path").count(), 2, "{after}");
        }
    }
}
