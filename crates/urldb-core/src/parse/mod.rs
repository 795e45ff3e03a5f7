//! Text → model: what the reference tool reads ([`reader`]), the YAML
//! event parser with spans behind it ([`tree`]), the fast reader for
//! canonical text ([`fast`]) and the comment scanner ([`comments`]). How a
//! plain scalar is typed (YAML 1.1) belongs to the model:
//! [`crate::model::resolve`].
//!
//! [`read_text`] is the one way a domain file's text becomes a tree: every
//! command, the linter and the language server read through it.

pub(crate) mod comments;
pub mod fast;
pub mod reader;
pub(crate) mod tabs;
pub mod tree;

use tree::Tree;

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
    let bom = if text.starts_with('\u{FEFF}') { 3 } else { 0 };
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
