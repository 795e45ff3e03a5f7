//! ## What it checks
//! A category that is not in the closed vocabulary of `urldb.toml`
//! (`[lint] categories = [...]`), with a "did you mean" for near misses.
//! Without a vocabulary any category is allowed and this rule is silent.
//! The categories that mean something to `verify` (`deprecated`,
//! `redirect-ok`, `content-type-change-ok`, `skip-verify`) are part of the
//! format: always allowed, listed or not.
//!
//! ## Why it matters
//! Categories drive `ls --category`, `verify` (`deprecated`, `redirect-ok`,
//! `content-type-change-ok`) and whatever a team builds on them. A typo
//! (`redirect_ok`, `frontent`) silently takes a URL out of its group; a
//! closed vocabulary turns the typo into an error.
//!
//! ## Example
//! ```toml
//! # urldb.toml
//! [lint]
//! categories = ["frontend", "redirect-ok"]
//! ```
//! ```yaml
//! ---
//! ---
//! _path: /old
//! categories:
//! - redirect_ok
//! content-type: X-301-Redirect
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! ---
//! _path: /old
//! categories:
//! - redirect-ok
//! content-type: X-301-Redirect
//! ```
//!
//! ## Fix
//! None: either the category is misspelt or the vocabulary lacks it; a
//! person decides which.

use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "unknown-category",
    summary: "category not in the configured vocabulary",
    severity: Severity::Error,
    fix: FixKind::None,
    blocks_rewrite: false,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::No,
    check: Check::File {
        check,
        clean: CleanText(CLEAN),
    },
};

/// Clean text: a category `urldb.toml` lists, or any when it lists none
/// (`rules::clean`).
pub(crate) static CLEAN: &[Clean] = &[Clean::Value {
    key: domain::CATEGORIES,
    looks_at: LooksAt::Everything,
    clean: |item, facts| match &facts.settings.categories {
        None => true,
        Some(known) => {
            item.value.is_empty()
                || known.iter().any(|c| c == item.value)
                || domain::VERIFY_CATEGORIES.contains(&item.value)
        }
    },
}];

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    let Some(vocabulary) = &ctx.settings.categories else {
        return;
    };
    for record in records(ctx.documents) {
        for item in list_items(record.doc, record.entries, domain::CATEGORIES) {
            let category = item.text;
            // An empty category is `empty-category`'s business.
            if category.is_empty()
                || vocabulary.iter().any(|c| c == category)
                || domain::VERIFY_CATEGORIES.contains(&category)
            {
                continue;
            }
            let known = vocabulary
                .iter()
                .map(String::as_str)
                .chain(domain::VERIFY_CATEGORIES);
            let message = match crate::suggest::closest(category, known) {
                Some(best) => format!("unknown category `{category}` (did you mean `{best}`?)"),
                None => format!("unknown category `{category}`"),
            };
            out.push(
                Finding::new(&RULE, item.node.span.clone(), message).help(
                    "use a category from `categories` in `urldb.toml`, or add this one there",
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::Options;
    use crate::rules::settings::LintSettings;
    use crate::rules::test_support::{codes, codes_with, record};

    fn options() -> Options {
        Options {
            settings: LintSettings {
                categories: Some(vec!["frontend".into(), "redirect-ok".into()]),
                ..LintSettings::default()
            },
            ..Options::default()
        }
    }

    fn categories_at_root(categories: &str) -> String {
        record(&format!(
            "_path: /\ncategories:\n{categories}content-type: text/html\n"
        ))
    }

    #[test]
    fn flags_unknown_category() {
        let text = categories_at_root("- frontend\n- graphics\n");
        assert!(codes_with("example.com.yaml", &text, &options()).contains(&"unknown-category"));
    }

    #[test]
    fn did_you_mean() {
        let text = categories_at_root("- redirect_ok\n");
        let checked =
            crate::rules::test_support::both_ways("example.com.yaml", text.as_bytes(), &options());
        let messages: Vec<&str> = checked
            .findings
            .iter()
            .filter(|f| f.code() == "unknown-category")
            .map(|f| f.message.as_str())
            .collect();
        assert_eq!(
            messages,
            ["unknown category `redirect_ok` (did you mean `redirect-ok`?)"]
        );
    }

    #[test]
    fn accepts_known_categories() {
        let text = categories_at_root("- frontend\n- redirect-ok\n");
        assert!(!codes_with("example.com.yaml", &text, &options()).contains(&"unknown-category"));
    }

    #[test]
    fn the_categories_verify_reads_are_always_known() {
        let text = categories_at_root("- skip-verify\n- deprecated\n");
        assert!(!codes_with("example.com.yaml", &text, &options()).contains(&"unknown-category"));
    }

    #[test]
    fn silent_without_vocabulary() {
        let text = categories_at_root("- graphics\n");
        assert!(!codes("example.com.yaml", &text).contains(&"unknown-category"));
    }
}
