//! What every command run shares: the global options, the run context
//! (configuration, database root, colors, threads, the rule selection it
//! asks for) and the exit status. Commands take a [`Context`] and return an
//! [`ExitStatus`]; `cli` builds the one and turns the other into the
//! process's exit code.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use crate::config::Config;
use crate::lint::Options;
use crate::selection::Selection;

/// Exit codes, the same in every command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    /// Nothing found, nothing to change.
    Success = 0,
    /// Findings, files to reformat, broken URLs.
    Failure = 1,
    /// Usage, configuration, I/O or internal error.
    Error = 2,
}

/// Why a command stopped short (exit 2). Findings, files to reformat and
/// broken URLs are not errors: they are [`ExitStatus::Failure`].
#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    /// The command line or the configuration asks for something that
    /// cannot be done; the message says what instead.
    #[error("{0}")]
    Usage(String),
    /// `urldb.toml` could not be read or is invalid: its report, complete
    /// (rendered with the place in the file).
    #[error("{0}")]
    Config(String),
    /// A file, the repository, standard input or the network failed.
    #[error("{0}")]
    Failed(String),
    /// Standard output could not be written. A closed pipe (`urldb ls |
    /// head -1`) is how a reader says it has seen enough: not an error.
    #[error("cannot write the output: {0}")]
    Output(#[from] std::io::Error),
}

impl CommandError {
    fn is_closed_pipe(&self) -> bool {
        matches!(self, CommandError::Output(e) if e.kind() == std::io::ErrorKind::BrokenPipe)
    }
}

/// The one place a command's result becomes the exit status: an error is
/// printed once, to stderr, and is exit 2; a closed output pipe is a quiet
/// success, as in ripgrep.
pub fn exit_status(result: Result<ExitStatus, CommandError>) -> ExitStatus {
    match result {
        Ok(status) => status,
        Err(e) if e.is_closed_pipe() => ExitStatus::Success,
        Err(CommandError::Config(report)) => {
            eprintln!("{}", report.trim_end());
            ExitStatus::Error
        }
        Err(e) => {
            eprintln!("error: {}", e.to_string().trim_end());
            ExitStatus::Error
        }
    }
}

#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// The database directory (default: `root` in urldb.toml, else the current directory).
    #[arg(long, global = true, value_name = "DIR")]
    pub db: Option<PathBuf>,
    /// The configuration file (default: urldb.toml, found upward from the current directory).
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// When to use colors.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Print less (only findings and errors).
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Print more (every file processed).
    #[arg(short, long, global = true)]
    pub verbose: bool,
    /// Worker threads (default: one per core; at most 4 per core and 256).
    #[arg(long, global = true, value_name = "N")]
    pub threads: Option<usize>,
    /// Do not read or write the results cache.
    #[arg(long, global = true)]
    pub no_cache: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Args)]
pub struct SelectArgs {
    /// Only these rule codes (comma-separated; `ALL` for every rule).
    #[arg(long, value_delimiter = ',', value_name = "CODES")]
    pub select: Option<Vec<String>>,
    /// Also these rule codes.
    #[arg(long, value_delimiter = ',', value_name = "CODES")]
    pub extend_select: Vec<String>,
    /// Not these rule codes.
    #[arg(long, value_delimiter = ',', value_name = "CODES")]
    pub ignore: Vec<String>,
}

/// Everything a command needs to know about where and how it runs.
pub struct Context {
    pub config: Config,
    pub root: PathBuf,
    pub color: bool,
    pub quiet: bool,
    pub verbose: bool,
    /// `--no-cache`.
    pub no_cache: bool,
}

