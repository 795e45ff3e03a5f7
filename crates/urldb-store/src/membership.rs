//! Which files belong to the database: the one rule, for every way a file
//! reaches urldb (the walk of the database, paths named on the command
//! line, `--staged`, `--since`, `--stdin-filename`, the language server).
//! `docs/files.md` ("Which files are in the database") states it for users.
//!
//! A file is a member when it lies below the database root (its directory
//! resolved), no name on the way down from the root is hidden (`.name`)
//! or matched by an `exclude` glob, its name ends in `.yaml` or `.yml`,
//! and — when no `urldb.toml` and no `--db` say where the database is —
//! its name is a domain name with a dot (`example.com.yaml`, not
//! `mkdocs.yml`). Without `urldb.toml` the root itself is found by
//! [`guess`]: the one folder below the current directory that holds the
//! files named like domain files.

use std::collections::{HashMap, HashSet};
use std::ffi::OsStr;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use globset::GlobSet;
use urldb_core::config::{BadExclude, FILE_NAME};

use crate::read::Root;

/// The files of one database: its root and the rule that admits a file.
#[derive(Debug, Clone)]
pub struct Members {
    root: Root,
    exclude: GlobSet,
    /// The `exclude` globs as written, to say which one matched.
    exclude_globs: Vec<String>,
    /// No `urldb.toml` and no `--db`: only files whose names are domain
    /// names with a dot are members (the root is a guess).
    by_name: bool,
    /// Which folders below the root are other databases.
    nested: Nested,
}

/// The folders below a database's root that hold a `urldb.toml` of their
/// own: each is another database, and the walk stops there, as at a
/// nested repository (`docs/files.md`, "One configuration per file").
#[derive(Debug, Clone, Default)]
pub enum Nested {
    /// A folder with `urldb.toml` on disk.
    #[default]
    OnDisk,
    /// These folders (resolved), which hold a `urldb.toml` in the revision
    /// the configurations are read from (`--config-from`): what the work
    /// tree holds does not count.
    Listed(Arc<HashSet<PathBuf>>),
    /// None: `--config FILE` governs every file.
    Never,
}

impl Nested {
    /// The configuration of its own that the folder at `dir` (as walked)
    /// holds; `resolved` gives its resolved path, asked for only by a list.
    pub(crate) fn config_at(
        &self,
        dir: &Path,
        resolved: impl FnOnce() -> PathBuf,
    ) -> Option<PathBuf> {
        match self {
            Nested::OnDisk => holds_config(dir).then(|| dir.join(FILE_NAME)),
            Nested::Listed(dirs) => dirs.contains(&resolved()).then(|| dir.join(FILE_NAME)),
            Nested::Never => None,
        }
    }
}

/// Why a file is not a member of the database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Skip {
    /// Its directory, resolved, is not below the database root.
    Outside { root: PathBuf },
    /// A name on the way down from the root (or its own) starts with a dot.
    Hidden { name: String },
    /// An `exclude` glob of `urldb.toml` matches it or a directory above it.
    Excluded { glob: String },
    /// Its name does not end in `.yaml` or `.yml`.
    NotYaml,
    /// Its name is not taken for a domain file's: why in [`NameShape`].
    NoDomainName(NameShape),
    /// A folder on the way down from the root holds a `urldb.toml` of its
    /// own, this one: the file is that database's.
    Governed { config: PathBuf },
}

impl std::fmt::Display for Skip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Skip::Outside { root } => write!(f, "outside the database root `{}`", shown_dir(root)),
            Skip::Hidden { name } => write!(f, "hidden name `{name}`"),
            Skip::Excluded { glob } => write!(f, "excluded by `exclude` glob `{glob}`"),
            Skip::NotYaml => f.write_str("not a `.yaml` file"),
            Skip::NoDomainName(shape) => write!(f, "{}", shape.reason()),
            Skip::Governed { config } => {
                write!(f, "governed by {}", urldb_core::source::shown_path(config))
            }
        }
    }
}

