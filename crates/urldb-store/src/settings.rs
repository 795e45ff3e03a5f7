//! Settings, resolved in one place for the command line and the editor
//! alike: the `urldb.toml` that governs a file ([`crate::Governing`]) or
//! the one given, read within its size limit, validated, and the database
//! root taken from the caller, the file's `root`, or the file's folder.
//! The language server resolves a document's settings here too, so the
//! two never disagree. With `--config-from REV` the file is read through
//! git from that revision instead ([`crate::Databases`]), and the database
//! is still the work tree's (`docs/security.md`, "Who controls what").

use std::path::{Path, PathBuf};

use urldb_core::config::{BadExclude, Config, ConfigError, FILE_NAME, MAX_CONFIG_SIZE, Section};
use urldb_core::lint::Options;
use urldb_core::selection::{Selection, UnknownRule};
use urldb_core::{BadPerFileIgnore, PerFileIgnores};

use crate::git::GitError;
use crate::read::{ReadError, Root};

/// Why the settings of a run cannot be resolved.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    /// `urldb.toml` cannot be read or is invalid.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// A rule code in the selection that no rule has.
    #[error(transparent)]
    UnknownRule(#[from] UnknownRule),
    /// An `exclude` glob that does not compile.
    #[error(transparent)]
    BadExclude(#[from] BadExclude),
    /// The database directory does not exist, is not a directory, or
    /// cannot be resolved; named by `--db` or by `root` in `urldb.toml`.
    #[error("{}", no_root(.root, *.not_a_directory, .named_by.as_ref()))]
    NoRoot {
        root: PathBuf,
        /// `root = ...` of this configuration file, or `None` for `--db`.
        named_by: Option<RootKey>,
        not_a_directory: bool,
    },
    /// `urldb.toml` could not be read.
    #[error("cannot read {}: {source}", shown(.path))]
    ConfigUnreadable { path: PathBuf, source: ReadError },
    /// `urldb.toml`, reached through a symbolic link, is invalid: how many
    /// mistakes, and nothing the file holds.
    #[error(
        "{}: {problems} {} in a configuration reached through a symbolic link; not shown, \
         since the file may be any file this run can read (open the file the link leads to)",
        shown(.path),
        if *.problems == 1 { "mistake" } else { "mistakes" }
    )]
    ConfigLinkedInvalid { path: PathBuf, problems: usize },
    /// `urldb.toml` is not text.
    #[error("{}: not UTF-8 text", shown(.path))]
    ConfigNotText { path: PathBuf },
    /// `urldb.toml` is larger than a configuration file may be.
    #[error("{}: too large ({size} bytes; a configuration file is at most 1 MiB)", shown(.path))]
    ConfigTooLarge { path: PathBuf, size: u64 },
    /// A directory named `urldb.toml` where the configuration is looked for.
    #[error(
        "{} is a directory; urldb's configuration is a file of that name (rename the directory, \
         or pass `--config FILE`)",
        shown(.0)
    )]
    ConfigIsDirectory(PathBuf),
    /// `root` in `urldb.toml` leads out of the directory that holds it.
    #[error(
        "{}: root = \"{}\" leads outside the directory that holds {FILE_NAME}; the database root must be inside it",
        urldb_core::text::escape(&.config.display().to_string()),
        urldb_core::text::escape(&.root.display().to_string())
    )]
    RootOutside { config: PathBuf, root: PathBuf },
    /// `--config-from`: the repository or the revision cannot be read.
    #[error(transparent)]
    Git(#[from] GitError),
    /// `--config-from REV` with `--config FILE` that REV does not have.
    #[error(
        "--config-from {rev}: that revision has no `{}`",
        urldb_core::text::escape(&.path.display().to_string())
    )]
    NotAtRevision { rev: String, path: PathBuf },
    /// No `urldb.toml`, and several folders hold files named like domain
    /// files: which one is the database is the user's to say.
    #[error("{}", ambiguous(.dir, .candidates))]
    Ambiguous {
        dir: PathBuf,
        candidates: Vec<crate::membership::Candidate>,
    },
    /// More `urldb.toml` files below the working directory than one run
    /// takes.
    #[error(transparent)]
    TooManyDatabases(#[from] crate::configs_below::TooManyDatabases),
    /// The configuration that governs a path cannot be told
    /// (`--config-from`).
    #[error(transparent)]
    Governing(#[from] crate::governing::GoverningError),
    /// `root` names a folder that holds a `urldb.toml` of its own, or lies
    /// below one: that folder is another database.
    #[error(
        "{}: root = \"{}\" is governed by {}: a database never takes in another's folder \
         (point root elsewhere, or remove one of the two)",
        shown(.config),
        urldb_core::text::escape(&.root.display().to_string()),
        shown(.nested)
    )]
    RootGoverned {
        config: PathBuf,
        root: PathBuf,
        nested: PathBuf,
    },
}

