//! URL canonicalization (`docs/urls.md`): the one function that turns
//! what a user typed into the scheme, host and `_path` a record holds.
//!
//! The rules are those of the `url-normalize` package the reference tool
//! used, so that `urldb add` writes the record `wwturldb add` wrote, with
//! the deviations listed in `docs/urls.md` (and checked against the real
//! package by `tests/it/urls/url_normalize.rs`). WWWOFFLE's URL notes add the
//! `&amp;` rule and the principle that makes the result idempotent: every
//! escape is decoded at most once and every byte encoded at most once, in
//! a single pass over the input.

use std::fmt;

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, percent_encode};

/// The two schemes a domain file can describe (`https: true|false`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scheme {
    Http,
    Https,
}

impl Scheme {
    pub fn as_str(self) -> &'static str {
        match self {
            Scheme::Http => "http",
            Scheme::Https => "https",
        }
    }

    fn default_port(self) -> u16 {
        match self {
            Scheme::Http => 80,
            Scheme::Https => 443,
        }
    }
}

impl fmt::Display for Scheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Something canonicalization changed that the user may want to know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// The input had no scheme.
    SchemeAssumed,
    /// The port was the scheme's default.
    DefaultPortRemoved(u16),
    /// A fragment (`#...`) was cut: it is never sent to the server.
    FragmentRemoved(String),
    /// `&amp;` in the query was read as `&` (an HTML-escaped link).
    AmpersandEntity,
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::SchemeAssumed => f.write_str("no scheme, assumed http"),
            Note::DefaultPortRemoved(port) => write!(f, "default port {port} removed"),
            Note::FragmentRemoved(fragment) => write!(
                f,
                "fragment `#{fragment}` removed (it is never sent to the server)"
            ),
            Note::AmpersandEntity => f.write_str("`&amp;` in the query read as `&`"),
        }
    }
}

/// Why a URL cannot be stored in the database.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UrlError {
    #[error("empty URL")]
    Empty,
    #[error("`{input}` has no host (give a full URL such as `https://example.com/path`)")]
    NoHost { input: String },
    #[error("`{scheme}:` URLs cannot be stored: a domain file describes http and https URLs only")]
    UnsupportedScheme { scheme: String },
    #[error(
        "port {port} cannot be stored: a domain file has no port, only the default ones \
         (80 for http, 443 for https)"
    )]
    Port { port: u16 },
    #[error("invalid port `{port}` (a port is a number from 1 to 65535)")]
    InvalidPort { port: String },
    #[error(
        "a user name or password (`{userinfo}@`) cannot be stored: a domain file has no \
         credentials, and URLs in git should not either"
    )]
    UserInfo { userinfo: String },
    #[error("invalid host `{host}`: {reason}")]
    InvalidHost { host: String, reason: String },
    #[error(
        "`{url}` holds the control character {character}: a URL cannot hold one (remove it, \
         or percent-encode it if it is meant)"
    )]
    Control { url: String, character: String },
}

/// A URL in canonical form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Canonical {
    pub scheme: Scheme,
    /// Lowercase, IDN as A-labels, no trailing dot, no port.
    pub host: String,
    /// Starts with `/`; the canonical path, then `?query` when there is one.
    pub path_and_query: String,
    /// What was changed that the user may want to know.
    pub notes: Vec<Note>,
}

impl Canonical {
    /// The path without the query.
    pub fn path(&self) -> &str {
        crate::model::path::before_query(&self.path_and_query)
    }

    /// The query (without `?`), when there is one.
    pub fn query(&self) -> Option<&str> {
        self.path_and_query.split_once('?').map(|(_, q)| q)
    }

    /// The path as a `case-sensitive-paths: false` domain stores it: the
    /// path lowercased, escapes and query unchanged.
    pub fn case_folded_path_and_query(&self) -> String {
        let query = &self.path_and_query[self.path().len()..];
        format!(
            "{}{query}",
            crate::model::path::lowercase_keeping_escapes(self.path())
        )
    }
}

impl fmt::Display for Canonical {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://{}{}", self.scheme, self.host, self.path_and_query)
    }
}

/// [`canonicalize`] for a URL given to be stored or removed (`add`, `rm`,
/// `import`): a control character anywhere (tabs and line breaks included)
/// is refused rather than dropped, since the record written would not be
/// the URL given. The error shows the URL as all output shows data
/// ([`crate::text::escape`]: `\n`, `\x1b`).
pub fn canonicalize_given(input: &str) -> Result<Canonical, UrlError> {
    if let Some(c) = input.chars().find(|c| c.is_control()) {
        let one = c.to_string();
        return Err(UrlError::Control {
            url: crate::text::escape(input).into_owned(),
            character: format!("U+{:04X} (`{}`)", c as u32, crate::text::escape(&one)),
        });
    }
    canonicalize(input)
}

