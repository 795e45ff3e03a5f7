//! `check` is the gate for everything later commands rely on: a value that
//! PyYAML cannot load, that `verify` refuses or that `export` cannot write
//! is reported by `check` first, in its own file. Values are generated
//! near the edges of each reader's grammar (YAML 1.1's integers and
//! timestamps, byte counts around 2^64, host names that URL parsers read
//! as IPv4 addresses), then the real PyYAML, `verify` against a server on
//! 127.0.0.1 and `export` judge each file, and `check` must agree.

use crate::support;

use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;

use proptest::prelude::*;
use support::run_in;

/// A plain scalar near YAML 1.1's typed forms.
fn plain() -> impl Strategy<Value = String> {
    let two = |max: u32| (0..=max).prop_map(|n| format!("{n:02}"));
    let date = (
        prop::sample::select(vec!["0000", "1900", "2000", "2001", "2024", "9999"]),
        two(13),
        two(32),
    )
        .prop_map(|(y, m, d)| format!("{y}-{m}-{d}"));
    let time = (
        two(25),
        two(61),
        two(61),
        prop::sample::select(vec!["", ".5", "."]),
    )
        .prop_map(|(h, m, s, f)| format!("{h}:{m}:{s}{f}"));
    let zone = prop_oneof![
        Just(String::new()),
        Just("Z".to_string()),
        (
            prop::sample::select(vec!["+", "-", " +", " -"]),
            0u32..=30,
            0u32..=99
        )
            .prop_map(|(s, h, m)| format!("{s}{h}:{m:02}")),
        (prop::sample::select(vec!["+", "-"]), 0u32..=30).prop_map(|(s, h)| format!("{s}{h}")),
    ];
    let timestamp = (
        date.clone(),
        prop::sample::select(vec!["T", "t", " ", "  "]),
        time,
        zone,
    )
        .prop_map(|(d, sep, t, z)| format!("{d}{sep}{t}{z}"));
    let number = (
        prop::sample::select(vec!["", "-", "+"]),
        prop::sample::select(vec!["0b", "0x", "0", "1", "0o", ""]),
        "[0-9a-f_]{0,3}",
    )
        .prop_map(|(s, p, d)| format!("{s}{p}{d}"));
    let soup = "[0-9_:.=<bxeE+-]{1,6}";
    prop_oneof![
        date,
        timestamp,
        number,
        soup.prop_map(String::from),
        prop::sample::select(vec![
            "=",
            "<<",
            "~",
            "1:60",
            "190:20:30.15",
            ".5",
            "1_.",
            "._"
        ])
        .prop_map(String::from),
    ]
    // What a block mapping's plain value cannot be at all: the YAML error is
    // the yaml-syntax rule's, not this test's subject.
    .prop_filter("a plain value", |v| {
        !v.is_empty() && !v.starts_with(['-', '<', ':', '?']) || v == "<<" || v.starts_with("-0")
    })
}

/// A byte count near the edges of u64 and of YAML's integer forms.
fn length() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u64..=u64::MAX).prop_map(|n| n.to_string()),
        (u64::MAX - 3..=u64::MAX).prop_map(|n| n.to_string()),
        "1844674407370955161[0-9]",
        "[1-9][0-9]{19,21}",
        "0[0-9]{1,3}",
    ]
}

/// A domain file's name near the IPv4 spellings of the WHATWG URL rules.
fn host() -> impl Strategy<Value = String> {
    let part = prop_oneof![
        "[0-9]{1,10}".prop_map(String::from),
        "0x[0-9a-f]{1,8}".prop_map(String::from),
        "0[0-7]{1,4}".prop_map(String::from),
        "[a-z][a-z0-9-]{0,6}".prop_map(String::from),
    ];
    prop::collection::vec(part, 1..5).prop_map(|parts| parts.join("."))
}

const SHA: &str = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/// PyYAML's verdict on each file: whether `yaml.safe_load_all` raises.
fn pyyaml_rejects(files: &[std::path::PathBuf]) -> Vec<bool> {
    let script = "import json, sys, yaml\n\
        out = []\n\
        for p in json.load(sys.stdin):\n\
        \x20   try:\n\
        \x20       list(yaml.safe_load_all(open(p, encoding='utf-8')))\n\
        \x20       out.append(False)\n\
        \x20   except Exception:\n\
        \x20       out.append(True)\n\
        print(json.dumps(out))\n";
    let input = serde_json::to_vec(files).expect("JSON");
    let out = support::run_python(script, &[], &input);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("PyYAML's verdicts")
}

/// The files `check` reports an error in, and those it reports `code` in.
fn check_errors(dir: &Path, code: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    let out = run_in(dir, &["--no-cache", "check", "--format", "json"]);
    let findings: Vec<serde_json::Value> =
        serde_json::from_slice(&out.stdout).expect("check's JSON");
    let mut errors = BTreeSet::new();
    let mut coded = BTreeSet::new();
    for f in findings {
        let file = f["path"].as_str().unwrap_or_default().to_string();
        if f["code"] == code {
            coded.insert(file.clone());
        }
        if f["severity"] == "error" {
            errors.insert(file);
        }
    }
    (errors, coded)
}

