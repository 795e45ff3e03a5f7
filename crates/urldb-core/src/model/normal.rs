//! The meaning of a domain file, independent of layout: what
//! "parse(fmt(x)) = parse(x)" compares.
//!
//! Mapping order does not count (YAML mappings are unordered), nor does the
//! order of records, categories and cnames (the format sorts them); string
//! fields count by their text. Plain scalars that YAML 1.1 types as
//! something else keep their type and spelling (`int:0x1F`), because `fmt`
//! never changes a value's spelling; one that PyYAML cannot load (`=`,
//! `2001-02-30`) has no value but its text, and counts as that string
//! (`fmt` quotes it).

use serde_json::{Map, Value as Json};

use crate::model::domain::{FieldKind, field_kind, metadata_field_kind};
use crate::model::node::{Document, Node, Scalar, ScalarStyle, Value};
use crate::model::resolve::Implicit;

/// The normal form of a file's documents.
pub fn normal_form(documents: &[Document]) -> Json {
    let metadata = documents
        .first()
        .and_then(|d| d.root.as_ref())
        .filter(|r| !crate::model::domain::is_empty_metadata(r))
        .map_or(Json::Null, |r| root(r, metadata_field_kind));
    let mut records: Vec<Json> = documents
        .iter()
        .skip(1)
        .map(|d| d.root.as_ref().map_or(Json::Null, |r| root(r, field_kind)))
        .collect();
    records.sort_by_key(|r| r.get("_path").map(ToString::to_string));
    serde_json::json!({ "metadata": metadata, "records": records })
}

fn root(node: &Node, kind_of: fn(&str) -> FieldKind) -> Json {
    match &node.value {
        Value::Map(entries) => {
            let mut map = Map::new();
            for e in entries {
                let key = e
                    .key
                    .as_scalar()
                    .map_or(String::new(), |s| s.value.to_string());
                let kind = kind_of(&key);
                map.insert(key, value(&e.value, kind));
            }
            Json::Object(map)
        }
        _ => value(node, FieldKind::Any),
    }
}

fn value(node: &Node, kind: FieldKind) -> Json {
    match &node.value {
        Value::Scalar(s) => scalar(s, kind),
        Value::Seq(items) => {
            let item_kind = if kind == FieldKind::StringList {
                FieldKind::String
            } else {
                FieldKind::Any
            };
            let mut out: Vec<Json> = items.iter().map(|n| value(n, item_kind)).collect();
            if kind == FieldKind::StringList {
                out.sort_by_key(ToString::to_string);
            }
            Json::Array(out)
        }
        Value::Map(entries) => {
            let mut map = Map::new();
            for e in entries {
                let key = e
                    .key
                    .as_scalar()
                    .map_or(String::new(), |s| s.value.to_string());
                map.insert(key, value(&e.value, FieldKind::Any));
            }
            Json::Object(map)
        }
    }
}

fn scalar(s: &Scalar, kind: FieldKind) -> Json {
    if kind == FieldKind::String
        || s.style != ScalarStyle::Plain
        || crate::model::resolve::unloadable(&s.value).is_some()
    {
        return Json::String(s.value.to_string());
    }
    match Implicit::of(&s.value) {
        Implicit::Str => Json::String(s.value.to_string()),
        Implicit::Null => Json::Null,
        other => Json::String(format!("{}:{}", other.name(), s.value)),
    }
}
