//! `[verify]` of `urldb.toml`: its keys, their validation, and what
//! `verify` makes of them. `urldb-core` reads the rest of the file and
//! knows this table only by name; a [`VerifySection`] reads it with the
//! rest (`urldb_core::config::Section`), so that `check` and the language
//! server say every mistake in the file at once, and keeps it for `verify`.
//!
//! The field comments here are the user documentation of each key.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Mutex, PoisonError};

use serde::Deserialize;

use urldb_core::config::{Invalid, Problem, Section, read_keys};

/// The file as `[verify]` sees it: every other key is core's.
#[derive(Debug, Default, Deserialize)]
struct File {
    #[serde(default)]
    verify: VerifyConfig,
}

/// `[verify]` as a [`Section`] of the file: pass it wherever `urldb.toml`
/// is read, then take the `[verify]` of the last file it read
/// ([`VerifySection::config`]).
#[derive(Debug, Default)]
pub struct VerifySection {
    read: Mutex<Option<VerifyConfig>>,
}

impl VerifySection {
    /// The `[verify]` of the last file read; the defaults when none was
    /// read, or when that file had a mistake (which its reader said).
    pub fn config(self) -> VerifyConfig {
        self.read
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
            .unwrap_or_default()
    }

    /// [`VerifySection::config`], kept (a run reads one file per database).
    pub fn read_config(&self) -> VerifyConfig {
        self.read
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
            .unwrap_or_default()
    }
}

impl Section for VerifySection {
    fn read(&self, text: &str) -> Vec<Problem> {
        let (config, problems) = match read(text) {
            Ok(config) => (Some(config), Vec::new()),
            Err(problems) => (None, problems),
        };
        *self.read.lock().unwrap_or_else(PoisonError::into_inner) = config;
        problems
    }
}

/// `[verify]` of `text` (valid TOML), or every mistake in it.
pub(crate) fn read(text: &str) -> Result<VerifyConfig, Vec<Problem>> {
    let mut problems = Vec::new();
    let file = read_keys::<File>(text, &mut problems);
    if let Some(file) = &file {
        problems.extend(file.verify.validate().iter().map(|i| i.in_file(text)));
    }
    match file {
        Some(file) if problems.is_empty() => Ok(file.verify),
        _ => Err(problems),
    }
}

/// `[verify]`. Its `accept`, `skip`, `user-agent` and `headers` repeat
/// [`VerifyExceptions`]' fields rather than `#[serde(flatten)]` them:
/// serde does not honour `deny_unknown_fields` with `flatten`, and a
/// misspelt key must stay an error.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct VerifyConfig {
    /// Requests in flight at once: 1 to 256 (more run as 256,
    /// `docs/security.md`).
    #[serde(default, deserialize_with = "concurrency")]
    pub concurrency: Option<usize>,
    pub timeout: Option<String>,
    pub retries: Option<u32>,
    /// The web archive `verify --archive` asks (a CDX API at
    /// `/cdx/search/cdx`), instead of the Internet Archive's.
    pub archive_url: Option<String>,
    /// Statuses that pass for every host (`docs/verify-exceptions.md`).
    #[serde(default)]
    pub accept: Vec<StatusSpec>,
    /// URLs and path patterns never requested, on any host.
    #[serde(default)]
    pub skip: Vec<String>,
    /// The `User-Agent` sent instead of `urldb/VERSION`.
    pub user_agent: Option<String>,
    /// Request headers sent to every host (no `env:` values here).
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
    /// The exceptions of one host (a domain file's name or a cname), on
    /// top of those above: `[verify.domains."example.org"]`.
    #[serde(default)]
    pub domains: BTreeMap<String, VerifyExceptions>,
    /// Where a domain's requests go instead, as `--map` says it:
    /// `[verify.map]` with `"example.org" = "http://127.0.0.1:8080"`. A
    /// run-level key; `--map-file` and `--map` win over it, domain by
    /// domain (`docs/verify.md`).
    #[serde(default)]
    pub map: BTreeMap<String, String>,
}

