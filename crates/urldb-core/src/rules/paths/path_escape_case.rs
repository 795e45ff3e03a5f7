//! ## What it checks
//! A percent-escape in a `_path` written with lowercase hex digits
//! (`%2f`, `%c3%a9`).
//!
//! ## Why it matters
//! `%2f` and `%2F` are the same byte, so two spellings of one URL can sit
//! side by side unnoticed, and every URL tool (url-normalize among them)
//! writes uppercase. One spelling keeps the database searchable.
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! _path: /caf%c3%a9
//! content-type: text/html
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! ---
//! _path: /caf%C3%A9
//! content-type: text/html
//! ```
//!
//! ## Fix
//! Safe, by `urldb check --fix`: the hex digits are uppercased (the URL is
//! the same).
//! Not applied when the fixed path would be the URL of another record of
//! the file (it would become a `duplicate-path`): the finding stays, says
//! so, and a person keeps one of the two records.

use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "path-escape-case",
    summary: "percent-escape with lowercase hex digits",
    severity: Severity::Error,
    fix: FixKind::Safe,
    blocks_rewrite: false,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::No,
    check: Check::File {
        check,
        clean: CleanText(CLEAN),
    },
};

/// Clean text: a `_path` whose escapes (of characters that need one) have
/// uppercase hex digits (`rules::clean`).
pub(crate) static CLEAN: &[Clean] = &[Clean::Value {
    key: domain::PATH,
    looks_at: LooksAt::Bytes(|b| b == b'%'),
    clean: |path, _| clean(path.value),
}];

fn clean(path: &str) -> bool {
    crate::model::path::escapes(path).all(|escape| match escape {
        crate::model::path::Escape::Valid { at, byte } => {
            crate::model::path::is_unreserved(byte)
                || !path[at..at + 3].bytes().any(|b| b.is_ascii_lowercase())
        }
        crate::model::path::Escape::Bad { .. } => true,
    })
}

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    for (record, entry, path) in domain::paths(ctx.documents) {
        // No escape, nothing to uppercase (and nothing to allocate).
        if memchr::memchr(b'%', path.as_bytes()).is_none() {
            continue;
        }
        let fixed = uppercase_escapes(path);
        if fixed == path {
            continue;
        }
        let Some(at) = entry_path(record.doc, record.entries, domain::PATH) else {
            continue;
        };
        for escape in crate::model::path::escapes(path) {
            let crate::model::path::Escape::Valid { at: i, byte } = escape else {
                continue;
            };
            // `%7e` is an escape that should not be there at all:
            // `path-unneeded-escape` says so.
            if crate::model::path::is_unreserved(byte) {
                continue;
            }
            let text = &path[i..i + 3];
            if text == text.to_ascii_uppercase() {
                continue;
            }
            let upper = text.to_ascii_uppercase();
            out.push(
                Finding::new(
                    &RULE,
                    sub_span(ctx.source, &entry.value, i..i + 3),
                    format!("percent-escape `{text}` has lowercase hex digits"),
                )
                .help(format!("write `{upper}`: escapes use uppercase hex"))
                .fix(Fix::safe(
                    "uppercase the percent-escapes",
                    vec![Edit::SetScalar {
                        at: at.clone(),
                        value: Scalar::string(fixed.clone()),
                    }],
                )),
            );
        }
    }
}

/// The path with the hex digits of every valid escape uppercased.
pub(crate) fn uppercase_escapes(path: &str) -> String {
    let mut out = path.to_string();
    for escape in crate::model::path::escapes(path) {
        if let crate::model::path::Escape::Valid { at, .. } = escape {
            let upper = path[at..at + 3].to_ascii_uppercase();
            out.replace_range(at..at + 3, &upper);
        }
    }
    out
}
