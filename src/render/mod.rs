//! The canonical text of a domain file: the single place that decides how a
//! file looks. `fmt`, `check --fix` and every `--diff` go through
//! [`render`].
//!
//! The canonical text is what the reference tool wrote — PyYAML's
//! `dump_all(docs, explicit_start=True, sort_keys=True)` — with the
//! deliberate differences documented in `docs/format.md`.

pub mod emitter;
pub mod scalar;

use crate::model::domain::{FieldKind, field_kind};
use crate::model::node::{Document, Node, Scalar, ScalarStyle, Value};
use crate::parse::resolve::Implicit;
use emitter::{Emitter, Item, Text};

/// How an empty metadata document is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EmptyMetadata {
    /// A bare `---` line, as in the format description's minimal example.
    #[default]
    Bare,
    /// `--- {}`, as PyYAML writes an empty mapping.
    Braces,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RenderOptions {
    pub newline: &'static str,
    pub empty_metadata: EmptyMetadata,
    /// Sort records, keys, categories and cnames. Off only to find
    /// differences other than order (the `not-canonical` rule).
    pub sort: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            newline: "\n",
            empty_metadata: EmptyMetadata::Bare,
            sort: true,
        }
    }
}

/// Render the documents of a domain file (metadata first) as canonical text.
pub fn render(documents: &[Document], options: &RenderOptions) -> String {
    let mut out = String::new();
    let mut emitter = Emitter::new(&mut out, options.newline);
    let mut records: Vec<&Document> = documents.iter().skip(1).collect();
    if options.sort {
        records.sort_by(|a, b| record_path(a).cmp(&record_path(b)));
    }
    if let Some(meta) = documents.first() {
        match meta.root.as_ref().filter(|r| !is_empty_metadata(r)) {
            None => match options.empty_metadata {
                EmptyMetadata::Bare => emitter.bare_document(),
                EmptyMetadata::Braces => emitter.document(&Item::Map(Vec::new())),
            },
            Some(root) => emitter.document(&document_item(root, Doc::Metadata, options.sort)),
        }
    }
    for record in records {
        match &record.root {
            Some(root) => emitter.document(&document_item(root, Doc::Record, options.sort)),
            None => emitter.bare_document(),
        }
    }
    out
}

/// `null`, `~`, an empty scalar or `{}`: a metadata document that says nothing.
pub fn is_empty_metadata(root: &Node) -> bool {
    root.is_null() || root.as_map().is_some_and(<[_]>::is_empty)
}

fn record_path(doc: &Document) -> Option<&str> {
    let entries = doc.root.as_ref()?.as_map()?;
    let entry = crate::model::node::get(entries, crate::model::domain::PATH)?;
    Some(entry.value.as_scalar()?.value.as_str())
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Doc {
    Metadata,
    Record,
}

fn document_item<'a>(root: &'a Node, doc: Doc, sort: bool) -> Item<'a> {
    match &root.value {
        Value::Map(entries) => {
            let mut out: Vec<(Text, Item)> = entries
                .iter()
                .map(|e| {
                    let key = e.key.as_scalar().map_or("", |s| s.value.as_str());
                    let kind = match doc {
                        Doc::Metadata => crate::model::domain::metadata_field_kind(key),
                        Doc::Record => field_kind(key),
                    };
                    (Text::Str(key), item(&e.value, kind, sort))
                })
                .collect();
            if sort {
                out.sort_by(|a, b| text_of(a.0).cmp(text_of(b.0)));
            }
            Item::Map(out)
        }
        _ => item(root, FieldKind::Any, sort),
    }
}

fn text_of(t: Text<'_>) -> &str {
    match t {
        Text::Str(s) | Text::Verbatim(s) => s,
    }
}

fn item(node: &Node, kind: FieldKind, sort: bool) -> Item<'_> {
    match &node.value {
        Value::Scalar(s) => Item::Scalar(scalar_text(s, kind)),
        Value::Seq(items) => {
            let item_kind = match kind {
                FieldKind::StringList => FieldKind::String,
                _ => FieldKind::Any,
            };
            let mut out: Vec<Item> = items.iter().map(|n| item(n, item_kind, sort)).collect();
            if sort
                && kind == FieldKind::StringList
                && out.iter().all(|i| matches!(i, Item::Scalar(_)))
            {
                out.sort_by(|a, b| match (a, b) {
                    (Item::Scalar(x), Item::Scalar(y)) => text_of(*x).cmp(text_of(*y)),
                    _ => std::cmp::Ordering::Equal,
                });
            }
            Item::Seq(out)
        }
        Value::Map(entries) => {
            let mut out: Vec<(Text, Item)> = entries
                .iter()
                .map(|e| {
                    let key = e.key.as_scalar().map_or("", |s| s.value.as_str());
                    (Text::Str(key), item(&e.value, FieldKind::Any, sort))
                })
                .collect();
            if sort {
                out.sort_by(|a, b| text_of(a.0).cmp(text_of(b.0)));
            }
            Item::Map(out)
        }
    }
}

/// Strings are written as PyYAML writes strings; other plain scalars (numbers,
/// booleans, dates, null) keep their spelling — `fmt` never changes a value.
fn scalar_text(s: &Scalar, kind: FieldKind) -> Text<'_> {
    if matches!(kind, FieldKind::String) || s.style != ScalarStyle::Plain {
        return Text::Str(&s.value);
    }
    match Implicit::of(&s.value) {
        Implicit::Str => Text::Str(&s.value),
        Implicit::Null if s.value.is_empty() => Text::Verbatim("null"),
        _ => Text::Verbatim(&s.value),
    }
}
