//! From domain files to the list of URLs to fetch, each with what its
//! record promises.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::exceptions::{Exceptions, Request, SKIP_VERIFY, Skip};
pub use crate::maps::{
    MAX_MAP_FILE, MapError, MapFileError, Target, map_entry, parse_map, read_map_file,
};

use urldb_core::model::domain::{self, Record};
use urldb_core::model::media_type;
use urldb_core::rules::unrequested;
use urldb_core::source::LineIndex;
use urldb_core::url::BuildError;
use urldb_store::Filter;

/// A URL that cannot be built from a record (its host or its `_path`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(transparent)]
pub struct UrlError(#[from] BuildError);

/// Why a record is not checked: what in it `verify` cannot use.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotPlanned {
    #[error("record without a `_path`")]
    NoPath,
    #[error("record without a `content-type`")]
    NoContentType,
    #[error("`content-length: {0}` is not a byte count (see `urldb check`)")]
    ContentLength(String),
    #[error("`content-sha256: {0}` is not a SHA-256 digest (see `urldb check`)")]
    Sha256(String),
}

/// Why a file or a record cannot be verified ([`Problem`]), its cause
/// kept, typed, until it is shown.
#[derive(Debug, Clone, thiserror::Error)]
pub enum Unverifiable {
    #[error("file too large ({size} bytes)")]
    TooLarge { size: u64 },
    /// The file system refused the file.
    #[error(transparent)]
    Read(Arc<urldb_store::ReadError>),
    /// `--since`, `--staged`: the new side of a changed file.
    #[error(transparent)]
    Changed(Arc<urldb_store::Unreadable>),
    #[error("not UTF-8 text (see `urldb check`)")]
    NotUtf8,
    #[error("the file does not parse as YAML (see `urldb check`)")]
    Syntax,
    /// `invalid-boolean`, a gate finding: no URL of the file is requested.
    #[error("`https` means another scheme to the reference tool (see `urldb check`)")]
    SchemeReadOtherwise,
    #[error(transparent)]
    Record(#[from] NotPlanned),
}

/// Why a record is not requested at all ([`UrlCheck::not_checked`]): it
/// counts as broken.
#[derive(Debug, Clone, thiserror::Error)]
pub enum NotChecked {
    /// A finding of a rule that keeps a record's URL from being requested
    /// (`urldb_core::rules::unrequested`).
    #[error("{} ({})", .0.message, .0.rule.code)]
    Blocked(Box<urldb_core::rules::diagnostic::Finding>),
    /// An http URL of a host `urldb.toml` sends a credential.
    #[error(
        "an http URL, and urldb.toml sends {host} a credential (`{header}`), which goes \
         over https only (`https: true` in the domain file; for a test server, \
         `--map {host}=http://HOST:PORT`)"
    )]
    PlainCredentials { host: String, header: String },
    /// A host only the checkout's `urldb.toml` maps elsewhere, which
    /// `urldb.toml` sends a credential.
    #[error(
        "urldb.toml's [verify.map] sends {host} elsewhere, and {host} is sent a credential \
         (`{header}`): map it with --map or --map-file, or read urldb.toml with --config-from"
    )]
    UnownedMap { host: String, header: String },
    /// No URL of the record's own origin can be built.
    #[error(transparent)]
    Url(#[from] UrlError),
}

/// How URLs are made.
#[derive(Debug, Clone, Default)]
pub struct PlanOptions {
    /// Which records: the filters of `ls`.
    pub filters: Filter,
    pub maps: BTreeMap<String, Target>,
    /// The domains of `maps` that only a `urldb.toml` not the owner's (read
    /// without `--config-from`) maps: a request that carries a credential
    /// is not sent there (`docs/security.md`, "Who controls what").
    pub unowned_maps: BTreeSet<String>,
    /// Also every cname of a domain.
    pub cnames: bool,
    /// Both `http` and `https`, whatever the `https` key says.
    pub both_schemes: bool,
    /// `urldb.toml`'s `[verify]` exceptions.
    pub exceptions: Exceptions,
}

