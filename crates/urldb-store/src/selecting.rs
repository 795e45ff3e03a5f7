//! A record filter that selects nothing is a typo, not an empty answer
//! (`docs/security.md`, "A typo is an error"): `--category frontnd` or
//! `--path-prefix engine/` (no leading `/`) would otherwise list nothing,
//! verify nothing and exit 0 in CI. Each filter is held to the records of
//! the files looked at, and the error offers what is there: the closest
//! category, the prefix with its `/`, the closest folder of the paths in
//! use. Then the selection is held as a whole: filters that each match
//! records but no record together (`-c frontend --path-prefix /x`, `-d
//! other.org -c frontend`) select nothing just the same, and the error
//! names the combination.

use std::collections::BTreeSet;
use std::path::PathBuf;

use rayon::prelude::*;

use crate::listing::Filter;
use crate::read::Root;
use urldb_core::model::domain;
use urldb_core::text::escape;

/// The categories and paths the records of some files use.
#[derive(Debug, Default)]
struct InUse {
    categories: BTreeSet<String>,
    paths: BTreeSet<String>,
}

/// A filter value that matches no record of the files looked at; the
/// message names the option, the value, and what to write instead.
#[derive(Debug, thiserror::Error)]
pub enum SelectsNothing {
    #[error("--category `{}`: no record has this category{hint}", escape(.name))]
    Category { name: String, hint: String },
    #[error("--path-prefix `{}`: no record's path starts with it{hint}", escape(.prefix))]
    PathPrefix { prefix: String, hint: String },
    #[error("--match `{}`: no record's path matches it{hint}", escape(.pattern))]
    Pattern { pattern: String, hint: String },
    /// Each filter matches records, but no record matches them all.
    #[error(
        "{combination}: no record matches all of these filters, though each of them alone \
         matches records (a record is selected when it matches every filter; `urldb ls` with \
         one of them shows what it selects)"
    )]
    Together { combination: String },
}

/// Files of one database to hold a filter to: read inside `root`, each
/// within `max_size`.
#[derive(Debug, Clone, Copy)]
pub struct FilesOf<'a> {
    pub root: &'a Root,
    pub files: &'a [PathBuf],
    pub max_size: u64,
}

/// `Err` for the first of `filter`'s categories, path prefix and pattern
/// that matches no record of `files`, else when no record of a file whose
/// domain the filter accepts matches every filter (`deprecated` records
/// count: a filter that finds only those is no typo). The domains are
/// the caller's to check first (`require_known`). Files that cannot be
/// read are left to the caller's own read, which reports them.
pub fn require_selecting(groups: &[FilesOf], filter: &Filter) -> Result<(), SelectsNothing> {
    if filter.categories.is_empty() && filter.path_prefix.is_none() && filter.pattern.is_none() {
        return Ok(());
    }
    // Whether each part selects something, kept as a few flags: the paths
    // of a large database are not held. What is in use is gathered only
    // for the error's hint.
    let hits = groups
        .iter()
        .map(|g| hits(g.root, g.files, filter, g.max_size))
        .reduce(Hits::or)
        .unwrap_or_else(|| Hits::none(filter));
    let each = hits.categories.iter().all(|hit| *hit) && hits.prefix && hits.pattern;
    if each && hits.together {
        return Ok(());
    }
    if each {
        return Err(SelectsNothing::Together {
            combination: combination(filter),
        });
    }
    let mut in_use = InUse::default();
    for g in groups {
        let used = self::in_use(g.root, g.files, g.max_size);
        in_use.categories.extend(used.categories);
        in_use.paths.extend(used.paths);
    }
    for (name, hit) in filter.categories.iter().zip(&hits.categories) {
        if !hit {
            return Err(SelectsNothing::Category {
                name: name.clone(),
                hint: category_hint(name, &in_use.categories),
            });
        }
    }
    if let Some(prefix) = filter.path_prefix.as_ref().filter(|_| !hits.prefix) {
        return Err(SelectsNothing::PathPrefix {
            prefix: prefix.clone(),
            hint: path_hint(prefix, &in_use.paths, |p, path| path.starts_with(p)),
        });
    }
    match filter.pattern.as_ref().filter(|_| !hits.pattern) {
        Some(pattern) => Err(SelectsNothing::Pattern {
            pattern: pattern.clone(),
            hint: path_hint(pattern, &in_use.paths, urldb_core::url::matches),
        }),
        None => Ok(()),
    }
}

/// Which parts of a filter some record matches: each category, the path
/// prefix and the pattern (a part not given matches), each of any file;
/// and whether some record of a file whose domain is asked for matches
/// them all.
#[derive(Debug)]
struct Hits {
    categories: Vec<bool>,
    prefix: bool,
    pattern: bool,
    together: bool,
}

impl Hits {
    /// No part matched yet (a part not given matches).
    fn none(filter: &Filter) -> Hits {
        Hits {
            categories: vec![false; filter.categories.len()],
            prefix: filter.path_prefix.is_none(),
            pattern: filter.pattern.is_none(),
            together: false,
        }
    }

    fn or(mut self, other: Hits) -> Hits {
        for (a, b) in self.categories.iter_mut().zip(other.categories) {
            *a |= b;
        }
        self.prefix |= other.prefix;
        self.pattern |= other.pattern;
        self.together |= other.together;
        self
    }
}

