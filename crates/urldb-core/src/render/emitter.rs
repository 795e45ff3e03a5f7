//! PyYAML's `Emitter` state (column, indentation, "whitespace" and
//! "indention" flags) and the block-style node writers, as a direct
//! recursive walk.
//!
//! The text style (`super::TextStyle`) sets PyYAML's `allow_unicode` and
//! `width`: with a width, the scalar writers fold long lines exactly where
//! PyYAML's do.
//!
//! Only what `yaml.dump(..., default_flow_style=False)` produces is needed:
//! block mappings and sequences, `[]` and `{}` for empty collections, and
//! scalars. The flag juggling mirrors the Python code so that indentation
//! comes out identical in every nesting combination.

use super::TextStyle;
use super::scalar::{Style, analyze, choose_style, double_quoted_verbatim, escape_double};

/// A scalar to write, and what PyYAML would know about it.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Text<'a> {
    /// A string: PyYAML chooses plain, single or double quotes.
    Str(&'a str),
    /// A non-string scalar (int, bool, null, ...): written plain, as is.
    Verbatim(&'a str),
}

/// A tree to write. Borrowed from the model, already in output order.
pub(crate) enum Item<'a> {
    Scalar(Text<'a>),
    Seq(Vec<(Notes<'a>, Item<'a>)>),
    Map(Vec<(Notes<'a>, Text<'a>, Item<'a>)>),
}

impl Item<'_> {
    /// A sequence or mapping written over lines of its own (block style):
    /// a comment at the end of its owner's line goes before it.
    fn is_block(&self) -> bool {
        match self {
            Item::Scalar(_) => false,
            Item::Seq(items) => !items.is_empty(),
            Item::Map(entries) => !entries.is_empty(),
        }
    }
}

/// The comments written with an entry, an item or a document: whole lines
/// before it, one at the end of its line, whole lines after it
/// (`docs/format.md`, "Comments").
#[derive(Debug, Default)]
pub(crate) struct Notes<'a> {
    pub before: Vec<&'a str>,
    pub trailing: Option<&'a str>,
    pub after: Vec<&'a str>,
}

pub(crate) struct Emitter<'o> {
    out: &'o mut String,
    newline: &'static str,
    column: usize,
    whitespace: bool,
    indention: bool,
    indent: Option<usize>,
    indents: Vec<Option<usize>>,
    flow_level: usize,
    style: TextStyle,
    /// PyYAML's `best_width`; `None`: lines are never folded.
    width: Option<usize>,
}

const BEST_INDENT: usize = 2;

impl<'o> Emitter<'o> {
    pub(crate) fn new(out: &'o mut String, newline: &'static str, style: TextStyle) -> Self {
        Emitter {
            out,
            newline,
            column: 0,
            whitespace: true,
            indention: true,
            indent: None,
            indents: Vec::new(),
            flow_level: 0,
            style,
            width: style.width(),
        }
    }

    /// `--- ` and the document's root, then the line break that ends it.
    pub(crate) fn document(&mut self, notes: &Notes, root: &Item) {
        self.comment_lines(&notes.before);
        self.write_indent();
        self.write_indicator("---", true, false, false);
        self.owned(notes, |e| e.node(root, false, false), root.is_block());
        self.write_indent();
    }

    /// A document written as the bare `---` line (no content).
    pub(crate) fn bare_document(&mut self, notes: &Notes) {
        self.comment_lines(&notes.before);
        self.write_indent();
        self.write_indicator("---", true, false, false);
        self.trailing_comment(notes.trailing);
        self.write_line_break();
        self.comment_lines(&notes.after);
    }

    /// Comments on lines of their own at the current indentation, each
    /// followed by a line break: they start on a fresh line.
    pub(crate) fn comment_lines(&mut self, lines: &[&str]) {
        for line in lines {
            let current = self.out.rsplit('\n').next().unwrap_or("");
            if current.bytes().any(|b| b != b' ') {
                self.write_line_break();
            }
            let indent = self.indent.unwrap_or(0);
            while self.column < indent {
                self.out.push(' ');
                self.column += 1;
            }
            self.out.push_str(line);
            self.write_line_break();
        }
    }

