//! A record's URL, built from its parts: the one builder behind every
//! command that prints, exports or requests a URL (`ls`, `export`,
//! `verify`, `add`; `docs/urls.md`, "A record's URL").
//!
//! A `_path` joined to `scheme://host` as text can name another host
//! (`.attacker.example/x` after `a.example.org`), user information
//! (`@attacker.example/x`) or port (`:8443/admin`). Here the scheme and
//! the host make the origin, `_path` is set as the path and the query
//! (the `url` crate percent-encodes what those parts cannot hold), and the
//! result is accepted only when it is on that origin and when a client
//! reads the same URL every other way it may meet the record: as the text
//! `scheme://host` followed by `_path`, and as `_path` resolved against
//! `scheme://host/` (RFC 3986 section 5.2, the WHATWG URL parser).

use std::fmt;

/// Why no URL of its own origin can be built for a record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    /// The host (a file name, a `--map` target) is not a host name with an
    /// optional port, as the `url` crate reads it.
    #[error("`{authority}` is not a host name with an optional port")]
    NotAHost { authority: String },
    /// The `_path` would make a URL of another origin, or none.
    #[error("the URL of `_path` `{path}` would not be on {origin}: {why}")]
    Elsewhere {
        path: String,
        origin: String,
        why: Why,
    },
}

/// What takes a `_path`'s URL off its origin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Why {
    /// Not starting with `/`: written after the host, its text continues
    /// the host (`.x`), or starts user information (`@x`) or a port (`:1`).
    NotAbsolute,
    /// Starting with `//`: a network-path reference (RFC 3986 section 4.2)
    /// names a host of its own.
    NetworkPath,
    /// A client reads the record as this other URL (a `#`, a `\`).
    ReadAs(String),
}

impl fmt::Display for Why {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Why::NotAbsolute => f.write_str(
                "it does not start with `/`, so after the host it names another host, \
                 port or user",
            ),
            Why::NetworkPath => f.write_str(
                "it starts with `//`, which names a host (RFC 3986 section 4.2, \
                 network-path reference)",
            ),
            Why::ReadAs(url) => write!(f, "a client reads it as `{url}`"),
        }
    }
}

/// `scheme://host[:port]`, checked once, from which a record's URLs are
/// built ([`Origin::url_of`]).
#[derive(Debug, Clone)]
pub struct Origin {
    /// `scheme://host[:port]/`.
    base: url::Url,
    /// The scheme and authority as given (lowercase): the text a `_path`
    /// would follow.
    prefix: String,
    host: String,
    port: u16,
    serialized: String,
}

impl Origin {
    /// The origin of `scheme` (`http` or `https`) and `authority` (`host`
    /// or `host:port`, an IPv6 address in brackets). Refused when the `url`
    /// crate reads the authority as anything else than the text given, up
    /// to case and a default port spelled out: user information, a path,
    /// an IPv4 address written otherwise (`127.1`), an IDN.
    pub fn new(scheme: &str, authority: &str) -> Result<Origin, BuildError> {
        let not_a_host = || BuildError::NotAHost {
            authority: authority.to_string(),
        };
        if !matches!(scheme, "http" | "https") {
            return Err(not_a_host());
        }
        let base =
            url::Url::parse(&format!("{scheme}://{authority}/")).map_err(|_| not_a_host())?;
        let host = base.host_str().ok_or_else(not_a_host)?.to_string();
        let port = base.port_or_known_default().ok_or_else(not_a_host)?;
        let as_written = authority.to_ascii_lowercase();
        let same_authority = as_written == host || as_written == format!("{host}:{port}");
        if base.scheme() != scheme
            || !base.username().is_empty()
            || base.password().is_some()
            || base.path() != "/"
            || base.query().is_some()
            || base.fragment().is_some()
            || !same_authority
        {
            return Err(not_a_host());
        }
        let serialized = base.origin().ascii_serialization();
        Ok(Origin {
            prefix: format!("{scheme}://{as_written}"),
            base,
            host,
            port,
            serialized,
        })
    }

    /// The host as the `url` crate writes it (an IPv6 address in brackets).
    pub fn host(&self) -> &str {
        &self.host
    }

    /// The port, the scheme's default when none is written.
    pub fn port(&self) -> u16 {
        self.port
    }

    pub fn scheme(&self) -> &str {
        self.base.scheme()
    }

    /// `scheme://host[:port]` (RFC 6454 serialization: no default port).
    pub fn as_str(&self) -> &str {
        &self.serialized
    }

    /// The URL of the record whose `_path` is `path` (path and query),
    /// or why there is none on this origin.
    ///
    /// Characters no URL line can hold (controls, bidirectional marks;
    /// [`crate::text::url_line`]) are percent-encoded first, so that none
    /// is dropped on the way (a URL parser drops tabs and line breaks).
    /// `path` must start with `/` and not `//`; the URL is then built from
    /// parts, and must be on this origin and be what a client reads both
    /// from the text `scheme://host` + `path` and from `path` resolved
    /// against `scheme://host/`.
    pub fn url_of(&self, path: &str) -> Result<String, BuildError> {
        let elsewhere = |why| BuildError::Elsewhere {
            path: path.to_string(),
            origin: self.serialized.clone(),
            why,
        };
        if !path.starts_with('/') {
            return Err(elsewhere(Why::NotAbsolute));
        }
        if path.starts_with("//") {
            return Err(elsewhere(Why::NetworkPath));
        }
        let (text, _) = crate::text::url_line(path);
        let mut url = self.base.clone();
        match text.split_once('?') {
            Some((head, query)) => {
                url.set_path(head);
                url.set_query(Some(query));
            }
            None => url.set_path(&text),
        }
        if !self.holds(&url) {
            return Err(elsewhere(Why::ReadAs(url.into())));
        }
        for reading in [
            url::Url::parse(&format!("{}{text}", self.prefix)),
            self.base.join(&text),
        ] {
            match reading {
                Ok(read) if read == url => {}
                Ok(read) => return Err(elsewhere(Why::ReadAs(read.into()))),
                Err(_) => return Err(elsewhere(Why::ReadAs(format!("{}{text}", self.prefix)))),
            }
        }
        Ok(url.into())
    }