/// What a record promises about its URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expect {
    /// The record's `content-type`, as written.
    pub content_type: String,
    pub redirect_ok: bool,
    pub content_type_change_ok: bool,
    pub length: Option<u64>,
    /// Lowercase hex.
    pub sha256: Option<String>,
}

impl Expect {
    /// The status of `X-<status>-Redirect`, when the content type is one.
    pub fn redirect_status(&self) -> Option<u16> {
        redirect_marker(&self.content_type)
    }

    /// A body is read only when the record has something to compare it to.
    pub fn wants_body(&self) -> bool {
        self.length.is_some() || self.sha256.is_some()
    }
}

/// `X-301-Redirect` → 301: the marker as `check` accepts it
/// ([`media_type::redirect_marker`]).
pub fn redirect_marker(content_type: &str) -> Option<u16> {
    media_type::redirect_marker(content_type)
}

/// One URL to fetch.
#[derive(Debug, Clone)]
pub struct UrlCheck {
    /// The URL requested, built from its parts ([`build_url`]); for a
    /// record that is not checked, the scheme, host and `_path` as text
    /// (never requested).
    pub url: String,
    /// The URL as the record publishes it: its own scheme and host, before
    /// `--map` (a redirect's `Location` is read against it:
    /// `docs/verify.md`, "When a URL breaks").
    pub published: String,
    /// `scheme://authority`: robots.txt and the per-host limit are keyed by it.
    pub origin: String,
    /// The record's `_path`.
    pub path: String,
    /// The domain file and the record's line (1-based), for the report.
    pub file: PathBuf,
    pub line: usize,
    pub expect: Expect,
    /// Why this record is not requested at all (a `unrequested::blocking` finding, or
    /// a URL that cannot be built from its parts).
    pub not_checked: Option<NotChecked>,
    /// Why this URL is skipped (a `skip` entry, the record's `skip-verify`).
    pub skip: Option<Skip>,
    /// What the request carries for its host, and the statuses accepted.
    pub request: Arc<Request>,
}

/// A file or record that cannot be verified (exit 2: `check` reports why).
#[derive(Debug, Clone)]
pub struct Problem {
    pub file: PathBuf,
    pub line: Option<usize>,
    pub problem: Unverifiable,
}

#[derive(Debug, Default)]
pub struct Plan {
    pub checks: Vec<UrlCheck>,
    /// Records skipped because they are `deprecated`.
    pub deprecated: usize,
    /// URLs left out by `--max-age`: they passed recently.
    pub fresh: usize,
    pub problems: Vec<Problem>,
}

/// Plan every record of `files` that passes the filters.
pub fn plan(
    root: &urldb_store::Root,
    files: &[PathBuf],
    options: &PlanOptions,
    max_file_size: u64,
) -> Plan {
    let mut plan = Plan::default();
    for file in files {
        match urldb_store::database::read_file(root, file, max_file_size) {
            Err(urldb_store::ReadError::TooLarge { size }) => plan.problems.push(Problem {
                file: file.clone(),
                line: None,
                problem: Unverifiable::TooLarge { size },
            }),
            Err(e) => plan.problems.push(Problem {
                file: file.clone(),
                line: None,
                problem: Unverifiable::Read(Arc::new(e)),
            }),
            Ok(raw) => plan_file(file, &raw, options, None, &mut plan),
        }
    }
    plan
}

