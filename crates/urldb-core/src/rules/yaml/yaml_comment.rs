//! ## What it checks
//! A YAML comment (`# ...`) in a domain file. Off by default in the
//! readable style: select it where comments are not wanted. On by default
//! in `style = "pyyaml"`, whose users still run the reference tool.
//!
//! ## Why it matters
//! `fmt` and `check --fix` keep comments: each belongs to the record, key
//! or list item it precedes (or ends the line of) and moves with it when
//! things are sorted (`docs/format.md`, "Comments"). But the reference
//! tool rewrote files with PyYAML, which drops every comment: a team that
//! still runs it beside urldb loses them on its next write. Such a team
//! selects this rule and keeps notes in a record's extra key instead,
//! which every tool keeps.
//!
//! ## Example
//! ```toml
//! # urldb.toml
//! [lint]
//! extend-select = ["yaml-comment"]
//! ```
//!
//! ```yaml
//! ---
//! _path: /old # kept for the 2019 links
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
//! None: moving a note into a key is a person's choice. `urldb fmt
//! --drop-comments` rewrites the file without its comments.

use crate::rules::prelude::*;
use crate::source::Span;

pub(crate) static RULE: Rule = Rule {
    code: "yaml-comment",
    summary: "comment, which the reference tool (PyYAML) drops",
    severity: Severity::Error,
    fix: FixKind::None,
    blocks_rewrite: false,
    blocks_request: None,
    enabled: Enabled::OnInPyyamlStyle,
    gate: Gate::No,
    check: Check::Parse,
};

pub(crate) fn finding(span: Span) -> Finding {
    Finding::new(&RULE, span, "comment in a domain file")
        .help("move the note into an extra key (e.g. `note:`), or run `urldb fmt --drop-comments`")
}