/// Canonicalize `input` (see the module documentation and `docs/urls.md`).
pub fn canonicalize(input: &str) -> Result<Canonical, UrlError> {
    let mut notes = Vec::new();
    // As browsers and url-normalize do: tabs and line breaks are dropped
    // anywhere (they come from copy and paste), C0 controls and spaces
    // around the URL are trimmed.
    let cleaned: String = input
        .chars()
        .filter(|c| !matches!(c, '\t' | '\r' | '\n'))
        .collect();
    let cleaned = cleaned.trim_matches(|c: char| c <= ' ');
    if cleaned.is_empty() {
        return Err(UrlError::Empty);
    }

    let (scheme, rest) = split_scheme(cleaned)?;
    let scheme = match scheme {
        Some(s) => s,
        None => {
            notes.push(Note::SchemeAssumed);
            Scheme::Http
        }
    };

    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, remainder) = rest.split_at(authority_end);
    let (host, port) = split_authority(authority)?;
    let host = canonical_host(host, cleaned)?;
    if let Some(port) = port {
        if port == scheme.default_port() {
            notes.push(Note::DefaultPortRemoved(port));
        } else {
            return Err(UrlError::Port { port });
        }
    }

    let remainder = match remainder.split_once('#') {
        Some((before, fragment)) => {
            notes.push(Note::FragmentRemoved(fragment.to_string()));
            before
        }
        None => remainder,
    };
    let (path, query) = match remainder.split_once('?') {
        Some((path, query)) => (path, Some(query)),
        None => (remainder, None),
    };
    let mut path_and_query = canonical_path(path);
    if let Some(query) = query {
        let (query, amp) = canonical_query(query);
        if amp {
            notes.push(Note::AmpersandEntity);
        }
        if !query.is_empty() {
            path_and_query.push('?');
            path_and_query.push_str(&query);
        }
    }
    Ok(Canonical {
        scheme,
        host,
        path_and_query,
        notes,
    })
}

/// The scheme, if any, and what follows it (without `//`).
fn split_scheme(url: &str) -> Result<(Option<Scheme>, &str), UrlError> {
    if let Some(rest) = url.strip_prefix("//") {
        return Ok((None, rest));
    }
    if url.starts_with('/') {
        return Err(UrlError::NoHost {
            input: url.to_string(),
        });
    }
    let Some((name, rest)) = url.split_once(':') else {
        return Ok((None, url));
    };
    let is_scheme_syntax = name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if !is_scheme_syntax {
        return Ok((None, url));
    }
    // `example.com:8080/x` and `localhost:8080` are a host and a port, as
    // url-normalize reads them, not a scheme.
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let after_digits = rest[digits..].trim_start_matches([' ', '\t']);
    if (name.contains('.') || name.eq_ignore_ascii_case("localhost"))
        && digits > 0
        && (after_digits.is_empty() || after_digits.starts_with(['/', '?', '#']))
    {
        return Ok((None, url));
    }
    let scheme = match name.to_ascii_lowercase().as_str() {
        "http" => Scheme::Http,
        "https" => Scheme::Https,
        other => {
            return Err(UrlError::UnsupportedScheme {
                scheme: other.to_string(),
            });
        }
    };
    // `http:/x` and `http:///x` mean `http://x`, as for browsers.
    Ok((Some(scheme), rest.trim_start_matches('/')))
}

/// The host and the port of an authority; user information is an error.
fn split_authority(authority: &str) -> Result<(&str, Option<u16>), UrlError> {
    if let Some((userinfo, _)) = authority.rsplit_once('@') {
        return Err(UrlError::UserInfo {
            userinfo: userinfo.to_string(),
        });
    }
    let (host, port) = if authority.starts_with('[') {
        match authority.find(']') {
            Some(end) => {
                let (host, after) = authority.split_at(end + 1);
                match after.strip_prefix(':') {
                    Some(port) => (host, Some(port)),
                    None if after.is_empty() => (host, None),
                    None => {
                        return Err(UrlError::InvalidHost {
                            host: authority.to_string(),
                            reason: "unexpected text after `]`".to_string(),
                        });
                    }
                }
            }
            None => (authority, None),
        }
    } else {
        match authority.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        }
    };
    let port = match port {
        None | Some("") => None,
        Some(text) => {
            let invalid = || UrlError::InvalidPort {
                port: text.to_string(),
            };
            if !text.bytes().all(|b| b.is_ascii_digit()) {
                return Err(invalid());
            }
            let digits = text.trim_start_matches('0');
            if digits.is_empty() || digits.len() > 5 {
                return Err(invalid());
            }
            Some(digits.parse::<u16>().map_err(|_| invalid())?)
        }
    };
    Ok((host, port))
}

