//! ## What it checks
//! The metadata's `cnames` is not a list of valid lowercase hostnames: it is
//! a single value, a mapping or empty, an item is not a scalar, or an item
//! is not a hostname by the rules of `invalid-domain-name` (LDH labels of
//! 1–63 characters, 253 in all, lowercase, IDN in A-label `xn--` form, no
//! trailing dot).
//!
//! ## Why it matters
//! Every cname is a host that `verify --cnames` fetches and that `urldb add`
//! looks URLs up by. Host names are compared in lowercase, so
//! `WWW.example.com` would never match a canonical URL, and a name that is
//! not a hostname cannot be fetched at all. A single value instead of a
//! list was iterated character by character by the reference tool.
//!
//! ## Example
//! ```yaml
//! ---
//! cnames:
//! - WWW.Example.com.
//! - shop_example.com
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! cnames:
//! - shop-example.com
//! - www.example.com
//! ```
//!
//! ## Fix
//! Safe, by `urldb check --fix`, when lowercasing the ASCII letters and
//! removing one trailing dot make a valid hostname: host names are
//! case-insensitive and the trailing dot only marks the name absolute, so
//! it is the same host. For a non-ASCII name the A-label is shown but not
//! applied (full IDNA maps more than lowercase; check it). None otherwise.

use crate::rules::metadata::invalid_domain_name::{hostname_problem, simple_fix, suggestion};
use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "invalid-cname",
    summary: "`cnames` is not a list of valid lowercase hostnames",
    severity: Severity::Error,
    fix: FixKind::Sometimes,
    blocks_rewrite: false,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::Some(
        "a cname that is no host name in any letter case (`verify --cnames` cannot use it)",
    ),
    check: Check::File {
        check,
        clean: CleanText(CLEAN),
    },
};

/// Clean text: it reads the metadata document alone (`rules::clean`).
pub(crate) static CLEAN: &[Clean] = &[Clean::Metadata];

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    for (index, entry) in domain::metadata(ctx.documents).iter().enumerate() {
        if entry.key_str() != Some(domain::CNAMES) {
            continue;
        }
        let items = match &entry.value.value {
            Value::Seq(items) => items,
            _ if entry.value.is_null() => {
                out.push(
                    Finding::new(&RULE, entry.key.span.clone(), "`cnames` has no value").help(
                        "list the aliases under `cnames`, one `- name` per line, or remove the key",
                    ),
                );
                continue;
            }
            Value::Scalar(s) => {
                out.push(
                    Finding::new(
                        &RULE,
                        entry.value.span.clone(),
                        "`cnames` is a single value, not a list",
                    )
                    .help(format!(
                        "write it as a list: `cnames:` then `- {}` on the next line",
                        s.value
                    )),
                );
                continue;
            }
            Value::Map(_) => {
                out.push(
                    Finding::new(
                        &RULE,
                        entry.value.span.clone(),
                        "`cnames` is a mapping, not a list",
                    )
                    .help("list the aliases under `cnames`, one `- name` per line"),
                );
                continue;
            }
        };
        for (item_index, item) in items.iter().enumerate() {
            let Some(name) = item.as_scalar().map(|s| s.value.as_str()) else {
                out.push(
                    Finding::new(
                        &RULE,
                        item.span.clone(),
                        format!("a cname is a {}, not a hostname", item.kind_name()),
                    )
                    .help("each item of `cnames` is one hostname"),
                );
                continue;
            };
            let Some(problem) = hostname_problem(name) else {
                continue;
            };
            let at = NodePath::new(0, &[index, item_index]);
            let finding = Finding::new(
                &RULE,
                item.span.clone(),
                format!("cname `{name}` {problem}"),
            );
            let finding = if let Some(fixed) = simple_fix(name) {
                finding.help(format!("write `{fixed}`")).fix(Fix::safe(
                    format!("write `{fixed}`"),
                    vec![Edit::SetScalar {
                        at,
                        value: Scalar::string(fixed),
                    }],
                ))
            } else if let Some(fixed) = suggestion(name) {
                // No host name in any letter case: `verify --cnames` cannot
                // use it, a gate finding (`gate_findings`).
                finding
                    .gate()
                    .help(format!(
                        "write `{fixed}` (check the A-label: IDNA maps more than case)"
                    ))
                    .fix(Fix::unsafe_(
                        format!("write `{fixed}`"),
                        vec![Edit::SetScalar {
                            at,
                            value: Scalar::string(fixed),
                        }],
                    ))
            } else {
                finding.gate().help("a cname is a hostname: lowercase letters, digits and hyphens in dot-separated labels")
            };
            out.push(finding);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{codes, fixed, with_metadata};

    #[test]
    fn flags_invalid_hostnames() {
        for name in [
            "shop_example.com",
            "-a.example.com",
            "a..example.com",
            "bücher.example",
            "WWW.example.com",
            "www.example.com.",
        ] {
            let text = with_metadata(&format!("cnames:\n- {name}\n"));
            assert!(
                codes("example.com.yaml", &text).contains(&"invalid-cname"),
                "{name}"
            );
        }
    }

    #[test]
    fn flags_shapes() {
        for value in [" www.example.com\n", "\n", " {a: b}\n", "\n- [a]\n"] {
            let text = with_metadata(&format!("cnames:{value}"));
            assert!(
                codes("example.com.yaml", &text).contains(&"invalid-cname"),
                "{value:?}"
            );
        }
    }

    #[test]
    fn accepts_valid_cnames() {
        let text = with_metadata(
            "cnames:\n- shop.example.com\n- www.example.com\n- xn--bcher-kva.example\n",
        );
        assert!(!codes("example.com.yaml", &text).contains(&"invalid-cname"));
        assert!(
            !codes("example.com.yaml", &with_metadata("cnames: []\n")).contains(&"invalid-cname")
        );
    }

    #[test]
    fn fix_lowercases_and_drops_trailing_dot() {
        assert_eq!(
            fixed(
                "example.com.yaml",
                &with_metadata("cnames:\n- Shop.Example.com\n- www.example.com.\n")
            ),
            with_metadata("cnames:\n- shop.example.com\n- www.example.com\n")
        );
    }

    #[test]
    fn no_safe_fix_for_idn_or_bad_characters() {
        let text = with_metadata("cnames:\n- shop_example.com\n");
        assert_eq!(fixed("example.com.yaml", &text), text);
    }
}
