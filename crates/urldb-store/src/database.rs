//! Running over a database: every file on its own thread-pool task (one
//! file in memory per thread), then the cross-file rules over the small
//! facts each file left behind.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use crate::cache::{Cache, Kept, Lookup};
use crate::discover;
use crate::git;
use crate::membership::{Members, Skip};
use crate::read::{ReadError, Root};
use urldb_core::lint::{self, Checked, Options};
use urldb_core::rules::{self, FileFacts};
use urldb_core::source::Source;

/// What to do with each file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Report findings.
    Check,
    /// Report findings left after `check --fix` (new text in `new_text`).
    Fix,
    /// Compute the canonical text (`fmt`).
    Format,
    /// Only say which files `fmt` would change (`fmt --check`): no text is
    /// kept for them, so memory does not grow with their number.
    FormatCheck,
}

/// The outcome for one file that has something to say.
#[derive(Debug)]
pub struct FileResult {
    /// The path as shown to the user.
    pub path: PathBuf,
    /// Findings and the text they point into (without the tree and the
    /// canonical text: `new_text` is what a write needs).
    pub checked: Checked,
    /// The text the file should have (fix or format), when it differs;
    /// with [`Mode::FormatCheck`] an empty string: only *that* it differs.
    pub new_text: Option<String>,
    /// Findings repaired by `--fix`.
    pub fixed: usize,
    /// The bytes as read, kept when `new_text` is set: a write goes ahead
    /// only if the file still holds them.
    pub read: Option<Vec<u8>>,
}

/// A file that could not be found, read or written: exit code 2, the run
/// goes on.
#[derive(Debug, Clone)]
pub struct FileError {
    pub path: PathBuf,
    pub problem: FileProblem,
}

impl FileError {
    /// What to tell the user after the file's name, which the line that
    /// shows it names already: a write error's own words name the file
    /// too ([`crate::write::WriteError`]), and lose that name here.
    pub fn message(&self) -> String {
        let message = self.problem.to_string();
        if !matches!(self.problem, FileProblem::Write(_)) {
            return message;
        }
        // Spelt as the store spells a path in its messages (`/` on
        // Windows too, no leading `./`).
        let shown = urldb_core::source::display_path(&self.path);
        match message.strip_prefix(&format!("{shown}: ")) {
            Some(rest) => rest.to_string(),
            None => message,
        }
    }
}

