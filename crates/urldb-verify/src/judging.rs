//! Judging an answer: what the record promises (its content type, a
//! redirect, its length and digest) against what the server answered, then
//! what `urldb.toml` accepts and whether a bot wall answered instead
//! (`docs/verify.md`). No request is made here: `running.rs` makes
//! them and asks.

use std::fmt;
use std::time::Duration;

use crate::exceptions;
use crate::http::{FetchError, Response};
use crate::plan::{Expect, UrlCheck};
use urldb_core::model::media_type;

/// The longest `Retry-After` honoured: a server asking for more is retried
/// sooner (and probably still fails).
pub(crate) const MAX_RETRY_AFTER: Duration = Duration::from_secs(30);

/// [`Failure::kind`] of a record never requested (its `_path` is at
/// fault), which reports count apart.
pub(crate) const NOT_CHECKED: &str = "not-checked";

/// Why a URL is broken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// Never requested: the record's `_path` has a blocking finding
    /// (`urldb_core::rules::unrequested::blocking`) or its URL cannot be built from its parts.
    NotChecked(String),
    /// No (complete) answer, after the retries.
    NoAnswer(FetchError),
    /// A status of 400 or more (or a 1xx / odd status), after the retries.
    Status(u16),
    /// A redirect for a record that expects content.
    UnexpectedRedirect {
        status: u16,
        location: Option<String>,
        expected: String,
    },
    /// A redirect with another status than the record's `X-<status>-Redirect`.
    WrongRedirect {
        status: u16,
        location: Option<String>,
        expected: u16,
    },
    /// Content where the record expects a redirect.
    NotARedirect {
        status: u16,
        expected: u16,
    },
    ContentType {
        got: Option<String>,
        expected: String,
    },
    Length {
        got: u64,
        expected: u64,
    },
    Sha256 {
        got: String,
        expected: String,
    },
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let to = |location: &Option<String>| match location {
            Some(l) => format!(" to {l}"),
            None => " (no Location)".to_string(),
        };
        match self {
            Failure::NotChecked(reason) => write!(f, "not checked: {reason}"),
            Failure::NoAnswer(e) => write!(f, "no answer: {e}"),
            Failure::Status(s) => write!(f, "HTTP {s}{}", reason(*s)),
            Failure::UnexpectedRedirect {
                status,
                location,
                expected,
            } => write!(
                f,
                "redirect {status}{}; the record expects `{expected}` (a redirect passes with category `redirect-ok` or content type `X-{status}-Redirect`)",
                to(location)
            ),
            Failure::WrongRedirect {
                status,
                location,
                expected,
            } => write!(
                f,
                "redirect {status}{}, expected a {expected}",
                to(location)
            ),
            Failure::NotARedirect { status, expected } => {
                write!(f, "HTTP {status}, expected a {expected} redirect")
            }
            Failure::ContentType {
                got: Some(got),
                expected,
            } => {
                write!(f, "content type `{got}`, expected `{expected}`")
            }
            Failure::ContentType {
                got: None,
                expected,
            } => {
                write!(f, "no content type, expected `{expected}`")
            }
            Failure::Length { got, expected } => {
                write!(f, "body is {got} bytes, expected {expected}")
            }
            Failure::Sha256 { got, expected } => {
                write!(f, "body SHA-256 is {got}, expected {expected}")
            }
        }
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        400 => " Bad Request",
        401 => " Unauthorized",
        403 => " Forbidden",
        404 => " Not Found",
        410 => " Gone",
        429 => " Too Many Requests",
        500 => " Internal Server Error",
        502 => " Bad Gateway",
        503 => " Service Unavailable",
        504 => " Gateway Timeout",
        _ => "",
    }
}

impl Failure {
    /// A stable kebab-case name for machines (JSON, JUnit).
    pub fn kind(&self) -> &'static str {
        match self {
            Failure::NotChecked(_) => NOT_CHECKED,
            Failure::NoAnswer(FetchError::PrivateAddress { .. }) => "private-address",
            Failure::NoAnswer(FetchError::Timeout(_)) => "timeout",
            Failure::NoAnswer(_) => "no-answer",
            Failure::Status(_) => "status",
            Failure::UnexpectedRedirect { .. } => "unexpected-redirect",
            Failure::WrongRedirect { .. } => "wrong-redirect",
            Failure::NotARedirect { .. } => "not-a-redirect",
            Failure::ContentType { .. } => "content-type",
            Failure::Length { .. } => "content-length",
            Failure::Sha256 { .. } => "content-sha256",
        }
    }
}

