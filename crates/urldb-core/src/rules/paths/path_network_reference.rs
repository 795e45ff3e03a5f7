//! ## What it checks
//! A `_path` that starts with `//`, such as `//evil.example/x`.
//!
//! ## Why it matters
//! RFC 3986 (section 4.2) reads a reference that starts with `//` as a
//! *network-path reference*: what follows the two slashes is an
//! authority, another host. urldb itself builds the URL as the scheme,
//! the file's domain, then `_path` (`http://example.com//evil.example/x`),
//! but any consumer of the database that resolves the path against its
//! domain, as RFC 3986 section 5.2 tells it to (Python's `urljoin`,
//! JavaScript's `new URL(path, base)`), fetches `http://evil.example/x`:
//! a record of one domain that sends its readers to another. `verify`
//! does not request such a record (it is "not checked").
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! _path: //evil.example/x
//! content-type: text/html
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! ---
//! _path: /x
//! content-type: text/html
//! ```
//!
//! ## Fix
//! None: whether `//a/b` meant `/a/b`, or the page `/b` of the host `a`
//! (which belongs in `a.yaml`), is for a person to say.

use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "path-network-reference",
    summary: "`_path` starts with `//`: a reference to another host",
    severity: Severity::Error,
    fix: FixKind::None,
    blocks_rewrite: false,
    blocks_request: Some(1),
    enabled: Enabled::On,
    gate: Gate::Always("the URL would be one of another host; `verify` does not request it"),
    check: Check::File {
        check,
        clean: CleanText(CLEAN),
    },
};

/// Clean text: a `_path` that does not start with `//` (`rules::clean`).
pub(crate) static CLEAN: &[Clean] = &[Clean::Value {
    key: domain::PATH,
    // A value starting with `//` holds it.
    looks_at: LooksAt::Pair(|a| a == b'/', |b| b == b'/'),
    clean: |path, _| !path.value.starts_with("//"),
}];

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    for (_, entry, path) in domain::paths(ctx.documents) {
        if !path.starts_with("//") {
            continue;
        }
        let host = path[2..].split(['/', '?', '#']).next().unwrap_or_default();
        let message = format!(
            "`_path` starts with `//`: resolved against its domain it names the host `{host}`"
        );
        out.push(
            Finding::new(&RULE, entry.value.span.clone(), message).help(
                "a path starts with one `/`; a URL of another host belongs in that host's file",
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{codes, with_path};

    /// Written plain, as `fmt` writes it, so that the proof of clean
    /// records reads it too.
    fn flagged(path: &str) -> bool {
        codes("example.com.yaml", &with_path(path)).contains(&"path-network-reference")
    }

    #[test]
    fn two_leading_slashes_name_another_host() {
        assert!(flagged("//evil.example/x"));
        assert!(flagged("//"));
        assert!(!flagged("/x//y"));
        assert!(!flagged("/x"));
    }
}