/// A host name as `verify` requests it, to compare names that may be
/// written differently (`Example.com`, `example.com.`, `bücher.example`
/// and its A-label form): [`canonical_host`] of the name, or, for a name
/// that is no host at all, the name lowercased without its trailing
/// dots, so that it still equals only itself in another letter case.
pub(crate) fn host_form(name: &str) -> std::borrow::Cow<'_, str> {
    // Nearly every name is written as its host already: lowercase ASCII
    // letters, digits, `-` and `.`, not ending in a dot, its last label not
    // a number (`127.1`, `0x7f`, which the parser reads as IPv4). UTS 46
    // and the parser leave such a name as it is: no parse for it.
    let last = name.rsplit('.').next().unwrap_or_default();
    let as_is = !name.is_empty()
        && !name.ends_with('.')
        && !last.starts_with(|c: char| c.is_ascii_digit())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.');
    if as_is {
        return name.into();
    }
    canonical_host(name, name)
        .unwrap_or_else(|_| name.trim_end_matches('.').to_lowercase())
        .into()
}

/// Lowercase, no trailing dot, IDN to A-labels (UTS 46, as browsers do).
fn canonical_host(host: &str, input: &str) -> Result<String, UrlError> {
    let trimmed = host.trim_end_matches(['.', '\u{3002}', '\u{FF0E}', '\u{FF61}']);
    if trimmed.is_empty() {
        return Err(UrlError::NoHost {
            input: input.to_string(),
        });
    }
    match url::Host::parse(trimmed) {
        // IDNA maps some characters to nothing (U+034F, U+200B, soft
        // hyphen...), which can leave trailing dots: read what is left
        // again, so that `0..` + U+034F is the host `0` is the IPv4
        // address 0.0.0.0 (as the result reads), and nothing is no host.
        Ok(url::Host::Domain(domain)) if domain.ends_with('.') => {
            canonical_host(domain.trim_end_matches('.'), input)
        }
        Ok(url::Host::Domain(domain)) => Ok(domain),
        Ok(url::Host::Ipv4(addr)) => Ok(addr.to_string()),
        Ok(url::Host::Ipv6(addr)) => Ok(format!("[{addr}]")),
        Err(e) => Err(UrlError::InvalidHost {
            host: host.to_string(),
            reason: e.to_string(),
        }),
    }
}

/// Characters that a canonical path or query holds as they are: the
/// unreserved ones (`NON_ALPHANUMERIC` minus `- . _ ~`) and the ones listed.
const fn keep(set: &'static AsciiSet, literal: &[u8]) -> AsciiSet {
    let mut set = set.remove(b'-').remove(b'.').remove(b'_').remove(b'~');
    let mut i = 0;
    while i < literal.len() {
        set = set.remove(literal[i]);
        i += 1;
    }
    set
}

/// Encoded in a path: all but unreserved, `/` and the sub-delimiters,
/// `:` and `@`. (`[` and `]` are encoded: RFC 3986 allows them only in a
/// host; url-normalize keeps them, see `docs/urls.md`.)
const PATH_ENCODE: AsciiSet = keep(NON_ALPHANUMERIC, b":/@!$&'()*+,;=");

/// Encoded in a query key or value: also `&` and `=` (they would split it)
/// and `#`; `?` and `/` are allowed in a query.
const QUERY_ENCODE: AsciiSet = keep(NON_ALPHANUMERIC, b":/?@!$'()*+,;");

/// RFC 3986 reserved characters: their escapes are never decoded in a
/// path, because `%2F` is not `/` (RFC 3986 section 2.2) and `%3F` is not `?`.
fn reserved(b: u8) -> bool {
    b":/?#[]@!$&'()*+,;=".contains(&b)
}

/// In a query, only `%2B` is kept encoded (`+` may mean a space to the
/// server); other escapes are decoded and encoded again as needed, which
/// changes nothing for `&` and `=` (always encoded inside a component).
fn query_reserved(b: u8) -> bool {
    b == b'+'
}

/// One pass over `text`: escapes of `keep_escaped` bytes are kept (hex
/// uppercased), other escapes decoded, and every byte that `encode` holds
/// (and every non-ASCII byte) encoded. A `%` not followed by two hex
/// digits is a literal `%`, hence `%25`.
fn recode(text: &str, keep_escaped: fn(u8) -> bool, encode: &'static AsciiSet) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 8);
    let mut pending: Vec<u8> = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        if let Some(byte) = escape_at(bytes, i) {
            if keep_escaped(byte) {
                out.extend(percent_encode(&pending, encode));
                pending.clear();
                out.push_str(&format!("%{byte:02X}"));
            } else {
                pending.push(byte);
            }
            i += 3;
        } else {
            pending.push(bytes[i]);
            i += 1;
        }
    }
    out.extend(percent_encode(&pending, encode));
    out
}