/// The message of [`SettingsError::Ambiguous`]: the folders and what to run.
fn ambiguous(dir: &Path, candidates: &[crate::membership::Candidate]) -> String {
    format!(
        "no {FILE_NAME}, and more than one folder below `{}` holds files named like domain files: {}; \
         urldb cannot tell which is the database, and changes nothing. Run `urldb init --root DIR` \
         with the database's folder (it writes {FILE_NAME}), or pass `--db DIR`",
        urldb_core::text::escape(&crate::membership::shown_dir(dir)),
        crate::membership::candidates_text(candidates)
    )
}

/// How the database root of a run was chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// `--db` (or the caller's own choice).
    Given,
    /// This `urldb.toml` (its `root`, else the directory the run is in).
    Configured(PathBuf),
    /// No `urldb.toml`: the one folder below the directory that holds the
    /// files named like domain files ([`crate::membership::guess`]).
    Found,
    /// No `urldb.toml` and no file named like a domain file: the directory.
    Here,
}

/// `root = "..."` in a configuration file, where a message points at it.
#[derive(Debug, Clone)]
pub struct RootKey {
    pub config: PathBuf,
    pub line: Option<usize>,
    pub value: PathBuf,
}

impl std::fmt::Display for RootKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let line = self.line.map(|l| format!(":{l}")).unwrap_or_default();
        write!(
            f,
            "{}{line}: root = \"{}\": ",
            shown(&self.config),
            urldb_core::text::escape(&self.value.display().to_string())
        )
    }
}

/// Why `root` is no database directory, and who named it; the directory
/// is named once (as written in the file, and as resolved when that
/// differs).
fn no_root(root: &Path, not_a_directory: bool, named_by: Option<&RootKey>) -> String {
    let shown = |p: &Path| urldb_core::text::escape(&p.display().to_string()).into_owned();
    match named_by {
        None if not_a_directory => format!(
            "--db `{}` is not a directory (--db names the database directory)",
            shown(root)
        ),
        None => format!("database directory `{}` does not exist", shown(root)),
        Some(key) => {
            let what = if not_a_directory {
                "not a directory"
            } else {
                "no such directory"
            };
            let resolved = if root == key.value {
                String::new()
            } else {
                format!(" (`{}`)", shown(root))
            };
            format!("{key}{what}{resolved}")
        }
    }
}

fn shown(path: &Path) -> String {
    urldb_core::source::shown_path(path)
}

/// Rule selection given by the caller (`--select`, `--extend-select`,
/// `--ignore`, or an editor's settings), on top of the file's `[lint]`.
#[derive(Debug, Clone, Default)]
pub struct RuleOverrides {
    pub select: Option<Vec<String>>,
    pub extend_select: Vec<String>,
    pub ignore: Vec<String>,
}

