//! The typed view of a domain file: metadata, records and their fields,
//! over the spanned YAML tree.

use crate::model::node::{Document, Entry, Node, get};

pub const PATH: &str = "_path";
pub const CONTENT_TYPE: &str = "content-type";
pub const CATEGORIES: &str = "categories";
pub const CONTENT_LENGTH: &str = "content-length";
pub const CONTENT_SHA256: &str = "content-sha256";
pub const RECORD_KEYS: [&str; 5] = [
    PATH,
    CATEGORIES,
    CONTENT_LENGTH,
    CONTENT_SHA256,
    CONTENT_TYPE,
];

pub const CASE_SENSITIVE_PATHS: &str = "case-sensitive-paths";
pub const CNAMES: &str = "cnames";
pub const HTTPS: &str = "https";
pub const METADATA_KEYS: [&str; 3] = [CASE_SENSITIVE_PATHS, CNAMES, HTTPS];

/// Categories that mean something to `verify`.
pub const DEPRECATED: &str = "deprecated";
pub const REDIRECT_OK: &str = "redirect-ok";
pub const CONTENT_TYPE_CHANGE_OK: &str = "content-type-change-ok";
/// A record `verify` never requests (`docs/format.md`).
pub const SKIP_VERIFY: &str = "skip-verify";
/// Every category that means something to `verify`.
pub const VERIFY_CATEGORIES: [&str; 4] =
    [DEPRECATED, REDIRECT_OK, CONTENT_TYPE_CHANGE_OK, SKIP_VERIFY];

/// A digest as `content-sha256` writes it: lowercase hex.
pub fn hex_digest(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::with_capacity(64), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// How a field's scalars are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldKind {
    /// Read by its text, whatever YAML 1.1 would make of it.
    String,
    /// A list of strings.
    StringList,
    /// Any YAML value, typed as YAML types it.
    Any,
}

pub fn field_kind(key: &str) -> FieldKind {
    match key {
        PATH | CONTENT_TYPE | CONTENT_SHA256 => FieldKind::String,
        CATEGORIES => FieldKind::StringList,
        _ => FieldKind::Any,
    }
}

pub fn metadata_field_kind(key: &str) -> FieldKind {
    match key {
        CNAMES => FieldKind::StringList,
        _ => FieldKind::Any,
    }
}

/// A record document that is a mapping.
#[derive(Debug, Clone, Copy)]
pub struct Record<'a> {
    /// Index of the document in the file (the metadata is 0).
    pub doc: usize,
    pub node: &'a Node,
    pub entries: &'a [Entry],
}

impl<'a> Record<'a> {
    pub fn get(&self, key: &str) -> Option<&'a Entry> {
        get(self.entries, key)
    }

    /// The `_path` text, when it is a scalar.
    pub fn path(&self) -> Option<&'a str> {
        self.path_field().map(|(_, path)| path)
    }

    /// The `_path` entry (for spans and edits) and its text, when it is a
    /// scalar.
    pub fn path_field(&self) -> Option<(&'a Entry, &'a str)> {
        let entry = self.get(PATH)?;
        Some((entry, entry.value.as_scalar()?.value.as_str()))
    }

    /// The categories that are scalars.
    pub fn categories(&self) -> impl Iterator<Item = &'a str> {
        self.get(CATEGORIES)
            .and_then(|e| e.value.as_seq())
            .unwrap_or(&[])
            .iter()
            .filter_map(|n| n.as_scalar().map(|s| s.value.as_str()))
    }
}

/// Each record with a scalar `_path`: the record, its `_path` entry (for
/// spans and edits) and the path's text. The opening of every `_path` rule.
pub fn paths(documents: &[Document]) -> impl Iterator<Item = (Record<'_>, &Entry, &str)> {
    records(documents).filter_map(|record| {
        let (entry, path) = record.path_field()?;
        Some((record, entry, path))
    })
}

/// Records of a file: every document after the first that is a mapping.
pub fn records(documents: &[Document]) -> impl Iterator<Item = Record<'_>> {
    documents.iter().enumerate().skip(1).filter_map(|(doc, d)| {
        let node = d.root.as_ref()?;
        Some(Record {
            doc,
            node,
            entries: node.as_map()?,
        })
    })
}

/// The metadata mapping's entries (empty when there is none).
pub fn metadata(documents: &[Document]) -> &[Entry] {
    documents
        .first()
        .and_then(|d| d.root.as_ref())
        .and_then(Node::as_map)
        .unwrap_or(&[])
}

/// A metadata boolean as the file means it: `true`/`false`, or a YAML 1.1
/// spelling (which the `invalid-boolean` rule reports).
pub(crate) fn metadata_bool(documents: &[Document], key: &str) -> Option<bool> {
    let s = get(metadata(documents), key)?.value.as_scalar()?;
    parse_bool(&s.value)
}

pub fn parse_bool(text: &str) -> Option<bool> {
    match text {
        "true" | "True" | "TRUE" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" => Some(true),
        "false" | "False" | "FALSE" | "no" | "No" | "NO" | "off" | "Off" | "OFF" => Some(false),
        _ => None,
    }
}

