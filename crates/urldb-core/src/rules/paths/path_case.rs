//! ## What it checks
//! On a domain whose metadata says `case-sensitive-paths: false`, a
//! `_path` with uppercase letters before its query (`/About.html`). The hex
//! digits of percent-escapes are not letters of the path: they stay
//! uppercase (`%2F`). The query keeps its case.
//!
//! ## Why it matters
//! On such a domain `/About.html` and `/about.html` are one URL. Writing
//! every path lowercase gives each URL one spelling, so duplicates are
//! seen (`equivalent-paths`) and `urldb add` finds an existing record
//! (it lowercases paths of these domains too).
//!
//! ## Example
//! ```yaml
//! ---
//! case-sensitive-paths: false
//! ---
//! _path: /Docs/About.html?Lang=EN
//! content-type: text/html
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! case-sensitive-paths: false
//! ---
//! _path: /docs/about.html?Lang=EN
//! content-type: text/html
//! ```
//!
//! ## Fix
//! Safe, by `urldb check --fix`: the path before `?` is lowercased (ASCII
//! letters; escapes keep uppercase hex digits), which the domain says is
//! the same URL. Non-ASCII letters are `path-invalid-char`'s: once they are
//! percent-encoded their bytes are what the server sees.
//! Not applied when the fixed path would be the URL of another record of
//! the file (it would become a `duplicate-path`): the finding stays, says
//! so, and a person keeps one of the two records.

use crate::model::path::{Escape, escapes, lowercase_keeping_escapes};
use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "path-case",
    summary: "uppercase letters in a `_path` of a case-insensitive domain",
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

/// Clean text: on a domain whose paths are not case-sensitive, a `_path`
/// without an uppercase letter before its query (`rules::clean`).
pub(crate) static CLEAN: &[Clean] = &[Clean::Value {
    key: domain::PATH,
    looks_at: LooksAt::Bytes(|b| b.is_ascii_uppercase()),
    clean: |path, facts| {
        facts.case_sensitive
            || !has_uppercase(&path.value[..path.value.find('?').unwrap_or(path.value.len())])
    },
}];

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    if domain::case_sensitive_paths(ctx.documents) {
        return;
    }
    for (record, entry, path) in domain::paths(ctx.documents) {
        let (head, query) = path.split_at(path.find('?').unwrap_or(path.len()));
        if !has_uppercase(head) {
            continue;
        }
        let Some(at) = entry_path(record.doc, record.entries, domain::PATH) else {
            continue;
        };
        let lower = format!("{}{query}", lowercase_ascii(head));
        out.push(
            Finding::new(
                &RULE,
                sub_span(ctx.source, &entry.value, 0..head.len()),
                format!("`{head}` has uppercase letters"),
            )
            .help(format!(
                "this domain has `case-sensitive-paths: false`, so its paths are written lowercase: `{lower}`"
            ))
            .fix(Fix::safe(
                "lowercase the path",
                vec![Edit::SetScalar {
                    at,
                    value: Scalar::string(lower),
                }],
            )),
        );
    }
}

/// An ASCII uppercase letter that is not a hex digit of a valid escape.
fn has_uppercase(head: &str) -> bool {
    let digits: Vec<usize> = escapes(head)
        .filter_map(|e| match e {
            Escape::Valid { at, .. } => Some(at),
            Escape::Bad { .. } => None,
        })
        .flat_map(|at| [at + 1, at + 2])
        .collect();
    head.bytes()
        .enumerate()
        .any(|(i, b)| b.is_ascii_uppercase() && !digits.contains(&i))
}

/// [`lowercase_keeping_escapes`] on the ASCII parts of `head`; other
/// characters are kept as written.
fn lowercase_ascii(head: &str) -> String {
    let mut out = String::with_capacity(head.len());
    let mut rest = head;
    while !rest.is_empty() {
        let ascii = rest.find(|c: char| !c.is_ascii()).unwrap_or(rest.len());
        out.push_str(&lowercase_keeping_escapes(&rest[..ascii]));
        rest = &rest[ascii..];
        let other = rest.find(|c: char| c.is_ascii()).unwrap_or(rest.len());
        out.push_str(&rest[..other]);
        rest = &rest[other..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{has_uppercase, lowercase_ascii};
    use crate::rules::test_support::{codes, fixed};

    fn insensitive(path: &str) -> String {
        format!("---\ncase-sensitive-paths: false\n---\n_path: {path}\ncontent-type: text/html\n")
    }

    fn flagged(text: &str) -> bool {
        codes("example.com.yaml", text).contains(&"path-case")
    }

    #[test]
    fn flags_uppercase_on_case_insensitive_domains() {
        assert!(flagged(&insensitive("/About.html")));
        assert!(flagged(&insensitive("/a/B?c")));
    }

    #[test]
    fn case_sensitive_by_default() {
        assert!(!flagged(
            "---\n---\n_path: /About.html\ncontent-type: text/html\n"
        ));
        let explicit =
            "---\ncase-sensitive-paths: true\n---\n_path: /About.html\ncontent-type: text/html\n";
        assert!(!flagged(explicit));
    }

    #[test]
    fn ignores_escapes_and_the_query() {
        assert!(!flagged(&insensitive("/a%2Fb%C3%A9")));
        assert!(!flagged(&insensitive("/a?Q=B")));
        assert!(!has_uppercase("/%4A%4a"));
        assert!(has_uppercase("/%zZ"));
    }

    #[test]
    fn lowercases_ascii_keeping_escapes() {
        assert_eq!(lowercase_ascii("/Docs/%2f%C3%A9"), "/docs/%2F%C3%A9");
        assert_eq!(lowercase_ascii("/ÉTÉ/A"), "/ÉtÉ/a");
    }

    #[test]
    fn fix_lowercases_before_the_query() {
        assert_eq!(
            fixed("example.com.yaml", &insensitive("/Docs/About.html?Lang=EN")),
            insensitive("/docs/about.html?Lang=EN")
        );
    }

    #[test]
    fn fix_keeps_escapes_uppercase() {
        assert_eq!(
            fixed("example.com.yaml", &insensitive("/A%2Fb")),
            insensitive("/a%2Fb")
        );
    }
}