    /// ` # comment` at the end of the current line; whatever follows
    /// starts on the next one.
    fn trailing_comment(&mut self, comment: Option<&str>) {
        if let Some(comment) = comment {
            self.out.push(' ');
            self.write_raw(comment);
            self.whitespace = false;
            self.indention = false;
        }
    }

    /// What `write` writes, with the comment at the end of its first line
    /// (after the indicator, before a block collection) or of its last
    /// line (after a scalar or an empty collection), then the comments
    /// that follow it.
    fn owned(&mut self, notes: &Notes, write: impl FnOnce(&mut Self), block: bool) {
        if block {
            self.trailing_comment(notes.trailing);
            write(self);
        } else {
            write(self);
            self.trailing_comment(notes.trailing);
        }
        if !notes.after.is_empty() {
            self.comment_lines(&notes.after);
        }
    }

    fn increase_indent(&mut self, flow: bool, indentless: bool) {
        self.indents.push(self.indent);
        match self.indent {
            None => self.indent = Some(if flow { BEST_INDENT } else { 0 }),
            Some(i) if !indentless => self.indent = Some(i + BEST_INDENT),
            Some(_) => {}
        }
    }

    fn pop_indent(&mut self) {
        self.indent = self.indents.pop().flatten();
    }

    fn node(&mut self, item: &Item, mapping: bool, simple_key: bool) {
        match item {
            Item::Scalar(text) => {
                self.increase_indent(true, false);
                self.scalar(*text, simple_key);
                self.pop_indent();
            }
            Item::Seq(items) if items.is_empty() || self.flow_level > 0 => {
                self.write_indicator("[", true, true, false);
                self.flow_level += 1;
                self.increase_indent(true, false);
                // Only empty sequences are written in flow style.
                self.pop_indent();
                self.flow_level -= 1;
                self.write_indicator("]", false, false, false);
            }
            Item::Map(entries) if entries.is_empty() || self.flow_level > 0 => {
                self.write_indicator("{", true, true, false);
                self.flow_level += 1;
                self.increase_indent(true, false);
                self.pop_indent();
                self.flow_level -= 1;
                self.write_indicator("}", false, false, false);
            }
            Item::Seq(items) => {
                let indentless = mapping && !self.indention;
                self.increase_indent(false, indentless);
                for (notes, item) in items {
                    self.comment_lines(&notes.before);
                    self.write_indent();
                    self.write_indicator("-", true, false, true);
                    self.owned(notes, |e| e.node(item, false, false), item.is_block());
                }
                self.pop_indent();
            }
            Item::Map(entries) => {
                self.increase_indent(false, false);
                for (notes, key, value) in entries {
                    self.comment_lines(&notes.before);
                    self.write_indent();
                    if is_simple_key(*key) {
                        self.node(&Item::Scalar(*key), true, true);
                        self.write_indicator(":", false, false, false);
                    } else {
                        self.write_indicator("?", true, false, true);
                        self.node(&Item::Scalar(*key), true, false);
                        self.write_indent();
                        self.write_indicator(":", true, false, true);
                    }
                    self.owned(notes, |e| e.node(value, true, false), value.is_block());
                }
                self.pop_indent();
            }
        }
    }

    fn scalar(&mut self, text: Text, simple_key: bool) {
        let s = match text {
            Text::Str(s) | Text::Verbatim(s) => s,
        };
        // `process_scalar`: a simple key is never split across lines.
        let split = !simple_key;
        match style(text, simple_key, self.flow_level > 0, self.style) {
            Style::Plain => self.write_plain(s, split),
            Style::Single => self.write_single_quoted(s, split),
            Style::Double => self.write_double_quoted(s, split),
        }
    }

    fn write_raw(&mut self, data: &str) {
        self.column += if data.is_ascii() {
            data.len()
        } else {
            data.chars().count()
        };
        self.out.push_str(data);
    }

    fn write_indicator(
        &mut self,
        indicator: &str,
        need_whitespace: bool,
        whitespace: bool,
        indention: bool,
    ) {
        if !self.whitespace && need_whitespace {
            self.out.push(' ');
            self.column += 1;
        }
        self.out.push_str(indicator);
        self.column += indicator.len();
        self.whitespace = whitespace;
        self.indention = self.indention && indention;
    }

