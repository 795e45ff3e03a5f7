//! The two versions of the database a change set compares, and which of
//! their files differ: found from git's object ids (a tree diff between
//! two revisions, the index's ids, the hash of a work-tree file as git
//! would store it), so that only the files that changed are ever read.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use gix::ObjectId;
use gix::bstr::ByteSlice;
use rayon::prelude::*;

use crate::git::{GitError, Repository};
use crate::membership::Members;

/// One version of the database's files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Side {
    /// The files on disk, as a walk of the database finds them (files git
    /// does not track yet included, as `check --since` takes them).
    WorkTree,
    /// The git index (what `git commit` would take).
    Index,
    /// `HEAD`, named by no one: `--staged` alone. In a repository without
    /// a commit it has no files.
    Head,
    /// A revision as git's rev-parse takes it (`HEAD~1`, `origin/main`, a hash).
    Revision(String),
}

impl Side {
    /// How messages name it: `the work tree`, `the index`, or the revision.
    pub fn label(&self) -> &str {
        match self {
            Side::WorkTree => "the work tree",
            Side::Index => "the index",
            Side::Head => "HEAD",
            Side::Revision(rev) => rev,
        }
    }
}

/// What a change set compares: `old` to `new`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sides {
    pub old: Side,
    pub new: Side,
}

/// `urldb diff`'s revisions that git would take but urldb does not, or
/// that name no two versions.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SidesError {
    #[error(
        "`{}`: `A...B` (the changes on B since it left A) is not supported; \
         give `$(git merge-base A B)..B`",
        urldb_core::text::escape(.0)
    )]
    ThreeDots(String),
    #[error("--staged compares a revision with the index: give one revision, not a range")]
    StagedRange,
}

impl Sides {
    /// The sides of `urldb diff [REVISIONS] [--staged]`, as `git diff`
    /// takes them: nothing is the index to the work tree; `--staged` is
    /// `HEAD` (or the revision given) to the index; `REV` is `REV` to the
    /// work tree; `A..B` is `A` to `B` (a side left out is `HEAD`).
    pub fn from_args(revisions: Option<&str>, staged: bool) -> Result<Sides, SidesError> {
        let given = revisions.filter(|r| !r.is_empty());
        if let Some(text) = given
            && text.contains("..")
        {
            if text.contains("...") {
                return Err(SidesError::ThreeDots(text.to_string()));
            }
            if staged {
                return Err(SidesError::StagedRange);
            }
            let (a, b) = text.split_once("..").unwrap_or((text, ""));
            let side = |rev: &str| match rev {
                "" => Side::Revision("HEAD".to_string()),
                rev => Side::Revision(rev.to_string()),
            };
            return Ok(Sides {
                old: side(a),
                new: side(b),
            });
        }
        Ok(match (given, staged) {
            (None, false) => Sides {
                old: Side::Index,
                new: Side::WorkTree,
            },
            (None, true) => Sides {
                old: Side::Head,
                new: Side::Index,
            },
            (Some(rev), staged) => Sides {
                old: Side::Revision(rev.to_string()),
                new: if staged { Side::Index } else { Side::WorkTree },
            },
        })
    }
}

/// Where one version of a file is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Source {
    /// A blob of the repository.
    Blob(ObjectId),
    /// A file of the work tree, by the path urldb shows.
    File(PathBuf),
}

/// A file of the database that differs between the sides.
#[derive(Debug, Clone)]
pub(crate) struct Differing {
    /// Its path in the repository (`/`-separated).
    pub repo_path: String,
    /// Where it is on each side; `None`: not there.
    pub old: Option<Source>,
    pub new: Option<Source>,
}

/// The files of one side: each member's repository path and where its
/// content is.
type Listing = BTreeMap<String, Source>;

