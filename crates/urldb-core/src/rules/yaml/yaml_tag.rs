//! ## What it checks
//! Explicit YAML tags such as `!!str`, `!!int` or `!custom`.
//!
//! ## Why it matters
//! The canonical text has no tags: the type of every field is fixed by the
//! format, and string fields are read by their text. A tag would be lost
//! in a rewrite, or change what another YAML tool loads.
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! _path: !!str /a
//! content-type: text/html
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
//! None: remove the tag (quote the value if it must stay a string).

use crate::rules::prelude::*;
use crate::source::Span;

pub(crate) static RULE: Rule = Rule {
    code: "yaml-tag",
    summary: "tags do not survive a canonical rewrite",
    severity: Severity::Error,
    fix: FixKind::None,
    blocks_rewrite: true,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::Always(
        "urldb reads the value without its tag, PyYAML with it (or refuses the file)",
    ),
    check: Check::Parse,
};

pub(crate) fn finding(span: Span, tag: &str) -> Finding {
    Finding::new(&RULE, span, format!("explicit tag `{tag}`"))
        .help("remove the tag; quote the value if it must be read as a string")
}