/// Plan the records that `verify --since` / `--staged` requests again
/// ([`urldb_store::FileChange::recheck`]): of each changed file, from its
/// new side's bytes as the change set read them, every record or those
/// of the `_path`s it names, through the same filters as [`plan`].
pub fn plan_changes(files: &[&urldb_store::FileChange], options: &PlanOptions) -> Plan {
    let mut plan = Plan::default();
    for file in files {
        let Some(recheck) = file.recheck() else {
            continue;
        };
        let selected = match &recheck {
            urldb_store::Recheck::Every => None,
            urldb_store::Recheck::Paths(paths) => Some(paths),
        };
        match file.new_bytes() {
            None => {}
            Some(Ok(raw)) => plan_file(&file.path, raw, options, selected, &mut plan),
            Some(Err(why)) => plan.problems.push(Problem {
                file: file.path.clone(),
                line: None,
                problem: Unverifiable::Changed(Arc::clone(why)),
            }),
        }
    }
    plan
}

/// Plan the records of one file (`selected`: only those with these
/// `_path`s).
fn plan_file(
    file: &Path,
    raw: &[u8],
    options: &PlanOptions,
    selected: Option<&std::collections::BTreeSet<String>>,
    plan: &mut Plan,
) {
    let problem = |line: Option<usize>, problem: Unverifiable| Problem {
        file: file.to_path_buf(),
        line,
        problem,
    };
    let (text, tree) = match urldb_core::parse::read_bytes(raw) {
        Ok(reading) => (reading.text, reading.tree),
        Err(urldb_core::parse::Unreadable::NotUtf8) => {
            plan.problems.push(problem(None, Unverifiable::NotUtf8));
            return;
        }
        Err(urldb_core::parse::Unreadable::Refused) => {
            plan.problems.push(problem(None, Unverifiable::Syntax));
            return;
        }
    };
    let domain = urldb_core::rules::domain_of(file);
    let docs = &tree.documents;
    let cnames = domain::cnames(docs);
    let filters = &options.filters;
    if !filters.accepts_file(&domain, &cnames) {
        return;
    }
    // A scheme the reference tool reads otherwise (`invalid-boolean`, a
    // gate finding): no URL of the file is requested with either.
    if domain::bool_read_otherwise(docs, domain::HTTPS, false).is_some() {
        plan.problems
            .push(problem(None, Unverifiable::SchemeReadOtherwise));
        return;
    }
    let https = domain::https(docs);
    let case_sensitive = domain::case_sensitive_paths(docs);
    let mut hosts = vec![domain.as_str()];
    if options.cnames {
        hosts.extend(cnames.iter().copied());
    }
    let schemes: &[&str] = match (options.both_schemes, https) {
        (true, _) => &["http", "https"],
        (false, true) => &["https"],
        (false, false) => &["http"],
    };
    let lines = LineIndex::new(text);
    let blocking = unrequested::blocking_findings(file, text, docs, &domain);
    for record in domain::records(docs) {
        let line = lines.line_of(record.node.span.start) + 1;
        let Some(path) = record.path() else {
            if selected.is_none() {
                plan.problems
                    .push(problem(Some(line), NotPlanned::NoPath.into()));
            }
            continue;
        };
        if selected.is_some_and(|paths| !paths.contains(path)) {
            continue;
        }
        let categories: Vec<&str> = record.categories().collect();
        if !filters.accepts_record(path, &categories) {
            if filters.hides_deprecated()
                && categories.contains(&domain::DEPRECATED)
                && filters.selects(path, &categories)
            {
                plan.deprecated += 1;
            }
            continue;
        }
        let expect = match expect(&record) {
            Ok(e) => e,
            Err(e) => {
                plan.problems.push(problem(Some(line), e.into()));
                continue;
            }
        };
        let blocked = record
            .get(domain::PATH)
            .and_then(|e| unrequested::blocking_in(&blocking, &e.value.span));
        let skip_verify = categories.contains(&SKIP_VERIFY).then(|| Skip {
            kind: SKIP_VERIFY,
            reason: format!("skipped: the record has the category `{SKIP_VERIFY}`"),
        });
        // A map can make two hosts or schemes one URL: fetch it once.
        let first = plan.checks.len();
        for host in &hosts {
            let mapped = options.maps.get(*host);
            let request = options.exceptions.request(host);
            for scheme in schemes {
                let scheme_given = *scheme;
                let skip = skip_verify
                    .clone()
                    .or_else(|| options.exceptions.skip(scheme, host, path, case_sensitive));
                let (scheme, authority) = match mapped {
                    Some(t) => (t.scheme.as_deref().unwrap_or(scheme), t.authority.as_str()),
                    None => (*scheme, *host),
                };
                // A skipped URL is not requested anyway.
                let plain = match skip {
                    None => plain_credentials(scheme, host, mapped, &request).or_else(|| {
                        unowned_map(host, options.unowned_maps.contains(*host), &request)
                    }),
                    Some(_) => None,
                };
                let built = match (blocked, plain) {
                    (Some(f), _) => Err(NotChecked::Blocked(Box::new(f.clone()))),
                    (None, Some(reason)) => Err(reason),
                    (None, None) => build_url(scheme, authority, path).map_err(NotChecked::from),
                };
                let published = match mapped {
                    None => None,
                    Some(_) => build_url(scheme_given, host, path).ok().map(|(u, _)| u),
                };
                let check = match built {
                    Ok((url, origin)) => UrlCheck {
                        published: published.unwrap_or_else(|| url.clone()),
                        url,
                        origin,
                        path: path.to_string(),
                        file: file.to_path_buf(),
                        line,
                        expect: expect.clone(),
                        not_checked: None,
                        skip,
                        request: Arc::clone(&request),
                    },
                    Err(reason) => UrlCheck {
                        url: format!("{scheme}://{authority}{path}"),
                        published: format!("{scheme_given}://{host}{path}"),
                        origin: format!("{scheme}://{authority}"),
                        path: path.to_string(),
                        file: file.to_path_buf(),
                        line,
                        expect: expect.clone(),
                        not_checked: Some(reason),
                        skip: None,
                        request: Arc::clone(&request),
                    },
                };
                if plan.checks[first..].iter().any(|c| c.url == check.url) {
                    continue;
                }
                plan.checks.push(check);
                // A record whose `_path` is at fault is reported once.
                if blocked.is_some() {
                    break;
                }
            }
            if blocked.is_some() {
                break;
            }
        }
    }
}

