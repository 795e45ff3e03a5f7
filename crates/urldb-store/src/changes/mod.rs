//! What changed in a database between two versions of it, record by
//! record (`urldb diff`, `verify --since`, `docs/git.md`): the records
//! added, removed and changed (which keys, old and new value) in each
//! domain file, its metadata changes, a renamed file as a change of
//! domain, and a side that cannot be read said as such.
//!
//! Only the files that differ are read ([`sides`]: git's object ids say
//! which), each side parsed ([`versions`]), files removed and added paired
//! as renames ([`renames`]), and each pair compared by `_path`
//! ([`records`]).

mod records;
mod renames;
mod sides;
mod versions;

use std::collections::BTreeSet;
use std::path::PathBuf;

use rayon::prelude::*;

pub use records::{KeyChange, RecordChange, RecordKind, Value};
pub use sides::{Side, Sides, SidesError};
pub use versions::Unreadable;

use crate::database::FileError;
use crate::git::{GitError, Repository};
use crate::membership::Members;
use versions::Version;

/// Which side of a change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Which {
    Old,
    New,
}

/// What became of a domain file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileKind {
    Added,
    Removed,
    Modified,
    /// The file was at `from` on the old side: renamed (another domain),
    /// or moved to another folder (the same domain).
    Renamed {
        from: PathBuf,
        from_domain: String,
    },
}

/// One domain file that differs between the sides.
#[derive(Debug)]
pub struct FileChange {
    /// Where it is on the new side (on the old side when removed), as
    /// urldb shows paths.
    pub path: PathBuf,
    /// Its domain (on the new side, when renamed).
    pub domain: String,
    pub kind: FileKind,
    /// The metadata keys that differ.
    pub metadata: Vec<KeyChange>,
    /// The records added, removed and changed: the new file's in its
    /// order, then the removed ones in the old file's.
    pub records: Vec<RecordChange>,
    /// Why a side could not be compared (its records are then not listed).
    pub unreadable: Vec<(Which, std::sync::Arc<Unreadable>)>,
    /// The new side's bytes, for `verify`.
    new_bytes: Option<Vec<u8>>,
}

/// Which records of a changed file `verify` requests again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recheck {
    /// Every record: the file is new, its domain or its `https` or
    /// `cnames` changed, its old side cannot be read, or a record without
    /// a `_path` was added or changed (verify says what it lacks).
    Every,
    /// The records with these `_path`s: added, or a key verify reads changed.
    Paths(BTreeSet<String>),
}

impl FileKind {
    /// The file's records now have another domain (a new URL each).
    pub fn changes_domain(&self, domain: &str) -> bool {
        matches!(self, FileKind::Renamed { from_domain, .. } if from_domain != domain)
    }
}

impl FileChange {
    /// What `verify` requests again of this file (`None`: nothing).
    pub fn recheck(&self) -> Option<Recheck> {
        if self.kind == FileKind::Removed {
            return None;
        }
        let every = self.kind == FileKind::Added
            || self.kind.changes_domain(&self.domain)
            || !self.unreadable.is_empty()
            || self
                .records
                .iter()
                .any(|r| r.path.is_none() && r.changes_what_verify_reads())
            || self.metadata.iter().any(|k| {
                k.key == urldb_core::model::domain::HTTPS
                    || k.key == urldb_core::model::domain::CNAMES
            });
        if every {
            return Some(Recheck::Every);
        }
        let paths: BTreeSet<String> = self
            .records
            .iter()
            .filter(|r| r.changes_what_verify_reads())
            .filter_map(|r| r.path.clone())
            .collect();
        (!paths.is_empty()).then_some(Recheck::Paths(paths))
    }

    /// The new side's bytes as read (even when they do not parse:
    /// `verify` says why itself), or why they could not be read (`None`:
    /// the file was removed).
    pub fn new_bytes(&self) -> Option<Result<&[u8], &std::sync::Arc<Unreadable>>> {
        if let Some(bytes) = &self.new_bytes {
            return Some(Ok(bytes));
        }
        self.unreadable
            .iter()
            .find(|(which, _)| *which == Which::New)
            .map(|(_, why)| Err(why))
    }

    /// A side could not be read at all (not a problem of its text): the
    /// change set is incomplete.
    pub fn has_error(&self) -> bool {
        self.unreadable.iter().any(|(_, why)| why.is_error())
    }
}

/// The domain files that differ between two versions of a database.
#[derive(Debug)]
pub struct ChangeSet {
    pub sides: Sides,
    /// Sorted by path.
    pub files: Vec<FileChange>,
    /// What a walk of the work tree could not read.
    pub errors: Vec<FileError>,
}