/// The files of the database that differ between `sides`, sorted by
/// repository path, and the problems of a walk of the work tree. A
/// work-tree file over `max` bytes is not hashed: it differs (and is
/// then said too large).
pub(crate) fn differing(
    repo: &Repository,
    members: &Members,
    sides: &Sides,
    max: u64,
) -> Result<(Vec<Differing>, Vec<crate::discover::WalkError>), GitError> {
    let gix = repo.local();
    // Two revisions: the tree diff, which never opens a tree both share.
    if let (Some(old), Some(new)) = (
        tree_of(repo, &gix, &sides.old)?,
        tree_of(repo, &gix, &sides.new)?,
    ) {
        let mut out = Vec::new();
        tree_diff(&gix, repo.prefix(), old, new, &mut out)?;
        // One look per folder for a `urldb.toml` of its own.
        let mut memo = std::collections::HashMap::new();
        let found = out
            .into_iter()
            .filter(|(path, _, _)| repo.is_member(path, members, &mut memo))
            .map(|(repo_path, old, new)| Differing {
                repo_path,
                old: old.map(Source::Blob),
                new: new.map(Source::Blob),
            })
            .collect();
        return Ok((found, Vec::new()));
    }
    let mut walk_errors = Vec::new();
    let old = list(repo, &gix, members, &sides.old, &mut walk_errors)?;
    let new = list(repo, &gix, members, &sides.new, &mut walk_errors)?;
    let mut found: Vec<Differing> = Vec::new();
    let mut to_hash: Vec<(String, PathBuf, ObjectId)> = Vec::new();
    for (path, old_source) in &old {
        match (old_source, new.get(path)) {
            (_, None) => found.push(Differing {
                repo_path: path.clone(),
                old: Some(old_source.clone()),
                new: None,
            }),
            (Source::Blob(a), Some(Source::Blob(b))) if a == b => {}
            (Source::Blob(a), Some(Source::File(file))) => {
                to_hash.push((path.clone(), file.clone(), *a));
            }
            (Source::File(file), Some(Source::Blob(b))) => {
                to_hash.push((path.clone(), file.clone(), *b));
            }
            (_, Some(new_source)) => found.push(Differing {
                repo_path: path.clone(),
                old: Some(old_source.clone()),
                new: Some(new_source.clone()),
            }),
        }
    }
    for (path, new_source) in &new {
        if !old.contains_key(path) {
            found.push(Differing {
                repo_path: path.clone(),
                old: None,
                new: Some(new_source.clone()),
            });
        }
    }
    for (path, _, _) in work_tree_changed(repo, members, to_hash, max)? {
        found.push(Differing {
            old: old.get(&path).cloned(),
            new: new.get(&path).cloned(),
            repo_path: path,
        });
    }
    found.sort_by(|a, b| a.repo_path.cmp(&b.repo_path));
    Ok((found, walk_errors))
}

/// The tree a side names, when it is a revision (`None`: the index or the
/// work tree).
fn tree_of(
    repo: &Repository,
    gix: &gix::Repository,
    side: &Side,
) -> Result<Option<ObjectId>, GitError> {
    match side {
        Side::WorkTree | Side::Index => Ok(None),
        Side::Head => {
            let head = gix.head().map_err(other)?;
            if head.is_unborn() {
                return Ok(Some(gix.empty_tree().id));
            }
            Ok(Some(repo.tree(gix, "HEAD")?.id))
        }
        Side::Revision(rev) => Ok(Some(repo.tree(gix, rev)?.id)),
    }
}

