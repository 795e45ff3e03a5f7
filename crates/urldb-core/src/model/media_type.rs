//! Content types: the one reader of a `content-type` value, used by the
//! rules, by `verify` and by the URI-Catalogue reader and writer, so that
//! what one accepts the others accept too.
//!
//! A value is either a media type or a redirect marker:
//! - a media type, RFC 9110 section 8.3.1: `type "/" subtype *( OWS ";"
//!   OWS parameter )`, where type, subtype and parameter names are tokens
//!   (section 5.6.2) and a parameter value is a token or a quoted string
//!   with backslash escapes (section 5.6.4), so `charset="a;b"` is one
//!   parameter. Type, subtype and parameter names are case-insensitive;
//! - the redirect marker the reference tool stores for a URL that
//!   redirects, `X-<status>-Redirect` with a three-digit 3xx status, spelt
//!   exactly so (`X-301-Redirect`).

use std::ops::Range;

/// What a valid `content-type` value is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ContentType {
    /// A media type; the byte range of its `type/subtype` in the value.
    Media { essence: Range<usize> },
    /// `X-<status>-Redirect`, with the status.
    Redirect(u16),
}

/// RFC 9110 `tchar`.
pub(crate) fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// An RFC 9110 token: one or more `tchar`.
pub fn is_token(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(is_tchar)
}

/// What is wrong with a `content-type` value: a phrase for a diagnostic.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MediaTypeError {
    #[error("the redirect marker is written `X-{0}-Redirect`")]
    MarkerSpelling(String),
    #[error("a redirect marker holds a 3xx status, not `{0}`")]
    MarkerStatus(String),
    #[error("there is no `/subtype`")]
    NoSubtype,
    #[error("it ends with white space")]
    TrailingSpace,
    #[error("parameter `{0}` has no `=value`")]
    NoEquals(String),
    #[error("parameter `{0}` has no value")]
    NoValue(String),
    #[error("the value of parameter `{name}` {problem}")]
    BadQuoted { name: String, problem: QuotedError },
    /// A character (or the end) where `after` should be.
    #[error("{}", unexpected_message(*.found, *.at_start, .after))]
    Unexpected {
        found: Option<char>,
        at_start: bool,
        after: &'static str,
    },
}

/// What is wrong with a quoted parameter value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum QuotedError {
    #[error("has no closing `\"`")]
    Unclosed,
    #[error("has a `\\` that escapes nothing")]
    LoneBackslash,
    #[error("holds a control character")]
    Control,
}

fn unexpected_message(found: Option<char>, at_start: bool, after: &str) -> String {
    match found {
        None => format!("it ends where {after} should be"),
        Some(' ') => format!("a space is not allowed in {after}"),
        Some(c) if at_start => format!("it starts with `{c}`"),
        Some(c) => format!("`{c}` is not allowed in {after}"),
    }
}

/// Read a `content-type` value: a media type or a redirect marker, or
/// what is wrong with it.
pub fn parse(text: &str) -> Result<ContentType, MediaTypeError> {
    if let Some(status) = marker_status(text) {
        if let Some(status) = redirect_marker(text) {
            return Ok(ContentType::Redirect(status));
        }
        return match status.parse::<u16>() {
            Ok(300..=399) if status.len() == 3 => {
                Err(MediaTypeError::MarkerSpelling(status.to_string()))
            }
            _ => Err(MediaTypeError::MarkerStatus(status.to_string())),
        };
    }
    parse_media_type(text).map(|essence| ContentType::Media { essence })
}

/// Read a media type (a redirect marker is not one): the byte range of
/// its `type/subtype`, or what is wrong with it.
pub fn parse_media_type(text: &str) -> Result<Range<usize>, MediaTypeError> {
    let mut p = Parser { text, i: 0 };
    if p.token() == 0 {
        return Err(p.unexpected("a type"));
    }
    if !p.eat(b'/') {
        return Err(match p.peek() {
            None => MediaTypeError::NoSubtype,
            Some(_) => p.unexpected("the type"),
        });
    }
    if p.token() == 0 {
        return Err(p.unexpected("a subtype after `/`"));
    }
    let essence = 0..p.i;
    loop {
        let before = p.i;
        p.white_space();
        let Some(b) = p.peek() else {
            if p.i != before {
                return Err(MediaTypeError::TrailingSpace);
            }
            return Ok(essence);
        };
        if b != b';' {
            return Err(p.unexpected("the media type (parameters follow a `;`)"));
        }
        p.i += 1;
        p.white_space();
        let start = p.i;
        if p.token() == 0 {
            return Err(p.unexpected("a parameter `name=value` after `;`"));
        }
        let name = &text[start..p.i];
        if !p.eat(b'=') {
            return Err(MediaTypeError::NoEquals(name.to_string()));
        }
        if p.peek() == Some(b'"') {
            p.quoted_string()
                .map_err(|problem| MediaTypeError::BadQuoted {
                    name: name.to_string(),
                    problem,
                })?;
        } else if p.token() == 0 {
            return Err(MediaTypeError::NoValue(name.to_string()));
        }
    }
}

