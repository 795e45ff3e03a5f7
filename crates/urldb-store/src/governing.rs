//! Which configuration governs a file: the one question every way a file
//! reaches urldb asks (the walk, named paths, `--db`, `--staged`,
//! `--since`, `--stdin-filename`, the language server), answered in one
//! place, [`Governing::config_of`] (`docs/files.md`, "One configuration
//! per file").
//!
//! The answer is the nearest `urldb.toml` above the file, no further up
//! than the top of the git work tree that holds it (outside a repository,
//! up to the file system's root): a `urldb.toml` in a shared parent such
//! as `/tmp` governs no checkout below it. In the work tree the folders
//! are looked at resolved, as membership judges a file's folder. With
//! `--config-from REV` the `urldb.toml` files are the revision's, found on
//! the path as written (the logical working directory, links not
//! resolved): a folder between the work tree's top and the configuration's
//! that is a symbolic link in the work tree is refused, since a pull
//! request could otherwise choose which of the base's configurations
//! applies by replacing a folder with a link (`docs/security.md`).
//!
//! Answers are kept per folder, so a run over thousands of named files of
//! one folder looks once.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

use urldb_core::config::FILE_NAME;

use crate::git::{GitError, Repository};
use crate::membership::holds_config;

/// Why the configuration that governs a path cannot be told.
#[derive(Debug, thiserror::Error)]
pub enum GoverningError {
    /// `--config-from`: the repository or the revision cannot be read.
    #[error(transparent)]
    Git(#[from] GitError),
    /// `--config-from REV`: REV has `urldb.toml` files, none of them on
    /// the path to the working directory (or a named file); `dir` is that
    /// folder's path in the repository.
    #[error(
        "--config-from {}: that revision has no {FILE_NAME} on the path to `{}`; it has {}. \
         Run urldb in the folder of the one that applies, or name it with `--config FILE`",
        urldb_core::text::escape(.rev),
        urldb_core::text::escape(&crate::membership::shown_dir(.dir)),
        listed_configs(.configs)
    )]
    NoneOnPath {
        rev: String,
        dir: PathBuf,
        configs: Vec<String>,
    },
    /// `--config-from REV`: a folder on the way from the work tree's top
    /// to the configuration is a symbolic link in the work tree.
    #[error(
        "--config-from {}: `{}` is a symbolic link in the working tree; the configuration is \
         looked up on the path as the revision has it, and a link there could put the files \
         under another of its configurations: refused",
        urldb_core::text::escape(.rev),
        urldb_core::text::escape(.repo_path)
    )]
    LinkOnConfigPath { rev: String, repo_path: String },
    /// A `urldb.toml` found in the work tree (as shown) is a symbolic link
    /// that resolves outside it (outside its own folder, not in a
    /// repository): not read, and nothing of where it leads is said.
    #[error(
        "{}: a symbolic link that leads outside {}; a configuration found there is read only \
         inside it, so this one is refused (a file of your own goes with `--config FILE`)",
        urldb_core::text::escape(&.0.display().to_string()),
        if *.1 { "the repository's work tree" } else { "its folder" }
    )]
    LinkedOutside(PathBuf, bool),
}

/// A revision's configuration files for a message: the first five.
fn listed_configs(configs: &[String]) -> String {
    let mut listed: Vec<String> = configs
        .iter()
        .take(5)
        .map(|c| format!("`{}`", urldb_core::text::escape(c)))
        .collect();
    if configs.len() > 5 {
        listed.push(format!("and {} more", configs.len() - 5));
    }
    listed.join(", ")
}

/// The folder at `dir` is the top of a git work tree (`.git` is a folder,
/// or a file in a submodule or a linked worktree).
fn is_work_tree_top(dir: &Path) -> bool {
    dir.join(".git").symlink_metadata().is_ok()
}

/// Finds the configuration that governs each file of a run.
pub struct Governing {
    from: From,
    /// Each folder looked at (resolved, or logical with a revision): the
    /// configuration that governs it.
    known: HashMap<PathBuf, Option<PathBuf>>,
    /// A named file's folder as named: resolved once (a hook names
    /// thousands of files in a few folders).
    resolved: HashMap<PathBuf, PathBuf>,
}