/// What `verify` accepts, skips and sends for one host
/// (`[verify.domains."HOST"]`), or, as [`VerifyConfig::exceptions`], for
/// every host.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct VerifyExceptions {
    /// Statuses that pass whatever the record says: numbers or ranges,
    /// `[403, 429, "500-599"]`.
    #[serde(default)]
    pub accept: Vec<StatusSpec>,
    /// URLs never requested: robots.txt-style path patterns (`/private/`,
    /// a prefix match after `%xx` decoding) or, in `[verify]` only, URLs
    /// (`https://example.org/login`: that host, paths starting so).
    #[serde(default)]
    pub skip: Vec<String>,
    /// The `User-Agent` sent instead of `urldb/VERSION`.
    pub user_agent: Option<String>,
    /// Request headers: `{ Accept-Language = "en" }`. A value
    /// `"env:NAME"` is read from the environment when `verify` runs and
    /// never printed; it is allowed only for one host
    /// (`[verify.domains."HOST"]`).
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
    /// The shortest time between two requests to the host (`"2s"`,
    /// `"500ms"`), in `[verify.domains."HOST"]` only
    /// (`--per-host-interval` sets it for every host).
    pub interval: Option<String>,
}

impl VerifyConfig {
    /// `[verify.map]`, read (validated with the file: an entry that is no
    /// map has none).
    pub fn maps(&self) -> BTreeMap<String, crate::maps::Target> {
        self.map
            .iter()
            .filter_map(|(domain, target)| crate::maps::map_entry(domain, target).ok())
            .collect()
    }

    /// The exceptions of `[verify]` itself, for every host.
    pub fn exceptions(&self) -> VerifyExceptions {
        VerifyExceptions {
            accept: self.accept.clone(),
            skip: self.skip.clone(),
            user_agent: self.user_agent.clone(),
            headers: self.headers.clone(),
            interval: None,
        }
    }
}

/// One entry of `accept`: a status or a range of them (`"500-599"`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(
    untagged,
    expecting = "expected a status (an integer such as 403) or a range (a string such as \"500-599\")"
)]
pub enum StatusSpec {
    Status(i64),
    Range(String),
}

impl StatusSpec {
    /// The statuses named, or what is wrong.
    pub fn range(&self) -> Result<std::ops::RangeInclusive<u16>, StatusError> {
        let status = |n: i64| {
            u16::try_from(n)
                .ok()
                .filter(|n| (100..=599).contains(n))
                .ok_or(StatusError::NotAStatus(n))
        };
        match self {
            StatusSpec::Status(n) => status(*n).map(|s| s..=s),
            StatusSpec::Range(text) => {
                let not = || StatusError::NotARange(text.clone());
                let (low, high) = match text.split_once('-') {
                    Some((l, h)) => (l.trim(), h.trim()),
                    None => (text.trim(), text.trim()),
                };
                let parse = |t: &str| t.parse::<i64>().map_err(|_| not());
                let (low, high) = (status(parse(low)?)?, status(parse(high)?)?);
                if low > high {
                    return Err(not());
                }
                Ok(low..=high)
            }
        }
    }
}

/// The most retries `[verify] retries` and `--retries` take: with each
/// wait at most 30 s, a URL that never answers costs at most five minutes
/// of waiting (`docs/security.md`, "Work and output are bounded").
pub const MAX_RETRIES: u32 = 10;

/// An `accept` entry that names no status.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StatusError {
    #[error("`{0}` is not an HTTP status (100 to 599)")]
    NotAStatus(i64),
    #[error("`{0}` is not a status or a range like \"500-599\"")]
    NotARange(String),
}

/// The prefix of a header value read from the environment.
pub const ENV_PREFIX: &str = "env:";

