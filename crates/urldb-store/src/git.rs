//! The git repository around a database (gix): the *staged* contents of the
//! domain files (`--staged`), the files changed since a revision
//! (`--since`), and writing a formatted file back to the index.
//!
//! Paths inside the repository are `/`-separated and relative to its work
//! tree; paths shown to the user and given to the rest of urldb are the
//! database root joined with the part below it, exactly as a walk of the
//! work tree would produce them, so findings look the same either way.

use std::collections::{HashMap, HashSet};
use std::path::{Component, Path, PathBuf};

use gix::ObjectId;
use gix::bstr::ByteSlice;
use globset::GlobSet;

use crate::discover;

#[derive(Debug, thiserror::Error)]
pub enum GitError {
    #[error(
        "`{}` is not inside a git repository (needed by {option})",
        dir.display()
    )]
    NotARepository { dir: PathBuf, option: &'static str },
    #[error("the repository at `{}` has no work tree", dir.display())]
    Bare { dir: PathBuf },
    #[error("the database `{}` is outside the repository's work tree `{}`", root.display(), workdir.display())]
    OutsideWorkTree { root: PathBuf, workdir: PathBuf },
    #[error("cannot resolve revision `{rev}`: {message}")]
    Revision { rev: String, message: String },
    /// A blob larger than the limit asked for (not read).
    #[error("too large ({size} bytes)")]
    BlobTooLarge { size: u64 },
    #[error("git: {0}")]
    Other(String),
}

fn other(e: impl std::fmt::Display) -> GitError {
    GitError::Other(e.to_string())
}

/// A repository discovered from the database directory.
pub struct Repository {
    repo: gix::ThreadSafeRepository,
    /// The work tree, canonical.
    workdir: PathBuf,
    /// The database root as given (relative to the current directory or absolute).
    root: PathBuf,
    /// The database root relative to the work tree, `/`-separated, empty or
    /// ending in `/`.
    prefix: String,
}

/// A domain file as it is in the index.
#[derive(Debug, Clone)]
pub struct StagedFile {
    /// The path urldb shows and reports (database root joined with the rest).
    pub path: PathBuf,
    /// The path in the repository (`/`-separated).
    pub repo_path: String,
    pub id: ObjectId,
}

impl Repository {
    /// Discover the repository that holds `root`. `option` names what
    /// needs it, for the error.
    pub fn discover(root: &Path, option: &'static str) -> Result<Repository, GitError> {
        let repo = gix::discover(root).map_err(|_| GitError::NotARepository {
            dir: root.to_path_buf(),
            option,
        })?;
        let workdir = repo
            .workdir()
            .ok_or_else(|| GitError::Bare {
                dir: repo.git_dir().to_path_buf(),
            })?
            .to_path_buf();
        let workdir = workdir.canonicalize().map_err(other)?;
        let canonical_root = root.canonicalize().map_err(other)?;
        let below =
            canonical_root
                .strip_prefix(&workdir)
                .map_err(|_| GitError::OutsideWorkTree {
                    root: root.to_path_buf(),
                    workdir: workdir.clone(),
                })?;
        let mut prefix = String::new();
        for component in below.components() {
            if let Component::Normal(name) = component {
                prefix.push_str(&name.to_string_lossy());
                prefix.push('/');
            }
        }
        Ok(Repository {
            repo: repo.into_sync(),
            workdir,
            root: root.to_path_buf(),
            prefix,
        })
    }

    pub fn workdir(&self) -> &Path {
        &self.workdir
    }

    /// Where git looks for hooks: `core.hooksPath` (relative to the work
    /// tree) when set, else `hooks` in the common git directory (shared by
    /// linked worktrees).
    pub fn hooks_dir(&self) -> PathBuf {
        let repo = self.repo.to_thread_local();
        let configured = repo
            .config_snapshot()
            .string("core.hooksPath")
            .map(|s| s.to_string());
        match configured {
            Some(path) if !path.is_empty() => self.workdir.join(path),
            _ => repo.common_dir().join("hooks"),
        }
    }