/// Why a request for `host` over `scheme` is not made: it would carry a
/// credential ([`Request::credentials`]) over plain http. Credentials go
/// over https only, unless the person running urldb maps the host to an
/// explicit `http://` address (a test server); a record without
/// `https: true`, `--both-schemes` or a map without a scheme never sends
/// one in clear text (`docs/verify-exceptions.md`, "Secrets").
fn plain_credentials(
    scheme: &str,
    host: &str,
    mapped: Option<&Target>,
    request: &Request,
) -> Option<NotChecked> {
    let header = request.credentials.first()?;
    if scheme != "http" || mapped.is_some_and(|t| t.scheme.as_deref() == Some("http")) {
        return None;
    }
    Some(NotChecked::PlainCredentials {
        host: host.to_string(),
        header: header.to_string(),
    })
}

/// Why a request for `host` that carries a credential is not sent where
/// `urldb.toml` maps it (`unowned`: only a file not the owner's maps it):
/// which server receives a credential is the runner's choice (`--map`,
/// `--map-file`) or the owner's (`--config-from`), never a pull request's.
fn unowned_map(host: &str, unowned: bool, request: &Request) -> Option<NotChecked> {
    let header = request.credentials.first().filter(|_| unowned)?;
    Some(NotChecked::UnownedMap {
        host: host.to_string(),
        header: header.to_string(),
    })
}

