//! ## What it checks
//! Text that is not valid YAML: the parser's error, where it stopped.
//!
//! Text that PyYAML (the reference tool) refuses, or reads otherwise, is
//! reported here too, though YAML 1.2 and urldb's parser may read it
//! (`docs/format.md`, "How urldb reads a file", has the whole table):
//!
//! - a character outside PyYAML's printable set (a control character,
//!   DEL, U+FFFE, U+FFFF), anywhere, comments included;
//! - NEL, LS or PS (U+0085, U+2028, U+2029) written raw, anywhere: PyYAML
//!   reads a line break there, so a comment can hide a record from urldb
//!   (`# note<LS>---<LS>_path: ...`) and a value can end early;
//! - `%YAML` with a major version other than 1, a `%TAG` handle given
//!   twice, `...` before the first document, a document after `...`
//!   without its own `---`, and inside `[...]` or `{...}` a plain value
//!   holding `?` or starting with `:`, `|` or `>`;
//! - a key without `?` whose `:` is more than 1,024 characters after its
//!   start, in block and flow context alike (PyYAML's simple-key limit),
//!   and a plain integer of more than 4,300 decimal digits (which PyYAML
//!   hands to Python's `int()`, which refuses it);
//! - a tab PyYAML refuses: PyYAML takes a tab only inside quotes, inside a
//!   comment, and in a block scalar's text after its indentation; anywhere
//!   else (before a comment, after a value, in indentation, between flow
//!   items, in a plain value) it stops with "found character '\t' that
//!   cannot start any token". A quoted value continued on a line that
//!   starts with a tab is read by both. `_path: /a` then a tab then
//!   `# note`, for instance, is such a line.
//!
//!
//! A file that still holds the conflict markers of a merge (a line that
//! starts with `<<<<<<<`) is reported as an unresolved merge conflict, at
//! its first marker, before anything else is read.
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
//! file is left untouched by `fmt` and `check --fix`. Write NEL, LS and PS
//! as `\N`, `\L` and `\P` inside double quotes, and any other character
//! PyYAML refuses as an escape there (`"\x07"`), or delete it.

use crate::model::node::Document;
use crate::parse::Refusal;
use crate::rules::prelude::*;
use crate::source::Span;