/// Why a YAML file's name is not read as a domain file's
/// (`docs/files.md`, "Which files are in the database").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameShape {
    /// `example.net.yml`: a domain name, but `.yml`, which a domain file
    /// has only by mistake; left out only without `urldb.toml`.
    Yml,
    /// `localhost.yaml`: a single label, which an intranet host's file
    /// has; left out only without `urldb.toml`.
    SingleLabel,
    /// `mkdocs.yml`: a single label *and* `.yml`, the shape of a
    /// project's own file (`environment.yml`, `action.yml`); left out of
    /// every database, `urldb.toml` or not, as `urldb init` leaves it.
    ProjectFile,
}

impl NameShape {
    /// What a note says of a file left out for it.
    pub fn reason(self) -> &'static str {
        match self {
            NameShape::Yml => {
                "no urldb.toml, and its name ends in `.yml`: a domain file is `<domain>.yaml`"
            }
            NameShape::SingleLabel => {
                "no urldb.toml, and its name is a single label: a domain file is \
                 `<domain>.yaml`, with a dot"
            }
            NameShape::ProjectFile => {
                "its name is a single label ending in `.yml`, as a project's own files are named: \
                 a domain file is `<domain>.yaml`"
            }
        }
    }

    /// The few words a list of left-out files gives each.
    pub fn short(self) -> &'static str {
        match self {
            NameShape::Yml => "`.yml`, not `.yaml`",
            NameShape::SingleLabel => "a single label",
            NameShape::ProjectFile => "a project's own file",
        }
    }
}

/// The folder at `dir` holds a `urldb.toml` (a file, or anything of that
/// name, which reading then refuses: passed over, it would leave the
/// configuration the user meant silently unread).
pub(crate) fn holds_config(dir: &Path) -> bool {
    dir.join(FILE_NAME).symlink_metadata().is_ok()
}

/// A directory as notes show it (`.` for the current directory).
pub fn shown_dir(dir: &Path) -> String {
    let shown = urldb_core::source::display_path(dir);
    if shown.is_empty() {
        ".".to_string()
    } else {
        shown
    }
}

impl Members {
    /// The members of the database at `root`: `exclude` its globs (relative
    /// to the root), `by_name` when no `urldb.toml` and no `--db` named it.
    pub fn new(root: Root, exclude: &[String], by_name: bool) -> Result<Members, BadExclude> {
        Ok(Members {
            exclude: urldb_core::config::exclude_set(exclude)?,
            exclude_globs: exclude.to_vec(),
            root,
            by_name,
            nested: Nested::default(),
        })
    }

    /// These members, with the folders that are other databases `nested`.
    pub fn with_nested(self, nested: Nested) -> Members {
        Members { nested, ..self }
    }

    /// The configuration of its own that the folder `dir` below the root
    /// holds (`rel` below the root), when it is another database's.
    pub(crate) fn nested_at(&self, dir: &Path, rel: &Path) -> Option<PathBuf> {
        self.nested
            .config_at(dir, || self.root.resolved().join(rel))
    }

    /// The configuration of a folder on the way down from the root to
    /// `rel_dir` (below the root; the root itself not counted) that holds
    /// one of its own; `memo` keeps each folder's answer, so that the
    /// entries of a git index cost one look per folder.
    pub(crate) fn governed_below(
        &self,
        rel_dir: &Path,
        memo: &mut HashMap<PathBuf, Option<PathBuf>>,
    ) -> Option<PathBuf> {
        if rel_dir.as_os_str().is_empty() || matches!(self.nested, Nested::Never) {
            return None;
        }
        if let Some(known) = memo.get(rel_dir) {
            return known.clone();
        }
        let above = rel_dir
            .parent()
            .and_then(|parent| self.governed_below(parent, memo));
        let answer = above.or_else(|| self.nested_at(&self.root.join(rel_dir), rel_dir));
        memo.insert(rel_dir.to_path_buf(), answer.clone());
        answer
    }

    /// [`Members::of`], and no folder between the root and the file holds
    /// a `urldb.toml` of its own (the language server's one document; a
    /// run finds each file's configuration first, once per folder).
    pub fn of_governed(&self, path: &Path) -> Result<(), Skip> {
        let rel = self.below_root(&resolve_parent(path))?;
        if let Some(config) = rel
            .parent()
            .and_then(|dir| self.governed_below(dir, &mut HashMap::new()))
        {
            return Err(Skip::Governed { config });
        }
        self.of_relative(&rel)
    }

