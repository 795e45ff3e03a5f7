//! JSON export: one object per record, with every field and extra.

use std::io::Write;

use serde_json::{Map, Value as Json};

use crate::listing::UrlRecord;
use urldb_core::model::node::{Node, Value};
use urldb_core::model::resolve::Implicit;

/// A YAML value as JSON: plain scalars by their YAML 1.1 type (as the
/// reference tool's PyYAML loaded them), everything quoted as a string.
pub(crate) fn node_to_json(node: &Node) -> Json {
    match &node.value {
        Value::Scalar(s) => match s.implicit() {
            Implicit::Null => Json::Null,
            Implicit::Bool => {
                Json::Bool(urldb_core::model::domain::parse_bool(&s.value).unwrap_or(false))
            }
            Implicit::Int => s
                .value
                .replace('_', "")
                .parse::<i64>()
                .map(Json::from)
                .unwrap_or_else(|_| Json::String(s.value.to_string())),
            Implicit::Float => s
                .value
                .replace('_', "")
                .parse::<f64>()
                .ok()
                .and_then(serde_json::Number::from_f64)
                .map(Json::Number)
                .unwrap_or_else(|| Json::String(s.value.to_string())),
            _ => Json::String(s.value.to_string()),
        },
        Value::Seq(items) => Json::Array(items.iter().map(node_to_json).collect()),
        Value::Map(entries) => Json::Object(
            entries
                .iter()
                .map(|e| {
                    (
                        e.key_str().unwrap_or_default().to_string(),
                        node_to_json(&e.value),
                    )
                })
                .collect(),
        ),
    }
}

/// A record as a JSON object (keys as in the domain file, plus `url` and
/// `domain`; extras under `extras`).
pub(crate) fn record_to_json(record: &UrlRecord) -> Json {
    let mut object = Map::new();
    object.insert("url".into(), record.url.clone().into());
    object.insert("domain".into(), record.domain.clone().into());
    object.insert("_path".into(), record.path.clone().into());
    object.insert("content-type".into(), record.content_type.clone().into());
    object.insert("categories".into(), record.categories.clone().into());
    object.insert("content-length".into(), record.content_length.into());
    object.insert(
        "content-sha256".into(),
        record.content_sha256.clone().into(),
    );
    object.insert(
        "extras".into(),
        Json::Object(
            record
                .extras
                .iter()
                .map(|(k, v)| (k.clone(), node_to_json(v)))
                .collect(),
        ),
    );
    Json::Object(object)
}

/// A JSON array of every record, one object per line.
pub fn write_json(records: &[UrlRecord], out: &mut impl Write) -> std::io::Result<()> {
    out.write_all(b"[")?;
    for (i, record) in records.iter().enumerate() {
        out.write_all(if i == 0 { b"\n  " } else { b",\n  " })?;
        urldb_output::write_json(&mut *out, &record_to_json(record))?;
    }
    out.write_all(if records.is_empty() { b"]\n" } else { b"\n]\n" })
}