enum From {
    WorkTree,
    Revision(Box<Revision>),
}

/// The `urldb.toml` files of a revision (`--config-from`).
pub(crate) struct Revision {
    pub(crate) repo: Repository,
    pub(crate) rev: String,
    /// The folders that hold one, as repository paths (`""` for the top).
    pub(crate) folders: Vec<String>,
    /// The working directory as the user's shell names it.
    logical_cwd: PathBuf,
    /// Each logical folder looked at: the work tree's top above it, as
    /// named on that path, when it lies in the work tree.
    tops: HashMap<PathBuf, Option<PathBuf>>,
}

impl Governing {
    /// The configurations of the work tree.
    pub fn work_tree() -> Governing {
        Governing {
            from: From::WorkTree,
            known: HashMap::new(),
            resolved: HashMap::new(),
        }
    }

    /// The configurations of revision `rev` of the repository around
    /// `logical_cwd` (the working directory as the shell names it, `$PWD`,
    /// when that is the current directory).
    pub fn revision(logical_cwd: &Path, rev: &str) -> Result<Governing, GoverningError> {
        let repo = Repository::discover(logical_cwd, "--config-from")?;
        let folders = repo
            .files_named_at(rev, FILE_NAME)?
            .into_iter()
            .map(|path| match path.rsplit_once('/') {
                Some((folder, _)) => folder.to_string(),
                None => String::new(),
            })
            .collect();
        Ok(Governing {
            from: From::Revision(Box::new(Revision {
                repo,
                rev: rev.to_string(),
                folders,
                logical_cwd: logical_cwd.to_path_buf(),
                tops: HashMap::new(),
            })),
            known: HashMap::new(),
            resolved: HashMap::new(),
        })
    }

    /// The revision the configurations are read from, when one is.
    pub(crate) fn revision_of(&self) -> Option<&Revision> {
        match &self.from {
            From::Revision(rev) => Some(rev),
            From::WorkTree => None,
        }
    }

    /// [`Governing::revision_of`], to look paths up in it.
    pub(crate) fn revision_mut(&mut self) -> Option<&mut Revision> {
        match &mut self.from {
            From::Revision(rev) => Some(rev),
            From::WorkTree => None,
        }
    }

    /// The configuration that governs the file or folder at `path`
    /// (relative to the current directory, or absolute; it need not
    /// exist): the work tree's path of the nearest `urldb.toml` above it,
    /// or `None` when none is (with a revision: when the revision has none
    /// at all, or the path is outside the work tree).
    pub fn config_of(&mut self, path: &Path) -> Result<Option<PathBuf>, GoverningError> {
        self.config_of_known(path, path.is_dir())
    }

    /// [`Governing::config_of`] for a path already known to be a folder
    /// (`is_dir`, links followed) or not.
    pub(crate) fn config_of_known(
        &mut self,
        path: &Path,
        is_dir: bool,
    ) -> Result<Option<PathBuf>, GoverningError> {
        match &mut self.from {
            From::WorkTree => {
                let dir = if is_dir {
                    dunce::canonicalize(path)
                        .unwrap_or_else(|_| crate::membership::resolve_parent(path))
                } else {
                    let named = path.parent().unwrap_or(Path::new(""));
                    match self.resolved.get(named) {
                        Some(dir) => dir.clone(),
                        None => {
                            let resolved = crate::membership::resolve_parent(path);
                            let dir = resolved.parent().unwrap_or(&resolved).to_path_buf();
                            self.resolved.insert(named.to_path_buf(), dir.clone());
                            dir
                        }
                    }
                };
                let found = nearest_on_disk(&dir, &mut self.known);
                if let Some(config) = &found {
                    refuse_link_outside(config)?;
                }
                Ok(found)
            }
            From::Revision(rev) => {
                let logical = rev.logical(path);
                let dir = if is_dir {
                    logical
                } else {
                    logical.parent().unwrap_or(&logical).to_path_buf()
                };
                if let Some(known) = self.known.get(&dir) {
                    return Ok(known.clone());
                }
                let found = rev.nearest(&dir)?;
                self.known.insert(dir, found.clone());
                Ok(found)
            }
        }
    }
}

