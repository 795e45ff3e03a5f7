//! What the reference tool reads: PyYAML's reading rules, in front of the
//! general parser.
//!
//! The reference tool opens a domain file in text mode and hands it to
//! PyYAML (`yaml.safe_load_all`). PyYAML's reader and scanner see some
//! characters differently from yaml-rust2 (a YAML 1.2 parser), and a file
//! urldb reads one way and PyYAML another must never pass `check`
//! (`docs/format.md`, "How urldb reads a file", has the table). So before
//! the general parser builds a tree, the text is asked what PyYAML would
//! refuse or read otherwise; such a text is not parsed, and `yaml-syntax`
//! reports why (a gate finding). The fast reader takes printable ASCII
//! alone, where there is nothing to ask.
//!
//! - A character outside PyYAML's printable set (`yaml/reader.py`,
//!   `Reader.NON_PRINTABLE`: TAB, LF, CR, U+0020–U+007E, U+0085,
//!   U+00A0–U+D7FF, U+E000–U+FFFD, U+10000–U+10FFFF), anywhere: PyYAML
//!   refuses the whole stream.
//! - NEL, LS and PS (U+0085, U+2028, U+2029), anywhere: PyYAML ends a line
//!   there, in comments and inside every kind of scalar; yaml-rust2 reads
//!   an ordinary character.
//! - Lines PyYAML refuses where yaml-rust2 reads them: a directive its
//!   scanner refuses (`directive`), a `%YAML` directive whose major
//!   version is not 1, a `%TAG` handle given twice
//!   before one document (yaml-rust2 already refuses a second `%YAML`),
//!   and a document end marker (`...`) before the first document. These
//!   are asked of a text the parser read completely, where its scalars say
//!   which lines are directives and markers.
//! - A document after the first without its `---`: YAML 1.2 starts one
//!   after `...`, PyYAML requires the marker.
//! - Inside a flow collection (`[...]`, `{...}`), a plain value holding `?`
//!   or starting with `:`, `|` or `>`: YAML 1.1 (PyYAML) ends a plain
//!   scalar there at `?`, reads `?` and `:` as the key and value
//!   indicators and refuses `|` and `>`, where yaml-rust2 reads text
//!   (`[?a]` is `[{a: null}]` for PyYAML, `["?a"]` for yaml-rust2).
//! - A key without `?` written over several lines, or with its `:` on a
//!   later line, which PyYAML refuses and yaml-rust2 reads inside a flow
//!   collection. A flow mapping's key over lines with no `:` after it
//!   (`{multi<LF> line, a: b}`: its value is null) is read by both alike.
//! - The length limits (`docs/format.md`, "Length limits"): a key without
//!   `?` whose `:` is more than [`SIMPLE_KEY_LIMIT`] characters after its
//!   start (`stale_possible_simple_keys` in PyYAML's `scanner.py`), in
//!   every context, where yaml-rust2 holds the limit in block context only;
//!   and a plain decimal integer of more than [`INT_DIGITS_LIMIT`] digits,
//!   which PyYAML's `construct_yaml_int` hands to Python's `int()`, and
//!   Python refuses (`sys.get_int_max_str_digits()`). PyYAML's reader has
//!   no other: it reads a stream in chunks, and no token's length is
//!   bounded by them.

use crate::model::node::{Document, Node, ScalarStyle, Value};
use crate::source::Span;

mod directive;

use directive::Directive;

/// Why PyYAML would not read a text as urldb does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// A character PyYAML's reader refuses; `more` of them follow.
    Unprintable { character: char, more: usize },
    /// NEL, LS or PS, which PyYAML reads as a line break; `more` follow.
    LineBreak { character: char, more: usize },
    /// `%YAML` with a major version other than 1.
    YamlVersion { major: String },
    /// A directive PyYAML's scanner refuses, and why.
    Directive { why: &'static str },
    /// A `%TAG` handle given a second time before one document.
    TagTwice { handle: String },
    /// A document end marker (`...`) before the first document.
    EndBeforeDocument,
    /// A document after the first that does not start with `---` (YAML
    /// 1.2 allows one after `...`).
    BareDocument,
    /// An implicit key (no `?`) written over several lines, or with its
    /// `:` on a later line; `more` follow.
    KeyOverLines { more: usize },
    /// A plain value inside brackets or braces holding `?`, or starting
    /// with `:`, `|` or `>`, which PyYAML reads as an indicator there or
    /// refuses; `more` follow.
    FlowIndicator { character: char, more: usize },
    /// An implicit key whose `:` is more than [`SIMPLE_KEY_LIMIT`]
    /// characters after its start; `more` follow.
    KeyTooLong { characters: usize, more: usize },
    /// A plain integer PyYAML hands to Python's `int()` with more than
    /// [`INT_DIGITS_LIMIT`] decimal digits; `more` follow.
    IntTooLong { digits: usize, more: usize },
}

