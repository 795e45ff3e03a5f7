//! ## What it checks
//! A record's `categories` that are not sorted by Unicode code point.
//!
//! ## Why it matters
//! The reference tool wrote categories sorted, so that is the canonical
//! text. One order makes records easy to compare and keeps a diff to the
//! category that was really added or removed.
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! _path: /a
//! categories:
//! - frontend
//! - coreapp
//! content-type: text/html
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! ---
//! _path: /a
//! categories:
//! - coreapp
//! - frontend
//! content-type: text/html
//! ```
//!
//! ## Fix
//! Safe, by `urldb fmt`: the categories are reordered; none is changed.

use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "unsorted-categories",
    summary: "`categories` are not sorted",
    severity: Severity::Error,
    fix: FixKind::Format,
    blocks_rewrite: false,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::No,
    check: Check::Layout(check),
};

fn check(ctx: &LayoutContext, out: &mut Vec<Finding>) {
    for record in records(ctx.file.documents) {
        let Some(entry) = record.get(domain::CATEGORIES) else {
            continue;
        };
        let Some(items) = entry.value.as_seq() else {
            continue;
        };
        // The renderer sorts a list of scalars only (anything else is
        // `invalid-categories`' finding).
        let Some(texts) = items
            .iter()
            .map(|n| n.as_scalar().map(|s| s.value.as_str()))
            .collect::<Option<Vec<&str>>>()
        else {
            continue;
        };
        let Some(i) = (1..texts.len()).find(|&i| texts[i] < texts[i - 1]) else {
            continue;
        };
        out.push(
            Finding::new(
                &RULE,
                items[i].span.clone(),
                format!("category `{}` comes after `{}`", texts[i], texts[i - 1]),
            )
            .label(items[i - 1].span.clone(), "this category sorts after it")
            .help("categories are sorted by code point; `urldb fmt` reorders them")
            .fix(Fix::format("sort the categories")),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{count, finding, fixed, with_categories};

    #[test]
    fn flags_unsorted_categories() {
        assert_eq!(
            count(
                &with_categories("- frontend\n- coreapp\n"),
                "unsorted-categories"
            ),
            1
        );
    }

    #[test]
    fn one_finding_per_list() {
        assert_eq!(
            count(&with_categories("- c\n- b\n- a\n"), "unsorted-categories"),
            1
        );
    }

    #[test]
    fn flags_flow_lists() {
        let text = "---\n---\n_path: /a\ncategories: [b, a]\ncontent-type: text/html\n";
        assert_eq!(count(text, "unsorted-categories"), 1);
    }

    #[test]
    fn uses_code_point_order() {
        assert_eq!(
            count(&with_categories("- Z\n- a\n"), "unsorted-categories"),
            0
        );
        assert_eq!(
            count(&with_categories("- a\n- Z\n"), "unsorted-categories"),
            1
        );
    }

    #[test]
    fn accepts_sorted_and_duplicate_categories() {
        assert_eq!(
            count(&with_categories("- a\n- b\n"), "unsorted-categories"),
            0
        );
        assert_eq!(
            count(&with_categories("- a\n- a\n"), "unsorted-categories"),
            0
        );
    }

    #[test]
    fn points_at_the_first_category_out_of_order() {
        let text = with_categories("- a\n- c\n- b\n");
        let finding = finding(&text, "unsorted-categories");
        assert_eq!(&text[finding.span.clone()], "b");
    }

    #[test]
    fn fmt_sorts_the_categories() {
        assert_eq!(
            fixed(
                "example.com.yaml",
                &with_categories("- frontend\n- coreapp\n")
            ),
            with_categories("- coreapp\n- frontend\n")
        );
    }
}
