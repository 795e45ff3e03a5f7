//! ## What it checks
//! A category listed twice in one record's `categories`.
//!
//! ## Why it matters
//! A record has a category or not: the second copy says nothing, but it
//! makes the list look different from the same list elsewhere, and a
//! reader may wonder whether one of the two was meant to be another word.
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! _path: /a
//! categories:
//! - frontend
//! - frontend
//! content-type: text/html
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! ---
//! _path: /a
//! categories:
//! - frontend
//! content-type: text/html
//! ```
//!
//! ## Fix
//! Safe, by `urldb check --fix`: the later copies are removed; the record
//! has the same categories.

use foldhash::HashMap;

use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "duplicate-category",
    summary: "a category is listed twice",
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

/// Clean text: no item written twice in a list (`rules::clean`; in
/// canonical order equal items are neighbours).
pub(crate) static CLEAN: &[Clean] = &[Clean::Record(|shape| !shape.repeated_item)];

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    // One map for every record: cleared, not allocated again.
    let mut first: HashMap<&str, &Node> = HashMap::default();
    for record in records(ctx.documents) {
        first.clear();
        for item in list_items(record.doc, record.entries, domain::CATEGORIES) {
            // Empty categories are `empty-category`'s finding.
            if item.text.trim().is_empty() {
                continue;
            }
            let Some(earlier) = first.get(item.text) else {
                first.insert(item.text, item.node);
                continue;
            };
            out.push(
                Finding::new(
                    &RULE,
                    item.node.span.clone(),
                    format!("category `{}` is listed twice", item.text),
                )
                .label(earlier.span.clone(), "first listed here")
                .help("remove the second copy")
                .fix(Fix::safe(
                    "remove the duplicate category",
                    vec![Edit::Remove { at: item.path() }],
                )),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{count, finding, fixed, with_categories};

    #[test]
    fn flags_a_category_listed_twice() {
        assert_eq!(
            count(
                &with_categories("- frontend\n- frontend\n"),
                "duplicate-category"
            ),
            1
        );
        assert_eq!(
            count(&with_categories("- a\n- a\n- a\n"), "duplicate-category"),
            2
        );
        assert_eq!(
            count(
                &with_categories("- a\n- b\n- a\n- b\n"),
                "duplicate-category"
            ),
            2
        );
    }

    #[test]
    fn same_text_however_quoted() {
        assert_eq!(
            count(&with_categories("- a\n- 'a'\n"), "duplicate-category"),
            1
        );
    }

    #[test]
    fn accepts_distinct_categories() {
        assert_eq!(
            count(&with_categories("- a\n- b\n"), "duplicate-category"),
            0
        );
        assert_eq!(
            count(&with_categories("- a\n- A\n"), "duplicate-category"),
            0
        );
    }

    #[test]
    fn leaves_empty_categories_to_empty_category() {
        assert_eq!(
            count(&with_categories("- ''\n- ''\n- a\n"), "duplicate-category"),
            0
        );
    }

    #[test]
    fn labels_the_first_copy() {
        let text = with_categories("- a\n- b\n- a\n");
        let finding = finding(&text, "duplicate-category");
        let first = text.find("- a").map_or(0, |i| i + 2);
        assert_eq!(finding.labels[0].0.start, first);
        assert!(finding.span.start > first);
    }

    #[test]
    fn fix_removes_later_copies() {
        assert_eq!(
            fixed("example.com.yaml", &with_categories("- a\n- b\n- a\n- a\n")),
            with_categories("- a\n- b\n")
        );
    }
}
