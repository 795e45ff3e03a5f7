//! Command-line arguments (clap derive) and the run context every command
//! shares: configuration, database root, rule selection, colors, threads.

use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand, ValueEnum};

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

#[derive(Debug, Parser)]
#[command(
    name = "urldb",
    version,
    about = "Lint, format and maintain a URL database kept in git"
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
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
    /// Worker threads (default: one per core).
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

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Lint domain files.
    Check(CheckArgs),
    /// Rewrite domain files as canonical text.
    Fmt(FmtArgs),
    /// Add URLs to the database.
    Add(crate::commands::add::AddArgs),
    /// Remove URLs from the database.
    Rm(crate::commands::rm::RmArgs),
    /// List the database's URLs.
    Ls(crate::commands::ls::LsArgs),
    /// Fetch every URL and check that it still works.
    Verify(crate::commands::verify::VerifyArgs),
    /// Read records from another format into the database.
    Import(crate::commands::import::ImportArgs),
    /// Write the database in another format.
    Export(crate::commands::export::ExportArgs),
    /// List every rule.
    Rules,
    /// Show one rule's documentation.
    Rule {
        /// The rule code, e.g. `path-escape-case`.
        code: String,
    },
    /// Create a new database: urldb.toml and one example domain file.
    Init {
        /// Where (created if needed; default: the current directory).
        dir: Option<PathBuf>,
    },
    /// Install a git pre-commit hook that runs `check --staged` and `fmt --check --staged`.
    InstallHook {
        /// Replace a pre-commit hook urldb did not install (it is kept as a backup).
        #[arg(long)]
        force: bool,
    },
    /// Print a shell completion script.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff).
    Man,
    /// Run the language server (LSP over stdin and stdout) for editors.
    Server,
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

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Files or directories to check (default: the whole database).
    pub paths: Vec<PathBuf>,
    /// Apply safe fixes; the result is canonical text.
    #[arg(long, conflicts_with = "diff")]
    pub fix: bool,
    /// Show what `--fix` would change, as a unified diff; write nothing.
    #[arg(long)]
    pub diff: bool,
    /// Output format.
    #[arg(long, value_enum, env = "URLDB_FORMAT", default_value_t = crate::report::Format::Full)]
    pub format: crate::report::Format,
    #[command(flatten)]
    pub select: SelectArgs,
    /// Count findings per rule.
    #[arg(long)]
    pub statistics: bool,
    /// Exit 0 even when there are findings.
    #[arg(long)]
    pub exit_zero: bool,
    /// Read the file from stdin, as if it were NAME.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["staged", "since", "shard"])]
    pub stdin_filename: Option<PathBuf>,
    #[command(flatten)]
    pub git: GitArgs,
    /// Check only shard K of N (1-based): a deterministic split of the files for CI matrices.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<(usize, usize)>,
}

/// Which version of the files: the work tree (default), the index, or the
/// files changed since a revision.
#[derive(Debug, Args, Default)]
pub struct GitArgs {
    /// Use the staged contents (the git index) instead of the working tree.
    #[arg(long, conflicts_with = "since")]
    pub staged: bool,
    /// Only files changed between REV and the working tree (cross-file rules still see every file).
    #[arg(long, value_name = "REV")]
    pub since: Option<String>,
}

fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let err = || format!("`{text}` is not K/N with 1 <= K <= N (e.g. 2/4)");
    let (k, n) = text.split_once('/').ok_or_else(err)?;
    let k: usize = k.trim().parse().map_err(|_| err())?;
    let n: usize = n.trim().parse().map_err(|_| err())?;
    if k == 0 || n == 0 || k > n {
        return Err(err());
    }
    Ok((k, n))
}

