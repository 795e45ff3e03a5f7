//! Walks over a parsed model that the fmt properties need, shared by
//! `tests/it/check/corpus_mutations.rs`, `tests/it/fmt/comments.rs` and the
//! fuzz targets (`fuzz/fuzz_targets/common.rs`).

use urldb_core::model::node::{Comment, Document, Node, Value};

/// How many `#` the scalars (keys and values) and the comments of `docs`
/// hold.
pub(crate) fn hashes(docs: &[Document]) -> usize {
    fn node(n: &Node) -> usize {
        match &n.value {
            Value::Scalar(s) => s.value.matches('#').count(),
            Value::Seq(items) => items.iter().map(node).sum(),
            Value::Map(entries) => entries.iter().map(|e| node(&e.key) + node(&e.value)).sum(),
        }
    }
    let comments: usize = all_comments(docs)
        .iter()
        .map(|c| c.matches('#').count())
        .sum();
    docs.iter()
        .filter_map(|d| d.root.as_ref())
        .map(node)
        .sum::<usize>()
        + comments
}

/// Every comment of `documents`, in the order the renderer writes them
/// for unsorted documents: what the comment properties count.
pub(crate) fn all_comments(documents: &[Document]) -> Vec<&str> {
    fn node<'a>(n: &'a Node, out: &mut Vec<&'a str>) {
        let comments = n.comments.as_deref();
        out.extend(
            comments
                .into_iter()
                .flat_map(|c| c.before.iter().map(Comment::as_str)),
        );
        out.extend(
            comments
                .and_then(|c| c.trailing.as_ref())
                .map(Comment::as_str),
        );
        match &n.value {
            Value::Scalar(_) => {}
            Value::Seq(items) => items.iter().for_each(|i| node(i, out)),
            Value::Map(entries) => entries.iter().for_each(|e| {
                node(&e.key, out);
                node(&e.value, out);
            }),
        }
        out.extend(
            comments
                .into_iter()
                .flat_map(|c| c.after.iter().map(Comment::as_str)),
        );
    }
    let mut out = Vec::new();
    for d in documents {
        out.extend(d.comments.lines());
        if let Some(root) = &d.root {
            node(root, &mut out);
        }
    }
    out.extend(
        documents
            .iter()
            .flat_map(|d| d.footer.iter().map(Comment::as_str)),
    );
    out
}

/// Where the last node of `docs` ends.
pub(crate) fn last_end(docs: &[Document]) -> usize {
    fn node(n: &Node) -> usize {
        let inner = match &n.value {
            Value::Scalar(_) => 0,
            Value::Seq(items) => items.iter().map(node).max().unwrap_or(0),
            Value::Map(entries) => entries
                .iter()
                .map(|e| node(&e.key).max(node(&e.value)))
                .max()
                .unwrap_or(0),
        };
        inner.max(n.span.end)
    }
    docs.iter()
        .map(|d| d.span.end.max(d.root.as_ref().map_or(0, node)))
        .max()
        .unwrap_or(0)
}

/// `tail` (what follows the last node) holds only layout and comments,
/// which the model keeps (`hashes` counts them): nothing would be cut off.
pub(crate) fn only_layout_and_comments(tail: &str) -> bool {
    tail.split(['\n', '\r']).all(|line| {
        let bytes = line.as_bytes();
        let code = (0..bytes.len())
            .find(|&i| bytes[i] == b'#' && (i == 0 || matches!(bytes[i - 1], b' ' | b'\t')))
            .map_or(line, |i| &line[..i]);
        code.chars()
            .all(|c| " \t.-]}[{'\"|>:?,\u{feff}".contains(c))
    })
}