    fn write_indent(&mut self) {
        let indent = self.indent.unwrap_or(0);
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.write_line_break();
        }
        if self.column < indent {
            self.whitespace = true;
            for _ in self.column..indent {
                self.out.push(' ');
            }
            self.column = indent;
        }
    }

    fn write_line_break(&mut self) {
        self.write_break(None);
    }

    /// A line break: the file's own, or (for NEL, LS, PS inside a quoted
    /// scalar) the character itself, as PyYAML writes it.
    fn write_break(&mut self, ch: Option<char>) {
        self.whitespace = true;
        self.indention = true;
        self.column = 0;
        match ch {
            Some(c) => self.out.push(c),
            None => self.out.push_str(self.newline),
        }
    }

    /// The column is past the width, and the scalar may be split there.
    fn past_width(&self, column: usize, split: bool) -> bool {
        split && self.width.is_some_and(|w| column > w)
    }

    fn write_chars(&mut self, chars: &[char]) {
        self.column += chars.len();
        self.out.extend(chars);
    }

    /// The line breaks `chars` (`\n`, NEL, LS, PS) inside a scalar, then the
    /// indentation: a leading `\n` is written twice, as folding reads a
    /// single break as a space.
    fn write_breaks(&mut self, chars: &[char]) {
        if chars.first() == Some(&'\n') {
            self.write_line_break();
        }
        for &br in chars {
            if br == '\n' {
                self.write_line_break();
            } else {
                self.write_break(Some(br));
            }
        }
        self.write_indent();
    }

    fn write_plain(&mut self, text: &str, split: bool) {
        if text.is_empty() {
            return;
        }
        if !self.whitespace {
            self.out.push(' ');
            self.column += 1;
        }
        self.whitespace = false;
        self.indention = false;
        // Plain scalars are never multi-line (analysis forbids it and
        // verbatim scalars have no breaks): without a width, or without a
        // space, the text goes out whole.
        if self.width.is_none() || !text.contains(' ') {
            self.write_raw(text);
            return;
        }
        let chars: Vec<char> = text.chars().collect();
        let mut spaces = false;
        let mut breaks = false;
        let mut start = 0;
        let mut end = 0;
        while end <= chars.len() {
            let ch = chars.get(end).copied();
            if spaces {
                if ch != Some(' ') {
                    // A single space past the width becomes a line break.
                    if start + 1 == end && self.past_width(self.column, split) {
                        self.write_indent();
                        self.whitespace = false;
                        self.indention = false;
                    } else {
                        self.write_chars(&chars[start..end]);
                    }
                    start = end;
                }
            } else if breaks {
                if !ch.is_some_and(is_break) {
                    self.write_breaks(&chars[start..end]);
                    self.whitespace = false;
                    self.indention = false;
                    start = end;
                }
            } else if ch.is_none_or(|c| c == ' ' || is_break(c)) {
                self.write_chars(&chars[start..end]);
                start = end;
            }
            if let Some(c) = ch {
                spaces = c == ' ';
                breaks = is_break(c);
            }
            end += 1;
        }
    }

    fn write_single_quoted(&mut self, text: &str, split: bool) {
        self.write_indicator("'", true, false, false);
        let chars: Vec<char> = text.chars().collect();
        let mut spaces = false;
        let mut breaks = false;
        let mut start = 0;
        let mut end = 0;
        while end <= chars.len() {
            let ch = chars.get(end).copied();
            if spaces {
                if ch != Some(' ') {
                    // A single inner space past the width becomes a line break.
                    if start + 1 == end
                        && self.past_width(self.column, split)
                        && start != 0
                        && end != chars.len()
                    {
                        self.write_indent();
                    } else {
                        self.write_chars(&chars[start..end]);
                    }
                    start = end;
                }
            } else if breaks {
                if !ch.is_some_and(is_break) {
                    self.write_breaks(&chars[start..end]);
                    start = end;
                }
            } else if ch.is_none_or(|c| c == ' ' || is_break(c) || c == '\'') && start < end {
                self.write_chars(&chars[start..end]);
                start = end;
            }
            if ch == Some('\'') {
                self.write_raw("''");
                start = end + 1;
            }
            if let Some(c) = ch {
                spaces = c == ' ';
                breaks = is_break(c);
            }
            end += 1;
        }
        self.write_indicator("'", false, false, false);
    }

    fn write_double_quoted(&mut self, text: &str, split: bool) {
        self.write_indicator("\"", true, false, false);
        let unicode = self.style.allow_unicode();
        if self.width.is_none() {
            let mut buf = String::with_capacity(text.len() + 8);
            for ch in text.chars() {
                if double_quoted_verbatim(ch, unicode) {
                    buf.push(ch);
                } else {
                    escape_double(ch, &mut buf);
                }
            }
            self.write_raw(&buf);
            self.write_indicator("\"", false, false, false);
            return;
        }
        let chars: Vec<char> = text.chars().collect();
        let mut escape = String::new();
        let mut start = 0;
        let mut end = 0;
        while end <= chars.len() {
            let ch = chars.get(end).copied();
            if ch.is_none_or(|c| !double_quoted_verbatim(c, unicode)) {
                if start < end {
                    self.write_chars(&chars[start..end]);
                    start = end;
                }
                if let Some(c) = ch {
                    escape.clear();
                    escape_double(c, &mut escape);
                    self.column += escape.len();
                    self.out.push_str(&escape);
                    start = end + 1;
                }
            }
            // Past the width, at a space or right after an escape, the line
            // ends with `\` (an escaped break, read as nothing); a space
            // that starts the next line is escaped so it is not folded away.
            if 0 < end
                && end + 1 < chars.len()
                && (ch == Some(' ') || start >= end)
                && split
                // PyYAML's `column + (end - start) > best_width`, where
                // `start` is `end + 1` right after an escape.
                && self.width.is_some_and(|w| self.column + end > w + start)
            {
                if start < end {
                    self.write_chars(&chars[start..end]);
                    start = end;
                }
                self.write_raw("\\");
                self.write_indent();
                self.whitespace = false;
                self.indention = false;
                if chars[start] == ' ' {
                    self.write_raw("\\");
                }
            }
            end += 1;
        }
        self.write_indicator("\"", false, false, false);
    }
}

