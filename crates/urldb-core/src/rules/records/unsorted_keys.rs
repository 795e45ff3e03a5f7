//! ## What it checks
//! A mapping whose keys are not sorted by Unicode code point: the metadata,
//! a record, or any mapping nested in an extra.
//!
//! ## Why it matters
//! The reference tool wrote every mapping with sorted keys
//! (`sort_keys=True`), so that is the canonical text. Keys in one fixed
//! order make records easy to compare by eye and keep diffs small when
//! two tools or two people edit the same file.
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! content-type: text/html
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
//! Safe, by `urldb fmt`: the keys are reordered; no value changes.

use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "unsorted-keys",
    summary: "mapping keys are not sorted",
    severity: Severity::Error,
    fix: FixKind::Format,
    blocks_rewrite: false,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::No,
    check: Check::Layout(check),
};

fn check(ctx: &LayoutContext, out: &mut Vec<Finding>) {
    for document in ctx.file.documents {
        if let Some(root) = &document.root {
            walk(root, out);
        }
    }
}

/// Check every mapping in `node`, at any depth.
fn walk(node: &Node, out: &mut Vec<Finding>) {
    match &node.value {
        Value::Scalar(_) => {}
        Value::Seq(items) => items.iter().for_each(|item| walk(item, out)),
        Value::Map(entries) => {
            check_mapping(entries, out);
            entries.iter().for_each(|entry| walk(&entry.value, out));
        }
    }
}

/// One finding per mapping, at its first key that sorts before the key
/// written above it.
fn check_mapping(entries: &[Entry], out: &mut Vec<Finding>) {
    let Some(pair) = entries
        .windows(2)
        .find(|pair| key(&pair[1]) < key(&pair[0]))
    else {
        return;
    };
    let (above, here) = (&pair[0], &pair[1]);
    out.push(
        Finding::new(
            &RULE,
            here.key.span.clone(),
            format!("key `{}` comes after `{}`", key(here), key(above)),
        )
        .label(above.key.span.clone(), "this key sorts after it")
        .help("keys are sorted by code point; `urldb fmt` reorders them")
        .fix(Fix::format("sort the keys")),
    );
}

/// A key's text, as the canonical renderer sorts keys.
fn key(entry: &Entry) -> &str {
    entry.key_str().unwrap_or("")
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{count, finding, fixed};

    #[test]
    fn flags_a_record() {
        assert_eq!(
            count(
                "---\n---\ncontent-type: text/html\n_path: /a\n",
                "unsorted-keys"
            ),
            1
        );
    }

    #[test]
    fn flags_the_metadata() {
        assert_eq!(
            count(
                "---\nhttps: true\ncnames:\n- www.example.com\n---\n_path: /a\ncontent-type: text/html\n",
                "unsorted-keys"
            ),
            1
        );
    }

    #[test]
    fn flags_nested_mappings() {
        let text = "---\n---\n_path: /a\ncontent-type: text/html\nextra:\n- z: 1\n  a: 2\n";
        assert_eq!(count(text, "unsorted-keys"), 1);
    }

    #[test]
    fn one_finding_per_mapping() {
        assert_eq!(
            count(
                "---\n---\ncontent-type: text/html\ncategories:\n- a\n_path: /a\n",
                "unsorted-keys"
            ),
            1
        );
    }

    #[test]
    fn uses_code_point_order() {
        // `_` (0x5F) sorts after `Z` (0x5A) and before `a` (0x61).
        assert_eq!(
            count(
                "---\n---\nZ: 1\n_path: /a\ncontent-type: text/html\n",
                "unsorted-keys"
            ),
            0
        );
        assert_eq!(
            count(
                "---\n---\n_path: /a\nZ: 1\ncontent-type: text/html\n",
                "unsorted-keys"
            ),
            1
        );
    }

    #[test]
    fn accepts_sorted_keys() {
        assert_eq!(
            count(
                "---\n---\n_path: /a\ncategories:\n- a\ncontent-type: text/html\n",
                "unsorted-keys"
            ),
            0
        );
    }

    #[test]
    fn points_at_the_first_key_out_of_order() {
        let text = "---\n---\n_path: /a\ncontent-type: text/html\ncategories:\n- a\n";
        let finding = finding(text, "unsorted-keys");
        assert_eq!(&text[finding.span.clone()], "categories");
    }

    #[test]
    fn fmt_sorts_the_keys() {
        assert_eq!(
            fixed(
                "example.com.yaml",
                "---\n---\ncontent-type: text/html\n_path: /a\n"
            ),
            "---\n---\n_path: /a\ncontent-type: text/html\n"
        );
    }
}