/// The settings of one run or one editor workspace.
#[derive(Debug, Clone)]
pub struct Settings {
    pub config: Config,
    /// The configuration file read, if any.
    pub config_path: Option<PathBuf>,
    pub root: Root,
    /// How the root was chosen.
    pub origin: Origin,
    /// Which folders below the root are other databases.
    pub nested: crate::membership::Nested,
}

impl Settings {
    /// Resolve the settings of directory `dir` (the current directory of a
    /// command, an editor's workspace folder): `config`, else the
    /// configuration that governs `db` when given, else `dir`
    /// ([`crate::Governing`]); the root is `db`, else the file's `root`
    /// (relative to the file's folder), else the file's folder. Paths are
    /// kept relative to the process's current directory when they lie
    /// under it, which is how findings show them. `db` is the caller's own
    /// choice; a `root` in the file, which comes with the repository, may
    /// not lead out of the folder holding it, nor into a folder that holds
    /// a `urldb.toml` of its own. Without either, the database is the one
    /// folder below `dir` that holds domain files
    /// ([`crate::membership::guess`]), else `dir`; several such folders
    /// are an error. The file is checked with the `sections` other crates
    /// own (`[verify]`).
    pub fn resolve(
        dir: &Path,
        db: Option<&Path>,
        config: Option<&Path>,
        sections: &[&dyn Section],
    ) -> Result<Settings, SettingsError> {
        Settings::resolve_guessing(dir, db, config, sections, crate::membership::guess)
    }

    /// [`Settings::resolve`], asking `guess` where the database is when no
    /// `urldb.toml` says (the language server keeps its guesses).
    pub fn resolve_guessing(
        dir: &Path,
        db: Option<&Path>,
        config: Option<&Path>,
        sections: &[&dyn Section],
        guess: impl FnOnce(&Path) -> crate::membership::Guess,
    ) -> Result<Settings, SettingsError> {
        let found = match config {
            Some(_) => None,
            None => crate::governing::governing_config(db.unwrap_or(dir))?.map(|p| shown_from(&p)),
        };
        match config {
            // `--config FILE` governs every file: no folder is another database.
            Some(given) => Settings::resolve_with(dir, db, Some(given), sections, guess)?
                .governed_by(crate::membership::Nested::Never),
            None => Settings::resolve_governed(dir, db, found.as_deref(), sections, guess),
        }
    }

    /// The settings of the database that `config`, the configuration found
    /// to govern a file ([`crate::Governing`]), defines (`None`: no
    /// configuration); a folder below its root with a `urldb.toml` of its
    /// own is another database.
    pub fn resolve_governed(
        dir: &Path,
        db: Option<&Path>,
        config: Option<&Path>,
        sections: &[&dyn Section],
        guess: impl FnOnce(&Path) -> crate::membership::Guess,
    ) -> Result<Settings, SettingsError> {
        Settings::resolve_with(dir, db, config, sections, guess)?
            .governed_by(crate::membership::Nested::OnDisk)
    }

    fn resolve_with(
        dir: &Path,
        db: Option<&Path>,
        config: Option<&Path>,
        sections: &[&dyn Section],
        guess: impl FnOnce(&Path) -> crate::membership::Guess,
    ) -> Result<Settings, SettingsError> {
        let loaded = match config {
            Some(p) => load_config(p, sections)?,
            None => Config::default(),
        };
        Settings::with_config(dir, db, loaded, config.map(Path::to_path_buf), guess)
    }

