//! The fast path: a line scanner for the text `fmt` writes.
//!
//! Nearly every file of a database is canonical text, which uses a tiny part
//! of YAML: `---` lines, `key: scalar` lines at the left margin, and
//! `- scalar` items under a `key:` line, with plain or single-quoted
//! one-line scalars. This reader recognises exactly that shape (LF line
//! ends, ASCII, no comments) and builds the same [`Tree`] as the yaml-rust2
//! path, spans included, at a fraction of the cost. Anything else — a
//! nested mapping, a double-quoted or multi-line scalar, a character whose
//! reading takes a YAML lawyer — returns `None`, and the caller parses the
//! file the general way. Falling back is always correct; accepting text
//! the general path would read differently never is, so every check here
//! errs on the side of `None`. `tests/it/check/fast_path.rs` holds the two paths to
//! the same trees and findings on generated and mutated files.

use compact_str::CompactString;

use crate::model::node::{Document, Entry, Node, Scalar, ScalarStyle, Value};

use super::tree::Tree;

/// Keys longer than this take the general path (YAML limits implicit keys
/// to 1024 characters; there is no reason to come near it here).
const MAX_KEY: usize = 128;

/// Read canonical-shaped `text` (no byte order mark), or `None`.
pub(super) fn parse(text: &str) -> Option<Tree> {
    parse_range(text, 0..text.len())
}

/// [`parse`] the documents in `range` of `text` (it starts at a `---` line
/// and ends after a line break), with spans in the whole text: a large
/// file is read in pieces, one per thread (`lint::pieces`).
pub(crate) fn parse_range(text: &str, range: std::ops::Range<usize>) -> Option<Tree> {
    let text = text.get(..range.end)?;
    let bytes = text.as_bytes();
    let piece = bytes.get(range.clone())?;
    // One pass over the bytes rules out what the line reader does not
    // handle: CR, tabs, control characters, non-ASCII, comments. Each
    // chunk is folded without a branch per byte, so it vectorizes.
    let readable = |b: u8| ((0x20..0x7F).contains(&b) && b != b'#') | (b == b'\n');
    if !piece
        .chunks(64)
        .all(|chunk| chunk.iter().fold(true, |ok, &b| ok & readable(b)))
    {
        return None;
    }
    if !piece.starts_with(b"---") || !piece.ends_with(b"\n") {
        return None;
    }
    let mut reader = Reader {
        text,
        bytes,
        pos: range.start,
        // Sized once from the text (canonical records run about 110 bytes,
        // ten scalars to a record), not grown by doubling.
        tree: Tree {
            documents: Vec::with_capacity(piece.len() / 64 + 1),
            scalar_spans: Vec::with_capacity(piece.len() / 8 + 1),
            ..Tree::default()
        },
    };
    while reader.pos < bytes.len() {
        reader.document()?;
    }
    Some(reader.tree)
}

struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    tree: Tree,
}