/// The status of a redirect marker, `X-301-Redirect` → 301: exactly this
/// spelling, three digits, a 3xx status.
pub fn redirect_marker(text: &str) -> Option<u16> {
    let digits = text.strip_prefix("X-")?.strip_suffix("-Redirect")?;
    if digits.len() != 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok().filter(|s| (300..400).contains(s))
}

/// The digits of something written like a redirect marker, in any case
/// and with any number of digits (`x-0301-redirect`), for a diagnostic
/// that says how to write it.
fn marker_status(text: &str) -> Option<&str> {
    let b = text.as_bytes();
    if b.len() < 11
        || !b[..2].eq_ignore_ascii_case(b"X-")
        || !b[b.len() - 9..].eq_ignore_ascii_case(b"-Redirect")
    {
        return None;
    }
    let status = text.get(2..text.len() - 9)?;
    (!status.is_empty() && status.bytes().all(|b| b.is_ascii_digit())).then_some(status)
}

/// The byte range of `type/subtype` in a value whose part before the
/// first `;` is, white space around it aside, two tokens joined by `/`;
/// the parameters are not read. For a header a server sent, or a value
/// only the essence of which matters.
pub(crate) fn essence_range(text: &str) -> Option<Range<usize>> {
    let head = &text[..text.find(';').unwrap_or(text.len())];
    let start = head.len() - head.trim_start().len();
    let trimmed = head.trim();
    let (kind, subtype) = trimmed.split_once('/')?;
    (is_token(kind) && is_token(subtype)).then_some(start..start + trimmed.len())
}

/// The part of a value before the first `;`, white space around it
/// removed: the `type/subtype` of a media type (or, for a malformed
/// header, whatever stands there).
pub fn essence(text: &str) -> &str {
    text.split(';').next().unwrap_or_default().trim()
}

/// The two values name the same media type: the same `type/subtype`,
/// ignoring case and parameters.
#[cfg(test)]
fn same_essence(a: &str, b: &str) -> bool {
    essence(a).eq_ignore_ascii_case(essence(b))
}

