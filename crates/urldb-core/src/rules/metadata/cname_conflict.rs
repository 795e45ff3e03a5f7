//! ## What it checks
//! A cname claimed by two domain files, or a cname that also has a domain
//! file of its own (`www.example.com` in the `cnames` of `example.com.yaml`
//! while `www.example.com.yaml` exists). The finding is reported in every
//! checked file involved: at the cname, or at the start of the file whose
//! name is the cname. Names are compared as the hosts `verify` requests:
//! `WWW.example.com` and `www.example.com.` are `www.example.com` too.
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

use crate::rules::hosts;
use crate::rules::prelude::*;
use std::borrow::Cow;
use std::collections::HashSet;

pub(crate) static RULE: Rule = Rule {
    code: "cname-conflict",
    summary: "a cname belongs to two files, or also has its own file",
    severity: Severity::Error,
    fix: FixKind::None,
    blocks_rewrite: false,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::Always(
        "one host's URLs are in two files (`Example.com` and `example.com` are one host); \
         `ls`, `export` and `verify` list them twice, `add` cannot tell which file to write",
    ),
    check: Check::Database(check),
};

fn check(ctx: &DbContext, out: &mut Vec<DbFinding>) {
    let domains = hosts::domains(ctx);
    let named_after = hosts::files_by_host(&domains);
    // The hosts each file lists, each once (a name listed twice in one
    // file is `duplicate-cname`), by index; and the files listing each host.
    let listed: Vec<Vec<(Cow<'_, str>, &str, &Span)>> = ctx
        .files
        .iter()
        .map(|file| {
            let mut hosts: Vec<(Cow<'_, str>, &str, &Span)> = Vec::with_capacity(file.cnames.len());
            // Most files list a few names: a hash set only for many.
            let mut seen: HashSet<Cow<'_, str>> = HashSet::new();
            for (name, span) in &file.cnames {
                let host = hosts::host_form(name);
                let new = if file.cnames.len() <= 16 {
                    !hosts.iter().any(|(h, _, _)| *h == host)
                } else {
                    seen.insert(host.clone())
                };
                if new {
                    hosts.push((host, name.as_str(), span));
                }
            }
            hosts
        })
        .collect();
    let mut listed_by = hosts::ByHost::new();
    for (index, cnames) in listed.iter().enumerate() {
        for (host, _, _) in cnames {
            listed_by.entry(host.as_ref()).or_default().push(index);
        }
    }
    let none: &[usize] = &[];
    for (index, file) in ctx.files.iter().enumerate() {
        if !file.checked {
            continue;
        }
        // One finding per cname and file, naming the other files up to a
        // cap: linear in the number of files however many share a name.
        for (host, name, span) in &listed[index] {
            let host = host.as_ref();
            let listers = listed_by.get(host).map_or(none, Vec::as_slice);
            let owners = named_after.get(host).map_or(none, Vec::as_slice);
            // Its own file is `cname-is-primary`'s.
            let own = domains[index] == *host;
            let (listers, listed_count) = hosts::listed(ctx, listers, index, true);
            let (owners, owned_count) = hosts::listed(ctx, owners, index, own);
            let mut says = Vec::new();
            if listed_count > 0 {
                says.push(format!("is also listed by {listers}"));
            }
            if owned_count > 0 {
                says.push(format!(
                    "also has its own {} {owners}",
                    hosts::files(owned_count)
                ));
            }
            if says.is_empty() {
                continue;
            }
            let help = if owned_count > 0 {
                "a host is either an alias or a domain: remove the cname, or merge the other file's records into this one"
            } else {
                "a host is an alias of one domain: keep the cname in one file"
            };
            out.push(DbFinding {
                file: index,
                finding: Finding::new(
                    &RULE,
                    (*span).clone(),
                    format!(
                        "cname `{name}`{} {}",
                        hosts::as_host(name, host),
                        says.join(", and ")
                    ),
                )
                .help(help),
            });
        }
        // This file's domain is a cname of other files.
        let host = domains[index].as_ref();
        let lists_itself = listed[index].iter().any(|(h, _, _)| h == host);
        let listers = listed_by.get(host).map_or(none, Vec::as_slice);
        let (listers, count) = hosts::listed(ctx, listers, index, lists_itself);
        if count == 0 {
            continue;
        }
        out.push(DbFinding {
            file: index,
            finding: Finding::new(
                &RULE,
                0..0,
                format!(
                    "domain `{}`{} is also a cname in {listers}",
                    file.domain,
                    hosts::as_host(&file.domain, host),
                ),
            )
            .help("a host is either an alias or a domain: merge this file's records into the other file, or remove the cname there"),
        });
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
    fn compares_hosts_not_spellings() {
        let files = [
            facts("db/example.com.yaml", &[("WWW.example.com", 12..27)], true),
            facts("db/example.net.yaml", &[("www.example.com.", 12..28)], true),
            facts("db/Www.Example.com.yaml", &[], true),
        ];
        let found = run(&files);
        let messages: Vec<(usize, &str)> = found
            .iter()
            .map(|f| (f.file, f.finding.message.as_str()))
            .collect();
        assert_eq!(
            messages,
            [
                (
                    0,
                    "cname `WWW.example.com` (the host `www.example.com`) is also listed by \
                     `db/example.net.yaml`, and also has its own file `db/Www.Example.com.yaml`"
                ),
                (
                    1,
                    "cname `www.example.com.` (the host `www.example.com`) is also listed by \
                     `db/example.com.yaml`, and also has its own file `db/Www.Example.com.yaml`"
                ),
                (
                    2,
                    "domain `Www.Example.com` (the host `www.example.com`) is also a cname in \
                     `db/example.com.yaml` and `db/example.net.yaml`"
                ),
            ]
        );
    }

    /// However many files list one cname, each has one finding, naming
    /// at most `SHOWN_PER_RULE` others and counting the rest.
    #[test]
    fn one_finding_per_file_and_name_with_a_capped_list() {
        let files: Vec<FileFacts> = (0..200)
            .map(|i| {
                facts(
                    &format!("d{i:03}.example.yaml"),
                    &[("www.example.com", 4..19)],
                    true,
                )
            })
            .collect();
        let found = run(&files);
        assert_eq!(found.len(), 200);
        let first = &found[0].finding.message;
        assert!(
            first.starts_with("cname `www.example.com` is also listed by `d001.example.yaml`, ")
        );
        assert!(
            first.ends_with("`d050.example.yaml`, … and 149 more"),
            "{first}"
        );
        assert!(!first.contains("d000"));
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
