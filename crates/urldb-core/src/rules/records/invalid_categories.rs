//! ## What it checks
//! A record's `categories` that is not a list of strings: a single string
//! (`categories: frontend`), a mapping, an empty value (`categories:`,
//! `null`), or a list with an item that is itself a list or a mapping, or
//! an empty item (`-`, `- ~`, `- null`).
//!
//! Empty strings (`- ''`) and empty lists (`[]`) are reported by
//! `empty-category` and `empty-categories`.
//!
//! ## Why it matters
//! `categories` tags a URL (`deprecated`, `redirect-ok`, ...) and `verify`
//! acts on them. Written as a bare string it is not a list: tools that
//! iterate over it see one letter at a time, and `verify` misses the tag.
//! An empty item is read as null by YAML, not as a category.
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! _path: /a
//! categories: frontend
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
//! None: a person decides whether a value is one category, several, or a
//! mistake.

use crate::model::resolve::Implicit;
use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "invalid-categories",
    summary: "`categories` is not a list of strings",
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

/// Clean text: items that YAML reads as strings (`rules::clean`; a
/// `categories` that is no list of `- item` lines is left to the tree).
pub(crate) static CLEAN: &[Clean] = &[Clean::Value {
    key: domain::CATEGORIES,
    // Null is empty or led by `~`, `n`, `N`.
    looks_at: LooksAt::First(Implicit::may_lead_null),
    clean: |item, _| !item.is_plain_null(),
}];

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    for record in records(ctx.documents) {
        let Some(entry) = record.get(domain::CATEGORIES) else {
            continue;
        };
        let Some(items) = entry.value.as_seq() else {
            out.push(not_a_list(entry));
            continue;
        };
        for item in items {
            let message = match &item.value {
                Value::Scalar(s) if !s.is_plain_null() => continue,
                Value::Scalar(s) if s.value.is_empty() => "empty item in `categories`".to_string(),
                Value::Scalar(s) => format!("category `{}` is read as null by YAML", s.value),
                _ => format!("a category is a {}, not a string", item.kind_name()),
            };
            let help = match &item.value {
                Value::Scalar(s) if !s.value.is_empty() => {
                    format!(
                        "quote it if it is a category's name (`- '{}'`), or remove the item",
                        s.value
                    )
                }
                Value::Scalar(_) => "write the category's name, or remove the item".to_string(),
                _ => "each item of `categories` is one category name".to_string(),
            };
            out.push(Finding::new(&RULE, item_span(ctx, item), message).help(help));
        }
    }
}

fn not_a_list(entry: &Entry) -> Finding {
    let value = &entry.value;
    let (message, help) = match &value.value {
        Value::Scalar(s) if s.is_plain_null() => (
            "`categories` is empty".to_string(),
            "list the categories (`- name` lines), or remove the key".to_string(),
        ),
        Value::Scalar(s) if s.value.is_empty() => (
            "`categories` is an empty string, not a list".to_string(),
            "list the categories (`- name` lines), or remove the key".to_string(),
        ),
        Value::Scalar(s) => (
            format!("`categories` is the string `{}`, not a list", s.value),
            format!(
                "write it as a list: `categories: [{}]`, or one `- {}` line per category",
                s.value, s.value
            ),
        ),
        _ => (
            format!("`categories` is a {}, not a list", value.kind_name()),
            "`categories` is a list of names (`- name` lines)".to_string(),
        ),
    };
    let span = if value.span.is_empty() {
        entry.key.span.start..value.span.end.max(entry.key.span.end)
    } else {
        value.span.clone()
    };
    Finding::new(&RULE, span, message).help(help)
}

/// An empty item (`-`) has an empty span: point at its dash instead.
fn item_span(ctx: &FileContext, item: &Node) -> Span {
    if !item.span.is_empty() {
        return item.span.clone();
    }
    let start = item.span.start;
    let before = ctx.source.text.get(..start).unwrap_or_default();
    let dash = before
        .trim_end_matches([' ', '\t', '\r', '\n'])
        .strip_suffix('-')
        .map(str::len);
    match dash {
        Some(at) => at..at + 1,
        None => item.span.clone(),
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{codes, findings, record};

    /// A record whose `categories:` is followed by `value`.
    fn with_value(value: &str) -> String {
        record(&format!(
            "_path: /a\ncategories:{value}\ncontent-type: text/html\n"
        ))
    }

    #[test]
    fn flags_a_string() {
        let text = with_value(" frontend");
        let found = findings(&text, "invalid-categories");
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].message,
            "`categories` is the string `frontend`, not a list"
        );
        assert_eq!(&text[found[0].span.clone()], "frontend");
    }

    #[test]
    fn flags_a_mapping_and_null() {
        assert_eq!(
            findings(with_value(" {a: b}"), "invalid-categories")[0].message,
            "`categories` is a mapping, not a list"
        );
        assert_eq!(
            findings(with_value(""), "invalid-categories")[0].message,
            "`categories` is empty"
        );
        assert_eq!(
            findings(with_value(" ~"), "invalid-categories")[0].message,
            "`categories` is empty"
        );
        assert_eq!(
            findings(with_value(" ''"), "invalid-categories")[0].message,
            "`categories` is an empty string, not a list"
        );
    }

    #[test]
    fn flags_items_that_are_not_strings() {
        let found = findings(
            with_value("\n- [a, b]\n- {a: b}\n- a"),
            "invalid-categories",
        );
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].message, "a category is a sequence, not a string");
        assert_eq!(found[1].message, "a category is a mapping, not a string");
    }

    #[test]
    fn flags_null_items() {
        let found = findings(with_value("\n- a\n- null\n- ~"), "invalid-categories");
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].message, "category `null` is read as null by YAML");
        let text = with_value("\n- a\n-");
        let found = findings(&text, "invalid-categories");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].message, "empty item in `categories`");
        assert_eq!(&text[found[0].span.clone()], "-");
    }

    #[test]
    fn accepts_lists_of_strings() {
        assert!(
            !codes("example.com.yaml", &with_value("\n- frontend\n- graphics"))
                .contains(&"invalid-categories")
        );
        assert!(findings(with_value(" [frontend, 'yes', 1]"), "invalid-categories").is_empty());
        assert!(
            findings(
                "---\n---\n_path: /a\ncontent-type: text/html\n",
                "invalid-categories"
            )
            .is_empty()
        );
    }

    #[test]
    fn leaves_empty_strings_and_lists_to_other_rules() {
        assert!(findings(with_value(" []"), "invalid-categories").is_empty());
        assert!(findings(with_value("\n- ''\n- a"), "invalid-categories").is_empty());
    }
}
