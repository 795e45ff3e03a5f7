//! `verify --archive`: for a broken URL, a copy in a web archive that
//! speaks the Wayback Machine's CDX API (`docs/verify.md`, "When a URL
//! breaks"): the captures listed by `/cdx/search/cdx?url=URL&output=json`,
//! the newest few fetched raw (`/web/TIMESTAMPid_/URL`), and the newest
//! whose SHA-256 and length are the record's reported as a byte-identical
//! copy; for a page (a record without `content-sha256`), the newest of the
//! same media type, unverified.
//!
//! What is sent is the URL as the record publishes it, never one of a
//! host with headers of its own in `urldb.toml` (they may be secrets, and
//! its URLs private) nor of a private host (`docs/security.md`). The
//! archive is a host of the run like any other: paced, limited, counted.

use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::http::{FetchError, Response};
use crate::judging::same_media_type;
use crate::plan::Expect;

/// The Internet Archive's Wayback Machine, the default archive.
pub const DEFAULT_ARCHIVE: &str = "https://web.archive.org";

/// The Internet Archive's published limit for its CDX API is 60 requests
/// a minute from one address, averaged over five minutes: one request a
/// second, one at a time, keeps under it.
pub const INTERNET_ARCHIVE_INTERVAL: Duration = Duration::from_secs(1);

/// The captures fetched at most for one URL: the newest.
pub(crate) const MAX_CAPTURES: usize = 3;

/// The redirects followed from a capture's URL, on the archive's own
/// origin only (the Wayback Machine sends a time it has no capture at to
/// the nearest one).
pub(crate) const MAX_CAPTURE_REDIRECTS: usize = 3;

/// The captures a CDX query asks for: the newest.
const MAX_LISTED: usize = 100;

/// The most of a CDX answer read.
pub(crate) const MAX_CDX: u64 = 1 << 20;

/// How long a lookup kept in the history is used instead of asking
/// again.
pub const LOOKUP_KEPT: jiff::SignedDuration = jiff::SignedDuration::from_hours(30 * 24);

/// What `--archive` needs besides the run's client.
#[derive(Debug, Clone, Default)]
pub struct ArchiveOptions {
    /// The archive's base URL (`--archive-url`, `[verify] archive-url`).
    pub base: String,
    /// The base came from `urldb.toml`, not from the person running
    /// urldb: its address is always guarded, whatever `--allow-private`
    /// says.
    pub guarded: bool,
    /// Hosts (as records name them) never sent: those with headers of
    /// their own in `urldb.toml`.
    pub never: BTreeSet<String>,
    /// Lookups kept in the history, by the URL of the result: used
    /// instead of asking again while younger than [`LOOKUP_KEPT`] and made
    /// for the same record.
    pub known: HashMap<String, Archived>,
    /// Now, to date this run's lookups.
    pub now: String,
}

/// What the archive holds of a broken URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ArchiveVerdict {
    /// A capture with the record's SHA-256 and length.
    Identical,
    /// A capture of the record's media type: a page, unverified.
    Unverified,
    /// No capture that serves.
    None,
    /// Not sent to the archive (the reason says why).
    NotAsked,
}

/// A lookup in the archive for one URL: kept in the results and in the
/// history (`facts.archive`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Archived {
    pub verdict: ArchiveVerdict,
    /// The capture's time, `YYYYMMDDhhmmss`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<String>,
    /// The capture, as a person opens it in the archive.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Why, in words.
    pub reason: String,
    /// When the archive was asked (RFC 3339).
    pub looked: String,
    /// What the lookup compared: the record's `content-sha256`, else its
    /// `content-type`. A record changed since is looked up again.
    pub record: String,
}

impl fmt::Display for Archived {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = |f: &mut fmt::Formatter<'_>, what: &str| {
            write!(
                f,
                "{what} at {}: {}",
                self.timestamp.as_deref().unwrap_or("?"),
                self.url.as_deref().unwrap_or("?")
            )
        };
        match self.verdict {
            ArchiveVerdict::Identical => at(f, "byte-identical copy"),
            ArchiveVerdict::Unverified => at(f, "archived copy (unverified: the same media type)"),
            ArchiveVerdict::None => write!(f, "no archived copy: {}", self.reason),
            ArchiveVerdict::NotAsked => write!(f, "archive not asked: {}", self.reason),
        }
    }
}