/// Why a file could not be found, read or written, its cause kept, typed,
/// until it is shown ([`FileError::message`]).
#[derive(Debug, Clone, thiserror::Error)]
pub enum FileProblem {
    /// A path named on the command line that is not there.
    #[error("no such file or directory")]
    Missing,
    /// `--staged`: a path named that git's work tree does not hold.
    #[error("not in the repository's work tree")]
    NotInWorkTree,
    /// `--staged`: a path named under which the index holds no domain file.
    #[error("no staged domain file here")]
    NoStagedFile,
    /// The file (or, with `--staged`, its blob) could not be read.
    #[error(transparent)]
    Read(std::sync::Arc<SnapshotError>),
    /// The file could not be read as records (`ls`, `export`, `add`).
    #[error(transparent)]
    Documents(std::sync::Arc<crate::documents::DocumentError>),
    /// Met while looking for files.
    #[error(transparent)]
    Walk(#[from] discover::WalkProblem),
    /// A rewrite (`fmt`, `check --fix`, `--add-suppressions`) was not
    /// written: the caller's reason.
    #[error(transparent)]
    Write(std::sync::Arc<dyn std::error::Error + Send + Sync>),
}

impl FileProblem {
    /// A rewrite not written, for `cause`.
    pub fn write(cause: impl std::error::Error + Send + Sync + 'static) -> FileProblem {
        FileProblem::Write(std::sync::Arc::new(cause))
    }
}

#[derive(Debug, Default)]
pub struct RunOutcome {
    /// Files with findings or changes, sorted by path.
    pub files: Vec<FileResult>,
    pub errors: Vec<FileError>,
    /// How many files were checked.
    pub checked: usize,
    /// How many of them the cache knew to be clean, and were not checked.
    pub cached: usize,
    /// How many of those were read to compare their bytes with the
    /// cache's (their metadata had changed).
    pub reread: usize,
    /// Every file checked or known clean, in path order, and whether the
    /// cache knew it clean (for `-v`, which lists them).
    pub visited: Vec<(PathBuf, bool)>,
}

impl RunOutcome {
    /// Take in the outcome of a run over another database: files and
    /// errors sorted by path together.
    pub fn absorb(&mut self, other: RunOutcome) {
        if self.files.is_empty() && self.errors.is_empty() {
            // The first (for one database, the only) outcome: already sorted.
            let (checked, cached, reread) = (self.checked, self.cached, self.reread);
            *self = other;
            self.checked += checked;
            self.cached += cached;
            self.reread += reread;
            return;
        }
        self.files.extend(other.files);
        self.errors.extend(other.errors);
        self.checked += other.checked;
        self.cached += other.cached;
        self.reread += other.reread;
        self.files.sort_by(|a, b| a.path.cmp(&b.path));
        self.errors.sort_by(|a, b| a.path.cmp(&b.path));
    }
}

/// Where the files' contents come from.
#[derive(Clone)]
pub enum Snapshot {
    /// The files on disk, below this root.
    WorkTree(Root),
    /// The blobs staged in the git index (`--staged`).
    Index(Arc<StagedIndex>),
}

impl std::fmt::Debug for Snapshot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Snapshot::WorkTree(_) => f.write_str("WorkTree"),
            Snapshot::Index(index) => write!(f, "Index({} files)", index.files.len()),
        }
    }
}

/// The staged domain files, by the path urldb shows for them.
pub struct StagedIndex {
    pub repo: git::Repository,
    pub files: HashMap<PathBuf, git::StagedFile>,
}

impl Snapshot {
    /// A file's bytes ([`ReadError::TooLarge`] when over `max`, not read).
    pub fn read(&self, path: &Path, max: u64) -> Result<Vec<u8>, SnapshotError> {
        match self {
            Snapshot::WorkTree(root) => Ok(read_file(root, path, max)?),
            Snapshot::Index(index) => match index.files.get(path) {
                // A thread-local handle per blob: gix's handles are not
                // `Send`, and opening one costs far less than parsing.
                Some(file) => index.repo.blobs().read(file.id, max).map_err(|e| match e {
                    git::GitError::BlobTooLarge { size } => ReadError::TooLarge { size }.into(),
                    e => SnapshotError::Git(e),
                }),
                None => Err(SnapshotError::NotStaged),
            },
        }
    }
}

