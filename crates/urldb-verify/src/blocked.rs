//! Bot walls: answers that say "prove you are a person" rather than
//! anything about the URL (`docs/verify-exceptions.md`, "Blocked").
//!
//! A small heuristic, kept small on purpose: only a 403, 429 or 503 can be
//! a challenge, and only when the server says so in a header Cloudflare
//! documents (`cf-mitigated: challenge`) or its body's first
//! [`SNIFF`] bytes carry a marker of a known challenge page. A plain 403
//! stays broken.

/// How much of a 403/429/503 body is read to look for a challenge page.
pub(crate) const SNIFF: u64 = 32 * 1024;

/// Statuses a bot wall answers with.
pub(crate) fn may_be_challenge(status: u16) -> bool {
    matches!(status, 403 | 429 | 503)
}

/// Text that only challenge pages carry (compared case-insensitively):
/// Cloudflare's challenge script and interstitial title, its block page,
/// DataDome's captcha host and Imperva's resource path.
const MARKERS: [&str; 5] = [
    "/cdn-cgi/challenge-platform/",
    "<title>just a moment...</title>",
    "<title>attention required! | cloudflare</title>",
    "captcha-delivery.com",
    "/_incapsula_resource",
];

/// The answer is a bot challenge: a status a wall answers with, and the
/// `cf-mitigated: challenge` header or a marker in the body's start.
pub(crate) fn is_challenge(status: u16, cf_mitigated: Option<&str>, body: &[u8]) -> bool {
    if !may_be_challenge(status) {
        return false;
    }
    if cf_mitigated.is_some_and(|v| v.trim().eq_ignore_ascii_case("challenge")) {
        return true;
    }
    let start = &body[..body.len().min(SNIFF as usize)];
    let lower = start.to_ascii_lowercase();
    MARKERS
        .iter()
        .any(|m| lower.windows(m.len()).any(|w| w == m.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_or_a_marker_on_a_wall_status() {
        assert!(is_challenge(403, Some("challenge"), b""));
        assert!(is_challenge(503, Some(" Challenge "), b""));
        assert!(!is_challenge(404, Some("challenge"), b""));
        assert!(!is_challenge(403, Some("block"), b""));
        assert!(is_challenge(
            403,
            None,
            b"<html><head><TITLE>Just a moment...</TITLE>"
        ));
        assert!(is_challenge(
            429,
            None,
            b"<script src=\"/cdn-cgi/challenge-platform/h/b/orchestrate\">"
        ));
        assert!(!is_challenge(403, None, b"<title>Forbidden</title>"));
        assert!(!is_challenge(200, None, b"<title>Just a moment...</title>"));
    }
}
