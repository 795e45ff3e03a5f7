//! Where PyYAML refuses a tab that the parser (YAML 1.2) took: outside a
//! quoted scalar, a comment and a block scalar's text after its
//! indentation (PyYAML's `scanner.py`: `scan_to_next_token` and
//! `scan_plain_spaces` skip spaces only, `scan_flow_scalar_spaces` and the
//! comment and block-scalar readers take any character). Asked by every
//! reader of a domain file ([`super::read`]), and reported by `yaml-syntax`.

use crate::model::node::{Document, Node, ScalarStyle, Value};
use crate::source::Span;

use super::tree::block_scalar;

/// The first tab PyYAML refuses on each line of `text`, one byte each, in
/// text order. `documents` and `comments` are the parse of `text`,
/// complete.
pub(crate) fn refused(text: &str, documents: &[Document], comments: &[Span]) -> Vec<Span> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    if memchr::memchr(b'\t', bytes).is_none() {
        return out;
    }
    let mut allowed: Vec<Span> = comments.to_vec();
    for doc in documents {
        if let Some(root) = &doc.root {
            taken_in(text, root, None, &mut allowed);
        }
    }
    // Disjoint: the comment scanner skips scalars, scalars do not overlap.
    allowed.sort_by_key(|s| s.start);
    let mut reported_line = None;
    // The start of the line of the last tab seen, found from there on.
    let (mut seen, mut line_start) = (0, 0);
    for at in memchr::memchr_iter(b'\t', bytes) {
        if let Some(i) = memchr::memrchr2(b'\n', b'\r', &bytes[seen..at]) {
            line_start = seen + i + 1;
        }
        seen = at;
        let after = allowed.partition_point(|r| r.start <= at);
        if after > 0 && at < allowed[after - 1].end {
            continue;
        }
        if reported_line == Some(line_start) {
            continue;
        }
        reported_line = Some(line_start);
        out.push(at..at + 1);
    }
    out
}

/// The regions of `node` (and what it holds) where PyYAML takes a tab.
/// `parent` is the column of the block collection that holds it.
fn taken_in(text: &str, node: &Node, parent: Option<usize>, out: &mut Vec<Span>) {
    match &node.value {
        Value::Scalar(s) => match s.style {
            ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => out.push(node.span.clone()),
            ScalarStyle::Literal | ScalarStyle::Folded => {
                // The lines PyYAML reads as its text, as the parser read it.
                if let Some(block) = block_scalar::read(text, node.span.start, parent) {
                    out.extend(block.content);
                }
            }
            ScalarStyle::Plain => {}
        },
        Value::Seq(items) => {
            let within = block_column(text, node, parent);
            for item in items {
                taken_in(text, item, within, out);
            }
        }
        Value::Map(entries) => {
            let within = block_column(text, node, parent);
            for e in entries {
                taken_in(text, &e.key, within, out);
                taken_in(text, &e.value, within, out);
            }
        }
    }
}

/// The column of a block collection (in bytes: indentation is ASCII
/// spaces), the indentation of what it holds; a flow collection keeps
/// `parent`'s (no block scalar is inside one).
fn block_column(text: &str, node: &Node, parent: Option<usize>) -> Option<usize> {
    if node.flow {
        return parent;
    }
    Some(super::tree::block_column(text, node.span.start))
}
