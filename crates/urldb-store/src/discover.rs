//! Finding the domain files of a database: every `*.yaml` (and, with a
//! warning, `*.yml`) file under the root, at any depth, skipping hidden
//! directories and `exclude` globs.

use std::path::{Path, PathBuf};

use globset::GlobSet;
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

pub use urldb_core::config::exclude_set;

pub fn is_domain_file_name(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "yaml" || e == "yml")
}

/// Walk `root` for domain files.
pub fn find(root: &Path, exclude: &GlobSet) -> Found {
    let mut found = Found::default();
    let walker = WalkDir::new(root).into_iter().filter_entry(|entry| {
        if entry.depth() == 0 {
            return true;
        }
        let hidden = entry
            .file_name()
            .to_str()
            .is_some_and(|n| n.starts_with('.'));
        if hidden || exclude.is_empty() {
            return !hidden;
        }
        let rel = entry.path().strip_prefix(root).unwrap_or(entry.path());
        !exclude.is_match(rel)
    });
    for entry in walker {
        match entry {
            Ok(entry) => {
                // A symlink is reported by the writer, not followed here into
                // another tree; a symlink to a file is read like a file (the
                // read policy refuses one that leads out of the root). A
                // FIFO, socket or device with a domain file's name is listed
                // too: the read policy refuses it, with its reason, without
                // opening it.
                let t = entry.file_type();
                let is_file = t.is_file()
                    || (t.is_symlink() && entry.path().is_file())
                    || (!t.is_dir() && !t.is_symlink());
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
    // Sorted once at the end, by a key that orders like `Path` (component
    // by component) but compares as bytes: comparing `Path`s, or sorting
    // each directory by file name, cost more than the rest of a cached run.
    found.files.sort_by_cached_key(|p| sort_key(p));
    found
}

/// The path's bytes with each separator as the lowest byte, so that a
/// shorter component sorts first, as in `Path`'s order.
fn sort_key(path: &Path) -> Vec<u8> {
    path.as_os_str()
        .as_encoded_bytes()
        .iter()
        .map(|&b| {
            if b == b'/' || b == std::path::MAIN_SEPARATOR as u8 {
                0
            } else {
                b
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_come_in_path_order() {
        let dir = tempfile::tempdir().expect("tempdir");
        for name in [
            "b.yaml",
            "a-b/x.yaml",
            "a/z.yaml",
            "a/b/c.yaml",
            "a.yaml",
            "A.yaml",
        ] {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(&path, "---\n").expect("write");
        }
        let found = find(dir.path(), &GlobSet::empty());
        let mut expected = found.files.clone();
        expected.sort();
        assert_eq!(found.files, expected);
        // A file system that ignores case (Windows', macOS's by default)
        // holds `a.yaml` and `A.yaml` as one file.
        let top: Vec<_> = std::fs::read_dir(dir.path())
            .expect("ls")
            .filter_map(|e| e.ok().map(|e| e.file_name()))
            .collect();
        let has = |name: &str| top.iter().any(|n| n == name);
        let case_blind = !(has("a.yaml") && has("A.yaml"));
        assert_eq!(found.files.len(), if case_blind { 5 } else { 6 });
    }
}
