//! Finding comments, which yaml-rust2's events do not report.
//!
//! A `#` starts a comment at the start of a line or after white space,
//! outside scalars. Scalar spans from the parser are skipped, so a `#` in a
//! quoted string or a block scalar is content, not a comment.

use crate::model::node::{Comment, Comments, Document, Node, Value};
use crate::source::Span;

/// Spans of every comment (from `#` to the end of its line).
pub(crate) fn find_comments(text: &str, scalar_spans: &[Span]) -> Vec<Span> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    // Quick exit: most files have no `#` at all.
    if memchr::memchr(b'#', bytes).is_none() {
        return out;
    }
    let mut spans = scalar_spans.iter().peekable();
    let mut i = 0;
    while i < bytes.len() {
        while let Some(s) = spans.peek() {
            if s.end <= i {
                spans.next();
            } else {
                break;
            }
        }
        if let Some(s) = spans.peek()
            && s.start <= i
            && i < s.end
        {
            i = s.end;
            continue;
        }
        if bytes[i] == b'#' && (i == 0 || matches!(bytes[i - 1], b' ' | b'\t' | b'\n' | b'\r')) {
            let end = bytes[i..]
                .iter()
                .position(|&b| b == b'\n' || b == b'\r')
                .map_or(bytes.len(), |p| i + p);
            out.push(i..end);
            i = end;
            continue;
        }
        i += 1;
    }
    out
}

/// Give every comment of `text` (the spans [`find_comments`] found) to
/// the node, entry or document it belongs to, as `docs/format.md`
/// ("Comments") describes:
///
/// - a comment alone on its line(s) belongs to the first owner (document,
///   mapping entry, sequence item) that starts after it, or, after the
///   last one, to the end of the file (the first document's `footer`);
/// - a comment after something on its line belongs to the last owner that
///   starts before it on that line or earlier; when that owner already has
///   one, it is treated as a comment alone on its line.
///
/// A file without documents keeps its comments nowhere: `empty-file`
/// refuses to rewrite it, so they are never lost.
pub(crate) fn attach(text: &str, documents: &mut [Document], comments: &[Span]) {
    if comments.is_empty() || documents.is_empty() {
        return;
    }
    let mut owners: Vec<(usize, Owner)> = Vec::new();
    for (d, doc) in documents.iter().enumerate() {
        owners.push((
            doc.span.start,
            Owner {
                doc: d,
                steps: Vec::new(),
            },
        ));
        if let Some(root) = &doc.root {
            collect_owners(text, root, d, &mut Vec::new(), &mut owners);
        }
    }
    // Stable: among owners that start at the same place (a document and
    // its first key, a list item and its first key) the outer one is first.
    owners.sort_by_key(|(start, _)| *start);
    for span in comments {
        let comment = Comment {
            text: text[span.clone()].trim_end().to_string(),
            span: span.clone(),
        };
        let line_start = text[..span.start].rfind(['\n', '\r']).map_or(0, |i| i + 1);
        let alone = text[line_start..span.start]
            .bytes()
            .all(|b| b == b' ' || b == b'\t');
        let before = owners.partition_point(|(start, _)| *start < span.start);
        let comment = match owners.get(before.wrapping_sub(1)) {
            Some((_, owner)) if !alone => match owner.comments(documents) {
                Some(Comments {
                    trailing: slot @ None,
                    ..
                }) => {
                    *slot = Some(comment);
                    None
                }
                _ => Some(comment),
            },
            _ => Some(comment),
        };
        let Some(comment) = comment else { continue };
        let owner = owners.get(before).and_then(|(_, o)| o.comments(documents));
        match owner {
            Some(owner) => owner.before.push(comment),
            None => documents[0].footer.push(comment),
        }
    }
}

/// Where an owner of comments is: its document, then the index of each
/// entry or item on the way down.
struct Owner {
    doc: usize,
    steps: Vec<usize>,
}

impl Owner {
    /// The owner's comments. The owners were collected from these very
    /// documents, so every step exists; `None` (never) would send the
    /// comment to the end of the file rather than lose it.
    fn comments<'d>(&self, documents: &'d mut [Document]) -> Option<&'d mut Comments> {
        crate::model::node::comments_at_mut(documents, self.doc, &self.steps)
    }
}

/// The entries and items inside `node`, in text order, each with where it
/// starts: a mapping entry at its key, a block sequence item at its `-`.
fn collect_owners(
    text: &str,
    node: &Node,
    doc: usize,
    path: &mut Vec<usize>,
    out: &mut Vec<(usize, Owner)>,
) {
    match &node.value {
        Value::Scalar(_) => {}
        Value::Seq(items) => {
            for (i, item) in items.iter().enumerate() {
                let start = if node.flow {
                    item.span.start
                } else {
                    dash_before(text, item.span.start)
                };
                path.push(i);
                out.push((
                    start,
                    Owner {
                        doc,
                        steps: path.clone(),
                    },
                ));
                collect_owners(text, item, doc, path, out);
                path.pop();
            }
        }
        Value::Map(entries) => {
            for (i, entry) in entries.iter().enumerate() {
                path.push(i);
                out.push((
                    entry.key.span.start,
                    Owner {
                        doc,
                        steps: path.clone(),
                    },
                ));
                collect_owners(text, &entry.value, doc, path, out);
                path.pop();
            }
        }
    }
}

/// The `-` of the block sequence item that starts at `item`: on its line
/// (`- a`, `- - a`) or on a line above it with only comments and blank
/// lines between (`-  # note`, then the item). `item` itself when there
/// is none.
fn dash_before(text: &str, item: usize) -> usize {
    let mut end = item;
    loop {
        let line_start = text[..end].rfind('\n').map_or(0, |i| i + 1);
        let line = &text[line_start..end];
        let bytes = line.as_bytes();
        let code = (0..bytes.len())
            .find(|&i| bytes[i] == b'#' && (i == 0 || matches!(bytes[i - 1], b' ' | b'\t')))
            .map_or(line, |i| &line[..i]);
        let code = code.trim_end();
        if code.ends_with('-') {
            return line_start + code.len() - 1;
        }
        if !code.trim_start().is_empty() || line_start == 0 {
            return item;
        }
        end = line_start - 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_item_starts_at_its_dash() {
        let text = "x:\n- a\n-   # note\r\n  # more\n  k: v\n- - b\n";
        let at = |s: &str| text.find(s).expect(s);
        assert_eq!(dash_before(text, at("a")), at("- a"));
        assert_eq!(dash_before(text, at("k: v")), at("-   # note"));
        assert_eq!(dash_before(text, at("b")), at("- b"));
        // No dash: the item's own start.
        assert_eq!(dash_before(text, at("x")), at("x"));
    }
}