    pub fn root(&self) -> &Root {
        &self.root
    }

    /// Only files named like domain files are members (no `urldb.toml`).
    pub fn by_name(&self) -> bool {
        self.by_name
    }

    /// Is the file at `path` (relative to the current directory or
    /// absolute; it need not exist) a member? Its directory is resolved, so
    /// every spelling of a path gets one answer; a symbolic link is judged
    /// by its own place (the read policy refuses one that leads out).
    pub fn of(&self, path: &Path) -> Result<(), Skip> {
        let rel = self.below_root(&resolve_parent(path))?;
        self.of_relative(&rel)
    }

    /// Is the directory at `dir` (resolved whole: a link to a directory is
    /// judged by where it leads) the root or a directory inside it whose
    /// files may be members? Its path below the root when it is.
    pub fn dir(&self, dir: &Path) -> Result<PathBuf, Skip> {
        let resolved = dunce::canonicalize(dir).unwrap_or_else(|_| resolve_parent(dir));
        let rel = self.below_root(&resolved)?;
        let mut so_far = PathBuf::new();
        for name in names(&rel) {
            so_far.push(name);
            self.entry(name, &so_far)?;
        }
        if let Some(config) = self.governed_below(&rel, &mut HashMap::new()) {
            return Err(Skip::Governed { config });
        }
        Ok(rel)
    }

    /// Does the directory at `dir` hold the root (`urldb check .` at the
    /// top of a repository whose database is a folder in it)? Then the
    /// members below it are every member.
    pub fn below(&self, dir: &Path) -> bool {
        dunce::canonicalize(dir).is_ok_and(|d| self.root.resolved().starts_with(d))
    }

    /// Is the file at `rel` (below the root, e.g. an index entry's path
    /// with the root's prefix taken off) a member?
    pub fn of_relative(&self, rel: &Path) -> Result<(), Skip> {
        let mut so_far = PathBuf::new();
        let mut last = None;
        for name in names(rel) {
            so_far.push(name);
            self.entry(name, &so_far)?;
            last = Some(name);
        }
        match last {
            Some(name) => self.file_name(name),
            None => Err(Skip::NotYaml),
        }
    }

    /// One name on the way down from the root (`rel` is the path so far):
    /// a hidden name or an excluded path keeps out everything below it.
    pub(crate) fn entry(&self, name: &OsStr, rel: &Path) -> Result<(), Skip> {
        self.entry_at(name, || rel.to_path_buf())
    }

    /// [`Members::entry`], the path so far made only when an `exclude`
    /// glob needs it (a walk meets every file of the database).
    pub(crate) fn entry_at(&self, name: &OsStr, rel: impl FnOnce() -> PathBuf) -> Result<(), Skip> {
        if name.as_encoded_bytes().first() == Some(&b'.') {
            return Err(Skip::Hidden {
                name: name.to_string_lossy().into_owned(),
            });
        }
        if !self.exclude.is_empty()
            && let Some(&i) = self.exclude.matches(rel()).first()
        {
            return Err(Skip::Excluded {
                glob: self.exclude_globs.get(i).cloned().unwrap_or_default(),
            });
        }
        Ok(())
    }

    /// A file's own name: a YAML file, and without `urldb.toml` a domain name.
    pub(crate) fn file_name(&self, name: &OsStr) -> Result<(), Skip> {
        file_name(Path::new(name), self.by_name)
    }

    /// `resolved` below the resolved root, or why not.
    fn below_root(&self, resolved: &Path) -> Result<PathBuf, Skip> {
        resolved
            .strip_prefix(self.root.resolved())
            .map(Path::to_path_buf)
            .map_err(|_| Skip::Outside {
                root: self.root.to_path_buf(),
            })
    }
}

/// The normal names of a relative path.
fn names(rel: &Path) -> impl Iterator<Item = &OsStr> {
    rel.components().filter_map(|c| match c {
        Component::Normal(name) => Some(name),
        _ => None,
    })
}

