//! Where requests for a domain go instead: `--map DOMAIN=HOST`, a line of
//! `--map-file`, a key of `[verify.map]`, all read by one function
//! (`docs/verify.md`). Its own module, below both the configuration and
//! the plan, which read it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Where a request for a domain goes instead (`--map DOMAIN=HOST`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// `http` or `https` to force one, `None` to keep the record's.
    pub scheme: Option<String>,
    /// `host` or `host:port` (IPv6 in brackets).
    pub authority: String,
}

/// A `--map` argument that is not `DOMAIN=[SCHEME://]HOST[:PORT]`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("--map `{arg}`: {problem}")]
pub struct MapError {
    arg: String,
    problem: MapLineProblem,
}

/// What is wrong with one map as written (`--map`, a line of
/// `--map-file`), said without saying where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MapLineProblem {
    #[error("expected DOMAIN=HOST")]
    NoEquals,
    #[error("not UTF-8 text")]
    NotText,
    #[error(transparent)]
    Entry(#[from] BadMap),
}

/// What is wrong with a map's two sides, as every place that reads one
/// says it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadMap {
    #[error("the domain is empty")]
    EmptyDomain,
    #[error("scheme `{0}` is not http or https")]
    Scheme(String),
    #[error("expected a host with an optional port, like 127.0.0.1:8080")]
    NotAHost,
}

/// Parse `DOMAIN=[SCHEME://]HOST[:PORT]` (`--map`, a line of `--map-file`).
pub fn parse_map(arg: &str) -> Result<(String, Target), MapError> {
    let at = |problem| MapError {
        arg: arg.to_string(),
        problem,
    };
    let (domain, host) = arg
        .split_once('=')
        .ok_or_else(|| at(MapLineProblem::NoEquals))?;
    map_entry(domain, host).map_err(|bad| at(bad.into()))
}

/// One map from its two sides, `DOMAIN` and `[SCHEME://]HOST[:PORT]`, as
/// `--map`, `--map-file` and `[verify.map]` all read it; the error says
/// what is wrong, without saying where.
pub fn map_entry(domain: &str, host: &str) -> Result<(String, Target), BadMap> {
    let domain = domain.trim().trim_end_matches('.').to_ascii_lowercase();
    if domain.is_empty() {
        return Err(BadMap::EmptyDomain);
    }
    let (scheme, authority) = match host.trim().split_once("://") {
        Some((s, rest)) => {
            let s = s.to_ascii_lowercase();
            if s != "http" && s != "https" {
                return Err(BadMap::Scheme(s));
            }
            (Some(s), rest)
        }
        None => (None, host.trim()),
    };
    let authority = authority.trim_end_matches('/');
    if authority.is_empty() || authority.contains(['/', '?', '#', '@', ' ']) {
        return Err(BadMap::NotAHost);
    }
    Ok((
        domain,
        Target {
            scheme,
            authority: authority.to_ascii_lowercase(),
        },
    ))
}

/// The largest `--map-file` read: a map of 100,000 hosts is a few MiB.
pub const MAX_MAP_FILE: u64 = 16 << 20;

/// A `--map-file` that cannot be used: nothing of it is quoted (the
/// file may be any file), only where it is wrong.
#[derive(Debug, thiserror::Error)]
pub enum MapFileError {
    #[error("--map-file {}: is a symbolic link; name the file itself", urldb_core::source::shown_path(.0))]
    Link(PathBuf),
    #[error("--map-file {}: {}", urldb_core::source::shown_path(.0), .1)]
    Io(PathBuf, #[source] std::io::Error),
    #[error("--map-file {}: larger than {} MiB", urldb_core::source::shown_path(.0), MAX_MAP_FILE >> 20)]
    TooLarge(PathBuf),
    #[error("--map-file {}:{line}: {why}", urldb_core::source::shown_path(.path))]
    Line {
        path: PathBuf,
        line: usize,
        why: MapLineProblem,
    },
}

/// `--map-file FILE`: one `DOMAIN=[SCHEME://]HOST[:PORT]` a line, as
/// `--map` takes it; blank lines and lines starting with `#` are
/// skipped; a later line for a domain wins. A symbolic link is refused,
/// as `--history` refuses one: a checkout could plant one that leads to a
/// file of the runner's (`docs/security.md`).
pub fn read_map_file(path: &Path) -> Result<BTreeMap<String, Target>, MapFileError> {
    let io = |e| MapFileError::Io(path.to_path_buf(), e);
    let meta = std::fs::symlink_metadata(path).map_err(io)?;
    if meta.file_type().is_symlink() {
        return Err(MapFileError::Link(path.to_path_buf()));
    }
    if meta.len() > MAX_MAP_FILE {
        return Err(MapFileError::TooLarge(path.to_path_buf()));
    }
    let bytes = std::fs::read(path).map_err(io)?;
    let text = String::from_utf8(bytes).map_err(|_| MapFileError::Line {
        path: path.to_path_buf(),
        line: 1,
        why: MapLineProblem::NotText,
    })?;
    let mut maps = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |why: MapLineProblem| MapFileError::Line {
            path: path.to_path_buf(),
            line: i + 1,
            why,
        };
        let (domain, host) = line
            .split_once('=')
            .ok_or_else(|| at(MapLineProblem::NoEquals))?;
        let (domain, target) = map_entry(domain, host).map_err(|bad| at(bad.into()))?;
        maps.insert(domain, target);
    }
    Ok(maps)
}
