//! ## What it checks
//! A `_path` holding a fragment: a `#` and what follows it
//! (`_path: /docs#install`, or a quoted `'/a #top'`). A `#` after a space
//! in plain YAML text starts a comment instead (`yaml-comment`).
//!
//! ## Why it matters
//! The fragment is never sent to the server: `/docs#install` and `/docs`
//! are one request. Keeping it lets one URL hide under two spellings,
//! which neither a reader nor `duplicate-path` sees.
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! _path: /docs#install
//! content-type: text/html
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! ---
//! _path: /docs
//! content-type: text/html
//! ```
//!
//! ## Fix
//! Safe, by `urldb check --fix`: everything from the `#` on is removed
//! (`/#top` becomes `/`); the server sees the same URL.
//! Not applied when the fixed path would be the URL of another record of
//! the file (it would become a `duplicate-path`): the finding stays, says
//! so, and a person keeps one of the two records.

use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "path-fragment",
    summary: "`_path` holds a `#fragment`",
    severity: Severity::Error,
    fix: FixKind::Safe,
    blocks_rewrite: false,
    blocks_request: Some(4),
    enabled: Enabled::On,
    gate: Gate::Always("the URL is not the one requested; `verify` does not request it"),
    check: Check::File {
        check,
        clean: CleanText(CLEAN),
    },
};

/// Clean text: a `_path` without `#` (`rules::clean`).
pub(crate) static CLEAN: &[Clean] = &[Clean::Value {
    key: domain::PATH,
    looks_at: LooksAt::Bytes(|b| b == b'#'),
    clean: |path, _| !path.value.contains('#'),
}];

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    for (record, entry, path) in domain::paths(ctx.documents) {
        let Some(hash) = path.find('#') else {
            continue;
        };
        let Some(at) = entry_path(record.doc, record.entries, domain::PATH) else {
            continue;
        };
        let fragment = &path[hash..];
        let without = match &path[..hash] {
            "" => "/",
            rest => rest,
        };
        out.push(
            Finding::new(
                &RULE,
                sub_span(ctx.source, &entry.value, hash..path.len()),
                format!("`_path` holds the fragment `{fragment}`"),
            )
            .help(format!(
                "the fragment is not sent to the server: write `{without}` (a literal `#` is `%23`)"
            ))
            .fix(Fix::safe(
                "remove the fragment",
                vec![Edit::SetScalar {
                    at,
                    value: Scalar::string(without),
                }],
            )),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{codes, finding, fixed, with_path};

    fn flagged(path: &str) -> bool {
        codes("example.com.yaml", &with_path(path)).contains(&"path-fragment")
    }

    #[test]
    fn flags_a_fragment() {
        assert!(flagged("/docs#install"));
        assert!(flagged("'/a #top'"));
        assert!(flagged("/a?b=c#d"));
    }

    #[test]
    fn accepts_an_escaped_hash() {
        assert!(!flagged("/a%23b"));
    }

    #[test]
    fn a_comment_is_not_a_fragment() {
        assert!(!codes("example.com.yaml", &with_path("/a #top")).contains(&"path-fragment"));
    }

    #[test]
    fn fix_removes_the_fragment() {
        assert_eq!(
            fixed("example.com.yaml", &with_path("/docs#install")),
            with_path("/docs")
        );
        assert_eq!(
            fixed("example.com.yaml", &with_path("/a?b=c#d")),
            with_path("/a?b=c")
        );
    }

    #[test]
    fn fix_keeps_the_home_page() {
        assert_eq!(
            fixed("example.com.yaml", &with_path("'/#top'")),
            with_path("/")
        );
    }

    #[test]
    fn span_is_the_fragment() {
        let text = with_path("/docs#install");
        let finding = finding(&text, "path-fragment");
        assert_eq!(&text[finding.span.clone()], "#install");
    }
}
