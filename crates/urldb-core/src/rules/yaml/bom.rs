//! ## What it checks
//! A UTF-8 byte order mark (the bytes `EF BB BF`) at the start of a domain
//! file.
//!
//! ## Why it matters
//! UTF-8 needs no byte order mark. Some editors add one silently; the
//! reference tool never wrote one, so the file differs from its canonical
//! text and some YAML tools read the mark as part of the first key.
//!
//! ## Example
//! ```yaml
//! <U+FEFF>---
//! https: true
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! https: true
//! ```
//!
//! ## Fix
//! Safe, by `urldb fmt`: the mark is removed.

use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "bom",
    summary: "file starts with a byte order mark",
    severity: Severity::Error,
    fix: FixKind::Format,
    blocks_rewrite: false,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::No,
    check: Check::Text(check),
};

fn check(ctx: &TextContext, out: &mut Vec<Finding>) {
    if !ctx.raw.starts_with(b"\xEF\xBB\xBF") {
        return;
    }
    out.push(
        Finding::new(&RULE, 0..3, "the file starts with a UTF-8 byte order mark")
            .help("UTF-8 files need no byte order mark; `urldb fmt` removes it")
            .fix(Fix::format("remove the byte order mark")),
    );
}