/// Headers urldb sets itself, or that would change what is judged
/// (`Accept-Encoding` would make bodies compressed), or that name another
/// host: never taken from the configuration.
const RESERVED_HEADERS: [&str; 9] = [
    "host",
    "content-length",
    "transfer-encoding",
    "connection",
    "accept-encoding",
    "te",
    "upgrade",
    "user-agent",
    "proxy-authorization",
];

/// Headers whose name alone makes them credentials (RFC 9110, section
/// 11.6.2; RFC 6265, section 5.4), whatever their value: like a value from
/// the environment, they belong to one host and go over https only.
pub const CREDENTIAL_HEADERS: [&str; 2] = ["authorization", "cookie"];

/// A header value written in the file: visible ASCII, spaces and tabs
/// inside; no line break can end the header early.
pub fn is_header_value(s: &str) -> bool {
    s.bytes().all(|b| b == b'\t' || (b' '..=b'~').contains(&b)) && s.trim() == s
}

/// `env:NAME`: the variable's name, when it is one.
pub fn env_name(value: &str) -> Option<&str> {
    value.strip_prefix(ENV_PREFIX)
}

impl VerifyExceptions {
    /// Check what serde cannot; `host` is the section's host (`None` for
    /// `[verify]`). The error comes with the text to point at.
    fn validate(&self, section: &str, host: Option<&str>) -> Result<(), Invalid> {
        for spec in &self.accept {
            spec.range().map_err(|e| {
                let needle = match spec {
                    StatusSpec::Status(n) => n.to_string(),
                    StatusSpec::Range(t) => format!("\"{t}\""),
                };
                Invalid::new(format!("{section}.accept: {e}"), needle)
            })?;
        }
        if let Some(t) = &self.interval
            && parse_duration(t).is_none()
        {
            return Err(Invalid::new(
                format!("{section}.interval: `{t}` is not a duration (try \"2s\" or \"500ms\")"),
                format!("\"{t}\""),
            ));
        }
        for skip in &self.skip {
            SkipPattern::parse(skip, host.is_some())
                .map_err(|e| Invalid::new(format!("{section}.skip: {e}"), format!("\"{skip}\"")))?;
        }
        if let Some(agent) = &self.user_agent
            && (agent.is_empty() || !is_header_value(agent) || env_name(agent).is_some())
        {
            return Err(Invalid::new(
                format!(
                    "{section}.user-agent: expected printable ASCII text (no line breaks, no `env:`)"
                ),
                "user-agent".to_string(),
            ));
        }
        for (name, value) in &self.headers {
            let at = || name.clone();
            // A header name is an HTTP token (RFC 9110, section 5.6.2).
            if !urldb_core::model::media_type::is_token(name) {
                return Err(Invalid::new(
                    format!(
                        "{section}.headers: `{}` is not a header name",
                        urldb_core::text::escape(name)
                    ),
                    at(),
                ));
            }
            if RESERVED_HEADERS.contains(&name.to_ascii_lowercase().as_str()) {
                return Err(Invalid::new(
                    format!(
                        "{section}.headers: `{name}` is set by urldb itself{}",
                        if name.eq_ignore_ascii_case("user-agent") {
                            " (use `user-agent = ...`)"
                        } else {
                            ""
                        }
                    ),
                    at(),
                ));
            }
            if host.is_none() && CREDENTIAL_HEADERS.contains(&name.to_ascii_lowercase().as_str()) {
                return Err(Invalid::new(
                    format!(
                        "{section}.headers.{name}: a credential belongs to one host: \
                         put it under [verify.domains.\"HOST\"]"
                    ),
                    at(),
                ));
            }
            // The value is never quoted in an error: it may be a secret.
            match env_name(value) {
                Some(_) if host.is_none() => {
                    return Err(Invalid::new(
                        format!(
                            "{section}.headers.{name}: a value from the environment belongs to one host: \
                             put it under [verify.domains.\"HOST\"]"
                        ),
                        at(),
                    ));
                }
                Some(var) if !is_env_name(var) => {
                    return Err(Invalid::new(
                        format!(
                            "{section}.headers.{name}: `env:` must be followed by a variable name (letters, digits, `_`)"
                        ),
                        at(),
                    ));
                }
                Some(_) => {}
                None if !is_header_value(value) => {
                    return Err(Invalid::new(
                        format!(
                            "{section}.headers.{name}: the value must be printable ASCII, without line breaks or surrounding spaces"
                        ),
                        at(),
                    ));
                }
                None => {}
            }
        }
        Ok(())
    }
}

