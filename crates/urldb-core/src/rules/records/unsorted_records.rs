//! ## What it checks
//! Records that are not sorted by `_path` (by Unicode code point, which is
//! UTF-8 byte order).
//!
//! ## Why it matters
//! The format description asks for sorted records "to ease tracking with
//! version control": a new record lands in one predictable place, and two
//! people adding URLs rarely conflict. Sorted files also make duplicates
//! sit next to each other.
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! _path: /b
//! content-type: text/html
//! ---
//! _path: /a
//! content-type: text/html
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! ---
//! _path: /a
//! content-type: text/html
//! ---
//! _path: /b
//! content-type: text/html
//! ```
//!
//! ## Fix
//! Safe, by `urldb fmt`: records are reordered; none is changed.

use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "unsorted-records",
    summary: "records are not sorted by `_path`",
    severity: Severity::Error,
    fix: FixKind::Format,
    blocks_rewrite: false,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::No,
    check: Check::Layout(check),
};

fn check(ctx: &LayoutContext, out: &mut Vec<Finding>) {
    let paths = records(ctx.file.documents)
        .filter_map(|record| record.path_field())
        .map(|(entry, path)| (path, &entry.value.span));
    over_paths(paths, out);
}

/// The rule on each record's `_path` and its value's span, in file order:
/// what a file checked a part at a time keeps of its records
/// (`lint::streamed`).
pub(crate) fn over_paths<'a>(
    paths: impl Iterator<Item = (&'a str, &'a Span)>,
    out: &mut Vec<Finding>,
) {
    let mut previous: Option<(&str, &Span)> = None;
    for (path, span) in paths {
        if let Some((prev, prev_span)) = previous
            && path < prev
        {
            out.push(
                Finding::new(
                    &RULE,
                    span.clone(),
                    format!("record `{path}` comes after `{prev}`"),
                )
                .label(prev_span.clone(), "this record sorts after it")
                .help("records are sorted by `_path`; `urldb fmt` reorders them")
                .fix(Fix::format("sort the records")),
            );
            // One finding per out-of-place record; keep the larger path
            // as the running maximum.
            continue;
        }
        previous = Some((path, span));
    }
}
