//! A small blocking HTTP client for the commands that talk to web servers
//! (`verify`, `add`): one GET, redirects never followed, bounded time and
//! body size, and the private-address guard ([`guard`]).
//!
//! ```no_run
//! use std::time::Duration;
//! use urldb_verify::{BodyMode, Client, ClientOptions};
//!
//! let client = Client::new(ClientOptions {
//!     timeout: Duration::from_secs(10),
//!     ..ClientOptions::default()
//! });
//! let response = client.get("https://example.com/favicon.ico", BodyMode::Digest, None)?;
//! println!("{} {:?} {:?}", response.status, response.content_type, response.body);
//! # Ok::<(), urldb_verify::FetchError>(())
//! ```
//!
//! One [`Client`] is meant to be shared by every thread of a run (it is
//! `Sync`): it keeps idle connections for reuse and caches each host's
//! checked addresses, so a run resolves every host once.
//!
//! Decisions (see `docs/verify.md`): no proxy is used (a proxy would make
//! the address guard meaningless); no `Accept-Encoding` is sent, so the
//! body digested is the resource's own bytes, never a compressed form.

mod guard;

use std::collections::HashMap;
use std::io::Read;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use sha2::{Digest as _, Sha256};
use ureq::config::AutoHeaderValue;
use ureq::http::Uri;
use ureq::unversioned::resolver::{DefaultResolver, ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::{DefaultConnector, NextTimeout};

pub(crate) use crate::exceptions::Request;
pub(crate) use guard::AddressClass;

/// The `User-Agent` urldb sends by default.
pub(crate) const USER_AGENT: &str = concat!("urldb/", env!("CARGO_PKG_VERSION"));

/// How much of an ignored body is read so that the connection can be
/// reused; a longer body is dropped with its connection.
const DRAIN_LIMIT: u64 = 256 * 1024;

/// How a [`Client`] behaves: one value for its whole life.
#[derive(Debug, Clone)]
pub struct ClientOptions {
    /// Limit for each step before the body: name lookup, connecting (with
    /// TLS), sending the request, receiving the status and headers. Also the
    /// longest pause allowed while reading the body.
    pub timeout: Duration,
    /// Limit for reading a whole body in [`BodyMode::Digest`]; `None` = only
    /// the pause limit applies.
    pub body_timeout: Option<Duration>,
    /// Connect to loopback, private, link-local and metadata addresses too.
    /// Off by default: see [`guard`].
    pub allow_private: bool,
    pub user_agent: String,
    /// A digested body longer than this fails with [`FetchError::BodyTooLarge`].
    pub max_body: u64,
    /// Idle connections kept per host for reuse.
    pub idle_per_host: usize,
}

impl Default for ClientOptions {
    fn default() -> Self {
        ClientOptions {
            timeout: Duration::from_secs(30),
            body_timeout: None,
            allow_private: false,
            user_agent: USER_AGENT.to_string(),
            max_body: 1 << 30,
            idle_per_host: 8,
        }
    }
}

/// What to do with the response body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyMode {
    /// Don't keep it (a short body is read and discarded so the connection
    /// can be reused).
    Ignore,
    /// For a 2xx answer, stream it through SHA-256, counting its length;
    /// never held in memory.
    Digest,
    /// Keep up to this many bytes of it in [`Response::bytes`] (the rest is
    /// not read): for small documents such as `/robots.txt`.
    Collect(u64),
}

/// The length and SHA-256 of a body, as the format records them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Digest {
    pub length: u64,
    /// 64 lowercase hex digits.
    pub sha256_hex: String,
}

/// A response: the status line and the headers urldb looks at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    pub status: u16,
    /// The `Content-Type` header as sent (parameters included).
    pub content_type: Option<String>,
    /// The `Location` header as sent (redirects are not followed).
    pub location: Option<String>,
    /// `Retry-After` in seconds from now: a number, or an HTTP-date
    /// (429 and 503 answers).
    pub retry_after: Option<u64>,
    /// The rate-limit fields (`RateLimit`, `X-RateLimit-*`, ...).
    pub rate_limit: crate::pace::RateLimit,
    /// The body's digest in [`BodyMode::Digest`].
    pub body: Option<Digest>,
    /// The body's first bytes in [`BodyMode::Collect`].
    pub bytes: Option<Vec<u8>>,
    /// A 403, 429 or 503 that is a bot challenge ([`crate::blocked`]).
    pub challenge: bool,
}