impl<'a> Reader<'a> {
    /// The current line, without its `\n`.
    fn line(&self) -> &'a [u8] {
        let rest = &self.bytes[self.pos..];
        let end = memchr(b'\n', rest).unwrap_or(rest.len());
        &rest[..end]
    }

    fn next_line(&mut self, len: usize) {
        self.pos += len + 1;
    }

    fn at_document_start(&self) -> bool {
        let line = self.line();
        line == b"---" || line == b"--- {}"
    }

    /// One document: its `---` line, then a block mapping or nothing.
    fn document(&mut self) -> Option<()> {
        let start = self.pos;
        let line = self.line();
        let root = if line == b"---" {
            self.next_line(3);
            if self.pos >= self.bytes.len() || self.at_document_start() {
                None
            } else {
                Some(self.mapping()?)
            }
        } else if line == b"--- {}" {
            let open = start + 4;
            let mut node = Node::new(Value::Map(Vec::new()), open..open + 2);
            node.flow = true;
            self.next_line(6);
            Some(node)
        } else {
            return None;
        };
        let end = match &root {
            Some(r) => r.span.end.max(start),
            // The general path reads an empty document as an empty plain
            // scalar where the next one starts (or at the end of the text),
            // and ends the document there.
            None => {
                let at = self.pos.min(self.bytes.len());
                self.tree.scalar_spans.push(at..at);
                at
            }
        };
        self.tree.documents.push(Document {
            root,
            span: start..end,
            explicit_start: true,
            ..Document::default()
        });
        Some(())
    }

    /// `key: scalar` and `key:` + `- item` lines up to the next document.
    fn mapping(&mut self) -> Option<Node> {
        let mut entries: Vec<Entry> = Vec::with_capacity(8);
        while self.pos < self.bytes.len() && !self.at_document_start() {
            let line_start = self.pos;
            let line = self.line();
            let len = line.len();
            let (key, after) = scalar(self.text, line, line_start, true)?;
            if key.span.end - key.span.start > MAX_KEY {
                return None;
            }
            self.tree.scalar_spans.push(key.span.clone());
            if after == len {
                // `key:` then an indentless block sequence.
                self.next_line(len);
                let value = self.sequence()?;
                entries.push(Entry { key, value });
                continue;
            }
            // `key: value`
            if line.get(after) != Some(&b' ') {
                return None;
            }
            let value_start = after + 1;
            let (value, end) = scalar(
                self.text,
                &line[value_start..],
                line_start + value_start,
                false,
            )?;
            if value_start + end != len {
                return None;
            }
            self.tree.scalar_spans.push(value.span.clone());
            entries.push(Entry { key, value });
            self.next_line(len);
        }
        let first = entries.first()?;
        let span = first.key.span.start..entries.last()?.value.span.end;
        Some(Node::new(Value::Map(entries), span))
    }

    /// `- item` lines (at least one).
    fn sequence(&mut self) -> Option<Node> {
        let mut items: Vec<Node> = Vec::new();
        while self.pos < self.bytes.len() {
            let line_start = self.pos;
            let line = self.line();
            let len = line.len();
            if !line.starts_with(b"- ") {
                break;
            }
            let (item, end) = scalar(self.text, &line[2..], line_start + 2, false)?;
            if end + 2 != len {
                return None;
            }
            self.tree.scalar_spans.push(item.span.clone());
            items.push(item);
            self.next_line(len);
        }
        let start = items.first()?.span.start - 2;
        let end = items.last()?.span.end;
        Some(Node::new(Value::Seq(items), start..end))
    }
}

/// A plain or single-quoted scalar at the start of `text` (which starts at
/// byte `offset` of the file `src`). For a key, it must be followed by `:`, and
/// the returned index is just past the colon; for a value, the index is
/// where the scalar ends.
fn scalar(src: &str, text: &[u8], offset: usize, key: bool) -> Option<(Node, usize)> {
    let (value, style, len) = if text.first() == Some(&b'\'') {
        single_quoted(text)?
    } else {
        let len = if key { memchr(b':', text)? } else { text.len() };
        let plain = &text[..len];
        // A plain value PyYAML may refuse as an integer too long for
        // Python's `int()` is the reader's to judge (`reader::nodes`).
        if !is_simple_plain(plain) || len > super::reader::INT_DIGITS_LIMIT {
            return None;
        }
        // Sliced from the text itself: it is already known to be UTF-8.
        (
            CompactString::from(src.get(offset..offset + len)?),
            ScalarStyle::Plain,
            len,
        )
    };
    let node = Node::new(Value::Scalar(Scalar { value, style }), offset..offset + len);
    if key {
        // The colon must end the line or be followed by a space.
        if text.get(len) != Some(&b':') {
            return None;
        }
        match text.get(len + 1) {
            None | Some(b' ') => Some((node, len + 1)),
            _ => None,
        }
    } else {
        Some((node, len))
    }
}