/// The metadata boolean `key`, whose default is `default`, when the
/// reference tool reads it otherwise than urldb does: what urldb reads
/// (`None` when they agree). The reference tool took PyYAML's value with
/// Python's truthiness (`docs/format.md`, "Metadata booleans"): `1`, `x`,
/// `'false'` and `[x]` are true to it, `0` and `0.0` false, where urldb
/// reads `true`, `false` and their YAML 1.1 spellings and else the default.
/// A key with no value (`null`) may be the default or false to it: when
/// those differ (`case-sensitive-paths`), that is otherwise too.
pub fn bool_read_otherwise(documents: &[Document], key: &str, default: bool) -> Option<bool> {
    let entry = get(metadata(documents), key)?;
    let ours = metadata_bool(documents, key).unwrap_or(default);
    let agrees = match truthiness(&entry.value) {
        Some(theirs) => theirs == ours,
        None => !ours && !default,
    };
    (!agrees).then_some(ours)
}

/// Python's `bool()` of what PyYAML's safe loader builds from `node`;
/// `None` for null. A value the loader cannot build (`=`, `<<`) is true
/// here: `unloadable-value` refuses it anyway.
fn truthiness(node: &Node) -> Option<bool> {
    use crate::model::node::{ScalarStyle, Value};
    use crate::model::resolve::Implicit;
    let scalar = match &node.value {
        Value::Seq(items) => return Some(!items.is_empty()),
        Value::Map(entries) => return Some(!entries.is_empty()),
        Value::Scalar(s) => s,
    };
    let text = scalar.value.as_str();
    if scalar.style != ScalarStyle::Plain {
        return Some(!text.is_empty());
    }
    // All that is left once `_`, a sign, a base's prefix and the marks of
    // a float or a sexagesimal number are taken out is zeros.
    let zero = |digits: &str| {
        digits
            .chars()
            .all(|c| matches!(c, '0' | '_' | '.' | ':' | '-' | '+'))
    };
    Some(match Implicit::of(text) {
        Implicit::Null => return None,
        Implicit::Bool => parse_bool(text).unwrap_or(true),
        Implicit::Int => {
            let digits = text.trim_start_matches(['-', '+']);
            let digits = digits
                .strip_prefix("0b")
                .or_else(|| digits.strip_prefix("0x"))
                .unwrap_or(digits);
            !zero(digits)
        }
        Implicit::Float => {
            let lower = text.to_ascii_lowercase();
            let mantissa = lower.split('e').next().unwrap_or_default();
            lower.contains("inf") || lower.contains("nan") || !zero(mantissa)
        }
        Implicit::Str => !text.is_empty(),
        Implicit::Timestamp | Implicit::Merge | Implicit::Value => true,
    })
}

/// `case-sensitive-paths` (default `true`).
pub fn case_sensitive_paths(documents: &[Document]) -> bool {
    metadata_bool(documents, CASE_SENSITIVE_PATHS).unwrap_or(true)
}

/// `https` (default `false`).
pub fn https(documents: &[Document]) -> bool {
    metadata_bool(documents, HTTPS).unwrap_or(false)
}

/// The cnames that are scalars, in file order.
pub fn cnames(documents: &[Document]) -> Vec<&str> {
    get(metadata(documents), CNAMES)
        .and_then(|e| e.value.as_seq())
        .unwrap_or(&[])
        .iter()
        .filter_map(|n| n.as_scalar().map(|s| s.value.as_str()))
        .collect()
}

/// `null`, `~`, an empty scalar or `{}`: a metadata document that says nothing.
pub(crate) fn is_empty_metadata(root: &crate::model::node::Node) -> bool {
    root.is_null() || root.as_map().is_some_and(<[_]>::is_empty)
}

/// The length a `content-length` value states, read as every reader of
/// the database reads it (`invalid-content-length`, `verify`, `ls`,
/// `export`): a plain decimal integer, no sign, no leading zero (but `0`
/// itself), at most `u64::MAX` (18446744073709551615). Anything else is
/// no length any file can have.
pub fn content_length(text: &str) -> Option<u64> {
    if text.is_empty() || (text.len() > 1 && text.starts_with('0')) {
        return None;
    }
    // Read here rather than by `str::parse`, which also takes a `+`: asked
    // of every length of a database.
    text.bytes().try_fold(0u64, |number, b| {
        let digit = b.wrapping_sub(b'0');
        if digit > 9 {
            return None;
        }
        number.checked_mul(10)?.checked_add(u64::from(digit))
    })
}

#[cfg(test)]
mod tests {
    use super::content_length;

    /// A length is a plain decimal that fits in 64 bits, as Rust's own
    /// reading of an unsigned integer takes it, less its `+` and leading
    /// zeros.
    #[test]
    fn a_length_is_a_plain_decimal_that_fits() {
        let max = u64::MAX.to_string();
        let over = "18446744073709551616";
        let mut texts: Vec<String> = [
            "",
            "0",
            "00",
            "01",
            "1",
            "10",
            "+1",
            "-1",
            " 1",
            "1 ",
            "1_000",
            "1e3",
            "0x10",
            "٣",
            over,
            &max,
            "99999999999999999999",
        ]
        .iter()
        .map(ToString::to_string)
        .collect();
        texts.extend((0..2000u64).map(|n| (n * 7_919_191).to_string()));
        for text in &texts {
            let expected = (!text.starts_with(['+', '0']) || text == "0")
                .then(|| text.parse::<u64>().ok())
                .flatten();
            assert_eq!(content_length(text), expected, "{text:?}");
        }
        assert_eq!(content_length(&max), Some(u64::MAX));
        assert_eq!(content_length(over), None);
    }
}
