//! Walks over a parsed model that the fmt properties need, shared by
//! `tests/it/check/corpus_mutations.rs` and the fuzz targets (`fuzz/fuzz_targets/common.rs`).

use urldb_core::model::node::{Document, Node, Value};

/// How many `#` the scalars (keys and values) and the comments of `docs`
/// hold.
pub(super) fn hashes(docs: &[Document]) -> usize {
    fn node(n: &Node) -> usize {
        match &n.value {
            Value::Scalar(s) => s.value.matches('#').count(),
            Value::Seq(items) => items.iter().map(node).sum(),
            Value::Map(entries) => entries.iter().map(|e| node(&e.key) + node(&e.value)).sum(),
        }
    }
    let comments: usize = urldb_core::model::node::all_comments(docs)
        .iter()
        .map(|c| c.matches('#').count())
        .sum();
    docs.iter()
        .filter_map(|d| d.root.as_ref())
        .map(node)
        .sum::<usize>()
        + comments
}

/// Where the last node of `docs` ends.
pub(super) fn last_end(docs: &[Document]) -> usize {
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
pub(super) fn only_layout_and_comments(tail: &str) -> bool {
    tail.split(['\n', '\r']).all(|line| {
        let bytes = line.as_bytes();
        let code = (0..bytes.len())
            .find(|&i| bytes[i] == b'#' && (i == 0 || matches!(bytes[i - 1], b' ' | b'\t')))
            .map_or(line, |i| &line[..i]);
        code.chars()
            .all(|c| " \t.-]}[{'\"|>:?,\u{feff}".contains(c))
    })
}
