//! The YAML tree of a domain file, with a byte span for every node.
//!
//! This is deliberately plain YAML (scalars, sequences, mappings) rather than
//! a typed record: extras may hold any value, fixes edit the tree, and the
//! canonical renderer walks it. The typed view of a domain file lives in
//! [`super::domain`].

use compact_str::CompactString;

use crate::model::resolve::Implicit;
use crate::source::Span;

/// How a scalar was written in the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScalarStyle {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
    Folded,
}

/// A scalar: its value (after unquoting and unescaping) and how it was
/// written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scalar {
    /// Inline up to 24 bytes: keys, media types, categories and most
    /// paths need no allocation of their own.
    pub value: CompactString,
    pub style: ScalarStyle,
}

impl Scalar {
    /// A string scalar that has no source (made by a fix or by `add`).
    pub fn string(value: impl Into<CompactString>) -> Self {
        Scalar {
            value: value.into(),
            style: ScalarStyle::DoubleQuoted,
        }
    }

    /// A plain scalar whose text is kept as written, such as an integer.
    pub fn plain(value: impl Into<CompactString>) -> Self {
        Scalar {
            value: value.into(),
            style: ScalarStyle::Plain,
        }
    }

    /// What the YAML 1.1 loader of the reference tool (PyYAML) makes of
    /// this scalar: only plain scalars can be anything but a string.
    pub fn implicit(&self) -> Implicit {
        if self.style == ScalarStyle::Plain {
            Implicit::of(&self.value)
        } else {
            Implicit::Str
        }
    }

    pub fn is_plain_null(&self) -> bool {
        self.implicit() == Implicit::Null
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    Scalar(Scalar),
    Seq(Vec<Node>),
    Map(Vec<Entry>),
}

/// A node and where it is in the source. Nodes made by fixes have an empty
/// span at the position of what they replace.
#[derive(Debug, Clone)]
pub struct Node {
    pub value: Value,
    pub span: Span,
    /// Written in flow style (`[a, b]`, `{a: b}`).
    pub flow: bool,
    /// A placeholder for an alias (`*name`), which urldb never expands; its
    /// value is unknown (`yaml-alias` reports it).
    pub alias: bool,
    /// The comments that belong to this node, when it is a sequence item or
    /// the key of a mapping entry (see [`Comments`]). Boxed: almost no node
    /// has any.
    pub comments: Option<Box<Comments>>,
}

/// One comment: its text from `#` to the end of its line without trailing
/// white space, and where it was read (a comment a fix moves keeps the
/// span it was read at).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comment {
    pub text: String,
    pub span: Span,
}

impl Comment {
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

/// The comments a node, an entry or a document owns. Where a
/// comment goes is decided when the file is parsed and written
/// by the renderer; `docs/format.md` ("Comments") has the rules. They are
/// layout: they never count in the equality of nodes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Comments {
    /// Whole-line comments just before the owner, in text order.
    pub before: Vec<Comment>,
    /// The comment at the end of the owner's line.
    pub trailing: Option<Comment>,
    /// Whole-line comments written after the owner: only fixes that remove
    /// the last item of a list put comments here (the removed item's), so
    /// that they are not lost.
    pub after: Vec<Comment>,
}

impl Comments {
    pub fn is_empty(&self) -> bool {
        self.before.is_empty() && self.trailing.is_none() && self.after.is_empty()
    }

    /// Every comment, in the order they are written.
    pub fn lines(&self) -> impl Iterator<Item = &str> {
        self.before
            .iter()
            .chain(&self.trailing)
            .chain(&self.after)
            .map(Comment::as_str)
    }
}

/// Two nodes are equal when their values are: spans and layout do not count.
/// This is the equality of "parse(fmt(x)) equals parse(x)".
impl PartialEq for Node {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}
impl Eq for Node {}

impl Node {
    pub fn new(value: Value, span: Span) -> Self {
        Node {
            value,
            span,
            flow: false,
            alias: false,
            comments: None,
        }
    }

    /// Every comment of this node and of the nodes inside it, in text
    /// order, taken out (for a node that is removed: they are not lost).
    pub fn take_all_comments(&mut self) -> Vec<Comment> {
        let mut out = Vec::new();
        let own = self.comments.take().map(|c| *c).unwrap_or_default();
        out.extend(own.before);
        out.extend(own.trailing);
        match &mut self.value {
            Value::Scalar(_) => {}
            Value::Seq(items) => items
                .iter_mut()
                .for_each(|i| out.extend(i.take_all_comments())),
            Value::Map(entries) => entries.iter_mut().for_each(|e| {
                out.extend(e.key.take_all_comments());
                out.extend(e.value.take_all_comments());
            }),
        }
        out.extend(own.after);
        out
    }

    /// This node's comments, made empty when it has none.
    pub fn comments_mut(&mut self) -> &mut Comments {
        self.comments.get_or_insert_with(Box::default)
    }

