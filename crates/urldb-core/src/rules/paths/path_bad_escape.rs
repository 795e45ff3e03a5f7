//! ## What it checks
//! A `%` in a `_path` that is not followed by two hex digits (`/100%`,
//! `/a%zz`, `/a%2`).
//!
//! ## Why it matters
//! In a URL, `%` always starts an escape. A server reading `/100%` may
//! answer 400, decode garbage, or take the `%` literally; clients differ
//! too, so `verify` tests something else than a browser would. A literal
//! percent sign is written `%25`.
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! _path: /sale-50%
//! content-type: text/html
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! ---
//! _path: /sale-50%25
//! content-type: text/html
//! ```
//!
//! ## Fix
//! None: `%zz` may be a literal percent sign (`%25zz`) or a mistyped
//! escape, and only a person knows which.

use crate::model::path::{Escape, escapes};
use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "path-bad-escape",
    summary: "`%` in `_path` is not followed by two hex digits",
    severity: Severity::Error,
    fix: FixKind::None,
    blocks_rewrite: false,
    blocks_request: Some(2),
    enabled: Enabled::On,
    gate: Gate::Always("clients rewrite the URL; `verify` does not request it"),
    check: Check::File {
        check,
        clean: CleanText(CLEAN),
    },
};

/// Clean text: a `_path` whose every `%` starts an escape (`rules::clean`).
pub(crate) static CLEAN: &[Clean] = &[Clean::Value {
    key: domain::PATH,
    looks_at: LooksAt::Bytes(|b| b == b'%'),
    clean: |path, _| escapes(path.value).all(|e| !matches!(e, Escape::Bad { .. })),
}];

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    for (_, entry, path) in domain::paths(ctx.documents) {
        for escape in escapes(path) {
            let Escape::Bad { at } = escape else {
                continue;
            };
            // The `%` and up to two characters after it, as written.
            let end = path[at + 1..]
                .char_indices()
                .nth(2)
                .map_or(path.len(), |(i, _)| at + 1 + i);
            let text = &path[at..end];
            out.push(
                Finding::new(
                    &RULE,
                    sub_span(ctx.source, &entry.value, at..end),
                    format!("`{text}` is not a percent-escape"),
                )
                .help("`%` starts an escape of two hex digits; write `%25` for a literal percent sign"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{count, finding, with_path};

    #[test]
    fn flags_a_lone_percent() {
        assert_eq!(count(&with_path("/sale-50%"), "path-bad-escape"), 1);
        assert_eq!(count(&with_path("/a%2"), "path-bad-escape"), 1);
        assert_eq!(count(&with_path("/a%zz"), "path-bad-escape"), 1);
        assert_eq!(count(&with_path("/a%g1?b"), "path-bad-escape"), 1);
    }

    #[test]
    fn flags_each_bad_percent() {
        assert_eq!(count(&with_path("/%%41%"), "path-bad-escape"), 2);
    }

    #[test]
    fn accepts_escapes() {
        assert_eq!(count(&with_path("/a%25b%2f%C3%A9"), "path-bad-escape"), 0);
    }

    #[test]
    fn span_is_the_percent_and_what_follows() {
        for (path, want) in [("/a%zzz", "%zz"), ("/a%", "%"), ("/a%é", "%é")] {
            let text = with_path(path);
            let finding = finding(&text, "path-bad-escape");
            assert_eq!(&text[finding.span.clone()], want);
        }
    }
}