/// Why a request got no (complete) answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FetchError {
    #[error("invalid URL: {0}")]
    InvalidUrl(String),
    #[error("cannot resolve host `{0}`")]
    Dns(String),
    #[error("refused to connect to {addr} ({class} address of `{host}`)")]
    PrivateAddress {
        host: String,
        addr: IpAddr,
        class: AddressClass,
    },
    #[error("connection refused")]
    Refused,
    #[error("connection reset or closed by the server")]
    Reset,
    #[error("timed out ({0})")]
    Timeout(String),
    #[error("TLS error: {0}")]
    Tls(String),
    /// An `https` request answered in something that is no TLS, almost
    /// always plain HTTP: a server on a port without TLS (`--map
    /// HOST=127.0.0.1:8080` where `http://127.0.0.1:8080` was meant).
    #[error("the server does not speak TLS (it answered in plain text; an http:// server?)")]
    NotTls,
    #[error("body larger than the {limit}-byte limit")]
    BodyTooLarge { limit: u64 },
    #[error("bad HTTP response: {0}")]
    Protocol(String),
    #[error("connection failed: {0}")]
    Io(String),
}

impl FetchError {
    /// Worth another try: the network or the server may do better next time.
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            FetchError::Refused | FetchError::Reset | FetchError::Timeout(_) | FetchError::Io(_)
        )
    }
}

/// A blocking HTTP client; cheap to share between threads.
#[derive(Debug, Clone)]
pub struct Client {
    agent: ureq::Agent,
    options: ClientOptions,
    /// With `allow_private`, the authorities connected to whose addresses
    /// were all private (`verify --archive` never sends their URLs).
    private: Arc<Mutex<std::collections::HashSet<String>>>,
}

/// `ip` is one the guard refuses without `--allow-private` ([`guard`]).
pub(crate) fn is_private(ip: IpAddr) -> bool {
    guard::classify(ip).is_some()
}

impl Client {
    pub fn new(options: ClientOptions) -> Client {
        let timeout = Some(options.timeout);
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_redirects(0)
            .max_redirects_will_error(false)
            .proxy(None)
            .user_agent(options.user_agent.as_str())
            .accept_encoding(AutoHeaderValue::None)
            .timeout_resolve(timeout)
            .timeout_connect(timeout)
            .timeout_send_request(timeout)
            .timeout_recv_response(timeout)
            .timeout_per_read(timeout)
            .timeout_recv_body(options.body_timeout)
            .max_idle_connections(options.idle_per_host.max(1) * 64)
            .max_idle_connections_per_host(options.idle_per_host.max(1))
            .build();
        let private: Arc<Mutex<std::collections::HashSet<String>>> = Arc::default();
        let resolver = GuardResolver {
            allow_private: options.allow_private,
            cache: Arc::default(),
            private: Arc::clone(&private),
        };
        let agent = ureq::Agent::with_parts(config, DefaultConnector::new(), resolver);
        Client {
            agent,
            options,
            private,
        }
    }

    /// `authority` (`host[:port]`, as requested) resolved to private
    /// addresses only, which `allow_private` let the client connect to.
    pub(crate) fn resolved_private(&self, authority: &str) -> bool {
        self.private
            .lock()
            .is_ok_and(|p| p.contains(&authority.to_ascii_lowercase()))
    }

    pub fn options(&self) -> &ClientOptions {
        &self.options
    }

