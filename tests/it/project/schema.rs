//! The schemas: `schemas/urldb.toml.schema.json` agrees with urldb on
//! configurations (last test); `schemas/domain-file.schema.json` accepts every document of the example
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

/// `schemas/urldb.toml.schema.json` and urldb agree on which `urldb.toml`
/// files are valid: the `jsonschema` validator over Python's `tomllib`,
/// against `urldb check` reading the same file (exit 2 for a bad one).
#[test]
fn urldb_toml_schema_agrees_with_urldb() {
    const VALIDATE_TOML: &str = r#"
import json, sys, tomllib, jsonschema
validator = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
for path in sys.argv[2:]:
    errors = list(validator.iter_errors(tomllib.load(open(path, "rb"))))
    print("ok" if not errors else "invalid")
"#;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/verify-exceptions.md")).expect("read");
    let documented = doc
        .split_once("<!-- example: urldb.toml -->\n```toml\n")
        .and_then(|(_, rest)| rest.split_once("```"))
        .expect("the documented example")
        .0
        .to_string();
    let cases: Vec<(String, bool)> = [
        (documented.as_str(), true),
        ("", true),
        ("style = \"pyyaml\"\n[lint]\nignore = [\"path-case\"]\nseverity = { path-case = \"warning\" }\n[verify]\nconcurrency = 4\ntimeout = \"10s\"\n", true),
        ("[verify]\naccept = [403, \"500-599\", \" 429 \"]\nskip = [\"/a\", \"HTTPS://b.test/x\"]\nheaders = { X-A = \"b c\" }\n", true),
        ("[verify.domains.\"a.test\"]\nskip = [\"/x\"]\nheaders = { Authorization = \"env:TOKEN_1\" }\nuser-agent = \"bot/1\"\n", true),
        ("[lint.per-file-ignores]\n\"legacy/*.yaml\" = [\"path-case\", \"unknown-category\"]\n", true),
        ("[lint.per-file-ignores]\n\"legacy/*.yaml\" = \"path-case\"\n", false),
        ("[verify]\naccept = [600]\n", false),
        ("[verify]\naccept = [\"5xx\"]\n", false),
        ("[verify]\nskip = [\"private\"]\n", false),
        ("[verify]\nheaders = { Authorization = \"env:TOKEN\" }\n", false),
        ("[verify]\nheaders = { Host = \"evil.test\" }\n", false),
        ("[verify]\nheaders = { user-agent = \"x\" }\n", false),
        ("[verify]\nheaders = { X-A = \" padded\" }\n", false),
        ("[verify]\nuser-agent = \"env:UA\"\n", false),
        ("[verify]\nexclude = [\"/x\"]\n", false),
        ("[verify.domains.\"a.test\"]\nskip = [\"https://a.test/x\"]\n", false),
        ("[verify.domains.\"a.test\"]\nheaders = { A = \"env:1X\" }\n", false),
        ("[verify.domains.\"a.test\"]\nretries = 1\n", false),
        ("[verify.domains.\"a.test\"]\ninterval = \"1.5s\"\n", true),
        ("[verify.domains.\"a.test\"]\ninterval = \"250ms\"\n", true),
        ("[verify.domains.\"a.test\"]\ninterval = \"soon\"\n", false),
        ("[verify]\ninterval = \"2s\"\n", false),
        ("[verify.map]\n\"a.test\" = \"http://127.0.0.1:8080\"\n\"b.test\" = \"127.0.0.2\"\n", true),
        ("[verify.map]\n\"a.test\" = \"HTTPS://[::1]:8443/\"\n", true),
        ("[verify.map]\n\"a.test\" = \"ftp://127.0.0.1\"\n", false),
        ("[verify.map]\n\"a.test\" = \"127.0.0.1/x\"\n", false),
        ("[verify.map]\n\"a.test\" = 8080\n", false),
        ("[verify.map]\n\".\" = \"127.0.0.1\"\n", false),
        ("[verify]\nmap = [\"a.test=127.0.0.1\"]\n", false),
    ]
    .into_iter()
    .map(|(t, v)| (t.to_string(), v))
    .collect();
    let dir = tempfile::tempdir().expect("tempdir");
    let mut files = Vec::new();
    for (i, (text, _)) in cases.iter().enumerate() {
        let case = dir.path().join(format!("case{i}"));
        std::fs::create_dir(&case).expect("mkdir");
        std::fs::write(case.join("urldb.toml"), text).expect("write");
        std::fs::write(
            case.join("a.test.yaml"),
            "---\n---\n_path: /\ncontent-type: text/html\n",
        )
        .expect("write");
        files.push(case.join("urldb.toml"));
    }
    let out = Command::new(support::python())
        .arg("-c")
        .arg(VALIDATE_TOML)
        .arg(root.join("schemas/urldb.toml.schema.json"))
        .args(&files)
        .output()
        .expect("python3 with jsonschema");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let schema: Vec<bool> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l == "ok")
        .collect();
    for (i, (text, valid)) in cases.iter().enumerate() {
        let urldb = support::run_in(&dir.path().join(format!("case{i}")), &["check"]);
        let urldb_valid = urldb.status.code() != Some(2);
        assert_eq!(
            (schema[i], urldb_valid),
            (*valid, *valid),
            "case {i} (schema, urldb):\n{text}\n{}",
            String::from_utf8_lossy(&urldb.stderr)
        );
    }
}
