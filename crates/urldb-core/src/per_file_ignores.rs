//! `[lint.per-file-ignores]`: rule codes turned off by glob, for the files
//! they match. The configuration compiles the table to check it; the
//! linter's finishing step (`lint/excuse.rs`) is the one place it excuses
//! findings.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

use globset::{Glob, GlobMatcher};

use crate::rules::diagnostic::Finding;

/// `[lint.per-file-ignores]`: globs relative to the database root, each
/// with the rule codes it turns off in the files it matches.
#[derive(Debug, Clone, Default)]
pub struct PerFileIgnores {
    /// The database root as given and as resolved: a file's path is made
    /// relative to either.
    pub root: Option<(PathBuf, PathBuf)>,
    pub entries: Vec<(GlobMatcher, Vec<&'static str>)>,
}

/// A `[lint.per-file-ignores]` glob that does not compile, or a code no
/// rule has.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadPerFileIgnore {
    #[error("lint.per-file-ignores: invalid glob `{glob}`: {}", .source.kind())]
    Glob {
        glob: String,
        source: globset::Error,
    },
    #[error("lint.per-file-ignores: {0}")]
    Rule(#[from] crate::selection::UnknownRule),
}

impl PerFileIgnores {
    /// Compile the table (globs in the order written; `ALL` for every rule).
    pub fn new<'a>(
        table: impl IntoIterator<Item = (&'a String, &'a Vec<String>)>,
    ) -> Result<PerFileIgnores, BadPerFileIgnore> {
        let mut entries = Vec::new();
        for (glob, codes) in table {
            let matcher = Glob::new(glob)
                .map_err(|source| BadPerFileIgnore::Glob {
                    glob: glob.clone(),
                    source,
                })?
                .compile_matcher();
            entries.push((matcher, crate::selection::codes(codes)?));
        }
        Ok(PerFileIgnores {
            root: None,
            entries,
        })
    }

    /// The rule codes turned off for the file at `path` (as shown).
    pub fn codes_for(&self, path: &Path) -> BTreeSet<&'static str> {
        let mut out = BTreeSet::new();
        if self.entries.is_empty() {
            return out;
        }
        let rel = self.relative(path);
        for (glob, codes) in &self.entries {
            if glob.is_match(&rel) {
                out.extend(codes.iter().copied());
            }
        }
        out
    }

    /// Move the findings of `path` that the table turns off from
    /// `findings` to the returned list (gate findings stay).
    pub(crate) fn take(&self, path: &Path, findings: &mut Vec<Finding>) -> Vec<Finding> {
        let off = self.codes_for(path);
        if off.is_empty() {
            return Vec::new();
        }
        let (taken, kept) = std::mem::take(findings)
            .into_iter()
            .partition(|f| !f.gate && off.contains(f.rule.code));
        *findings = kept;
        taken
    }

    /// `path` relative to the root, `/`-separated: lexically (the core
    /// reads no file system), from the root as given or as resolved. A
    /// relative root is a prefix of relative paths only: the root `.`
    /// (urldb run in the database) is no prefix of the absolute path an
    /// editor names a document by, which the resolved root is. "Relative"
    /// is "without a root" (`has_root`), so that on Windows `\abs` is
    /// not taken as relative for want of a drive letter.
    fn relative(&self, path: &Path) -> PathBuf {
        let plain = |p: &Path| -> PathBuf {
            p.components()
                .filter(|c| !matches!(c, Component::CurDir))
                .collect()
        };
        let path = plain(path);
        if let Some((given, resolved)) = &self.root {
            for root in [plain(given), plain(resolved)] {
                if root.has_root() != path.has_root() {
                    continue;
                }
                if let Ok(rel) = path.strip_prefix(&root) {
                    return rel.to_path_buf();
                }
            }
        }
        path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_file_paths_are_relative_to_the_root() {
        let table = [("legacy/*.yaml".to_string(), vec!["path-case".to_string()])];
        let mut ignores = PerFileIgnores::new(table.iter().map(|(g, c)| (g, c))).expect("compiles");
        ignores.root = Some((PathBuf::from("db"), PathBuf::from("/abs/db")));
        assert!(
            ignores
                .codes_for(Path::new("db/legacy/a.com.yaml"))
                .contains("path-case")
        );
        assert!(
            ignores
                .codes_for(Path::new("/abs/db/legacy/a.com.yaml"))
                .contains("path-case")
        );
        assert!(ignores.codes_for(Path::new("db/a.com.yaml")).is_empty());
        // Run in the database (the root `.`), a document named by its
        // absolute path, as an editor names it.
        ignores.root = Some((PathBuf::from("."), PathBuf::from("/abs/db")));
        assert!(
            ignores
                .codes_for(Path::new("/abs/db/legacy/a.com.yaml"))
                .contains("path-case")
        );
        assert!(
            ignores
                .codes_for(Path::new("legacy/a.com.yaml"))
                .contains("path-case")
        );
        assert!(
            ignores
                .codes_for(Path::new("/abs/db/a.com.yaml"))
                .is_empty()
        );
    }
}