    /// GET `url` without following redirects. A status of 400 or more is
    /// a [`Response`] like any other; an `Err` means no complete answer.
    /// `progress` is called with the number of body bytes read so far (in
    /// [`BodyMode::Digest`]).
    pub fn get(
        &self,
        url: &str,
        mode: BodyMode,
        progress: Option<&dyn Fn(u64)>,
    ) -> Result<Response, FetchError> {
        self.get_with(url, mode, progress, &Request::default())
    }

    /// [`Client::get`] with `request`'s `User-Agent` and headers (the
    /// configuration's, for this URL's host only: `verify` never follows
    /// a redirect, so they go nowhere else). An error never quotes a
    /// header value.
    pub fn get_with(
        &self,
        url: &str,
        mode: BodyMode,
        progress: Option<&dyn Fn(u64)>,
        request: &Request,
    ) -> Result<Response, FetchError> {
        let uri: Uri = url.parse().map_err(|e: ureq::http::uri::InvalidUri| {
            FetchError::InvalidUrl(format!("{url}: {e}"))
        })?;
        let mut call = self.agent.get(uri);
        if let Some(agent) = &request.user_agent {
            call = call.header("user-agent", agent.as_str());
        }
        for (name, value) in &request.headers {
            call = call.header(name.as_str(), value.expose());
        }
        let mut response = call.call().map_err(map_error)?;
        let now = jiff::Timestamp::now().as_second();
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
        };
        let mut result = Response {
            status: response.status().as_u16(),
            content_type: header("content-type"),
            location: header("location"),
            retry_after: header("retry-after").and_then(|v| crate::pace::retry_after(&v, now)),
            rate_limit: crate::pace::rate_limit(&header, now),
            body: None,
            bytes: None,
            challenge: false,
        };
        let cf_mitigated = header("cf-mitigated");
        let mut reader = response.body_mut().as_reader();
        if crate::blocked::may_be_challenge(result.status) && !matches!(mode, BodyMode::Collect(_))
        {
            // The start of the page tells a bot wall from a refusal; a
            // body that cannot be read is judged by its header alone.
            let mut start = Vec::new();
            let _ = (&mut reader)
                .take(crate::blocked::SNIFF)
                .read_to_end(&mut start);
            result.challenge =
                crate::blocked::is_challenge(result.status, cf_mitigated.as_deref(), &start);
            return Ok(result);
        }
        match mode {
            BodyMode::Ignore => {
                // Errors here don't change the answer: the status and headers
                // are in; at worst the connection is not reused.
                let _ = std::io::copy(&mut (&mut reader).take(DRAIN_LIMIT), &mut std::io::sink());
            }
            BodyMode::Digest if (200..300).contains(&result.status) => {
                result.body = Some(digest(&mut reader, self.options.max_body, progress)?);
            }
            BodyMode::Digest => {}
            BodyMode::Collect(limit) => {
                let mut bytes = Vec::new();
                (&mut reader)
                    .take(limit)
                    .read_to_end(&mut bytes)
                    .map_err(|e| map_io(&e))?;
                result.challenge =
                    crate::blocked::is_challenge(result.status, cf_mitigated.as_deref(), &bytes);
                result.bytes = Some(bytes);
            }
        }
        Ok(result)
    }
}

/// Stream `reader` through SHA-256 in fixed-size chunks: memory stays flat
/// whatever the body size.
fn digest(
    reader: &mut impl Read,
    max_body: u64,
    progress: Option<&dyn Fn(u64)>,
) -> Result<Digest, FetchError> {
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 64 * 1024];
    let mut length: u64 = 0;
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(map_io(&e)),
        };
        length += n as u64;
        if length > max_body {
            return Err(FetchError::BodyTooLarge { limit: max_body });
        }
        hasher.update(&buf[..n]);
        if let Some(progress) = progress {
            progress(length);
        }
    }
    Ok(Digest {
        length,
        sha256_hex: urldb_core::model::domain::hex_digest(&hasher.finalize()),
    })
}

