//! ## What it checks
//! A record without a `_path`, or whose `_path` is empty (`_path:`, `~`,
//! `null`) or not a string (a list or a mapping).
//!
//! ## Why it matters
//! `_path` is what a record is about: the URL is the domain followed by
//! the path. A record without one describes no URL, cannot be sorted among
//! the others, and cannot be checked by `verify`. It is usually a record
//! split in two by a stray `---`, or a key misspelled (`path:`, `_paths:`).
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! path: /a
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
//! None: only a person knows the URL the record is about.

use crate::model::resolve::Implicit;
use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "missing-path",
    summary: "record without a `_path`",
    severity: Severity::Error,
    fix: FixKind::None,
    blocks_rewrite: true,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::Always("the record has no URL; `verify` refuses it"),
    check: Check::File {
        check,
        clean: CleanText(CLEAN),
    },
};

/// Clean text: every record holds a `_path` with a value (`rules::clean`).
pub(crate) static CLEAN: &[Clean] = &[
    Clean::Record(|shape| shape.holds(domain::PATH)),
    Clean::Value {
        key: domain::PATH,
        // Null is empty or led by `~`, `n`, `N`.
        looks_at: LooksAt::First(Implicit::may_lead_null),
        clean: |path, _| !path.is_plain_null(),
    },
];

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    for record in records(ctx.documents) {
        let Some(entry) = record.get(domain::PATH) else {
            out.push(
                Finding::new(&RULE, first_line(ctx, record.node), "record has no `_path`")
                    .help("every record starts with `_path: /...`, the URL's path on this domain"),
            );
            continue;
        };
        let message = match &entry.value.value {
            Value::Scalar(s) if !s.is_plain_null() => continue,
            // An alias is a value (`yaml-alias` reports it), not an empty one.
            Value::Scalar(_) if entry.value.alias => continue,
            Value::Scalar(_) => "`_path` is empty".to_string(),
            _ => format!("`_path` is a {}, not a string", entry.value.kind_name()),
        };
        let span = entry.key.span.start..entry.value.span.end.max(entry.key.span.end);
        out.push(
            Finding::new(&RULE, span, message)
                .help("`_path` is the URL's path on this domain, such as `/index.html`"),
        );
    }
}

/// The first line of a node: enough to point at a record.
fn first_line(ctx: &FileContext, node: &Node) -> Span {
    let start = node.span.start;
    let end = ctx
        .source
        .text
        .get(start..node.span.end)
        .and_then(|t| t.find(['\n', '\r']))
        .map_or(node.span.end, |i| start + i);
    start..end
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{check, codes, findings};

    #[test]
    fn flags_a_record_without_path() {
        let found = findings(
            "---\n---\npath: /a\ncontent-type: text/html\n",
            "missing-path",
        );
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].message, "record has no `_path`");
        assert_eq!(found[0].span, 8..16);
    }

    #[test]
    fn flags_an_empty_path() {
        for text in [
            "---\n---\n_path:\ncontent-type: text/html\n",
            "---\n---\n_path: ~\ncontent-type: text/html\n",
            "---\n---\n_path: null\ncontent-type: text/html\n",
        ] {
            let found = findings(text, "missing-path");
            assert_eq!(found.len(), 1, "{text}");
            assert_eq!(found[0].message, "`_path` is empty");
        }
    }

    #[test]
    fn flags_a_path_that_is_not_a_scalar() {
        let found = findings(
            "---\n---\n_path: [/a, /b]\ncontent-type: text/html\n",
            "missing-path",
        );
        assert_eq!(found[0].message, "`_path` is a sequence, not a string");
        assert_eq!(found[0].span, 8..23);
    }

    #[test]
    fn accepts_a_path() {
        let text = "---\n---\n_path: /a\ncontent-type: text/html\n";
        assert!(!codes("example.com.yaml", text).contains(&"missing-path"));
        // A quoted empty string is a path, just not a valid one.
        assert!(
            findings(
                "---\n---\n_path: ''\ncontent-type: text/html\n",
                "missing-path"
            )
            .is_empty()
        );
        assert!(
            findings(
                "---\n---\n_path: 404\ncontent-type: text/html\n",
                "missing-path"
            )
            .is_empty()
        );
    }

    #[test]
    fn blocks_rewriting() {
        let checked = check(b"---\n---\ncontent-type: text/html\n");
        assert!(checked.blocked_by.is_some_and(|r| r.code == "missing-path"));
    }
}
