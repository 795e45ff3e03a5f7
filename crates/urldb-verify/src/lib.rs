//! `urldb verify` as a library: plan the URLs of the database ([`plan`]),
//! fetch them with bounded concurrency and a per-host limit
//! ([`run`]), judge each answer against its record ([`judge`]) and
//! gather them in one model ([`results`], merged across `--shard`s and
//! classified against a [`history`]) and describe them for people and
//! machines ([`output`]: one module per `--format`).
//!
//! The semantics are the reference tool's (`docs/verify.md`): GET,
//! redirects not followed, a status of 400 or more is broken, a 3xx passes
//! with `redirect-ok` or a matching `X-<status>-Redirect` content type,
//! otherwise the media type must match (with two tolerated aliases), and a
//! record with `content-length` / `content-sha256` gets its body streamed
//! and compared.
//!
//! The public surface is this file: five modules whose items read best
//! with their module's name (`plan::plan`, `history::append`,
//! `results::merge`), and the items below. Every other module is private.

pub mod config;
pub mod history;
pub mod output;
pub mod plan;
pub mod results;

mod blocked;
mod exceptions;
mod http;
mod robots;
mod schedule;
mod shard;
mod trend;

pub use exceptions::{AllowEnv, Allowed, BadAllowEnv, ExceptionError, Exceptions};
pub use http::{BodyMode, Client, ClientOptions, FetchError};
pub use robots::RobotsRules;
pub use shard::{Shard, ShardError};

use std::fmt;
use std::time::{Duration, Instant};

use crate::http::Response;
use plan::{Expect, UrlCheck};
use urldb_core::model::media_type;

/// How checks are run.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Requests in flight at once.
    pub concurrency: usize,
    /// Requests in flight at once to one origin (`scheme://host:port`).
    pub per_host: usize,
    /// Extra tries after a connection error, a 5xx or a 429.
    pub retries: u32,
    /// The wait before the first retry; it doubles for each next one, up
    /// to 8 s.
    pub backoff: Duration,
    /// Skip paths that `/robots.txt` disallows for urldb.
    pub respect_robots: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            concurrency: 32,
            per_host: 6,
            retries: 2,
            backoff: Duration::from_millis(250),
            respect_robots: false,
        }
    }
}

/// The longest `Retry-After` honoured: a server asking for more is retried
/// sooner (and probably still fails).
const MAX_RETRY_AFTER: Duration = Duration::from_secs(30);

/// [`Failure::kind`] of a record never requested (its `_path` is at
/// fault), which reports count apart.
pub(crate) const NOT_CHECKED: &str = "not-checked";

/// Why a URL is broken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// Never requested: the record's `_path` has a blocking finding
    /// (`urldb_core::rules::unrequested::BLOCKING`) or its URL cannot be built from its parts.
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
    /// `/robots.txt` disallows the path.
    SkippedByRobots,
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