fn map_error(e: ureq::Error) -> FetchError {
    match e {
        ureq::Error::Other(inner) => match inner.downcast::<FetchError>() {
            Ok(fetch) => *fetch,
            Err(other) if is_plain_answer(&other.to_string()) => FetchError::NotTls,
            Err(other) => FetchError::Io(other.to_string()),
        },
        ureq::Error::Io(io) => map_io(&io),
        ureq::Error::Timeout(t) => FetchError::Timeout(t.to_string()),
        ureq::Error::HostNotFound => FetchError::Dns("host not found".to_string()),
        ureq::Error::BadUri(m) => FetchError::InvalidUrl(m),
        // The one error that could carry a configured header (a secret):
        // never shown.
        ureq::Error::Http(_) => FetchError::InvalidUrl(
            "the request cannot be built (a configured header cannot be sent?)".to_string(),
        ),
        ureq::Error::ConnectionFailed => FetchError::Refused,
        ureq::Error::Tls(m) => tls_error(m.to_string()),
        ureq::Error::Rustls(r) => tls_error(r.to_string()),
        ureq::Error::Protocol(p) => FetchError::Protocol(p.to_string()),
        ureq::Error::LargeResponseHeader(..) => FetchError::Protocol(e.to_string()),
        other => FetchError::Io(other.to_string()),
    }
}

fn map_io(io: &std::io::Error) -> FetchError {
    use std::io::ErrorKind as K;
    if let Some(fetch) = io.get_ref().and_then(|i| i.downcast_ref::<FetchError>()) {
        return fetch.clone();
    }
    match io.kind() {
        K::ConnectionRefused => FetchError::Refused,
        K::ConnectionReset | K::ConnectionAborted | K::BrokenPipe | K::UnexpectedEof => {
            FetchError::Reset
        }
        K::TimedOut | K::WouldBlock => FetchError::Timeout("reading".to_string()),
        _ if is_plain_answer(&io.to_string()) => FetchError::NotTls,
        _ => FetchError::Io(io.to_string()),
    }
}

/// A TLS error, unless it is a plain answer ([`FetchError::NotTls`]).
fn tls_error(message: String) -> FetchError {
    if is_plain_answer(&message) {
        FetchError::NotTls
    } else {
        FetchError::Tls(message)
    }
}

/// rustls's "received corrupt message of type InvalidContentType": the
/// first byte of the answer is no TLS record type, as `H` of `HTTP/1.1`
/// is not. rustls's error reaches us as text through ureq (the crate is
/// not ours to name); `messages::mistakes::add_guards_private_addresses_\
/// and_a_plain_server_gets_the_map_that_works` pins the wording.
fn is_plain_answer(message: &str) -> bool {
    message.contains("InvalidContentType")
}

/// Name resolution that applies the address guard, remembers each host's
/// answer for the client's life, and hands ureq's connector only the
/// addresses that passed (so what was checked is what is connected to).
#[derive(Debug)]
struct GuardResolver {
    allow_private: bool,
    cache: Arc<Mutex<HashMap<String, Result<ResolvedSocketAddrs, FetchError>>>>,
    /// The authorities whose addresses were all private (with
    /// `allow_private`).
    private: Arc<Mutex<std::collections::HashSet<String>>>,
}

impl Resolver for GuardResolver {
    fn resolve(
        &self,
        uri: &Uri,
        config: &ureq::config::Config,
        timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let key = uri
            .authority()
            .map(|a| a.as_str().to_ascii_lowercase())
            .unwrap_or_default();
        let cached = self
            .cache
            .lock()
            .ok()
            .and_then(|cache| cache.get(&key).cloned());
        let answer = match cached {
            Some(answer) => answer,
            None => {
                let answer = self.lookup(uri, config, timeout)?;
                if let Ok(addrs) = &answer
                    && self.allow_private
                    && !addrs.is_empty()
                    && addrs.iter().all(|a| guard::classify(a.ip()).is_some())
                    && let Ok(mut private) = self.private.lock()
                {
                    private.insert(key.clone());
                }
                if let Ok(mut cache) = self.cache.lock() {
                    cache.insert(key, answer.clone());
                }
                answer
            }
        };
        answer.map_err(|e| ureq::Error::Other(Box::new(e)))
    }
}

