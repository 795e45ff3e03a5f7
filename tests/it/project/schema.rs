//! `schemas/domain-file.schema.json` accepts every document of the example
//! database and rejects broken ones — checked by the real `jsonschema`
//! validator (Python) over documents loaded by PyYAML, as an editor's YAML
//! language server would see them.

use crate::support;

use std::path::Path;
use std::process::Command;

const VALIDATE: &str = r#"
import json, sys, yaml, jsonschema
schema = json.load(open(sys.argv[1]))
validator = jsonschema.Draft202012Validator(schema)
bad = 0
for path in sys.argv[2:]:
    for i, doc in enumerate(yaml.safe_load_all(open(path))):
        errors = list(validator.iter_errors(doc))
        print(f"{path}:{i}:{'ok' if not errors else 'invalid'}")
"#;

fn validate(files: &[&Path]) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(support::python())
        .arg("-c")
        .arg(VALIDATE)
        .arg(root.join("schemas/domain-file.schema.json"))
        .args(files)
        .output()
        .expect("python3 with PyYAML and jsonschema (pip install jsonschema)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn example_database_validates() {
    let db = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/database");
    // Domain files only (a run of urldb leaves its `.urldb_cache` here).
    let mut files: Vec<_> = std::fs::read_dir(&db)
        .expect("ls")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    let refs: Vec<&Path> = files.iter().map(|p| p.as_path()).collect();
    let results = validate(&refs);
    assert!(results.len() > 10, "{results:?}");
    assert!(results.iter().all(|r| r.ends_with(":ok")), "{results:#?}");
}

#[test]
fn broken_documents_are_rejected() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cases = [
        "---\n---\n_path: no-slash\ncontent-type: text/html\n",
        "---\n---\n_path: /a\n",
        "---\n---\n_path: /a\ncontent-type: Text/HTML\n",
        "---\n---\n_path: /a\ncontent-type: text/html\ncontent-length: 5\n",
        "---\n---\n_path: /a\ncontent-type: text/html\ncontent-length: 5\ncontent-sha256: ABC\n",
        "---\n---\n_path: /a b\ncontent-type: text/html\n",
        "---\n---\n_path: /a\ncontent-type: text/html\ncategories: []\n",
        "---\ncnames:\n- WWW.Example.com\n",
        "---\nhttps: maybe\n",
    ];
    let mut files = Vec::new();
    for (i, text) in cases.iter().enumerate() {
        let path = dir.path().join(format!("case{i}.yaml"));
        std::fs::write(&path, text).expect("write");
        files.push(path);
    }
    let refs: Vec<&Path> = files.iter().map(|p| p.as_path()).collect();
    let results = validate(&refs);
    for (i, _) in cases.iter().enumerate() {
        let name = format!("case{i}.yaml");
        let last = results
            .iter()
            .rfind(|r| r.contains(&name))
            .unwrap_or_else(|| panic!("{name} not validated: {results:?}"));
        assert!(
            last.ends_with(":invalid"),
            "{name} ({}) accepted: {results:?}",
            cases[i]
        );
    }
}
