//! The exceptions of `urldb.toml`'s `[verify]` resolved for one run
//! (`docs/verify-exceptions.md`): which statuses pass, which URLs are
//! never requested, and what each host is sent (its `User-Agent` and
//! headers, values from the environment read here, once).
//!
//! A header value read from the environment is a [`Secret`]: its `Debug`
//! is `<secret>`, no error names it, and it is only ever handed to the
//! HTTP client with a request for its own host (redirects are never
//! followed, so it cannot travel to another). Which variables may be read
//! is the caller's choice ([`Allowed`]: `--allow-env`), never the
//! configuration's alone, and a header that carries a credential is named
//! in [`Request::credentials`] so that the plan sends it over https only.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::ops::RangeInclusive;
use std::sync::Arc;

use crate::config::{self, SkipPattern, VerifyConfig, VerifyExceptions};

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
    /// The names of the headers among them that carry a credential: a
    /// value from the environment, or `Authorization` or `Cookie`
    /// (`docs/verify-exceptions.md`, "Secrets"). They go over https only.
    pub credentials: Vec<String>,
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
    /// Read before the environment is looked at, so that the error says
    /// nothing about whether the variable exists.
    #[error(
        "urldb.toml: {section}.headers.{header}: reads the environment variable `{variable}`, \
         which this run does not allow: only the person running urldb chooses what it may read. \
         To send it, run `urldb verify --allow-env {variable}` (or set URLDB_ALLOW_ENV={variable}; \
         the Action's input `allow-env`)"
    )]
    NotAllowed {
        section: String,
        header: String,
        variable: String,
    },
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

/// The environment variables a run may read for `env:` headers: those the
/// person running urldb named (`--allow-env`, `URLDB_ALLOW_ENV`). Nothing
/// in `urldb.toml` adds to them: a pull request may change that file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Allowed(BTreeSet<String>);

impl Allowed {
    /// The variables of `names`, each a variable's name.
    pub fn new<I: IntoIterator<Item = String>>(names: I) -> Allowed {
        Allowed(names.into_iter().collect())
    }

    fn contains(&self, name: &str) -> bool {
        self.0.contains(name)
    }
}

/// Why a URL is never requested.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skip {
    /// `skip` (an entry of `urldb.toml`) or `skip-verify` (the record's category).
    pub kind: &'static str,
    pub reason: String,
}

/// [`Skip::kind`] of a URL that a `skip` entry names.
pub(crate) const SKIP: &str = "skip";
/// [`Skip::kind`] of a record with the category `skip-verify`.
pub(crate) const SKIP_VERIFY: &str = urldb_core::model::domain::SKIP_VERIFY;

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
    /// Resolve `config`, reading the `env:` values `allowed` names with
    /// `env` (the process's environment, or a test's); `env` is never
    /// asked for another.
    pub fn resolve(
        config: &VerifyConfig,
        allowed: &Allowed,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Exceptions, ExceptionError> {
        let env = |name: &str| allowed.contains(name).then(|| env(name));
        let env: Env<'_> = &env;
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

/// A variable's value: `None` when it may not be read, `Some(None)` when
/// it is not set.
type Env<'a> = &'a dyn Fn(&str) -> Option<Option<String>>;

/// One section's rules; a host's section adds to `every` (statuses,
/// skips, headers) and replaces its `User-Agent` and same-named headers.
fn rules(
    section: &str,
    own: &VerifyExceptions,
    every: Option<&VerifyExceptions>,
    env: Env<'_>,
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
            let variable = config::env_name(value);
            let value = match variable {
                None => value.clone(),
                Some(variable) => {
                    let (section, header, variable) =
                        (section.to_string(), name.clone(), variable.to_string());
                    let Some(set) = env(&variable) else {
                        return Err(ExceptionError::NotAllowed {
                            section,
                            header,
                            variable,
                        });
                    };
                    let Some(v) = set else {
                        return Err(ExceptionError::Unset {
                            section,
                            header,
                            variable,
                        });
                    };
                    // Surrounding spaces are dropped as HTTP drops them.
                    let v = v.trim().to_string();
                    if !config::is_header_value(&v) {
                        return Err(ExceptionError::Unsendable {
                            section,
                            header,
                            variable,
                        });
                    }
                    v
                }
            };
            request
                .headers
                .retain(|(n, _)| !n.eq_ignore_ascii_case(name));
            request.headers.push((name.clone(), Secret(value)));
            request
                .credentials
                .retain(|n| !n.eq_ignore_ascii_case(name));
            let lower = name.to_ascii_lowercase();
            if variable.is_some() || config::CREDENTIAL_HEADERS.contains(&lower.as_str()) {
                request.credentials.push(name.clone());
            }
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
        let config = crate::config::read(text).expect("valid");
        let env: Vec<(String, String)> = env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let allowed = Allowed::new(["TOKEN".to_string()]);
        Exceptions::resolve(&config, &allowed, &|k| {
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

    #[test]
    fn a_variable_not_allowed_is_never_read() {
        let text = "[verify.domains.\"a.test\"]\nheaders = { X = \"env:OTHER\" }\n";
        let config = crate::config::read(text).expect("valid");
        let asked = std::cell::Cell::new(false);
        let e = Exceptions::resolve(&config, &Allowed::default(), &|_| {
            asked.set(true);
            Some("set".to_string())
        })
        .unwrap_err();
        assert!(!asked.get(), "the environment was read");
        assert!(e.to_string().contains("--allow-env OTHER"), "{e}");
    }

    #[test]
    fn credentials_are_values_from_the_environment_or_named_so() {
        let text = "[verify]\nheaders = { Accept-Language = \"en\" }\n\
                    [verify.domains.\"a.test\"]\nheaders = { X-Key = \"env:TOKEN\", Cookie = \"c=d\" }\n";
        let e = resolve(text, &[("TOKEN", "t")]).expect("resolved");
        assert_eq!(e.request("a.test").credentials, ["Cookie", "X-Key"]);
        assert!(e.request("b.test").credentials.is_empty());
        let e = resolve("[verify]\nheaders = { Accept-Language = \"en\" }\n", &[]).expect("ok");
        assert!(e.request("b.test").credentials.is_empty());
    }
}
