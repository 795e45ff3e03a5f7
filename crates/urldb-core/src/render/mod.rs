//! The canonical text of a domain file: the single place that decides how a
//! file looks. `fmt`, `check --fix` and every `--diff` go through
//! [`render`].
//!
//! The canonical text is what the reference tool wrote — PyYAML's
//! `dump_all(docs, explicit_start=True, sort_keys=True)` — in one of two
//! styles ([`TextStyle`], `docs/format.md`): `pyyaml`, byte for byte, or
//! `readable`, with the deliberate differences documented there.

pub(crate) mod emitter;
pub(crate) mod scalar;

use crate::model::domain::is_empty_metadata;
use crate::model::domain::{FieldKind, field_kind};
use crate::model::node::{Comment, Comments};
use crate::model::node::{Document, Node, Scalar, ScalarStyle, Value};
use crate::model::resolve::Implicit;
use emitter::{Emitter, Item, Notes, Text};
use scalar::Style;

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

/// How strings are written: the `style` key of `urldb.toml`
/// (`docs/format.md`, "Two styles").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TextStyle {
    /// UTF-8 as it is, one line per value: PyYAML with `allow_unicode=True`
    /// and an unbounded width (NEL, LS and PS escaped).
    #[default]
    Readable,
    /// Byte for byte PyYAML's defaults (`allow_unicode=False`, `width=80`):
    /// non-ASCII escaped, long values folded at 80 columns.
    Pyyaml,
}

impl TextStyle {
    /// Characters beyond ASCII may be written as they are.
    pub fn allow_unicode(self) -> bool {
        self == TextStyle::Readable
    }

    /// PyYAML's `best_width`: the column past which scalars are folded.
    pub fn width(self) -> Option<usize> {
        match self {
            TextStyle::Readable => None,
            TextStyle::Pyyaml => Some(PYYAML_WIDTH),
        }
    }
}

/// PyYAML's default `width` (its `Emitter.best_width`).
pub(crate) const PYYAML_WIDTH: usize = 80;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RenderOptions {
    pub newline: &'static str,
    pub empty_metadata: EmptyMetadata,
    pub style: TextStyle,
    /// Sort records, keys, categories and cnames. Off only to find
    /// differences other than order (the `not-canonical` rule).
    pub sort: bool,
    /// Write the comments of the model (off for `fmt --drop-comments`).
    pub comments: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            newline: "\n",
            empty_metadata: EmptyMetadata::Bare,
            style: TextStyle::Readable,
            sort: true,
            comments: true,
        }
    }
}

/// Render the documents of a domain file (metadata first) as canonical text.
pub fn render(documents: &[Document], options: &RenderOptions) -> String {
    let mut out = String::new();
    let mut emitter = Emitter::new(&mut out, options.newline, options.style);
    let mut records: Vec<&Document> = documents.iter().skip(1).collect();
    if options.sort {
        records.sort_by(|a, b| record_path(a).cmp(&record_path(b)));
    }
    let build = Build {
        sort: options.sort,
        comments: options.comments,
    };
    if let Some(meta) = documents.first() {
        let notes = build.notes(Some(&meta.comments));
        match meta.root.as_ref().filter(|r| !is_empty_metadata(r)) {
            None => match options.empty_metadata {
                EmptyMetadata::Bare => emitter.bare_document(&notes),
                EmptyMetadata::Braces => emitter.document(&notes, &Item::Map(Vec::new())),
            },
            Some(root) => emitter.document(&notes, &build.document_item(root, Doc::Metadata)),
        }
    }
    for record in records {
        let notes = build.notes(Some(&record.comments));
        match &record.root {
            Some(root) => emitter.document(&notes, &build.document_item(root, Doc::Record)),
            None => emitter.bare_document(&notes),
        }
    }
    if options.comments {
        let footer: Vec<&str> = documents
            .iter()
            .flat_map(|d| d.footer.iter().map(Comment::as_str))
            .collect();
        emitter.comment_lines(&footer);
    }
    out
}

