//! The records of a database as URLs, filtered as `ls` and `export` filter
//! them (`docs/guide.md`): by file, domain (or cname), category, path
//! prefix and path pattern (`docs/urls.md`); `deprecated` records only on request.
//! Each URL is built from its parts ([`urldb_core::url::Origin::url_of`]);
//! a record that makes no URL of its own host, or whose `_path` `verify`
//! would not request (`urldb_core::rules::unrequested`), is left out, and
//! returned as a [`LeftOut`] for the command to say.

use crate::documents::DocumentError;
use crate::read::Root;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::database::{FileError, FileProblem};
use urldb_core::model::domain::{self, DEPRECATED};
use urldb_core::model::node::Node;
use urldb_core::rules::unrequested;
use urldb_core::url::{BuildError, Origin};

/// One record, with what its file says about its URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlRecord {
    pub file: PathBuf,
    /// The line of the record's `_path` in its file (1-based).
    pub line: usize,
    /// The primary domain (file stem).
    pub domain: String,
    pub https: bool,
    pub path: String,
    /// The full URL: scheme from `https`, the primary domain, `_path`,
    /// built from those parts (`docs/urls.md`, "A record's URL").
    pub url: String,
    pub content_type: Option<String>,
    pub categories: Vec<String>,
    pub content_length: Option<u64>,
    pub content_sha256: Option<String>,
    /// Every other key, in file order.
    pub extras: Vec<(String, Node)>,
}

/// A record left out because no URL of its own host can be built from
/// its `_path` (or from its file's name), or because `verify` would not
/// request the URL built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftOut {
    pub file: PathBuf,
    /// The line of the record's `_path` (1-based).
    pub line: usize,
    pub path: String,
    pub reason: LeftOutReason,
}

/// Why a record is left out of `ls` and `export`.
#[derive(Debug, Clone, thiserror::Error)]
pub enum LeftOutReason {
    /// No URL of its own host can be built from it.
    #[error(transparent)]
    Url(#[from] BuildError),
    /// Its `_path` has a finding that keeps `verify` from requesting it
    /// (`urldb_core::rules::unrequested`): clients would rewrite the URL
    /// (`/a\b` is `/a/b` to them), so printing it would name a URL that
    /// `verify` never checks.
    #[error("{} ({}), so `verify` does not request it", .0.message, .0.rule.code)]
    Unrequested(Box<urldb_core::rules::diagnostic::Finding>),
    /// The file's `https` is read otherwise by the reference tool
    /// (`invalid-boolean`, a gate finding): its URLs' scheme is not known.
    #[error(
        "`https` is `{}` to urldb and the other to the reference tool (`invalid-boolean`), \
         so the scheme of its URLs is not known",
        if *.0 { "true" } else { "false" }
    )]
    SchemeReadOtherwise(bool),
}

// A finding is compared by its rule, place and words (what the reason
// shows).
impl PartialEq for LeftOutReason {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (LeftOutReason::Url(a), LeftOutReason::Url(b)) => a == b,
            (LeftOutReason::Unrequested(a), LeftOutReason::Unrequested(b)) => {
                std::ptr::eq(a.rule, b.rule) && a.span == b.span && a.message == b.message
            }
            (LeftOutReason::SchemeReadOtherwise(a), LeftOutReason::SchemeReadOtherwise(b)) => {
                a == b
            }
            _ => false,
        }
    }
}

impl Eq for LeftOutReason {}

/// What [`collect`] found: the records with their URLs, the records left
/// out, and the files that could not be read.
#[derive(Debug, Default)]
pub struct Collected {
    pub records: Vec<UrlRecord>,
    pub left_out: Vec<LeftOut>,
    pub errors: Vec<FileError>,
}

/// Which records to list. The default lists every record that is not
/// `deprecated`.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// Domains or cnames (lowercase); empty = all.
    pub domains: Vec<String>,
    /// A record must have one of these categories; empty = any.
    pub categories: Vec<String>,
    pub path_prefix: Option<String>,
    /// A path pattern ([`urldb_core::url::matches`], `docs/urls.md`).
    pub pattern: Option<String>,
    pub include_deprecated: bool,
}

impl Filter {
    /// The file's domain, or one of its cnames, is asked for.
    pub fn accepts_file(&self, domain: &str, cnames: &[&str]) -> bool {
        self.domains.is_empty()
            || self
                .domains
                .iter()
                .any(|d| d == domain || cnames.contains(&d.as_str()))
    }

    /// `deprecated` records are left out: not asked for, neither by
    /// `--include-deprecated` nor by `--category deprecated`.
    pub fn hides_deprecated(&self) -> bool {
        !(self.include_deprecated || self.categories.iter().any(|c| c == DEPRECATED))
    }

    /// A record passes every filter but the `deprecated` one.
    pub fn selects(&self, path: &str, categories: &[&str]) -> bool {
        (self.categories.is_empty()
            || categories
                .iter()
                .any(|c| self.categories.iter().any(|f| f == c)))
            && self
                .path_prefix
                .as_deref()
                .is_none_or(|p| path.starts_with(p))
            && self
                .pattern
                .as_deref()
                .is_none_or(|p| urldb_core::url::matches(p, path))
    }

    /// A record passes every filter.
    pub fn accepts_record(&self, path: &str, categories: &[&str]) -> bool {
        self.selects(path, categories)
            && !(self.hides_deprecated() && categories.contains(&DEPRECATED))
    }
}