/// The nearest `urldb.toml` at or above the resolved folder `dir`, up to
/// the work tree's top; each folder's answer kept in `known`.
fn nearest_on_disk(dir: &Path, known: &mut HashMap<PathBuf, Option<PathBuf>>) -> Option<PathBuf> {
    let mut looked = Vec::new();
    let mut found = None;
    for folder in dir.ancestors() {
        if let Some(answer) = known.get(folder) {
            found = answer.clone();
            break;
        }
        looked.push(folder.to_path_buf());
        if holds_config(folder) {
            found = Some(folder.join(FILE_NAME));
            break;
        }
        if is_work_tree_top(folder) {
            break;
        }
    }
    for folder in looked {
        known.insert(folder, found.clone());
    }
    found
}

/// A found `urldb.toml` at `config` (its folder resolved) that is a
/// symbolic link must resolve inside the work tree that holds it, or,
/// outside a repository, inside its own folder: a pull request could
/// otherwise plant `urldb.toml -> ~/.git-credentials` and have a job print
/// the parser's quote of it (`docs/security.md`, "Who controls what").
/// A link that leads nowhere is left to the reader, which says so.
fn refuse_link_outside(config: &Path) -> Result<(), GoverningError> {
    let is_link = config
        .symlink_metadata()
        .is_ok_and(|m| m.file_type().is_symlink());
    if !is_link {
        return Ok(());
    }
    let Ok(target) = dunce::canonicalize(config) else {
        return Ok(());
    };
    let folder = config.parent().unwrap_or(Path::new("/"));
    let folder = dunce::canonicalize(folder).unwrap_or_else(|_| folder.to_path_buf());
    let top = folder.ancestors().find(|d| is_work_tree_top(d));
    if target.starts_with(top.unwrap_or(&folder)) {
        return Ok(());
    }
    // Shown as findings show paths: from the working directory when the
    // link lies below it.
    let shown = std::env::current_dir()
        .ok()
        .and_then(|cwd| config.strip_prefix(cwd).ok().map(Path::to_path_buf))
        .unwrap_or_else(|| config.to_path_buf());
    Err(GoverningError::LinkedOutside(shown, top.is_some()))
}

/// The configuration governing the folder at `dir` in the work tree: the
/// nearest `urldb.toml` above it, no further than the work tree's top.
/// Uncached: for one document at a time (the language server). A found
/// file that links out of the work tree is the error.
pub fn governing_config(dir: &Path) -> Result<Option<PathBuf>, GoverningError> {
    Governing::work_tree().config_of(dir)
}

impl Revision {
    /// `path` as the shell names it: below the logical working directory
    /// when relative, `.` and `..` taken off by name (as `cd` does).
    fn logical(&self, path: &Path) -> PathBuf {
        let joined = if path.is_absolute() {
            path.to_path_buf()
        } else {
            self.logical_cwd.join(path)
        };
        let mut out = PathBuf::new();
        for component in joined.components() {
            match component {
                Component::ParentDir => {
                    out.pop();
                }
                Component::CurDir => {}
                c => out.push(c),
            }
        }
        out
    }

    /// The work tree's top above the logical folder `dir`, as named on
    /// that path: the nearest folder on it that is the top once resolved.
    fn top_of(&mut self, dir: &Path) -> Option<PathBuf> {
        if let Some(known) = self.tops.get(dir) {
            return known.clone();
        }
        let workdir = self.repo.workdir();
        let top = dir
            .ancestors()
            .find(|d| dunce::canonicalize(d).is_ok_and(|c| c == workdir))
            .map(Path::to_path_buf);
        self.tops.insert(dir.to_path_buf(), top.clone());
        top
    }

    /// The names from the work tree's top down to the logical folder
    /// `dir`, and that top; `None` outside the work tree.
    fn below_top(&mut self, dir: &Path) -> Option<(PathBuf, Vec<String>)> {
        let top = self.top_of(dir)?;
        let names = dir
            .strip_prefix(&top)
            .ok()?
            .components()
            .filter_map(|c| match c {
                Component::Normal(name) => Some(name.to_string_lossy().into_owned()),
                _ => None,
            })
            .collect();
        Some((top, names))
    }

