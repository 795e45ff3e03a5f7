//! ## What it checks
//! A cname equal to the file's own domain (`example.com` listed in the
//! `cnames` of `example.com.yaml`), compared as the hosts `verify`
//! requests (`Example.com` and `example.com.` are `example.com` too).
//!
//! ## Why it matters
//! The format defines `cnames` as the aliases of the domain, "*not*
//! including the primary domain as defined by the filename". Listing it
//! makes `verify --cnames` check every URL twice and suggests a confusion
//! about which name is primary.
//!
//! ## Example
//! ```yaml
//! # example.com.yaml
//! ---
//! cnames:
//! - example.com
//! - www.example.com
//! ```
//!
//! Use instead:
//! ```yaml
//! # example.com.yaml
//! ---
//! cnames:
//! - www.example.com
//! ```
//!
//! ## Fix
//! Safe, by `urldb check --fix`: the item is removed; the domain is still
//! the primary one, so nothing is lost.

use crate::rules::hosts;
use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "cname-is-primary",
    summary: "a cname is the file's own domain",
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
    let mut items = list_items(0, domain::metadata(ctx.documents), domain::CNAMES).peekable();
    if items.peek().is_none() {
        return;
    }
    let own = hosts::host_form(ctx.domain);
    for item in items {
        if item.text != ctx.domain && hosts::host_form(item.text) != own {
            continue;
        }
        out.push(
            Finding::new(
                &RULE,
                item.node.span.clone(),
                format!(
                    "cname `{}`{} is the file's own domain",
                    item.text,
                    hosts::as_host(item.text, &own)
                ),
            )
            .help("the primary domain (the file name) is not one of its aliases: remove it")
            .fix(Fix::safe(
                "remove the cname",
                vec![Edit::Remove { at: item.path() }],
            )),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{codes, fixed, with_metadata};

    #[test]
    fn flags_own_domain() {
        let text = with_metadata("cnames:\n- example.com\n- www.example.com\n");
        assert!(codes("example.com.yaml", &text).contains(&"cname-is-primary"));
    }

    #[test]
    fn accepts_other_names() {
        let text = with_metadata("cnames:\n- www.example.com\n");
        assert!(!codes("example.com.yaml", &text).contains(&"cname-is-primary"));
        assert!(
            !codes(
                "www.example.com.yaml",
                &with_metadata("cnames:\n- example.com\n")
            )
            .contains(&"cname-is-primary")
        );
    }

    #[test]
    fn compares_hosts_not_spellings() {
        for cname in ["Example.com", "EXAMPLE.COM.", "example.com."] {
            let text = with_metadata(&format!("cnames:\n- {cname}\n- www.example.com\n"));
            assert!(
                codes("example.com.yaml", &text).contains(&"cname-is-primary"),
                "{cname}"
            );
        }
        let text = with_metadata("cnames:\n- xn--bcher-kva.example\n");
        assert!(codes("bücher.example.yaml", &text).contains(&"cname-is-primary"));
    }

    #[test]
    fn fix_removes_it() {
        assert_eq!(
            fixed(
                "example.com.yaml",
                &with_metadata("cnames:\n- example.com\n- www.example.com\n")
            ),
            with_metadata("cnames:\n- www.example.com\n")
        );
    }

    #[test]
    fn fix_with_duplicates() {
        assert_eq!(
            fixed(
                "example.com.yaml",
                &with_metadata("cnames:\n- example.com\n- example.com\n- www.example.com\n")
            ),
            with_metadata("cnames:\n- www.example.com\n")
        );
    }
}
