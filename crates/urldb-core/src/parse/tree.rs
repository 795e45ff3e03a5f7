//! yaml-rust2's event parser → [`Document`]s of spanned [`Node`]s.
//!
//! The event parser is used (never `YamlLoader`, which expands aliases
//! without limit) and fed by hand so that parsing can stop at the first
//! nesting violation. Events carry only a start marker; ends of scalars are
//! found by scanning the text, and a scalar's end is settled when the next
//! event arrives, because that event's position bounds it.

use yaml_rust2::parser::{Event, Parser, Tag};
use yaml_rust2::scanner::{Marker, TScalarStyle};

use crate::model::node::{Comments, Document, Entry, Node, Scalar, ScalarStyle, Value};
use crate::source::{LineIndex, Span};

pub(crate) mod block_scalar;
mod quoted_tabs;

/// Deeper nesting than this is refused (`nesting-too-deep`). A domain file
/// needs three levels; extras may nest, but not without bound.
pub(crate) const MAX_DEPTH: usize = 64;

/// What the event stream said besides the tree: features that cannot be
/// rewritten, and where the text was not YAML.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    Syntax {
        span: Span,
        message: String,
    },
    Anchor {
        span: Span,
        name: Option<String>,
    },
    Alias {
        span: Span,
    },
    Tag {
        span: Span,
        tag: String,
    },
    TooDeep {
        span: Span,
    },
    /// PyYAML would refuse the text or read it otherwise
    /// ([`super::reader`]): it is not read.
    Refused {
        span: Span,
        refusal: super::reader::Refusal,
    },
}

#[derive(Debug, Default)]
pub struct Tree {
    pub documents: Vec<Document>,
    /// Spans of every scalar, in text order: the comment scanner skips them.
    pub scalar_spans: Vec<Span>,
    pub problems: Vec<Problem>,
    /// Spans of every comment, in text order. Each is also in the model:
    /// [`super::comments::attach`] gave it to the node it belongs to.
    pub comments: Vec<Span>,
    /// Parsing stopped early (syntax error or nesting): the tree is partial.
    pub incomplete: bool,
}

enum Frame {
    Seq {
        start: usize,
        items: Vec<Node>,
        flow: bool,
    },
    Map {
        start: usize,
        entries: Vec<Entry>,
        key: Option<Node>,
        flow: bool,
    },
}

struct Builder<'s> {
    text: &'s str,
    lines: LineIndex,
    stack: Vec<Frame>,
    tree: Tree,
    /// A scalar whose end is not settled yet, waiting for the next event.
    pending: Option<(Node, usize)>,
    doc_start: usize,
    doc_explicit: bool,
    root: Option<Node>,
    /// The last marker turned into an offset: (line, column, offset).
    /// Markers mostly go forward, so the next one on the same line counts
    /// only the characters in between (a long flow line is not counted
    /// from its start for every scalar on it).
    last: std::cell::Cell<(usize, usize, usize)>,
}

/// Parse `text` (a domain file without its byte order mark) as the
/// reference tool reads it: a text PyYAML would refuse or read otherwise
/// ([`super::reader`]) gives no tree, only the problem that says why.
pub(super) fn parse_tree(text: &str) -> Tree {
    let refused = super::reader::characters(text);
    if !refused.is_empty() {
        return Tree::refused(refused);
    }
    let tree = quoted_tabs::as_pyyaml_reads(text, parse_once(text));
    if tree.incomplete {
        return tree;
    }
    let mut refused: Vec<_> = super::reader::bare_document(&tree.documents)
        .into_iter()
        .collect();
    if super::reader::has_marked_lines(text) {
        let starts: Vec<usize> = tree.documents.iter().map(|d| d.span.start).collect();
        refused.extend(super::reader::lines(text, &starts, &tree.scalar_spans));
    }
    refused.extend(super::reader::nodes(text, &tree.documents));
    if refused.is_empty() {
        tree
    } else {
        refused.sort_by_key(|(span, _)| span.start);
        Tree::refused(refused)
    }
}