/// The part of the rule a file's name decides alone: a YAML file, and
/// when `by_name` (no `urldb.toml`, no `--db`) a domain name. A file it
/// refuses is no member of any database, wherever the root is.
pub fn file_name(path: &Path, by_name: bool) -> Result<(), Skip> {
    if !has_yaml_extension(path) {
        return Err(Skip::NotYaml);
    }
    match name_shape(path) {
        Some(shape @ NameShape::ProjectFile) => Err(Skip::NoDomainName(shape)),
        Some(shape) if by_name => Err(Skip::NoDomainName(shape)),
        _ => Ok(()),
    }
}

/// Why the YAML file at `path` is not named as a domain file is
/// (`example.com.yaml`), if it is not; `None` for a name that is not
/// YAML at all.
pub fn name_shape(path: &Path) -> Option<NameShape> {
    let name = yaml_name(path)?;
    let stem = stem_of(name)?;
    let yml = name.ends_with(b".yml");
    match (stem.contains(&b'.'), yml) {
        (true, false) => None,
        (true, true) => Some(NameShape::Yml),
        (false, false) => Some(NameShape::SingleLabel),
        (false, true) => Some(NameShape::ProjectFile),
    }
}

/// `*.yaml` or `*.yml`, as Windows reads the name: dots and spaces at its
/// end dropped, so that `example.com.yaml.` (which Git for Windows cannot
/// check out) is a member, and `windows-reserved-name` says so.
pub fn has_yaml_extension(path: &Path) -> bool {
    yaml_stem(path).is_some()
}

/// The file name before `.yaml` or `.yml`, read as Windows reads it.
fn yaml_stem(path: &Path) -> Option<&[u8]> {
    stem_of(yaml_name(path)?)
}

/// A name (as [`yaml_name`] gives it) without its `.yaml` or `.yml`.
fn stem_of(name: &[u8]) -> Option<&[u8]> {
    name.strip_suffix(b".yaml")
        .or_else(|| name.strip_suffix(b".yml"))
}

/// `example.com.yaml`: the name ends in `.yaml` and, without it, has a
/// dot, as a domain name does (`mkdocs.yml`, `readthedocs.yml` have none).
/// A single label (`localhost.yaml`) is a valid domain file name in a
/// database that `urldb.toml` or `--db` names, but cannot be told from a
/// project's own YAML file by its name; nor can a `.yml` name
/// (`docker-compose.prod.yml`), which a domain file has only by mistake
/// (`wrong-extension`).
pub fn has_domain_name(path: &Path) -> bool {
    path.file_name().is_some_and(is_domain_name)
}

/// [`has_domain_name`] of a file name.
fn is_domain_name(file_name: &std::ffi::OsStr) -> bool {
    trimmed(file_name.as_encoded_bytes()).is_some_and(|name| {
        stem_of(name).is_some_and(|stem| stem.contains(&b'.')) && !name.ends_with(b".yml")
    })
}

/// The file name with the dots and spaces Windows drops from its end
/// dropped.
fn yaml_name(path: &Path) -> Option<&[u8]> {
    trimmed(path.file_name()?.as_encoded_bytes())
}

/// A file name without the dots and spaces Windows drops from its end.
fn trimmed(name: &[u8]) -> Option<&[u8]> {
    let end = name.iter().rposition(|&b| b != b'.' && b != b' ')? + 1;
    Some(&name[..end])
}

/// `path` with its directory resolved (its file name kept): the nearest
/// existing ancestor is resolved and the rest joined to it as written
/// (`..` taking a name off), so a file that does not exist yet (an
/// editor's new buffer) is judged where it would be.
pub(crate) fn resolve_parent(path: &Path) -> PathBuf {
    let absolute = if path.is_absolute() {
        path.to_path_buf()
    } else {
        match std::env::current_dir() {
            Ok(cwd) => cwd.join(path),
            Err(_) => path.to_path_buf(),
        }
    };
    let (dir, name) = match (absolute.parent(), absolute.file_name()) {
        (Some(dir), Some(name)) => (dir, name),
        _ => return absolute,
    };
    let mut rest = Vec::new();
    let mut existing = dir;
    let base = loop {
        if let Ok(resolved) = dunce::canonicalize(existing) {
            break resolved;
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(last)) => {
                rest.push(last);
                existing = parent;
            }
            _ => break existing.to_path_buf(),
        }
    };
    let mut resolved = base;
    for part in rest.iter().rev() {
        if *part == ".." {
            resolved.pop();
        } else if *part != "." {
            resolved.push(part);
        }
    }
    resolved.push(name);
    resolved
}

