//! The canonical text agrees byte for byte with PyYAML, the reference
//! tool's writer: records full of hard strings are generated here, dumped by
//! the real PyYAML (`yaml.dump_all(docs, explicit_start=True,
//! sort_keys=True, allow_unicode=True, width=<huge>)`), rendered by urldb,
//! and compared. PyYAML's output is then read back by urldb: `fmt` must
//! leave it unchanged and the model must be what was generated.

use crate::support;

use serde_json::{Map, Value as Json, json};
use support::Rng;
use urldb_core::lint::{Options, check_bytes};
use urldb_core::model::node::{Document, Entry, Node, Scalar, Value};
use urldb_core::render::{EmptyMetadata, RenderOptions, render};

/// Every YAML 1.1 implicit type and every quoting trigger PyYAML knows.
/// NEL, LS and PS are left out: urldb deliberately writes them escaped
/// (docs/format.md), see `unicode_line_breaks_are_escaped` below.
pub(crate) const HARD: &[&str] = &[
    "yes",
    "No",
    "ON",
    "off",
    "y",
    "n",
    "true",
    "False",
    "~",
    "null",
    "NULL",
    "Null",
    "nULL",
    "",
    "0x1F",
    "0X1F",
    "0b1010",
    "0o17",
    "017",
    "0128",
    "1_000",
    "12:30",
    "1:60",
    "190:20:30.15",
    "2001-12-14",
    "2001-12-14 21:59:43.10 -5",
    "2001-12-14t21:59:43.10-05:00",
    ".inf",
    "-.Inf",
    "+.INF",
    ".NaN",
    ".nan",
    "1.0",
    "1.",
    ".5",
    "1e5",
    "1.0e+5",
    "-1",
    "+1",
    "0",
    "-0",
    "<<",
    "=",
    "deadbeef",
    "0123456789",
    "12345678901234567890123456789012",
    ": ",
    ":",
    "a:b",
    "a: b",
    " #",
    "#",
    "a#b",
    "a #b",
    " lead",
    "trail ",
    "'",
    "\"",
    "''",
    "\\",
    "\\n",
    "\t",
    "a\tb",
    "é",
    "☃",
    "😀",
    "\u{a0}",
    "\u{feff}",
    "\u{7f}",
    "\u{0}",
    "\u{1b}",
    "\u{7}",
    "\n",
    "\r\n",
    "\r",
    "a\nb",
    "a \nb",
    "a\n b",
    "\n\n",
    "---",
    "...",
    "--- x",
    "- ",
    "-",
    "-x",
    "? ",
    "?",
    "?x",
    "[",
    "]",
    "{",
    "}",
    ",",
    "&a",
    "*a",
    "!t",
    "%",
    "@",
    "`",
    "|",
    ">",
    "a,b",
    "a[b",
    "x?y",
    "/",
    "/a b",
    "/%7e",
    "text/html",
    "text/html; charset=utf-8",
    "X-301-Redirect",
    "\u{fffe}",
    "\u{e000}",
    "\u{10ffff}",
    "\u{d7ff}",
];

pub(crate) const WORDS: &[&str] = &[
    "alpha",
    "beta",
    "/path",
    "index.html",
    "frontend",
    "a",
    "Z",
    "0",
    "9",
    "_",
    "-",
    ".",
];

fn hard_string(rng: &mut Rng) -> String {
    let mut s = String::new();
    for _ in 0..1 + rng.below(3) {
        if rng.chance(60) {
            s.push_str(rng.pick(HARD));
        } else {
            s.push_str(rng.pick(WORDS));
        }
    }
    if rng.chance(3) {
        // Long enough to stop being a simple key (128 characters).
        s.push_str(&"k".repeat(120 + rng.below(20)));
    }
    s
}

fn extra_value(rng: &mut Rng, depth: usize) -> Json {
    match rng.below(if depth > 2 { 5 } else { 8 }) {
        0 => json!(rng.below(100_000)),
        1 => json!(rng.chance(50)),
        2 => Json::Null,
        3 | 4 => json!(hard_string(rng)),
        5 => Json::Array(
            (0..rng.below(4))
                .map(|_| extra_value(rng, depth + 1))
                .collect(),
        ),
        _ => {
            let mut m = Map::new();
            for _ in 0..rng.below(4) {
                m.insert(hard_string(rng), extra_value(rng, depth + 1));
            }
            Json::Object(m)
        }
    }
}

fn record(rng: &mut Rng, i: usize) -> Json {
    let mut m = Map::new();
    m.insert(
        "_path".into(),
        json!(format!("/{i:05}{}", hard_string(rng))),
    );
    m.insert("content-type".into(), json!(hard_string(rng)));
    if rng.chance(50) {
        let mut cats: Vec<String> = (0..1 + rng.below(4)).map(|_| hard_string(rng)).collect();
        cats.sort();
        m.insert("categories".into(), json!(cats));
    }
    if rng.chance(30) {
        m.insert("content-length".into(), json!(rng.below(10_000_000)));
        m.insert(
            "content-sha256".into(),
            json!(format!(
                "{:016x}{:016x}{:016x}{:016x}",
                rng.next(),
                rng.next(),
                rng.next(),
                rng.next()
            )),
        );
    }
    for _ in 0..rng.below(3) {
        m.insert(hard_string(rng), extra_value(rng, 0));
    }
    Json::Object(m)
}