/// A name `env:` and `--allow-env` take: letters, digits and `_`, not
/// starting with a digit.
pub fn is_env_name(s: &str) -> bool {
    s.bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// One `skip` entry, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkipPattern {
    /// The host a URL entry names; `None` for a path pattern.
    pub host: Option<String>,
    /// The scheme a URL entry names.
    pub scheme: Option<String>,
    /// A robots.txt-style path pattern (`urldb_core::url::matches`).
    pub path: String,
}

impl SkipPattern {
    /// `/path-prefix`, or (outside a host's section) a URL.
    pub fn parse(text: &str, in_host_section: bool) -> Result<SkipPattern, SkipError> {
        if text.starts_with('/') {
            if text.chars().any(char::is_control) {
                return Err(SkipError::Control(text.to_string()));
            }
            return Ok(SkipPattern {
                host: None,
                scheme: None,
                path: text.to_string(),
            });
        }
        let lower = text.to_ascii_lowercase();
        if !(lower.starts_with("http://") || lower.starts_with("https://")) {
            return Err(SkipError::Neither(text.to_string()));
        }
        if in_host_section {
            return Err(SkipError::UrlInHostSection(text.to_string()));
        }
        let url = urldb_core::url::canonicalize_given(text)?;
        Ok(SkipPattern {
            host: Some(url.host.clone()),
            scheme: Some(url.scheme.as_str().to_string()),
            path: url.path_and_query.clone(),
        })
    }
}

/// A `skip` entry that is neither a path pattern nor a URL to skip.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SkipError {
    #[error("`{}` holds a control character", urldb_core::text::escape(.0))]
    Control(String),
    #[error(
        "`{}` is neither a path pattern (starting with `/`) nor an http(s) URL",
        urldb_core::text::escape(.0)
    )]
    Neither(String),
    #[error(
        "`{}`: a host's section skips paths (`/...`); URLs go in [verify] skip",
        urldb_core::text::escape(.0)
    )]
    UrlInHostSection(String),
    #[error(transparent)]
    Url(#[from] urldb_core::url::UrlError),
}

/// A `[verify.domains]` key as a host: lowercase, IDN as A-labels, no
/// trailing dot.
pub fn domain_key(key: &str) -> Result<String, DomainKeyError> {
    let url = urldb_core::url::canonicalize_given(key)?;
    if url.path_and_query != "/" || key.contains(['/', ':', '@', '?', '#']) {
        return Err(DomainKeyError::NotAHost(key.to_string()));
    }
    Ok(url.host)
}

/// A `[verify.domains]` key that names no host.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DomainKeyError {
    #[error(transparent)]
    Url(#[from] urldb_core::url::UrlError),
    #[error("`{}` is not a host name", urldb_core::text::escape(.0))]
    NotAHost(String),
}

