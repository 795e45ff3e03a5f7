//! The `urldb.toml` files below a folder: the databases a run with no path
//! covers besides the one that governs the working directory
//! (`docs/files.md`, "What a run covers").
//!
//! Inside a git work tree the tree is seen as git sees it: a folder that
//! `.gitignore` (or `.git/info/exclude`, or the user's global excludes)
//! ignores is not entered, so `node_modules/` or `target/` cost nothing and
//! a `urldb.toml` a build left there is no database. Outside a repository
//! every folder is. In both, hidden folders, links and nested repositories
//! are not entered, as the walk of a database does (`docs/files.md`).

use std::path::{Path, PathBuf};

use urldb_core::config::FILE_NAME;

/// The most databases one run takes: every `urldb.toml` is read and its
/// database walked, so a tree of a million tiny configurations would cost
/// a million configurations' work (`docs/security.md`, "Limits").
pub const MAX_DATABASES: usize = 100_000;

/// Every `urldb.toml` strictly below `dir` (not `dir`'s own), the
/// shallowest first, then by name, as
/// the paths the walk met (below `dir` as given). More than
/// [`MAX_DATABASES`] is an error, with the count reached.
pub fn configs_below(dir: &Path) -> Result<Vec<PathBuf>, TooManyDatabases> {
    configs_within(dir, MAX_DATABASES)
}

/// [`configs_below`] with the budget `max`.
fn configs_within(dir: &Path, max: usize) -> Result<Vec<PathBuf>, TooManyDatabases> {
    let walk = ignore::WalkBuilder::new(dir)
        // Hidden folders are no part of a database.
        .hidden(true)
        // Only git's rules: not ripgrep's `.ignore` and `.rgignore`.
        .ignore(false)
        .git_ignore(true)
        .git_exclude(true)
        .git_global(true)
        // Outside a git work tree `.gitignore` means nothing.
        .require_git(true)
        .parents(true)
        .follow_links(false)
        // A nested repository is another work tree: git does not see
        // into it, and neither does a run here (as a database's walk
        // stops there).
        .filter_entry(|e| {
            e.depth() == 0
                || !e.file_type().is_some_and(|t| t.is_dir())
                || e.path().join(".git").symlink_metadata().is_err()
        })
        .build();
    let mut found = Vec::new();
    for entry in walk.flatten() {
        if entry.depth() < 2 || entry.file_name() != FILE_NAME {
            continue;
        }
        // A regular file, or a link (judged, and refused where it leads
        // out, when it is read).
        if entry.file_type().is_some_and(|t| t.is_dir()) {
            continue;
        }
        found.push(entry.into_path());
        if found.len() > max {
            return Err(TooManyDatabases {
                dir: dir.to_path_buf(),
                max,
            });
        }
    }
    // The shallowest first: with no configuration above, the primary
    // database of a run is the outermost one below (`db/` before
    // `db/sub/`), then by name.
    // Each path's depth counted once, not at every comparison.
    found.sort_by_cached_key(|p| (p.components().count(), p.clone()));
    Ok(found)
}

/// More `urldb.toml` files below a folder than one run takes.
#[derive(Debug, thiserror::Error)]
#[error(
    "more than {max} `{FILE_NAME}` files below `{}`: more databases than one run takes; \
     run urldb in a folder below, or name the databases",
    urldb_core::text::escape(&crate::membership::shown_dir(.dir))
)]
pub struct TooManyDatabases {
    pub dir: PathBuf,
    pub max: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_nested_configs_but_not_ignored_or_hidden_ones() {
        let tmp = tempfile::tempdir().unwrap();
        let top = tmp.path();
        std::fs::create_dir(top.join(".git")).unwrap();
        std::fs::write(top.join(".gitignore"), "node_modules/\n").unwrap();
        for dir in ["db", "a/b", "node_modules/x", ".hidden"] {
            std::fs::create_dir_all(top.join(dir)).unwrap();
            std::fs::write(top.join(dir).join(FILE_NAME), "").unwrap();
        }
        std::fs::write(top.join(FILE_NAME), "").unwrap();
        let found = configs_below(top).unwrap();
        let names: Vec<_> = found
            .iter()
            .map(|p| {
                p.strip_prefix(top)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/")
            })
            .collect();
        assert_eq!(names, ["db/urldb.toml", "a/b/urldb.toml"]);
    }

    #[test]
    fn more_databases_than_the_budget_is_an_error() {
        let tmp = tempfile::tempdir().unwrap();
        for i in 0..4 {
            let dir = tmp.path().join(format!("db{i}"));
            std::fs::create_dir(&dir).unwrap();
            std::fs::write(dir.join(FILE_NAME), "").unwrap();
        }
        assert_eq!(configs_within(tmp.path(), 4).unwrap().len(), 4);
        let e = configs_within(tmp.path(), 3).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("more than 3 `urldb.toml` files below"),
            "{e}"
        );
    }
}
