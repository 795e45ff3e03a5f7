//! ## What it checks
//! A `_path` that does not start with `/`: a relative path (`about.html`),
//! a full URL (`https://example.com/a`), or an empty path.
//!
//! ## Why it matters
//! A record's URL is the scheme, the domain of the file, then `_path`
//! verbatim. Without the leading `/` that makes `http://example.comabout.html`,
//! a different host; a full URL repeats the domain and is fetched as a
//! path. `verify`, `ls` and `export` all build wrong URLs from it.
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! _path: about.html
//! content-type: text/html
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! ---
//! _path: /about.html
//! content-type: text/html
//! ```
//!
//! ## Fix
//! Safe for an empty path only, by `urldb check --fix`: `''` becomes `/`.
//! RFC 3986 (section 6.2.3) makes an empty http(s) path and `/` the same
//! URL, and a client sends `/` for it; the reference tool could store
//! `''` for a URL given without a path (docs/coming-from-wwturldb.md).
//! Not applied when the file already has a record at `/` (it would become
//! a `duplicate-path`). Other paths get a suggestion, not a fix: whether
//! `about.html` meant `/about.html` or `/docs/about.html` is for a person to
//! say.

use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "path-not-absolute",
    summary: "`_path` does not start with `/`",
    severity: Severity::Error,
    fix: FixKind::Sometimes,
    blocks_rewrite: false,
    blocks_request: Some(0),
    enabled: Enabled::On,
    gate: Gate::Always(
        "the URL would be one of another host or port; `verify` does not request it",
    ),
    check: Check::File {
        check,
        clean: CleanText(CLEAN),
    },
};

/// Clean text: a `_path` that starts with `/`, or none at all
/// (`missing-path`'s) (`rules::clean`).
pub(crate) static CLEAN: &[Clean] = &[Clean::Value {
    key: domain::PATH,
    // A value led by `/` is absolute.
    looks_at: LooksAt::First(|b| b != b'/'),
    clean: |path, _| path.value.starts_with('/') || path.is_plain_null(),
}];

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    for record in records(ctx.documents) {
        let Some(entry) = record.get(domain::PATH) else {
            continue;
        };
        // A null `_path` is `missing-path`'s.
        if entry.value.is_null() {
            continue;
        }
        let Some(path) = entry.value.as_scalar().map(|s| s.value.as_str()) else {
            continue;
        };
        if path.starts_with('/') {
            continue;
        }
        if !path.is_empty() {
            let message = format!("`_path` `{path}` does not start with `/`");
            out.push(Finding::new(&RULE, entry.value.span.clone(), message).help(suggestion(path)));
            continue;
        }
        let finding = Finding::new(&RULE, entry.value.span.clone(), "`_path` is empty")
            .help(suggestion(path));
        let Some(at) = entry_path(record.doc, record.entries, domain::PATH) else {
            out.push(finding);
            continue;
        };
        out.push(finding.fix(Fix::safe(
            "write the empty path as `/`, the same URL",
            vec![Edit::SetScalar {
                at,
                value: Scalar::string("/".to_string()),
            }],
        )));
    }
}

/// What the author probably meant.
fn suggestion(path: &str) -> String {
    if path.trim().is_empty() {
        return "a path starts with `/`; the home page is `/`".to_string();
    }
    if let Some((_, rest)) = path.split_once("://") {
        let absolute = match rest.find(['/', '?', '#']) {
            Some(i) if rest[i..].starts_with('/') => rest[i..].to_string(),
            Some(i) => format!("/{}", &rest[i..]),
            None => "/".to_string(),
        };
        return format!(
            "`_path` holds only the path (the domain is the file's name): did you mean `{absolute}`?"
        );
    }
    let trimmed = path.trim();
    if trimmed.starts_with('/') {
        return format!("remove the white space: did you mean `{trimmed}`?");
    }
    format!("a path starts with `/`: did you mean `/{path}`?")
}

#[cfg(test)]
mod tests {
    use super::suggestion;
    use crate::rules::test_support::{codes, fixed, with_path};

    fn flagged(path: &str) -> bool {
        codes("example.com.yaml", &with_path(path)).contains(&"path-not-absolute")
    }

    #[test]
    fn flags_relative_paths() {
        assert!(flagged("about.html"));
        assert!(flagged("'?q=1'"));
        assert!(flagged("'~joe'"));
    }

    #[test]
    fn flags_full_urls() {
        assert!(flagged("https://example.com/a"));
    }

    #[test]
    fn flags_empty_paths() {
        assert!(flagged("''"));
        assert!(flagged("' /a'"));
    }

    #[test]
    fn fixes_an_empty_path_to_slash() {
        assert_eq!(fixed("example.com.yaml", &with_path("''")), with_path("/"));
        // Not beside a record at `/`: that would be a duplicate.
        let both = "---\n---\n_path: ''\ncontent-type: text/html\n---\n_path: /\ncontent-type: text/html\n";
        assert_eq!(fixed("example.com.yaml", both), both);
        // Only the empty path: a relative one is for a person.
        let relative = with_path("about.html");
        assert_eq!(fixed("example.com.yaml", &relative), relative);
    }

    #[test]
    fn digits_are_read_as_text() {
        assert!(flagged("404"));
    }

    #[test]
    fn accepts_absolute_paths() {
        assert!(!flagged("/"));
        assert!(!flagged("/a/b?c=d"));
    }

    #[test]
    fn leaves_a_missing_path_alone() {
        let text = "---\n---\ncontent-type: text/html\n";
        assert!(!codes("example.com.yaml", text).contains(&"path-not-absolute"));
        let text = "---\n---\n_path: [/a]\ncontent-type: text/html\n";
        assert!(!codes("example.com.yaml", text).contains(&"path-not-absolute"));
    }

    #[test]
    fn suggests_a_path() {
        assert!(suggestion("about.html").contains("`/about.html`"));
        assert!(suggestion("https://example.com/a/b?c").contains("`/a/b?c`"));
        assert!(suggestion("http://example.com?c").contains("`/?c`"));
        assert!(suggestion("http://example.com").contains("`/`"));
        assert!(suggestion(" /a").contains("`/a`"));
        assert!(suggestion("").contains("`/`"));
    }
}