#[derive(Debug, Clone)]
pub struct CheckResult {
    pub outcome: Outcome,
    /// The last status received, if any.
    pub status: Option<u16>,
    /// Requests made (1 + retries used).
    pub attempts: u32,
    pub elapsed: Duration,
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

/// Fetch one URL (never one that is not to be checked), retrying on
/// connection errors, 5xx and 429 that would be broken, and judge the
/// last answer.
pub(crate) fn check_one(client: &Client, check: &UrlCheck, options: &RunOptions) -> CheckResult {
    let unrequested = |outcome| CheckResult {
        outcome,
        status: None,
        attempts: 0,
        elapsed: Duration::ZERO,
    };
    if let Some(reason) = &check.not_checked {
        return unrequested(Outcome::Broken(Failure::NotChecked(reason.clone())));
    }
    if let Some(skip) = &check.skip {
        return unrequested(Outcome::Skipped(skip.clone()));
    }
    let start = Instant::now();
    let mode = if check.expect.wants_body() {
        BodyMode::Digest
    } else {
        BodyMode::Ignore
    };
    let mut attempts = 0;
    let mut wait = options.backoff;
    loop {
        attempts += 1;
        let last = attempts > options.retries;
        let result = client.get_with(&check.url, mode, None, &check.request);
        let (outcome, status, retry_after) = match result {
            Err(e) if e.is_transient() && !last => (None, None, None),
            Err(e) => (Some(Outcome::Broken(Failure::NoAnswer(e))), None, None),
            Ok(r) => {
                let outcome = outcome(check, &r);
                let again = matches!(outcome, Outcome::Broken(_))
                    && (r.status >= 500 || r.status == 429)
                    && !last;
                if again {
                    (None, None, r.retry_after)
                } else {
                    (Some(outcome), Some(r.status), None)
                }
            }
        };
        if let Some(outcome) = outcome {
            return CheckResult {
                outcome,
                status,
                attempts,
                elapsed: start.elapsed(),
            };
        }
        let (pause, next) = pause(wait, retry_after);
        std::thread::sleep(pause);
        wait = next;
    }
}

/// The longest wait the doubling reaches. A `Retry-After` may ask for up
/// to [`MAX_RETRY_AFTER`], so no wait is longer than that, and a URL waits
/// at most `retries` times as long (`docs/security.md`, "Work and output
/// are bounded").
const MAX_BACKOFF: Duration = Duration::from_secs(8);

/// The wait before the next try (`wait`, or the server's `Retry-After`
/// when longer, never more than [`MAX_RETRY_AFTER`]), and the wait after
/// that one: doubled, up to [`MAX_BACKOFF`].
fn pause(wait: Duration, retry_after: Option<u64>) -> (Duration, Duration) {
    let asked = retry_after.map_or(Duration::ZERO, Duration::from_secs);
    (
        asked.max(wait).min(MAX_RETRY_AFTER),
        wait.saturating_mul(2).min(MAX_BACKOFF),
    )
}

/// Run every check: `concurrency` worker threads, at most `per_host` per
/// origin. `on_result` is called (from worker threads) as each check ends.
/// Results are in the order of `checks`.
pub fn run(
    checks: &[UrlCheck],
    client: &Client,
    options: &RunOptions,
    on_result: &(dyn Fn(&UrlCheck, &CheckResult) + Sync),
) -> Vec<CheckResult> {
    let mut origins = std::collections::HashMap::new();
    let host_of: Vec<usize> = checks
        .iter()
        .map(|c| {
            let next = origins.len();
            *origins.entry(c.origin.as_str()).or_insert(next)
        })
        .collect();
    let scheduler = schedule::Scheduler::new(&host_of, options.per_host);
    let robots = robots::RobotsCache::default();
    let results: Vec<std::sync::Mutex<Option<CheckResult>>> =
        checks.iter().map(|_| std::sync::Mutex::new(None)).collect();
    let workers = options.concurrency.clamp(1, checks.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                while let Some(ticket) = scheduler.next() {
                    let check = &checks[ticket.check];
                    let result = if check.not_checked.is_some() || check.skip.is_some() {
                        check_one(client, check, options)
                    } else if options.respect_robots
                        && !robots.allowed(client, &check.origin, &check.path)
                    {
                        CheckResult {
                            outcome: Outcome::SkippedByRobots,
                            status: None,
                            attempts: 0,
                            elapsed: Duration::ZERO,
                        }
                    } else {
                        check_one(client, check, options)
                    };
                    scheduler.done(ticket);
                    on_result(check, &result);
                    if let Ok(mut slot) = results[ticket.check].lock() {
                        *slot = Some(result);
                    }
                }
            });
        }
    });
    results
        .into_iter()
        .map(|slot| {
            slot.into_inner().ok().flatten().unwrap_or(CheckResult {
                outcome: Outcome::Broken(Failure::NoAnswer(FetchError::Io(
                    "internal error: the check did not run".to_string(),
                ))),
                status: None,
                attempts: 0,
                elapsed: Duration::ZERO,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::Digest;

    #[test]
    fn every_wait_is_capped_whatever_the_retries_or_the_server_ask() {
        let max = crate::config::MAX_RETRIES;
        let (mut wait, mut total, mut waits) =
            (RunOptions::default().backoff, Duration::ZERO, vec![]);
        for _ in 0..max {
            let (now, next) = pause(wait, None);
            waits.push(now.as_millis());
            total += now;
            wait = next;
        }
        assert_eq!(
            waits,
            [250, 500, 1000, 2000, 4000, 8000, 8000, 8000, 8000, 8000]
        );
        assert_eq!(total, Duration::from_millis(47_750));
        // A server's Retry-After is honoured up to 30 s, never more.
        assert_eq!(pause(wait, Some(3600)).0, MAX_RETRY_AFTER);
        assert_eq!(pause(wait, Some(12)).0, Duration::from_secs(12));
        assert_eq!(pause(Duration::from_secs(600), None).0, MAX_RETRY_AFTER);
    }

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
