//! The exceptions of `urldb.toml`'s `[verify]` resolved for one run
//! (`docs/verify-exceptions.md`): which statuses pass, which URLs are
//! never requested, and what each host is sent (its `User-Agent` and
//! headers, values from the environment read here, once).
//!
//! A header value read from the environment is a [`Secret`]: its `Debug`
//! is `<secret>`, no error names it, and it is only ever handed to the
//! HTTP client with a request for its own host (redirects are never
//! followed, so it cannot travel to another). Which variables may be read,
//! and for which host, is the caller's choice ([`Allowed`]: `--allow-env
//! NAME=HOST`), never the configuration's alone; a bare `NAME` lets the
//! configuration choose the host only when it is the owner's
//! (`--config-from`). A header that carries a credential is named in
//! [`Request::credentials`] so that the plan sends it over https only.

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
    /// The shortest time between two requests to the host's origin
    /// (`interval` of `[verify.domains."HOST"]`).
    pub interval: Option<std::time::Duration>,
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
         which this run does not allow for `{host}`: only the person running urldb chooses what \
         it may read and which host gets it. To send it, run `urldb verify --allow-env \
         {variable}={host}` (or set URLDB_ALLOW_ENV={variable}={host}; the Action's input \
         `allow-env`)"
    )]
    NotAllowed {
        section: String,
        header: String,
        variable: String,
        host: String,
    },
    /// A bare `--allow-env NAME`, and a `urldb.toml` that is not the
    /// owner's (no `--config-from`): the file, which a pull request may
    /// change, would choose the host the secret goes to.
    #[error(
        "urldb.toml: {section}.headers.{header}: reads the environment variable `{variable}`, \
         which this run allows without naming a host, and this urldb.toml is not read with \
         `--config-from` (a pull request may have chosen the host): name the host: \
         --allow-env {variable}={host}"
    )]
    NameTheHost {
        section: String,
        header: String,
        variable: String,
        host: String,
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

/// One entry of `--allow-env` (and `URLDB_ALLOW_ENV`): `NAME`, or
/// `NAME=HOST` to send the variable to that host alone.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct AllowEnv {
    /// The variable.
    pub name: String,
    /// The one host it goes to, as `verify` requests it (lowercase,
    /// A-labels, no trailing dot); `None`: the host `urldb.toml` names,
    /// honoured only when that file is the owner's (`--config-from`).
    pub host: Option<String>,
}

/// An `--allow-env` entry that is not `NAME` or `NAME=HOST`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadAllowEnv {
    #[error(
        "`{}` is not an environment variable's name (letters, digits and `_`)",
        urldb_core::text::escape(.0)
    )]
    Name(String),
    #[error("`{}` is not a host name: {source}", urldb_core::text::escape(.host))]
    Host {
        host: String,
        #[source]
        source: config::DomainKeyError,
    },
}

impl std::str::FromStr for AllowEnv {
    type Err = BadAllowEnv;

    /// `NAME` or `NAME=HOST`; HOST is compared as `verify` requests it
    /// (`Example.COM.` is `example.com`), exactly: no subdomain matches.
    fn from_str(text: &str) -> Result<AllowEnv, BadAllowEnv> {
        let (name, host) = match text.split_once('=') {
            Some((name, host)) => (name, Some(host)),
            None => (text, None),
        };
        if !config::is_env_name(name) {
            return Err(BadAllowEnv::Name(name.to_string()));
        }
        let host = host
            .map(|h| {
                config::domain_key(h).map_err(|source| BadAllowEnv::Host {
                    host: h.to_string(),
                    source,
                })
            })
            .transpose()?;
        Ok(AllowEnv {
            name: name.to_string(),
            host,
        })
    }
}

/// The environment variables a run may read for `env:` headers, and for
/// which hosts: those the person running urldb named (`--allow-env`,
/// `URLDB_ALLOW_ENV`). Nothing in `urldb.toml` adds to them: a pull
/// request may change that file. A bare name lets the file choose the
/// host only when the file is the owner's (`owners_config`: read with
/// `--config-from`, from a revision the pull request cannot change).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Allowed {
    entries: BTreeSet<AllowEnv>,
    owners_config: bool,
}

/// What [`Allowed`] says of a variable for a host.
enum Permit {
    Yes,
    NameTheHost,
    No,
}

impl Allowed {
    /// The entries given; `owners_config`: `urldb.toml` was read with
    /// `--config-from`.
    pub fn new<I: IntoIterator<Item = AllowEnv>>(entries: I, owners_config: bool) -> Allowed {
        Allowed {
            entries: entries.into_iter().collect(),
            owners_config,
        }
    }