/// What became of one check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Ok,
    /// A status that would fail, accepted by `urldb.toml` (`accept`).
    Accepted(u16),
    Broken(Failure),
    /// A bot wall answered, not the URL's server.
    Blocked(Blocked),
    /// `/robots.txt` keeps urldb away: a rule, or a robots.txt that could
    /// not be read (`crate::robots`).
    SkippedByRobots(crate::robots::RobotsDenial),
    /// Never requested: a `skip` entry or the record's `skip-verify`.
    Skipped(exceptions::Skip),
}

/// Why an answer is `blocked` rather than broken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Blocked {
    /// A 403, 429 or 503 that is a bot challenge ([`blocked`]).
    Challenge(u16),
    /// A 429 asking for a wait longer than urldb's cap.
    RetryAfter(u64),
}

impl Blocked {
    /// A stable name for machines: `challenge` or `retry-after`.
    pub fn kind(&self) -> &'static str {
        match self {
            Blocked::Challenge(_) => "challenge",
            Blocked::RetryAfter(_) => "retry-after",
        }
    }
}

impl fmt::Display for Blocked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Blocked::Challenge(s) => write!(f, "blocked: a bot challenge (HTTP {s}{})", reason(*s)),
            Blocked::RetryAfter(secs) => write!(
                f,
                "blocked: HTTP 429 Too Many Requests, Retry-After {secs} s (urldb waits at most {} s)",
                MAX_RETRY_AFTER.as_secs()
            ),
        }
    }
}

/// The tolerated equivalences of the reference tool: servers switch
/// between these names without the resource changing.
const ALIASES: [(&str, &str); 2] = [
    ("application/javascript", "application/x-javascript"),
    ("application/x-zip-compressed", "application/zip"),
];

/// The two content types name the same media type (parameters ignored,
/// case-insensitive: [`media_type::essence`]), or tolerated aliases.
pub(crate) fn same_media_type(a: &str, b: &str) -> bool {
    let a = media_type::essence(a).to_ascii_lowercase();
    let b = media_type::essence(b).to_ascii_lowercase();
    a == b
        || ALIASES
            .iter()
            .any(|&(x, y)| (a == x && b == y) || (a == y && b == x))
}

/// Judge a final answer against what the record promises.
pub fn judge(expect: &Expect, response: &Response) -> Result<(), Failure> {
    let status = response.status;
    if (300..400).contains(&status) {
        if expect.redirect_ok {
            return Ok(());
        }
        return match expect.redirect_status() {
            Some(expected) if expected == status => Ok(()),
            Some(expected) => Err(Failure::WrongRedirect {
                status,
                location: response.location.clone(),
                expected,
            }),
            None => Err(Failure::UnexpectedRedirect {
                status,
                location: response.location.clone(),
                expected: expect.content_type.clone(),
            }),
        };
    }
    if !(200..300).contains(&status) {
        return Err(Failure::Status(status));
    }
    if let Some(expected) = expect.redirect_status() {
        // `redirect-ok` alone does not make a 2xx wrong; the marker does.
        return Err(Failure::NotARedirect { status, expected });
    }
    if !expect.content_type_change_ok {
        let matches = response
            .content_type
            .as_deref()
            .is_some_and(|got| same_media_type(got, &expect.content_type));
        if !matches {
            return Err(Failure::ContentType {
                got: response.content_type.clone(),
                expected: expect.content_type.clone(),
            });
        }
    }
    if let Some(body) = &response.body {
        if let Some(expected) = expect.length
            && body.length != expected
        {
            return Err(Failure::Length {
                got: body.length,
                expected,
            });
        }
        if let Some(expected) = &expect.sha256
            && body.sha256_hex != *expected
        {
            return Err(Failure::Sha256 {
                got: body.sha256_hex.clone(),
                expected: expected.clone(),
            });
        }
    }
    Ok(())
}