fn is_break(ch: char) -> bool {
    matches!(ch, '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// How a scalar is written: verbatim text plain, a string as PyYAML
/// chooses. The emitter writes by it, and [`super::is_canonical`] reads
/// by it.
pub(crate) fn style(text: Text, simple_key: bool, in_flow: bool, text_style: TextStyle) -> Style {
    match text {
        Text::Verbatim(_) => Style::Plain,
        // NEL, LS and PS are line breaks to YAML 1.1 (PyYAML) and plain
        // characters to YAML 1.2: only their escapes (`\N`, `\L`, `\P`)
        // read the same everywhere. A deliberate difference from PyYAML in
        // the readable style; without `allow_unicode` PyYAML escapes them too.
        Text::Str(s) if !s.is_ascii() && s.contains(['\u{85}', '\u{2028}', '\u{2029}']) => {
            Style::Double
        }
        Text::Str(s) => {
            let analysis = analyze(s, text_style.allow_unicode());
            let implicit =
                crate::model::resolve::Implicit::of(s) == crate::model::resolve::Implicit::Str;
            choose_style(&analysis, implicit, simple_key, in_flow)
        }
    }
}

/// [`style`] of a string in block context, not a key, holding no byte
/// [`super::scalar::read_whole`] is true of: from its first bytes and its
/// YAML type, without reading it whole.
pub(crate) fn block_style_of_quiet(s: &str, text_style: TextStyle) -> Style {
    let Some(analysis) = super::scalar::analyze_in_block(s.as_bytes()) else {
        return style(Text::Str(s), false, false, text_style);
    };
    let implicit = crate::model::resolve::Implicit::of(s) == crate::model::resolve::Implicit::Str;
    choose_style(&analysis, implicit, false, false)
}

/// `check_simple_key` for a scalar key: not empty, on one line, and shorter
/// than 128 characters *counting its tag*: the serializer always passes the
/// key's tag, and `!!str` (5 characters) counts towards the limit.
pub(crate) fn is_simple_key(key: Text) -> bool {
    const PREPARED_STR_TAG: usize = "!!str".len();
    let s = match key {
        Text::Str(s) | Text::Verbatim(s) => s,
    };
    // Emptiness and line breaks do not depend on `allow_unicode`.
    let a = analyze(s, true);
    s.chars().count() + PREPARED_STR_TAG < 128 && !a.empty && !a.multiline
}
