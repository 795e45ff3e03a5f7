//! ## What it checks
//! A record with an empty list of categories: `categories: []`.
//!
//! ## Why it matters
//! No categories is said by leaving the key out, as the reference tool
//! did. An empty list is noise in the record and a second spelling of the
//! same thing.
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! _path: /a
//! categories: []
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
//! Safe, by `urldb check --fix`: the `categories` entry is removed; the
//! record has the same (no) categories.

use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "empty-categories",
    summary: "`categories` is an empty list",
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

/// Clean text: the proof reads a list as its `- item` lines, one at least;
/// an empty list is written `[]` (`rules::clean`).
pub(crate) static CLEAN: &[Clean] = &[Clean::Layout];

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    for record in records(ctx.documents) {
        let Some(entry) = record.get(domain::CATEGORIES) else {
            continue;
        };
        if !entry.value.as_seq().is_some_and(<[_]>::is_empty) {
            continue;
        }
        let Some(at) = entry_path(record.doc, record.entries, domain::CATEGORIES) else {
            continue;
        };
        out.push(
            Finding::new(
                &RULE,
                entry.value.span.clone(),
                "`categories` is an empty list",
            )
            .help("leave `categories` out when a record has none")
            .fix(Fix::safe("remove `categories`", vec![Edit::Remove { at }])),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{codes, fixed};

    const EMPTY: &str = "---\n---\n_path: /a\ncategories: []\ncontent-type: text/html\n";

    #[test]
    fn flags_an_empty_list() {
        assert!(codes("example.com.yaml", EMPTY).contains(&"empty-categories"));
    }

    #[test]
    fn accepts_a_list_and_no_list() {
        let one = "---\n---\n_path: /a\ncategories:\n- a\ncontent-type: text/html\n";
        assert!(!codes("example.com.yaml", one).contains(&"empty-categories"));
        let none = "---\n---\n_path: /a\ncontent-type: text/html\n";
        assert!(!codes("example.com.yaml", none).contains(&"empty-categories"));
    }

    #[test]
    fn fix_removes_the_entry() {
        assert_eq!(
            fixed("example.com.yaml", EMPTY),
            "---\n---\n_path: /a\ncontent-type: text/html\n"
        );
    }
}
