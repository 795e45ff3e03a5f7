//! The exceptions of `urldb.toml`'s `[verify]` resolved for one run
//! (`docs/verify-exceptions.md`): which statuses pass, which URLs are
//! never requested, and what each host is sent (its `User-Agent` and
//! headers, values from the environment read here, once).
//!
//! A header value read from the environment is a [`Secret`]: its `Debug`
//! is `<secret>`, no error names it, and it is only ever handed to the
//! HTTP client with a request for its own host (redirects are never
//! followed, so it cannot travel to another).

use std::collections::BTreeMap;
use std::fmt;
use std::ops::RangeInclusive;
use std::sync::Arc;

use urldb_core::config::{self, SkipPattern, VerifyConfig, VerifyExceptions};

/// A header value that must never be shown.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub(crate) fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<secret>")
    }
}

/// What one request carries beyond urldb's own headers, and which
/// statuses pass for its host.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Request {
    /// Instead of `urldb/VERSION`.
    pub user_agent: Option<String>,
    /// Names and values (every value treated as a secret).
    pub headers: Vec<(String, Secret)>,
    /// Statuses that pass whatever the record says.
    pub accept: Vec<RangeInclusive<u16>>,
}

impl Request {
    /// `status` is one the configuration accepts for this host.
    pub fn accepts(&self, status: u16) -> bool {
        self.accept.iter().any(|r| r.contains(&status))
    }
}

/// A header whose value cannot be had (exit 2). Names the header and the
/// variable, never a value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExceptionError {
    #[error(
        "urldb.toml: {section}.headers.{header}: the environment variable `{variable}` is not set"
    )]
    Unset {
        section: String,
        header: String,
        variable: String,
    },
    #[error(
        "urldb.toml: {section}.headers.{header}: the environment variable `{variable}` holds a \
         value that cannot be sent in a header (a line break or a control character)"
    )]
    Unsendable {
        section: String,
        header: String,
        variable: String,
    },
}

/// Why a URL is never requested.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skip {
    /// `skip` (an entry of `urldb.toml`) or `skip-verify` (the record's category).
    pub kind: &'static str,
    pub reason: String,
}

/// [`Skip::kind`] of a URL that a `skip` entry names.
pub const SKIP: &str = "skip";
/// [`Skip::kind`] of a record with the category `skip-verify`.
pub const SKIP_VERIFY: &str = urldb_core::model::domain::SKIP_VERIFY;

#[derive(Debug, Clone, Default)]
struct HostRules {
    skip: Vec<(String, SkipPattern)>,
    request: Arc<Request>,
}

/// Every host's rules, resolved.
#[derive(Debug, Clone, Default)]
pub struct Exceptions {
    every: HostRules,
    hosts: BTreeMap<String, HostRules>,
}