/// Whether [`render`] would give back `text` itself, for documents the
/// fast reader (`crate::parse::fast`) read from `text`, decided without
/// writing anything.
///
/// The fast reader accepts only the layout the emitter writes (`---`
/// lines, `key: scalar` lines, `- item` lines under `key:`, LF breaks), so
/// what is left to decide is what `render` would change: the order of
/// records, keys and string lists, and each scalar's style, decided by the
/// same [`emitter::style`] the emitter writes with. `tests/it/check/fast_path.rs`
/// holds this to `render(...) == text` on generated and mutated files.
pub fn is_canonical(documents: &[Document], options: &RenderOptions) -> bool {
    if options.newline != "\n" || !options.sort {
        return false;
    }
    let Some((meta, records)) = documents.split_first() else {
        return false;
    };
    let meta_ok = match &meta.root {
        // A bare `---`, or `--- {}`: the form the file has is kept.
        None => options.empty_metadata == EmptyMetadata::Bare,
        Some(root) if is_empty_metadata(root) => {
            root.flow && options.empty_metadata == EmptyMetadata::Braces
        }
        Some(root) => mapping_is_canonical(root, Doc::Metadata, options.style),
    };
    meta_ok
        && records
            .windows(2)
            .all(|w| record_path(&w[0]) <= record_path(&w[1]))
        && records.iter().all(|r| match &r.root {
            None => true,
            Some(root) => mapping_is_canonical(root, Doc::Record, options.style),
        })
}

/// A block mapping of `key: scalar` and `key:` + scalar items, as written.
fn mapping_is_canonical(node: &Node, doc: Doc, style: TextStyle) -> bool {
    let Some(entries) = node.as_map() else {
        return false;
    };
    let mut previous: Option<&str> = None;
    for entry in entries {
        let Some(key) = entry.key.as_scalar() else {
            return false;
        };
        if previous.is_some_and(|p| p > key.value.as_str()) {
            return false;
        }
        previous = Some(&key.value);
        let known = key.style == ScalarStyle::Plain && KNOWN_KEYS.contains(&key.value.as_str());
        if !known && !key_written_as(&key.value, key.style, style) {
            return false;
        }
        let kind = doc.field_kind(&key.value);
        let ok = match &entry.value.value {
            Value::Scalar(s) => {
                written_as(&s.value, s.style, scalar_text(s, kind), style)
                    && unfolded(style, written_len(&key.value, key.style) + ": ".len(), s)
            }
            Value::Seq(items) => {
                let item_kind = item_kind(kind);
                let mut previous: Option<&str> = None;
                items.iter().all(|item| {
                    let Some(s) = item.as_scalar() else {
                        return false;
                    };
                    let sorted = kind != FieldKind::StringList
                        || previous.is_none_or(|p| p <= s.value.as_str());
                    previous = Some(&s.value);
                    sorted
                        && written_as(&s.value, s.style, scalar_text(s, item_kind), style)
                        && unfolded(style, "- ".len(), s)
                })
            }
            Value::Map(_) => false,
        };
        if !ok {
            return false;
        }
    }
    true
}

/// The keys of the format: simple keys the emitter writes plain (a unit
/// test asks the emitter), so a plain one needs no second look.
const KNOWN_KEYS: [&str; 8] = [
    crate::model::domain::PATH,
    crate::model::domain::CATEGORIES,
    crate::model::domain::CONTENT_LENGTH,
    crate::model::domain::CONTENT_SHA256,
    crate::model::domain::CONTENT_TYPE,
    crate::model::domain::CASE_SENSITIVE_PATHS,
    crate::model::domain::CNAMES,
    crate::model::domain::HTTPS,
];

/// A value read in `read` style is what the emitter writes for `text`
/// (not as a key): the same style (and, for verbatim text, the same text).
fn written_as(value: &str, read: ScalarStyle, text: Text, style: TextStyle) -> bool {
    if let Text::Verbatim(v) = text
        && v != value
    {
        return false;
    }
    same_style(emitter::style(text, false, false, style), read)
}