/// JSON → the model a loader would build (strings are strings, whatever
/// their text looks like).
fn node(v: &Json) -> Node {
    let value = match v {
        Json::Null => Value::Scalar(Scalar::plain("null")),
        Json::Bool(b) => Value::Scalar(Scalar::plain(b.to_string())),
        Json::Number(n) => Value::Scalar(Scalar::plain(n.to_string())),
        Json::String(s) => Value::Scalar(Scalar::string(s.clone())),
        Json::Array(items) => Value::Seq(items.iter().map(node).collect()),
        Json::Object(m) => Value::Map(
            m.iter()
                .map(|(k, v)| Entry {
                    key: Node::new(Value::Scalar(Scalar::string(k.clone())), 0..0),
                    value: node(v),
                })
                .collect(),
        ),
    };
    Node::new(value, 0..0)
}

pub(crate) fn documents(files: &Json) -> Vec<Vec<Document>> {
    files
        .as_array()
        .into_iter()
        .flatten()
        .map(|docs| {
            docs.as_array()
                .into_iter()
                .flatten()
                .map(|d| Document {
                    root: Some(node(d)),
                    span: 0..0,
                    explicit_start: true,
                    ..Document::default()
                })
                .collect()
        })
        .collect()
}

const DUMP: &str = r#"
import json, sys, yaml
files = json.load(sys.stdin)
out = []
for docs in files:
    out.append(yaml.dump_all(docs, explicit_start=True, sort_keys=True, allow_unicode=True, width=10**9))
json.dump(out, sys.stdout)
"#;

fn pyyaml_dump(files: &Json) -> Vec<String> {
    let input = serde_json::to_vec(files).expect("json");
    let out = support::run_python(DUMP, &[], &input);
    assert!(
        out.status.success(),
        "PyYAML failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("PyYAML output")
}

#[test]
fn canonical_text_matches_pyyaml_byte_for_byte() {
    let mut rng = Rng::new(20261121);
    const FILES: usize = 100;
    const PER_FILE: usize = 100;
    let mut files = Vec::new();
    for f in 0..FILES {
        let mut docs = vec![if f % 3 == 0 {
            json!({"cnames": ["www.example.com"], "https": true, "x": hard_string(&mut rng)})
        } else {
            json!({})
        }];
        docs.extend((0..PER_FILE).map(|i| record(&mut rng, f * PER_FILE + i)));
        files.push(Json::Array(docs));
    }
    let files = Json::Array(files);
    let expected = pyyaml_dump(&files);
    if let Ok(dir) = std::env::var("URLDB_DUMP_DIR") {
        for (i, t) in expected.iter().enumerate() {
            let _ = std::fs::write(format!("{dir}/{i}.yaml"), t);
        }
    }
    let models = documents(&files);
    let options = RenderOptions {
        empty_metadata: EmptyMetadata::Braces,
        ..RenderOptions::default()
    };
    let mut mismatches = 0;
    for (i, (docs, want)) in models.iter().zip(&expected).enumerate() {
        let got = render(docs, &options);
        if &got != want {
            mismatches += 1;
            let line = got
                .lines()
                .zip(want.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(0);
            eprintln!(
                "file {i}: first difference at line {}:\n  urldb:  {:?}\n  PyYAML: {:?}",
                line + 1,
                got.lines().nth(line),
                want.lines().nth(line)
            );
        }
    }
    assert_eq!(
        mismatches,
        0,
        "{mismatches} of {} files differ from PyYAML",
        models.len()
    );

    // PyYAML's text, read by urldb: canonical as it is, and meaning what
    // was generated.
    let lint = Options::default();
    for (i, (docs, text)) in models.iter().zip(&expected).enumerate() {
        let checked = check_bytes(
            std::path::Path::new("example.com.yaml"),
            text.as_bytes(),
            &lint,
        );
        let parsed = checked
            .documents
            .parsed()
            .unwrap_or_else(|| panic!("file {i} did not parse: {:?}", checked.findings));
        let got = urldb_core::model::normal::normal_form(parsed);
        let want = urldb_core::model::normal::normal_form(docs);
        if got != want {
            let first = |v: &Json, k: &str| v[k].clone();
            let (g, w) = (first(&got, "records"), first(&want, "records"));
            let n = g.as_array().map_or(0, Vec::len);
            let at = (0..n).find(|&r| g[r] != w[r]);
            panic!(
                "file {i}: urldb reads PyYAML's text as something else:\n metadata equal: {}\n first differing record: {at:?}\n  read:      {}\n  generated: {}",
                got["metadata"] == want["metadata"],
                at.map_or(String::new(), |r| g[r].to_string()),
                at.map_or(String::new(), |r| w[r].to_string()),
            );
        }
        assert_eq!(
            checked.canonical.as_deref(),
            Some(text.as_str()),
            "file {i}: fmt would change PyYAML's text"
        );
    }
}

#[test]
fn unicode_line_breaks_are_escaped() {
    // PyYAML writes `'a\u{2029}  b'` (a raw PS, read back differently by
    // YAML 1.2 parsers); urldb writes the escape, which every parser reads
    // as the same string.
    let docs = documents(
        &json!([[{"https": true}, {"_path": "/a", "content-type": "text/html", "n": "a\u{85}b \u{2028}\u{2029}"}]]),
    );
    let text = render(&docs[0], &RenderOptions::default());
    assert!(text.contains("n: \"a\\Nb \\L\\P\"\n"), "{text}");
    let checked = check_bytes(
        std::path::Path::new("example.com.yaml"),
        text.as_bytes(),
        &Options::default(),
    );
    let parsed = checked.documents.into_parsed().expect("parses");
    assert_eq!(
        urldb_core::model::normal::normal_form(&parsed),
        urldb_core::model::normal::normal_form(&docs[0])
    );
}