/// Why a file of a snapshot could not be read.
#[derive(Debug, thiserror::Error)]
pub enum SnapshotError {
    #[error(transparent)]
    File(#[from] ReadError),
    #[error(transparent)]
    Git(#[from] git::GitError),
    #[error("not in the git index")]
    NotStaged,
}

impl SnapshotError {
    /// The size of a file over the limit asked for.
    fn too_large(&self) -> Option<u64> {
        match self {
            SnapshotError::File(ReadError::TooLarge { size }) => Some(*size),
            _ => None,
        }
    }
}

/// The set of files a run looks at.
#[derive(Debug, Clone)]
pub struct Targets {
    /// Every domain file of the database (cross-file rules see them all).
    pub all: Vec<PathBuf>,
    /// The files to check (a subset of `all`, or files named on the command line).
    pub checked: Vec<PathBuf>,
    /// No paths were named: every file is checked (and nothing needs to be
    /// matched path by path).
    pub everything: bool,
    pub errors: Vec<FileError>,
    /// Paths named on the command line that are not in the database, and
    /// why: neither read nor written (a hook may pass every YAML file of
    /// the repository).
    pub skipped: Vec<(PathBuf, Skip)>,
    /// With no paths named and no `urldb.toml`: the YAML files below the
    /// root left out because their names are no domain names.
    pub misnamed: Vec<PathBuf>,
    /// Files the walks met whose extension is `.yaml` or `.yml` in
    /// another case ([`discover::Found::miscased`]).
    pub miscased: Vec<PathBuf>,
    /// Where their contents come from.
    pub snapshot: Snapshot,
}

/// A path spelled one way for every spelling of it: its directory
/// resolved, its file name kept. A symbolic link stays distinct from its
/// target, so naming the link never selects (and rewrites) the target.
fn canonical_name(p: &Path) -> PathBuf {
    let dir = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    match (dunce::canonicalize(dir), p.file_name()) {
        (Ok(dir), Some(name)) => dir.join(name),
        _ => p.to_path_buf(),
    }
}

/// Resolve `paths` (files or directories; none = the whole database):
/// the members of the database ([`Members`]); a named path that is not one
/// is skipped, with the reason.
pub fn targets(members: &Members, paths: &[PathBuf]) -> Targets {
    if paths.is_empty() {
        return whole(members);
    }
    let mut named = Named::default();
    for p in paths {
        named.judge(members, p, p.is_dir());
    }
    named.into_targets(members)
}

/// Every file of the database, with the YAML files its names leave out.
pub(crate) fn whole(members: &Members) -> Targets {
    let found = discover::find_files(members);
    Targets {
        checked: found.files.clone(),
        all: found.files,
        everything: true,
        errors: found.errors.into_iter().map(FileError::from).collect(),
        skipped: Vec::new(),
        misnamed: found.misnamed,
        miscased: found.miscased,
        snapshot: Snapshot::WorkTree(members.root().clone()),
    }
}

/// The paths named for one database, judged one by one.
#[derive(Debug, Default)]
pub(crate) struct Named {
    pub(crate) checked: Vec<PathBuf>,
    pub(crate) errors: Vec<FileError>,
    pub(crate) skipped: Vec<(PathBuf, Skip)>,
    /// Folders met below a named directory that hold a `urldb.toml` of
    /// their own, with it: other databases.
    pub(crate) governed: Vec<(PathBuf, PathBuf)>,
    /// Files below a named directory whose `.yaml` is in another case.
    pub(crate) miscased: Vec<PathBuf>,
    /// A named directory is the root or holds it: every file of the
    /// database, as its own walk found them (`checked` then holds only
    /// the files named besides).
    pub(crate) whole: Option<Vec<PathBuf>>,
}

impl Named {
    /// Judge the named path `p` (`is_dir`: a folder, links followed) by
    /// `members`: a directory walked (every member when it holds the
    /// root), a file admitted or skipped.
    pub(crate) fn judge(&mut self, members: &Members, p: &Path, is_dir: bool) {
        if is_dir {
            match discover::find_named(members, p) {
                // The whole database again: walked once.
                Ok((_, true)) if self.whole.is_some() => {}
                Ok((sub, whole)) => {
                    self.errors
                        .extend(sub.errors.into_iter().map(FileError::from));
                    if whole {
                        self.whole = Some(sub.files);
                    } else {
                        self.checked.extend(sub.files);
                    }
                    self.governed.extend(sub.governed);
                    self.miscased.extend(sub.miscased);
                }
                Err(skip) => self.skipped.push((p.to_path_buf(), skip)),
            }
        } else if p.exists() || p.is_symlink() {
            match members.of(p) {
                Ok(()) => self.checked.push(p.to_path_buf()),
                Err(skip) => self.skipped.push((p.to_path_buf(), skip)),
            }
        } else {
            self.errors.push(FileError {
                path: p.to_path_buf(),
                problem: FileProblem::Missing,
            });
        }
    }

    /// The targets: these files checked, every member of the database seen
    /// by the cross-file rules.
    pub(crate) fn into_targets(mut self, members: &Members) -> Targets {
        let whole = self.whole.take();
        let everything = whole.is_some();
        // Nothing named is in the database: nothing to check, and no other
        // file's facts to read. A named folder that holds the root has
        // walked the database already.
        let found = match whole {
            Some(files) => discover::Found {
                files,
                ..Default::default()
            },
            None if self.checked.is_empty() => discover::Found::default(),
            None => discover::find_files(members),
        };
        let mut errors: Vec<FileError> = found.errors.into_iter().map(FileError::from).collect();
        errors.extend(self.errors);
        if everything && self.checked.is_empty() {
            return Targets {
                checked: found.files.clone(),
                all: found.files,
                everything,
                errors,
                skipped: self.skipped,
                misnamed: Vec::new(),
                miscased: self.miscased,
                snapshot: Snapshot::WorkTree(members.root().clone()),
            };
        }
        let mut all = found.files;
        // A member the walk did not find (reached through a linked directory
        // inside the root) still counts for the cross-file rules.
        let canon = |p: &Path| canonical_name(p);
        let known: std::collections::HashSet<PathBuf> = all.iter().map(|p| canon(p)).collect();
        // A file named and also met in a named folder's walk is checked
        // once.
        let mut seen = std::collections::HashSet::new();
        let mut checked = Vec::with_capacity(self.checked.len());
        for p in self.checked {
            let name = canon(&p);
            if !seen.insert(name.clone()) {
                continue;
            }
            if !known.contains(&name) {
                all.push(p.clone());
            }
            checked.push(p);
        }
        // The whole database, and files named besides it (through a
        // linked folder inside the root): every one checked.
        let checked = if everything { all.clone() } else { checked };
        Targets {
            all,
            checked,
            everything,
            errors,
            skipped: self.skipped,
            misnamed: Vec::new(),
            miscased: self.miscased,
            snapshot: Snapshot::WorkTree(members.root().clone()),
        }
    }
}

impl From<discover::WalkError> for FileError {
    fn from(e: discover::WalkError) -> FileError {
        FileError {
            path: e.path,
            problem: FileProblem::Walk(e.problem),
        }
    }
}

/// The staged domain files of the database (`--staged`): the index's
/// blobs are read instead of the work tree, for every file, so cross-file
/// rules see the staged state too. `paths`: the named paths (`None`: the
/// whole database); a named path that is not in the database is skipped,
/// with the reason, as in the work tree.
pub fn staged_targets(
    repo: git::Repository,
    members: &Members,
    paths: Option<&[PathBuf]>,
) -> Result<Targets, git::GitError> {
    let staged = repo.staged(members)?;
    let all: Vec<PathBuf> = staged.iter().map(|f| f.path.clone()).collect();
    let mut errors = Vec::new();
    let mut skipped = Vec::new();
    let checked = match paths {
        None => all.clone(),
        Some(paths) => {
            let mut checked = Vec::new();
            for p in paths {
                let judged = if p.is_dir() {
                    match members.dir(p) {
                        Err(Skip::Outside { .. }) if members.below(p) => Ok(()),
                        judged => judged.map(|_| ()),
                    }
                } else {
                    members.of(p)
                };
                if let Err(skip) = judged {
                    skipped.push((p.clone(), skip));
                    continue;
                }
                let Some(wanted) = repo.repo_path(p) else {
                    errors.push(FileError {
                        path: p.clone(),
                        problem: FileProblem::NotInWorkTree,
                    });
                    continue;
                };
                let before = checked.len();
                checked.extend(
                    staged
                        .iter()
                        .filter(|f| {
                            f.repo_path == wanted
                                || wanted.is_empty()
                                || f.repo_path.starts_with(&format!("{wanted}/"))
                        })
                        .map(|f| f.path.clone()),
                );
                if checked.len() == before {
                    errors.push(FileError {
                        path: p.clone(),
                        problem: FileProblem::NoStagedFile,
                    });
                }
            }
            checked
        }
    };
    let files = staged.into_iter().map(|f| (f.path.clone(), f)).collect();
    Ok(Targets {
        everything: paths.is_none(),
        all,
        checked,
        errors,
        skipped,
        misnamed: Vec::new(),
        miscased: Vec::new(),
        snapshot: Snapshot::Index(Arc::new(StagedIndex { repo, files })),
    })
}

/// Keep only the files changed between `rev` and the work tree (`--since`);
/// cross-file rules still see every file.
pub fn changed_since(
    targets: &mut Targets,
    repo: &git::Repository,
    rev: &str,
) -> Result<(), git::GitError> {
    let root = match &targets.snapshot {
        Snapshot::WorkTree(root) => Some(root),
        Snapshot::Index(_) => None,
    };
    targets.checked = repo.changed_since(root, rev, &targets.checked)?;
    targets.everything = false;
    Ok(())
}

/// Keep shard `k` of `n` (1-based) of the files to check: every `n`-th
/// file of the sorted list, so CI matrix jobs split the work evenly and
/// the same way on every run.
pub fn shard(targets: &mut Targets, k: usize, n: usize) {
    let mut checked = std::mem::take(&mut targets.checked);
    checked.sort();
    targets.checked = checked
        .into_iter()
        .enumerate()
        .filter(|(i, _)| i % n == k - 1)
        .map(|(_, p)| p)
        .collect();
    targets.everything = false;
}

/// Read a domain file by the read policy ([`crate::read`]): a regular
/// file inside the database root, `Ok(Err(size))` when it is over `max`
/// (not read beyond the limit).
pub fn read_file(root: &Root, path: &Path, max: u64) -> Result<Vec<u8>, ReadError> {
    crate::read::read_limited(path, max, Some(root))
}

/// Check (or fix, or format) the targets. With a `cache`, files that were
/// clean and have not changed are skipped, and the cache is updated.
pub fn run(targets: &Targets, options: &Options, mode: Mode, cache: Option<Cache>) -> RunOutcome {
    let checked_set: std::collections::HashSet<PathBuf> = if targets.everything {
        Default::default()
    } else {
        targets.checked.iter().map(|p| canonical_name(p)).collect()
    };
    let cross_file = !matches!(mode, Mode::Format | Mode::FormatCheck);
    // The cache describes files on disk, not staged blobs.
    let cache = cache.filter(|_| matches!(targets.snapshot, Snapshot::WorkTree(_)));

    let pass = Pass {
        targets,
        options,
        mode,
        cache: cache.as_ref(),
        checked_set: &checked_set,
        cross_file,
    };
    let per_file: Vec<PerFile> = targets.all.par_iter().map(|path| pass.file(path)).collect();

    let mut outcome = RunOutcome::default();
    outcome.errors.extend(targets.errors.iter().cloned());
    let mut facts = Vec::new();
    let mut looked_at = Vec::new();
    let mut entries = Vec::new();
    for (path, pf) in targets.all.iter().zip(per_file) {
        if pf.checked && pf.error.is_none() {
            outcome.visited.push((path.clone(), pf.cached));
        }
        outcome.checked += usize::from(pf.checked && pf.error.is_none());
        outcome.cached += usize::from(pf.checked && pf.cached);
        outcome.reread += usize::from(pf.checked && pf.reread);
        if let Some(e) = pf.error {
            outcome.errors.push(e);
        }
        if let Some(f) = pf.facts {
            facts.push(f);
        }
        if let Some(r) = pf.result {
            outcome.files.push(r);
        }
        if let (true, Some(key)) = (pf.checked, pf.key) {
            if let Some(entry) = pf.entry {
                entries.push((key.clone(), entry));
            }
            looked_at.push(key);
        }
    }
    if let Some(cache) = cache {
        cache.save(entries, &looked_at, targets.everything);
    }
    if cross_file {
        add_cross_file(&mut outcome, &facts, options, &targets.snapshot);
    }
    outcome.files.sort_by(|a, b| a.path.cmp(&b.path));
    outcome.errors.sort_by(|a, b| a.path.cmp(&b.path));
    outcome
}

/// One run over the files: what every file's task needs to know.
struct Pass<'a> {
    targets: &'a Targets,
    options: &'a Options,
    mode: Mode,
    cache: Option<&'a Cache>,
    /// The files to check, by [`canonical_name`] (empty: every file).
    checked_set: &'a std::collections::HashSet<PathBuf>,
    /// The cross-file rules run: files not checked still give their facts.
    cross_file: bool,
}

impl Pass<'_> {
    /// One file's task: from the cache when it knows the file clean, else
    /// read, checked (or formatted) and, when clean, remembered.
    fn file(&self, path: &Path) -> PerFile {
        let is_checked =
            self.targets.everything || self.checked_set.contains(&canonical_name(path));
        if !is_checked && !self.cross_file {
            return PerFile::default();
        }
        let cache = self.cache;
        let (targets, options, mode, cross_file) =
            (self.targets, self.options, self.mode, self.cross_file);
        let key = cache.and_then(|c| c.key(path));
        let (stat, known) = match (cache, &key) {
            (Some(cache), Some(key)) => match cache.lookup(key, path) {
                Lookup::Clean(entry, line) => {
                    return PerFile::cached(path, key, entry.cnames, Kept::Line(line), is_checked);
                }
                Lookup::Read { stat, entry } => (stat, entry),
            },
            _ => (None, None),
        };
        let raw = match targets.snapshot.read(path, options.settings.max_file_size) {
            Err(e) if e.too_large().is_some() => {
                let size = e.too_large().unwrap_or_default();
                let checked = lint::too_large(path, size, options);
                let result = is_checked.then(|| FileResult {
                    path: path.to_path_buf(),
                    checked,
                    new_text: None,
                    fixed: 0,
                    read: None,
                });
                return PerFile {
                    result,
                    checked: is_checked,
                    key: key.clone(),
                    ..PerFile::default()
                };
            }
            Err(e) => {
                return PerFile {
                    error: Some(FileError {
                        path: path.to_path_buf(),
                        problem: FileProblem::Read(std::sync::Arc::new(e)),
                    }),
                    checked: is_checked,
                    key: key.clone(),
                    ..PerFile::default()
                };
            }
            Ok(raw) => raw,
        };
        // Hashed once, when the cache has a use for it.
        let mut hash = None;
        if let (Some(cache), Some(key), Some(entry)) = (cache, &key, known) {
            let content = crate::cache::content_hash(&raw);
            if entry.matches(&content) {
                // Touched, not changed: still clean, with new metadata.
                let fresh = cache.entry(content, stat, entry.cnames.clone());
                return PerFile {
                    reread: true,
                    ..PerFile::cached(path, key, entry.cnames, Kept::New(fresh), is_checked)
                };
            }
            hash = Some(content);
        }
        if !is_checked {
            // Not checked: only its metadata matters, for cross-file rules.
            let text = String::from_utf8_lossy(&raw);
            return PerFile {
                facts: Some(lint::facts(path, &text, false)),
                ..PerFile::default()
            };
        }
        let processed = process_with_facts(path, &raw, options, mode, cross_file);
        let entry = match cache {
            Some(cache) if processed.clean => {
                let cnames = processed
                    .facts
                    .as_ref()
                    .map(|f| f.cnames.clone())
                    .unwrap_or_default();
                let hash = hash.unwrap_or_else(|| crate::cache::content_hash(&raw));
                Some(Kept::New(cache.entry(hash, stat, cnames)))
            }
            _ => None,
        };
        PerFile {
            result: processed.result,
            facts: processed.facts,
            checked: true,
            key,
            entry,
            ..PerFile::default()
        }
    }
}

