//! ## What it checks
//! Any difference from the canonical text that no more specific rule
//! explains: quoting, indentation, flow style (`[a, b]`), spacing, a missing
//! `---`, blank lines. Also a file whose line breaks are all of one kind,
//! but not the one `line-ending` in `urldb.toml` asks for: whatever
//! `urldb fmt --check` would rewrite, `urldb check` reports.
//!
//! ## Why it matters
//! The canonical text is what the reference tool wrote (PyYAML's
//! `dump_all(..., explicit_start=True, sort_keys=True)`). When every file
//! is canonical, a diff shows only real changes, and switching tools
//! changes nothing.
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! _path: "/a"
//! categories: [frontend]
//! content-type:   text/html
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! ---
//! _path: /a
//! categories:
//! - frontend
//! content-type: text/html
//! ```
//!
//! ## Fix
//! Safe, by `urldb fmt`: only layout changes, never a value.

use crate::model::node::Document;
use crate::render::{RenderOptions, TextStyle, render};
use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "not-canonical",
    summary: "the file's layout differs from the canonical text",
    severity: Severity::Error,
    fix: FixKind::Format,
    blocks_rewrite: false,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::No,
    check: Check::Layout(check),
};

fn check(ctx: &LayoutContext, out: &mut Vec<Finding>) {
    let in_place = in_place(ctx.file.documents, ctx.file.settings.style);
    let text = &ctx.file.source.text;
    let body = crate::parse::without_bom(text);
    let bom = text.len() - body.len();
    let mut offset = bom;
    let mut want = in_place.split('\n');
    let lines = split_lines(body).peekable();
    for (line, len) in lines {
        let expected = want.next();
        let span = offset..offset + line.len();
        if let Some(finding) = differs(line, expected, span, out) {
            out.push(finding);
            return;
        }
        offset += len;
    }
    let rest: Vec<&str> = want.filter(|l| !l.is_empty()).collect();
    if !rest.is_empty() {
        let end = text.len();
        out.push(
            Finding::new(&RULE, end..end, "layout differs from the canonical text")
                .help(format!("canonical text continues with `{}`", rest[0]))
                .fix(Fix::format("rewrite in canonical layout")),
        );
    }
}

/// The text this rule compares a file with: the documents written as
/// `fmt` writes them, but in the order they are (what is out of order is
/// said by the rules on order).
pub(crate) fn in_place(documents: &[Document], style: TextStyle) -> String {
    render(
        documents,
        &RenderOptions {
            newline: "\n",
            style,
            sort: false,
            ..RenderOptions::default()
        },
    )
}

/// The finding for `line` (at `span`) when it is not the `expected` line
/// of the text in place, and no finding in `out` explains it.
fn differs(line: &str, expected: Option<&str>, span: Span, out: &[Finding]) -> Option<Finding> {
    let trimmed = line.trim_end_matches([' ', '\t']);
    if expected == Some(trimmed) || empty_metadata_alike(trimmed, expected) || explained(out, &span)
    {
        return None;
    }
    let help = match expected {
        Some("") | None => "the canonical text ends here".to_string(),
        Some(e) => format!("canonical text: `{e}`"),
    };
    Some(
        Finding::new(&RULE, span, "layout differs from the canonical text")
            .help(format!(
                "{help}; `urldb fmt` rewrites the file (`--diff` shows the change)"
            ))
            .fix(Fix::format("rewrite in canonical layout")),
    )
}

/// This rule on one part of a file checked a part at a time
/// (`lint::streamed`): `text`, at `offset` in the file, whole lines ending
/// in `\n` with no `\r`, against `in_place`, its part of the text in
/// place. The file's comparison pairs the same lines as long as every
/// part before has as many lines as its text in place: `Ok(None)` when
/// this part does too and every line is the same, `Ok(Some)` for the
/// first line that differs, and `Err` when the part is the same as far as
/// the shorter goes (the file's comparison then goes on into the next
/// part, which only the whole file can answer).
pub(crate) fn in_part(
    text: &str,
    offset: usize,
    in_place: &str,
    out: &[Finding],
) -> Result<Option<Finding>, ()> {
    let mut want = in_place.strip_suffix('\n').ok_or(())?.split('\n');
    let mut offset = offset;
    for (line, len) in split_lines(text) {
        let Some(expected) = want.next() else {
            return Err(());
        };
        let span = offset..offset + line.len();
        if let Some(finding) = differs(line, Some(expected), span, out) {
            return Ok(Some(finding));
        }
        offset += len;
    }
    match want.next() {
        None => Ok(None),
        Some(_) => Err(()),
    }
}

fn explained(findings: &[Finding], line: &Span) -> bool {
    findings.iter().any(|f| {
        std::ptr::eq(f.rule, &crate::rules::yaml::unloadable_value::RULE)
            && f.span.start >= line.start
            && f.span.end <= line.end
    })
}

/// A finding for a file whose canonical text differs from it where no rule
/// said why (line breaks of one kind, but not the `line-ending` that
/// `urldb.toml` asks for): `check` and `fmt --check` must agree. It points
/// at the first byte that differs.
pub(crate) fn unexplained(text: &str, canonical: &str) -> Finding {
    let at = text
        .char_indices()
        .zip(canonical.chars())
        .find(|((_, a), b)| a != b)
        .map_or(text.len().min(canonical.len()), |((i, _), _)| i);
    let end = text[at..].chars().next().map_or(at, |c| at + c.len_utf8());
    let only_breaks = text.replace("\r\n", "\n") == canonical.replace("\r\n", "\n");
    let message = if only_breaks {
        "line breaks differ from the configured `line-ending`"
    } else {
        "layout differs from the canonical text"
    };
    Finding::new(&RULE, at..end, message)
        .help("`urldb fmt` rewrites the file (`--diff` shows the change)")
        .fix(Fix::format("rewrite in canonical layout"))
}

/// `---` and `--- {}` are both canonical for empty metadata.
fn empty_metadata_alike(line: &str, expected: Option<&str>) -> bool {
    matches!(
        (line, expected),
        ("---", Some("--- {}")) | ("--- {}", Some("---"))
    )
}

/// Lines without their break (any of `\n`, `\r\n`, `\r`), and the length
/// with the break.
fn split_lines(text: &str) -> impl Iterator<Item = (&str, usize)> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = rest.find(['\n', '\r']).unwrap_or(rest.len());
        let brk = if rest[end..].starts_with("\r\n") {
            2
        } else if end < rest.len() {
            1
        } else {
            0
        };
        let line = &rest[..end];
        rest = &rest[end + brk..];
        Some((line, end + brk))
    })
}
