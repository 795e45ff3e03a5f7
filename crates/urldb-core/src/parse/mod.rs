//! Text → model, and the one door to it: what the reference tool reads
//! ([`reader`], with its directives, quoted tabs and block scalars, and
//! [`tabs`]), the YAML event parser with spans behind it ([`tree`]), the
//! fast reader for canonical text ([`fast`]) and the comment scanner
//! ([`comments`]). How a plain scalar is typed (YAML 1.1) belongs to the
//! model: [`crate::model::resolve`].
//!
//! Everything here is private behind a few functions, so that "would
//! PyYAML read this as we do?" has one answer: [`read_bytes`] (bytes in;
//! text, byte order mark, tree, or why not), [`read_text`] (for `check`,
//! which reports each problem where it is), `read_range` (a piece of a
//! large file, for the linter's threads) and [`without_bom`]. Nothing
//! outside this folder takes a byte order mark off or calls a parser
//! (a layer test holds this; the `bom` rule reports one).

mod comments;
mod fast;
mod reader;
mod tabs;
mod tree;

pub use reader::Refusal;
pub(crate) use reader::{INT_DIGITS_LIMIT, SIMPLE_KEY_LIMIT};
pub(crate) use tabs::refused as refused_tabs;
pub(crate) use tree::MAX_DEPTH;
pub use tree::{Problem, Tree};

/// A domain file's `text` (a byte order mark included, spans counted in
/// it) read as the reference tool reads it: the fast reader where it takes
/// the text (printable ASCII in canonical layout), else the general
/// parser behind PyYAML's reading rules ([`reader`]).
pub fn read_text(text: &str) -> Tree {
    read_text_with(text, false).0
}

/// [`read_text`], never by the fast reader when `general_only` (the
/// linter's test knob); and whether the fast reader read it.
pub(crate) fn read_text_with(text: &str, general_only: bool) -> (Tree, bool) {
    let bom = text.len() - without_bom(text).len();
    if bom == 0
        && !general_only
        && let Some(tree) = fast::parse(text)
    {
        return (tree, true);
    }
    let mut tree = tree::parse_tree(&text[bom..]);
    tree.shift(bom);
    (tree, false)
}

/// A domain file's bytes read as the reference tool reads them, or `None`
/// when it would not read them all (they are not UTF-8, or
/// [`read_text`] stopped): what every command that lists, edits or
/// requests records reads.
pub fn read(raw: &[u8]) -> Option<Tree> {
    let text = std::str::from_utf8(raw).ok()?;
    let tree = read_text(text);
    read_whole(text, &tree).then_some(tree)
}

/// A domain file's bytes as the reference tool reads them
/// ([`read_bytes`]): the text after its byte order mark and the tree of
/// it, its spans counted in `text`.
#[derive(Debug)]
pub struct Reading<'t> {
    /// The text after the byte order mark.
    pub text: &'t str,
    /// Whether a byte order mark came before `text`.
    pub bom: bool,
    /// The documents, comments and problems of `text`.
    pub tree: Tree,
}

/// Why the reference tool would not read a domain file's bytes whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unreadable {
    /// The bytes are not UTF-8.
    NotUtf8,
    /// PyYAML would stop, or read it otherwise than urldb does
    /// ([`read_whole`]); `check` says where and why.
    Refused,
}

/// The one door from a domain file's bytes to what a command takes from
/// it: the text, whether it had a byte order mark, and the tree, or why
/// the reference tool would not read it whole (a tab PyYAML refuses
/// included). `ls`, `export`, verify's plan, `add`/`rm` and `diff` read
/// through it; `check` reads through [`read_text`] to report each
/// problem where it is.
pub fn read_bytes(raw: &[u8]) -> Result<Reading<'_>, Unreadable> {
    let text = std::str::from_utf8(raw).map_err(|_| Unreadable::NotUtf8)?;
    let body = without_bom(text);
    let tree = read_text(body);
    if !read_whole(body, &tree) {
        return Err(Unreadable::Refused);
    }
    Ok(Reading {
        text: body,
        bom: body.len() < text.len(),
        tree,
    })
}

/// The documents in `range` of `text` (it starts at a `---` line and ends
/// after a line break) read as [`read_text`] reads them, spans in the
/// whole text, and whether the fast reader read them: a large file is
/// read in pieces, one per thread (`lint::pieces`). `None` when the range
/// is not within `text` on character boundaries, or holds a tab PyYAML
/// refuses: the whole file's reading reports it where it is.
pub(crate) fn read_range(text: &str, range: std::ops::Range<usize>) -> Option<(Tree, bool)> {
    if let Some(tree) = fast::parse_range(text, range.clone()) {
        return Some((tree, true));
    }
    let piece = text.get(range.clone())?;
    let mut tree = tree::parse_tree(piece);
    if !tree.incomplete && !tabs::refused(piece, &tree.documents, &tree.comments).is_empty() {
        return None;
    }
    tree.shift(range.start);
    Some((tree, false))
}

/// Whether `text` starts with a byte order mark.
pub fn has_bom(text: &str) -> bool {
    text.starts_with('\u{FEFF}')
}

/// `text` after its byte order mark, if it has one: the one place a
/// domain file's BOM is taken off (the `bom` rule reports it; PyYAML reads
/// past it).
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{FEFF}').unwrap_or(text)
}

/// [`without_bom`] for bytes (a line read before it is known to be text).
pub fn without_bom_bytes(raw: &[u8]) -> &[u8] {
    raw.strip_prefix("\u{FEFF}".as_bytes()).unwrap_or(raw)
}

/// Whether the reference tool reads `text`, parsed as `tree`, whole and as
/// urldb does: the parser read it to its end, and it holds no tab PyYAML
/// refuses ([`tabs`]). What `ls`, `export`, `verify`, `add` and `diff`
/// ask before they take a file's records, as `check` reports it.
pub fn read_whole(text: &str, tree: &Tree) -> bool {
    !tree.incomplete && tabs::refused(text, &tree.documents, &tree.comments).is_empty()
}

/// Each reader alone, for the tests that hold them equal (the fast reader
/// reads what the general parser reads, where it reads at all).
#[cfg(feature = "testing")]
pub mod testing {
    use super::Tree;

    /// The fast reader for canonical text, or `None` where it declines.
    pub fn fast(text: &str) -> Option<Tree> {
        super::fast::parse(text)
    }

    /// The general parser behind PyYAML's reading rules (no byte order
    /// mark in `text`).
    pub fn general(text: &str) -> Tree {
        super::tree::parse_tree(text)
    }
}
