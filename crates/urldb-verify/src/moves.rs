//! `verify --follow-moves`: where a URL answered with a permanent redirect
//! went, and whether what is there is what the record describes
//! (`docs/verify.md`, "When a URL breaks").
//!
//! The record's own request never follows a redirect (`crate::http`);
//! this module reads the `Location` of a 301 or 308 the record does not
//! accept, against the URL as the record publishes it, and makes each next
//! request through the same pace and limits as every other
//! (`running.rs`), one hop at a time, at most [`MAX_HOPS`]. What it
//! compares is the record's promise: the same length and SHA-256 is a
//! proof (`moved`); the same media type only a candidate (`moved?`).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::http::{FetchError, Response};
use crate::judging::{Failure, Outcome, same_media_type};
use crate::plan::{Expect, Target, build_url};

/// The redirects followed from a record's URL at most.
pub const MAX_HOPS: u32 = 5;

/// What `--follow-moves` needs besides the run's client: the maps of
/// `--map`, which a redirect's target obeys as a record's URL does, and
/// the hosts whose private addresses `--allow-private` covers for a
/// redirect (the database's own domains and the mapped ones): a redirect
/// to any other host at a private address is refused whatever
/// `--allow-private` says, since a server, not the database, chose it.
#[derive(Debug, Clone, Default)]
pub struct FollowMoves {
    pub maps: BTreeMap<String, Target>,
    pub trusted: BTreeSet<String>,
}

/// How sure a move is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum MoveVerdict {
    /// The target serves the record's bytes: the same length and SHA-256.
    #[serde(rename = "moved")]
    Moved,
    /// The target serves the record's media type: a candidate, to look at.
    #[serde(rename = "moved?")]
    Candidate,
    /// Followed, and nothing to offer (the reason says why).
    #[serde(rename = "not-moved")]
    NotMoved,
}

impl MoveVerdict {
    pub fn as_str(self) -> &'static str {
        match self {
            MoveVerdict::Moved => "moved",
            MoveVerdict::Candidate => "moved?",
            MoveVerdict::NotMoved => "not-moved",
        }
    }
}

/// Where a record's URL moved, as `--follow-moves` found it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Moved {
    pub verdict: MoveVerdict,
    /// The record's URL, as published (before `--map`).
    pub from: String,
    /// The redirect status of the record's URL (301 or 308): the
    /// `X-<status>-Redirect` that `urldb moved` writes.
    pub status: u16,
    /// The URL the redirects lead to, as published (before `--map`);
    /// none when a `Location` could not be read as one.
    pub target: Option<String>,
    /// Redirects followed.
    pub hops: u32,
    /// Why, in words: the proof, the likeness, or why not (may quote what
    /// a server sent: escape it to show it).
    pub reason: String,
}

impl fmt::Display for Moved {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.verdict, &self.target) {
            (MoveVerdict::NotMoved, Some(target)) => {
                write!(f, "not moved to {target}: {}", self.reason)
            }
            (MoveVerdict::NotMoved, None) => write!(f, "not moved: {}", self.reason),
            (verdict, target) => write!(
                f,
                "{} to {} ({})",
                verdict.as_str(),
                target.as_deref().unwrap_or("?"),
                self.reason
            ),
        }
    }
}

/// The redirect to follow from a check's outcome: a 301 or 308 with a
/// `Location` that its record does not accept.
pub(crate) fn start(outcome: &Outcome) -> Option<(u16, &str)> {
    match outcome {
        Outcome::Broken(Failure::UnexpectedRedirect {
            status: status @ (301 | 308),
            location: Some(location),
            ..
        }) => Some((*status, location.as_str())),
        _ => None,
    }
}

/// Why a redirect is not followed to its `Location`.
#[derive(Debug, thiserror::Error)]
pub(crate) enum NotFollowed {
    #[error("the Location `{location}` is no URL ({source})")]
    NoUrl {
        location: String,
        #[source]
        source: url::ParseError,
    },
    #[error("the Location `{0}` is not http or https")]
    NotHttp(String),
    #[error("the Location `{0}` carries user information; not followed")]
    UserInfo(String),
    #[error("{0} has no host")]
    NoHost(url::Url),
    /// No URL of the target's origin can be built, as of a record's.
    #[error(transparent)]
    Url(#[from] crate::plan::UrlError),
}

/// The URL a `Location` leads to from `from` (a published URL): http or
/// https, without user information.
pub(crate) fn next_url(from: &str, location: &str) -> Result<url::Url, NotFollowed> {
    let next = url::Url::parse(from)
        .and_then(|base| base.join(location.trim()))
        .map_err(|source| NotFollowed::NoUrl {
            location: location.to_string(),
            source,
        })?;
    if !matches!(next.scheme(), "http" | "https") {
        return Err(NotFollowed::NotHttp(location.to_string()));
    }
    if !next.username().is_empty() || next.password().is_some() {
        return Err(NotFollowed::UserInfo(location.to_string()));
    }
    Ok(next)
}

/// A target's request: the URL to ask (after `--map`), its origin, and
/// the host as published.
pub(crate) struct HopRequest {
    pub url: String,
    pub origin: String,
    pub host: String,
}

/// The request for `target` (a published URL): its host mapped as
/// `--map` says, the URL built from its parts as a record's is
/// ([`build_url`]).
pub(crate) fn request(
    target: &url::Url,
    maps: &BTreeMap<String, Target>,
) -> Result<HopRequest, NotFollowed> {
    let host = target
        .host_str()
        .ok_or_else(|| NotFollowed::NoHost(target.clone()))?
        .to_ascii_lowercase();
    let own = match target.port() {
        Some(port) => format!("{host}:{port}"),
        None => host.clone(),
    };
    let mapped = maps.get(host.trim_end_matches('.'));
    let scheme = mapped
        .and_then(|t| t.scheme.as_deref())
        .unwrap_or(target.scheme());
    let authority = mapped.map_or(own.as_str(), |t| t.authority.as_str());
    let path = &target[url::Position::BeforePath..url::Position::AfterQuery];
    let (url, origin) = build_url(scheme, authority, path)?;
    Ok(HopRequest { url, origin, host })
}

/// What one hop's answer means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Step {
    /// Another permanent redirect: follow its `Location`.
    Next(String),
    /// The end: a verdict and its reason.
    Done(MoveVerdict, String),
}

