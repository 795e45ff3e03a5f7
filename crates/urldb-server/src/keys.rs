//! What each known key means, for hover and completion: the descriptions
//! of the domain-file JSON schema (`schemas/domain-file.schema.json`), the
//! one place they are written, read from the schema built into the binary.
//! The crate holds its own copy (`domain-file.schema.json` beside its
//! `Cargo.toml`): a published crate holds only its own directory, and
//! `tests/it/project/packaging.rs` keeps the copy equal to the schema.

use std::sync::OnceLock;

use serde_json::Value;

use urldb_core::model::domain;

const SCHEMA: &str = include_str!("../domain-file.schema.json");

fn schema() -> &'static Value {
    static PARSED: OnceLock<Value> = OnceLock::new();
    PARSED.get_or_init(|| serde_json::from_str(SCHEMA).unwrap_or(Value::Null))
}

/// The description of `key` in the metadata (`metadata`) or a record, as
/// Markdown; `None` for a key urldb does not know.
pub(crate) fn describe(key: &str, metadata: bool) -> Option<String> {
    let known: &[&str] = if metadata {
        &domain::METADATA_KEYS
    } else {
        &domain::RECORD_KEYS
    };
    if !known.contains(&key) {
        return None;
    }
    let defs = schema().get("$defs")?;
    let properties = if metadata {
        defs.get("metadata")?
            .get("anyOf")?
            .as_array()?
            .iter()
            .find_map(|alt| alt.get("properties"))?
    } else {
        defs.get("record")?.get("properties")?
    };
    let property = properties.get(key)?;
    let description = property.get("description")?.as_str()?;
    let kind = property
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("value");
    let place = if metadata {
        "domain metadata"
    } else {
        "record"
    };
    Some(format!("**`{key}`** ({place}, {kind})\n\n{description}\n"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_known_key_has_a_description() {
        for key in super::domain::METADATA_KEYS {
            assert!(super::describe(key, true).is_some(), "{key}");
        }
        for key in super::domain::RECORD_KEYS {
            assert!(super::describe(key, false).is_some(), "{key}");
        }
        assert_eq!(super::describe("_path", true), None);
        assert_eq!(super::describe("colour", false), None);
    }
}