/// The URL of `path` on `scheme://authority`, built from its parts by the
/// one builder every command uses ([`urldb_core::url::Origin::url_of`]:
/// no `_path` text can change the scheme, user info, host or port), then
/// checked once more as the HTTP client reads it: the same host and port.
/// Returns the URL and its origin (`scheme://host[:port]`).
pub fn build_url(scheme: &str, authority: &str, path: &str) -> Result<(String, String), UrlError> {
    let (url, origin) = urldb_core::url::build_url(scheme, authority, path)?;
    let moved = || {
        UrlError::from(BuildError::Elsewhere {
            path: path.to_string(),
            origin: origin.as_str().to_string(),
            why: urldb_core::url::Why::ReadAs(url.clone()),
        })
    };
    // The client parses the text again: it must read the same host and port.
    let uri: ureq::http::Uri = url.parse().map_err(|_| moved())?;
    let uri_port = uri.port_u16().or(match uri.scheme_str() {
        Some("http") => Some(80),
        Some("https") => Some(443),
        _ => None,
    });
    if uri.scheme_str() != Some(scheme)
        || uri.host() != Some(origin.host())
        || uri_port != Some(origin.port())
        || uri.authority().is_some_and(|a| a.as_str().contains('@'))
    {
        return Err(moved());
    }
    Ok((url, origin.as_str().to_string()))
}