    /// These settings, with the folders that are other databases `nested`:
    /// refused when the configuration's `root` is one of them or below one.
    pub(crate) fn governed_by(
        mut self,
        nested: crate::membership::Nested,
    ) -> Result<Settings, SettingsError> {
        if let (Some(config), Some(value), Origin::Configured(_)) =
            (&self.config_path, &self.config.root, &self.origin)
        {
            let folder = config
                .parent()
                .filter(|f| !f.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            let folder = dunce::canonicalize(folder).unwrap_or_else(|_| folder.to_path_buf());
            for above in self.root.resolved().ancestors() {
                if above == folder || !above.starts_with(&folder) {
                    break;
                }
                if let Some(other) = nested.config_at(above, || above.to_path_buf()) {
                    return Err(SettingsError::RootGoverned {
                        config: config.clone(),
                        root: value.clone(),
                        nested: shown_from(&other),
                    });
                }
            }
        }
        self.nested = nested;
        Ok(self)
    }

    /// The settings of `config`, read from `config_path` (or its place in
    /// the work tree), and the database root (`guess` finds it below `dir`
    /// when neither `db` nor a `urldb.toml` names it).
    pub(crate) fn with_config(
        dir: &Path,
        db: Option<&Path>,
        config: Config,
        config_path: Option<PathBuf>,
        guess: impl FnOnce(&Path) -> crate::membership::Guess,
    ) -> Result<Settings, SettingsError> {
        let cwd = std::env::current_dir().unwrap_or_else(|_| dir.to_path_buf());
        // Absolute, so that the root is shown as findings show paths.
        let folder_of = |cfg: &Path| -> PathBuf {
            let cfg = cwd.join(cfg);
            cfg.parent().map_or_else(|| cwd.clone(), Path::to_path_buf)
        };
        let (root, origin) = match (db, &config.root, &config_path) {
            (Some(db), _, _) => (db.to_path_buf(), Origin::Given),
            (None, Some(root), Some(cfg)) => (
                relative_to(&folder_of(cfg).join(root), &cwd),
                Origin::Configured(relative_to(cfg, &cwd)),
            ),
            // No configuration, said so: the folder the run is in.
            (None, None, Some(cfg)) if is_null_device(cfg) => {
                (relative_to(dir, &cwd), Origin::Configured(cfg.clone()))
            }
            (None, None, Some(cfg)) => (
                relative_to(&folder_of(cfg), &cwd),
                Origin::Configured(relative_to(cfg, &cwd)),
            ),
            (None, _, None) => match guess(dir) {
                crate::membership::Guess::Nothing => (relative_to(dir, &cwd), Origin::Here),
                crate::membership::Guess::One(found) => {
                    (relative_to(&found.dir, &cwd), Origin::Found)
                }
                crate::membership::Guess::Several(candidates) => {
                    return Err(SettingsError::Ambiguous {
                        dir: relative_to(dir, &cwd),
                        candidates: candidates
                            .into_iter()
                            .map(|c| crate::membership::Candidate {
                                dir: relative_to(&c.dir, &cwd),
                                ..c
                            })
                            .collect(),
                    });
                }
            },
        };
        let named_by = match (db, &config.root, &config_path) {
            (None, Some(value), Some(cfg)) => Some(RootKey {
                config: cfg.clone(),
                line: config.root_line,
                value: value.clone(),
            }),
            _ => None,
        };
        if !root.is_dir() {
            return Err(SettingsError::NoRoot {
                not_a_directory: root.exists(),
                root,
                named_by,
            });
        }
        let resolved = Root::new(&root).map_err(|_| SettingsError::NoRoot {
            root: root.clone(),
            named_by,
            not_a_directory: false,
        })?;
        // The configuration's folder resolved from the working directory,
        // as the root was: a run over many databases resolves each once.
        if let (None, Some(configured), Some(cfg)) = (db, &config.root, &config_path)
            && !dunce::canonicalize(relative_to(&folder_of(cfg), &cwd))
                .is_ok_and(|folder| resolved.resolved().starts_with(folder))
        {
            return Err(SettingsError::RootOutside {
                config: cfg.clone(),
                root: configured.clone(),
            });
        }
        let root = resolved;
        Ok(Settings {
            config,
            config_path,
            root,
            origin,
            nested: crate::membership::Nested::default(),
        })
    }

    /// The files of the database: its root, its `exclude` globs, and
    /// without `urldb.toml` or `--db` only files named like domains.
    pub fn members(&self) -> Result<crate::membership::Members, BadExclude> {
        Ok(crate::membership::Members::new(
            self.root.clone(),
            &self.config.exclude,
            matches!(self.origin, Origin::Found | Origin::Here),
        )?
        .with_nested(self.nested.clone()))
    }

    /// The lint options of a run: the file's `[lint]` with `overrides` on
    /// top. The error names the unknown rule code.
    pub fn lint_options(&self, overrides: Option<&RuleOverrides>) -> Result<Options, UnknownRule> {
        let mut options = lint_options(&self.config, overrides)?;
        with_root(&mut options, &self.root);
        Ok(options)
    }
}

/// The lint options of `config` with `overrides` on top (an unsaved
/// editor buffer has a configuration but no root). The error names the unknown rule code.
pub fn lint_options(
    config: &Config,
    overrides: Option<&RuleOverrides>,
) -> Result<Options, UnknownRule> {
    let lint = &config.lint;
    let (select, extend, ignore) = match overrides {
        Some(o) => {
            let mut ignore = lint.ignore.clone();
            ignore.extend(o.ignore.iter().cloned());
            let mut extend = lint.extend_select.clone();
            extend.extend(o.extend_select.iter().cloned());
            (
                o.select.clone().or_else(|| lint.select.clone()),
                extend,
                ignore,
            )
        }
        None => (
            lint.select.clone(),
            lint.extend_select.clone(),
            lint.ignore.clone(),
        ),
    };
    let selection = Selection::new(
        select.as_deref(),
        &extend,
        &ignore,
        &lint.severity,
        config.style,
    )?;
    // Validated with the file; a code an override made unknown cannot be.
    let per_file_ignores = PerFileIgnores::new(&lint.per_file_ignores).map_err(|e| match e {
        BadPerFileIgnore::Rule(r) => r,
        BadPerFileIgnore::Glob { glob, .. } => UnknownRule::new(&glob),
    })?;
    Ok(Options {
        settings: config.lint_settings(),
        selection,
        line_ending: config.line_ending,
        empty_metadata: config.empty_metadata,
        per_file_ignores,
        // `drop_comments`, `no_suppressions` (the commands set them) and,
        // in a test build, the fast path's knobs.
        ..Options::default()
    })
}

/// Give the options the database root that `[lint.per-file-ignores]`
/// globs are relative to.
pub fn with_root(options: &mut Options, root: &Root) {
    options.per_file_ignores.root = Some((root.to_path_buf(), root.resolved().to_path_buf()));
}

/// `path` relative to the current directory when it lies below it, as
/// messages and findings show paths.
pub(crate) fn shown_from(path: &Path) -> PathBuf {
    match std::env::current_dir() {
        Ok(cwd) => relative_to(path, &cwd),
        Err(_) => path.to_path_buf(),
    }
}

/// `NUL`, `\\.\NUL` or `/dev/null`, in any case: Windows' null device.
fn is_windows_null(path: &Path) -> bool {
    let name = path.as_os_str().to_string_lossy().to_ascii_lowercase();
    matches!(name.as_str(), "nul" | r"\\.\nul" | "/dev/null")
}

/// `--config /dev/null` (on Windows also `NUL`): no configuration.
fn is_null_device(path: &Path) -> bool {
    // A regular file (every `urldb.toml` a walk finds) is no device: one
    // look, not a resolution of the whole path.
    let device = std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir());
    (device && dunce::canonicalize(path).is_ok_and(|p| p == Path::new("/dev/null")))
        || (cfg!(windows) && is_windows_null(path))
}