/// What a lookup compares for `expect`.
pub(crate) fn compared(expect: &Expect) -> String {
    expect
        .sha256
        .clone()
        .unwrap_or_else(|| expect.content_type.clone())
}

/// The lookup kept for `url` when it is still good for `expect`.
pub(crate) fn kept<'a>(
    options: &'a ArchiveOptions,
    url: &str,
    expect: &Expect,
    now: jiff::Timestamp,
) -> Option<&'a Archived> {
    let known = options.known.get(url)?;
    let looked: jiff::Timestamp = known.looked.parse().ok()?;
    let fresh = now.duration_since(looked) < LOOKUP_KEPT && looked <= now;
    (fresh && known.record == compared(expect) && known.verdict != ArchiveVerdict::NotAsked)
        .then_some(known)
}

/// Why `published` (a record's URL) is never sent to an archive, if it is
/// not: a host with headers of its own, or a private host (an IP address
/// that is not public, a name no public DNS serves, or one whose
/// addresses were private when urldb connected to it).
pub(crate) fn withheld(
    published: &str,
    never: &BTreeSet<String>,
    resolved_private: bool,
) -> Option<String> {
    let url = url::Url::parse(published).ok()?;
    let host = url.host_str()?.trim_end_matches('.').to_ascii_lowercase();
    if never.contains(&host) {
        return Some("urldb.toml sends its host headers of its own".to_string());
    }
    let private_ip = match url.host() {
        Some(url::Host::Ipv4(ip)) => crate::http::is_private(ip.into()),
        Some(url::Host::Ipv6(ip)) => crate::http::is_private(ip.into()),
        _ => false,
    };
    let private_name = !host.contains('.')
        || [
            ".localhost",
            ".local",
            ".internal",
            ".intranet",
            ".lan",
            ".corp",
            ".home",
            ".home.arpa",
        ]
        .iter()
        .any(|s| host.ends_with(s));
    (private_ip || private_name || resolved_private).then(|| "a private host".to_string())
}

/// The CDX query for `published` on the archive at `base`.
pub(crate) fn cdx_url(base: &str, published: &str) -> Option<String> {
    let mut url =
        url::Url::parse(&format!("{}/cdx/search/cdx", base.trim_end_matches('/'))).ok()?;
    url.query_pairs_mut()
        .append_pair("url", published)
        .append_pair("output", "json")
        .append_pair("fl", "timestamp,original,mimetype,statuscode")
        .append_pair("filter", "statuscode:200")
        // Captures of the same bytes in a row are one candidate, and the
        // newest hundred are plenty (a popular URL has thousands).
        .append_pair("collapse", "digest")
        .append_pair("limit", &format!("-{MAX_LISTED}"));
    Some(url.to_string())
}

/// A capture's raw bytes (`id_`) and the page a person opens.
pub(crate) fn capture_urls(base: &str, timestamp: &str, published: &str) -> (String, String) {
    let base = base.trim_end_matches('/');
    (
        format!("{base}/web/{timestamp}id_/{published}"),
        format!("{base}/web/{timestamp}/{published}"),
    )
}

/// One capture listed by the CDX API.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Capture {
    pub timestamp: String,
    pub mimetype: String,
}