impl VerifyConfig {
    /// Check what serde cannot. Each problem comes with the text to point
    /// at in the file.
    fn validate(&self) -> Vec<Invalid> {
        let mut found = Vec::new();
        if let Some(t) = &self.timeout
            && parse_duration(t).is_none()
        {
            found.push(Invalid::new(
                format!("verify.timeout: `{t}` is not a duration (try \"30s\" or \"500ms\")"),
                "timeout",
            ));
        }
        if let Some(n) = self.retries
            && n > MAX_RETRIES
        {
            found.push(Invalid::new(
                format!(
                    "verify.retries: {n} is too many; urldb tries a URL again at most \
                     {MAX_RETRIES} times (each wait is at most 30 s)"
                ),
                "retries",
            ));
        }
        if let Some(u) = &self.archive_url
            && !url::Url::parse(u)
                .is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.host().is_some())
        {
            found.push(Invalid::new(
                format!("verify.archive-url: `{u}` is not an http or https URL"),
                "archive-url",
            ));
        }
        if self.concurrency == Some(0) {
            found.push(Invalid::new(
                "verify.concurrency must be at least 1",
                "concurrency",
            ));
        }
        if let Err(e) = self.exceptions().validate("verify", None) {
            found.push(e);
        }
        let mut mapped = std::collections::BTreeSet::new();
        for (key, target) in &self.map {
            let needle = format!("\"{key}\"");
            match crate::maps::map_entry(key, target) {
                Ok((domain, _)) if !mapped.insert(domain.clone()) => found.push(Invalid::new(
                    format!("verify.map: `{domain}` is mapped twice"),
                    needle,
                )),
                Ok(_) => {}
                Err(why) => {
                    found.push(Invalid::new(format!("verify.map.\"{key}\": {why}"), needle))
                }
            }
        }
        let mut hosts = std::collections::BTreeSet::new();
        for (key, section) in &self.domains {
            let needle = format!("\"{key}\"");
            let host = match domain_key(key) {
                Ok(host) => host,
                Err(e) => {
                    found.push(Invalid::new(format!("verify.domains: {e}"), needle));
                    continue;
                }
            };
            if !hosts.insert(host.clone()) {
                found.push(Invalid::new(
                    format!("verify.domains: `{host}` has two sections"),
                    needle,
                ));
                continue;
            }
            if let Err(e) = section.validate(&format!("verify.domains.\"{host}\""), Some(&host)) {
                found.push(e);
            }
        }
        found
    }
}

/// `concurrency`: an integer (0 is refused by [`VerifyConfig::validate`]);
/// the visitor's words are what a mistake is told.
fn concurrency<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<usize>, D::Error> {
    use serde::de::{Error, Unexpected, Visitor};
    struct Count;
    impl Visitor<'_> for Count {
        type Value = usize;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an integer from 1 to 256")
        }
        fn visit_u64<E: Error>(self, n: u64) -> Result<usize, E> {
            usize::try_from(n).map_err(|_| E::invalid_value(Unexpected::Unsigned(n), &self))
        }
        fn visit_i64<E: Error>(self, n: i64) -> Result<usize, E> {
            let n = u64::try_from(n).map_err(|_| E::invalid_value(Unexpected::Signed(n), &self))?;
            self.visit_u64(n)
        }
    }
    d.deserialize_u64(Count).map(Some)
}

