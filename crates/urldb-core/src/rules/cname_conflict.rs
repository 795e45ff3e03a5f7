//! ## What it checks
//! A cname claimed by two domain files, or a cname that also has a domain
//! file of its own (`www.example.com` in the `cnames` of `example.com.yaml`
//! while `www.example.com.yaml` exists). The finding is reported in every
//! checked file involved: at the cname, or at the start of the file whose
//! name is the cname.
//!
//! ## Why it matters
//! A cname says "this host serves the same URLs as the primary domain".
//! One host cannot be an alias of two domains, nor an alias and a domain
//! with its own URL list: `urldb add https://www.example.com/x` would not
//! know which file to write, and `verify` would check the host against two
//! different lists.
//!
//! ## Example
//! ```yaml
//! # example.com.yaml
//! ---
//! cnames:
//! - www.example.com
//! ```
//! ```yaml
//! # example.net.yaml
//! ---
//! cnames:
//! - www.example.com
//! ```
//!
//! Use instead: list `www.example.com` in the file of the one domain it
//! serves, and merge its records there if it had a file of its own.
//!
//! ## Fix
//! None: which domain the host belongs to is a decision for a person.

use super::prelude::*;
use std::collections::HashMap;

pub(crate) static RULE: Rule = Rule {
    code: "cname-conflict",
    summary: "a cname belongs to two files, or also has its own file",
    severity: Severity::Error,
    fix: FixKind::None,
    blocks_rewrite: false,
    check: Check::Database(check),
};

fn check(ctx: &DbContext, out: &mut Vec<DbFinding>) {
    let mut listed_by: HashMap<&str, Vec<usize>> = HashMap::new();
    let mut domain_of: HashMap<&str, Vec<usize>> = HashMap::new();
    for (index, file) in ctx.files.iter().enumerate() {
        domain_of
            .entry(file.domain.as_str())
            .or_default()
            .push(index);
        for (name, _) in &file.cnames {
            let files = listed_by.entry(name.as_str()).or_default();
            // A name listed twice in one file is `duplicate-cname`.
            if files.last() != Some(&index) {
                files.push(index);
            }
        }
    }
    for (index, file) in ctx.files.iter().enumerate() {
        if !file.checked {
            continue;
        }
        for (name, span) in &file.cnames {
            // The other files that list this cname too.
            for &other in listed_by.get(name.as_str()).into_iter().flatten() {
                if other == index {
                    continue;
                }
                out.push(DbFinding {
                    file: index,
                    finding: Finding::new(
                        &RULE,
                        span.clone(),
                        format!(
                            "cname `{name}` is also listed by `{}`",
                            crate::source::display_path(&ctx.files[other].path)
                        ),
                    )
                    .help("a host is an alias of one domain: keep the cname in one file"),
                });
            }
            // The other files named after this cname (its own file is
            // `cname-is-primary`).
            for &other in domain_of.get(name.as_str()).into_iter().flatten() {
                if other == index {
                    continue;
                }
                out.push(DbFinding {
                    file: index,
                    finding: Finding::new(
                        &RULE,
                        span.clone(),
                        format!(
                            "cname `{name}` also has its own file `{}`",
                            crate::source::display_path(&ctx.files[other].path)
                        ),
                    )
                    .help("a host is either an alias or a domain: remove the cname, or merge the other file's records into this one"),
                });
            }
        }
        // This file's domain is a cname of other files.
        for &other in listed_by.get(file.domain.as_str()).into_iter().flatten() {
            if other == index {
                continue;
            }
            out.push(DbFinding {
                file: index,
                finding: Finding::new(
                    &RULE,
                    0..0,
                    format!(
                        "domain `{}` is also a cname in `{}`",
                        file.domain,
                        crate::source::display_path(&ctx.files[other].path)
                    ),
                )
                .help("a host is either an alias or a domain: merge this file's records into the other file, or remove the cname there"),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::check;
    use crate::rules::{DbContext, DbFinding, FileFacts};

    fn facts(path: &str, cnames: &[(&str, std::ops::Range<usize>)], checked: bool) -> FileFacts {
        FileFacts {
            path: path.into(),
            domain: crate::rules::domain_of(std::path::Path::new(path)),
            cnames: cnames
                .iter()
                .map(|(n, s)| (n.to_string(), s.clone()))
                .collect(),
            checked,
        }
    }

    fn run(files: &[FileFacts]) -> Vec<DbFinding> {
        let mut out = Vec::new();
        check(&DbContext { files }, &mut out);
        out
    }

    #[test]
    fn flags_cname_listed_by_two_files() {
        let files = [
            facts("db/example.com.yaml", &[("www.example.com", 12..27)], true),
            facts("db/example.net.yaml", &[("www.example.com", 12..27)], true),
        ];
        let found = run(&files);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].file, 0);
        assert_eq!(found[0].finding.span, 12..27);
        assert!(found[0].finding.message.contains("db/example.net.yaml"));
        assert_eq!(found[1].file, 1);
        assert!(found[1].finding.message.contains("db/example.com.yaml"));
    }

    #[test]
    fn flags_cname_with_its_own_file() {
        let files = [
            facts("db/example.com.yaml", &[("www.example.com", 12..27)], true),
            facts("db/www.example.com.yaml", &[], true),
        ];
        let found = run(&files);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].file, 0);
        assert!(found[0].finding.message.contains("db/www.example.com.yaml"));
        assert_eq!(found[1].file, 1);
        assert_eq!(found[1].finding.span, 0..0);
        assert!(found[1].finding.message.contains("db/example.com.yaml"));
    }

    #[test]
    fn reports_only_in_checked_files() {
        let files = [
            facts("db/example.com.yaml", &[("www.example.com", 12..27)], false),
            facts("db/example.net.yaml", &[("www.example.com", 12..27)], true),
        ];
        let found = run(&files);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].file, 1);
    }

    #[test]
    fn accepts_distinct_cnames_and_own_domain() {
        let files = [
            facts(
                "db/example.com.yaml",
                &[
                    ("example.com", 12..23),
                    ("www.example.com", 26..41),
                    ("www.example.com", 44..59),
                ],
                true,
            ),
            facts("db/example.net.yaml", &[("www.example.net", 12..27)], true),
        ];
        assert!(run(&files).is_empty());
    }
}