/// `'...'` on one line, `''` standing for a quote. Returns the value, and
/// the length including both quotes.
fn single_quoted(text: &[u8]) -> Option<(CompactString, ScalarStyle, usize)> {
    let mut value = Vec::new();
    let mut i = 1;
    loop {
        match text.get(i)? {
            b'\'' if text.get(i + 1) == Some(&b'\'') => {
                value.push(b'\'');
                i += 2;
            }
            b'\'' => break,
            &b => {
                value.push(b);
                i += 1;
            }
        }
    }
    // Leading or trailing spaces inside quotes are kept by YAML, but keep
    // the fast path to what the emitter writes in practice.
    if value.first() == Some(&b' ') || value.last() == Some(&b' ') {
        return None;
    }
    Some((
        CompactString::from_utf8(value).ok()?,
        ScalarStyle::SingleQuoted,
        i + 1,
    ))
}

/// A plain scalar whose reading is the text itself, in block context: not
/// empty, no indicator at the start, no `: ` or ` #` inside, no colon at
/// the end, no spaces at either end, no document marker. The caller has
/// already ruled out `#`, tabs, control and non-ASCII characters.
fn is_simple_plain(s: &[u8]) -> bool {
    let (Some(&first), Some(&last)) = (s.first(), s.last()) else {
        return false;
    };
    if matches!(
        first,
        b' ' | b'-'
            | b'?'
            | b':'
            | b','
            | b'['
            | b']'
            | b'{'
            | b'}'
            | b'&'
            | b'*'
            | b'!'
            | b'|'
            | b'>'
            | b'\''
            | b'"'
            | b'%'
            | b'@'
            | b'`'
    ) || last == b' '
        || last == b':'
        || s.starts_with(b"...")
    {
        return false;
    }
    // `: ` would start a mapping. Flow indicators inside a plain scalar
    // are ordinary characters in block context.
    !memchr::memchr_iter(b':', s).any(|i| s.get(i + 1) == Some(&b' '))
}

use memchr::memchr;

#[cfg(test)]
mod tests {
    use super::*;

    /// The general path's tree, for comparison (spans included).
    fn general(text: &str) -> String {
        let tree = super::super::tree::parse_tree(text);
        format!("{:?}\n{:?}", tree.documents, tree.scalar_spans)
    }

    fn fast(text: &str) -> Option<String> {
        parse(text).map(|tree| format!("{:?}\n{:?}", tree.documents, tree.scalar_spans))
    }

    #[test]
    fn same_tree_as_the_general_path() {
        for text in [
            "---\n---\n_path: /a\ncontent-type: text/html\n",
            "---\nhttps: true\n---\n_path: /a\ncategories:\n- x\n- 'y z'\ncontent-type: text/html\n---\n_path: /b\ncontent-type: text/html\n",
            "--- {}\n---\n_path: /a\ncontent-type: text/html\n",
            "---\ncnames:\n- www.example.com\n- m.example.com\n",
            "---\n---\n_path: '/a: b'\ncontent-type: 'it''s'\n",
            "---\n",
            "---\n---\n",
            "---\n---\n---\n_path: /a\n",
        ] {
            let fast = fast(text).unwrap_or_else(|| panic!("fast path refused {text:?}"));
            assert_eq!(fast, general(text), "{text:?}");
        }
    }

    #[test]
    fn refuses_what_it_does_not_read() {
        for text in [
            "---\n---\n_path: /a\r\n",
            "---\n---\n_path: /a # comment\n",
            "---\n---\n_path: \"/a\"\n",
            "---\n---\nextra:\n  nested: 1\n",
            "---\n---\n_path: /a\n  continued\n",
            "---\n---\n_path: - a\n",
            "---\n---\n_path:\n",
            "---\n---\n_path: /a",
            "_path: /a\n",
            "---\n---\n_path: /caf\u{e9}\n",
            "---\n---\nkey: a: b\n",
            "---\n---\nkey: [a]\n",
            "---\n---\nkey: {a}\n",
            "---\n...\n",
        ] {
            assert!(parse(text).is_none(), "{text:?}");
        }
    }
}