/// [`written_as`] of a value holding no byte [`read_whole`] is true of.
fn written_as_quiet(value: &str, read: ScalarStyle, text: Text, style: TextStyle) -> bool {
    match text {
        Text::Verbatim(v) => v == value && same_style(Style::Plain, read),
        Text::Str(s) => same_style(emitter::block_style_of_quiet(s, style), read),
    }
}

pub(crate) use scalar::read_whole;

/// A key other than the format's, read in `read` style, is what the
/// emitter writes for it.
fn key_written_as(key: &str, read: ScalarStyle, style: TextStyle) -> bool {
    let text = Text::Str(key);
    emitter::is_simple_key(text) && same_style(emitter::style(text, true, false, style), read)
}

fn same_style(written: Style, read: ScalarStyle) -> bool {
    matches!(
        (written, read),
        (Style::Plain, ScalarStyle::Plain) | (Style::Single, ScalarStyle::SingleQuoted)
    )
}

/// A plain or single-quoted scalar written after `before` columns stays on
/// one line: PyYAML folds only at a space past its width, so a line that
/// fits cannot have been folded. Longer lines are left to [`render`] (the
/// key is written whole, and `written_as` has already ruled out anything
/// but ASCII in the `pyyaml` style).
fn unfolded(style: TextStyle, before: usize, scalar: &Scalar) -> bool {
    fits(style, before, &scalar.value, scalar.style)
}

fn fits(style: TextStyle, before: usize, value: &str, read: ScalarStyle) -> bool {
    let Some(width) = style.width() else {
        return true;
    };
    !value.contains('\n') && before + written_len(value, read) <= width
}

/// The columns an ASCII plain or single-quoted scalar takes on its line.
fn written_len(value: &str, read: ScalarStyle) -> usize {
    let quotes = match read {
        ScalarStyle::SingleQuoted => 2 + value.matches('\'').count(),
        _ => 0,
    };
    value.len() + quotes
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

/// How the items to write are built from the model: sorted or not, with
/// comments or without.
#[derive(Clone, Copy)]
struct Build {
    sort: bool,
    comments: bool,
}

impl Build {
    fn notes<'a>(self, comments: Option<&'a Comments>) -> Notes<'a> {
        match comments {
            Some(c) if self.comments => Notes {
                before: c.before.iter().map(Comment::as_str).collect(),
                trailing: c.trailing.as_ref().map(Comment::as_str),
                after: c.after.iter().map(Comment::as_str).collect(),
            },
            _ => Notes::default(),
        }
    }

    fn document_item<'a>(self, root: &'a Node, doc: Doc) -> Item<'a> {
        match &root.value {
            Value::Map(entries) => self.map(entries, |key| doc.field_kind(key)),
            _ => self.item(root, FieldKind::Any),
        }
    }

    fn map<'a>(
        self,
        entries: &'a [crate::model::node::Entry],
        kind: impl Fn(&str) -> FieldKind,
    ) -> Item<'a> {
        let mut out: Vec<(Notes, Text, Item)> = entries
            .iter()
            .map(|e| {
                let key = e.key.as_scalar().map_or("", |s| s.value.as_str());
                (
                    self.notes(e.key.comments.as_deref()),
                    Text::Str(key),
                    self.item(&e.value, kind(key)),
                )
            })
            .collect();
        if self.sort {
            out.sort_by(|a, b| text_of(a.1).cmp(text_of(b.1)));
        }
        Item::Map(out)
    }

    fn item(self, node: &Node, kind: FieldKind) -> Item<'_> {
        match &node.value {
            Value::Scalar(s) => Item::Scalar(scalar_text(s, kind)),
            Value::Seq(items) => {
                let item_kind = item_kind(kind);
                let mut out: Vec<(Notes, Item)> = items
                    .iter()
                    .map(|n| (self.notes(n.comments.as_deref()), self.item(n, item_kind)))
                    .collect();
                if self.sort
                    && kind == FieldKind::StringList
                    && out.iter().all(|(_, i)| matches!(i, Item::Scalar(_)))
                {
                    out.sort_by(|(_, a), (_, b)| match (a, b) {
                        (Item::Scalar(x), Item::Scalar(y)) => text_of(*x).cmp(text_of(*y)),
                        _ => std::cmp::Ordering::Equal,
                    });
                }
                for (notes, item) in &mut out {
                    hoist_first_comments(notes, item);
                }
                Item::Seq(out)
            }
            Value::Map(entries) => self.map(entries, |_| FieldKind::Any),
        }
    }
}