impl ChangeSet {
    /// Records added, removed and changed, over every file.
    pub fn counts(&self) -> (usize, usize, usize) {
        let mut counts = (0, 0, 0);
        for r in self.files.iter().flat_map(|f| &f.records) {
            match r.kind {
                RecordKind::Added => counts.0 += 1,
                RecordKind::Removed => counts.1 += 1,
                RecordKind::Changed => counts.2 += 1,
            }
        }
        counts
    }
}

/// Why no change set could be made.
#[derive(Debug, thiserror::Error)]
pub enum ChangesError {
    #[error(transparent)]
    Sides(#[from] SidesError),
    #[error(transparent)]
    Git(#[from] GitError),
}

/// The change set between `sides` of the database of `members`, in the
/// repository `repo`; each side's files read within `max` bytes.
pub fn changes(
    repo: &Repository,
    members: &Members,
    sides: Sides,
    max: u64,
) -> Result<ChangeSet, ChangesError> {
    let (differing, walk_errors) = sides::differing(repo, members, &sides, max)?;
    let root = members.root();
    let versions: Vec<(Option<Version>, Option<Version>)> = differing
        .par_iter()
        .map(|d| {
            let read = |source: &Option<sides::Source>| {
                source
                    .as_ref()
                    .map(|s| versions::read(repo, root, &d.repo_path, s, max))
            };
            (read(&d.old), read(&d.new))
        })
        .collect();
    let pairs = pair_renames(versions);
    let mut files: Vec<FileChange> = pairs
        .into_par_iter()
        .filter_map(|(old, new)| compare(old, new))
        .collect();
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(ChangeSet {
        sides,
        files,
        errors: walk_errors.into_iter().map(FileError::from).collect(),
    })
}

/// The versions with the files removed and added that are one file
/// renamed put together.
fn pair_renames(
    versions: Vec<(Option<Version>, Option<Version>)>,
) -> Vec<(Option<Version>, Option<Version>)> {
    let mut both = Vec::new();
    let mut removed = Vec::new();
    let mut added = Vec::new();
    for (old, new) in versions {
        match (old, new) {
            (Some(old), None) => removed.push(old),
            (None, Some(new)) => added.push(new),
            (old, new) => both.push((old, new)),
        }
    }
    let pairs = {
        let r: Vec<&Version> = removed.iter().collect();
        let a: Vec<&Version> = added.iter().collect();
        renames::pair(&r, &a)
    };
    let mut removed: Vec<Option<Version>> = removed.into_iter().map(Some).collect();
    let mut added: Vec<Option<Version>> = added.into_iter().map(Some).collect();
    for (r, a) in pairs {
        both.push((removed[r].take(), added[a].take()));
    }
    both.extend(removed.into_iter().flatten().map(|v| (Some(v), None)));
    both.extend(added.into_iter().flatten().map(|v| (None, Some(v))));
    both
}

/// One file's change, when it has any that urldb reads (a file whose text
/// changed but not its records nor its metadata is none).
fn compare(old: Option<Version>, new: Option<Version>) -> Option<FileChange> {
    let (path, domain, kind) = match (&old, &new) {
        (Some(o), Some(n)) if o.path != n.path => (
            n.path.clone(),
            n.domain.clone(),
            FileKind::Renamed {
                from: o.path.clone(),
                from_domain: o.domain.clone(),
            },
        ),
        (_, Some(n)) if old.is_some() => (n.path.clone(), n.domain.clone(), FileKind::Modified),
        (_, Some(n)) => (n.path.clone(), n.domain.clone(), FileKind::Added),
        (Some(o), None) => (o.path.clone(), o.domain.clone(), FileKind::Removed),
        (None, None) => return None,
    };
    let mut unreadable = Vec::new();
    let mut old_parsed = None;
    let mut new_bytes = None;
    let mut new_parsed = None;
    if let Some(o) = old {
        match o.content {
            Ok(parsed) => old_parsed = Some(parsed),
            Err(why) => unreadable.push((Which::Old, std::sync::Arc::new(why))),
        }
    }
    if let Some(n) = new {
        new_bytes = n.bytes;
        match n.content {
            Ok(parsed) => new_parsed = Some(parsed),
            Err(why) => unreadable.push((Which::New, std::sync::Arc::new(why))),
        }
    }
    let (metadata, records) = match (&old_parsed, &new_parsed, unreadable.is_empty()) {
        (Some(o), Some(n), true) => records::compare(o, n, &domain),
        (None, Some(n), true) => (Vec::new(), records::all(n, &domain, RecordKind::Added)),
        (Some(o), None, true) => (Vec::new(), records::all(o, &domain, RecordKind::Removed)),
        _ => (Vec::new(), Vec::new()),
    };
    let nothing = kind == FileKind::Modified
        && metadata.is_empty()
        && records.is_empty()
        && unreadable.is_empty();
    if nothing {
        return None;
    }
    Some(FileChange {
        path,
        domain,
        kind,
        metadata,
        records,
        unreadable,
        new_bytes,
    })
}
