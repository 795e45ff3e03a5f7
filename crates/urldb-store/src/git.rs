//! The git repository around a database (gix): the *staged* contents of the
//! domain files (`--staged`), the files changed since a revision
//! (`--since`), one file as a revision has it (`--config-from`), and
//! writing a formatted file back to the index.
//!
//! Paths inside the repository are `/`-separated and relative to its work
//! tree; paths shown to the user and given to the rest of urldb are the
//! database root joined with the part below it, exactly as a walk of the
//! work tree would produce them, so findings look the same either way.

use std::collections::{HashMap, HashSet};
use std::path::{Component, Path, PathBuf};

use crate::membership::Members;
use gix::ObjectId;
use gix::bstr::ByteSlice;

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
    /// A revision git cannot find. The message is urldb's own: git's
    /// wording (`couldn't parse revision`) is the source, for a debugger.
    #[error(
        "no revision `{}` in the repository at `{}`: give a branch, a tag, a commit id, \
         or an expression such as `HEAD~1` (`git log --oneline` lists the commits)",
        urldb_core::text::escape(.rev),
        .workdir.display()
    )]
    Revision {
        rev: String,
        workdir: PathBuf,
        source: gix::Error,
    },
    /// A revision a shallow clone does not hold (CI checks out one commit
    /// by default): the way out is more history, not another revision.
    #[error(
        "no revision `{}` in the repository at `{}`: it is a shallow clone, without \
         the history before its latest commits; fetch it (`fetch-depth: 0` in \
         actions/checkout, or `git fetch --unshallow`)",
        urldb_core::text::escape(.rev),
        .workdir.display()
    )]
    ShallowRevision {
        rev: String,
        workdir: PathBuf,
        source: gix::Error,
    },
    /// A revision asked of a repository that has no commit yet (`urldb
    /// diff HEAD` before the first commit): no revision can be there.
    #[error(
        "no revision `{}`: the repository at `{}` has no commit yet; commit first, or \
         compare without a revision (`urldb diff`: the index with the working tree; `urldb \
         diff --staged`: what the first commit would take)",
        urldb_core::text::escape(.rev),
        .workdir.display()
    )]
    NoCommitYet {
        rev: String,
        workdir: PathBuf,
        source: gix::Error,
    },
    /// A revision that names a file's content, not a commit.
    #[error("revision `{}` names no commit or tree", urldb_core::text::escape(.rev))]
    NotACommit { rev: String, source: gix::Error },
    #[error("`{0}` left the index")]
    LeftIndex(String),
    #[error("`{0}` was staged again since it was read; not changed")]
    StagedAgain(String),
    /// `--config-from`: the revision has a symbolic link or a submodule
    /// where a file is looked for.
    #[error(
        "`{}` at `{}` is not a regular file",
        urldb_core::text::escape(.path),
        urldb_core::text::escape(.rev)
    )]
    NotAFile { rev: String, path: String },
    /// `.gitattributes` asks for a filter program (`filter=lfs`, ...):
    /// urldb runs none, so it cannot compare or write the file as git would.
    #[error("`{}`: a filter program would be needed", urldb_core::text::escape(.0))]
    NeedsFilter(String),
    /// A blob larger than the limit asked for (not read).
    #[error("too large ({size} bytes)")]
    BlobTooLarge { size: u64 },
    /// git or the file system failed; its own message follows.
    #[error("git: {0}")]
    Other(#[source] Box<dyn std::error::Error + Send + Sync>),
}