/// What one file's task leaves behind.
#[derive(Default)]
struct PerFile {
    result: Option<FileResult>,
    facts: Option<FileFacts>,
    error: Option<FileError>,
    checked: bool,
    /// Skipped: the cache knew it clean.
    cached: bool,
    /// Cached, but read again to compare its bytes (its metadata changed).
    reread: bool,
    /// Its key in the cache, when it has one.
    key: Option<String>,
    /// Its cache entry (the last run's, or a new one), when it is clean.
    entry: Option<Kept>,
}

impl PerFile {
    /// A clean file known to the cache: nothing to report, only its facts.
    fn cached(
        path: &Path,
        key: &str,
        cnames: Vec<(String, urldb_core::source::Span)>,
        entry: Kept,
        checked: bool,
    ) -> PerFile {
        PerFile {
            facts: Some(FileFacts {
                path: path.to_path_buf(),
                domain: rules::domain_of(path),
                cnames,
                checked,
            }),
            checked,
            cached: true,
            key: Some(key.to_string()),
            entry: Some(entry),
            ..PerFile::default()
        }
    }
}

/// Check one file's text (from disk or stdin) in the given mode. `None`
/// when there is nothing to report or change.
pub fn process(path: &Path, raw: &[u8], options: &Options, mode: Mode) -> Option<FileResult> {
    process_with_facts(path, raw, options, mode, false).result
}