/// A block collection that is a list item starts on the item's `-` line
/// (`- key: value`, `- - a`): the comments before its first entry or item
/// are written before the `-`, where reading them again puts them (they
/// precede the item). Without this, `fmt` would not be idempotent.
fn hoist_first_comments<'a>(notes: &mut Notes<'a>, item: &mut Item<'a>) {
    let first = match item {
        Item::Seq(items) => items.first_mut().map(|(n, _)| n),
        Item::Map(entries) => entries.first_mut().map(|(n, _, _)| n),
        Item::Scalar(_) => None,
    };
    if let Some(first) = first {
        notes.before.append(&mut first.before);
    }
}

impl Doc {
    /// How a key's value is read in this kind of document.
    fn field_kind(self, key: &str) -> FieldKind {
        match self {
            Doc::Metadata => crate::model::domain::metadata_field_kind(key),
            Doc::Record => field_kind(key),
        }
    }
}

/// How the items of a list of this kind are read.
fn item_kind(kind: FieldKind) -> FieldKind {
    match kind {
        FieldKind::StringList => FieldKind::String,
        _ => FieldKind::Any,
    }
}

fn text_of(t: Text<'_>) -> &str {
    match t {
        Text::Str(s) | Text::Verbatim(s) => s,
    }
}

/// Strings are written as PyYAML writes strings; other plain scalars (numbers,
/// booleans, dates, null) keep their spelling: `fmt` never changes a value.
/// A plain scalar PyYAML cannot load (`=`, `0b_`, `2001-02-30`) has no
/// value but its text, so it is written as that string: quoted.
fn scalar_text(s: &Scalar, kind: FieldKind) -> Text<'_> {
    text_of_value(&s.value, s.style == ScalarStyle::Plain, kind)
}

/// [`scalar_text`] for a value read from `value`'s text, plain or quoted.
fn text_of_value(value: &str, plain: bool, kind: FieldKind) -> Text<'_> {
    if matches!(kind, FieldKind::String) || !plain {
        return Text::Str(value);
    }
    let implicit = Implicit::of(value);
    if crate::model::resolve::unloadable_as(value, implicit).is_some() {
        return Text::Str(value);
    }
    match implicit {
        Implicit::Str => Text::Str(value),
        Implicit::Null if value.is_empty() => Text::Verbatim("null"),
        _ => Text::Verbatim(value),
    }
}

/// `key`, written plain, is how [`render`] writes a key that is not one of
/// the format's (an extra): [`mapping_is_canonical`]'s question of a key,
/// asked of text with no tree (the scanner of clean records,
/// `lint::proof`).
pub(crate) fn key_written_as_is(key: &str, style: TextStyle) -> bool {
    key_written_as(key, ScalarStyle::Plain, style)
}

/// `value`, written on one line after `before` columns (`key: ` or `- `),
/// plain or (`quoted`) in single quotes, is what [`render`] writes for the
/// value it reads as: [`mapping_is_canonical`]'s question of a scalar,
/// asked of text with no tree. A quoted value holding a quote (`''`) is
/// not taken: its text is not its value.
pub(crate) fn written_as_is(
    value: &str,
    quoted: bool,
    kind: FieldKind,
    before: usize,
    style: TextStyle,
) -> bool {
    let read = style_read(quoted);
    !(quoted && value.contains('\''))
        && written_as(value, read, text_of_value(value, !quoted, kind), style)
        && fits(style, before, value, read)
}

/// How a value on one line was read: in single quotes, or plain.
fn style_read(quoted: bool) -> ScalarStyle {
    if quoted {
        ScalarStyle::SingleQuoted
    } else {
        ScalarStyle::Plain
    }
}

