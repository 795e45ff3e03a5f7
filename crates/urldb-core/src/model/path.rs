//! The syntax of a record's `_path`: percent-escapes, segments, and the
//! equivalence of two paths (`docs/urls.md`, "Path equivalence": `%7e` =
//! `~`, `%3c` = `%3C`, but `%2F` ≠ `/`, `%3F` ≠ `?`, `%23` ≠ `#`).

use std::borrow::Cow;

/// RFC 3986 unreserved characters: never percent-encoded in a canonical path.
pub const fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

/// A `%` and what follows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Escape {
    /// `%` + two hex digits: the byte offset of the `%` and the value.
    Valid { at: usize, byte: u8 },
    /// `%` not followed by two hex digits.
    Bad { at: usize },
}

/// Every `%` in `path`, in order.
pub fn escapes(path: &str) -> impl Iterator<Item = Escape> + '_ {
    let bytes = path.as_bytes();
    bytes
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'%')
        .map(
            move |(at, _)| match (bytes.get(at + 1), bytes.get(at + 2)) {
                (Some(h), Some(l)) if h.is_ascii_hexdigit() && l.is_ascii_hexdigit() => {
                    let hex = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
                    Escape::Valid {
                        at,
                        byte: hex(*h) * 16 + hex(*l),
                    }
                }
                _ => Escape::Bad { at },
            },
        )
}

/// The octets a path names (`docs/urls.md`, "Path equivalence"): every
/// `%xx` escape decoded (hex in either case), once, except those of the
/// three characters that change what a URL means when decoded (RFC 3986
/// §2.2, §6.2.2.2): an encoded slash stays `%2F` (it is not a segment
/// boundary), `%3F` is not the start of a query, `%23` not the start of a
/// fragment. A `%` that is no escape (`%zz`, a trailing `%`) is a literal
/// percent sign, as is a decoded `%25`; both come out as `%25`, so in the
/// result a `%` always starts `%25`, `%2F`, `%3F` or `%23`, and no decoded
/// text can pass for one of them (`%252F` is the three characters `%2F`).
///
/// This is the one comparison of paths: [`equivalence_key`] (the
/// `equivalent-paths` rule, `add`, `rm`, `check --fix`) and
/// `url::matches` (`ls --match`, robots.txt) are both built on it.
pub fn octets(path: &str) -> Cow<'_, [u8]> {
    let bytes = path.as_bytes();
    if memchr::memchr(b'%', bytes).is_none() {
        return Cow::Borrowed(bytes);
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        i += 1;
        if b != b'%' {
            out.push(b);
            continue;
        }
        let hex = |at: usize| bytes.get(at).and_then(|c| (*c as char).to_digit(16));
        match (hex(i), hex(i + 1)) {
            (Some(h), Some(l)) => {
                i += 2;
                match (h * 16 + l) as u8 {
                    b'/' => out.extend_from_slice(b"%2F"),
                    b'?' => out.extend_from_slice(b"%3F"),
                    b'#' => out.extend_from_slice(b"%23"),
                    b'%' => out.extend_from_slice(b"%25"),
                    byte => out.push(byte),
                }
            }
            _ => out.extend_from_slice(b"%25"),
        }
    }
    Cow::Owned(out)
}

/// The path spelled as [`octets`] reads it, as text: every escape decoded
/// except `%2F`, `%3F` and `%23`, a literal `%` as `%25`, and a decoded byte that is not
/// part of UTF-8 text escaped again in uppercase hex (`%ff` is `%FF`).
/// Two paths name the same URL exactly when their spellings are equal.
pub(crate) fn normalize_escapes(path: &str) -> Cow<'_, str> {
    let Cow::Owned(bytes) = octets(path) else {
        return Cow::Borrowed(path);
    };
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    Cow::Owned(out)
}

/// The part of a path before its query (`?`).
pub(crate) fn before_query(path: &str) -> &str {
    path.split('?').next().unwrap_or(path)
}

