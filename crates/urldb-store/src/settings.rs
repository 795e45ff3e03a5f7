//! Settings, resolved once in one place for the command line and the
//! editor alike: `urldb.toml` is found (walking up from a directory) or
//! given, read within its size limit, validated, and the database root is
//! taken from the caller, the file's `root`, or the directory itself. The
//! language server resolves its workspace's settings here too, so the two
//! never disagree.

use std::path::{Path, PathBuf};

use globset::GlobSet;
use urldb_core::config::{BadExclude, Config, ConfigError, FILE_NAME, MAX_CONFIG_SIZE};
use urldb_core::lint::Options;
use urldb_core::selection::{Selection, UnknownRule};
use urldb_core::suppress::{BadPerFileIgnore, PerFileIgnores};

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
    /// The database directory does not exist (or cannot be resolved).
    #[error("database directory `{}` does not exist", urldb_core::text::escape(&.0.display().to_string()))]
    NoRoot(PathBuf),
    /// `root` in `urldb.toml` leads out of the directory that holds it.
    #[error(
        "{}: root = \"{}\" leads outside the directory that holds {FILE_NAME}; the database root must be inside it",
        urldb_core::text::escape(&.config.display().to_string()),
        urldb_core::text::escape(&.root.display().to_string())
    )]
    RootOutside { config: PathBuf, root: PathBuf },
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
}

impl Settings {
    /// Resolve the settings of directory `dir` (the current directory of a
    /// command, an editor's workspace folder): `config` (else `urldb.toml`
    /// found upward from `dir`) and `db` (else the file's `root`, else
    /// `dir`). Paths are kept relative to the process's current directory
    /// when they lie under it, which is how findings show them.
    /// `db` is the caller's own choice; a `root` in the file, which comes
    /// with the repository, may not lead out of the directory holding it.
    pub fn resolve(
        dir: &Path,
        db: Option<&Path>,
        config: Option<&Path>,
    ) -> Result<Settings, SettingsError> {
        let config_path = match config {
            Some(p) => Some(p.to_path_buf()),
            None => find_config(dir),
        };
        let config = match &config_path {
            Some(p) => load_config(p)?,
            None => Config::default(),
        };
        let cwd = std::env::current_dir().unwrap_or_else(|_| dir.to_path_buf());
        let root = match (db, &config.root, &config_path) {
            (Some(db), _, _) => db.to_path_buf(),
            (None, Some(root), Some(cfg)) => {
                let base = cfg.parent().unwrap_or(Path::new("."));
                relative_to(&base.join(root), &cwd)
            }
            _ => relative_to(dir, &cwd),
        };
        if !root.is_dir() {
            return Err(SettingsError::NoRoot(root));
        }
        if let (None, Some(configured), Some(cfg)) = (db, &config.root, &config_path) {
            let base = match cfg.parent() {
                Some(b) if !b.as_os_str().is_empty() => b,
                _ => Path::new("."),
            };
            if !crate::read::is_inside(&root, base) {
                return Err(SettingsError::RootOutside {
                    config: cfg.clone(),
                    root: configured.clone(),
                });
            }
        }
        let root = Root::new(&root).map_err(|_| SettingsError::NoRoot(root.clone()))?;
        Ok(Settings {
            config,
            config_path,
            root,
        })
    }

    /// The lint options of a run: the file's `[lint]` with `overrides` on
    /// top. The error names the unknown rule code.
    pub fn lint_options(&self, overrides: Option<&RuleOverrides>) -> Result<Options, UnknownRule> {
        let mut options = lint_options(&self.config, overrides)?;
        with_root(&mut options, &self.root);
        Ok(options)
    }

    /// The compiled `exclude` globs.
    pub fn exclude(&self) -> Result<GlobSet, BadExclude> {
        urldb_core::config::exclude_set(&self.config.exclude)
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
        drop_comments: false,
        general_path_only: false,
        piece_bytes: None,
        per_file_ignores,
    })
}

/// Give the options the database root that `[lint.per-file-ignores]`
/// globs are relative to.
pub fn with_root(options: &mut Options, root: &Root) {
    options.per_file_ignores.root = Some((root.to_path_buf(), root.resolved().to_path_buf()));
}

/// Walk up from `dir` to find `urldb.toml`.
pub fn find_config(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .map(|d| d.join(FILE_NAME))
        .find(|p| p.is_file())
}

/// `NUL`, `\\.\NUL` or `/dev/null`, in any case: Windows' null device.
fn is_windows_null(path: &Path) -> bool {
    let name = path.as_os_str().to_string_lossy().to_ascii_lowercase();
    matches!(name.as_str(), "nul" | r"\\.\nul" | "/dev/null")
}

/// Read and validate a configuration file.
pub(crate) fn load_config(path: &Path) -> Result<Config, ConfigError> {
    let read_error = |message: String| ConfigError::Read {
        path: path.to_path_buf(),
        message,
    };
    // `--config /dev/null`: no configuration (as git reads an empty file
    // there); the read policy opens no other device. Windows' null device
    // is `NUL` (what Git Bash passes for `/dev/null`), and `/dev/null`
    // names no file there.
    let null = path
        .canonicalize()
        .is_ok_and(|p| p == Path::new("/dev/null"))
        || (cfg!(windows) && is_windows_null(path));
    let read = if null {
        Ok(Vec::new())
    } else {
        crate::read::read_limited(path, MAX_CONFIG_SIZE, None)
    };
    let text = match read {
        Ok(bytes) => {
            String::from_utf8(bytes).map_err(|_| read_error("not UTF-8 text".to_string()))?
        }
        Err(ReadError::TooLarge { size }) => {
            return Err(read_error(format!(
                "too large ({size} bytes; a configuration file is at most 1 MiB)"
            )));
        }
        Err(e) => return Err(read_error(e.to_string())),
    };
    Config::from_text(path, &text)
}

/// Show `path` relative to `cwd` when it is under it.
fn relative_to(path: &Path, cwd: &Path) -> PathBuf {
    match path.strip_prefix(cwd) {
        Ok(rel) if rel.as_os_str().is_empty() => PathBuf::from("."),
        Ok(rel) => rel.to_path_buf(),
        Err(_) => path.to_path_buf(),
    }
}
