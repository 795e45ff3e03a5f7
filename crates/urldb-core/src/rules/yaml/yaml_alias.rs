//! ## What it checks
//! YAML anchors (`&name`) and aliases (`*name`).
//!
//! ## Why it matters
//! An alias makes one value appear in several places. Rewriting the file
//! would either expand it (changing the text in ways nobody asked for) or
//! keep it (the canonical text has none). Aliases are also how "billion
//! laughs" files blow up loaders; urldb never expands them.
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! _path: /a
//! categories: &common
//! - frontend
//! content-type: text/html
//! ---
//! _path: /b
//! categories: *common
//! content-type: text/html
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
//! ---
//! _path: /b
//! categories:
//! - frontend
//! content-type: text/html
//! ```
//!
//! ## Fix
//! None: write the value out where it is used.

use crate::rules::prelude::*;
use crate::source::Span;

pub(crate) static RULE: Rule = Rule {
    code: "yaml-alias",
    summary: "anchors and aliases do not survive a canonical rewrite",
    severity: Severity::Error,
    fix: FixKind::None,
    blocks_rewrite: true,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::Always("urldb reads an alias as an empty value, PyYAML as the value it names"),
    check: Check::Parse,
};

pub(crate) fn anchor(span: Span, name: Option<&str>) -> Finding {
    let message = match name {
        Some(name) => format!("anchor `&{name}`"),
        None => "anchor".to_string(),
    };
    Finding::new(&RULE, span, message).help("write the value out in full where it is used")
}

pub(crate) fn alias(span: Span) -> Finding {
    Finding::new(&RULE, span, "alias")
        .help("write the value out in full instead of referring to an anchor")
}