/// The records of `files` that `filter` accepts (files in the order given,
/// records in file order), the records among them that make no URL of
/// their own host, and the files that could not be read.
pub fn collect_records(
    root: &Root,
    files: &[PathBuf],
    filter: &Filter,
    max_size: u64,
) -> Collected {
    let per_file: Vec<Result<Collected, FileError>> = files
        .par_iter()
        .map(|file| {
            read_records(root, file, filter, max_size).map_err(|e| FileError {
                path: file.clone(),
                problem: FileProblem::Documents(std::sync::Arc::new(e)),
            })
        })
        .collect();
    let mut collected = Collected::default();
    for result in per_file {
        match result {
            Ok(file) => {
                collected.records.extend(file.records);
                collected.left_out.extend(file.left_out);
            }
            Err(e) => collected.errors.push(e),
        }
    }
    collected
}

fn read_records(
    root: &Root,
    file: &Path,
    filter: &Filter,
    max_size: u64,
) -> Result<Collected, DocumentError> {
    let name = urldb_core::rules::domain_of(file);
    let (text, docs) = crate::documents::read_text_and_documents(root, file, max_size)?;
    let lines = urldb_core::source::LineIndex::new(&text);
    if !filter.accepts_file(&name, &domain::cnames(&docs)) {
        return Ok(Collected::default());
    }
    let blocking = unrequested::blocking_findings(file, &text, &docs, &name);
    let https = domain::https(&docs);
    let scheme_otherwise = domain::bool_read_otherwise(&docs, domain::HTTPS, false);
    let origin = Origin::new(if https { "https" } else { "http" }, &name);
    let mut left_out = Vec::new();
    let records = domain::records(&docs)
        .filter_map(|r| {
            let (entry, path) = r.path_field()?;
            let path = path.to_string();
            let line = lines.line_of(entry.value.span.start) + 1;
            let categories: Vec<&str> = r.categories().collect();
            if !filter.accepts_record(&path, &categories) {
                return None;
            }
            let built = match (&origin, scheme_otherwise) {
                (_, Some(ours)) => Err(LeftOutReason::SchemeReadOtherwise(ours)),
                (Ok(origin), None) => origin.url_of(&path).map_err(LeftOutReason::from),
                (Err(e), None) => Err(e.clone().into()),
            };
            let unrequested = |f: &urldb_core::rules::diagnostic::Finding| {
                LeftOutReason::Unrequested(Box::new(f.clone()))
            };
            let built = built.and_then(|url| {
                match unrequested::blocking_in(&blocking, &entry.value.span) {
                    Some(f) => Err(unrequested(f)),
                    None => Ok(url),
                }
            });
            let url = match built {
                Ok(url) => url,
                Err(reason) => {
                    left_out.push(LeftOut {
                        file: file.to_path_buf(),
                        line,
                        path,
                        reason,
                    });
                    return None;
                }
            };
            let text = |key: &str| {
                r.get(key)
                    .and_then(|e| e.value.as_scalar())
                    .map(|s| s.value.to_string())
            };
            let known = domain::RECORD_KEYS;
            Some(UrlRecord {
                file: file.to_path_buf(),
                line,
                domain: name.clone(),
                https,
                path,
                url,
                content_type: text(domain::CONTENT_TYPE),
                categories: categories.into_iter().map(String::from).collect(),
                content_length: text(domain::CONTENT_LENGTH)
                    .and_then(|t| domain::content_length(&t)),
                content_sha256: text(domain::CONTENT_SHA256),
                extras: r
                    .entries
                    .iter()
                    .filter_map(|e| {
                        let key = e.key_str()?;
                        (!known.contains(&key)).then(|| (key.to_string(), e.value.clone()))
                    })
                    .collect(),
            })
        })
        .collect();
    Ok(Collected {
        records,
        left_out,
        errors: Vec::new(),
    })
}

/// Every host that `files` name: their stems and their cnames (read from
/// each file's metadata; a file whose metadata cannot be read still names
/// its stem).
pub fn known_hosts(root: &Root, files: &[PathBuf]) -> BTreeSet<String> {
    let per_file: Vec<Vec<String>> = files
        .par_iter()
        .map(|file| {
            let mut hosts = vec![urldb_core::rules::domain_of(file)];
            if let Ok(docs) = crate::documents::read_metadata(root, file) {
                hosts.extend(domain::cnames(&docs).into_iter().map(String::from));
            }
            hosts
        })
        .collect();
    per_file.into_iter().flatten().collect()
}

/// An error for the first of `names` that no file names (`flag` is the
/// option it came from, such as `--domain`), with the closest known host
/// as a suggestion. Asking for a domain the database does not have is a
/// mistake, not an empty answer.
pub fn require_known<'a>(
    flag: &str,
    names: impl IntoIterator<Item = &'a String>,
    known: &BTreeSet<String>,
) -> Result<(), UnknownDomain> {
    for name in names {
        if known.contains(name) {
            continue;
        }
        let hint = match urldb_core::closest(name, known.iter().map(String::as_str)) {
            Some(best) => format!(" (did you mean `{best}`?)"),
            None => String::new(),
        };
        return Err(UnknownDomain {
            flag: flag.to_string(),
            name: name.clone(),
            hint,
        });
    }
    Ok(())
}

/// A domain asked for by an option that no file of the database names.
#[derive(Debug, thiserror::Error)]
#[error("{flag} `{name}`: no domain file and no cname names this domain{hint}")]
pub struct UnknownDomain {
    flag: String,
    name: String,
    hint: String,
}
