//! What a server says about how fast urldb may ask it: `Retry-After`
//! (seconds or an HTTP-date, RFC 9110 10.2.3), the rate-limit fields of
//! the IETF draft (`RateLimit`, `RateLimit-Policy`, and the older
//! `RateLimit-Remaining` / `-Reset`) and the common `X-RateLimit-Remaining`
//! / `-Reset`. The scheduler (`schedule.rs`) turns them into a host-wide
//! pause or a longer interval (`docs/verify.md`, "Pacing").

use std::time::Duration;

/// The longest `Crawl-delay` obeyed: a robots.txt asking more is paced at
/// this, and the report says so.
pub(crate) const MAX_CRAWL_DELAY: Duration = Duration::from_secs(30);

/// The longest interval a `RateLimit-Policy` sets (the same cap).
const MAX_POLICY_INTERVAL: Duration = MAX_CRAWL_DELAY;

/// `Retry-After` in whole seconds from `now` (Unix seconds): a number of
/// seconds, or an HTTP-date (IMF-fixdate, `Sun, 06 Nov 1994 08:49:37
/// GMT`); a date in the past is 0.
pub(crate) fn retry_after(value: &str, now: i64) -> Option<u64> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(seconds);
    }
    let at = jiff::fmt::rfc2822::DateTimeParser::new()
        .parse_timestamp(value)
        .ok()?;
    Some(u64::try_from(at.as_second().saturating_sub(now)).unwrap_or(0))
}

/// What a response's rate-limit fields say.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RateLimit {
    /// Requests left in the current window.
    pub remaining: Option<u64>,
    /// Seconds until the window resets.
    pub reset: Option<u64>,
    /// The pace the quota allows: its window over its requests
    /// (`RateLimit-Policy`), at most [`MAX_POLICY_INTERVAL`].
    pub interval: Option<Duration>,
}

impl RateLimit {
    /// The host must wait this long before its next request: no request
    /// left, until the window resets.
    pub(crate) fn exhausted(&self) -> Option<Duration> {
        (self.remaining == Some(0)).then(|| Duration::from_secs(self.reset.unwrap_or(1)))
    }
}

/// The parameters of a structured or list field, lowercased keys:
/// `"default";r=0;t=10` and `limit=10, remaining=0, reset=5` alike.
fn params(value: &str) -> impl Iterator<Item = (String, &str)> {
    value.split([';', ',']).filter_map(|p| {
        let (k, v) = p.split_once('=')?;
        Some((k.trim().to_ascii_lowercase(), v.trim().trim_matches('"')))
    })
}

/// A reset as a number of seconds: a delta, or (a value past 10^9, as
/// GitHub and others send in `X-RateLimit-Reset`) a Unix time, in seconds
/// or milliseconds.
fn reset_seconds(value: &str, now: i64) -> Option<u64> {
    let n: u64 = value.trim().parse().ok()?;
    let now = u64::try_from(now).unwrap_or(0);
    Some(match n {
        n if n >= 1_000_000_000_000 => (n / 1000).saturating_sub(now),
        n if n >= 1_000_000_000 => n.saturating_sub(now),
        n => n,
    })
}