fn other(e: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> GitError {
    GitError::Other(e.into())
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
        let workdir = dunce::canonicalize(workdir).map_err(other)?;
        let canonical_root = dunce::canonicalize(root).map_err(other)?;
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
    /// The committer time of `HEAD` (seconds since 1970), when the
    /// repository has a commit: the newest state of the database that
    /// git records.
    pub fn head_time(&self) -> Option<i64> {
        let repo = self.repo.to_thread_local();
        let commit = repo.head_commit().ok()?;
        Some(commit.time().ok()?.seconds)
    }

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
        let dir = dunce::canonicalize(absolute.parent()?).ok()?;
        let full = dir.join(absolute.file_name()?);
        let rel = full.strip_prefix(&self.workdir).ok()?;
        let parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        Some(parts.join("/"))
    }

    /// The path urldb shows for a repository path below the database root.
    pub(crate) fn user_path(&self, repo_path: &str) -> Option<PathBuf> {
        let rest = repo_path.strip_prefix(self.prefix.as_str())?;
        let mut path = self.root.clone();
        for part in rest.split('/') {
            path.push(part);
        }
        Some(path)
    }

    /// Is the file at this repository path a member of the database
    /// ([`crate::membership`]), as a walk of the work tree would find it?
    /// A folder below the root with a `urldb.toml` of its own is another
    /// database's (`memo`: one look per folder).
    pub(crate) fn is_member(
        &self,
        repo_path: &str,
        members: &Members,
        memo: &mut HashMap<PathBuf, Option<PathBuf>>,
    ) -> bool {
        let Some(rest) = repo_path.strip_prefix(self.prefix.as_str()) else {
            return false;
        };
        let rel = Path::new(rest);
        members.of_relative(rel).is_ok()
            && rel
                .parent()
                .is_none_or(|dir| members.governed_below(dir, memo).is_none())
    }

    /// The domain files in the index (stage 0, regular files), sorted by
    /// path. Files deleted in the index are simply not there.
    pub fn staged(&self, members: &Members) -> Result<Vec<StagedFile>, GitError> {
        let repo = self.repo.to_thread_local();
        let index = repo.index_or_empty().map_err(other)?;
        let mut files = Vec::new();
        let mut memo = HashMap::new();
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
            if !self.is_member(repo_path, members, &mut memo) {
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

    /// The database root relative to the work tree, `/`-separated, empty
    /// or ending in `/`.
    pub(crate) fn prefix(&self) -> &str {
        &self.prefix
    }

    /// A handle on the repository for this thread (gix's handles are not
    /// `Send`).
    pub(crate) fn local(&self) -> gix::Repository {
        self.repo.to_thread_local()
    }

    /// `rev` names a commit, or `A..B` two (a side left out is `HEAD`):
    /// how `urldb diff` tells a revision from a path, as `git diff` does.
    pub fn is_revision(&self, rev: &str) -> bool {
        let repo = self.repo.to_thread_local();
        let one = |rev: &str| {
            let rev = if rev.is_empty() { "HEAD" } else { rev };
            repo.rev_parse_single(rev.as_bytes().as_bstr()).is_ok()
        };
        match rev.split_once("..") {
            Some((a, b)) => one(a) && one(b.trim_start_matches('.')),
            None => one(rev),
        }
    }

    /// The tree of revision `rev`.
    pub(crate) fn tree<'r>(
        &self,
        repo: &'r gix::Repository,
        rev: &str,
    ) -> Result<gix::Tree<'r>, GitError> {
        let id = repo
            .rev_parse_single(rev.as_bytes().as_bstr())
            .map_err(|source| {
                let (rev, workdir) = (rev.to_string(), self.workdir.clone());
                if repo.head_id().is_err() {
                    GitError::NoCommitYet {
                        rev,
                        workdir,
                        source,
                    }
                } else if repo.is_shallow().unwrap_or(false) {
                    GitError::ShallowRevision {
                        rev,
                        workdir,
                        source,
                    }
                } else {
                    GitError::Revision {
                        rev,
                        workdir,
                        source,
                    }
                }
            })?;
        let not_a_commit = |source| GitError::NotACommit {
            rev: rev.to_string(),
            source,
        };
        id.object()
            .map_err(not_a_commit)?
            .peel_to_tree()
            .map_err(not_a_commit)
    }

    /// The bytes of the file at `repo_path` in revision `rev`, when it has
    /// a regular file there (`None`: nothing, or a directory). A symbolic
    /// link or a submodule there is an error, and so is a file over `max`
    /// bytes ([`GitError::BlobTooLarge`]).
    pub fn file_at(
        &self,
        rev: &str,
        repo_path: &str,
        max: u64,
    ) -> Result<Option<Vec<u8>>, GitError> {
        let repo = self.repo.to_thread_local();
        let tree = self.tree(&repo, rev)?;
        let Some(entry) = tree.lookup_entry_by_path(repo_path).map_err(other)? else {
            return Ok(None);
        };
        let mode = entry.mode();
        if mode.is_tree() {
            return Ok(None);
        }
        if !mode.is_blob() {
            return Err(GitError::NotAFile {
                rev: rev.to_string(),
                path: repo_path.to_string(),
            });
        }
        self.blobs().read(entry.object_id(), max).map(Some)
    }

    /// The repository paths of every entry of revision `rev` named `name`
    /// (files, links, submodules; not folders), sorted.
    pub fn files_named_at(&self, rev: &str, name: &str) -> Result<Vec<String>, GitError> {
        let repo = self.repo.to_thread_local();
        let tree = self.tree(&repo, rev)?;
        let entries = tree.traverse().breadthfirst.files().map_err(other)?;
        let mut found: Vec<String> = entries
            .into_iter()
            .filter(|e| !e.mode.is_tree())
            .filter_map(|e| e.filepath.to_str().ok().map(str::to_string))
            .filter(|path| path.rsplit('/').next() == Some(name))
            .collect();
        found.sort();
        Ok(found)
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
        let tree = self.tree(&repo, rev)?;
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
            .ok_or_else(|| GitError::LeftIndex(file.repo_path.clone()))?;
        let entry = &mut index.entries_mut()[position];
        if entry.id != file.id {
            return Err(GitError::StagedAgain(file.repo_path.clone()));
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
                return Err(GitError::NeedsFilter(repo_path.to_string()));
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
                return Err(GitError::NeedsFilter(repo_path.to_string()));
            }
        })
    }
}