/// One pass of the event parser over `text`.
pub(crate) fn parse_once(text: &str) -> Tree {
    let mut parser = Parser::new_from_str(text).keep_tags(true);
    let mut b = Builder {
        text,
        lines: LineIndex::new(text),
        stack: Vec::new(),
        tree: Tree::default(),
        pending: None,
        doc_start: 0,
        doc_explicit: false,
        root: None,
        last: std::cell::Cell::new((usize::MAX, 0, 0)),
    };
    loop {
        let (event, marker) = match parser.next_token() {
            Ok(next) => next,
            Err(err) => {
                b.scanner_error(&err);
                break;
            }
        };
        let at = b.offset(&marker);
        b.settle_pending(at);
        let go_on = match event {
            Event::StreamEnd => false,
            Event::StreamStart | Event::Nothing => true,
            Event::DocumentStart => {
                b.doc_start = at;
                // The marker of a document without `---` is where its
                // content starts, which may be a `---` key (`? ---`).
                let line_start = at == 0 || matches!(text.as_bytes()[at - 1], b'\n' | b'\r');
                b.doc_explicit = line_start
                    && text[at..].starts_with("---")
                    && text[at + 3..]
                        .bytes()
                        .next()
                        .is_none_or(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r'));
                b.root = None;
                true
            }
            Event::DocumentEnd => {
                b.document_end(at);
                true
            }
            Event::Alias(_) => {
                b.alias(at);
                true
            }
            Event::Scalar(value, style, anchor, tag) => {
                b.node_props(at, anchor, tag.as_ref());
                b.scalar(at, marker.col(), value, style);
                true
            }
            Event::SequenceStart(anchor, tag) => {
                b.node_props(at, anchor, tag.as_ref());
                b.start_collection(at, false)
            }
            Event::MappingStart(anchor, tag) => {
                b.node_props(at, anchor, tag.as_ref());
                b.start_collection(at, true)
            }
            Event::SequenceEnd => {
                b.sequence_end(at);
                true
            }
            Event::MappingEnd => {
                b.mapping_end(at);
                true
            }
        };
        if !go_on {
            break;
        }
    }
    b.finish()
}

/// One handler per kind of parser event: what [`parse_tree`]'s loop does
/// with it.
impl Builder<'_> {
    /// The scanner stopped: a syntax error, or its own recursion guard.
    fn scanner_error(&mut self, err: &yaml_rust2::ScanError) {
        let at = self.offset(err.marker());
        self.settle_pending(at);
        // The scanner guards its own recursion (it looks ahead through
        // flow collections before the parser sees their events).
        let problem = if err.info().contains("recursion limit exceeded") {
            Problem::TooDeep { span: at..at + 1 }
        } else {
            Problem::Syntax {
                span: at..at,
                message: err.info().to_string(),
            }
        };
        self.tree.problems.push(problem);
        self.tree.incomplete = true;
    }

    fn document_end(&mut self, at: usize) {
        let root = self.root.take();
        let end = root.as_ref().map_or(at, |r| r.span.end.max(self.doc_start));
        // A bare `---` followed by nothing loads as an empty plain
        // scalar; keep it as "no content".
        let root = root.filter(|r| {
            !(r.span.is_empty()
                && r.as_scalar()
                    .is_some_and(|s| s.value.is_empty() && s.style == ScalarStyle::Plain))
        });
        self.tree.documents.push(Document {
            root,
            span: self.doc_start..end,
            explicit_start: self.doc_explicit,
            ..Document::default()
        });
    }

    fn alias(&mut self, at: usize) {
        self.tree.problems.push(Problem::Alias {
            span: at..alias_end(self.text, at),
        });
        let mut node = Node::new(Value::Scalar(Scalar::plain("")), at..at);
        node.alias = true;
        self.push(node);
    }

    /// A scalar waits (`pending`) until the next event says where it ends.
    fn scalar(&mut self, at: usize, col: usize, value: String, style: TScalarStyle) {
        let style = match style {
            TScalarStyle::SingleQuoted => ScalarStyle::SingleQuoted,
            TScalarStyle::DoubleQuoted => ScalarStyle::DoubleQuoted,
            TScalarStyle::Literal => ScalarStyle::Literal,
            TScalarStyle::Folded => ScalarStyle::Folded,
            _ => ScalarStyle::Plain,
        };
        // A block scalar's value as PyYAML reads it, where yaml-rust2
        // reads another at the end of the text (`block_scalar`).
        let value = match style {
            ScalarStyle::Literal | ScalarStyle::Folded => {
                block_scalar::read(self.text, at, self.block_column()).map_or(value, |b| b.value)
            }
            _ => value,
        };
        let node = Node::new(
            Value::Scalar(Scalar {
                value: value.into(),
                style,
            }),
            at..at,
        );
        self.pending = Some((node, col));
    }

    /// The column of the block collection a node now read goes into
    /// (`None` for a document's root, or inside a flow collection).
    fn block_column(&self) -> Option<usize> {
        // A block mapping's start marker points past its first key; the
        // first key is where it starts (as `mapping_end` says).
        let (start, flow) = match self.stack.last()? {
            Frame::Seq { start, flow, .. } => (*start, *flow),
            Frame::Map {
                start,
                entries,
                key,
                flow,
            } => {
                let first = entries.first().map(|e| &e.key).or(key.as_ref());
                (first.map_or(*start, |k| k.span.start), *flow)
            }
        };
        if flow {
            return None;
        }
        Some(block_column(self.text, start))
    }

    /// A sequence or mapping opens; false when it is nested too deep (the
    /// parse stops there).
    fn start_collection(&mut self, at: usize, mapping: bool) -> bool {
        let flow = self.text[at..].starts_with(if mapping { '{' } else { '[' });
        // A block sequence's marker is its first item's: when that item is
        // a flow sequence (`- [a]`), both start at the `[`, the block one
        // first. It was taken for a flow one; it is the block one.
        if flow
            && let Some(Frame::Seq {
                start,
                items,
                flow: outer_flow,
            }) = self.stack.last_mut()
            && *outer_flow
            && *start == at
            && items.is_empty()
        {
            *outer_flow = false;
            *start = dash_before(self.text, at);
        }
        if !self.enter(at) {
            return false;
        }
        self.stack.push(if mapping {
            Frame::Map {
                start: at,
                entries: Vec::new(),
                key: None,
                flow,
            }
        } else {
            Frame::Seq {
                start: if flow { at } else { dash_before(self.text, at) },
                items: Vec::new(),
                flow,
            }
        });
        true
    }

    fn sequence_end(&mut self, at: usize) {
        if let Some(Frame::Seq { start, items, flow }) = self.stack.pop() {
            let end = if flow {
                at + 1
            } else {
                items.last().map_or(start, |n| n.span.end)
            };
            let mut node = Node::new(Value::Seq(items), start..end);
            node.flow = flow;
            self.push(node);
        }
    }

    fn mapping_end(&mut self, at: usize) {
        if let Some(Frame::Map {
            start,
            entries,
            flow,
            ..
        }) = self.stack.pop()
        {
            // A block mapping's start marker points past its first
            // key; the first key is where it really starts.
            let start = if flow {
                start
            } else {
                entries.first().map_or(start, |e| e.key.span.start)
            };
            let end = if flow {
                at + 1
            } else {
                entries.last().map_or(start, |e| e.value.span.end)
            };
            let mut node = Node::new(Value::Map(entries), start..end);
            node.flow = flow;
            self.push(node);
        }
    }

    /// The tree, once the events are done (or stopped).
    fn finish(mut self) -> Tree {
        let text = self.text;
        self.settle_pending(text.len());
        if !self.stack.is_empty() || self.root.is_some() {
            self.tree.incomplete = true;
        }
        // yaml-rust2's events do not report comments: they are found in
        // the text between scalars, then given to their nodes.
        self.tree.comments = super::comments::find_comments(text, &self.tree.scalar_spans);
        super::comments::attach(text, &mut self.tree.documents, &self.tree.comments);
        self.tree
    }
}

