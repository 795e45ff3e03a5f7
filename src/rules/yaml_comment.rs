//! ## What it checks
//! A YAML comment (`# ...`) in a domain file.
//!
//! ## Why it matters
//! The canonical text has no comments: the reference tool rewrote files
//! with PyYAML, which drops them. urldb never drops one silently, so a
//! comment blocks `fmt` and `check --fix` on its file. Keep notes in a
//! record's extra key (`note: ...`) instead, where they survive rewrites.
//!
//! ## Example
//! ```yaml
//! ---
//! _path: /old  # kept for the 2019 links
//! content-type: text/html
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! _path: /old
//! content-type: text/html
//! note: kept for the 2019 links
//! ```
//!
//! ## Fix
//! None. `urldb fmt --drop-comments` rewrites the file without its comments.

use super::prelude::*;
use crate::source::Span;

pub static RULE: Rule = Rule {
    code: "yaml-comment",
    summary: "comments do not survive a canonical rewrite",
    severity: Severity::Error,
    fix: FixKind::None,
    blocks_rewrite: true,
    check: Check::Parse,
};

pub fn finding(span: Span) -> Finding {
    Finding::new(&RULE, span, "comment in a domain file")
        .help("move the note into an extra key (e.g. `note:`), or run `urldb fmt --drop-comments`")
}