impl GuardResolver {
    /// The inner result is the answer to remember for the client's life
    /// (addresses, an unknown host, a refusal); the outer error a lookup
    /// that timed out, which is not remembered: it may do better next time.
    #[allow(clippy::type_complexity)]
    fn lookup(
        &self,
        uri: &Uri,
        config: &ureq::config::Config,
        timeout: NextTimeout,
    ) -> Result<Result<ResolvedSocketAddrs, FetchError>, ureq::Error> {
        let host = uri.host().unwrap_or_default().to_string();
        let resolved = match DefaultResolver::default().resolve(uri, config, timeout) {
            Ok(addrs) => addrs,
            Err(ureq::Error::HostNotFound) => return Ok(Err(FetchError::Dns(host))),
            Err(ureq::Error::Io(e)) if e.kind() != std::io::ErrorKind::TimedOut => {
                return Ok(Err(FetchError::Dns(host)));
            }
            Err(e) => return Err(e),
        };
        if self.allow_private {
            return Ok(Ok(resolved));
        }
        Ok(filter_public(&host, &resolved, self.empty()))
    }
}

/// Keep the public addresses; when there are none, the refusal names the
/// first address and its class.
fn filter_public(
    host: &str,
    resolved: &[SocketAddr],
    mut kept: ResolvedSocketAddrs,
) -> Result<ResolvedSocketAddrs, FetchError> {
    let mut refused = None;
    for addr in resolved {
        match guard::classify(addr.ip()) {
            None => kept.push(*addr),
            Some(class) => {
                refused.get_or_insert((addr.ip(), class));
            }
        }
    }
    match refused {
        Some((addr, class)) if kept.is_empty() => Err(FetchError::PrivateAddress {
            host: host
                .trim_start_matches('[')
                .trim_end_matches(']')
                .to_string(),
            addr,
            class,
        }),
        _ => Ok(kept),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn empty() -> ResolvedSocketAddrs {
        GuardResolver {
            allow_private: false,
            cache: Arc::default(),
            private: Arc::default(),
        }
        .empty()
    }

    #[test]
    fn mixed_answers_keep_only_public_addresses() {
        let addrs: Vec<SocketAddr> = vec![
            "127.0.0.1:80".parse().unwrap(),
            "93.184.216.34:80".parse().unwrap(),
        ];
        let kept = filter_public("example.com", &addrs, empty()).unwrap();
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0], addrs[1]);
    }

    #[test]
    fn an_all_private_answer_is_refused_with_the_class() {
        let addrs: Vec<SocketAddr> = vec!["[::1]:80".parse().unwrap()];
        let err = filter_public("[::1]", &addrs, empty()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "refused to connect to ::1 (loopback address of `::1`)"
        );
    }

    #[test]
    fn digest_counts_hashes_and_reports_progress() {
        let seen = std::cell::Cell::new(0);
        let progress = |n: u64| seen.set(n);
        let d = digest(&mut &b"abc"[..], 10, Some(&progress)).unwrap();
        assert_eq!(d.length, 3);
        assert_eq!(
            d.sha256_hex,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(seen.get(), 3);
    }

    #[test]
    fn digest_stops_at_the_body_limit() {
        let err = digest(&mut &[0u8; 100][..], 99, None).unwrap_err();
        assert_eq!(err, FetchError::BodyTooLarge { limit: 99 });
    }

    #[test]
    fn transient_errors_are_the_network_ones() {
        assert!(FetchError::Refused.is_transient());
        assert!(FetchError::Timeout("x".into()).is_transient());
        assert!(!FetchError::Dns("x".into()).is_transient());
        assert!(!FetchError::BodyTooLarge { limit: 1 }.is_transient());
    }

    #[test]
    fn an_unparsable_url_is_a_clear_error() {
        let client = Client::new(ClientOptions::default());
        let err = client.get("http://exa mple.com/", BodyMode::Ignore, None);
        assert!(matches!(err, Err(FetchError::InvalidUrl(_))), "{err:?}");
    }
}
