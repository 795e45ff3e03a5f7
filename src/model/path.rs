//! The syntax of a record's `_path`: percent-escapes, segments, and the
//! equivalence of two paths (the data.txt draft's table, `docs/urls.md`: `%7e` = `~`, `%3c` = `%3C`,
//! but `%2F` ≠ `/`).

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

/// The path with escapes normalized: unreserved characters decoded, other
/// escapes in uppercase hex. `%2F` stays encoded (it is not `/`).
pub fn normalize_escapes(path: &str) -> String {
    let bytes = path.as_bytes();
    let mut out = String::with_capacity(path.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && bytes[i + 1].is_ascii_hexdigit()
            && bytes[i + 2].is_ascii_hexdigit()
        {
            let hex = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
            let byte = hex(bytes[i + 1]) * 16 + hex(bytes[i + 2]);
            if is_unreserved(byte) {
                out.push(byte as char);
            } else {
                out.push('%');
                out.push(bytes[i + 1].to_ascii_uppercase() as char);
                out.push(bytes[i + 2].to_ascii_uppercase() as char);
            }
            i += 3;
            continue;
        }
        let ch_len = utf8_len(bytes[i]);
        out.push_str(&path[i..(i + ch_len).min(path.len())]);
        i += ch_len;
    }
    out
}

fn utf8_len(first: u8) -> usize {
    match first {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

/// The part of a path before its query (`?`).
pub fn before_query(path: &str) -> &str {
    path.split('?').next().unwrap_or(path)
}

/// The key under which two paths are equivalent on this domain: the path
/// itself when nothing in it can be spelled another way.
pub fn equivalence_key(path: &str, case_sensitive: bool) -> Cow<'_, str> {
    let has_escape = memchr::memchr(b'%', path.as_bytes()).is_some();
    if case_sensitive && !has_escape {
        return Cow::Borrowed(path);
    }
    let normalized = normalize_escapes(path);
    if case_sensitive {
        return Cow::Owned(normalized);
    }
    let (head, query) = match normalized.find('?') {
        Some(q) => normalized.split_at(q),
        None => (normalized.as_str(), ""),
    };
    Cow::Owned(format!("{}{query}", lowercase_keeping_escapes(head)))
}

/// Lowercase a path, except the hex digits of its escapes (which stay
/// uppercase: `%2F`, not `%2f`).
pub fn lowercase_keeping_escapes(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut chars = path.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '%' {
            out.push('%');
            for _ in 0..2 {
                if let Some(&h) = chars.peek()
                    && h.is_ascii_hexdigit()
                {
                    out.push(h.to_ascii_uppercase());
                    chars.next();
                }
            }
        } else {
            out.extend(c.to_lowercase());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The data.txt draft's table of equivalent and distinct paths.
    #[test]
    fn data_txt_draft_equivalence_table() {
        let same = [
            ("/~joe/index.html", "/%7Ejoe/index.html"),
            ("/%7ejoe", "/~joe"),
            ("/a%3cb", "/a%3Cb"),
        ];
        for (a, b) in same {
            assert_eq!(normalize_escapes(a), normalize_escapes(b), "{a} = {b}");
        }
        let distinct = [("/a%2fb.html", "/a/b.html"), ("/a%2Fb", "/a/b")];
        for (a, b) in distinct {
            assert_ne!(normalize_escapes(a), normalize_escapes(b), "{a} != {b}");
        }
        assert_eq!(equivalence_key("/A%2fB?Q=1", false), "/a%2Fb?Q=1");
    }
}
