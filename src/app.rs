//! What every command run shares: the global options, the run context
//! (configuration, database root, colors, threads, the rule selection it
//! asks for) and the exit status. Commands take a [`Context`] and return an
//! [`ExitStatus`]; `cli` builds the one and turns the other into the
//! process's exit code.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use urldb_core::config::Config;
use urldb_core::lint::Options;
use urldb_store::read::Root;
use urldb_store::settings::{RuleOverrides, Settings, SettingsError};
use urldb_verify::results::{Conclusion, FailOn};

/// Exit codes, the same in every command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ExitStatus {
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
pub(crate) enum CommandError {
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
pub(crate) fn exit_status(result: Result<ExitStatus, CommandError>) -> ExitStatus {
    match result {
        Ok(status) => status,
        Err(e) if e.is_closed_pipe() => ExitStatus::Success,
        Err(CommandError::Config(report)) => {
            urldb_core::say!("{}", report.trim_end());
            ExitStatus::Error
        }
        Err(e) => {
            urldb_core::say!("error: {}", e.to_string().trim_end());
            ExitStatus::Error
        }
    }
}

#[derive(Debug, Args)]
pub(crate) struct GlobalArgs {
    /// The database directory (default: `root` in urldb.toml, else the current directory).
    #[arg(long, global = true, value_name = "DIR")]
    pub db: Option<PathBuf>,
    /// The configuration file (default: urldb.toml, found upward from the current directory).
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Read urldb.toml through git from this revision (a pull request's base), not from the working tree; the data is still the working tree's.
    #[arg(long, global = true, value_name = "REV", env = "URLDB_CONFIG_FROM")]
    pub config_from: Option<String>,
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
pub(crate) enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Args)]
pub(crate) struct SelectArgs {
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
pub(crate) struct Context {
    pub config: Config,
    pub root: Root,
    pub color: bool,
    pub quiet: bool,
    pub verbose: bool,
    /// `--no-cache`.
    pub no_cache: bool,
    /// No `urldb.toml` and no `--db`: the database is a guess, said so,
    /// and files whose names are no domain names are not domain files
    /// (`docs/files.md`, "Which files are in the database").
    pub bare: bool,
    /// Which files are in the database (`urldb_store::membership`).
    pub members: urldb_store::membership::Members,
    /// How the root was chosen.
    pub origin: urldb_store::settings::Origin,
}

impl Context {
    /// The run context; the error is the complete text to print.
    pub(crate) fn new(global: &GlobalArgs) -> Result<Context, CommandError> {
        let color = match global.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && urldb_core::gate::stdout_is_terminal()
            }
        };
        let cwd = std::env::current_dir()
            .map_err(|e| CommandError::Failed(format!("cannot read the current directory: {e}")))?;
        let (db, config) = (global.db.as_deref(), global.config.as_deref());
        // `URLDB_CONFIG_FROM=` (empty, as the Action leaves it outside
        // pull requests) is no revision.
        let rev = global.config_from.as_deref().filter(|r| !r.is_empty());
        let settings = match rev {
            Some(rev) => Settings::resolve_from_revision(&cwd, db, config, rev),
            None => Settings::resolve(&cwd, db, config),
        }
        .map_err(|e| match e {
            SettingsError::Config(e) => CommandError::Config(e.render(color)),
            SettingsError::RootOutside { .. } => CommandError::Config(format!("error: {e}")),
            SettingsError::NoRoot(_)
            | SettingsError::UnknownRule(_)
            | SettingsError::BadExclude(_)
            | SettingsError::Git(_)
            | SettingsError::NotAtRevision { .. }
            | SettingsError::Ambiguous { .. } => CommandError::Usage(e.to_string()),
        })?;
        // Said when it matters: the working tree has a configuration that
        // this run does not read.
        if let (Some(rev), None, false) = (rev, &settings.config_path, global.quiet)
            && let Some(unread) = config
                .map(Path::to_path_buf)
                .or_else(|| urldb_store::settings::find_config(&cwd))
        {
            let unread = unread.strip_prefix(&cwd).unwrap_or(&unread);
            urldb_core::say!(
                "note: --config-from {}: that revision has no {}; using the defaults, not {}",
                urldb_core::text::escape(rev),
                urldb_core::config::FILE_NAME,
                urldb_core::text::escape(&unread.display().to_string())
            );
        }
        let members = settings
            .members()
            .map_err(|e| CommandError::Usage(e.to_string()))?;
        if let Some(asked) = global.threads {
            let n = capped_threads(asked);
            if n < asked {
                urldb_core::say!(
                    "note: --threads {asked} is more than this machine can use; using {n} \
                     (4 per core, at most {MAX_THREADS})"
                );
            }
            rayon::ThreadPoolBuilder::new()
                .num_threads(n.max(1))
                .build_global()
                .map_err(|e| CommandError::Failed(format!("--threads: {e}")))?;
        }
        // What urldb.toml asks that is not done (a gate finding turned off).
        if let Some(path) = &settings.config_path {
            let shown = path.strip_prefix(&cwd).unwrap_or(path);
            for (line, warning) in &settings.config.warnings {
                urldb_core::say!(
                    "warning: {}:{line}: {}",
                    urldb_core::text::escape(&shown.display().to_string()),
                    urldb_core::text::escape(warning)
                );
            }
        }
        let bare = members.by_name();
        Ok(Context {
            bare,
            members,
            origin: settings.origin,
            config: settings.config,
            root: settings.root,
            color,
            quiet: global.quiet,
            verbose: global.verbose,
            no_cache: global.no_cache,
        })
    }