struct Processed {
    result: Option<FileResult>,
    facts: Option<FileFacts>,
    /// No finding, nothing to block a rewrite, and already canonical: the
    /// cache may skip it next time.
    clean: bool,
}

/// [`process`], and the file's cross-file facts when `want_facts`: taken
/// from the documents just parsed, so the file is not parsed twice.
fn process_with_facts(
    path: &Path,
    raw: &[u8],
    options: &Options,
    mode: Mode,
    want_facts: bool,
) -> Processed {
    let checked = lint::check_file(path, raw, options);
    // A file with suppressed findings is not clean: SARIF shows them.
    let clean = checked.findings.is_empty()
        && checked.suppressed.is_empty()
        && checked.blocked_by.is_none()
        && checked.canonical.as_deref() == Some(checked.source.text.as_str());
    let facts = want_facts.then(|| match checked.documents.parsed() {
        Some(docs) => lint::facts_of(path, docs, true),
        // A file that did not parse to the end may still have metadata.
        None => lint::facts(path, &checked.source.text, true),
    });
    let (checked, new_text, fixed) = match mode {
        Mode::Check => (checked, None, 0),
        Mode::Format => {
            let new_text = checked
                .canonical
                .clone()
                .filter(|c| *c != checked.source.text);
            (checked, new_text, 0)
        }
        Mode::FormatCheck => {
            let changes = checked
                .canonical
                .as_ref()
                .is_some_and(|c| *c != checked.source.text);
            (checked, changes.then(String::new), 0)
        }
        Mode::Fix => {
            let fixed = lint::fix(checked, options);
            (fixed.after, fixed.text, fixed.fixed)
        }
    };
    let interesting = match mode {
        Mode::Format | Mode::FormatCheck => new_text.is_some() || checked.blocked_by.is_some(),
        _ => !checked.findings.is_empty() || !checked.suppressed.is_empty() || new_text.is_some(),
    };
    let read = (new_text.is_some() && mode != Mode::FormatCheck).then(|| raw.to_vec());
    // A result waits for the end of the run: keep what the report and the
    // write need, not the tree (several times the text's size).
    let mut checked = checked;
    checked.documents.let_go();
    checked.canonical = None;
    if mode == Mode::FormatCheck && checked.blocked_by.is_none() {
        // Nothing of its text is shown: only its name.
        checked.source.text = String::new();
    }
    let result = interesting.then(|| FileResult {
        path: path.to_path_buf(),
        checked,
        new_text,
        fixed,
        read,
    });
    Processed {
        result,
        facts,
        clean,
    }
}