/// The most characters from the start of an implicit key to its `:` that
/// PyYAML's scanner takes (`self.index-key.index > 1024` makes the key
/// stale; the `:` after it is then refused, in block and flow context).
pub(crate) const SIMPLE_KEY_LIMIT: usize = 1024;

/// The most decimal digits Python's `int()` converts by default
/// (`sys.int_info.default_max_str_digits`, Python 3.11 and the security
/// releases of 3.7–3.10); PyYAML loads a longer plain integer by calling
/// it, and fails.
pub(crate) const INT_DIGITS_LIMIT: usize = 4300;

/// PyYAML's reader refuses `c` (`Reader.NON_PRINTABLE`).
pub(crate) fn unprintable(c: char) -> bool {
    !matches!(c,
        '\t' | '\n' | '\r' | ' '..='~' | '\u{85}' | '\u{A0}'..='\u{D7FF}'
        | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// PyYAML reads `c` as a line break where yaml-rust2 does not.
pub(crate) fn breaks_line(c: char) -> bool {
    matches!(c, '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// A byte that may start one of the characters above: a C0 control but
/// TAB, LF and CR, DEL, and the lead bytes of U+0080–U+00BF (`C2`), of
/// U+2000–U+203F (`E2`) and of U+F000–U+FFFF (`EF`). Text without one
/// (nearly every file) is cleared in one pass over its bytes.
fn may_lead(b: u8) -> bool {
    (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r'))
        | (b == 0x7F)
        | (b == 0xC2)
        | (b == 0xE2)
        | (b == 0xEF)
}

/// The characters of `text` PyYAML refuses or reads as a line break: the
/// first of each kind, with how many more there are.
pub(crate) fn characters(text: &str) -> Vec<(Span, Refusal)> {
    let bytes = text.as_bytes();
    // Branch-free over chunks, so that it vectorizes.
    if bytes
        .chunks(64)
        .all(|chunk| !chunk.iter().fold(false, |seen, &b| seen | may_lead(b)))
    {
        return Vec::new();
    }
    let mut unprintable_at: Option<(usize, char)> = None;
    let mut breaks_at: Option<(usize, char)> = None;
    let (mut more_unprintable, mut more_breaks) = (0, 0);
    for (at, c) in text.char_indices() {
        if (c as u32) < 0x80 && !may_lead(c as u8) {
            continue;
        }
        if breaks_line(c) {
            match breaks_at {
                None => breaks_at = Some((at, c)),
                Some(_) => more_breaks += 1,
            }
        } else if unprintable(c) {
            match unprintable_at {
                None => unprintable_at = Some((at, c)),
                Some(_) => more_unprintable += 1,
            }
        }
    }
    let mut out = Vec::new();
    if let Some((at, character)) = unprintable_at {
        out.push((
            at..at + character.len_utf8(),
            Refusal::Unprintable {
                character,
                more: more_unprintable,
            },
        ));
    }
    if let Some((at, character)) = breaks_at {
        out.push((
            at..at + character.len_utf8(),
            Refusal::LineBreak {
                character,
                more: more_breaks,
            },
        ));
    }
    out.sort_by_key(|(span, _)| span.start);
    out
}

/// Whether `text` has a line [`lines`] must look at: one that starts with
/// `%` or `...`.
pub(crate) fn has_marked_lines(text: &str) -> bool {
    let bytes = text.as_bytes();
    memchr::memchr(b'%', bytes).is_some() || memchr::memmem::find(bytes, b"...").is_some()
}

/// The directives and markers PyYAML refuses in `text`, which the parser
/// read completely: `document_starts` are where its documents start,
/// `scalars` its scalars' spans (a line in one is no directive), both in
/// text order.
pub(crate) fn lines(
    text: &str,
    document_starts: &[usize],
    scalars: &[Span],
) -> Vec<(Span, Refusal)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    // The handles seen before the document the directives precede.
    let mut handles: Vec<(usize, String)> = Vec::new();
    let mut line_start = 0;
    while line_start < bytes.len() {
        let line_end = memchr::memchr2(b'\n', b'\r', &bytes[line_start..])
            .map_or(bytes.len(), |i| line_start + i);
        let in_scalar = {
            let after = scalars.partition_point(|s| s.start <= line_start);
            after > 0 && line_start < scalars[after - 1].end
        };
        let first_document = document_starts.first().copied().unwrap_or(usize::MAX);
        let rest = &bytes[line_start..line_end];
        if !in_scalar
            && line_start < first_document
            && rest.starts_with(b"...")
            && rest.get(3).is_none_or(|b| matches!(b, b' ' | b'\t'))
        {
            out.push((line_start..line_start + 3, Refusal::EndBeforeDocument));
        }
        if bytes[line_start] == b'%' && !in_scalar {
            let span = line_start..line_end;
            let document = document_starts.partition_point(|&d| d <= line_start);
            match directive::read(&text[span.clone()]) {
                Err(why) => out.push((span, Refusal::Directive { why })),
                Ok(Directive::Yaml { major }) => {
                    if major.trim_start_matches('0') != "1" {
                        out.push((span, Refusal::YamlVersion { major }));
                    }
                }
                Ok(Directive::Tag { handle }) => {
                    if handles.iter().any(|(d, h)| *d == document && *h == handle) {
                        out.push((span, Refusal::TagTwice { handle }));
                    } else {
                        handles.push((document, handle));
                    }
                }
                Ok(Directive::Other) => {}
            }
        }
        line_start = line_end + 1;
    }
    out
}

/// The first document after the first one that does not start with
/// `---`.
pub(crate) fn bare_document(documents: &[Document]) -> Option<(Span, Refusal)> {
    let bare = documents.iter().skip(1).find(|d| !d.explicit_start)?;
    let at = bare.root.as_ref().map_or(bare.span.start, |r| r.span.start);
    Some((at..at, Refusal::BareDocument))
}

/// What PyYAML reads otherwise among the nodes of `documents` (of
/// `text`): plain values inside flow collections that PyYAML reads as
/// indicators, and implicit keys over several lines; the first of each,
/// with how many more.
pub(crate) fn nodes(text: &str, documents: &[Document]) -> Vec<(Span, Refusal)> {
    #[derive(Default)]
    struct Found {
        flow: Vec<(Span, char)>,
        keys: Vec<Span>,
        long_keys: Vec<(Span, usize)>,
        long_ints: Vec<(Span, usize)>,
    }
    fn walk(text: &str, node: &Node, in_flow: bool, found: &mut Found) {
        match &node.value {
            Value::Scalar(s) => {
                if s.style == ScalarStyle::Plain
                    && let Some(digits) = int_digits_over_limit(&s.value)
                {
                    found.long_ints.push((node.span.clone(), digits));
                }
                if in_flow && s.style == ScalarStyle::Plain {
                    let c = match s.value.chars().next() {
                        Some(c @ (':' | '|' | '>')) => Some(c),
                        _ => s.value.contains('?').then_some('?'),
                    };
                    if let Some(c) = c {
                        found.flow.push((node.span.clone(), c));
                    }
                }
            }
            Value::Seq(items) => {
                for item in items {
                    walk(text, item, in_flow || node.flow, found);
                }
            }
            Value::Map(entries) => {
                for e in entries {
                    let key = text.get(e.key.span.clone()).unwrap_or_default();
                    // A key over lines with no `:` after it (`{multi
                    // line, a: b}`, a key whose value is null) is no
                    // simple key to PyYAML, which reads it as urldb does.
                    // (yaml-rust2's span of a plain key over lines takes
                    // in its `:`.)
                    let over_lines = (key.contains(['\n', '\r'])
                        && (key.ends_with(':') || value_indicator_after(text, e.key.span.end)))
                        || value_indicator_below(text, e.key.span.end);
                    if over_lines && !explicit_key(text, e.key.span.start) {
                        found.keys.push(e.key.span.clone());
                    } else if let Some(characters) = key_over_limit(text, &e.key.span)
                        && !explicit_key(text, e.key.span.start)
                    {
                        found.long_keys.push((e.key.span.clone(), characters));
                    }
                    walk(text, &e.key, in_flow || node.flow, found);
                    walk(text, &e.value, in_flow || node.flow, found);
                }
            }
        }
    }
    let mut found = Found::default();
    for root in documents.iter().filter_map(|d| d.root.as_ref()) {
        walk(text, root, false, &mut found);
    }
    let mut out = Vec::new();
    let flow_more = found.flow.len().saturating_sub(1);
    if let Some((span, character)) = found.flow.into_iter().next() {
        out.push((
            span,
            Refusal::FlowIndicator {
                character,
                more: flow_more,
            },
        ));
    }
    let keys_more = found.keys.len().saturating_sub(1);
    if let Some(span) = found.keys.into_iter().next() {
        out.push((span, Refusal::KeyOverLines { more: keys_more }));
    }
    let long_more = found.long_keys.len().saturating_sub(1);
    if let Some((span, characters)) = found.long_keys.into_iter().next() {
        out.push((
            span,
            Refusal::KeyTooLong {
                characters,
                more: long_more,
            },
        ));
    }
    let ints_more = found.long_ints.len().saturating_sub(1);
    if let Some((span, digits)) = found.long_ints.into_iter().next() {
        out.push((
            span,
            Refusal::IntTooLong {
                digits,
                more: ints_more,
            },
        ));
    }
    out
}

/// The key at `key` (one line) is followed, after spaces only, by its `:`
/// more than [`SIMPLE_KEY_LIMIT`] characters after its start: how many.
/// PyYAML measures in characters of the decoded text, from the key's
/// first character (a quote, a bracket) to the `:`, the spaces before it
/// included; a key with no `:` (`{k}`, a single key of a flow mapping) is
/// no simple key to it.
fn key_over_limit(text: &str, key: &Span) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut colon = key.end;
    while bytes.get(colon) == Some(&b' ') {
        colon += 1;
    }
    // Bytes are at least as many as characters: nearly every key stops here.
    if colon - key.start <= SIMPLE_KEY_LIMIT || bytes.get(colon) != Some(&b':') {
        return None;
    }
    let characters = text.get(key.start..colon)?.chars().count();
    (characters > SIMPLE_KEY_LIMIT).then_some(characters)
}

/// The plain scalar `value` is an integer to PyYAML that it converts with
/// Python's `int()` in base 10 (`construct_yaml_int`: `_` taken out, the
/// sign, then `0b`, `0x` and a leading `0` are other bases, and each part
/// of `1:30` is converted on its own), with a part of more than
/// [`INT_DIGITS_LIMIT`] digits: how many.
fn int_digits_over_limit(value: &str) -> Option<usize> {
    if value.len() <= INT_DIGITS_LIMIT
        || crate::model::resolve::Implicit::of(value) != crate::model::resolve::Implicit::Int
    {
        return None;
    }
    let digits: String = value.chars().filter(|&c| c != '_').collect();
    let digits = digits.trim_start_matches(['-', '+']);
    if digits.starts_with('0') {
        return None;
    }
    let longest = digits.split(':').map(str::len).max().unwrap_or(0);
    (longest > INT_DIGITS_LIMIT).then_some(longest)
}

/// After a key that ends at `at`, its `:` is on a later line (only blanks,
/// line breaks and comments between): PyYAML keeps a key without `?` on
/// one line with its `:`.
fn value_indicator_below(text: &str, at: usize) -> bool {
    let bytes = text.as_bytes();
    let mut i = at;
    let mut broke = false;
    while let Some(&b) = bytes.get(i) {
        match b {
            b' ' | b'\t' => i += 1,
            b'\n' | b'\r' => {
                broke = true;
                i += 1;
            }
            b'#' if broke || i == 0 || matches!(bytes[i - 1], b' ' | b'\t') => {
                i = memchr::memchr2(b'\n', b'\r', &bytes[i..]).map_or(bytes.len(), |n| i + n);
            }
            _ => return broke && b == b':',
        }
    }
    false
}

/// After a key that ends at `at`, its `:` follows (only blanks, line
/// breaks and comments between).
fn value_indicator_after(text: &str, at: usize) -> bool {
    let bytes = text.as_bytes();
    let mut i = at;
    while let Some(&b) = bytes.get(i) {
        match b {
            b' ' | b'\t' | b'\n' | b'\r' => i += 1,
            b'#' if i == 0 || matches!(bytes[i - 1], b' ' | b'\t' | b'\n' | b'\r') => {
                i = memchr::memchr2(b'\n', b'\r', &bytes[i..]).map_or(bytes.len(), |n| i + n);
            }
            _ => return b == b':',
        }
    }
    false
}

/// The key at `at` follows a `?` indicator (an explicit key, which may
/// span lines): before it only blanks and line breaks, back to a `?` at a
/// line's start or after a blank or a flow indicator.
fn explicit_key(text: &str, at: usize) -> bool {
    let bytes = text.as_bytes();
    let mut i = at;
    while i > 0 && matches!(bytes[i - 1], b' ' | b'\t' | b'\n' | b'\r') {
        i -= 1;
    }
    // A block scalar's span starts at its text: its header (`|`, `>-`,
    // `|2`) is between it and the `?` (the YAML test suite's 5WE3).
    let header_end = i;
    while i > 0 && matches!(bytes[i - 1], b'-' | b'+' | b'0'..=b'9') {
        i -= 1;
    }
    if i > 0 && matches!(bytes[i - 1], b'|' | b'>') {
        i -= 1;
        while i > 0 && matches!(bytes[i - 1], b' ' | b'\t') {
            i -= 1;
        }
    } else {
        i = header_end;
    }
    // Node properties (a tag, an anchor: `? !!str a`, the YAML test
    // suite's L94M) stand between the `?` and the key's text too; a node
    // has at most one of each.
    for _ in 0..2 {
        let mut start = i;
        while start > 0 && matches!(bytes[start - 1], b' ' | b'\t' | b'\n' | b'\r') {
            start -= 1;
        }
        let end = start;
        while start > 0 && !matches!(bytes[start - 1], b' ' | b'\t' | b'\n' | b'\r') {
            start -= 1;
        }
        if start < end && matches!(bytes[start], b'!' | b'&') {
            i = start;
        } else {
            break;
        }
    }
    while i > 0 && matches!(bytes[i - 1], b' ' | b'\t' | b'\n' | b'\r') {
        i -= 1;
    }
    i > 0
        && bytes[i - 1] == b'?'
        && (i == 1
            || matches!(
                bytes[i - 2],
                b' ' | b'\t' | b'\n' | b'\r' | b'[' | b'{' | b','
            ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The printable set is PyYAML's `NON_PRINTABLE`, every code point.
    #[test]
    fn the_printable_set_is_pyyamls() {
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            let pyyaml_takes = matches!(c as u32,
                0x09 | 0x0A | 0x0D | 0x20..=0x7E | 0x85 | 0xA0..=0xD7FF | 0xE000..=0xFFFD
                | 0x10000..=0x10FFFF);
            assert_eq!(unprintable(c), !pyyaml_takes, "U+{:04X}", c as u32);
            let mut buf = [0; 4];
            let lead = c.encode_utf8(&mut buf).as_bytes()[0];
            if unprintable(c) || breaks_line(c) {
                assert!(may_lead(lead), "U+{:04X} is not looked at", c as u32);
            }
        }
    }

    #[test]
    fn the_first_of_each_kind_and_how_many_more() {
        let found = characters("a\u{7}b\u{2028}c\u{1}d\u{85}e\u{2029}");
        assert_eq!(
            found,
            vec![
                (
                    1..2,
                    Refusal::Unprintable {
                        character: '\u{7}',
                        more: 1
                    }
                ),
                (
                    3..6,
                    Refusal::LineBreak {
                        character: '\u{2028}',
                        more: 2
                    }
                ),
            ]
        );
        assert!(characters("plain ascii, tabs\tand\r\nbreaks, é, 日本, 😀, \u{a0}").is_empty());
    }

    #[test]
    fn directives_pyyaml_refuses() {
        let text = "...\n%YAML 2.0\n%TAG !e! a:\n%TAG !e! b:\n---\nk: v\n...\n%TAG !e! c:\n%YAML 1.3\n---\n";
        let starts = [text.find("---").unwrap(), text.rfind("---").unwrap()];
        let found: Vec<Refusal> = lines(text, &starts, &[])
            .into_iter()
            .map(|(_, r)| r)
            .collect();
        assert_eq!(
            found,
            vec![
                Refusal::EndBeforeDocument,
                Refusal::YamlVersion { major: "2".into() },
                Refusal::TagTwice {
                    handle: "!e!".into()
                },
            ]
        );
    }
}