impl Context {
    /// The run context; the error is the complete text to print.
    pub fn new(global: &GlobalArgs) -> Result<Context, CommandError> {
        let color = match global.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && std::io::IsTerminal::is_terminal(&std::io::stdout())
            }
        };
        let cwd = std::env::current_dir()
            .map_err(|e| CommandError::Failed(format!("cannot read the current directory: {e}")))?;
        let config_path = match &global.config {
            Some(p) => Some(p.clone()),
            None => Config::discover(&cwd),
        };
        let config = match &config_path {
            Some(p) => Config::load(p).map_err(|e| CommandError::Config(e.render(color)))?,
            None => Config::default(),
        };
        let root = match (&global.db, &config.root, &config_path) {
            (Some(db), _, _) => db.clone(),
            (None, Some(root), Some(cfg)) => {
                let base = cfg.parent().unwrap_or(Path::new("."));
                relative_to_cwd(&base.join(root), &cwd)
            }
            _ => PathBuf::from("."),
        };
        if !root.is_dir() {
            return Err(CommandError::Usage(format!(
                "database directory `{}` does not exist",
                crate::text::escape(&root.display().to_string())
            )));
        }
        // `root` in urldb.toml comes with the repository: it may not lead
        // out of the directory that holds urldb.toml (a pull request could
        // otherwise point urldb at files it has no business reading or
        // rewriting). `--db` is the user's own choice.
        if let (None, Some(configured), Some(cfg)) = (&global.db, &config.root, &config_path) {
            let base = cfg.parent().unwrap_or(Path::new("."));
            let base = if base.as_os_str().is_empty() {
                Path::new(".")
            } else {
                base
            };
            if !crate::read::is_inside(&root, base) {
                return Err(CommandError::Config(format!(
                    "error: {}: root = \"{}\" leads outside the directory that holds {}; \
                     the database root must be inside it",
                    crate::text::escape(&cfg.display().to_string()),
                    crate::text::escape(&configured.display().to_string()),
                    crate::config::FILE_NAME
                )));
            }
        }
        crate::read::set_root(&root);
        if let Some(asked) = global.threads {
            let n = capped_threads(asked);
            if n < asked {
                eprintln!(
                    "note: --threads {asked} is more than this machine can use; using {n} \
                     (4 per core, at most {MAX_THREADS})"
                );
            }
            rayon::ThreadPoolBuilder::new()
                .num_threads(n.max(1))
                .build_global()
                .map_err(|e| CommandError::Failed(format!("--threads: {e}")))?;
        }
        Ok(Context {
            config,
            root,
            color,
            quiet: global.quiet,
            verbose: global.verbose,
            no_cache: global.no_cache,
        })
    }

    /// The results cache for a run with `options`, unless `--no-cache`.
    pub fn cache(&self, options: &Options) -> Option<crate::cache::Cache> {
        if self.no_cache {
            return None;
        }
        let cache = crate::cache::Cache::open(&self.root, options);
        if self.verbose
            && let Some(reason) = &cache.untrusted
        {
            eprintln!("note: results cache not used: {reason}");
        }
        Some(cache)
    }

    /// With `-v`: how many files a run checked, and how many the cache
    /// knew unchanged.
    pub fn say_cached(&self, outcome: &crate::database::Outcome) {
        if !self.verbose {
            return;
        }
        let files = |n: usize| format!("{n} file{}", if n == 1 { "" } else { "s" });
        if self.no_cache {
            eprintln!("{} checked (--no-cache)", files(outcome.checked));
        } else {
            eprintln!(
                "{} checked, {} unchanged since a clean run ({} of them read to compare \
                 contents; cache: {})",
                files(outcome.checked),
                outcome.cached,
                outcome.reread,
                crate::cache::location(&self.root).map_or_else(|e| e, |d| d.display().to_string())
            );
        }
    }

    /// Lint options from the configuration and the command line.
    pub fn options(&self, select: Option<&SelectArgs>) -> Result<Options, CommandError> {
        let lint = &self.config.lint;
        let (sel, extend, ignore) = match select {
            Some(s) => {
                let mut ignore = lint.ignore.clone();
                ignore.extend(s.ignore.iter().cloned());
                let mut extend = lint.extend_select.clone();
                extend.extend(s.extend_select.iter().cloned());
                (
                    s.select.clone().or_else(|| lint.select.clone()),
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
            sel.as_deref(),
            &extend,
            &ignore,
            &lint.severity,
            self.config.style,
        )
        .map_err(CommandError::Usage)?;
        Ok(Options {
            settings: self.config.lint_settings(),
            selection,
            line_ending: self.config.line_ending,
            empty_metadata: self.config.empty_metadata,
            drop_comments: false,
            general_path_only: false,
        })
    }

    pub fn exclude(&self) -> Result<globset::GlobSet, CommandError> {
        crate::discover::exclude_set(&self.config.exclude).map_err(CommandError::Usage)
    }
}

/// Show `path` relative to the current directory when it is under it.
fn relative_to_cwd(path: &Path, cwd: &Path) -> PathBuf {
    match path.strip_prefix(cwd) {
        Ok(rel) if rel.as_os_str().is_empty() => PathBuf::from("."),
        Ok(rel) => rel.to_path_buf(),
        Err(_) => path.to_path_buf(),
    }
}

/// Build the context from the global options and run `f` with it; a
/// context that cannot be built is an error (exit 2).
pub fn with_context(
    global: &GlobalArgs,
    f: impl FnOnce(&Context) -> Result<ExitStatus, CommandError>,
) -> Result<ExitStatus, CommandError> {
    f(&Context::new(global)?)
}

/// The most worker threads a run starts, whatever `--threads` says.
pub const MAX_THREADS: usize = 256;

/// `--threads N` as used: at most 4 per available core and at most
/// [`MAX_THREADS`] (more only adds memory and switching, and a hostile
/// `urldb.toml` or command line could ask for thousands).
pub fn capped_threads(asked: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    asked.min(cores.saturating_mul(4)).min(MAX_THREADS)
}