/// Run the cross-file rules (`urldb_core::lint::across`) and give each
/// file its findings, finished with its own: a file that had no result
/// (it was clean) gets one, its text read again to show. Linear in the
/// findings (`docs/security.md` §8): a file is found by its index, and
/// each file's findings are sorted once.
fn add_cross_file(
    outcome: &mut RunOutcome,
    facts: &[FileFacts],
    options: &Options,
    snapshot: &Snapshot,
) {
    let across = lint::across(facts);
    if across.files().is_empty() {
        return;
    }
    // Where each file's result is, by its path, then by its index in `facts`.
    let by_path: HashMap<PathBuf, usize> = outcome
        .files
        .iter()
        .enumerate()
        .map(|(i, r)| (r.path.clone(), i))
        .collect();
    let mut result_of: HashMap<usize, usize> = HashMap::with_capacity(across.files().len());
    let mut made = Vec::new();
    for &file in across.files() {
        let Some(facts) = facts.get(file) else {
            continue;
        };
        let index = match by_path.get(&facts.path) {
            Some(&index) => index,
            None => {
                made.push(outcome.files.len());
                new_result(outcome, &facts.path, snapshot)
            }
        };
        result_of.insert(file, index);
    }
    let files = &outcome.files;
    let finished = across.finish(facts, options, |file| {
        result_of
            .get(&file)
            .map_or("", |&index| files[index].checked.source.text.as_str())
    });
    for (file, finished) in finished {
        if let Some(&index) = result_of.get(&file) {
            outcome.files[index].checked.add_across(finished);
        }
    }
    // A clean file whose cross-file findings were all turned off has
    // nothing to say after all.
    for index in made.into_iter().rev() {
        let checked = &outcome.files[index].checked;
        if checked.findings.is_empty() && checked.suppressed.is_empty() {
            outcome.files.swap_remove(index);
        }
    }
}

