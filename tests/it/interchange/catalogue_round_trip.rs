//! The URI-Catalogue exchange is valid both ways: for any database that
//! `urldb check` passes, `export --to uri-catalogue` then `import` keeps
//! every record, with every value export did not say it left out. The
//! databases carry hostile optional values: ratings out of range, zero and
//! duplicate IDs, bad language tags and dates, non-ASCII and control
//! characters, categories with commas, keys no field name can hold.

use std::collections::BTreeMap;

use proptest::prelude::*;
use urldb_core::lint::{Options, check_bytes};
use urldb_core::model::node::{Document, Entry, Node, Scalar, Value};
use urldb_core::render::{RenderOptions, render};

use crate::support::run_in;

fn node(scalar: Scalar) -> Node {
    Node::new(Value::Scalar(scalar), 0..0)
}

/// A value for an optional key: text the format may or may not hold, or a
/// plain scalar (a number, a boolean).
fn value() -> impl Strategy<Value = Scalar> {
    prop_oneof![
        prop::sample::select(vec![
            "Home",
            "en-gb",
            "not a tag!",
            "31/10/2007 19:03:34",
            "2007-10-31",
            "30/02/2003 04:05:06",
            "caf\u{e9}",
            "a\u{1b}b",
            "a, b",
            "text/html",
            "0",
            "007",
            " lead",
            "X-301-Redirect",
        ])
        .prop_map(Scalar::string),
        prop::sample::select(vec![
            "0", "1", "3", "5", "6", "9", "7", "007", "true", "1.5"
        ])
        .prop_map(Scalar::plain),
    ]
}

fn key() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "rating",
        "id",
        "language",
        "date",
        "name",
        "description",
        "owner",
        "X-Mirror",
        "X-URLDB-PLAIN-n",
        "bad key",
    ])
}

/// One record's documents root: `_path` `/p<i>`, a content type, maybe
/// categories and a digest, and hostile extras.
fn record(i: usize) -> impl Strategy<Value = Node> {
    (
        prop::sample::select(vec![
            "text/html",
            "text/html; charset=utf-8",
            "X-301-Redirect",
            "application/pdf",
        ]),
        prop::collection::btree_set(
            prop::sample::select(vec!["docs", "coreapp", "a,b", "caf\u{e9}"]),
            0..3,
        ),
        any::<bool>(),
        prop::collection::btree_map(key(), value(), 0..5),
    )
        .prop_map(move |(ctype, categories, digest, extras)| {
            let mut entries: BTreeMap<String, Node> = BTreeMap::new();
            entries.insert("_path".into(), node(Scalar::string(format!("/p{i}"))));
            entries.insert("content-type".into(), node(Scalar::string(ctype)));
            if !categories.is_empty() {
                let items = categories.into_iter().map(|c| node(Scalar::string(c)));
                entries.insert(
                    "categories".into(),
                    Node::new(Value::Seq(items.collect()), 0..0),
                );
            }
            if digest {
                entries.insert("content-length".into(), node(Scalar::plain("1406")));
                entries.insert(
                    "content-sha256".into(),
                    node(Scalar::string("ab".repeat(32))),
                );
            }
            for (k, v) in extras {
                entries.insert(k.to_string(), node(v));
            }
            let entries = entries
                .into_iter()
                .map(|(k, value)| Entry {
                    key: node(Scalar::string(k)),
                    value,
                })
                .collect();
            Node::new(Value::Map(entries), 0..0)
        })
}

fn database() -> impl Strategy<Value = Vec<Document>> {
    (1usize..6)
        .prop_flat_map(|n| (0..n).map(record).collect::<Vec<_>>())
        .prop_map(|records| {
            std::iter::once(None)
                .chain(records.into_iter().map(Some))
                .map(|root| Document {
                    root,
                    span: 0..0,
                    explicit_start: true,
                    ..Document::default()
                })
                .collect()
        })
}

/// The records of `dir` as `export --to json` gives them, by URL.
fn records(dir: &std::path::Path) -> BTreeMap<String, serde_json::Value> {
    let out = run_in(dir, &["export", "--to", "json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    json.as_array()
        .expect("array")
        .iter()
        .map(|r| (r["url"].as_str().expect("url").to_string(), r.clone()))
        .collect()
}

proptest! {
    #![proptest_config(crate::support::property_config(32))]

    #[test]
    fn export_then_import_keeps_every_record(com in database(), org in database()) {
        // Two domain files: IDs are unique across the whole catalogue.
        let source = tempfile::tempdir().expect("tempdir");
        for (name, docs) in [("example.com.yaml", com), ("example.org.yaml", org)] {
            let path = std::path::Path::new(name);
            let text = render(&docs, &RenderOptions::default());
            let checked = check_bytes(path, text.as_bytes(), &Options::default());
            let text = checked.canonical.clone().unwrap_or(text);
            let checked = check_bytes(path, text.as_bytes(), &Options::default());
            let codes: Vec<&str> = checked.findings.iter().map(|f| f.rule.code).collect();
            // Only databases `check` passes.
            prop_assume!(codes.is_empty(), "{:?}", codes);
            std::fs::write(source.path().join(name), &text).expect("write");
        }
        let exported = run_in(source.path(), &["export", "--to", "uri-catalogue"]);
        let warnings = String::from_utf8_lossy(&exported.stderr).into_owned();
        prop_assert_eq!(exported.status.code(), Some(0), "{}", warnings);
        let target = tempfile::tempdir().expect("tempdir");
        std::fs::write(target.path().join("in.catalogue"), &exported.stdout).expect("write");
        let imported = run_in(
            target.path(),
            &["import", "--from", "uri-catalogue", "--create-domain", "in.catalogue"],
        );
        let err = String::from_utf8_lossy(&imported.stderr).into_owned();
        let catalogue = String::from_utf8_lossy(&exported.stdout).into_owned();
        // Whatever export writes, import takes without a word.
        prop_assert_eq!(imported.status.code(), Some(0), "{}\n{}", err, catalogue);
        prop_assert!(!err.contains("warning:") && !err.contains("error:"), "{}\n{}", err, catalogue);

        let before = records(source.path());
        let after = records(target.path());
        prop_assert_eq!(
            after.keys().collect::<Vec<_>>(),
            before.keys().collect::<Vec<_>>(),
            "every record comes back\n{}", catalogue
        );
        for (url, old) in &before {
            let new = &after[url];
            let path = url;
            let said = |what: &str| warnings.lines().any(|l| l.contains(&format!("{url}: {what}")));
            for field in ["content-type", "content-length", "content-sha256"] {
                prop_assert_eq!(&new[field], &old[field], "{} {}", path, field);
            }
            let kept: Vec<&serde_json::Value> = old["categories"]
                .as_array()
                .expect("categories")
                .iter()
                .filter(|c| !said(&format!("category `{}` left out", c.as_str().unwrap_or_default())))
                .collect();
            let new_categories: Vec<&serde_json::Value> =
                new["categories"].as_array().expect("categories").iter().collect();
            prop_assert_eq!(new_categories, kept, "{} categories", path);
            for (key, value) in old["extras"].as_object().expect("extras") {
                if said(&format!("extra `{key}` left out")) {
                    prop_assert!(new["extras"].get(key).is_none(), "{} {}", path, key);
                } else {
                    prop_assert_eq!(&new["extras"][key], value, "{} {}\n{}", path, key, catalogue);
                }
            }
        }
    }
}