impl Exceptions {
    /// Resolve `config`, reading `env:` values with `env` (the process's
    /// environment, or a test's).
    pub fn resolve(
        config: &VerifyConfig,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Exceptions, ExceptionError> {
        let every = config.exceptions();
        let every_rules = rules("verify", &every, None, env)?;
        let mut hosts = BTreeMap::new();
        for (key, section) in &config.domains {
            // Validated with the file: a key that is no host has no section.
            let Ok(host) = config::domain_key(key) else {
                continue;
            };
            let name = format!("verify.domains.\"{host}\"");
            hosts.insert(host, rules(&name, section, Some(&every), env)?);
        }
        Ok(Exceptions {
            every: every_rules,
            hosts,
        })
    }

    fn of(&self, host: &str) -> &HostRules {
        self.hosts.get(host).unwrap_or(&self.every)
    }

    /// What a request to `host` (a domain file's name or a cname, before
    /// any `--map`) carries.
    pub fn request(&self, host: &str) -> Arc<Request> {
        Arc::clone(&self.of(host).request)
    }

    /// Why the URL of `path` on `scheme://host` is not to be requested,
    /// if a `skip` entry says so. `case_sensitive`: the domain's
    /// `case-sensitive-paths`.
    pub fn skip(&self, scheme: &str, host: &str, path: &str, case_sensitive: bool) -> Option<Skip> {
        let hit = self.of(host).skip.iter().find(|(_, p)| {
            p.host.as_deref().is_none_or(|h| h == host)
                && p.scheme.as_deref().is_none_or(|s| s == scheme)
                && path_matches(&p.path, path, case_sensitive)
        })?;
        Some(Skip {
            kind: SKIP,
            reason: format!("skipped by urldb.toml (`{}`)", hit.0),
        })
    }
}

/// A robots.txt-style prefix match ([`urldb_core::url::matches`]); on a
/// domain whose paths are not case-sensitive, both are folded by the path
/// equivalence first (escapes decoded, then case ignored before the query),
/// so that `/%50rivate/` skips `/private/a` there.
fn path_matches(pattern: &str, path: &str, case_sensitive: bool) -> bool {
    if case_sensitive {
        return urldb_core::url::matches(pattern, path);
    }
    let fold = |p| urldb_core::model::path::equivalence_key(p, false);
    urldb_core::url::matches(&fold(pattern), &fold(path))
}

/// One section's rules; a host's section adds to `every` (statuses,
/// skips, headers) and replaces its `User-Agent` and same-named headers.
fn rules(
    section: &str,
    own: &VerifyExceptions,
    every: Option<&VerifyExceptions>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<HostRules, ExceptionError> {
    let mut request = Request::default();
    let mut skip = Vec::new();
    for s in every.into_iter().chain([own]) {
        request
            .accept
            .extend(s.accept.iter().filter_map(|a| a.range().ok()));
        skip.extend(
            s.skip
                .iter()
                .filter_map(|t| Some((t.clone(), SkipPattern::parse(t, false).ok()?))),
        );
        if s.user_agent.is_some() {
            request.user_agent.clone_from(&s.user_agent);
        }
        for (name, value) in &s.headers {
            let value = match config::env_name(value) {
                None => value.clone(),
                Some(variable) => {
                    let failed = |unset: bool| {
                        let (section, header, variable) =
                            (section.to_string(), name.clone(), variable.to_string());
                        if unset {
                            ExceptionError::Unset {
                                section,
                                header,
                                variable,
                            }
                        } else {
                            ExceptionError::Unsendable {
                                section,
                                header,
                                variable,
                            }
                        }
                    };
                    let v = env(variable).ok_or_else(|| failed(true))?;
                    // Surrounding spaces are dropped as HTTP drops them.
                    let v = v.trim().to_string();
                    if !config::is_header_value(&v) {
                        return Err(failed(false));
                    }
                    v
                }
            };
            request
                .headers
                .retain(|(n, _)| !n.eq_ignore_ascii_case(name));
            request.headers.push((name.clone(), Secret(value)));
        }
    }
    Ok(HostRules {
        skip,
        request: Arc::new(request),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolve(text: &str, env: &[(&str, &str)]) -> Result<Exceptions, ExceptionError> {
        let config = urldb_core::config::Config::parse(text).expect("valid");
        let env: Vec<(String, String)> = env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Exceptions::resolve(&config.verify, &|k| {
            env.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone())
        })
    }

    #[test]
    fn a_host_adds_to_every_host_and_keeps_its_secrets() {
        let text = "[verify]\naccept = [429]\nskip = [\"/private/\", \"https://b.test/x\"]\nuser-agent = \"bot/1\"\nheaders = { Accept-Language = \"en\" }\n\
                    [verify.domains.\"a.test\"]\naccept = [\"500-599\"]\nskip = [\"/login\"]\nheaders = { Authorization = \"env:TOKEN\" }\n";
        let e = resolve(text, &[("TOKEN", "s3cret")]).expect("resolved");
        let a = e.request("a.test");
        assert!(a.accepts(429) && a.accepts(503) && !a.accepts(404));
        assert_eq!(a.user_agent.as_deref(), Some("bot/1"));
        let names: Vec<_> = a.headers.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["Accept-Language", "Authorization"]);
        assert!(!format!("{e:?}").contains("s3cret"));
        let b = e.request("b.test");
        assert!(b.accepts(429) && !b.accepts(503));
        assert_eq!(b.headers.len(), 1);
        assert!(e.skip("https", "a.test", "/login/x", true).is_some());
        assert!(e.skip("https", "a.test", "/private/a", true).is_some());
        assert!(e.skip("https", "b.test", "/login", true).is_none());
        assert!(e.skip("https", "b.test", "/x%79", true).is_some());
        assert!(e.skip("http", "b.test", "/x", true).is_none());
        assert!(e.skip("https", "c.test", "/PRIVATE/a", true).is_none());
        assert!(e.skip("https", "c.test", "/PRIVATE/a", false).is_some());
        // An escaped letter is that letter, whatever its case, where case
        // does not count.
        assert!(e.skip("https", "c.test", "/%70rivate/a", false).is_some());
        assert!(e.skip("https", "c.test", "/%50RIVATE/a", false).is_some());
        assert!(e.skip("https", "c.test", "/%50rivate/a", true).is_none());
        let e = resolve("[verify]\nskip = [\"/%50rivate/\"]\n", &[]).expect("resolved");
        assert!(e.skip("https", "c.test", "/private/a", false).is_some());
    }

    #[test]
    fn an_unset_or_unsendable_variable_is_named_never_shown() {
        let text = "[verify.domains.\"a.test\"]\nheaders = { Authorization = \"env:TOKEN\" }\n";
        let e = resolve(text, &[]).unwrap_err();
        assert!(e.to_string().contains("`TOKEN` is not set"), "{e}");
        let e = resolve(text, &[("TOKEN", "a\r\nX-Evil: 1")]).unwrap_err();
        assert!(!e.to_string().contains("Evil"), "{e}");
    }
}