    /// The revision's nearest `urldb.toml` above the logical folder `dir`,
    /// as the work tree's path of it; refused when a folder on the way to
    /// it is a symbolic link in the work tree, and when the revision has
    /// some elsewhere but none on this path.
    fn nearest(&mut self, dir: &Path) -> Result<Option<PathBuf>, GoverningError> {
        let Some((top, names)) = self.below_top(dir) else {
            return Ok(None);
        };
        let held = (0..=names.len())
            .rev()
            .find(|&k| self.folders.iter().any(|f| *f == names[..k].join("/")));
        match held {
            Some(k) => {
                self.refuse_links(&top, &names[..k])?;
                Ok(Some(self.in_work_tree(&names[..k]).join(FILE_NAME)))
            }
            None if self.folders.is_empty() => Ok(None),
            None => Err(GoverningError::NoneOnPath {
                rev: self.rev.clone(),
                // Named as in the repository, the revision's files too.
                dir: PathBuf::from(names.join("/")),
                configs: self
                    .folders
                    .iter()
                    .map(|f| {
                        if f.is_empty() {
                            FILE_NAME.to_string()
                        } else {
                            format!("{f}/{FILE_NAME}")
                        }
                    })
                    .collect(),
            }),
        }
    }

    /// `--config FILE` with a revision: FILE's repository path, its
    /// folders checked for links as a found one's are. `None` outside the
    /// work tree.
    pub(crate) fn given(&mut self, file: &Path) -> Result<Option<String>, GoverningError> {
        let logical = self.logical(file);
        let (Some(dir), Some(name)) = (logical.parent(), logical.file_name()) else {
            return Ok(None);
        };
        let Some((top, names)) = self.below_top(dir) else {
            return Ok(None);
        };
        self.refuse_links(&top, &names)?;
        let mut path = names.join("/");
        if !path.is_empty() {
            path.push('/');
        }
        path.push_str(&name.to_string_lossy());
        Ok(Some(path))
    }

    /// Each folder from below the top to the last of `names` must be a
    /// folder in the work tree, not a symbolic link.
    fn refuse_links(&self, top: &Path, names: &[String]) -> Result<(), GoverningError> {
        let mut at = top.to_path_buf();
        for (i, name) in names.iter().enumerate() {
            at.push(name);
            if at
                .symlink_metadata()
                .is_ok_and(|m| m.file_type().is_symlink())
            {
                return Err(GoverningError::LinkOnConfigPath {
                    rev: self.rev.clone(),
                    repo_path: names[..=i].join("/"),
                });
            }
        }
        Ok(())
    }

    /// The work tree's folder at these names below its (resolved) top.
    fn in_work_tree(&self, names: &[String]) -> PathBuf {
        let mut at = self.repo.workdir().to_path_buf();
        at.extend(names);
        at
    }

    /// The bytes of the revision's `urldb.toml` that the work tree has at
    /// `path`, and how messages name it (`REV:PATH`).
    pub(crate) fn read(
        &self,
        repo_path: &str,
        max: u64,
    ) -> Result<(Option<Vec<u8>>, PathBuf), GitError> {
        let shown = PathBuf::from(format!("{}:{repo_path}", self.rev));
        Ok((self.repo.file_at(&self.rev, repo_path, max)?, shown))
    }

    /// The repository path of a path in the work tree.
    pub(crate) fn repo_path(&self, path: &Path) -> Option<String> {
        self.repo.repo_path(path)
    }

    /// The resolved folders that hold the revision's `urldb.toml` files.
    pub(crate) fn folders_in_work_tree(&self) -> Vec<PathBuf> {
        self.folders
            .iter()
            .map(|f| {
                let names: Vec<String> = if f.is_empty() {
                    Vec::new()
                } else {
                    f.split('/').map(str::to_string).collect()
                };
                self.in_work_tree(&names)
            })
            .collect()
    }
}