/// Why the archive listed no captures of a URL: said in the lookup's
/// reason, and the URL asked again by the next run.
#[derive(Debug, thiserror::Error)]
pub(crate) enum NotListed {
    #[error("`{0}` is no archive URL")]
    NoArchiveUrl(String),
    #[error("the archive answers HTTP {0}")]
    Status(u16),
    #[error("no answer from the archive: {0}")]
    NoAnswer(#[source] crate::http::FetchError),
    #[error("the archive's answer is not a CDX JSON list ({0})")]
    NotCdx(#[source] serde_json::Error),
    #[error("the archive's answer has no `timestamp` column")]
    NoTimestamp,
}

/// The captures of a CDX answer (`output=json`: a header row, then one
/// row per capture) that answered 200, newest first. Anything else is no
/// capture.
pub(crate) fn captures(body: &[u8]) -> Result<Vec<Capture>, NotListed> {
    let rows: Vec<Vec<serde_json::Value>> =
        serde_json::from_slice(body).map_err(NotListed::NotCdx)?;
    let Some((header, rows)) = rows.split_first() else {
        return Ok(Vec::new());
    };
    let column = |name: &str| header.iter().position(|h| h.as_str() == Some(name));
    let (Some(ts), mime, status) = (
        column("timestamp"),
        column("mimetype"),
        column("statuscode"),
    ) else {
        return Err(NotListed::NoTimestamp);
    };
    let text = |row: &[serde_json::Value], i: Option<usize>| {
        i.and_then(|i| row.get(i))
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_string()
    };
    let mut found: Vec<Capture> = rows
        .iter()
        .filter(|row| status.is_none() || text(row, status) == "200")
        .map(|row| Capture {
            timestamp: text(row, Some(ts)),
            mimetype: text(row, mime),
        })
        // A timestamp goes into a URL: digits only.
        .filter(|c| !c.timestamp.is_empty() && c.timestamp.bytes().all(|b| b.is_ascii_digit()))
        .collect();
    found.sort_by(|a, b| b.timestamp.cmp(&a.timestamp));
    found.dedup();
    Ok(found)
}

/// The captures worth fetching for `expect`: the newest few; for a page,
/// the newest few the CDX lists with its media type.
pub(crate) fn candidates(expect: &Expect, all: Vec<Capture>) -> Vec<Capture> {
    all.into_iter()
        .filter(|c| {
            expect.sha256.is_some()
                || c.mimetype.is_empty()
                || same_media_type(&c.mimetype, &expect.content_type)
        })
        .take(MAX_CAPTURES)
        .collect()
}

/// A capture's answer: does it serve the record? `Some(true)` the bytes
/// (or, for a page, the media type), `Some(false)` not, `None` no answer.
pub(crate) fn serves(expect: &Expect, answer: &Result<Response, FetchError>) -> Option<bool> {
    let response = answer.as_ref().ok()?;
    if !(200..300).contains(&response.status) {
        return None;
    }
    Some(match (&expect.sha256, &response.body) {
        (Some(sha256), Some(body)) => {
            *sha256 == body.sha256_hex && expect.length.is_none_or(|l| l == body.length)
        }
        (Some(_), None) => false,
        (None, _) => response
            .content_type
            .as_deref()
            .is_some_and(|got| same_media_type(got, &expect.content_type)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cdx_answers_are_read_by_their_header_newest_first() {
        let body = br#"[["urlkey","timestamp","original","mimetype","statuscode","digest","length"],
            ["test,example)/a","20200101000000","http://example.test/a","application/pdf","200","X","1"],
            ["test,example)/a","20240101000000","http://example.test/a","application/pdf","200","Y","1"],
            ["test,example)/a","20230101000000","http://example.test/a","text/html","404","Z","1"],
            ["test,example)/a","2022/../x","http://example.test/a","application/pdf","200","Z","1"]]"#;
        let found = captures(body).unwrap();
        let stamps: Vec<&str> = found.iter().map(|c| c.timestamp.as_str()).collect();
        assert_eq!(stamps, ["20240101000000", "20200101000000"]);
        assert_eq!(captures(b"[]").unwrap(), vec![]);
        assert!(captures(b"<html>").is_err());
    }

    #[test]
    fn private_hosts_and_hosts_with_headers_are_withheld() {
        let never: BTreeSet<String> = ["secret.example".to_string()].into();
        for url in [
            "https://secret.example/x",
            "http://10.0.0.7/x",
            "http://[::1]/x",
            "http://intranet/x",
            "http://wiki.corp/x",
            "http://printer.local/x",
        ] {
            assert!(withheld(url, &never, false).is_some(), "{url}");
        }
        assert!(withheld("https://example.org/x", &never, false).is_none());
        assert!(withheld("https://example.org/x", &never, true).is_some());
    }

    #[test]
    fn the_query_carries_the_url_encoded() {
        assert_eq!(
            cdx_url("https://web.archive.org/", "https://example.org/a?b=c&d").unwrap(),
            "https://web.archive.org/cdx/search/cdx?url=https%3A%2F%2Fexample.org%2Fa%3Fb%3Dc%26d&output=json&fl=timestamp%2Coriginal%2Cmimetype%2Cstatuscode&filter=statuscode%3A200&collapse=digest&limit=-100"
        );
    }
}
