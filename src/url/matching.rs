//! Path matching as the data.txt draft ("A Method for Web Data Discovery",
//! after the robots.txt draft; see `docs/urls.md`) defines it:
//! a pattern matches a path when the path starts with it, comparing octet
//! by octet after decoding every `%xx` escape — except `%2F`, which stays
//! distinct from `/` because a `/` has a meaning in a path.
//!
//! Used by `urldb ls --match` and `urldb verify --respect-robots`.

/// Does `pattern` match `path` (the data.txt draft, section 3.2.2)?
///
/// Both are compared as octets after decoding `%xx` escapes (hex in either
/// case), with an encoded slash kept apart from `/`. The match is a prefix
/// match: `/tmp` matches `/tmp`, `/tmp.html` and `/tmp/a.html`; `/tmp/`
/// does not match `/tmp`. An empty pattern matches every path. There are
/// no wildcards (`*`, `$`): the draft has none.
///
/// ```
/// use urldb::url::matches;
/// assert!(matches("/%7ejoe/", "/~joe/index.html"));
/// assert!(!matches("/a%2fb.html", "/a/b.html"));
/// ```
pub fn matches(pattern: &str, path: &str) -> bool {
    let mut pattern = octets(pattern);
    let mut path = octets(path);
    loop {
        match (pattern.next(), path.next()) {
            (None, _) => return true,
            (Some(_), None) => return false,
            (Some(a), Some(b)) if a != b => return false,
            _ => {}
        }
    }
}

/// An octet of a decoded path, or an encoded slash (which no octet equals).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Octet {
    Byte(u8),
    EncodedSlash,
}

/// The octets of `text` with `%xx` escapes decoded, one escape at a time
/// (so `%252F` is `%`, `2`, `F`, never an encoded slash).
fn octets(text: &str) -> impl Iterator<Item = Octet> + '_ {
    let bytes = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        let b = *bytes.get(i)?;
        let hex = |at: usize| bytes.get(at).and_then(|c| (*c as char).to_digit(16));
        if b == b'%'
            && let (Some(h), Some(l)) = (hex(i + 1), hex(i + 2))
        {
            i += 3;
            let byte = (h * 16 + l) as u8;
            return Some(if byte == b'/' {
                Octet::EncodedSlash
            } else {
                Octet::Byte(byte)
            });
        }
        i += 1;
        Some(Octet::Byte(b))
    })
}
