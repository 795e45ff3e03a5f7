//! Finding the domain files of a database: the files below the root that
//! the membership rule admits ([`crate::membership`]): `*.yaml` (and, with
//! a warning, `*.yml`) at any depth, hidden directories and `exclude`
//! globs skipped, and without `urldb.toml` only files named like domains.

use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use crate::membership::{self, Members, NameShape, Skip};

/// A problem met while looking for files: reported, and the walk goes on.
#[derive(Debug, Clone)]
pub struct WalkError {
    pub path: PathBuf,
    pub problem: WalkProblem,
}

/// What went wrong at a path of the walk, its cause kept until it is shown.
#[derive(Debug, Clone, thiserror::Error)]
pub enum WalkProblem {
    /// A path named on the command line that is not there.
    #[error("no such file or directory")]
    Missing,
    #[error("symbolic link to a file that does not exist")]
    DanglingLink,
    /// The file system refused a folder or an entry of it.
    #[error(transparent)]
    Walk(std::sync::Arc<walkdir::Error>),
}

#[derive(Debug, Default)]
pub struct Found {
    /// Domain files, sorted by path.
    pub files: Vec<PathBuf>,
    pub errors: Vec<WalkError>,
    /// YAML files that are not members by their names alone (no
    /// `urldb.toml`, and the name is no domain name), sorted by path.
    pub misnamed: Vec<PathBuf>,
    /// Files whose extension is `.yaml` or `.yml` in another case
    /// (`www.example.com.YAML`): no members, as in ruff or yamllint, but
    /// likely meant to be, so the commands say so (sorted by path).
    pub miscased: Vec<PathBuf>,
    /// The folders where the walk stopped because each holds a
    /// `urldb.toml` of its own (another database), with that file.
    pub governed: Vec<(PathBuf, PathBuf)>,
}

/// Walk the database for its domain files.
pub fn find_files(members: &Members) -> Found {
    walk(members, members.root(), PathBuf::new())
}

/// Walk `dir`, a directory named on the command line, for the domain files
/// below it (every one when it holds the root); `Err` when none can be.
pub(crate) fn find_below(members: &Members, dir: &Path) -> Result<Found, Skip> {
    match members.dir(dir) {
        Ok(rel) => Ok(walk(members, dir, rel)),
        Err(Skip::Outside { .. }) if members.below(dir) => Ok(find_files(members)),
        Err(skip) => Err(skip),
    }
}

/// [`find_below`] for a run: when `dir` is the root or holds it, the
/// database's own walk, its files spelled from the root as a run over the
/// whole database has them, and `true` (every file of the database is
/// checked, and none needs to be matched path by path).
pub(crate) fn find_named(members: &Members, dir: &Path) -> Result<(Found, bool), Skip> {
    match members.dir(dir) {
        Ok(rel) if rel.as_os_str().is_empty() => Ok((find_files(members), true)),
        Ok(rel) => Ok((walk(members, dir, rel), false)),
        Err(Skip::Outside { .. }) if members.below(dir) => Ok((find_files(members), true)),
        Err(skip) => Err(skip),
    }
}

/// Every file a run over `paths` (none: the database) looks at, each with
/// whether it is in the database and why not (`check --show-files`): the
/// members a walk finds and the YAML files it leaves out by their names,
/// and each named file.
#[derive(Debug, Default)]
pub struct Judged {
    pub files: Vec<(PathBuf, Result<(), Skip>)>,
    pub errors: Vec<WalkError>,
    /// Below a named directory, the folders that hold a `urldb.toml` of
    /// their own, with it, when the caller judges them in their databases.
    pub governed: Vec<(PathBuf, PathBuf)>,
}