/// The outcome of an answer: the record's judgement ([`judge`]), then
/// what the configuration accepts, then a bot wall.
pub fn outcome(check: &UrlCheck, response: &Response) -> Outcome {
    let failure = match judge(&check.expect, response) {
        Ok(()) => return Outcome::Ok,
        Err(f) => f,
    };
    let status = response.status;
    let about_the_status = matches!(
        failure,
        Failure::Status(_)
            | Failure::UnexpectedRedirect { .. }
            | Failure::WrongRedirect { .. }
            | Failure::NotARedirect { .. }
    );
    if about_the_status && check.request.accepts(status) {
        return Outcome::Accepted(status);
    }
    if response.challenge {
        return Outcome::Blocked(Blocked::Challenge(status));
    }
    if status == 429
        && let Some(wait) = response.retry_after
        && wait > MAX_RETRY_AFTER.as_secs()
    {
        return Outcome::Blocked(Blocked::RetryAfter(wait));
    }
    Outcome::Broken(failure)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::Digest;

    fn expect(content_type: &str) -> Expect {
        Expect {
            content_type: content_type.to_string(),
            redirect_ok: false,
            content_type_change_ok: false,
            length: None,
            sha256: None,
        }
    }

    fn response(status: u16, content_type: Option<&str>) -> Response {
        Response {
            status,
            content_type: content_type.map(str::to_string),
            location: Some("/elsewhere".to_string()),
            retry_after: None,
            rate_limit: crate::pace::RateLimit::default(),
            body: None,
            bytes: None,
            challenge: false,
        }
    }

    #[test]
    fn media_types_ignore_parameters_case_and_tolerated_aliases() {
        assert!(same_media_type("text/html; charset=utf-8", "text/html"));
        assert!(same_media_type("Text/HTML", "text/html"));
        assert!(same_media_type(
            "application/javascript",
            "application/x-javascript"
        ));
        assert!(same_media_type(
            "application/x-javascript;charset=utf-8",
            "application/javascript"
        ));
        assert!(same_media_type(
            "application/zip",
            "application/x-zip-compressed"
        ));
        assert!(!same_media_type("text/plain", "text/html"));
        assert!(!same_media_type(
            "application/zip",
            "application/javascript"
        ));
    }

    #[test]
    fn statuses() {
        let e = expect("text/html");
        assert_eq!(judge(&e, &response(200, Some("text/html"))), Ok(()));
        assert_eq!(
            judge(&e, &response(404, Some("text/html"))),
            Err(Failure::Status(404))
        );
        assert_eq!(
            judge(&e, &response(500, None)).map_err(|f| f.to_string()),
            Err("HTTP 500 Internal Server Error".to_string())
        );
    }

    #[test]
    fn redirects() {
        let e = expect("text/html");
        let err = judge(&e, &response(301, None)).unwrap_err();
        assert_eq!(err.kind(), "unexpected-redirect");
        assert!(err.to_string().contains("redirect-ok"), "{err}");
        let mut ok = expect("text/html");
        ok.redirect_ok = true;
        assert_eq!(judge(&ok, &response(302, None)), Ok(()));
        let marker = expect("X-301-Redirect");
        assert_eq!(judge(&marker, &response(301, None)), Ok(()));
        assert_eq!(
            judge(&marker, &response(302, None)).unwrap_err().kind(),
            "wrong-redirect"
        );
        assert_eq!(
            judge(&marker, &response(200, Some("text/html"))),
            Err(Failure::NotARedirect {
                status: 200,
                expected: 301
            })
        );
    }

    #[test]
    fn content_types() {
        let e = expect("text/html");
        assert_eq!(
            judge(&e, &response(200, Some("text/plain")))
                .unwrap_err()
                .to_string(),
            "content type `text/plain`, expected `text/html`"
        );
        assert_eq!(
            judge(&e, &response(200, None)).unwrap_err().to_string(),
            "no content type, expected `text/html`"
        );
        let mut lax = expect("text/html");
        lax.content_type_change_ok = true;
        assert_eq!(judge(&lax, &response(200, Some("text/plain"))), Ok(()));
    }

    #[test]
    fn bodies() {
        let mut e = expect("text/plain");
        e.length = Some(3);
        e.sha256 = Some("ab".repeat(32));
        let mut r = response(200, Some("text/plain"));
        r.body = Some(Digest {
            length: 4,
            sha256_hex: "ab".repeat(32),
        });
        assert_eq!(judge(&e, &r).unwrap_err().kind(), "content-length");
        r.body = Some(Digest {
            length: 3,
            sha256_hex: "cd".repeat(32),
        });
        assert_eq!(judge(&e, &r).unwrap_err().kind(), "content-sha256");
        r.body = Some(Digest {
            length: 3,
            sha256_hex: "ab".repeat(32),
        });
        assert_eq!(judge(&e, &r), Ok(()));
    }
}