proptest! {
    #![proptest_config(crate::support::property_config(12))]

    #[test]
    fn what_later_readers_refuse_check_reports_first(
        values in prop::collection::vec(plain(), 24),
        lengths in prop::collection::vec(length(), 8),
        hosts in prop::collection::btree_set(host(), 8),
    ) {
        let db = tempfile::tempdir().expect("tempdir");
        // A configuration: every `.yaml` file is a domain file, dotless names
        // included (a bare run would leave those out).
        std::fs::write(db.path().join("urldb.toml"), "").expect("write");
        let dir = db.path();
        // PyYAML: one file per value.
        let mut yaml_files = Vec::new();
        for (i, value) in values.iter().enumerate() {
            let name = format!("v{i}.example.org.yaml");
            let text = format!("---\n---\n_path: /a\ncontent-type: text/html\nx: {value}\n");
            std::fs::write(dir.join(&name), text).expect("write");
            yaml_files.push(dir.join(name));
        }
        let rejects = pyyaml_rejects(&yaml_files);
        let (errors, unloadable) = check_errors(dir, "unloadable-value");
        for (i, value) in values.iter().enumerate() {
            let name = format!("v{i}.example.org.yaml");
            if rejects[i] {
                prop_assert!(errors.contains(&name), "PyYAML cannot load `x: {value}`; check is silent");
            } else {
                prop_assert!(!unloadable.contains(&name), "PyYAML loads `x: {value}`; check says it cannot");
            }
        }
        for file in &yaml_files {
            std::fs::remove_file(file).expect("remove");
        }

        // verify and export: byte counts in one domain, host names as files.
        let server = support::http::listen(|mut stream, _| {
            let _ = stream.write_all(
                b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Type: application/octet-stream\r\nContent-Length: 0\r\n\r\n",
            );
        });
        for (i, length) in lengths.iter().enumerate() {
            let text = format!(
                "---\n---\n_path: /c\ncontent-length: {length}\ncontent-sha256: {SHA}\ncontent-type: application/octet-stream\n"
            );
            std::fs::write(dir.join(format!("c{i}.example.org.yaml")), text).expect("write");
        }
        for host in &hosts {
            let text = "---\n---\n_path: /h\ncontent-type: text/html\n";
            std::fs::write(dir.join(format!("{host}.yaml")), text).expect("write");
        }
        let mut args: Vec<String> = ["verify", "--allow-private", "--retries", "0", "--format", "json"]
            .iter().map(|s| s.to_string()).collect();
        for i in 0..lengths.len() {
            args.push("--map".into());
            args.push(format!("c{i}.example.org=http://127.0.0.1:{}", server.port));
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let verify = run_in(dir, &args);
        let report: serde_json::Value = serde_json::from_slice(&verify.stdout).expect("verify's JSON");
        let mut refused: BTreeSet<String> = BTreeSet::new();
        for p in report["problems"].as_array().into_iter().flatten() {
            refused.insert(p["file"].as_str().unwrap_or_default().to_string());
        }
        for r in report["results"].as_array().into_iter().flatten() {
            // Not requested because of the record itself (not a server's answer).
            if r["reason"].as_str().is_some_and(|s| s.starts_with("not checked")) {
                refused.insert(r["file"].as_str().unwrap_or_default().to_string());
            }
        }
        for to in ["json", "uri-catalogue"] {
            let export = run_in(dir, &["export", "--to", to]);
            for line in String::from_utf8_lossy(&export.stderr).lines() {
                if let Some(rest) = line.strip_prefix("error: ") {
                    let file = rest.split(':').next().unwrap_or_default();
                    refused.insert(file.to_string());
                }
            }
        }
        let (errors, _) = check_errors(dir, "");
        for file in &refused {
            prop_assert!(errors.contains(file), "{file} is refused later, check is silent:\n{report}");
        }
    }
}

/// The four values of the report, through the binary: `check` and
/// `fmt --check` fail on each, `fmt` quotes it, and the real PyYAML loads
/// the result as the string that was written.
#[test]
fn values_pyyaml_cannot_load_are_flagged_and_fmt_quotes_them() {
    for value in ["=", "<<", "0b_", "2001-02-30"] {
        let db = tempfile::tempdir().expect("tempdir");
        let file = db.path().join("example.org.yaml");
        let text = format!("---\n---\n_path: /a\ncontent-type: text/html\nx: {value}\n");
        std::fs::write(&file, &text).expect("write");
        assert_pyyaml_rejects(std::slice::from_ref(&file), true);

        let check = run_in(db.path(), &["--no-cache", "check", "--format", "concise"]);
        assert_eq!(check.status.code(), Some(1), "{value}");
        let report = String::from_utf8_lossy(&check.stdout);
        assert!(report.contains("unloadable-value"), "{value}: {report}");
        let fmt_check = run_in(db.path(), &["--no-cache", "fmt", "--check"]);
        assert_eq!(fmt_check.status.code(), Some(1), "{value}");

        let fmt = run_in(db.path(), &["--no-cache", "fmt"]);
        assert_eq!(fmt.status.code(), Some(0), "{value}");
        let written = std::fs::read_to_string(&file).expect("read");
        assert!(written.ends_with(&format!("x: '{value}'\n")), "{written}");
        assert_pyyaml_rejects(std::slice::from_ref(&file), false);
        let again = run_in(db.path(), &["--no-cache", "check"]);
        assert_eq!(again.status.code(), Some(0), "{value}: {written}");
    }
}

fn assert_pyyaml_rejects(files: &[std::path::PathBuf], rejected: bool) {
    assert_eq!(pyyaml_rejects(files), vec![rejected], "{files:?}");
}