pub(crate) static RULE: Rule = Rule {
    code: "yaml-syntax",
    summary: "the file is not valid YAML",
    severity: Severity::Error,
    // Most findings have no fix; a tab PyYAML refuses in a file that
    // parsed carries `fmt`'s rewrite (see "Fix" above).
    fix: FixKind::None,
    blocks_rewrite: true,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::Always(
        "PyYAML and every urldb command refuse the file, or PyYAML would read it otherwise (a tab, a control character, NEL, LS or PS, a directive)",
    ),
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

/// The first line of a text that starts with `<<<<<<<`: a merge left
/// unresolved (git's conflict markers), said as such rather than as the
/// YAML error the markers make.
pub(crate) fn unresolved_merge(text: &str) -> Option<Finding> {
    let bytes = text.as_bytes();
    // `<` is rare in a domain file and `\n` is not: a search for the one
    // byte has no candidates to verify, where one for the pair has every
    // line break (a million records: 57 M instructions, 9 M fewer so).
    let at = memchr::memchr_iter(b'<', bytes)
        .find(|&at| (at == 0 || bytes[at - 1] == b'\n') && bytes[at..].starts_with(b"<<<<<<<"))?;
    let end = text[at..].find(['\n', '\r']).map_or(text.len(), |n| at + n);
    let line = bytes[..at].iter().filter(|b| **b == b'\n').count() + 1;
    Some(
        Finding::new(
            &RULE,
            at..end,
            format!(
                "unresolved merge conflict: the conflict markers of a merge are still in the \
                 file (from line {line})"
            ),
        )
        .help(
            "between `<<<<<<<` and `>>>>>>>` keep the lines you want and delete the marker \
             lines, then `git add` the file (`git checkout --ours FILE` or `--theirs FILE` takes \
             one side whole); `urldb install-hook --merge-driver` has git merge domain files \
             by records, so that only what both sides changed conflicts (docs/git.md, \
             \"Merging\")",
        ),
    )
}

/// What PyYAML would refuse or read otherwise, at `span`
/// (`crate::parse::reader`): the text is not read.
pub(crate) fn refused(span: Span, refusal: &Refusal) -> Finding {
    let more = |n: usize| match n {
        0 => String::new(),
        1 => " (and 1 more in the file)".to_string(),
        n => format!(" (and {n} more in the file)"),
    };
    let (message, help) = match refusal {
        Refusal::Unprintable { character, more: n } => (
            format!(
                "PyYAML refuses the character {} anywhere in a file{}",
                code_point(*character),
                more(*n)
            ),
            format!(
                "delete it; inside double quotes an escape (`{}`) writes the character",
                escape_of(*character)
            ),
        ),
        Refusal::LineBreak { character, more: n } => (
            format!(
                "PyYAML reads a line break here ({}), where urldb and YAML 1.2 read a character{}",
                code_point(*character),
                more(*n)
            ),
            format!(
                "write `{}` inside double quotes for the character, or a line break for a new line",
                escape_of(*character)
            ),
        ),
        Refusal::YamlVersion { major } => (
            format!(
                "PyYAML refuses `%YAML {}.x`: it reads YAML 1.x only",
                crate::text::escape(major)
            ),
            "write `%YAML 1.1`, or delete the directive".to_string(),
        ),
        Refusal::Directive { why } => (
            format!("PyYAML refuses this directive: {why}"),
            "write `%YAML 1.1` or `%TAG !handle! prefix`, or delete the line".to_string(),
        ),
        Refusal::TagTwice { handle } => (
            format!(
                "PyYAML refuses the `%TAG` handle `{}` given twice before one document",
                crate::text::escape(handle)
            ),
            "delete one of the two `%TAG` lines".to_string(),
        ),
        Refusal::FlowIndicator { character, more: n } => (
            match character {
                '?' => format!(
                    "PyYAML reads `?` inside brackets or braces as a key indicator, not as text{}",
                    more(*n)
                ),
                ':' => format!(
                    "PyYAML reads `:` at the start of a value inside brackets or braces as a \
                     value indicator, not as text{}",
                    more(*n)
                ),
                c => format!(
                    "PyYAML refuses a value that starts with `{c}` inside brackets or braces{}",
                    more(*n)
                ),
            },
            "quote the value".to_string(),
        ),
        Refusal::KeyOverLines { more: n } => (
            format!(
                "PyYAML refuses a key written over several lines, or apart from its `:`, \
                 without `?`{}",
                more(*n)
            ),
            "write the key on one line".to_string(),
        ),
        Refusal::KeyTooLong {
            characters,
            more: n,
        } => (
            format!(
                "PyYAML refuses a key without `?` whose `:` comes {characters} characters after \
                 its start: it takes at most {}{}",
                crate::parse::SIMPLE_KEY_LIMIT,
                more(*n)
            ),
            "shorten the key, or write it as an explicit key (`? key`, then `: value`)".to_string(),
        ),
        Refusal::IntTooLong { digits, more: n } => (
            format!(
                "PyYAML reads this plain value as an integer of {digits} digits, which Python \
                 refuses to convert (at most {} digits){}",
                crate::parse::INT_DIGITS_LIMIT,
                more(*n)
            ),
            "quote the value to keep it text".to_string(),
        ),
        Refusal::BareDocument => (
            "PyYAML refuses a document after `...` that does not start with `---`".to_string(),
            "start the document with a `---` line".to_string(),
        ),
        Refusal::EndBeforeDocument => (
            "PyYAML refuses a document end marker (`...`) before the first document".to_string(),
            "delete the `...` line".to_string(),
        ),
    };
    Finding::new(&RULE, span, message).help(help)
}

/// `U+2028`, as a finding names a character it must not print.
fn code_point(c: char) -> String {
    format!("U+{:04X}", c as u32)
}

/// The escape that writes `c` in a double-quoted scalar.
fn escape_of(c: char) -> String {
    match c {
        '\u{0}' => "\\0".to_string(),
        '\u{85}' => "\\N".to_string(),
        '\u{2028}' => "\\L".to_string(),
        '\u{2029}' => "\\P".to_string(),
        c if (c as u32) < 0x100 => format!("\\x{:02X}", c as u32),
        c => format!("\\u{:04X}", c as u32),
    }
}

/// The tabs PyYAML refuses in `text` ([`crate::parse::refused_tabs`]), one
/// finding per line; each carries the rewrite that writes spaces instead
/// (`fmt`). `documents` and `comments` are the parse of `text`, complete.
pub(crate) fn refused_tabs(
    text: &str,
    documents: &[Document],
    comments: &[Span],
    out: &mut Vec<Finding>,
) {
    out.extend(
        crate::parse::refused_tabs(text, documents, comments)
            .into_iter()
            .map(tab),
    );
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
