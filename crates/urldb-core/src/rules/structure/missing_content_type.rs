//! ## What it checks
//! A record without a `content-type`, or whose `content-type` is empty
//! (`content-type:`, `~`, `null`).
//!
//! ## Why it matters
//! The media type is half of what a record says: `verify` compares it with
//! what the server answers, and a redirect is recorded as
//! `X-301-Redirect` (or another 3xx status). A record without one cannot be
//! verified; the key is often misspelled (`content_type:`, `Content-Type:`).
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! _path: /a
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
//! None: only a person (or `verify`) knows what the URL serves.

use crate::model::resolve::Implicit;
use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "missing-content-type",
    summary: "record without a `content-type`",
    severity: Severity::Error,
    fix: FixKind::None,
    blocks_rewrite: false,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::Always("`verify` refuses the record"),
    check: Check::File {
        check,
        clean: CleanText(CLEAN),
    },
};

/// Clean text: every record holds a `content-type` with a value
/// (`rules::clean`).
pub(crate) static CLEAN: &[Clean] = &[
    Clean::Record(|shape| shape.holds(domain::CONTENT_TYPE)),
    Clean::Value {
        key: domain::CONTENT_TYPE,
        // Null is empty or led by `~`, `n`, `N`.
        looks_at: LooksAt::First(Implicit::may_lead_null),
        clean: |content_type, _| !content_type.is_plain_null(),
    },
];

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    for record in records(ctx.documents) {
        let name = || record.path().map_or(String::new(), |p| format!(" `{p}`"));
        let help = "add the media type the URL serves, such as `content-type: text/html`, \
                    or `X-301-Redirect` for a redirect";
        let Some(entry) = record.get(domain::CONTENT_TYPE) else {
            let span = match record.get(domain::PATH) {
                Some(path) => path.key.span.start..path.value.span.end.max(path.key.span.end),
                None => first_line(ctx, record.node),
            };
            out.push(
                Finding::new(
                    &RULE,
                    span,
                    format!("record{} has no `content-type`", name()),
                )
                .help(help),
            );
            continue;
        };
        // An alias is a value (`yaml-alias` reports it), not an empty one.
        if !entry.value.is_null() || entry.value.alias {
            continue;
        }
        let span = entry.key.span.start..entry.value.span.end.max(entry.key.span.end);
        out.push(
            Finding::new(
                &RULE,
                span,
                format!("record{} has an empty `content-type`", name()),
            )
            .help(help),
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
    use crate::rules::test_support::{codes, findings};

    #[test]
    fn flags_a_record_without_content_type() {
        let text = "---\n---\n_path: /a\n";
        assert_eq!(codes("example.com.yaml", text), ["missing-content-type"]);
        let found = findings(text, "missing-content-type");
        assert_eq!(found[0].message, "record `/a` has no `content-type`");
        assert_eq!(found[0].span, 8..17);
    }

    #[test]
    fn flags_an_empty_content_type() {
        for text in [
            "---\n---\n_path: /a\ncontent-type:\n",
            "---\n---\n_path: /a\ncontent-type: null\n",
            "---\n---\n_path: /a\ncontent-type: ~\n",
        ] {
            let found = findings(text, "missing-content-type");
            assert_eq!(found.len(), 1, "{text}");
            assert_eq!(found[0].message, "record `/a` has an empty `content-type`");
        }
    }

    #[test]
    fn flags_a_record_without_path_either() {
        let found = findings("---\n---\nnote: x\n", "missing-content-type");
        assert_eq!(found[0].message, "record has no `content-type`");
        assert_eq!(found[0].span, 8..15);
    }

    #[test]
    fn accepts_a_content_type() {
        assert!(
            findings(
                "---\n---\n_path: /a\ncontent-type: text/html\n",
                "missing-content-type"
            )
            .is_empty()
        );
        assert!(
            findings(
                "---\n---\n_path: /a\ncontent-type: X-301-Redirect\n",
                "missing-content-type"
            )
            .is_empty()
        );
    }
}
