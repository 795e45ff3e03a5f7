//! Shared checks for the fuzz targets (included with `#[path]`/`mod`).
#![allow(dead_code)]

use urldb_core::lint::Checked;
use urldb_core::model::node::{Comment, Comments, Document, Node, Value};
use urldb_core::source::Span;

/// A span is inside `text` and starts and ends on character boundaries
/// (the reporting layer slices the text with it).
pub fn assert_span(text: &str, span: &Span, what: &str) {
    assert!(
        span.start <= span.end && span.end <= text.len(),
        "{what}: span {span:?} outside a text of {} bytes",
        text.len()
    );
    assert!(
        text.is_char_boundary(span.start) && text.is_char_boundary(span.end),
        "{what}: span {span:?} splits a character"
    );
}

/// Every finding's span and label is a valid slice of the checked text.
pub fn assert_findings(checked: &Checked) {
    let text = &checked.source.text;
    for f in &checked.findings {
        assert_span(text, &f.span, f.rule.code);
        for (span, _) in &f.labels {
            assert_span(text, span, f.rule.code);
        }
        // Reporting turns spans into lines and columns: must not panic.
        let _ = checked.source.line_col(f.span.start);
        let _ = checked.source.line_col(f.span.end);
    }
}

/// A comment's span is in the text, and the text there is the comment.
pub fn assert_comments(text: &str, comments: &Comments) {
    for c in comments.before.iter().chain(&comments.trailing).chain(&comments.after) {
        assert_comment(text, c);
    }
}

pub fn assert_comment(text: &str, c: &Comment) {
    assert_span(text, &c.span, "comment");
    assert_eq!(text[c.span.clone()].trim_end(), c.text, "comment text");
}

pub fn assert_node(text: &str, node: &Node) {
    assert_span(text, &node.span, "node");
    if let Some(comments) = &node.comments {
        assert_comments(text, comments);
    }
    match &node.value {
        Value::Scalar(_) => {}
        Value::Seq(items) => items.iter().for_each(|n| assert_node(text, n)),
        Value::Map(entries) => entries.iter().for_each(|e| {
            assert_node(text, &e.key);
            assert_node(text, &e.value);
        }),
    }
}

pub fn assert_documents(text: &str, docs: &[Document]) {
    for d in docs {
        assert_span(text, &d.span, "document");
        assert_comments(text, &d.comments);
        d.footer.iter().for_each(|c| assert_comment(text, c));
        if let Some(root) = &d.root {
            assert_node(text, root);
        }
    }
}

#[path = "../../tests/it/support/model_walk.rs"]
mod model_walk;
// Not every target uses both.
#[allow(unused_imports)]
pub(crate) use model_walk::{hashes as hashes_in_model, last_end, only_layout_and_comments};

/// What follows the last node is layout and comments only (comments are
/// in the model): nothing after it is lost.
pub fn assert_nothing_after_the_model(text: &str, docs: &[Document]) {
    let tail = &text[last_end(docs).min(text.len())..];
    assert!(
        only_layout_and_comments(tail),
        "text after the last node would be dropped: {tail:?} in {text:?}"
    );
}
