//! ## What it checks
//! The same name listed twice in the metadata's `cnames`, compared as
//! the hosts `verify` requests (`WWW.example.com` and `www.example.com.`
//! are `www.example.com` too).
//!
//! ## Why it matters
//! A cname is an alias, and an alias is declared once. A repeated one says
//! nothing new, makes `verify --cnames` fetch every URL twice, and is
//! usually the trace of a merge that went wrong.
//!
//! ## Example
//! ```yaml
//! ---
//! cnames:
//! - www.example.com
//! - www.example.com
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! cnames:
//! - www.example.com
//! ```
//!
//! ## Fix
//! Safe, by `urldb check --fix`: the later copies are removed; the list
//! means the same.

use crate::rules::hosts;
use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "duplicate-cname",
    summary: "the same cname is listed twice",
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

/// Clean text: it reads the metadata document alone (`rules::clean`).
pub(crate) static CLEAN: &[Clean] = &[Clean::Metadata];

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    let mut first: std::collections::HashMap<std::borrow::Cow<'_, str>, (&str, &Node)> =
        std::collections::HashMap::new();
    for item in list_items(0, domain::metadata(ctx.documents), domain::CNAMES) {
        let host = hosts::host_form(item.text);
        let Some(&(written, earlier)) = first.get(&host) else {
            first.insert(host, (item.text, item.node));
            continue;
        };
        let message = if written == item.text {
            format!("cname `{}` is listed twice", item.text)
        } else {
            format!(
                "cname `{}` is the host `{host}` again (listed as `{written}`)",
                item.text
            )
        };
        out.push(
            Finding::new(&RULE, item.node.span.clone(), message)
                .label(earlier.span.clone(), "first listed here")
                .help("remove the repeated cname")
                .fix(Fix::safe(
                    "remove the repeated cname",
                    vec![Edit::Remove { at: item.path() }],
                )),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{codes, count_in, finding, fixed, with_metadata};

    #[test]
    fn flags_repeated_cname() {
        let text = with_metadata("cnames:\n- www.example.com\n- www.example.com\n");
        assert!(codes("example.com.yaml", &text).contains(&"duplicate-cname"));
    }

    #[test]
    fn labels_first_occurrence() {
        let text = with_metadata("cnames:\n- www.example.com\n- www.example.com\n");
        let finding = finding(&text, "duplicate-cname");
        assert_eq!(&text[finding.span.clone()], "www.example.com");
        assert_eq!(finding.span.start, text.rfind("www").unwrap_or_default());
        assert_eq!(finding.labels.len(), 1);
        assert_eq!(
            finding.labels[0].0.start,
            text.find("www").unwrap_or_default()
        );
        assert_eq!(finding.labels[0].1, "first listed here");
    }

    #[test]
    fn compares_hosts_not_spellings() {
        let text =
            with_metadata("cnames:\n- WWW.example.com\n- www.example.com\n- www.example.com.\n");
        assert_eq!(count_in("example.com.yaml", &text, "duplicate-cname"), 2);
        // One name is left (`invalid-cname`'s fix lowercases it).
        assert_eq!(
            fixed("example.com.yaml", &text),
            with_metadata("cnames:\n- www.example.com\n")
        );
    }

    #[test]
    fn accepts_distinct_cnames() {
        let text = with_metadata("cnames:\n- shop.example.com\n- www.example.com\n");
        assert!(!codes("example.com.yaml", &text).contains(&"duplicate-cname"));
    }

    #[test]
    fn fix_removes_later_copies() {
        assert_eq!(
            fixed(
                "example.com.yaml",
                &with_metadata(
                    "cnames:\n- www.example.com\n- shop.example.com\n- www.example.com\n- www.example.com\n"
                )
            ),
            with_metadata("cnames:\n- shop.example.com\n- www.example.com\n")
        );
    }
}
