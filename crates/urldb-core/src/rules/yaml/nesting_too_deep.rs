//! ## What it checks
//! Collections nested deeper than 64 levels.
//!
//! ## Why it matters
//! A domain file needs three levels. Deep nesting is a sign of a broken or
//! hostile file, and unbounded nesting exhausts the stack of recursive
//! readers; urldb stops reading the file at the limit.
//!
//! ## Example
//! ```yaml
//! ---
//! x: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]
//! ```
//!
//! Use instead: a flat structure.
//!
//! ## Fix
//! None.

use crate::rules::prelude::*;
use crate::source::Span;

pub(crate) static RULE: Rule = Rule {
    code: "nesting-too-deep",
    summary: "collections nested deeper than the limit",
    severity: Severity::Error,
    fix: FixKind::None,
    blocks_rewrite: true,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::Always(
        "`check` stopped reading the file there; `ls`, `export` and `verify` refuse it",
    ),
    check: Check::Parse,
};

pub(crate) fn finding(span: Span) -> Finding {
    Finding::new(
        &RULE,
        span,
        format!(
            "nesting deeper than {} levels; the rest of the file is not read",
            crate::parse::MAX_DEPTH
        ),
    )
    .help("a domain file needs three levels of nesting; flatten the value")
}