/// A folder that could be the database: it holds files named like domain
/// files (directly or in its subfolders).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub dir: PathBuf,
    /// How many files named like domain files are in it.
    pub files: usize,
    /// The first of them, to show.
    pub example: PathBuf,
}

/// Candidates for a message: each folder with its one file or its number
/// of files, the first five of them (a repository of test fixtures may
/// have hundreds).
pub fn candidates_text(candidates: &[Candidate]) -> String {
    use urldb_core::text::escape;
    let mut listed: Vec<String> = candidates
        .iter()
        .take(5)
        .map(|c| {
            let dir = escape(&shown_dir(&c.dir)).into_owned();
            match c.files {
                1 => format!(
                    "`{dir}` (`{}`)",
                    escape(&c.example.file_name().unwrap_or_default().to_string_lossy())
                ),
                n => format!("`{dir}` ({n} files)"),
            }
        })
        .collect();
    if candidates.len() > 5 {
        listed.push(format!("and {} more", candidates.len() - 5));
    }
    listed.join(", ")
}

/// Where the database below a directory is, when no `urldb.toml` says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Guess {
    /// No file below it is named like a domain file.
    Nothing,
    /// One folder (and its subfolders) holds them all: the database.
    One(Candidate),
    /// They are in several folders, none inside another: any could be the
    /// database (a `docs/config.example.yaml` beside `db/`).
    Several(Vec<Candidate>),
}

/// Find the folder below `dir` that holds the domain files (hidden
/// directories, folders with a `urldb.toml` of their own (other databases)
/// and links to directories skipped): the folders directly holding files
/// named like domain files, a folder inside another counted with it. A
/// folder counts only when one of those files in it is a domain file by
/// its text too, with a record after its metadata (a document with
/// `_path`): a project's own `config.example.yaml` or
/// `docker-compose.prod.yaml` (one mapping, no record) never makes its
/// folder the database. One file per folder is read, and only its start.
pub fn guess(dir: &Path) -> Guess {
    guess_within(dir, &Nested::OnDisk)
}

/// [`guess`], the folders that are other databases told by `nested` (with
/// `--config-from`, the revision's, whatever the work tree holds).
pub(crate) fn guess_within(dir: &Path, nested: &Nested) -> Guess {
    let walker = walkdir::WalkDir::new(dir).into_iter().filter_entry(|e| {
        e.depth() == 0
            || (e.file_name().as_encoded_bytes().first() != Some(&b'.')
                && !(e.file_type().is_dir()
                    && nested
                        .config_at(e.path(), || {
                            dunce::canonicalize(e.path()).unwrap_or_else(|_| e.path().to_path_buf())
                        })
                        .is_some()))
    });
    // Each folder that directly holds files named like domain files: how
    // many, the first by name, and whether one of them holds a record.
    // The walk gives a folder's files together but for its subfolders',
    // so a folder is looked up by name only when the one before differs:
    // the guess costs a comparison per file, not a path (it runs before
    // any file is checked, on one core).
    struct Folder {
        dir: PathBuf,
        files: usize,
        example: PathBuf,
        holds_a_record: bool,
    }
    let within = crate::read::Root::new(dir).ok();
    let mut folders: Vec<Folder> = Vec::new();
    let mut index: HashMap<PathBuf, usize> = HashMap::new();
    let mut last: Option<usize> = None;
    for entry in walker.flatten() {
        // The walk's name and path, taken apart by length: parsing a
        // path's components costs more than the rest of a file's guess.
        let name = entry.file_name();
        if entry.file_type().is_dir() || !is_domain_name(name) {
            continue;
        }
        let path = entry.path();
        let whole = path.as_os_str().as_encoded_bytes();
        let parent_bytes = whole
            .len()
            .checked_sub(name.len() + 1)
            .map(|end| &whole[..end]);
        let i = match (last, parent_bytes) {
            (Some(i), Some(p)) if folders[i].dir.as_os_str().as_encoded_bytes() == p => i,
            _ => {
                let parent = path.parent().unwrap_or(dir);
                *index.entry(parent.to_path_buf()).or_insert_with(|| {
                    folders.push(Folder {
                        dir: parent.to_path_buf(),
                        files: 0,
                        example: path.to_path_buf(),
                        holds_a_record: false,
                    });
                    folders.len() - 1
                })
            }
        };
        last = Some(i);
        let folder = &mut folders[i];
        folder.files += 1;
        if Some(name) < folder.example.file_name() {
            folder.example = path.to_path_buf();
        }
        // Files are read until one holds a record: one, for a folder of
        // domain files.
        if !folder.holds_a_record {
            folder.holds_a_record = holds_a_record(path, within.as_ref());
        }
    }
    // Sorted by path, a folder comes before the folders inside it.
    folders.retain(|f| f.holds_a_record);
    folders.sort_by(|a, b| a.dir.cmp(&b.dir));
    let mut candidates: Vec<Candidate> = Vec::new();
    for folder in folders {
        match candidates
            .iter_mut()
            .find(|c| folder.dir.starts_with(&c.dir))
        {
            Some(c) => c.files += folder.files,
            None => candidates.push(Candidate {
                dir: folder.dir,
                files: folder.files,
                example: folder.example,
            }),
        }
    }
    match candidates.len() {
        0 => Guess::Nothing,
        1 => Guess::One(candidates.remove(0)),
        _ => Guess::Several(candidates),
    }
}