/// [`Judged`] for `paths` (none: the database); `route`: the folders met
/// below a named directory that are other databases are handed back in
/// [`Judged::governed`], else their YAML files are listed as governed by
/// their own configuration (as always for the database's own walk).
pub fn judge_files(members: &Members, paths: &[PathBuf], route: bool) -> Judged {
    let mut judged = Judged::default();
    let walked = |found: Found, judged: &mut Judged| {
        let mut files: Vec<(PathBuf, Result<(), Skip>)> = found
            .files
            .into_iter()
            .map(|p| (p, Ok(())))
            .chain(found.misnamed.into_iter().map(|p| {
                let shape = membership::name_shape(&p).unwrap_or(NameShape::ProjectFile);
                (p, Err(Skip::NoDomainName(shape)))
            }))
            .collect();
        files.sort_by_cached_key(|(p, _)| sort_key(p));
        judged.files.extend(files);
        judged.errors.extend(found.errors);
    };
    if paths.is_empty() {
        let found = find_files(members);
        let governed = governed_files(&found.governed);
        walked(found, &mut judged);
        judged.files.extend(governed);
    }
    for p in paths {
        if p.is_dir() {
            match find_below(members, p) {
                Ok(mut found) => {
                    let governed = std::mem::take(&mut found.governed);
                    walked(found, &mut judged);
                    if route {
                        judged.governed.extend(governed);
                    } else {
                        judged.files.extend(governed_files(&governed));
                    }
                }
                Err(skip) => judged.files.push((p.clone(), Err(skip))),
            }
        } else if p.exists() || p.is_symlink() {
            judged.files.push((p.clone(), members.of(p)));
        } else {
            judged.errors.push(WalkError {
                path: p.clone(),
                problem: WalkProblem::Missing,
            });
        }
    }
    judged
}

/// The YAML files below folders that are other databases (`--show-files`
/// says so), each with its configuration; hidden names and links to
/// folders passed over, as a walk does.
fn governed_files(governed: &[(PathBuf, PathBuf)]) -> Vec<(PathBuf, Result<(), Skip>)> {
    let mut files = Vec::new();
    for (dir, config) in governed {
        let walker = WalkDir::new(dir).into_iter().filter_entry(|e| {
            e.depth() == 0 || e.file_name().as_encoded_bytes().first() != Some(&b'.')
        });
        for entry in walker.flatten() {
            if !entry.file_type().is_dir() && crate::membership::has_yaml_extension(entry.path()) {
                files.push((
                    entry.into_path(),
                    Err(Skip::Governed {
                        config: config.clone(),
                    }),
                ));
            }
        }
    }
    files.sort_by_cached_key(|(p, _)| sort_key(p));
    files
}

/// Walk `start`, which is `rel` below the root. A folder with a
/// `urldb.toml` of its own is another database: the walk stops there (one
/// look per folder, none per file).
fn walk(members: &Members, start: &Path, rel: PathBuf) -> Found {
    let mut found = Found::default();
    let mut governed = Vec::new();
    let walker = WalkDir::new(start).into_iter().filter_entry(|entry| {
        if entry.depth() == 0 {
            return true;
        }
        let below = || rel.join(entry.path().strip_prefix(start).unwrap_or(entry.path()));
        if members.entry_at(entry.file_name(), below).is_err() {
            return false;
        }
        if entry.file_type().is_dir()
            && let Some(config) = members.nested_at(entry.path(), &below())
        {
            governed.push((entry.path().to_path_buf(), config));
            return false;
        }
        true
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
                let name = members.file_name(entry.file_name());
                if is_file && name.is_ok() {
                    found.files.push(entry.into_path());
                } else if is_file && matches!(name, Err(Skip::NoDomainName(_))) {
                    found.misnamed.push(entry.into_path());
                } else if is_file && name == Err(Skip::NotYaml) && yaml_in_other_case(&entry) {
                    found.miscased.push(entry.into_path());
                } else if t.is_symlink() && name.is_ok() && !entry.path().exists() {
                    found.errors.push(WalkError {
                        path: entry.into_path(),
                        problem: WalkProblem::DanglingLink,
                    });
                }
            }
            Err(err) => found.errors.push(WalkError {
                path: err
                    .path()
                    .map(Path::to_path_buf)
                    .unwrap_or_else(|| start.to_path_buf()),
                problem: WalkProblem::Walk(std::sync::Arc::new(err)),
            }),
        }
    }
    // Sorted once at the end, by a key that orders like `Path` (component
    // by component) but compares as bytes: comparing `Path`s, or sorting
    // each directory by file name, cost more than the rest of a cached run.
    found.files.sort_by_cached_key(|p| sort_key(p));
    found.misnamed.sort_by_cached_key(|p| sort_key(p));
    found.miscased.sort_by_cached_key(|p| sort_key(p));
    governed.sort_by_cached_key(|(p, _): &(PathBuf, PathBuf)| sort_key(p));
    found.governed = governed;
    found
}

/// `NAME.YAML`, `NAME.Yml`: a YAML extension once lowercased.
fn yaml_in_other_case(entry: &walkdir::DirEntry) -> bool {
    let lower = entry.file_name().to_string_lossy().to_lowercase();
    crate::membership::has_yaml_extension(Path::new(&lower))
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
        let root = crate::read::Root::new(dir.path()).expect("root");
        let found = find_files(&Members::new(root, &[], false).expect("members"));
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
