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

use crate::render::{RenderOptions, render};
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
    // Compare with the canonical text in the file's own order, after the
    // differences other rules report (byte order mark, line endings,
    // trailing white space, final newline): what is left is layout.
    let in_place = render(
        ctx.file.documents,
        &RenderOptions {
            newline: "\n",
            style: ctx.file.settings.style,
            sort: false,
            ..RenderOptions::default()
        },
    );
    let text = &ctx.file.source.text;
    let body = crate::parse::without_bom(text);
    let bom = text.len() - body.len();
    let mut offset = bom;
    let mut want = in_place.split('\n');
    let lines = split_lines(body).peekable();
    for (line, len) in lines {
        let trimmed = line.trim_end_matches([' ', '\t']);
        let expected = want.next();
        let span = offset..offset + line.len();
        if expected != Some(trimmed)
            && !empty_metadata_alike(trimmed, expected)
            && !explained(out, &span)
        {
            let help = match expected {
                Some("") | None => "the canonical text ends here".to_string(),
                Some(e) => format!("canonical text: `{e}`"),
            };
            out.push(
                Finding::new(&RULE, span, "layout differs from the canonical text")
                    .help(format!(
                        "{help}; `urldb fmt` rewrites the file (`--diff` shows the change)"
                    ))
                    .fix(Fix::format("rewrite in canonical layout")),
            );
            return;
        }
        offset += len;
    }
    // The file ended early: the canonical text has more (beyond a final newline).
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

/// Whether `unloadable-value` already says why this line changes: the
/// canonical text quotes the value it found there. (Other rules' layout
/// findings are reported beside this rule's, which points at the first
/// line that differs.)
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