impl Builder<'_> {
    fn offset(&self, m: &Marker) -> usize {
        let (line, col) = (m.line(), m.col());
        let (last_line, last_col, last_at) = self.last.get();
        let at = if line == last_line && col >= last_col && last_at <= self.text.len() {
            // As LineIndex::offset does from the line's start, from here.
            let rest = &self.text[last_at..];
            let n = col - last_col;
            let head = &rest.as_bytes()[..n.min(rest.len())];
            if head.is_ascii() {
                last_at + head.len()
            } else {
                last_at + rest.char_indices().nth(n).map_or(rest.len(), |(i, _)| i)
            }
        } else {
            self.lines.offset(self.text, line, col)
        };
        self.last.set((line, col, at));
        at
    }

    fn node_props(&mut self, at: usize, anchor: usize, tag: Option<&Tag>) {
        let text = self.text;
        if anchor != 0 {
            let (span, name) = find_property_before(text, at, b'&');
            self.tree.problems.push(Problem::Anchor { span, name });
        }
        if let Some(tag) = tag {
            let (span, _) = find_property_before(text, at, b'!');
            self.tree.problems.push(Problem::Tag {
                span,
                tag: format!("{}{}", tag.handle, tag.suffix),
            });
        }
    }

    fn enter(&mut self, at: usize) -> bool {
        if self.stack.len() >= MAX_DEPTH {
            self.tree
                .problems
                .push(Problem::TooDeep { span: at..at + 1 });
            self.tree.incomplete = true;
            return false;
        }
        true
    }

    fn settle_pending(&mut self, limit: usize) {
        if let Some((mut node, col)) = self.pending.take() {
            let start = node.span.start;
            let end = match &node.value {
                Value::Scalar(s) => scalar_end(self.text, start, col, limit, s),
                _ => start,
            };
            node.span = start..end.max(start);
            self.tree.scalar_spans.push(node.span.clone());
            self.push(node);
        }
    }

    fn push(&mut self, node: Node) {
        match self.stack.last_mut() {
            Some(Frame::Seq { items, .. }) => items.push(node),
            Some(Frame::Map { entries, key, .. }) => match key.take() {
                None => *key = Some(node),
                Some(k) => entries.push(Entry {
                    key: k,
                    value: node,
                }),
            },
            None => self.root = Some(node),
        }
    }
}