/// `30s`, `500ms`, `2m`, `1.5s`, or a plain number of seconds.
pub fn parse_duration(text: &str) -> Option<std::time::Duration> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let n: f64 = number.parse().ok()?;
    let secs = match unit.trim() {
        "" | "s" => n,
        "ms" => n / 1000.0,
        "m" | "min" => n * 60.0,
        _ => return None,
    };
    (secs.is_finite() && secs > 0.0 && secs < 86_400.0)
        .then(|| std::time::Duration::from_secs_f64(secs))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `[verify]` of `text`, or the first mistake said.
    fn parse(text: &str) -> Result<VerifyConfig, Problem> {
        read(text).map_err(|problems| problems.into_iter().next().expect("a mistake is said"))
    }

    #[test]
    fn statuses_and_ranges() {
        let c = parse("[verify]\naccept = [403, \"500-503\", \"429\"]\n").expect("valid");
        let ranges: Vec<_> = c.accept.iter().map(|s| s.range()).collect();
        assert_eq!(ranges, [Ok(403..=403), Ok(500..=503), Ok(429..=429)]);
        for bad in ["[99]", "[600]", "[\"503-500\"]", "[\"5xx\"]", "[-1]"] {
            let e = parse(&format!("[verify]\naccept = {bad}\n"))
                .unwrap_err()
                .message;
            assert!(e.starts_with("verify.accept: "), "{bad}: {e}");
        }
    }

    #[test]
    fn secrets_belong_to_one_host_and_are_never_quoted() {
        let ok = "[verify.domains.\"Example.ORG.\"]\nheaders = { Authorization = \"env:GITHUB_TOKEN\" }\n";
        let c = parse(ok).expect("valid");
        assert!(c.domains.contains_key("Example.ORG."));
        let e = parse("[verify]\nheaders = { Authorization = \"env:TOKEN\" }\n")
            .unwrap_err()
            .message;
        assert!(e.contains("belongs to one host"), "{e}");
        let e = parse("[verify]\nheaders = { cookie = \"a=b\" }\n")
            .unwrap_err()
            .message;
        assert!(e.contains("a credential belongs to one host"), "{e}");
        let e = parse("[verify]\nheaders = { X-A = \"se cret\\n\" }\n")
            .unwrap_err()
            .message;
        assert!(!e.contains("se cret"), "{e}");
        for bad in ["Host", "user-agent", "Accept-Encoding", "a b"] {
            let text = format!("[verify]\nheaders = {{ \"{bad}\" = \"x\" }}\n");
            assert!(parse(&text).is_err(), "{bad}");
        }
        let e = parse("[verify.domains.\"a.test\"]\nheaders = { A = \"env:1X\" }\n")
            .unwrap_err()
            .message;
        assert!(e.contains("variable name"), "{e}");
        let e = parse("[verify.domains.\"a.test\"]\n[verify.domains.\"A.test\"]\n")
            .unwrap_err()
            .message;
        assert!(e.contains("two sections"), "{e}");
        assert!(parse("[verify.domains.\"a.test/x\"]\n").is_err());
    }

    #[test]
    fn skip_patterns() {
        assert_eq!(
            SkipPattern::parse("https://Example.org/login", false),
            Ok(SkipPattern {
                host: Some("example.org".into()),
                scheme: Some("https".into()),
                path: "/login".into()
            })
        );
        assert!(SkipPattern::parse("https://example.org/x", true).is_err());
        assert!(SkipPattern::parse("login", false).is_err());
        assert!(SkipPattern::parse("/a\nb", false).is_err());
        assert!(parse("[verify]\nskip = [\"/private/\", \"http://a.test/b\"]\n").is_ok());
        assert!(parse("[verify]\nuser-agent = \"a\\nb\"\n").is_err());
    }

    #[test]
    fn durations() {
        let ms = std::time::Duration::from_millis;
        for (text, duration) in [
            ("30s", Some(ms(30_000))),
            ("30", Some(ms(30_000))),
            ("500ms", Some(ms(500))),
            ("2m", Some(ms(120_000))),
            ("1.5s", Some(ms(1500))),
            ("0s", None),
            ("soon", None),
            ("3h", None),
            ("", None),
        ] {
            assert_eq!(parse_duration(text), duration, "{text}");
        }
    }

    #[test]
    fn mistakes_are_said_in_the_words_of_the_file() {
        for (text, said) in [
            (
                "[verify]\nconcurrency = -3\n",
                "verify.concurrency: expected an integer from 1 to 256, found -3",
            ),
            (
                "[verify]\nconcurrency = \"many\"\n",
                "verify.concurrency: expected an integer from 1 to 256, found the string \"many\"",
            ),
            (
                "[verify]\naccept = [true]\n",
                "verify.accept: expected a status (an integer such as 403) or a range (a string such as \"500-599\")",
            ),
            (
                "[verify]\nconcurrency = 0\n",
                "verify.concurrency must be at least 1",
            ),
        ] {
            assert_eq!(parse(text).unwrap_err().message, said, "{text}");
        }
        // The rest of the file is core's: not a mistake of this section.
        assert!(parse("root = 3\n[lint]\nnot-a-key = 1\n").is_ok());
    }
}