/// The byte of a `%XX` escape at `i`, if there is one.
fn escape_at(bytes: &[u8], i: usize) -> Option<u8> {
    if bytes.get(i) != Some(&b'%') {
        return None;
    }
    let hex = |b: Option<&u8>| b.and_then(|b| (*b as char).to_digit(16));
    Some((hex(bytes.get(i + 1))? * 16 + hex(bytes.get(i + 2))?) as u8)
}

/// The canonical form of a path (no query, no fragment).
pub(crate) fn canonical_path(path: &str) -> String {
    let recoded = recode(path, reserved, &PATH_ENCODE);
    let resolved = remove_dot_segments(&recoded);
    if resolved.is_empty() {
        "/".to_string()
    } else {
        resolved
    }
}

/// Dot segments removed as url-normalize removes them: `.` and `..` go,
/// `..` never climbs above the root, and empty segments collapse (`//`
/// becomes `/`), except that a trailing `/` stays.
fn remove_dot_segments(path: &str) -> String {
    let mut output: Vec<&str> = Vec::new();
    let mut last = "";
    for part in path.split('/') {
        match part {
            "" => {
                if output.is_empty() {
                    output.push(part);
                }
            }
            "." => {}
            ".." => {
                if output.len() > 1 {
                    output.pop();
                }
            }
            _ => output.push(part),
        }
        last = part;
    }
    if matches!(last, "" | "." | "..") {
        output.push("");
    }
    output.join("/")
}

/// The canonical query (without `?`; empty = no query) and whether an
/// `&amp;` was read as `&`.
fn canonical_query(query: &str) -> (String, bool) {
    let mut amp = false;
    let mut params: Vec<String> = Vec::new();
    for param in query.split('&') {
        let mut param = match param.split_once('=') {
            Some((key, value)) => format!(
                "{}={}",
                recode(key, query_reserved, &QUERY_ENCODE),
                recode(value, query_reserved, &QUERY_ENCODE)
            ),
            None => recode(param, query_reserved, &QUERY_ENCODE),
        };
        // `a=1&amp;b=2` is an HTML-escaped `a=1&b=2` (as WWWOFFLE reads it): a parameter
        // that starts with `amp;` lost its `&` to the escaping (`?&amp;b`
        // too, hence the first parameter as well). Looked for in the
        // recoded text, and repeated, so that the result is a fixed point:
        // `&amp;amp;` and `&%61mp;` need no second run.
        while let Some(rest) = param.strip_prefix("amp;") {
            param = rest.to_string();
            amp = true;
        }
        if !param.is_empty() {
            params.push(param);
        }
    }
    (params.join("&"), amp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recode_decodes_once_and_encodes_once() {
        assert_eq!(recode("%2541", reserved, &PATH_ENCODE), "%2541");
        assert_eq!(recode("%%41", reserved, &PATH_ENCODE), "%25A");
        assert_eq!(recode("%2%2f", reserved, &PATH_ENCODE), "%252%2F");
        assert_eq!(recode("%e9", reserved, &PATH_ENCODE), "%E9");
    }

    /// The names `host_form` takes as they are are the names the parser
    /// leaves as they are.
    #[test]
    fn host_form_skips_the_parse_only_where_it_changes_nothing() {
        for name in [
            "example.com",
            "a-b.example",
            "xn--bcher-kva.example",
            "xn--zz.example",
            "a..b",
            "-a.example",
            "www.0x7f",
            "1.example.com",
            "example.1a",
            "localhost",
        ] {
            let parsed = canonical_host(name, name)
                .unwrap_or_else(|_| name.trim_end_matches('.').to_lowercase());
            assert_eq!(host_form(name), parsed.as_str(), "{name}");
        }
        // A last label that is a number is parsed: IPv4, or no host.
        assert_eq!(host_form("127.1"), "127.0.0.1");
        assert_eq!(host_form("0x7f.1"), "127.0.0.1");
        assert_eq!(host_form("a.0x10"), "a.0x10");
    }

    #[test]
    fn dot_segments() {
        for (input, expected) in [
            ("/a/b/../c", "/a/c"),
            ("/a/./b", "/a/b"),
            ("/..", "/"),
            ("/a/..", "/"),
            ("/a/.", "/a/"),
            ("/a//b/", "/a/b/"),
            ("", "/"),
        ] {
            assert_eq!(remove_dot_segments(input), expected, "{input}");
        }
    }
}