/// Where a scalar starting at `start` ends. `limit` is the next event's
/// position: no scalar reaches past it.
fn scalar_end(text: &str, start: usize, col: usize, limit: usize, s: &Scalar) -> usize {
    let bytes = text.as_bytes();
    let limit = limit.min(bytes.len()).max(start);
    match s.style {
        ScalarStyle::SingleQuoted => {
            let mut i = start + 1;
            while i < bytes.len() {
                if bytes[i] == b'\'' {
                    if bytes.get(i + 1) == Some(&b'\'') {
                        i += 2;
                        continue;
                    }
                    return i + 1;
                }
                i += 1;
            }
            bytes.len()
        }
        ScalarStyle::DoubleQuoted => {
            let mut i = start + 1;
            while i < bytes.len() {
                match bytes[i] {
                    b'\\' => i += 2,
                    b'"' => return i + 1,
                    _ => i += 1,
                }
            }
            bytes.len()
        }
        ScalarStyle::Plain => {
            if s.value.is_empty() {
                return start;
            }
            // The usual case: the value is the text as written, on one line.
            if text[start..].starts_with(s.value.as_str()) {
                return start + s.value.len();
            }
            trim_back(text, start, limit)
        }
        ScalarStyle::Literal | ScalarStyle::Folded => block_scalar_end(text, start, col, limit),
    }
}

/// Step back from `limit` over white space, line breaks and comment lines.
/// A plain scalar never holds a comment (a `#` after white space ends it),
/// so it ends before the first one: a comment that the scalar's span
/// covered would be skipped by the comment scanner and lost by `fmt`.
fn trim_back(text: &str, start: usize, limit: usize) -> usize {
    let bytes = text.as_bytes();
    let mut end = (start + 1..limit)
        .find(|&i| bytes[i] == b'#' && matches!(bytes[i - 1], b' ' | b'\t' | b'\r' | b'\n'))
        .unwrap_or(limit);
    while end > start && matches!(bytes[end - 1], b' ' | b'\t' | b'\r' | b'\n') {
        end -= 1;
    }
    end
}

/// A block scalar's content is every following line that is blank or
/// indented at least as far as its first content line (`col`).
fn block_scalar_end(text: &str, start: usize, col: usize, limit: usize) -> usize {
    let bytes = text.as_bytes();
    let mut end = start;
    let mut line_start = start - col.min(start);
    // Content is indented deeper than the line holding `|` / `>` (unless
    // the scalar is a document's root). Without this bound an empty block
    // scalar (`col` 0) would take in a comment line that follows it, and
    // the comment scanner would skip the comment: `fmt` dropped it.
    let col = col.max(content_indent_at_least(bytes, line_start));
    while line_start < limit {
        let line_end = bytes[line_start..]
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')
            .map_or(bytes.len(), |p| line_start + p);
        let line = &bytes[line_start..line_end];
        let indent = line.iter().take_while(|&&b| b == b' ').count();
        let blank = line.iter().all(|&b| b == b' ' || b == b'\t');
        if !blank {
            if indent < col {
                break;
            }
            end = line_end.min(limit);
        }
        line_start = line_end + 1;
        if line_end < bytes.len()
            && bytes[line_end] == b'\r'
            && bytes.get(line_end + 1) == Some(&b'\n')
        {
            line_start += 1;
        }
    }
    end.max(start)
}

/// The least indentation of a block scalar's content whose first content
/// line starts at `first`: one more than its header line's (the nearest
/// non-blank line above), or 0 for a document's root scalar.
fn content_indent_at_least(bytes: &[u8], first: usize) -> usize {
    let mut end = first;
    while end > 0 {
        let line_end = end - 1;
        let line_start = bytes[..line_end]
            .iter()
            .rposition(|&b| b == b'\n' || b == b'\r')
            .map_or(0, |p| p + 1);
        let line = &bytes[line_start..line_end];
        end = line_start;
        let indent = line.iter().take_while(|&&b| b == b' ').count();
        let rest = &line[indent..];
        if rest.iter().all(|&b| b == b' ' || b == b'\t') {
            continue;
        }
        let root = rest.starts_with(b"---") || rest.starts_with(b"|") || rest.starts_with(b">");
        return if root { 0 } else { indent + 1 };
    }
    0
}

