//! ## What it checks
//! A category in a record's `categories` that is empty (`''`) or only
//! white space.
//!
//! ## Why it matters
//! An empty category names nothing: no filter (`ls --category`) can
//! select it and `verify` gives it no meaning. It is usually what is left
//! of an edit, or a stray `-` line.
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! _path: /a
//! categories:
//! - ''
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
//! Safe, by `urldb check --fix`: the empty item is removed (and a list left
//! empty is then removed by `empty-categories`).

use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "empty-category",
    summary: "a category is empty",
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

/// Clean text: items that are not blank (`rules::clean`).
pub(crate) static CLEAN: &[Clean] = &[Clean::Value {
    key: domain::CATEGORIES,
    // A value led by a visible ASCII character is not blank (white
    // space, a control character or one beyond ASCII may be).
    looks_at: LooksAt::First(|b| !b.is_ascii_graphic()),
    clean: |item, _| item.is_plain_null() || !item.value.trim().is_empty(),
}];

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    for record in records(ctx.documents) {
        for item in list_items(record.doc, record.entries, domain::CATEGORIES) {
            // A null item (`-` with nothing) is `invalid-categories`'s.
            if item.node.is_null() || !item.text.trim().is_empty() {
                continue;
            }
            let message = if item.text.is_empty() {
                "category is empty".to_string()
            } else {
                format!("category `{}` is only white space", item.text)
            };
            out.push(
                Finding::new(&RULE, item.node.span.clone(), message)
                    .help("remove the item: a category is a non-empty name")
                    .fix(Fix::safe(
                        "remove the empty category",
                        vec![Edit::Remove { at: item.path() }],
                    )),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{codes, count, fixed, with_categories};

    #[test]
    fn flags_empty_and_blank_categories() {
        assert_eq!(count(&with_categories("- ''\n- a\n"), "empty-category"), 1);
        assert_eq!(
            count(
                &with_categories("- ' '\n- \"\\t\"\n- a\n"),
                "empty-category"
            ),
            2
        );
    }

    #[test]
    fn leaves_a_null_item_to_invalid_categories() {
        assert_eq!(count(&with_categories("-\n- a\n"), "empty-category"), 0);
        assert!(
            codes("example.com.yaml", &with_categories("-\n- a\n")).contains(&"invalid-categories")
        );
    }

    #[test]
    fn accepts_names() {
        assert_eq!(
            count(&with_categories("- a\n- ' a'\n"), "empty-category"),
            0
        );
    }

    #[test]
    fn fix_removes_the_item() {
        assert_eq!(
            fixed("example.com.yaml", &with_categories("- ''\n- a\n- ' '\n")),
            with_categories("- a\n")
        );
    }

    #[test]
    fn fix_then_removes_an_empty_list() {
        assert_eq!(
            fixed("example.com.yaml", &with_categories("- ''\n")),
            "---\n---\n_path: /a\ncontent-type: text/html\n"
        );
    }
}