    /// The repository path of a file urldb knows by `path`, when it lies in
    /// the work tree.
    pub fn repo_path(&self, path: &Path) -> Option<String> {
        let absolute = if path.is_absolute() {
            path.to_path_buf()
        } else {
            std::env::current_dir().ok()?.join(path)
        };
        // The file may not exist (deleted, or only staged): canonicalize
        // its directory instead.
        let dir = absolute.parent()?.canonicalize().ok()?;
        let full = dir.join(absolute.file_name()?);
        let rel = full.strip_prefix(&self.workdir).ok()?;
        let parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        Some(parts.join("/"))
    }

    /// The path urldb shows for a repository path below the database root.
    fn user_path(&self, repo_path: &str) -> Option<PathBuf> {
        let rest = repo_path.strip_prefix(self.prefix.as_str())?;
        let mut path = self.root.clone();
        for part in rest.split('/') {
            path.push(part);
        }
        Some(path)
    }

    /// Would a walk of the work tree find this file (below the root, not in
    /// a hidden directory, not excluded, a domain file name)?
    fn is_domain_file(&self, repo_path: &str, exclude: &GlobSet) -> bool {
        let Some(rest) = repo_path.strip_prefix(self.prefix.as_str()) else {
            return false;
        };
        let mut parts = rest.split('/').peekable();
        let mut so_far = PathBuf::new();
        while let Some(part) = parts.next() {
            so_far.push(part);
            if part.starts_with('.') || exclude.is_match(&so_far) {
                return false;
            }
            if parts.peek().is_none() {
                return discover::is_domain_file_name(Path::new(part));
            }
        }
        false
    }

    /// The domain files in the index (stage 0, regular files), sorted by
    /// path. Files deleted in the index are simply not there.
    pub fn staged(&self, exclude: &GlobSet) -> Result<Vec<StagedFile>, GitError> {
        let repo = self.repo.to_thread_local();
        let index = repo.index_or_empty().map_err(other)?;
        let mut files = Vec::new();
        for entry in index.entries() {
            let mode = entry.mode;
            let regular = mode == gix::index::entry::Mode::FILE
                || mode == gix::index::entry::Mode::FILE_EXECUTABLE;
            if !regular || entry.stage() != gix::index::entry::Stage::Unconflicted {
                continue;
            }
            let Ok(repo_path) = entry.path(&index).to_str() else {
                continue;
            };
            if !self.is_domain_file(repo_path, exclude) {
                continue;
            }
            if let Some(path) = self.user_path(repo_path) {
                files.push(StagedFile {
                    path,
                    repo_path: repo_path.to_string(),
                    id: entry.id,
                });
            }
        }
        files.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(files)
    }

    /// Files among `paths` whose work-tree content differs from `rev`'s
    /// (or that `rev` does not have).
    pub fn changed_since(
        &self,
        root: Option<&crate::read::Root>,
        rev: &str,
        paths: &[PathBuf],
    ) -> Result<Vec<PathBuf>, GitError> {
        let repo = self.repo.to_thread_local();
        let revision_error = |e: &dyn std::fmt::Display| GitError::Revision {
            rev: rev.to_string(),
            message: e.to_string(),
        };
        let id = repo
            .rev_parse_single(rev.as_bytes().as_bstr())
            .map_err(|e| revision_error(&e))?;
        let tree = id
            .object()
            .map_err(|e| revision_error(&e))?
            .peel_to_tree()
            .map_err(|e| revision_error(&e))?;
        let entries = tree.traverse().breadthfirst.files().map_err(other)?;
        let at_rev: HashMap<String, ObjectId> = entries
            .into_iter()
            .filter(|e| e.mode.is_blob())
            .filter_map(|e| Some((e.filepath.to_str().ok()?.to_string(), e.oid)))
            .collect();
        let kind = repo.object_hash();
        // The work tree is compared as git compares it: after its
        // conversion (line endings by `core.autocrlf` or `.gitattributes`),
        // one conversion per worker. Built once first, so that a broken
        // configuration is an error rather than every file changed.
        drop(self.conversion()?);
        use rayon::prelude::*;
        let changed: HashSet<PathBuf> = paths
            .par_iter()
            .map_init(
                || self.conversion().ok(),
                |conversion, path| {
                    let Some(repo_path) = self.repo_path(path) else {
                        return Some(path);
                    };
                    let Some(old) = at_rev.get(&repo_path) else {
                        return Some(path);
                    };
                    let Ok(bytes) = crate::read::read_limited(path, u64::MAX, root) else {
                        return Some(path);
                    };
                    let Some(stored) = conversion
                        .as_mut()
                        .and_then(|c| c.to_git(&repo_path, &bytes).ok())
                    else {
                        return Some(path);
                    };
                    let now = gix::objs::compute_hash(kind, gix::objs::Kind::Blob, &stored);
                    now.map_or(true, |now| now != *old).then_some(path)
                },
            )
            .flatten()
            .cloned()
            .collect();
        Ok(paths
            .iter()
            .filter(|p| changed.contains(*p))
            .cloned()
            .collect())
    }