    /// `url` is on this origin, with no user information and no fragment.
    fn holds(&self, url: &url::Url) -> bool {
        url.scheme() == self.base.scheme()
            && url.host_str() == Some(self.host.as_str())
            && url.port_or_known_default() == Some(self.port)
            && url.username().is_empty()
            && url.password().is_none()
            && url.fragment().is_none()
    }
}

/// The URL of `path` on `scheme://authority` and its origin
/// ([`Origin::new`], [`Origin::url_of`]), for one record.
pub fn build_url(
    scheme: &str,
    authority: &str,
    path: &str,
) -> Result<(String, Origin), BuildError> {
    let origin = Origin::new(scheme, authority)?;
    let url = origin.url_of(path)?;
    Ok((url, origin))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(authority: &str, path: &str) -> Result<String, BuildError> {
        build_url("http", authority, path).map(|(u, _)| u)
    }

    fn why(authority: &str, path: &str) -> Why {
        match url(authority, path) {
            Err(BuildError::Elsewhere { why, .. }) => why,
            other => panic!("{path}: {other:?}"),
        }
    }

    #[test]
    fn urls_are_built_from_their_parts() {
        let (u, origin) = build_url("http", "127.0.0.1:8080", "/a?b=@c:1").unwrap();
        assert_eq!(u, "http://127.0.0.1:8080/a?b=@c:1");
        assert_eq!(origin.as_str(), "http://127.0.0.1:8080");
        assert_eq!((origin.host(), origin.port()), ("127.0.0.1", 8080));
        assert_eq!(
            url("example.org:80", "/").as_deref(),
            Ok("http://example.org/")
        );
        assert_eq!(url("[::1]:9", "/x").as_deref(), Ok("http://[::1]:9/x"));
        assert_eq!(
            build_url("https", "Example.ORG", "/a%2Fb?q=1&r=%41")
                .map(|(u, _)| u)
                .as_deref(),
            Ok("https://example.org/a%2Fb?q=1&r=%41")
        );
        // What a URL cannot hold is percent-encoded, nothing dropped.
        assert_eq!(
            url("example.org", "/a b\n\u{1b}é\u{202e}").as_deref(),
            Ok("http://example.org/a%20b%0A%1B%C3%A9%E2%80%AE")
        );
        assert_eq!(
            url("example.org", "/a?x=\t").as_deref(),
            Ok("http://example.org/a?x=%09")
        );
    }

    #[test]
    fn a_path_that_names_another_host_port_or_user_is_refused() {
        for path in [
            ".attacker.example/steal",
            "@attacker.example/x",
            ":8443/admin",
            "",
            "?q",
            "a",
        ] {
            assert_eq!(why("a.example.org", path), Why::NotAbsolute, "{path}");
        }
        for path in ["//evil/x", "//", "///x"] {
            assert_eq!(why("a.example.org", path), Why::NetworkPath, "{path}");
        }
        // A backslash is a slash to a URL parser: `/\evil` resolves to
        // `//evil`.
        assert_eq!(
            why("a.example.org", "/\\evil.example/x"),
            Why::ReadAs("http://evil.example/x".into())
        );
        // A fragment is never sent: the record would be another URL.
        assert_eq!(
            why("a.example.org", "/a#@evil.example:1/"),
            Why::ReadAs("http://a.example.org/a#@evil.example:1/".into())
        );
        let message = url("a.example.org", ".attacker.example/steal")
            .unwrap_err()
            .to_string();
        assert!(
            message.contains("`.attacker.example/steal`")
                && message.contains("would not be on http://a.example.org"),
            "{message}"
        );
    }

    #[test]
    fn whatever_the_path_the_url_stays_on_its_origin() {
        for path in [
            ":x@evil.org:1/",
            "@evil.org/",
            "\\\\evil.org\\x",
            "?#@evil/",
            "/x\\@evil.org:1/",
            "/%zz@evil.org:1/",
            "/a/../../evil.org/",
            "/%2e%2e/x",
            "/x HTTP/1.1\r\nHost: evil.org\r\n\r\nGET /",
        ] {
            if let Ok(u) = url("example.org", path) {
                assert!(u.starts_with("http://example.org/"), "{path} -> {u}");
            }
        }
    }

    #[test]
    fn an_authority_that_is_not_a_host_is_refused() {
        for authority in [
            "a@evil.org",
            "evil.org/x",
            "a b",
            "evil.org:99999",
            "127.1",
            "0x7f.1",
            "bücher.example",
            "",
        ] {
            assert_eq!(
                Origin::new("http", authority).unwrap_err(),
                BuildError::NotAHost {
                    authority: authority.into()
                },
                "{authority}"
            );
        }
        assert!(Origin::new("ftp", "example.org").is_err());
    }
}