    pub fn as_scalar(&self) -> Option<&Scalar> {
        match &self.value {
            Value::Scalar(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_seq(&self) -> Option<&[Node]> {
        match &self.value {
            Value::Seq(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_map(&self) -> Option<&[Entry]> {
        match &self.value {
            Value::Map(entries) => Some(entries),
            _ => None,
        }
    }

    /// `true` for an empty plain scalar, `~` or `null`: what YAML loads as
    /// nothing.
    pub fn is_null(&self) -> bool {
        self.as_scalar().is_some_and(Scalar::is_plain_null)
    }

    pub fn kind_name(&self) -> &'static str {
        match &self.value {
            Value::Scalar(s) if s.is_plain_null() => "null",
            Value::Scalar(_) => "scalar",
            Value::Seq(_) => "sequence",
            Value::Map(_) => "mapping",
        }
    }
}

/// One `key: value` pair of a mapping. Keys of domain files are strings;
/// anything else is reported (`non-string-key`) and blocks rewriting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub key: Node,
    pub value: Node,
}

impl Entry {
    /// The key's text, when the key is a scalar.
    pub fn key_str(&self) -> Option<&str> {
        self.key.as_scalar().map(|s| s.value.as_str())
    }
}

/// Look a key up in a mapping's entries (the first one, when duplicated).
pub fn get<'a>(entries: &'a [Entry], key: &str) -> Option<&'a Entry> {
    entries.iter().find(|e| e.key_str() == Some(key))
}

/// One YAML document of a file: `---` and what follows it.
#[derive(Debug, Clone, Default)]
pub struct Document {
    /// `None` for a document with no content at all (a bare `---`).
    pub root: Option<Node>,
    /// From the `---` marker (or the first node, when the marker is
    /// missing) to the end of the document's content.
    pub span: Span,
    /// The document started with an explicit `---`.
    pub explicit_start: bool,
    /// Comments before its `---` line (for the first document: the header
    /// of the file) and at the end of that line.
    pub comments: Comments,
    /// Comments after the last node of the file, written at its end. Only
    /// the first document (metadata, never removed) holds them.
    pub footer: Vec<Comment>,
}

/// Documents are equal when their contents are: spans and comments do not
/// count (see [`Node`]'s equality).
impl PartialEq for Document {
    fn eq(&self, other: &Self) -> bool {
        self.root == other.root
            && self.span == other.span
            && self.explicit_start == other.explicit_start
    }
}
impl Eq for Document {}

/// Every mapping of the documents (at any depth, keys included), in text
/// order: what rules about keys walk.
pub(crate) fn mappings(documents: &[Document]) -> impl Iterator<Item = &[Entry]> {
    let mut stack: Vec<&Node> = documents
        .iter()
        .rev()
        .filter_map(|d| d.root.as_ref())
        .collect();
    std::iter::from_fn(move || {
        while let Some(node) = stack.pop() {
            match &node.value {
                Value::Scalar(_) => {}
                Value::Seq(items) => stack.extend(items.iter().rev()),
                Value::Map(entries) => {
                    for entry in entries.iter().rev() {
                        stack.push(&entry.value);
                        stack.push(&entry.key);
                    }
                    return Some(entries.as_slice());
                }
            }
        }
        None
    })
}

/// The node at `steps` below the root of document `doc`: each step is the
/// index of an item of a sequence, or of an entry of a mapping (the step
/// goes to its value).
pub(crate) fn node_at_mut<'d>(
    docs: &'d mut [Document],
    doc: usize,
    steps: &[usize],
) -> Option<&'d mut Node> {
    let mut node = docs.get_mut(doc)?.root.as_mut()?;
    for &step in steps {
        node = match &mut node.value {
            Value::Seq(items) => items.get_mut(step)?,
            Value::Map(entries) => &mut entries.get_mut(step)?.value,
            Value::Scalar(_) => return None,
        };
    }
    Some(node)
}

/// The comments owned at `steps` below document `doc`: the document's
/// own for no step, else those of the item, or of the entry's key, that
/// the last step names (`docs/format.md`, "Comments").
pub(crate) fn comments_at_mut<'d>(
    docs: &'d mut [Document],
    doc: usize,
    steps: &[usize],
) -> Option<&'d mut Comments> {
    let Some((&last, parent)) = steps.split_last() else {
        return docs.get_mut(doc).map(|d| &mut d.comments);
    };
    match &mut node_at_mut(docs, doc, parent)?.value {
        Value::Seq(items) => items.get_mut(last).map(Node::comments_mut),
        Value::Map(entries) => entries.get_mut(last).map(|e| e.key.comments_mut()),
        Value::Scalar(_) => None,
    }
}

/// Rewrite the comment read at `span`, wherever it is now (`None`:
/// remove it). `false` when no comment has that span.
pub fn rewrite_comment(docs: &mut [Document], span: &Span, text: Option<String>) -> bool {
    fn in_list(list: &mut Vec<Comment>, span: &Span, text: &mut Option<Option<String>>) -> bool {
        let Some(i) = list.iter().position(|c| c.span == *span) else {
            return false;
        };
        match text.take().flatten() {
            Some(t) => list[i].text = t,
            None => {
                list.remove(i);
            }
        }
        true
    }
    fn in_comments(c: &mut Comments, span: &Span, text: &mut Option<Option<String>>) -> bool {
        if in_list(&mut c.before, span, text) || in_list(&mut c.after, span, text) {
            return true;
        }
        if c.trailing.as_ref().is_some_and(|t| t.span == *span) {
            match text.take().flatten() {
                Some(t) => {
                    if let Some(trailing) = &mut c.trailing {
                        trailing.text = t;
                    }
                }
                None => c.trailing = None,
            }
            return true;
        }
        false
    }
    fn in_node(n: &mut Node, span: &Span, text: &mut Option<Option<String>>) -> bool {
        if let Some(c) = &mut n.comments
            && in_comments(c, span, text)
        {
            return true;
        }
        match &mut n.value {
            Value::Scalar(_) => false,
            Value::Seq(items) => items.iter_mut().any(|i| in_node(i, span, text)),
            Value::Map(entries) => entries
                .iter_mut()
                .any(|e| in_node(&mut e.key, span, text) || in_node(&mut e.value, span, text)),
        }
    }
    let mut text = Some(text);
    for doc in docs.iter_mut() {
        if in_comments(&mut doc.comments, span, &mut text)
            || in_list(&mut doc.footer, span, &mut text)
            || doc
                .root
                .as_mut()
                .is_some_and(|r| in_node(r, span, &mut text))
        {
            return true;
        }
    }
    false
}