fn expect(record: &Record) -> Result<Expect, NotPlanned> {
    let scalar = |key: &str| {
        record
            .get(key)
            .and_then(|e| e.value.as_scalar())
            .map(|s| s.value.trim().to_string())
    };
    let content_type = scalar(domain::CONTENT_TYPE).ok_or(NotPlanned::NoContentType)?;
    let length = match scalar(domain::CONTENT_LENGTH) {
        None => None,
        Some(n) => {
            Some(domain::content_length(&n).ok_or_else(|| NotPlanned::ContentLength(n.clone()))?)
        }
    };
    let sha256 = match scalar(domain::CONTENT_SHA256) {
        None => None,
        Some(h) if h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit()) => {
            Some(h.to_ascii_lowercase())
        }
        Some(h) => {
            return Err(NotPlanned::Sha256(h));
        }
    };
    Ok(Expect {
        content_type,
        redirect_ok: record.categories().any(|c| c == domain::REDIRECT_OK),
        content_type_change_ok: record
            .categories()
            .any(|c| c == domain::CONTENT_TYPE_CHANGE_OK),
        length,
        sha256,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_arguments() {
        let (d, t) = parse_map("Example.com=127.0.0.1:8080").unwrap();
        assert_eq!(d, "example.com");
        assert_eq!(t.authority, "127.0.0.1:8080");
        assert_eq!(t.scheme, None);
        let (_, t) = parse_map("example.com=http://[::1]:9/").unwrap();
        assert_eq!(t.scheme.as_deref(), Some("http"));
        assert_eq!(t.authority, "[::1]:9");
        assert!(
            parse_map("example.com")
                .unwrap_err()
                .to_string()
                .contains("DOMAIN=HOST")
        );
        assert!(parse_map("=x").unwrap_err().to_string().contains("empty"));
        assert!(
            parse_map("a=ftp://x")
                .unwrap_err()
                .to_string()
                .contains("ftp")
        );
        assert!(parse_map("a=x/y").unwrap_err().to_string().contains("port"));
        assert!(parse_map("a=").unwrap_err().to_string().contains("port"));
    }

    #[test]
    fn urls_are_built_from_their_parts() {
        let url = |a: &str, p: &str| build_url("http", a, p).map(|(u, _)| u);
        assert_eq!(
            build_url("http", "127.0.0.1:8080", "/a?b=@c:1"),
            Ok((
                "http://127.0.0.1:8080/a?b=@c:1".to_string(),
                "http://127.0.0.1:8080".to_string()
            ))
        );
        // A network-path reference names a host of its own: no URL.
        assert!(url("example.org", "//evil.org:1/x").is_err());
        assert_eq!(
            url("example.org:80", "/").as_deref(),
            Ok("http://example.org/")
        );
        assert_eq!(url("[::1]:9", "/x").as_deref(), Ok("http://[::1]:9/x"));
        // Whatever `_path` says, the host and port stay.
        for path in [
            ":x@evil.org:1/",
            "@evil.org/",
            "\\\\evil.org\\x",
            "?#@evil/",
        ] {
            let u = url("example.org", path).unwrap_or_default();
            assert!(
                u.is_empty() || u.starts_with("http://example.org/"),
                "{path} -> {u}"
            );
        }
        // An authority that is not a host with an optional port.
        for authority in ["a@evil.org", "evil.org/x", "a b", "evil.org:99999", "127.1"] {
            assert!(url(authority, "/").is_err(), "{authority}");
        }
    }

    #[test]
    fn redirect_markers() {
        assert_eq!(redirect_marker("X-301-Redirect"), Some(301));
        // As `check` reads it: one spelling (`invalid-content-type` flags
        // any other).
        assert_eq!(redirect_marker("x-302-redirect"), None);
        assert_eq!(redirect_marker("X-200-Redirect"), None);
        assert_eq!(redirect_marker("X-30-Redirect"), None);
        assert_eq!(redirect_marker("text/html"), None);
    }

    fn plan_text(text: &str, options: &PlanOptions) -> Plan {
        let mut plan = Plan::default();
        plan_file(
            Path::new("example.com.yaml"),
            text.as_bytes(),
            options,
            None,
            &mut plan,
        );
        plan
    }

    #[test]
    fn records_become_urls_with_their_expectations() {
        let text = "---\nhttps: true\ncnames:\n- www.example.com\n---\n_path: /a\ncontent-type: text/html\n---\n_path: /b\ncategories:\n- deprecated\ncontent-type: text/plain\n---\n_path: /c\ncontent-length: 3\ncontent-sha256: ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\ncontent-type: text/plain\n";
        let plan = plan_text(text, &PlanOptions::default());
        let urls: Vec<_> = plan.checks.iter().map(|c| c.url.as_str()).collect();
        assert_eq!(urls, ["https://example.com/a", "https://example.com/c"]);
        assert_eq!(plan.deprecated, 1);
        assert_eq!(plan.checks[0].line, 6);
        assert_eq!(plan.checks[1].expect.length, Some(3));

        let options = PlanOptions {
            cnames: true,
            both_schemes: true,
            filters: Filter {
                include_deprecated: true,
                path_prefix: Some("/b".into()),
                ..Filter::default()
            },
            ..PlanOptions::default()
        };
        let plan = plan_text(text, &options);
        let urls: Vec<_> = plan.checks.iter().map(|c| c.url.as_str()).collect();
        assert_eq!(
            urls,
            [
                "http://example.com/b",
                "https://example.com/b",
                "http://www.example.com/b",
                "https://www.example.com/b"
            ]
        );
    }

    #[test]
    fn unusable_records_are_problems_not_panics() {
        let text = "---\n---\ncontent-type: text/html\n---\n_path: /x\n---\n_path: /y\ncontent-length: -1\ncontent-type: a/b\n---\n_path: /z\ncontent-sha256: nope\ncontent-type: a/b\n";
        let plan = plan_text(text, &PlanOptions::default());
        assert!(plan.checks.is_empty());
        let messages: Vec<_> = plan
            .problems
            .iter()
            .map(|p| p.problem.to_string())
            .collect();
        assert_eq!(messages.len(), 4, "{messages:?}");
        assert!(messages[0].contains("_path"));
        assert!(messages[1].contains("content-type"));
        assert!(messages[2].contains("content-length"));
        assert!(messages[3].contains("content-sha256"));
    }

    #[test]
    fn paths_with_a_blocking_finding_are_not_requested() {
        let text = "---\n---\n_path: ':x@evil.org:1/'\ncontent-type: text/html\n---\n_path: /a/../b\ncontent-type: text/html\n---\n_path: /ok\ncontent-type: text/html\n";
        let options = PlanOptions {
            both_schemes: true,
            ..PlanOptions::default()
        };
        let plan = plan_text(text, &options);
        let reasons: Vec<_> = plan
            .checks
            .iter()
            .map(|c| {
                c.not_checked
                    .as_ref()
                    .map_or("-".to_string(), |n| n.to_string())
            })
            .collect();
        assert_eq!(reasons.len(), 4, "{reasons:?}");
        assert!(reasons[0].ends_with("(path-not-absolute)"), "{reasons:?}");
        assert!(reasons[1].ends_with("(path-dot-segment)"), "{reasons:?}");
        assert_eq!(reasons[2..], ["-", "-"]);
    }

    #[test]
    fn credentials_never_go_over_plain_http_unless_mapped_so() {
        let config = crate::config::read(
            "[verify.domains.\"example.com\"]\nheaders = { Authorization = \"env:T\" }\n",
        )
        .expect("valid");
        let allowed = crate::exceptions::Allowed::new(["T".parse().expect("an entry")], true);
        let exceptions =
            Exceptions::resolve(&config, &allowed, &|_| Some("t".into())).expect("resolved");
        let reasons = |text: &str, both_schemes: bool, map: Option<&str>| {
            let options = PlanOptions {
                both_schemes,
                maps: map
                    .map(|m| parse_map(m).expect("map"))
                    .into_iter()
                    .collect(),
                exceptions: exceptions.clone(),
                ..PlanOptions::default()
            };
            let plan = plan_text(text, &options);
            plan.checks
                .iter()
                .map(|c| (c.url.clone(), c.not_checked.is_some()))
                .collect::<Vec<_>>()
        };
        let http = "---\n---\n_path: /a\ncontent-type: text/html\n";
        let https = "---\nhttps: true\n---\n_path: /a\ncontent-type: text/html\n";
        let refused = |url: &str| vec![(url.to_string(), true)];
        assert_eq!(reasons(http, false, None), refused("http://example.com/a"));
        // A map without a scheme keeps the record's: no downgrade either way.
        assert_eq!(
            reasons(http, false, Some("example.com=127.0.0.1:9")),
            refused("http://127.0.0.1:9/a")
        );
        assert_eq!(
            reasons(http, false, Some("example.com=http://127.0.0.1:9")),
            [("http://127.0.0.1:9/a".to_string(), false)]
        );
        assert_eq!(
            reasons(https, true, None),
            [
                ("http://example.com/a".to_string(), true),
                ("https://example.com/a".to_string(), false)
            ]
        );
        assert_eq!(
            reasons(https, false, None),
            [("https://example.com/a".to_string(), false)]
        );
        // Another host carries nothing, and is requested over http.
        let plan = plan_text(
            http,
            &PlanOptions {
                exceptions: Exceptions::default(),
                ..PlanOptions::default()
            },
        );
        assert!(plan.checks[0].not_checked.is_none());
    }

    #[test]
    fn broken_yaml_and_bad_utf8_are_problems() {
        let plan = plan_text("---\n---\n_path: [\n", &PlanOptions::default());
        assert_eq!(plan.problems.len(), 1);
        let mut plan = Plan::default();
        plan_file(
            Path::new("a.yaml"),
            b"\xff\xfe",
            &PlanOptions::default(),
            None,
            &mut plan,
        );
        assert!(plan.problems[0].problem.to_string().contains("UTF-8"));
    }

    #[test]
    fn domain_filter_matches_primary_or_cname() {
        let text = "---\ncnames:\n- www.example.com\n---\n_path: /\ncontent-type: text/html\n";
        let mut options = PlanOptions::default();
        options.filters.domains = vec!["www.example.com".into()];
        assert_eq!(plan_text(text, &options).checks.len(), 1);
        options.filters.domains = vec!["other.org".into()];
        assert_eq!(plan_text(text, &options).checks.len(), 0);
    }
}
