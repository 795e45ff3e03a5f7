//! `--format sarif` validated against the SARIF 2.1.0 JSON schema by a real
//! validator (Python `jsonschema`). The schema is the one Microsoft ships
//! in the npm package `@microsoft/jest-sarif` (`sarif-2.1.0-rtm.5.json`,
//! the schema GitHub code scanning validates uploads against); it is
//! fetched with `npm pack` into the target directory, never committed.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use support::run_in;

const PACKAGE: &str = "@microsoft/jest-sarif@1.0.0-beta.0";
const SCHEMA_IN_PACKAGE: &str = "package/lib/schemas/sarif-2.1.0-rtm.5.json";

/// The schema, fetched once under a lock: the tests run in parallel (and
/// nextest runs them in processes of their own), and two `tar` runs
/// unpacking the same file race (`File exists`).
fn schema() -> PathBuf {
    static SCHEMA: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    SCHEMA
        .get_or_init(|| crate::support::oracles::locked("sarif-schema", fetch_schema))
        .clone()
}

fn fetch_schema() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sarif-schema");
    let schema = dir.join(SCHEMA_IN_PACKAGE);
    if schema.is_file() {
        return schema;
    }
    std::fs::create_dir_all(&dir).expect("mkdir");
    let pack = Command::new("npm")
        .current_dir(&dir)
        .args(["pack", "--silent", PACKAGE])
        .stderr(Stdio::inherit())
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "the SARIF test fetches its schema with npm (`npm`: {e}): \
                 install Node.js and npm, e.g. `apt-get install npm`"
            )
        });
    assert!(pack.status.success(), "npm pack {PACKAGE} failed");
    let tarball = String::from_utf8_lossy(&pack.stdout).trim().to_string();
    let untar = Command::new("tar")
        .current_dir(&dir)
        .args(["xzf", &tarball, SCHEMA_IN_PACKAGE])
        .status()
        .expect("tar");
    assert!(untar.success());
    schema
}

/// Validate `log` against the schema; the validator's messages on failure.
fn validate(log: &[u8]) -> Result<(), String> {
    let script = r#"
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
log = json.load(sys.stdin)
validator = jsonschema.Draft4Validator(schema)
errors = sorted(validator.iter_errors(log), key=lambda e: list(e.path))
for e in errors:
    print("/".join(map(str, e.path)), e.message)
sys.exit(1 if errors else 0)
"#;
    let out = crate::support::run_python(script, &[schema().as_os_str()], log);
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stdout).into_owned())
    }
}

#[test]
fn sarif_validates_against_the_schema() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Findings of several rules, with and without fixes, in a path that
    // needs percent-encoding as a URI.
    std::fs::create_dir_all(dir.path().join("my sites")).expect("mkdir");
    std::fs::write(
        dir.path().join("my sites/example.com.yaml"),
        "---\nhttps: yes\n---\ncontent-type: text/html\n_path: /caf%c3%a9\n---\n_path: /x\ncontent-type: text/html\n---\n_path: /x\ncontent-type: text/html\n",
    )
    .expect("write");
    std::fs::write(dir.path().join("bad.org.yaml"), "---\n- [unclosed\n").expect("write");
    let out = run_in(dir.path(), &["check", "--format", "sarif"]);
    assert_eq!(out.status.code(), Some(1));
    validate(&out.stdout).unwrap_or_else(|e| panic!("invalid SARIF:\n{e}"));

    let log: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
    let results = run["results"].as_array().expect("results");
    assert!(results.len() >= 4, "{results:?}");
    for result in results {
        // Every result names a rule the driver describes, at its index.
        let index = result["ruleIndex"].as_u64().expect("ruleIndex") as usize;
        assert_eq!(rules[index]["id"], result["ruleId"]);
        let uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .expect("uri");
        assert!(
            uri == "bad.org.yaml" || uri == "my%20sites/example.com.yaml",
            "{uri}"
        );
    }
    // Rule metadata comes from the rule docs.
    let escape = rules
        .iter()
        .find(|r| r["id"] == "path-escape-case")
        .expect("rule");
    assert!(
        escape["help"]["markdown"]
            .as_str()
            .expect("markdown")
            .contains("## Why it matters")
    );
    assert!(
        !escape["fullDescription"]["text"]
            .as_str()
            .expect("text")
            .is_empty()
    );
}

#[test]
fn sarif_of_a_clean_database_is_valid_and_empty() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("example.com.yaml"),
        "---\n---\n_path: /a\ncontent-type: text/html\n",
    )
    .expect("write");
    let out = run_in(dir.path(), &["check", "--format", "sarif"]);
    assert_eq!(out.status.code(), Some(0));
    validate(&out.stdout).unwrap_or_else(|e| panic!("invalid SARIF:\n{e}"));
    let log: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(log["runs"][0]["results"], serde_json::json!([]));
}

#[test]
fn the_validator_refuses_a_broken_log() {
    // The oracle must be able to say no: a result without a message.
    let broken = br#"{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"urldb"}},"results":[{"ruleId":"x"}]}]}"#;
    assert!(validate(broken).is_err());
}
