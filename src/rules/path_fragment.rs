//! ## What it checks
//! TODO
//!
//! ## Why it matters
//! TODO
//!
//! ## Example
//! ```yaml
//! ```
//!
//! Use instead:
//! ```yaml
//! ```
//!
//! ## Fix
//! TODO

use super::prelude::*;

pub static RULE: Rule = Rule {
    code: "path-fragment",
    summary: "TODO",
    severity: Severity::Error,
    fix: FixKind::None,
    blocks_rewrite: false,
    check: Check::File(check),
    source: include_str!("path_fragment.rs"),
};

fn check(_ctx: &FileContext, _out: &mut Vec<Finding>) {}