/// `- ` before a block sequence's first item: the sequence starts at the dash.
/// The column of a block collection whose first item or key starts at
/// `start`: a mapping whose first key is explicit (`? key`) is at its `?`,
/// as PyYAML indents it.
pub(crate) fn block_column(text: &str, start: usize) -> usize {
    let bytes = text.as_bytes();
    let mut at = start;
    while at > 0 && bytes[at - 1] == b' ' {
        at -= 1;
    }
    let at = if at > 0 && bytes[at - 1] == b'?' && at < start {
        at - 1
    } else {
        start
    };
    let line = memchr::memrchr2(b'\n', b'\r', &bytes[..at]).map_or(0, |i| i + 1);
    at - line
}

fn dash_before(text: &str, at: usize) -> usize {
    let bytes = text.as_bytes();
    let mut i = at;
    while i > 0 && bytes[i - 1] == b' ' {
        i -= 1;
    }
    if i > 0 && bytes[i - 1] == b'-' {
        i - 1
    } else {
        at
    }
}

fn alias_end(text: &str, at: usize) -> usize {
    let bytes = text.as_bytes();
    let mut i = at + 1;
    while i < bytes.len() && !matches!(bytes[i], b' ' | b'\t' | b'\r' | b'\n' | b',' | b']' | b'}')
    {
        i += 1;
    }
    i
}

/// Find an anchor (`&name`) or tag (`!tag`) written before the node at
/// `at`, on the same line or the lines just above it.
fn find_property_before(text: &str, at: usize, sigil: u8) -> (Span, Option<String>) {
    let bytes = text.as_bytes();
    let from = at.saturating_sub(1024);
    let window = &bytes[from..at.min(bytes.len())];
    let Some(rel) = window.iter().rposition(|&b| b == sigil) else {
        return (at..at, None);
    };
    let start = from + rel;
    let end = alias_end(text, start);
    let name = text.get(start + 1..end).map(str::to_string);
    (start..end, name)
}

impl Tree {
    /// Move every span by `delta` bytes (the length of a byte order mark
    /// that was cut off before parsing).
    pub fn shift(&mut self, delta: usize) {
        if delta == 0 {
            return;
        }
        let sh = |s: &mut Span| {
            s.start += delta;
            s.end += delta;
        };
        for doc in &mut self.documents {
            sh(&mut doc.span);
            shift_comments(&mut doc.comments, delta);
            doc.footer.iter_mut().for_each(|c| sh(&mut c.span));
            if let Some(root) = &mut doc.root {
                shift_node(root, delta);
            }
        }
        self.scalar_spans.iter_mut().for_each(sh);
        self.comments.iter_mut().for_each(sh);
        for p in &mut self.problems {
            match p {
                Problem::Syntax { span, .. }
                | Problem::Anchor { span, .. }
                | Problem::Alias { span }
                | Problem::Tag { span, .. }
                | Problem::TooDeep { span }
                | Problem::Refused { span, .. } => sh(span),
            }
        }
    }

    /// No tree: what PyYAML would refuse or read otherwise.
    fn refused(refused: Vec<(Span, super::reader::Refusal)>) -> Tree {
        Tree {
            problems: refused
                .into_iter()
                .map(|(span, refusal)| Problem::Refused { span, refusal })
                .collect(),
            incomplete: true,
            ..Tree::default()
        }
    }
}

fn shift_comments(comments: &mut Comments, delta: usize) {
    let all = comments
        .before
        .iter_mut()
        .chain(&mut comments.trailing)
        .chain(&mut comments.after);
    for comment in all {
        comment.span.start += delta;
        comment.span.end += delta;
    }
}

fn shift_node(node: &mut Node, delta: usize) {
    node.span.start += delta;
    node.span.end += delta;
    if let Some(comments) = &mut node.comments {
        shift_comments(comments, delta);
    }
    match &mut node.value {
        Value::Scalar(_) => {}
        Value::Seq(items) => items.iter_mut().for_each(|n| shift_node(n, delta)),
        Value::Map(entries) => {
            for e in entries {
                shift_node(&mut e.key, delta);
                shift_node(&mut e.value, delta);
            }
        }
    }
}
