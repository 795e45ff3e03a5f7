//! ## What it checks
//! Text that is not valid YAML: the parser's error, where it stopped.
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
//! None: the file is left untouched by `fmt` and `check --fix`.

use super::prelude::*;
use crate::source::Span;

pub static RULE: Rule = Rule {
    code: "yaml-syntax",
    summary: "the file is not valid YAML",
    severity: Severity::Error,
    fix: FixKind::None,
    blocks_rewrite: true,
    check: Check::Parse,
};

/// The parser stopped at `span` with `message`.
pub fn finding(span: Span, message: &str) -> Finding {
    // yaml-rust2 appends its own position ("at byte 6 line 2 column 2");
    // the report shows the position already.
    let message = message.split(" at byte ").next().unwrap_or(message);
    Finding::new(&RULE, span, format!("invalid YAML: {message}"))
        .help("fix the syntax; nothing else in this file is checked until it parses")
}