struct Parser<'a> {
    text: &'a str,
    i: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.i).copied()
    }

    fn eat(&mut self, b: u8) -> bool {
        let found = self.peek() == Some(b);
        if found {
            self.i += 1;
        }
        found
    }

    /// Skip a token; its length.
    fn token(&mut self) -> usize {
        let start = self.i;
        while self.peek().is_some_and(is_tchar) {
            self.i += 1;
        }
        self.i - start
    }

    /// OWS: spaces and tabs.
    fn white_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.i += 1;
        }
    }

    /// `DQUOTE *( qdtext / quoted-pair ) DQUOTE`, from the opening quote.
    fn quoted_string(&mut self) -> Result<(), QuotedError> {
        self.i += 1;
        loop {
            match self.peek() {
                None => return Err(QuotedError::Unclosed),
                Some(b'"') => {
                    self.i += 1;
                    return Ok(());
                }
                Some(b'\\') => {
                    self.i += 1;
                    match self.peek() {
                        Some(b) if b == b'\t' || b >= b' ' && b != 0x7F => self.i += 1,
                        _ => return Err(QuotedError::LoneBackslash),
                    }
                }
                // qdtext: HTAB, SP, VCHAR except `"` and `\`, obs-text.
                Some(b) if b == b'\t' || b >= b' ' && b != 0x7F => self.i += 1,
                Some(_) => return Err(QuotedError::Control),
            }
        }
    }

    /// What is wrong at the current position, after `after`.
    fn unexpected(&self, after: &'static str) -> MediaTypeError {
        MediaTypeError::Unexpected {
            found: self.text.get(self.i..).and_then(|rest| rest.chars().next()),
            at_start: self.i == 0,
            after,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a value is: a media type with this `type/subtype`, a redirect
    /// with this status, or invalid.
    #[derive(Debug, PartialEq)]
    enum Is<'a> {
        Media(&'a str),
        Redirect(u16),
        Invalid,
    }

    /// One table for every reader: `parse`, `parse_media_type` and
    /// `redirect_marker` must all agree with it.
    const CASES: &[(&str, Is<'static>)] = &[
        ("text/html", Is::Media("text/html")),
        ("image/x-icon", Is::Media("image/x-icon")),
        (
            "application/vnd.ms-excel",
            Is::Media("application/vnd.ms-excel"),
        ),
        ("application/atom+xml", Is::Media("application/atom+xml")),
        ("text/html; charset=utf-8", Is::Media("text/html")),
        ("text/html;charset=UTF-8", Is::Media("text/html")),
        ("text/html ;charset=utf-8 ; q=1", Is::Media("text/html")),
        ("text/html;\tcharset=utf-8", Is::Media("text/html")),
        ("text/html; charset=\"a;b\"", Is::Media("text/html")),
        ("text/html; charset=\"\"", Is::Media("text/html")),
        (
            "multipart/form-data; boundary=\"a b;c\\\"d\"",
            Is::Media("multipart/form-data"),
        ),
        ("TEXT/HTML", Is::Media("TEXT/HTML")),
        ("Text/HTML; Charset=UTF-8", Is::Media("Text/HTML")),
        ("a!#$%&'*+-.^_`|~9/z", Is::Media("a!#$%&'*+-.^_`|~9/z")),
        ("X-300-Redirect", Is::Redirect(300)),
        ("X-301-Redirect", Is::Redirect(301)),
        ("X-308-Redirect", Is::Redirect(308)),
        ("X-399-Redirect", Is::Redirect(399)),
        ("X-200-Redirect", Is::Invalid),
        ("X-404-Redirect", Is::Invalid),
        ("X-3010-Redirect", Is::Invalid),
        ("X-0301-Redirect", Is::Invalid),
        ("X-30-Redirect", Is::Invalid),
        ("X--Redirect", Is::Invalid),
        ("x-301-redirect", Is::Invalid),
        ("X-301-redirect", Is::Invalid),
        (" X-301-Redirect", Is::Invalid),
        ("", Is::Invalid),
        ("html", Is::Invalid),
        ("text/", Is::Invalid),
        ("/html", Is::Invalid),
        ("text html", Is::Invalid),
        ("text/html;", Is::Invalid),
        ("text/html; charset", Is::Invalid),
        ("text/html; charset=", Is::Invalid),
        ("text/html; =utf-8", Is::Invalid),
        ("text/html charset=utf-8", Is::Invalid),
        ("text/html ", Is::Invalid),
        (" text/html", Is::Invalid),
        ("text/html/x", Is::Invalid),
        ("text/html; charset=\"utf-8", Is::Invalid),
        ("text/html; charset=\"a\\", Is::Invalid),
        ("text/html; charset=\"a\u{1}\"", Is::Invalid),
        ("text/html; charset=a;b", Is::Invalid),
        ("text/html; charset=a b", Is::Invalid),
        ("text/(html)", Is::Invalid),
        ("text/htmł", Is::Invalid),
        ("text/html, text/plain", Is::Invalid),
    ];

    #[test]
    fn one_table_for_every_reader() {
        for (text, expected) in CASES {
            let got = match parse(text) {
                Ok(ContentType::Media { essence }) => {
                    assert_eq!(parse_media_type(text), Ok(essence.clone()), "{text:?}");
                    assert_eq!(redirect_marker(text), None, "{text:?}");
                    let name = &text[essence];
                    assert_eq!(
                        essence_range(text).map(|r| &text[r]),
                        Some(name),
                        "{text:?}"
                    );
                    assert!(same_essence(text, name), "{text:?}");
                    Is::Media(name)
                }
                Ok(ContentType::Redirect(status)) => {
                    assert!(parse_media_type(text).is_err(), "{text:?}");
                    assert_eq!(redirect_marker(text), Some(status), "{text:?}");
                    Is::Redirect(status)
                }
                Err(problem) => {
                    assert!(!problem.to_string().is_empty(), "{text:?}");
                    assert!(parse_media_type(text).is_err(), "{text:?}");
                    assert_eq!(redirect_marker(text), None, "{text:?}");
                    Is::Invalid
                }
            };
            assert_eq!(&got, expected, "{text:?}");
        }
    }

    /// Pairs that name the same media type, and pairs that do not.
    const EQUAL: &[(&str, &str, bool)] = &[
        ("text/html", "text/html", true),
        ("Text/HTML", "text/html", true),
        ("text/html; charset=utf-8", "TEXT/html", true),
        ("text/html;charset=\"a;b\"", "text/html", true),
        (" text/html ; q=1", "text/html", true),
        ("text/plain", "text/html", false),
        ("text/html", "text/htm", false),
        ("application/javascript", "application/x-javascript", false),
        ("X-301-Redirect", "text/html", false),
    ];

    #[test]
    fn equal_ignoring_case_and_parameters() {
        for (a, b, same) in EQUAL {
            assert_eq!(same_essence(a, b), *same, "{a:?} {b:?}");
            assert_eq!(same_essence(b, a), *same, "{b:?} {a:?}");
        }
    }

    #[test]
    fn essence_of_a_value_with_bad_parameters() {
        assert_eq!(essence_range("Text/HTML; charset"), Some(0..9));
        assert_eq!(essence_range("  Text/HTML ;"), Some(2..11));
        assert_eq!(essence_range("Text HTML"), None);
        assert_eq!(essence_range("Text/"), None);
        assert_eq!(essence_range("Text/HT ML"), None);
        assert_eq!(essence_range("X-301-Redirect"), None);
    }

    #[test]
    fn explains_the_problem() {
        let problem = |t| parse(t).err().map(|e| e.to_string()).unwrap_or_default();
        assert_eq!(problem("html"), "there is no `/subtype`");
        assert_eq!(problem("text html"), "a space is not allowed in the type");
        assert_eq!(
            problem("text/html; charset"),
            "parameter `charset` has no `=value`"
        );
        assert_eq!(
            problem("text/"),
            "it ends where a subtype after `/` should be"
        );
        assert_eq!(
            problem("x-301-redirect"),
            "the redirect marker is written `X-301-Redirect`"
        );
        assert_eq!(
            problem("X-404-Redirect"),
            "a redirect marker holds a 3xx status, not `404`"
        );
    }
}