    /// A reader of blobs, one per thread.
    pub fn blobs(&self) -> Blobs {
        Blobs {
            repo: self.repo.to_thread_local(),
        }
    }

    /// Record `new` as the staged content of `file`, whose index entry must
    /// still be `file.id` (the index is re-read under its lock).
    pub fn stage(&self, file: &StagedFile, new: &[u8]) -> Result<(), GitError> {
        let repo = self.repo.to_thread_local();
        let id = repo.write_blob(new).map_err(other)?.detach();
        let mut index = repo.open_index().map_err(other)?;
        let path = file.repo_path.as_bytes().as_bstr();
        let position = index
            .entry_index_by_path_and_stage(path, gix::index::entry::Stage::Unconflicted)
            .ok_or_else(|| GitError::Other(format!("`{}` left the index", file.repo_path)))?;
        let entry = &mut index.entries_mut()[position];
        if entry.id != file.id {
            return Err(GitError::Other(format!(
                "`{}` was staged again since it was read; not changed",
                file.repo_path
            )));
        }
        entry.id = id;
        // The work tree now holds the same bytes: record its stat so git
        // sees the file as unmodified without hashing it again.
        let on_disk = self.workdir.join(&file.repo_path);
        if let Ok(meta) = gix::index::fs::Metadata::from_path_no_follow(&on_disk)
            && let Ok(stat) = gix::index::entry::Stat::from_fs(&meta)
        {
            entry.stat = stat;
        }
        // The tree cache would still describe the old blob.
        index.remove_tree();
        index
            .write(gix::index::write::Options::default())
            .map_err(other)
    }
}

/// Reads blobs from one thread.
pub struct Blobs {
    repo: gix::Repository,
}

impl Blobs {
    /// The blob's bytes ([`GitError::BlobTooLarge`] when over `max`, not read).
    pub fn read(&self, id: ObjectId, max: u64) -> Result<Vec<u8>, GitError> {
        let header = self.repo.find_header(id).map_err(other)?;
        if header.size() > max {
            return Err(GitError::BlobTooLarge {
                size: header.size(),
            });
        }
        let mut blob = self.repo.find_blob(id).map_err(other)?;
        Ok(blob.take_data())
    }
}

/// Git's conversion of a file between the work tree and the repository:
/// line endings (`core.autocrlf`, `core.eol`, the `text`, `eol` and `crlf`
/// attributes), `ident` and `working-tree-encoding`, by the
/// `.gitattributes` of the work tree (then the index's), `info/attributes`
/// and the global and system attribute files, as git applies them
/// (gix's filter pipeline). External filter drivers (`filter=`) are never
/// run: urldb starts no program that git's configuration names, so a file
/// that has one is compared unconverted, which can only find it changed
/// (`docs/git.md`, "Line endings").
pub struct Conversion {
    repo: gix::Repository,
    filters: gix::filter::plumbing::Pipeline,
    attributes: gix::worktree::Stack,
    index: gix::worktree::IndexPersistedOrInMemory,
}

