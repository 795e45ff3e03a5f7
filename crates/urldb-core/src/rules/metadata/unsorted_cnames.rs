//! ## What it checks
//! The metadata's `cnames` not sorted by Unicode code point (UTF-8 byte
//! order). The finding points at the first cname that is out of order.
//!
//! ## Why it matters
//! The format description asks for a "sorted list of aliases", and the
//! reference tool wrote them sorted. With one order, adding an alias is a
//! one-line diff in a predictable place, and duplicates sit side by side.
//!
//! ## Example
//! ```yaml
//! ---
//! cnames:
//! - www.example.com
//! - shop.example.com
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! cnames:
//! - shop.example.com
//! - www.example.com
//! ```
//!
//! ## Fix
//! Safe, by `urldb fmt`: the cnames are reordered; none is changed.

use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "unsorted-cnames",
    summary: "`cnames` are not sorted",
    severity: Severity::Error,
    fix: FixKind::Format,
    blocks_rewrite: false,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::No,
    check: Check::Layout(check),
};

fn check(ctx: &LayoutContext, out: &mut Vec<Finding>) {
    for entry in domain::metadata(ctx.file.documents) {
        if entry.key_str() != Some(domain::CNAMES) {
            continue;
        }
        let Some(items) = entry.value.as_seq() else {
            continue;
        };
        // The canonical text sorts a list only when every item is a scalar.
        let Some(names) = items
            .iter()
            .map(|n| n.as_scalar().map(|s| s.value.as_str()))
            .collect::<Option<Vec<&str>>>()
        else {
            continue;
        };
        let mut largest = 0;
        for (i, name) in names.iter().enumerate() {
            if *name >= names[largest] {
                largest = i;
                continue;
            }
            out.push(
                Finding::new(
                    &RULE,
                    items[i].span.clone(),
                    format!("cname `{name}` comes after `{}`", names[largest]),
                )
                .label(items[largest].span.clone(), "this cname sorts after it")
                .help("cnames are sorted; `urldb fmt` reorders them")
                .fix(Fix::format("sort the cnames")),
            );
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{codes, count, fixed, with_metadata};

    #[test]
    fn flags_unsorted_cnames() {
        let text = with_metadata("cnames:\n- www.example.com\n- shop.example.com\n");
        assert!(codes("example.com.yaml", &text).contains(&"unsorted-cnames"));
    }

    #[test]
    fn one_finding_per_list() {
        let text = with_metadata("cnames:\n- c.example.com\n- b.example.com\n- a.example.com\n");
        assert_eq!(count(&text, "unsorted-cnames"), 1);
    }

    #[test]
    fn accepts_sorted_cnames() {
        let text = with_metadata("cnames:\n- a.example.com\n- a.example.com\n- b.example.com\n");
        assert!(!codes("example.com.yaml", &text).contains(&"unsorted-cnames"));
    }

    #[test]
    fn code_point_order() {
        // `B` (0x42) sorts before `a` (0x61).
        let text = with_metadata("cnames:\n- B.example.com\n- a.example.com\n");
        assert!(!codes("example.com.yaml", &text).contains(&"unsorted-cnames"));
    }

    #[test]
    fn fix_sorts() {
        assert_eq!(
            fixed(
                "example.com.yaml",
                &with_metadata("cnames:\n- www.example.com\n- shop.example.com\n")
            ),
            with_metadata("cnames:\n- shop.example.com\n- www.example.com\n")
        );
    }
}
