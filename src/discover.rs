//! Finding the domain files of a database: every `*.yaml` (and, with a
//! warning, `*.yml`) file under the root, at any depth, skipping hidden
//! directories and `exclude` globs.

use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};
use walkdir::WalkDir;

/// A problem met while looking for files: reported, and the walk goes on.
#[derive(Debug)]
pub struct WalkError {
    pub path: PathBuf,
    pub message: String,
}

#[derive(Debug, Default)]
pub struct Found {
    /// Domain files, sorted by path.
    pub files: Vec<PathBuf>,
    pub errors: Vec<WalkError>,
}

/// Compile `exclude` globs (relative to the database root).
pub fn exclude_set(globs: &[String]) -> Result<GlobSet, String> {
    let mut builder = GlobSetBuilder::new();
    for g in globs {
        let glob = Glob::new(g).map_err(|e| format!("exclude: invalid glob `{g}`: {e}"))?;
        builder.add(glob);
    }
    builder.build().map_err(|e| format!("exclude: {e}"))
}

pub fn is_domain_file_name(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "yaml" || e == "yml")
}

/// Walk `root` for domain files.
pub fn find(root: &Path, exclude: &GlobSet) -> Found {
    let mut found = Found::default();
    let walker = WalkDir::new(root)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|entry| {
            if entry.depth() == 0 {
                return true;
            }
            let hidden = entry
                .file_name()
                .to_str()
                .is_some_and(|n| n.starts_with('.'));
            let rel = entry.path().strip_prefix(root).unwrap_or(entry.path());
            !hidden && !exclude.is_match(rel)
        });
    for entry in walker {
        match entry {
            Ok(entry) => {
                // A symlink is reported by the writer, not followed here into
                // another tree; a symlink to a file is read like a file.
                let is_file = entry.file_type().is_file()
                    || (entry.file_type().is_symlink() && entry.path().is_file());
                if is_file && is_domain_file_name(entry.path()) {
                    found.files.push(entry.into_path());
                } else if entry.file_type().is_symlink()
                    && is_domain_file_name(entry.path())
                    && !entry.path().exists()
                {
                    found.errors.push(WalkError {
                        path: entry.into_path(),
                        message: "symbolic link to a file that does not exist".to_string(),
                    });
                }
            }
            Err(err) => found.errors.push(WalkError {
                path: err
                    .path()
                    .map(Path::to_path_buf)
                    .unwrap_or_else(|| root.to_path_buf()),
                message: err.to_string(),
            }),
        }
    }
    found
}