/// How much of a file [`guess`] reads to find its first record.
const GUESS_READ: u64 = 64 << 10;

/// The file at `path` begins as a domain file does: a metadata document,
/// then a record (a document that names `_path`), within its first
/// [`GUESS_READ`] bytes. Read by the read policy: a regular file, and a
/// link only when it leads to one inside `within`, the folder looked in.
fn holds_a_record(path: &Path, within: Option<&crate::read::Root>) -> bool {
    use std::io::Read;
    let Some(within) = within else {
        return false;
    };
    let Ok((file, _)) = crate::read::open_regular(path, Some(within)) else {
        return false;
    };
    let mut bytes = Vec::new();
    if file.take(GUESS_READ).read_to_end(&mut bytes).is_err() {
        return false;
    }
    text_holds_a_record(&String::from_utf8_lossy(&bytes))
}

/// `text` has a document after its first that names `_path` (`_path: /a`, or `--- {_path: /a, ...}` in flow style).
fn text_holds_a_record(text: &str) -> bool {
    let text = urldb_core::parse::without_bom(text);
    // An implicit first document (no leading `---`) is already open.
    let mut opened = usize::from(!text.starts_with("---"));
    for line in text.lines() {
        let marker = line
            .strip_prefix("---")
            .filter(|rest| rest.is_empty() || rest.starts_with([' ', '\t']));
        let content = match marker {
            Some(rest) => {
                opened += 1;
                rest
            }
            None => line,
        };
        if opened >= 2 && content.contains("_path") {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record, as a domain file holds one.
    const DOMAIN: &str = "---\n---\n_path: /\ncontent-type: text/html\n";

    fn tree(files: &[&str]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        for name in files {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(&path, DOMAIN).expect("write");
        }
        dir
    }

    #[test]
    fn the_one_folder_of_domain_files_is_the_guess() {
        let dir = tree(&[
            "readthedocs.yml",
            "ci/templates/build.yaml",
            ".github/workflows/x.y.yaml",
            "wwt_url_database/db/example.com.yaml",
            "wwt_url_database/db/sub/example.org.yaml",
        ]);
        let Guess::One(c) = guess(dir.path()) else {
            panic!("not one folder")
        };
        assert_eq!(c.dir, dir.path().join("wwt_url_database/db"));
        assert_eq!(c.files, 2);
        let dir = tree(&["db/example.com.yaml", "archive/example.net.yaml"]);
        let Guess::Several(cs) = guess(dir.path()) else {
            panic!("not several")
        };
        assert_eq!(cs.len(), 2);
        assert_eq!(guess(tree(&["mkdocs.yml"]).path()), Guess::Nothing);
    }

    /// Files named like domain files that are none (no record, a `.yml`
    /// name) and folders with a `urldb.toml` of their own do not count.
    #[test]
    fn only_domain_files_make_a_folder_the_database() {
        let dir = tree(&[
            "db/example.com.yaml",
            "docker-compose.prod.yml",
            "other/urldb.toml",
            "other/example.net.yaml",
        ]);
        std::fs::create_dir_all(dir.path().join("docs")).expect("mkdir");
        std::fs::write(
            dir.path().join("docs/config.example.yaml"),
            "url_database: db\ntimeout: 30\n",
        )
        .expect("write");
        let Guess::One(c) = guess(dir.path()) else {
            panic!("not one folder: {:?}", guess(dir.path()))
        };
        assert_eq!(c.dir, dir.path().join("db"));
        for (text, holds) in [
            (DOMAIN, true),
            (
                "--- {cnames: [a.org]}\n--- {_path: /a, content-type: text/html}\n",
                true,
            ),
            ("\u{feff}---\n---\n_path: /\n", true),
            ("services:\n  web: {image: nginx}\n", false),
            ("---\nservices:\n  _path: x\n", false),
            ("---\na: 1\n---\nkind: Service\n", false),
            ("", false),
        ] {
            assert_eq!(text_holds_a_record(text), holds, "{text:?}");
        }
    }

    #[test]
    fn names_read_as_windows_reads_them() {
        for name in [
            "example.com.yaml",
            "example.com.yaml.",
            "example.com.yaml . ",
        ] {
            assert!(has_domain_name(Path::new(name)), "{name}");
        }
        for name in [
            "example.com.yml",
            "example.com.yaml.txt",
            "mkdocs.yml.",
            "example.com",
            "...",
            " ",
        ] {
            assert!(!has_domain_name(Path::new(name)), "{name}");
        }
        assert!(has_yaml_extension(Path::new("mkdocs.yml.")));
        assert!(has_yaml_extension(Path::new("example.com.yml")));
    }

    #[test]
    fn membership_by_place_and_name() {
        let dir = tree(&["db/a/example.com.yaml", "db/mkdocs.yml", "other/x.org.yaml"]);
        let root = Root::new(&dir.path().join("db")).expect("root");
        let bare = Members::new(root.clone(), &[], true).expect("members");
        let at = |p: &str| dir.path().join(p);
        assert_eq!(bare.of(&at("db/a/example.com.yaml")), Ok(()));
        assert_eq!(
            bare.of(&at("db/mkdocs.yml")),
            Err(Skip::NoDomainName(NameShape::ProjectFile))
        );
        assert!(matches!(
            bare.of(&at("other/x.org.yaml")),
            Err(Skip::Outside { .. })
        ));
        assert_eq!(
            bare.of(&at("db/.hidden/x.org.yaml")),
            Err(Skip::Hidden {
                name: ".hidden".to_string()
            })
        );
        // A file that does not exist yet, spelt with `..`.
        assert_eq!(bare.of(&at("db/new/../a/new.org.yaml")), Ok(()));
        assert_eq!(bare.of(&at("db/a/notes.txt")), Err(Skip::NotYaml));
        let configured = Members::new(root, &["a/**".to_string()], false).expect("members");
        // With urldb.toml, only a project's own file is left out by its
        // name; an intranet host's and a misnamed domain file are members.
        assert_eq!(
            configured.of(&at("db/mkdocs.yml")),
            Err(Skip::NoDomainName(NameShape::ProjectFile))
        );
        assert_eq!(configured.of(&at("db/localhost.yaml")), Ok(()));
        assert_eq!(configured.of(&at("db/example.com.yml")), Ok(()));
        assert_eq!(
            bare.of(&at("db/example.com.yml")),
            Err(Skip::NoDomainName(NameShape::Yml))
        );
        assert_eq!(
            bare.of(&at("db/localhost.yaml")),
            Err(Skip::NoDomainName(NameShape::SingleLabel))
        );
        assert_eq!(
            configured.of(&at("db/a/example.com.yaml")),
            Err(Skip::Excluded {
                glob: "a/**".to_string()
            })
        );
    }
}