#[derive(Debug, Args)]
pub struct FmtArgs {
    /// Files or directories to format (default: the whole database).
    pub paths: Vec<PathBuf>,
    /// List files that would change and exit 1; write nothing.
    #[arg(long, conflicts_with = "diff")]
    pub check: bool,
    /// Show the changes as a unified diff (`git apply` accepts it); write nothing.
    #[arg(long)]
    pub diff: bool,
    /// Read the file from stdin as NAME and write its canonical text to stdout.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["staged", "since"])]
    pub stdin_filename: Option<PathBuf>,
    #[command(flatten)]
    pub git: GitArgs,
    /// Rewrite files that have comments, dropping the comments.
    #[arg(long)]
    pub drop_comments: bool,
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
    pub fn new(global: &GlobalArgs) -> Result<Context, String> {
        let color = match global.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && std::io::IsTerminal::is_terminal(&std::io::stdout())
            }
        };
        let cwd = std::env::current_dir()
            .map_err(|e| format!("error: cannot read the current directory: {e}"))?;
        let config_path = match &global.config {
            Some(p) => Some(p.clone()),
            None => Config::discover(&cwd),
        };
        let config = match &config_path {
            Some(p) => Config::load(p).map_err(|e| e.render(color))?,
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
            return Err(format!(
                "error: database directory `{}` does not exist",
                root.display()
            ));
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
                return Err(format!(
                    "error: {}: root = \"{}\" leads outside the directory that holds {}; \
                     the database root must be inside it",
                    cfg.display(),
                    configured.display(),
                    crate::config::FILE_NAME
                ));
            }
        }
        crate::read::set_root(&root);
        if let Some(n) = global.threads {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n.max(1))
                .build_global()
                .map_err(|e| format!("error: --threads: {e}"))?;
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
    pub fn options(&self, select: Option<&SelectArgs>) -> Result<Options, String> {
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
        let selection = Selection::new(sel.as_deref(), &extend, &ignore, &lint.severity)?;
        Ok(Options {
            settings: self.config.lint_settings(),
            selection,
            line_ending: self.config.line_ending,
            empty_metadata: self.config.empty_metadata,
            drop_comments: false,
            general_path_only: false,
        })
    }

    pub fn exclude(&self) -> Result<globset::GlobSet, String> {
        crate::discover::exclude_set(&self.config.exclude)
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

/// Parse arguments, run the command, return the exit status.
pub fn run(cli: Cli) -> ExitStatus {
    match cli.command {
        Command::Rules => crate::commands::rules::list(),
        Command::Rule { code } => crate::commands::rules::show(&code),
        Command::Init { dir } => {
            crate::commands::init::run(dir.as_deref().unwrap_or(Path::new(".")))
        }
        Command::Completions { shell } => crate::commands::completions::completions(shell),
        Command::Man => crate::commands::completions::man(),
        Command::Server => crate::commands::server::run(cli.global.config.as_deref()),
        Command::InstallHook { force } => with_context(&cli.global, |ctx| {
            crate::commands::install_hook::run(ctx, force, &cli.global)
        }),
        Command::Check(args) => {
            with_context(&cli.global, |ctx| crate::commands::check::run(ctx, &args))
        }
        Command::Fmt(args) => {
            with_context(&cli.global, |ctx| crate::commands::fmt::run(ctx, &args))
        }
        Command::Add(args) => {
            with_context(&cli.global, |ctx| crate::commands::add::run(ctx, &args))
        }
        Command::Rm(args) => with_context(&cli.global, |ctx| crate::commands::rm::run(ctx, &args)),
        Command::Ls(args) => with_context(&cli.global, |ctx| crate::commands::ls::run(ctx, &args)),
        Command::Verify(args) => {
            with_context(&cli.global, |ctx| crate::commands::verify::run(ctx, &args))
        }
        Command::Import(args) => {
            with_context(&cli.global, |ctx| crate::commands::import::run(ctx, &args))
        }
        Command::Export(args) => {
            with_context(&cli.global, |ctx| crate::commands::export::run(ctx, &args))
        }
    }
}

fn with_context(global: &GlobalArgs, f: impl FnOnce(&Context) -> ExitStatus) -> ExitStatus {
    match Context::new(global) {
        Ok(ctx) => f(&ctx),
        Err(message) => {
            eprintln!("{}", message.trim_end());
            ExitStatus::Error
        }
    }
}
