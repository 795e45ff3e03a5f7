//! ## What it checks
//! A `.` or `..` segment in a `_path`, before the query: `/a/./b`,
//! `/a/../b`, `/..`, a trailing `/.` (also spelled with escapes, `%2E`).
//!
//! ## Why it matters
//! Browsers and url-normalize remove dot segments before a request is
//! sent (RFC 3986, section 5.2.4), so the URL a user reaches is not the one
//! written; some servers and clients keep them and serve something else, or
//! refuse. A record should name the URL as it is requested.
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! _path: /docs/../about.html
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
//! Unsafe, shown but never applied: the finding suggests the path with the
//! dot segments removed as RFC 3986 does, but the server may not normalize
//! them, so that may not be the URL it serves. A person must check.

use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "path-dot-segment",
    summary: "`_path` has a `.` or `..` segment",
    severity: Severity::Error,
    fix: FixKind::None,
    blocks_rewrite: false,
    blocks_request: Some(5),
    enabled: Enabled::On,
    gate: Gate::Always("clients rewrite the URL; `verify` does not request it"),
    check: Check::File {
        check,
        clean: CleanText(CLEAN),
    },
};

/// Clean text: a `_path` with no `.` or `..` segment before its query
/// (`rules::clean`).
pub(crate) static CLEAN: &[Clean] = &[Clean::Value {
    key: domain::PATH,
    // A dot segment of an absolute path starts with `/.`, or the `/%` of
    // `/%2E`: most paths have neither, though most hold a `.`
    // (`page.html`).
    looks_at: LooksAt::Pair(|a| a == b'/', |b| b == b'.' || b == b'%'),
    clean: |path, _| clean(path.value),
}];

fn clean(path: &str) -> bool {
    if !path.starts_with('/') {
        return true;
    }
    let head = &path[..path.find('?').unwrap_or(path.len())];
    segments(head).all(|(_, dots)| dots.is_none())
}

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    for (record, entry, path) in domain::paths(ctx.documents) {
        // A relative path is `path-not-absolute`'s finding.
        if !path.starts_with('/') {
            continue;
        }
        let (head, query) = path.split_at(path.find('?').unwrap_or(path.len()));
        let Some((range, dots)) = segments(head).find(|(_, d)| d.is_some()) else {
            continue;
        };
        let Some(at) = entry_path(record.doc, record.entries, domain::PATH) else {
            continue;
        };
        let resolved = format!("{}{query}", remove_dot_segments(head));
        let name = match dots {
            Some(Dots::One) => "`.`",
            _ => "`..`",
        };
        out.push(
            Finding::new(
                &RULE,
                sub_span(ctx.source, &entry.value, range),
                format!("`_path` `{path}` has a {name} segment"),
            )
            .help(format!(
                "clients remove dot segments before they send a request: the URL requested is \
                 `{resolved}`; check that the server serves it and write that"
            ))
            .fix(Fix::unsafe_(
                "remove the dot segments",
                vec![Edit::SetScalar {
                    at,
                    value: Scalar::string(resolved),
                }],
            )),
        );
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dots {
    One,
    Two,
}

/// `.` or `..`, also written with `%2E`.
fn dots(segment: &str) -> Option<Dots> {
    // Every spelling is at most six bytes: the common segment is ruled
    // out without looking further.
    if segment.len() > 6 {
        return None;
    }
    let rest = one_dot(segment)?;
    if rest.is_empty() {
        return Some(Dots::One);
    }
    one_dot(rest)
        .filter(|rest| rest.is_empty())
        .map(|_| Dots::Two)
}

/// `segment` without a leading `.` or `%2E` (either case).
fn one_dot(segment: &str) -> Option<&str> {
    segment
        .strip_prefix('.')
        .or_else(|| segment.strip_prefix("%2E"))
        .or_else(|| segment.strip_prefix("%2e"))
}

/// The segments of an absolute path (after each `/`): byte range and dots.
fn segments(head: &str) -> impl Iterator<Item = (std::ops::Range<usize>, Option<Dots>)> + '_ {
    let mut start = 1;
    head.get(1..).unwrap_or("").split('/').map(move |segment| {
        let range = start..start + segment.len();
        start = range.end + 1;
        (range, dots(segment))
    })
}

/// RFC 3986's remove_dot_segments for an absolute path: `.` segments go,
/// `..` removes the segment before it; a path ending in a dot segment keeps
/// its final `/`.
fn remove_dot_segments(head: &str) -> String {
    let all: Vec<&str> = head.get(1..).unwrap_or("").split('/').collect();
    let mut out: Vec<&str> = Vec::new();
    for (i, segment) in all.iter().enumerate() {
        let last = i + 1 == all.len();
        match dots(segment) {
            None => out.push(segment),
            Some(d) => {
                if d == Dots::Two {
                    out.pop();
                }
                if last {
                    out.push("");
                }
            }
        }
    }
    format!("/{}", out.join("/"))
}

#[cfg(test)]
mod tests {
    use super::remove_dot_segments;
    use crate::rules::test_support::{codes, finding, fixed, with_path};

    fn flagged(path: &str) -> bool {
        codes("example.com.yaml", &with_path(path)).contains(&"path-dot-segment")
    }

    #[test]
    fn flags_dot_segments() {
        for path in ["/a/./b", "/a/../b", "/..", "/.", "/a/.", "/a/..", "/./a/b"] {
            assert!(flagged(path), "{path}");
        }
    }

    #[test]
    fn flags_escaped_dots() {
        assert!(flagged("/a/%2E%2E/b"));
        assert!(flagged("/a/.%2e/b"));
    }

    #[test]
    fn accepts_dots_in_names_and_queries() {
        for path in [
            "/a.b",
            "/...",
            "/.well-known/x",
            "/a..b/",
            "/a?p=/../",
            "/a/..;x",
        ] {
            assert!(!flagged(path), "{path}");
        }
    }

    #[test]
    fn leaves_relative_paths_to_path_not_absolute() {
        assert!(!flagged("../a"));
    }

    #[test]
    fn removes_dot_segments_as_rfc_3986() {
        for (path, want) in [
            ("/a/./b", "/a/b"),
            ("/a/../b", "/b"),
            ("/..", "/"),
            ("/.", "/"),
            ("/a/.", "/a/"),
            ("/a/b/..", "/a/"),
            ("/a/../../b", "/b"),
            ("/a//../b", "/a/b"),
            ("/a/b/../", "/a/"),
            ("/a/b/c/./../../g", "/a/g"),
            ("/mid/content=5/../6", "/mid/6"),
        ] {
            assert_eq!(remove_dot_segments(path), want, "{path}");
        }
    }

    #[test]
    fn fix_is_not_applied() {
        let text = with_path("/a/../b");
        assert_eq!(fixed("example.com.yaml", &text), text);
    }

    #[test]
    fn suggests_the_resolved_path_with_its_query() {
        let text = with_path("/a/./b?x=/./");
        let finding = finding(&text, "path-dot-segment");
        assert_eq!(&text[finding.span.clone()], ".");
        let fix = finding.fix.as_ref().expect("a suggested fix");
        assert_eq!(
            fix.applicability,
            crate::rules::diagnostic::Applicability::Unsafe
        );
        let [crate::rules::diagnostic::Edit::SetScalar { value, .. }] = fix.edits.as_slice() else {
            panic!("one SetScalar edit");
        };
        assert_eq!(value.value, "/a/b?x=/./");
    }
}