/// [`written_as_is`] of a value holding no byte [`read_whole`] is true of
/// (the caller has read every byte of it already): decided from its first
/// bytes and its YAML type.
#[inline]
pub(crate) fn written_as_is_quiet(
    value: &str,
    quoted: bool,
    kind: FieldKind,
    before: usize,
    style: TextStyle,
) -> bool {
    // Most values (every path) start with a byte that leads no YAML type
    // but a string and no indicator: written plain when they fit, whatever
    // their kind. Inlined, so that they cost no call.
    if value
        .as_bytes()
        .first()
        .is_some_and(|&b| scalar::leads_plain_string(b))
    {
        return !quoted && fits_quiet(style, before, value, false);
    }
    // A decimal (every length) is an integer, written as it is where the
    // key takes any type: `Implicit::of`'s first answer, without the call.
    if !quoted && !matches!(kind, FieldKind::String) && Implicit::is_plain_decimal(value.as_bytes())
    {
        return fits_quiet(style, before, value, false);
    }
    typed_written_as_is_quiet(value, quoted, kind, before, style)
}

/// [`written_as_is_quiet`] of a value that may be read as another type
/// than a string, or is led by an indicator.
#[inline(never)]
fn typed_written_as_is_quiet(
    value: &str,
    quoted: bool,
    kind: FieldKind,
    before: usize,
    style: TextStyle,
) -> bool {
    let read = style_read(quoted);
    written_as_quiet(value, read, text_of_value(value, !quoted, kind), style)
        && fits_quiet(style, before, value, quoted)
}

/// [`fits`] of a value holding no byte [`read_whole`] is true of: no line
/// break and no quote to double, so its columns are its length (and two
/// quotes).
fn fits_quiet(style: TextStyle, before: usize, value: &str, quoted: bool) -> bool {
    style
        .width()
        .is_none_or(|width| before + value.len() + 2 * usize::from(quoted) <= width)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value the caller read whole and found without a byte
    /// [`read_whole`] is true of is written as the full question says:
    /// values of every other printable byte, led by indicators, numbers and
    /// document markers, in both styles, of every kind, plain and quoted.
    #[test]
    fn the_quiet_answer_is_the_full_one() {
        let mut seed = 0x9e37_79b9_u64;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let quiet: Vec<u8> = (0u8..=0x7F).filter(|b| !read_whole(*b)).collect();
        let leads = [
            "",
            "-",
            "?",
            "---",
            "...",
            "0",
            "0x",
            "0b",
            "1e",
            "1.",
            "1",
            "123456",
            "y",
            "No",
            "~",
            "null",
            "=",
            "<<",
            "2001-01-0",
            "/",
            "%",
            "!",
            "&",
            "*",
            "[",
        ];
        let mut plain = 0;
        for _ in 0..200_000 {
            let mut value = leads[next(leads.len())].to_string();
            for _ in 0..next(8) {
                value.push(char::from(quiet[next(quiet.len())]));
            }
            for kind in [FieldKind::String, FieldKind::Any] {
                for style in [TextStyle::Readable, TextStyle::Pyyaml] {
                    for quoted in [false, true] {
                        let before = next(90);
                        let full = written_as_is(&value, quoted, kind, before, style);
                        plain += usize::from(full && !quoted);
                        assert_eq!(
                            written_as_is_quiet(&value, quoted, kind, before, style),
                            full,
                            "{value:?} {kind:?} {style:?} quoted: {quoted}"
                        );
                    }
                }
            }
        }
        assert!(plain > 100_000, "{plain}");
    }

    #[test]
    fn known_keys_are_simple_keys_written_plain() {
        for key in KNOWN_KEYS {
            assert!(emitter::is_simple_key(Text::Str(key)), "{key}");
            assert_eq!(
                emitter::style(Text::Str(key), true, false, TextStyle::Pyyaml),
                Style::Plain,
                "{key}"
            );
        }
    }
}