fn hits(root: &Root, files: &[PathBuf], filter: &Filter, max_size: u64) -> Hits {
    let none = || Hits::none(filter);
    files
        .par_iter()
        .map(|file| {
            let mut hits = none();
            let Ok((_, docs)) = crate::documents::read_text_and_documents(root, file, max_size)
            else {
                return hits;
            };
            let name = urldb_core::rules::domain_of(file);
            let asked_for = filter.accepts_file(&name, &domain::cnames(&docs));
            for record in domain::records(&docs) {
                if let Some((_, path)) = record.path_field().filter(|_| asked_for) {
                    let categories: Vec<&str> = record.categories().collect();
                    hits.together |= filter.selects(path, &categories);
                }
                for category in record.categories() {
                    for (wanted, hit) in filter.categories.iter().zip(&mut hits.categories) {
                        *hit |= wanted == category;
                    }
                }
                if let Some((_, path)) = record.path_field() {
                    hits.prefix |= filter
                        .path_prefix
                        .as_ref()
                        .is_some_and(|p| path.starts_with(p.as_str()));
                    hits.pattern |= filter
                        .pattern
                        .as_ref()
                        .is_some_and(|p| urldb_core::url::matches(p, path));
                }
            }
            hits
        })
        .reduce(none, Hits::or)
}

/// What the records of `files` use, for an error's hint.
fn in_use(root: &Root, files: &[PathBuf], max_size: u64) -> InUse {
    let per_file: Vec<InUse> = files
        .par_iter()
        .map(|file| {
            let mut used = InUse::default();
            let Ok((_, docs)) = crate::documents::read_text_and_documents(root, file, max_size)
            else {
                return used;
            };
            for record in domain::records(&docs) {
                if let Some((_, path)) = record.path_field() {
                    used.paths.insert(path.to_string());
                }
                used.categories
                    .extend(record.categories().map(str::to_string));
            }
            used
        })
        .collect();
    let mut all = InUse::default();
    for used in per_file {
        all.categories.extend(used.categories);
        all.paths.extend(used.paths);
    }
    all
}

/// The filters of `filter` as given on the command line, values quoted.
fn combination(filter: &Filter) -> String {
    let quoted = |option: &str, value: &str| format!("{option} `{}`", escape(value));
    let mut parts: Vec<String> = Vec::new();
    parts.extend(filter.domains.iter().map(|d| quoted("--domain", d)));
    parts.extend(filter.categories.iter().map(|c| quoted("--category", c)));
    parts.extend(
        filter
            .path_prefix
            .iter()
            .map(|p| quoted("--path-prefix", p)),
    );
    parts.extend(filter.pattern.iter().map(|p| quoted("--match", p)));
    parts.join(" ")
}

/// The closest category in use, else the categories in use (a few).
fn category_hint(name: &str, in_use: &BTreeSet<String>) -> String {
    if let Some(best) = urldb_core::closest(name, in_use.iter().map(String::as_str)) {
        return format!(" (did you mean `{}`?)", escape(best));
    }
    if in_use.is_empty() {
        return " (no record of these files has a category)".to_string();
    }
    let shown: Vec<String> = in_use
        .iter()
        .take(8)
        .map(|c| format!("`{}`", escape(c)))
        .collect();
    let more = if in_use.len() > 8 { ", ..." } else { "" };
    format!(" (the categories in use: {}{more})", shown.join(", "))
}

/// A path starts with `/`: the value with one, when that selects records;
/// else the closest folder of the paths in use (`/engine/` for
/// `/engnie/`).
fn path_hint(given: &str, paths: &BTreeSet<String>, selects: fn(&str, &str) -> bool) -> String {
    if !given.starts_with('/') {
        let with_slash = format!("/{given}");
        return if paths.iter().any(|p| selects(&with_slash, p)) {
            format!(
                " (a path starts with `/`: did you mean `{}`?)",
                escape(&with_slash)
            )
        } else {
            " (a path starts with `/`)".to_string()
        };
    }
    let folders: BTreeSet<&str> = paths
        .iter()
        .flat_map(|p| p.match_indices('/').map(move |(at, _)| &p[..=at]))
        .collect();
    match urldb_core::closest(given, folders.iter().copied()) {
        Some(best) => format!(" (did you mean `{}`?)", escape(best)),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(list: &[&str]) -> BTreeSet<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_prefix_without_its_slash_is_offered_with_it() {
        let used = paths(&["/engine/a.html", "/docs/"]);
        let starts = |p: &str, path: &str| path.starts_with(p);
        assert_eq!(
            path_hint("engine/", &used, starts),
            " (a path starts with `/`: did you mean `/engine/`?)"
        );
        assert_eq!(
            path_hint("nothing/", &used, starts),
            " (a path starts with `/`)"
        );
        assert_eq!(
            path_hint("/engnie/", &used, starts),
            " (did you mean `/engine/`?)"
        );
    }

    #[test]
    fn a_category_is_offered_the_closest_or_the_list() {
        let used = paths(&["frontend", "coreapp"]);
        assert_eq!(
            category_hint("frontnd", &used),
            " (did you mean `frontend`?)"
        );
        assert_eq!(
            category_hint("zzz", &used),
            " (the categories in use: `coreapp`, `frontend`)"
        );
    }
}