/// Judge a target's answer against the record's promise.
pub(crate) fn judge(expect: &Expect, answer: &Result<Response, FetchError>) -> Step {
    let response = match answer {
        Ok(r) => r,
        Err(e) => return Step::Done(MoveVerdict::NotMoved, format!("no answer: {e}")),
    };
    let status = response.status;
    match (status, &response.location) {
        (301 | 308, Some(location)) => return Step::Next(location.clone()),
        (300..=399, _) => {
            return Step::Done(
                MoveVerdict::NotMoved,
                format!("a redirect {status} there, not a permanent one with a Location"),
            );
        }
        (200..=299, _) => {}
        _ => {
            return Step::Done(MoveVerdict::NotMoved, format!("HTTP {status} there"));
        }
    }
    let media = response
        .content_type
        .as_deref()
        .is_some_and(|got| same_media_type(got, &expect.content_type));
    if let (Some(sha256), Some(body)) = (&expect.sha256, &response.body) {
        let length_ok = expect.length.is_none_or(|l| l == body.length);
        if *sha256 == body.sha256_hex && length_ok {
            return Step::Done(
                MoveVerdict::Moved,
                format!("proof: the same SHA-256 and length ({} bytes)", body.length),
            );
        }
        if media {
            return Step::Done(
                MoveVerdict::Candidate,
                format!(
                    "the same media type `{}`, other bytes ({} bytes, SHA-256 {})",
                    expect.content_type, body.length, body.sha256_hex
                ),
            );
        }
    } else if media {
        return Step::Done(
            MoveVerdict::Candidate,
            format!("the same media type `{}`", expect.content_type),
        );
    }
    Step::Done(
        MoveVerdict::NotMoved,
        match &response.content_type {
            Some(got) => format!("it serves `{got}`, not `{}`", expect.content_type),
            None => format!("it sends no content type, not `{}`", expect.content_type),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::Digest;

    fn expect(content_type: &str, sha256: Option<&str>) -> Expect {
        Expect {
            content_type: content_type.to_string(),
            redirect_ok: false,
            content_type_change_ok: false,
            length: sha256.map(|_| 3),
            sha256: sha256.map(str::to_string),
        }
    }

    fn answer(status: u16, content_type: &str, body: Option<(u64, &str)>) -> Response {
        Response {
            status,
            content_type: Some(content_type.to_string()),
            location: None,
            retry_after: None,
            rate_limit: crate::pace::RateLimit::default(),
            body: body.map(|(length, sha)| Digest {
                length,
                sha256_hex: sha.to_string(),
            }),
            bytes: None,
            challenge: false,
        }
    }

    #[test]
    fn the_same_bytes_prove_a_move_and_the_same_type_is_a_candidate() {
        let sha = "ab".repeat(32);
        let e = expect("application/pdf", Some(&sha));
        let same = answer(200, "application/pdf", Some((3, &sha)));
        assert!(matches!(
            judge(&e, &Ok(same)),
            Step::Done(MoveVerdict::Moved, _)
        ));
        let other = answer(200, "application/pdf", Some((3, &"cd".repeat(32))));
        assert!(matches!(
            judge(&e, &Ok(other)),
            Step::Done(MoveVerdict::Candidate, _)
        ));
        let longer = answer(200, "application/pdf", Some((4, &sha)));
        assert!(matches!(
            judge(&e, &Ok(longer)),
            Step::Done(MoveVerdict::Candidate, _)
        ));
        let page = expect("text/html", None);
        assert!(matches!(
            judge(&page, &Ok(answer(200, "text/html; charset=utf-8", None))),
            Step::Done(MoveVerdict::Candidate, _)
        ));
        assert!(matches!(
            judge(&page, &Ok(answer(200, "text/plain", None))),
            Step::Done(MoveVerdict::NotMoved, _)
        ));
        assert!(matches!(
            judge(&page, &Ok(answer(404, "text/html", None))),
            Step::Done(MoveVerdict::NotMoved, _)
        ));
    }

    #[test]
    fn locations_are_read_against_the_published_url() {
        let next = next_url("https://example.org/a/b", "../c?x=1").unwrap();
        assert_eq!(next.as_str(), "https://example.org/c?x=1");
        assert!(next_url("https://example.org/", "ftp://example.org/").is_err());
        assert!(next_url("https://example.org/", "http://u:p@example.org/").is_err());
        let mut maps = BTreeMap::new();
        maps.insert(
            "example.org".to_string(),
            Target {
                scheme: Some("http".to_string()),
                authority: "127.0.0.1:9".to_string(),
            },
        );
        let r = request(&next, &maps).unwrap();
        assert_eq!(
            (r.url.as_str(), r.origin.as_str(), r.host.as_str()),
            (
                "http://127.0.0.1:9/c?x=1",
                "http://127.0.0.1:9",
                "example.org"
            )
        );
        let elsewhere = next_url("https://example.org/", "https://other.org:8443/d").unwrap();
        let r = request(&elsewhere, &maps).unwrap();
        assert_eq!(r.url, "https://other.org:8443/d");
    }
}