fn other(e: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> GitError {
    GitError::Other(e.into())
}

/// The files of the database on one side.
fn list(
    repo: &Repository,
    gix: &gix::Repository,
    members: &Members,
    side: &Side,
    walk_errors: &mut Vec<crate::discover::WalkError>,
) -> Result<Listing, GitError> {
    let mut listing = Listing::new();
    match side {
        Side::WorkTree => {
            let found = crate::discover::find_files(members);
            walk_errors.extend(found.errors);
            for file in found.files {
                if let Some(path) = repo_path_of(repo, members, &file) {
                    listing.insert(path, Source::File(file));
                }
            }
        }
        Side::Index => {
            for file in repo.staged(members)? {
                listing.insert(file.repo_path, Source::Blob(file.id));
            }
        }
        Side::Head | Side::Revision(_) => {
            if let Some(tree) = tree_of(repo, gix, side)? {
                let mut out = Vec::new();
                tree_diff(gix, repo.prefix(), gix.empty_tree().id, tree, &mut out)?;
                let mut memo = std::collections::HashMap::new();
                for (path, _, id) in out {
                    if let Some(id) = id
                        && repo.is_member(&path, members, &mut memo)
                    {
                        listing.insert(path, Source::Blob(id));
                    }
                }
            }
        }
    }
    Ok(listing)
}

/// The repository path of a file a walk of the database found: the
/// root's prefix and its path below the root, as git names it.
fn repo_path_of(repo: &Repository, members: &Members, file: &std::path::Path) -> Option<String> {
    let root: &std::path::Path = members.root();
    let below = file.strip_prefix(root).ok();
    match below {
        Some(rest) => {
            let mut path = repo.prefix().to_string();
            let parts: Vec<String> = rest
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            path.push_str(&parts.join("/"));
            Some(path)
        }
        None => repo.repo_path(file),
    }
}

/// Of the work-tree files paired with a blob (`(repository path, file,
/// blob)`), those whose content is not that blob, compared as git
/// compares them: the file's bytes after git's conversion, hashed
/// ([`crate::git::Conversion`]). A file that cannot be read within `max`
/// bytes or converted differs (it is read again, and its problem said,
/// later): no file is held in memory beyond the limit every read has.
fn work_tree_changed(
    repo: &Repository,
    members: &Members,
    pairs: Vec<(String, PathBuf, ObjectId)>,
    max: u64,
) -> Result<Vec<(String, PathBuf, ObjectId)>, GitError> {
    if pairs.is_empty() {
        return Ok(pairs);
    }
    let kind = repo.local().object_hash();
    // Built once first: a broken configuration is an error, not every
    // file changed.
    drop(repo.conversion()?);
    let root = members.root();
    Ok(pairs
        .into_par_iter()
        .map_init(
            || repo.conversion().ok(),
            |conversion, (path, file, blob)| {
                let same = crate::read::read_limited(&file, max, Some(root))
                    .ok()
                    .and_then(|bytes| {
                        let stored = conversion.as_mut()?.to_git(&path, &bytes).ok()?;
                        gix::objs::compute_hash(kind, gix::objs::Kind::Blob, &stored).ok()
                    })
                    .is_some_and(|now| now == blob);
                (!same).then_some((path, file, blob))
            },
        )
        .flatten()
        .collect())
}

/// One entry of a tree, as the diff needs it.
struct TreeEntry {
    tree: Option<ObjectId>,
    /// A regular file (executable or not); links and submodules are no
    /// domain files.
    blob: Option<ObjectId>,
}

/// The entries of tree `id` by name (names that are not UTF-8 left out:
/// no domain file has one).
fn entries(
    gix: &gix::Repository,
    id: Option<ObjectId>,
) -> Result<HashMap<String, TreeEntry>, GitError> {
    let mut out = HashMap::new();
    let Some(id) = id else {
        return Ok(out);
    };
    let tree = gix.find_tree(id).map_err(other)?;
    for entry in tree.iter() {
        let entry = entry.map_err(other)?;
        let Ok(name) = entry.inner.filename.to_str() else {
            continue;
        };
        let mode = entry.inner.mode;
        let id = entry.inner.oid.to_owned();
        out.insert(
            name.to_string(),
            TreeEntry {
                tree: mode.is_tree().then_some(id),
                blob: mode.is_blob().then_some(id),
            },
        );
    }
    Ok(out)
}

/// The regular files below `prefix` whose blobs differ between the trees
/// `old` and `new`: `(repository path, old blob, new blob)`, `None` where
/// a side has none. A subtree with the same id on both sides is the same
/// files, and is not opened: the cost is that of what changed, not of the
/// database. Iterative, so that no depth of trees exhausts the stack.
fn tree_diff(
    gix: &gix::Repository,
    prefix: &str,
    old: ObjectId,
    new: ObjectId,
    out: &mut Vec<(String, Option<ObjectId>, Option<ObjectId>)>,
) -> Result<(), GitError> {
    let below = |root: ObjectId| -> Result<Option<ObjectId>, GitError> {
        let dir = prefix.trim_end_matches('/');
        if dir.is_empty() {
            return Ok(Some(root));
        }
        let tree = gix.find_tree(root).map_err(other)?;
        let entry = tree.lookup_entry_by_path(dir).map_err(other)?;
        Ok(entry.filter(|e| e.mode().is_tree()).map(|e| e.object_id()))
    };
    let mut pending = vec![(prefix.to_string(), below(old)?, below(new)?)];
    while let Some((dir, old, new)) = pending.pop() {
        if old == new {
            continue;
        }
        let old_entries = entries(gix, old)?;
        let new_entries = entries(gix, new)?;
        let mut names: Vec<&String> = old_entries.keys().chain(new_entries.keys()).collect();
        names.sort();
        names.dedup();
        for name in names {
            let (a, b) = (old_entries.get(name), new_entries.get(name));
            let path = format!("{dir}{name}");
            let (a_tree, b_tree) = (a.and_then(|e| e.tree), b.and_then(|e| e.tree));
            if (a_tree.is_some() || b_tree.is_some()) && a_tree != b_tree {
                pending.push((format!("{path}/"), a_tree, b_tree));
            }
            let (a_blob, b_blob) = (a.and_then(|e| e.blob), b.and_then(|e| e.blob));
            if a_blob != b_blob {
                out.push((path, a_blob, b_blob));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_arguments_name_the_sides_as_git_diff_does() {
        let rev = |r: &str| Side::Revision(r.to_string());
        let sides = |old, new| Sides { old, new };
        assert_eq!(
            Sides::from_args(None, false),
            Ok(sides(Side::Index, Side::WorkTree))
        );
        assert_eq!(
            Sides::from_args(None, true),
            Ok(sides(Side::Head, Side::Index))
        );
        assert_eq!(
            Sides::from_args(Some("main"), false),
            Ok(sides(rev("main"), Side::WorkTree))
        );
        assert_eq!(
            Sides::from_args(Some("main"), true),
            Ok(sides(rev("main"), Side::Index))
        );
        assert_eq!(
            Sides::from_args(Some("a..HEAD~1"), false),
            Ok(sides(rev("a"), rev("HEAD~1")))
        );
        assert!(matches!(
            Sides::from_args(Some("a...b"), false),
            Err(SidesError::ThreeDots(_))
        ));
        assert_eq!(
            Sides::from_args(Some("a.."), false),
            Ok(sides(rev("a"), rev("HEAD")))
        );
        assert_eq!(
            Sides::from_args(Some("..b"), false),
            Ok(sides(rev("HEAD"), rev("b")))
        );
        assert_eq!(
            Sides::from_args(Some("a..b"), true),
            Err(SidesError::StagedRange)
        );
    }
}