/// The key under which two paths are equivalent on this domain: their
/// [`normalize_escapes`] spelling, and on a domain with
/// `case-sensitive-paths: false` that spelling lowercased before the query
/// (the first literal `?`; a decoded `%3F` does not start a query).
pub fn equivalence_key(path: &str, case_sensitive: bool) -> Cow<'_, str> {
    if case_sensitive {
        return normalize_escapes(path);
    }
    let (head, query) = match path.find('?') {
        Some(q) => path.split_at(q),
        None => (path, ""),
    };
    Cow::Owned(format!(
        "{}{}",
        lowercase_keeping_escapes(&normalize_escapes(head)),
        normalize_escapes(query)
    ))
}

/// Lowercase a path, except the hex digits of its escapes (which stay
/// uppercase: `%2F`, not `%2f`). Only a `%` followed by two hex digits is
/// an escape: in `/B%a` the `a` is a letter after a literal `%`, and is
/// lowercased like any letter, so that lowercasing twice changes nothing.
pub(crate) fn lowercase_keeping_escapes(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut chars = path.chars().peekable();
    while let Some(c) = chars.next() {
        out.extend(c.to_lowercase());
        if c != '%' {
            continue;
        }
        let mut ahead = chars.clone();
        if let (Some(h), Some(l)) = (ahead.next(), ahead.next())
            && h.is_ascii_hexdigit()
            && l.is_ascii_hexdigit()
        {
            out.push(h.to_ascii_uppercase());
            out.push(l.to_ascii_uppercase());
            chars = ahead;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table of `tests/data/path-equivalence.tsv`: (A, B, same?).
    fn table() -> Vec<(&'static str, &'static str, bool)> {
        include_str!("../../../../tests/data/path-equivalence.tsv")
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                (f[0], f[1], f[2] == "same")
            })
            .collect()
    }

    #[test]
    fn the_equivalence_table() {
        for (a, b, same) in table() {
            let (ka, kb) = (equivalence_key(a, true), equivalence_key(b, true));
            assert_eq!(ka == kb, same, "{a} vs {b}: {ka} / {kb}");
            assert_eq!(octets(a) == octets(b), same, "{a} vs {b}");
        }
    }

    #[test]
    fn spellings() {
        assert_eq!(normalize_escapes("/a%3ab%2f%7E"), "/a:b%2F~");
        assert_eq!(normalize_escapes("/%zz%"), "/%25zz%25");
        assert_eq!(normalize_escapes("/%ff%C3%A9"), "/%FF\u{e9}");
        assert_eq!(normalize_escapes("/%252F"), "/%252F");
        assert!(matches!(normalize_escapes("/plain"), Cow::Borrowed(_)));
    }

    #[test]
    fn the_characters_that_change_a_url_stay_encoded() {
        assert_eq!(normalize_escapes("/a%3fb%23c%2f"), "/a%3Fb%23c%2F");
        assert_ne!(
            equivalence_key("/a%3Fb", true),
            equivalence_key("/a?b", true)
        );
        assert_ne!(
            equivalence_key("/a%23b", true),
            equivalence_key("/a#b", true)
        );
        // Decoded once: %253F is the text %3F, not an encoded ?.
        assert_ne!(
            equivalence_key("/a%253Fb", true),
            equivalence_key("/a%3Fb", true)
        );
    }

    #[test]
    fn lowercasing_is_stable_around_a_percent_that_starts_no_escape() {
        assert_eq!(lowercase_keeping_escapes("/B%a"), "/b%a");
        assert_eq!(lowercase_keeping_escapes("/b%a"), "/b%a");
        assert_eq!(lowercase_keeping_escapes("/A%2fB%"), "/a%2Fb%");
        assert_eq!(lowercase_keeping_escapes("/%E9%zZ"), "/%E9%zz");
    }

    #[test]
    fn case_insensitive_keys_fold_only_the_path() {
        assert_eq!(equivalence_key("/A%2fB?Q=1", false), "/a%2Fb?Q=1");
        assert_eq!(equivalence_key("/%C3%89%3F?X", false), "/\u{e9}%3F?X");
        assert_eq!(equivalence_key("/%ff", false), "/%FF");
    }
}
