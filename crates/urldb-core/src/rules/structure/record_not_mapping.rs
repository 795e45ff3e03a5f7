//! ## What it checks
//! A document after the first (a record) that is not a mapping: a list, a
//! scalar, or nothing at all (a stray `---` line, or a document holding only
//! `null`).
//!
//! ## Why it matters
//! Every document after the metadata is one URL: a mapping with `_path`,
//! `content-type` and friends. A list or a bare value cannot be read as a
//! record, and an empty document is usually a doubled `---` left behind by
//! an edit or a merge. The reference tool would have crashed on it; urldb
//! reports it and does not rewrite the file.
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! ---
//! _path: /a
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
//! None: removing an empty document is easy, but a person should check
//! that no record was lost there.

use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "record-not-mapping",
    summary: "record document is not a mapping",
    severity: Severity::Error,
    fix: FixKind::None,
    blocks_rewrite: true,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::Always("no command reads the record"),
    check: Check::File {
        check,
        clean: CleanText(CLEAN),
    },
};

/// Clean text: a record of `key: value` lines is a mapping; one with no
/// line is an empty document (`rules::clean`).
pub(crate) static CLEAN: &[Clean] = &[Clean::Record(|shape| !shape.is_empty())];

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    for doc in ctx.documents.iter().skip(1) {
        let finding = match &doc.root {
            Some(root) if root.as_map().is_some() => continue,
            Some(root) if !root.is_null() => {
                let what = match &root.value {
                    Value::Seq(_) => "a sequence".to_string(),
                    Value::Scalar(s) => format!("the scalar `{}`", s.value),
                    Value::Map(_) => continue,
                };
                Finding::new(
                    &RULE,
                    root.span.clone(),
                    format!("this record is {what}, not a mapping"),
                )
                .help("a record is a mapping with at least `_path` and `content-type`")
            }
            root => {
                let span = match root {
                    Some(root) => root.span.clone(),
                    None => marker_span(ctx, &doc.span, doc.explicit_start),
                };
                let message = if root.is_some() {
                    "null document where a record should be"
                } else {
                    "empty document where a record should be"
                };
                Finding::new(&RULE, span, message).help(
                    "every document after the metadata is a record; remove the extra `---` line",
                )
            }
        };
        out.push(finding);
    }
}

/// The `---` marker of a document, or its whole span when it has none.
fn marker_span(ctx: &FileContext, span: &Span, explicit: bool) -> Span {
    let marked = ctx
        .source
        .text
        .get(span.start..)
        .is_some_and(|t| t.starts_with("---"));
    if explicit && marked {
        span.start..span.start + 3
    } else {
        span.clone()
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{check, codes, findings};

    #[test]
    fn flags_a_stray_document_marker() {
        let found = findings(
            "---\n---\n---\n_path: /a\ncontent-type: text/html\n",
            "record-not-mapping",
        );
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].span, 4..7);
        assert_eq!(found[0].message, "empty document where a record should be");
        assert_eq!(findings("---\n---\n", "record-not-mapping").len(), 1);
    }

    #[test]
    fn flags_a_null_document() {
        let found = findings("---\n---\nnull\n", "record-not-mapping");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].span, 8..12);
        assert_eq!(found[0].message, "null document where a record should be");
    }

    #[test]
    fn flags_sequences_and_scalars() {
        let found = findings("---\n---\n- _path: /a\n--- /b\n", "record-not-mapping");
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].message, "this record is a sequence, not a mapping");
        assert_eq!(
            found[1].message,
            "this record is the scalar `/b`, not a mapping"
        );
    }

    #[test]
    fn accepts_mappings() {
        let text = "---\n---\n_path: /a\ncontent-type: text/html\n---\n_path: /b\ncontent-type: text/html\n";
        assert!(!codes("example.com.yaml", text).contains(&"record-not-mapping"));
        assert!(!codes("example.com.yaml", "---\n").contains(&"record-not-mapping"));
    }

    #[test]
    fn blocks_rewriting() {
        let checked = check(b"---\n---\n");
        assert!(
            checked
                .blocked_by
                .is_some_and(|r| r.code == "record-not-mapping")
        );
    }
}