/// Read the rate-limit fields; `header` gives a field's value by its
/// lowercase name; `now` is Unix seconds.
pub(crate) fn rate_limit(header: &dyn Fn(&str) -> Option<String>, now: i64) -> RateLimit {
    let mut limit = RateLimit::default();
    let fewer = |a: Option<u64>, b: u64| Some(a.map_or(b, |a| a.min(b)));
    let later = |a: Option<u64>, b: u64| Some(a.map_or(b, |a| a.max(b)));
    if let Some(v) = header("ratelimit") {
        for (k, v) in params(&v) {
            match (k.as_str(), v.parse::<u64>()) {
                ("r" | "remaining", Ok(n)) => limit.remaining = fewer(limit.remaining, n),
                ("t" | "reset", Ok(n)) => limit.reset = later(limit.reset, n),
                _ => {}
            }
        }
    }
    for (remaining, reset) in [
        ("ratelimit-remaining", "ratelimit-reset"),
        ("x-ratelimit-remaining", "x-ratelimit-reset"),
    ] {
        if let Some(n) = header(remaining).and_then(|v| v.trim().parse().ok()) {
            limit.remaining = fewer(limit.remaining, n);
        }
        if let Some(n) = header(reset).and_then(|v| reset_seconds(&v, now)) {
            limit.reset = later(limit.reset, n);
        }
    }
    if let Some(v) = header("ratelimit-policy") {
        // `"default";q=100;w=60` (a quota of 100 in 60 s), or the older
        // `100;w=60`.
        let mut quota = v
            .split([';', ','])
            .next()
            .and_then(|q| q.trim().parse::<u64>().ok());
        let mut window = None;
        for (k, v) in params(&v) {
            match (k.as_str(), v.parse::<u64>()) {
                ("q", Ok(n)) => quota = Some(n),
                ("w", Ok(n)) => window = Some(n),
                _ => {}
            }
        }
        if let (Some(q), Some(w)) = (quota, window)
            && q > 0
        {
            let interval = Duration::from_secs(w).checked_div(u32::try_from(q).unwrap_or(u32::MAX));
            limit.interval = interval.map(|i| i.min(MAX_POLICY_INTERVAL));
        }
    }
    limit
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2023-11-14T22:13:20Z.
    const NOW: i64 = 1_700_000_000;

    #[test]
    fn retry_after_in_both_forms() {
        assert_eq!(retry_after("120", NOW), Some(120));
        assert_eq!(retry_after(" 0 ", NOW), Some(0));
        assert_eq!(retry_after("Tue, 14 Nov 2023 22:13:30 GMT", NOW), Some(10));
        assert_eq!(retry_after("Tue, 14 Nov 2023 22:13:20 GMT", NOW), Some(0));
        // In the past: no wait.
        assert_eq!(retry_after("Sun, 06 Nov 1994 08:49:37 GMT", NOW), Some(0));
        for bad in ["soon", "-5", "", "1.5"] {
            assert_eq!(retry_after(bad, NOW), None, "{bad}");
        }
    }

    fn limit_of(fields: &[(&str, &str)]) -> RateLimit {
        let header = |name: &str| {
            fields
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.to_string())
        };
        rate_limit(&header, NOW)
    }

    #[test]
    fn rate_limit_fields_in_each_form() {
        let l = limit_of(&[("RateLimit", "\"default\";r=0;t=7")]);
        assert_eq!((l.remaining, l.reset), (Some(0), Some(7)));
        assert_eq!(l.exhausted(), Some(Duration::from_secs(7)));
        let l = limit_of(&[("RateLimit", "limit=10, remaining=3, reset=5")]);
        assert_eq!((l.remaining, l.reset), (Some(3), Some(5)));
        assert_eq!(l.exhausted(), None);
        let l = limit_of(&[("RateLimit-Remaining", "0"), ("RateLimit-Reset", "4")]);
        assert_eq!(l.exhausted(), Some(Duration::from_secs(4)));
        let l = limit_of(&[("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", "3")]);
        assert_eq!(l.exhausted(), Some(Duration::from_secs(3)));
        // A Unix time, in seconds or milliseconds.
        let at = (NOW + 6).to_string();
        let l = limit_of(&[("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", &at)]);
        assert_eq!(l.reset, Some(6));
        let ms = ((NOW + 9) * 1000).to_string();
        let l = limit_of(&[("X-RateLimit-Reset", &ms)]);
        assert_eq!(l.reset, Some(9));
        // No reset said: a second.
        let l = limit_of(&[("X-RateLimit-Remaining", "0")]);
        assert_eq!(l.exhausted(), Some(Duration::from_secs(1)));
        assert_eq!(limit_of(&[]), RateLimit::default());
    }

    #[test]
    fn a_policy_sets_an_interval() {
        let l = limit_of(&[("RateLimit-Policy", "\"default\";q=100;w=60")]);
        assert_eq!(l.interval, Some(Duration::from_millis(600)));
        let l = limit_of(&[("RateLimit-Policy", "10;w=5")]);
        assert_eq!(l.interval, Some(Duration::from_millis(500)));
        let l = limit_of(&[("RateLimit-Policy", "1;w=3600")]);
        assert_eq!(l.interval, Some(MAX_POLICY_INTERVAL));
        assert_eq!(limit_of(&[("RateLimit-Policy", "0;w=60")]).interval, None);
        assert_eq!(limit_of(&[("RateLimit-Policy", "junk")]).interval, None);
    }
}