    /// The results cache for a run with `options`, unless `--no-cache`.
    pub(crate) fn cache(&self, options: &Options) -> Option<urldb_store::cache::Cache> {
        if self.no_cache {
            return None;
        }
        let cache = urldb_store::cache::Cache::open(&self.root, options);
        if self.verbose
            && let Some(reason) = &cache.untrusted
        {
            urldb_core::say!("note: results cache not used: {reason}");
        }
        Some(cache)
    }

    /// With `-v`: how many files a run checked, and how many the cache
    /// knew unchanged.
    pub(crate) fn say_cached(&self, outcome: &urldb_store::database::RunOutcome) {
        if !self.verbose {
            return;
        }
        let files = |n: usize| format!("{n} file{}", if n == 1 { "" } else { "s" });
        if self.no_cache {
            urldb_core::say!("{} checked (--no-cache)", files(outcome.checked));
        } else {
            urldb_core::say!(
                "{} checked, {} unchanged since a clean run ({} of them read to compare \
                 contents; cache: {})",
                files(outcome.checked),
                outcome.cached,
                outcome.reread,
                urldb_store::cache::location(&self.root)
                    .map_or_else(|e| e.to_string(), |d| d.display().to_string())
            );
        }
    }

    /// Lint options from the configuration and the command line.
    pub(crate) fn options(&self, select: Option<&SelectArgs>) -> Result<Options, CommandError> {
        for code in select.iter().flat_map(|s| &s.ignore) {
            if urldb_core::rules::gate_findings::always(code) {
                urldb_core::say!(
                    "warning: --ignore {}: a gate finding is always checked and reported \
                     (see docs/suppressions.md, \"Gate findings\")",
                    urldb_core::text::escape(code)
                );
            }
        }
        let overrides = select.map(|s| RuleOverrides {
            select: s.select.clone(),
            extend_select: s.extend_select.clone(),
            ignore: s.ignore.clone(),
        });
        let mut options = urldb_store::settings::lint_options(&self.config, overrides.as_ref())
            .map_err(|e| CommandError::Usage(e.to_string()))?;
        urldb_store::settings::with_root(&mut options, &self.root);
        Ok(options)
    }
}

/// Build the context from the global options and run `f` with it; a
/// context that cannot be built is an error (exit 2).
pub(crate) fn with_context(
    global: &GlobalArgs,
    f: impl FnOnce(&Context) -> Result<ExitStatus, CommandError>,
) -> Result<ExitStatus, CommandError> {
    f(&Context::new(global)?)
}

/// `--timeout`, else `[verify] timeout`, else `default`. Not a duration
/// is a usage error (exit 2), the same in every command that takes it.
pub(crate) fn timeout(
    given: Option<&str>,
    config: &Config,
    default: std::time::Duration,
) -> Result<std::time::Duration, CommandError> {
    match given.or(config.verify.timeout.as_deref()) {
        Some(text) => urldb_core::config::parse_duration(text).ok_or_else(|| {
            CommandError::Usage(format!(
                "timeout: `{text}` is not a duration (try \"10s\" or \"500ms\")"
            ))
        }),
        None => Ok(default),
    }
}

/// The most worker threads a run starts, whatever `--threads` says.
pub(crate) const MAX_THREADS: usize = 256;

/// `--threads N` as used: at most 4 per available core and at most
/// [`MAX_THREADS`] (more only adds memory and switching, and a hostile
/// `urldb.toml` or command line could ask for thousands).
pub(crate) fn capped_threads(asked: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    asked.min(cores.saturating_mul(4)).min(MAX_THREADS)
}

/// `--fail-on` of `verify` and `report`: what exits 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub(crate) enum FailOnArg {
    /// Any broken URL.
    #[default]
    Any,
    /// Only URLs broken now that were not in their previous run (every
    /// failure, without history).
    New,
    /// URLs answered by a bot wall fail too (with `any` or `new`: `any`
    /// when given alone).
    Blocked,
}

/// The `--fail-on` values given (comma-separated or repeated) as one rule.
pub(crate) fn fail_on(args: &[FailOnArg]) -> FailOn {
    FailOn {
        new_only: args.contains(&FailOnArg::New) && !args.contains(&FailOnArg::Any),
        blocked: args.contains(&FailOnArg::Blocked),
    }
}

/// The exit status a run of `verify` (or `report`) comes to.
pub(crate) fn verify_exit_status(conclusion: Conclusion) -> ExitStatus {
    match conclusion {
        Conclusion::Passed => ExitStatus::Success,
        Conclusion::Failed => ExitStatus::Failure,
        Conclusion::Problems => ExitStatus::Error,
    }
}