/// A result for a file that had none (it was clean), to hold its
/// cross-file findings: its text read again, to show. Its index.
fn new_result(outcome: &mut RunOutcome, path: &Path, snapshot: &Snapshot) -> usize {
    let text = match snapshot.read(path, u64::MAX) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        _ => String::new(),
    };
    outcome.files.push(FileResult {
        path: path.to_path_buf(),
        checked: Checked {
            source: Source::new(path, text),
            // A file left without a result had nothing to report: it
            // parsed, and its tree is gone.
            documents: lint::Documents::Dropped,
            findings: Vec::new(),
            suppressed: Vec::new(),
            blocked_by: None,
            canonical: None,
        },
        new_text: None,
        fixed: 0,
        read: None,
    });
    outcome.files.len() - 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_check_keeps_only_which_files_change() {
        let dir = tempfile::tempdir().expect("tempdir");
        let unsorted = "---\n---\ncontent-type: text/html\n_path: /a\n";
        std::fs::write(dir.path().join("a.example.yaml"), unsorted).expect("write");
        let root = Root::new(dir.path()).expect("root");
        let targets = targets(&Members::new(root, &[], false).expect("members"), &[]);
        let options = Options::default();
        let format = run(&targets, &options, Mode::Format, None);
        let check = run(&targets, &options, Mode::FormatCheck, None);
        let (f, c) = (&format.files[0], &check.files[0]);
        assert!(
            f.new_text
                .as_deref()
                .is_some_and(|t| t.starts_with("---\n---\n_path"))
        );
        assert_eq!(f.read.as_deref(), Some(unsorted.as_bytes()));
        assert_eq!(c.new_text.as_deref(), Some(""));
        assert_eq!(c.read, None);
        assert!(c.checked.source.text.is_empty());
    }
}