/// Read and validate a configuration file, with `sections`.
pub(crate) fn load_config(path: &Path, sections: &[&dyn Section]) -> Result<Config, SettingsError> {
    if path.is_dir() {
        return Err(SettingsError::ConfigIsDirectory(path.to_path_buf()));
    }
    // `--config /dev/null`: no configuration (as git reads an empty file
    // there); the read policy opens no other device. Windows' null device
    // is `NUL` (what Git Bash passes for `/dev/null`), and `/dev/null`
    // names no file there.
    let read = if is_null_device(path) {
        Ok(Vec::new())
    } else {
        crate::read::read_limited(path, MAX_CONFIG_SIZE, None)
    };
    let text = match read {
        Ok(bytes) => String::from_utf8(bytes).map_err(|_| SettingsError::ConfigNotText {
            path: path.to_path_buf(),
        })?,
        Err(ReadError::TooLarge { size }) => {
            return Err(SettingsError::ConfigTooLarge {
                path: path.to_path_buf(),
                size,
            });
        }
        Err(source) => {
            return Err(SettingsError::ConfigUnreadable {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    match Config::from_text(path, &text, sections) {
        Ok(config) => Ok(config),
        // The parser's messages and the terminal's form quote the file's
        // lines: not those of a file a link leads to, which may be any
        // file the runner can read (`docs/security.md`).
        Err(ConfigError::Invalid { problems, .. }) if reached_through_link(path) => {
            Err(SettingsError::ConfigLinkedInvalid {
                path: path.to_path_buf(),
                problems: problems.len(),
            })
        }
        Err(e) => Err(e.into()),
    }
}

/// The file at `path` is a symbolic link, or a folder on its way is one
/// (its folder resolved is not its folder as named): what it holds may be
/// any file the runner can read. When unsure, it is.
fn reached_through_link(path: &Path) -> bool {
    if path
        .symlink_metadata()
        .map_or(true, |m| m.file_type().is_symlink())
    {
        return true;
    }
    let Ok(cwd) = std::env::current_dir() else {
        return true;
    };
    let folder = cwd.join(path.parent().unwrap_or(Path::new("")));
    let mut named = PathBuf::new();
    for component in folder.components() {
        match component {
            std::path::Component::ParentDir => {
                named.pop();
            }
            std::path::Component::CurDir => {}
            c => named.push(c),
        }
    }
    dunce::canonicalize(&folder).map_or(true, |resolved| resolved != named)
}

/// Show `path` relative to `cwd` when it is under it.
fn relative_to(path: &Path, cwd: &Path) -> PathBuf {
    match path.strip_prefix(cwd) {
        Ok(rel) if rel.as_os_str().is_empty() => PathBuf::from("."),
        Ok(rel) => rel.to_path_buf(),
        Err(_) => up_from(path, cwd).unwrap_or_else(|| path.to_path_buf()),
    }
}

/// `path` from `cwd` by `..` (a database above the working directory, run
/// from a folder inside it: `../a.org.yaml`, as findings are read from
/// where the run is), when both are absolute, resolved names that share
/// more than the file system's root; `None` otherwise. Built from the
/// components, which drop the `.` of `root = "."`; a path that is not
/// rebuilt keeps its spelling (`/dev/null` stays `/dev/null` on Windows).
fn up_from(path: &Path, cwd: &Path) -> Option<PathBuf> {
    use std::path::Component;
    let plain = |p: &Path| {
        p.is_absolute()
            && p.components()
                .all(|c| !matches!(c, Component::ParentDir | Component::CurDir))
    };
    if !plain(path) || !plain(cwd) {
        return None;
    }
    let shared = path
        .components()
        .zip(cwd.components())
        .take_while(|(a, b)| a == b)
        .count();
    // Only the root (or a drive) in common: the absolute name says more.
    let root = path
        .components()
        .take_while(|c| matches!(c, Component::RootDir | Component::Prefix(_)))
        .count();
    if shared <= root {
        return None;
    }
    let mut up = PathBuf::new();
    for _ in shared..cwd.components().count() {
        up.push("..");
    }
    up.extend(path.components().skip(shared));
    Some(up)
}