impl Repository {
    /// The conversion between this repository's work tree and its objects.
    pub fn conversion(&self) -> Result<Conversion, GitError> {
        let repo = self.repo.to_thread_local();
        let (pipeline, index) = repo.filter_pipeline(None).map_err(other)?;
        let (mut filters, attributes) = pipeline.into_parts();
        let options = filters.options_mut();
        options.drivers.clear();
        // Comparing writes no object, and git checks round trips only
        // when it writes one.
        options.crlf_roundtrip_check = gix::filter::plumbing::pipeline::CrlfRoundTripCheck::Skip;
        options.encodings_with_roundtrip_check.clear();
        Ok(Conversion {
            repo,
            filters,
            attributes,
            index,
        })
    }
}

impl Conversion {
    /// What git stores for the work-tree file at `repo_path` (`/`-separated)
    /// when it holds `bytes`: their "clean" form, which `git status` and
    /// `git diff` compare with the index and with commits.
    pub fn to_git<'a>(
        &mut self,
        repo_path: &str,
        bytes: &'a [u8],
    ) -> Result<std::borrow::Cow<'a, [u8]>, GitError> {
        use gix::filter::plumbing::pipeline::convert::ToGitOutcome;
        use gix::prelude::Find;
        let path = Path::new(repo_path);
        let at = self
            .attributes
            .at_path(path, None, &self.repo.objects)
            .map_err(other)?;
        let (index, objects) = (&self.index, &self.repo.objects);
        // With `text=auto`, git leaves the line endings of a file whose
        // staged blob already has CRLF: the blob is looked up here.
        let mut staged = |buf: &mut Vec<u8>| -> gix::Result<Option<()>> {
            let Some(entry) = index.entry_by_path(repo_path.as_bytes().as_bstr()) else {
                return Ok(None);
            };
            let found = objects
                .try_find(&entry.id, buf)
                .map_err(gix::Error::from_error)?;
            Ok(found
                .filter(|o| o.kind == gix::objs::Kind::Blob)
                .map(|_| ()))
        };
        let outcome = self
            .filters
            .convert_to_git(
                bytes,
                path,
                &mut |_, attributes| {
                    at.matching_attributes(attributes);
                },
                &mut staged,
            )
            .map_err(other)?;
        Ok(match outcome {
            ToGitOutcome::Unchanged(_) => std::borrow::Cow::Borrowed(bytes),
            ToGitOutcome::Buffer(converted) => std::borrow::Cow::Owned(converted.to_vec()),
            ToGitOutcome::Process(_) => {
                return Err(GitError::Other(format!(
                    "`{repo_path}`: a filter program would be needed"
                )));
            }
        })
    }

    /// What git checks out into the work tree at `repo_path` for the blob
    /// `bytes` (their "smudged" form).
    pub fn to_worktree<'a>(
        &mut self,
        repo_path: &str,
        bytes: &'a [u8],
    ) -> Result<std::borrow::Cow<'a, [u8]>, GitError> {
        use gix::filter::plumbing::pipeline::convert::ToWorktreeOutcome;
        let path = repo_path.as_bytes().as_bstr();
        let at = self
            .attributes
            .at_entry(path, None, &self.repo.objects)
            .map_err(other)?;
        let outcome = self
            .filters
            .convert_to_worktree(
                bytes,
                path,
                &mut |_, attributes| {
                    at.matching_attributes(attributes);
                },
                Default::default(),
            )
            .map_err(other)?;
        Ok(match outcome {
            ToWorktreeOutcome::Unchanged(_) => std::borrow::Cow::Borrowed(bytes),
            ToWorktreeOutcome::Buffer(converted) => std::borrow::Cow::Owned(converted.to_vec()),
            ToWorktreeOutcome::Process(_) => {
                return Err(GitError::Other(format!(
                    "`{repo_path}`: a filter program would be needed"
                )));
            }
        })
    }
}
