//! ## What it checks
//! Text that is not valid YAML: the parser's error, where it stopped.
//!
//! A tab that PyYAML (the reference tool) refuses is reported here too,
//! though YAML 1.2 and urldb's parser may read the file: PyYAML takes a
//! tab only inside quotes, inside a comment, and in a block scalar's
//! text after its indentation; anywhere else (before a comment, after a
//! value, in indentation, between flow items, in a plain value) it stops
//! with "found character '\t' that cannot start any token". A quoted
//! value continued on a line that starts with a tab is read by both.
//!
//! `_path: /a` then a tab then `# note`, for instance, is such a line.
//!
//! ## Why it matters
//! A file that does not parse cannot be checked any further, and every tool
//! that reads the database (the reference tool, CI scripts) fails on it.
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! _path: /a
//!   content-type: text/html
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! ---
//! _path: /a
//! content-type: text/html
//! ```
//!
//! ## Fix
//! For a tab PyYAML refuses in a file that otherwise parses: `urldb fmt`
//! (and `check --fix`) writes the file with spaces. Otherwise none: the
//! file is left untouched by `fmt` and `check --fix`.

use super::prelude::*;
use crate::model::node::Document;
use crate::source::Span;

pub(crate) static RULE: Rule = Rule {
    code: "yaml-syntax",
    summary: "the file is not valid YAML",
    severity: Severity::Error,
    // Most findings have no fix; a tab PyYAML refuses in a file that
    // parsed carries `fmt`'s rewrite (see "Fix" above).
    fix: FixKind::None,
    blocks_rewrite: true,
    check: Check::Parse,
};

/// The parser stopped at `span` of `text` with `message`. An error about
/// a tab is put on the tab: the parser reports where the token it was
/// reading started (the value before it, at the end of the previous
/// line), and the reader looks for the tab there.
pub(crate) fn finding(text: &str, span: Span, message: &str) -> Finding {
    // yaml-rust2 appends its own position ("at byte 6 line 2 column 2");
    // the report shows the position already.
    let message = message.split(" at byte ").next().unwrap_or(message);
    let span = if message.contains("tab") {
        text.as_bytes()
            .get(span.start..)
            .and_then(|rest| memchr::memchr(b'\t', rest))
            .map_or(span.clone(), |at| span.start + at..span.start + at + 1)
    } else {
        span
    };
    Finding::new(&RULE, span, format!("invalid YAML: {message}"))
        .help("fix the syntax; nothing else in this file is checked until it parses")
}

/// Where PyYAML takes a tab: inside a quoted scalar, a comment, and a
/// block scalar's text after its indentation (PyYAML's `scanner.py`:
/// `scan_to_next_token` and `scan_plain_spaces` skip spaces only,
/// `scan_flow_scalar_spaces` and the comment and block-scalar readers take
/// any character). `documents` and `comments` are the parse of `text`,
/// complete. One finding per line, at its first tab PyYAML refuses; each
/// carries the rewrite that writes spaces instead (`fmt`).
pub(crate) fn refused_tabs(
    text: &str,
    documents: &[Document],
    comments: &[Span],
    out: &mut Vec<Finding>,
) {
    let bytes = text.as_bytes();
    if memchr::memchr(b'\t', bytes).is_none() {
        return;
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
        out.push(tab(at..at + 1));
    }
}

/// The finding for a tab PyYAML refuses at `span`.
fn tab(span: Span) -> Finding {
    Finding::new(
        &RULE,
        span,
        "PyYAML refuses a tab here: outside quotes, comments and block scalar text, \
         YAML separates and indents with spaces",
    )
    .help("write spaces instead (`urldb fmt` does)")
    .fix(Fix::format("write spaces instead of the tab"))
}

/// The regions of `node` (and what it holds) where PyYAML takes a tab.
/// `parent` is the column of the block collection that holds it.
fn taken_in(text: &str, node: &Node, parent: Option<usize>, out: &mut Vec<Span>) {
    match &node.value {
        Value::Scalar(s) => match s.style {
            ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => out.push(node.span.clone()),
            ScalarStyle::Literal | ScalarStyle::Folded => {
                block_text(text, node.span.clone(), parent, out);
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
    let at = node.span.start;
    Some(at - text[..at].rfind(['\n', '\r']).map_or(0, |i| i + 1))
}

/// A block scalar's text (`span` from its first character to its last
/// line; its `|` or `>` is on the last line before it that is not blank),
/// after the indentation PyYAML gives it: `parent` column plus an explicit
/// indentation indicator, else the deepest indentation of its leading
/// blank lines and its first line, and at least one more than `parent`
/// (PyYAML's `scan_block_scalar`).
fn block_text(text: &str, span: Span, parent: Option<usize>, out: &mut Vec<Span>) {
    let bytes = text.as_bytes();
    if span.is_empty() {
        return;
    }
    let line_of = |at: usize| memchr::memrchr2(b'\n', b'\r', &bytes[..at]).map_or(0, |i| i + 1);
    // Back over the blank lines before the first line of text.
    let mut header_end = line_of(span.start);
    loop {
        if header_end == 0 {
            return;
        }
        header_end -= 1;
        if bytes[header_end] == b'\n' && header_end > 0 && bytes[header_end - 1] == b'\r' {
            header_end -= 1;
        }
        let header_start = line_of(header_end);
        if !bytes[header_start..header_end]
            .iter()
            .all(|&b| b == b' ' || b == b'\t')
        {
            break;
        }
        header_end = header_start;
    }
    let header_start = line_of(header_end);
    let header = &text[header_start..header_end];
    // The indicator is the header's last token, before any comment.
    let before_comment = header.find(" #").map_or(header, |i| &header[..i]);
    let explicit = before_comment
        .rfind(['|', '>'])
        .map(|i| &before_comment[i + 1..])
        .and_then(|flags| flags.bytes().find(u8::is_ascii_digit))
        .map(|b| usize::from(b - b'0'));
    let min_indent = parent.map_or(1, |p| p + 1);
    let mut line_start = next_line(bytes, header_end);
    let indent = match explicit {
        Some(n) => min_indent + n - 1,
        None => {
            // PyYAML's `scan_block_scalar_indentation`: spaces and line
            // breaks, the deepest column reached.
            let (mut i, mut column, mut deepest) = (line_start, 0, 0);
            while i < bytes.len() {
                match bytes[i] {
                    b' ' => {
                        column += 1;
                        deepest = deepest.max(column);
                        i += 1;
                    }
                    b'\n' | b'\r' => {
                        column = 0;
                        i += 1;
                    }
                    _ => break,
                }
            }
            min_indent.max(deepest)
        }
    };
    while line_start < span.end {
        let line_end = bytes[line_start..]
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')
            .map_or(bytes.len(), |i| line_start + i);
        let spaces = bytes[line_start..line_end]
            .iter()
            .take_while(|&&b| b == b' ')
            .count();
        if spaces >= indent {
            out.push(line_start + indent..line_end);
        }
        line_start = next_line(bytes, line_end);
    }
}

/// Where the line after the break at `at` starts (CR LF is one break).
fn next_line(bytes: &[u8], at: usize) -> usize {
    if bytes.get(at) == Some(&b'\r') && bytes.get(at + 1) == Some(&b'\n') {
        at + 2
    } else {
        at + 1
    }
}
