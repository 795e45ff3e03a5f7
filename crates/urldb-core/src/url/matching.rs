//! Path matching as the data.txt draft ("A Method for Web Data Discovery",
//! after the robots.txt draft; see `docs/urls.md`) defines it:
//! a pattern matches a path when the path starts with it, comparing octet
//! by octet after decoding every `%xx` escape — except `%2F`, which stays
//! distinct from `/` because a `/` has a meaning in a path.
//!
//! Used by `urldb ls --match` and `urldb verify --match`;
//! `verify --respect-robots` reads robots.txt as RFC 9309 instead
//! (`urldb_verify`'s `robots.rs`: wildcards, longest match), with the
//! same octets for a pattern's literal parts. The decoding is `crate::model::path::octets`, the same that decides which
//! paths the `equivalent-paths` rule, `add` and `rm` take for one URL.

use crate::model::path::octets;

/// Does `pattern` match `path` (the data.txt draft, section 3.2.2)?
///
/// Both are compared as octets after decoding `%xx` escapes (hex in either
/// case), with an encoded slash kept apart from `/`. The match is a prefix
/// match: `/tmp` matches `/tmp`, `/tmp.html` and `/tmp/a.html`; `/tmp/`
/// does not match `/tmp`. An empty pattern matches every path. There are
/// no wildcards (`*`, `$`): the draft has none.
///
/// ```
/// use urldb_core::url::matches;
/// assert!(matches("/%7ejoe/", "/~joe/index.html"));
/// assert!(!matches("/a%2fb.html", "/a/b.html"));
/// ```
pub fn matches(pattern: &str, path: &str) -> bool {
    // In `octets` a `%` always starts `%25` or `%2F`, and a pattern never
    // ends inside one, so a byte prefix is an octet prefix.
    octets(path).starts_with(&octets(pattern))
}