    fn permit(&self, name: &str, host: Option<&str>) -> Permit {
        let mut bare = false;
        for entry in self.entries.iter().filter(|e| e.name == name) {
            match (&entry.host, host) {
                (Some(h), Some(host)) if h == host => return Permit::Yes,
                (None, _) => bare = true,
                _ => {}
            }
        }
        match (bare, self.owners_config) {
            (true, true) => Permit::Yes,
            (true, false) => Permit::NameTheHost,
            (false, _) => Permit::No,
        }
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
        let env = |name: &str, host: Option<&str>| match allowed.permit(name, host) {
            Permit::Yes => Ok(env(name)),
            Permit::NameTheHost => Err(Refused::NameTheHost),
            Permit::No => Err(Refused::NotAllowed),
        };
        let env: Env<'_> = &env;
        let every = config.exceptions();
        let every_rules = rules("verify", &every, None, None, env)?;
        let mut hosts = BTreeMap::new();
        for (key, section) in &config.domains {
            // Validated with the file: a key that is no host has no section.
            let Ok(host) = config::domain_key(key) else {
                continue;
            };
            let name = format!("verify.domains.\"{host}\"");
            let rules = rules(&name, section, Some(&every), Some(&host), env)?;
            hosts.insert(host, rules);
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

/// Why a variable may not be read for a host.
enum Refused {
    NotAllowed,
    NameTheHost,
}

/// A variable's value for a host (`None`: not set), or why it may not be
/// read.
type Env<'a> = &'a dyn Fn(&str, Option<&str>) -> Result<Option<String>, Refused>;

/// One section's rules (`host`: the host of a `[verify.domains]`
/// section); a host's section adds to `every` (statuses, skips, headers)
/// and replaces its `User-Agent` and same-named headers.
fn rules(
    section: &str,
    own: &VerifyExceptions,
    every: Option<&VerifyExceptions>,
    host: Option<&str>,
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
        if let Some(interval) = s.interval.as_deref().and_then(config::parse_duration) {
            request.interval = Some(interval);
        }
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
                    let shown_host = host.unwrap_or("HOST").to_string();
                    let set = match env(&variable, host) {
                        Ok(set) => set,
                        Err(Refused::NotAllowed) => {
                            return Err(ExceptionError::NotAllowed {
                                section,
                                header,
                                variable,
                                host: shown_host,
                            });
                        }
                        Err(Refused::NameTheHost) => {
                            return Err(ExceptionError::NameTheHost {
                                section,
                                header,
                                variable,
                                host: shown_host,
                            });
                        }
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
        let allowed = Allowed::new(["TOKEN".parse().expect("an entry")], true);
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

    /// `NAME=HOST` sends the variable to that host alone, compared as
    /// `verify` requests it; a bare `NAME` only when `urldb.toml` is the
    /// owner's, else the run stops before reading anything.
    #[test]
    fn a_secret_goes_to_the_host_the_runner_names() {
        let text = "[verify.domains.\"Api.Example.\"]\nheaders = { X = \"env:TOKEN\" }\n\
                    [verify.domains.\"attacker.example\"]\nheaders = { Y = \"env:OTHER\" }\n";
        let config = crate::config::read(text).expect("valid");
        let asked = std::cell::RefCell::new(Vec::new());
        let env = |k: &str| {
            asked.borrow_mut().push(k.to_string());
            Some("v".to_string())
        };
        let entries = |list: &[&str]| -> Vec<AllowEnv> {
            list.iter().map(|e| e.parse().expect("an entry")).collect()
        };
        let bound = Allowed::new(
            entries(&["TOKEN=api.example", "OTHER=attacker.example"]),
            false,
        );
        let e = Exceptions::resolve(&config, &bound, &env).expect("resolved");
        assert_eq!(e.request("api.example").headers.len(), 1);
        // Bound to another host, or bare without the owner's file: refused,
        // before the environment is read.
        asked.borrow_mut().clear();
        for (given, owners, want) in [
            (
                &["TOKEN=www.api.example", "OTHER=attacker.example"][..],
                true,
                "--allow-env TOKEN=api.example`",
            ),
            (
                &["TOKEN", "OTHER=attacker.example"],
                false,
                "name the host: --allow-env TOKEN=api.example",
            ),
        ] {
            let err = Exceptions::resolve(&config, &Allowed::new(entries(given), owners), &env)
                .expect_err("refused");
            assert!(err.to_string().contains(want), "{err}");
        }
        assert!(asked.borrow().is_empty(), "{:?}", asked.borrow());
        // Bare, with the owner's file: the file's host.
        let owners = Allowed::new(entries(&["TOKEN", "OTHER"]), true);
        assert!(Exceptions::resolve(&config, &owners, &env).is_ok());
        for bad in ["1X=a.example", "X=a.example/x", "X=", "=a.example"] {
            assert!(bad.parse::<AllowEnv>().is_err(), "{bad}");
        }
        assert_eq!(
            "X=Bücher.Example."
                .parse::<AllowEnv>()
                .expect("entry")
                .host
                .as_deref(),
            Some("xn--bcher-kva.example")
        );
    }
}
