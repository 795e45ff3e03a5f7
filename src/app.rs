//! What every command run shares: the global options, the run context
//! (configuration, database root, colors, threads, the rule selection it
//! asks for) and the exit status. Commands take a [`Context`] and return an
//! [`ExitStatus`]; `cli` builds the one and turns the other into the
//! process's exit code.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use urldb_core::config::Config;
use urldb_core::lint::Options;
use urldb_store::Root;
use urldb_store::{Databases, RuleOverrides, SettingsError};
use urldb_verify::config::{VerifyConfig, VerifySection};
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
/// broken URLs are not errors: they are [`ExitStatus::Failure`]. Each
/// variant adds its context once to the error it wraps, whose message is
/// whole (`docs/output.md`, "Error messages"); [`exit_status`] prints it.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CommandError {
    /// `urldb.toml`, the database directory or the rule selection.
    #[error(transparent)]
    Settings(#[from] SettingsError),
    /// `urldb.toml` is invalid: its report, rendered with the places in the
    /// file (in colour when asked).
    #[error("{error}")]
    Config {
        error: urldb_core::config::ConfigError,
        color: bool,
    },
    #[error("cannot read the current directory: {0}")]
    CurrentDir(#[source] std::io::Error),
    #[error("--threads: {0}")]
    Threads(#[source] rayon::ThreadPoolBuildError),
    #[error(transparent)]
    UnknownRule(#[from] urldb_core::selection::UnknownRule),
    #[error(transparent)]
    Exclude(#[from] urldb_core::config::BadExclude),
    #[error(transparent)]
    Size(#[from] urldb_core::config::NotASize),
    /// `--timeout` or `[verify] timeout`.
    #[error("timeout: `{}` is not a duration (try \"10s\" or \"500ms\")", urldb_core::text::escape(.0))]
    NotADuration(String),
    /// A value that is at least 1: `--per-host`, `--history-keep`, the
    /// concurrency.
    #[error("{0} must be at least 1")]
    Zero(&'static str),
    #[error("--max-body: `{}` is not a size (try \"100 MiB\")", urldb_core::text::escape(.0))]
    MaxBody(String),
    /// `--domain` or `--map` names a domain the database does not.
    #[error(transparent)]
    UnknownDomain(#[from] urldb_store::UnknownDomain),
    /// `--category`, `--path-prefix` or `--match` selects no record.
    #[error(transparent)]
    SelectsNothing(#[from] urldb_store::SelectsNothing),
    /// The database holds no domain file (`check`, `fmt`, `ls`, `export`,
    /// `verify` over the whole of it).
    #[error("{}", no_domain_file(root, origin, *misnamed))]
    NoDomainFile {
        root: String,
        origin: urldb_store::Origin,
        /// YAML files left out because their names are no domain names.
        misnamed: usize,
    },
    #[error(
        "--domain {}{source}",
        if quotes_input(.source) {
            String::new()
        } else {
            format!("`{}`: ", urldb_core::text::escape(.given))
        }
    )]
    DomainArg {
        given: String,
        source: urldb_core::url::UrlError,
    },
    #[error(transparent)]
    Git(#[from] urldb_store::GitError),
    /// `urldb diff`, `verify --since`/`--staged`: the two versions compared.
    #[error(transparent)]
    Changes(#[from] urldb_store::ChangesError),
    /// `init`: where the database is, or what is already there.
    #[error(transparent)]
    Init(#[from] urldb_store::InitError),
    #[error("cannot read standard input: {0}")]
    Stdin(#[source] std::io::Error),
    /// `check -` / `fmt -` without the file's name.
    #[error(
        "`-` reads the file from standard input, and urldb needs its name too: add \
         `--stdin-filename NAME` (e.g. `--stdin-filename example.com.yaml`)"
    )]
    DashWithoutName,
    #[error(
        "`-` (standard input) is the only file of its run: give the other paths to another run"
    )]
    DashBesidePaths,
    #[error(transparent)]
    Write(#[from] urldb_store::write::WriteError),
    /// `check --add-suppressions` could not write some files (each said).
    #[error("some suppressions were not written")]
    SuppressionsNotWritten,
    /// A file a command reads besides the database (`import`, `report`).
    #[error("cannot read {}: {source}", urldb_core::source::shown_path(.path))]
    Input {
        path: PathBuf,
        source: urldb_store::ReadError,
    },
    #[error("{}: not UTF-8 text", urldb_core::source::shown_path(.0))]
    NotText(PathBuf),
    #[error(
        "{}: not the output of `urldb verify --format json`: {source}",
        urldb_core::source::shown_path(.path)
    )]
    NotResults {
        path: PathBuf,
        source: serde_json::Error,
    },
    #[error(transparent)]
    History(#[from] urldb_verify::history::HistoryError),
    #[error(transparent)]
    Exceptions(#[from] urldb_verify::ExceptionError),
    /// `URLDB_ALLOW_ENV` (the Action's `allow-env`) is not text.
    #[error("URLDB_ALLOW_ENV: not UTF-8 text")]
    AllowEnvNotText,
    /// `URLDB_ALLOW_ENV` holds an entry that is not `NAME` or `NAME=HOST`.
    #[error("URLDB_ALLOW_ENV: {0}")]
    AllowEnv(#[source] urldb_verify::BadAllowEnv),
    /// A directory or file urldb makes (`init`, `install-hook`).
    #[error("{}: {source}", urldb_core::source::shown_path(.path))]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// `install-hook`: the hook is someone else's.
    #[error(
        "{} exists and was not installed by urldb; not replaced (run `urldb install-hook \
         --force` to replace it; the old hook is kept as a backup)",
        urldb_core::source::shown_path(.0)
    )]
    ForeignHook(PathBuf),
    #[error(
        "run `urldb install-hook` inside the repository's work tree ({})",
        urldb_core::source::shown_path(.0)
    )]
    OutsideWorkTree(PathBuf),
    #[error("no manual page `urldb-{name}` (there are: {pages})")]
    NoManPage { name: String, pages: String },
    #[error(
        "URLDB_FORMAT: `{}` is not a format (full, concise, json, github, junit, sarif)",
        urldb_core::text::escape(.0)
    )]
    BadFormatVariable(String),
    #[error(
        "SOURCE_DATE_EPOCH: `{}` is not a number of seconds since 1970 (unset it, or give one such as 1700000000)",
        urldb_core::text::escape(.0)
    )]
    SourceDateEpoch(String),
    #[error("--quiet and --verbose cannot be used together")]
    QuietAndVerbose,
    /// An option given before the command that does nothing in it.
    #[error(
        "{option} does nothing in `urldb {command}`; leave it out (`urldb {command} --help` \
         lists the options that act in it)"
    )]
    NotActing {
        option: &'static str,
        command: String,
    },
    /// `verify` over files of databases whose `[verify]` run-level keys
    /// differ.
    #[error(
        "{} and {} set [verify] concurrency, timeout or retries differently, and this run takes \
         files of both: verify each database on its own, or pass `--config FILE`",
        urldb_core::source::shown_path(.first),
        urldb_core::source::shown_path(.other)
    )]
    RunLevelKeys { first: PathBuf, other: PathBuf },
    #[error("urldb server: {0}")]
    Server(#[from] urldb_server::ServerError),
    /// Standard output could not be written. A closed pipe (`urldb ls |
    /// head -1`) is how a reader says it has seen enough: not an error.
    #[error("cannot write the output: {0}")]
    Output(#[from] std::io::Error),
}

/// Why a database with no domain file is an error, and what to do: the
/// `root` urldb.toml gives, `--db`, or `urldb init` where there is no
/// urldb.toml.
fn no_domain_file(root: &str, origin: &urldb_store::Origin, misnamed: usize) -> String {
    use urldb_core::text::escape;
    use urldb_store::Origin;
    let root = escape(root);
    let files = "no domain file (`<domain>.yaml`)";
    let misnamed = match misnamed {
        0 => String::new(),
        n => format!(
            "; {n} YAML file{} whose name is no domain name (`urldb check --show-files` says why)",
            if n == 1 { "" } else { "s" }
        ),
    };
    match origin {
        Origin::Configured(config) => format!(
            "the database `{root}` holds {files}{misnamed}: check `root` in {} and the \
             directory urldb runs in (`working-directory` in CI); `urldb check --show-files` \
             lists the files it finds",
            urldb_core::source::shown_path(config)
        ),
        Origin::Given => format!(
            "the database `{root}` (--db) holds {files}{misnamed}: pass the folder of the \
             domain files, or run `urldb init` to make a new database"
        ),
        Origin::Found | Origin::Here => format!(
            "no urldb.toml, and {files} below `{root}`{misnamed}: run urldb in the database \
             directory or pass `--db DIR`; `urldb init` writes a urldb.toml, or makes a new \
             database"
        ),
    }
}

/// A URL given on the command line that cannot be stored: `input: why`, or
/// the reason alone when it quotes the input itself.
pub(crate) fn about_url(input: &str, e: &urldb_core::url::UrlError) -> String {
    if quotes_input(e) {
        e.to_string()
    } else {
        format!("{}: {e}", urldb_core::text::escape(input))
    }
}

/// The error quotes the URL it is about.
pub(crate) fn quotes_input(e: &urldb_core::url::UrlError) -> bool {
    use urldb_core::url::UrlError;
    matches!(e, UrlError::NoHost { .. } | UrlError::Control { .. })
}

impl CommandError {
    fn is_closed_pipe(&self) -> bool {
        matches!(self, CommandError::Output(e) if e.kind() == std::io::ErrorKind::BrokenPipe)
    }
}

/// The one place a command's result becomes the exit status: an error is
/// printed once, to stderr, and is exit 2; a closed output pipe is a quiet
/// success, as in ripgrep. The message is whole: no caller adds to it.
pub(crate) fn exit_status(result: Result<ExitStatus, CommandError>) -> ExitStatus {
    match result {
        Ok(status) => status,
        Err(e) if e.is_closed_pipe() => ExitStatus::Success,
        Err(CommandError::Config { error, color }) => {
            urldb_output::say!("{}", crate::config_error::render(&error, color).trim_end());
            ExitStatus::Error
        }
        Err(e) => {
            urldb_output::say!(
                "error: {}",
                urldb_core::text::escape(e.to_string().trim_end())
            );
            ExitStatus::Error
        }
    }
}

/// The help headings of the options several commands share, as cargo and
/// uv group theirs: each command lists the ones that act in it, under
/// these headings (`docs/guide.md`, "Options shared by several commands").
pub(crate) const DATABASE_OPTIONS: &str = "Database options";
pub(crate) const OUTPUT_OPTIONS: &str = "Output options";
pub(crate) const RUN_OPTIONS: &str = "Run options";

/// The shared options, given before the command (`urldb --db DIR check`)
/// or after it (`urldb check --db DIR`), which wins. Before it they are
/// taken by every command and used by those they act in; after it, each
/// command offers only its own.
#[derive(Debug, Args, Default)]
pub(crate) struct GlobalArgs {
    /// The database directory, with the urldb.toml that governs it (default: the database of the urldb.toml that governs the current directory).
    #[arg(long, value_name = "DIR", help_heading = DATABASE_OPTIONS)]
    pub db: Option<PathBuf>,
    /// The configuration file, for every file (default: the urldb.toml that governs each file, the nearest above it within the git work tree).
    #[arg(long, value_name = "FILE", help_heading = DATABASE_OPTIONS)]
    pub config: Option<PathBuf>,
    /// Read urldb.toml through git from this revision (a pull request's base), not from the working tree; the data is still the working tree's [env: URLDB_CONFIG_FROM].
    #[arg(long, value_name = "REV", help_heading = DATABASE_OPTIONS)]
    pub config_from: Option<String>,
    /// When to use colors [default: auto].
    #[arg(long, value_enum, help_heading = OUTPUT_OPTIONS)]
    pub color: Option<ColorChoice>,
    /// Print less (only findings and errors).
    #[arg(short, long, conflicts_with = "verbose", help_heading = OUTPUT_OPTIONS)]
    pub quiet: bool,
    /// Print more (every file processed).
    #[arg(short, long, help_heading = OUTPUT_OPTIONS)]
    pub verbose: bool,
    /// Worker threads (default: one per core; at most 4 per core and 256).
    #[arg(long, value_name = "N", help_heading = RUN_OPTIONS)]
    pub threads: Option<usize>,
    /// Do not read or write the results cache.
    #[arg(long, help_heading = RUN_OPTIONS)]
    pub no_cache: bool,
}

impl GlobalArgs {
    /// The options given before the command with the command's own on top.
    /// An option given before `command` that acts in none of the groups it
    /// offers is refused, as clap refuses it after the command: given
    /// where it does nothing, it is a mistake, not a choice.
    pub(crate) fn with(
        mut self,
        command: &str,
        own: &[&dyn Shared],
    ) -> Result<GlobalArgs, CommandError> {
        let offered: Vec<&str> = own
            .iter()
            .flat_map(|group| group.options())
            .copied()
            .collect();
        if let Some(option) = self.given().into_iter().find(|o| !offered.contains(o)) {
            return Err(CommandError::NotActing {
                option,
                command: command.to_string(),
            });
        }
        for options in own {
            options.apply(&mut self);
        }
        // The environment's revision, as the Action sets it for every step;
        // an option on the command line wins.
        if self.config_from.is_none() && offered.contains(&"--config-from") {
            self.config_from = std::env::var("URLDB_CONFIG_FROM").ok();
        }
        if self.quiet && self.verbose {
            return Err(CommandError::QuietAndVerbose);
        }
        Ok(self)
    }
}

impl GlobalArgs {
    /// The options given on the command line (before the command).
    fn given(&self) -> Vec<&'static str> {
        let given = [
            ("--db", self.db.is_some()),
            ("--config", self.config.is_some()),
            ("--config-from", self.config_from.is_some()),
            ("--color", self.color.is_some()),
            ("--quiet", self.quiet),
            ("--verbose", self.verbose),
            ("--threads", self.threads.is_some()),
            ("--no-cache", self.no_cache),
        ];
        given
            .into_iter()
            .filter(|(_, g)| *g)
            .map(|(o, _)| o)
            .collect()
    }
}

/// A group of shared options a command offers.
pub(crate) trait Shared {
    /// Put what was given on top of `global`.
    fn apply(&self, global: &mut GlobalArgs);
    /// The options of the group, as written on the command line.
    fn options(&self) -> &'static [&'static str];
}

/// `--config` alone: `urldb server`, which reads only the configuration.
pub(crate) struct ConfigOnly;

impl Shared for ConfigOnly {
    fn apply(&self, _: &mut GlobalArgs) {}
    fn options(&self) -> &'static [&'static str] {
        &["--config"]
    }
}

/// `--db` and `--config`: the commands that read a database.
#[derive(Debug, Args, Default)]
pub(crate) struct DbArgs {
    /// The database directory, with the urldb.toml that governs it (default: the database of the urldb.toml that governs the current directory).
    #[arg(long, value_name = "DIR", help_heading = DATABASE_OPTIONS)]
    pub db: Option<PathBuf>,
    /// The configuration file, for every file (default: the urldb.toml that governs each file, the nearest above it within the git work tree).
    #[arg(long, value_name = "FILE", help_heading = DATABASE_OPTIONS)]
    pub config: Option<PathBuf>,
    /// Read urldb.toml through git from this revision (a pull request's base), not from the working tree; the data is still the working tree's [env: URLDB_CONFIG_FROM].
    #[arg(long, value_name = "REV", help_heading = DATABASE_OPTIONS)]
    pub config_from: Option<String>,
}

impl Shared for DbArgs {
    fn options(&self) -> &'static [&'static str] {
        &["--db", "--config", "--config-from"]
    }

    fn apply(&self, global: &mut GlobalArgs) {
        if self.db.is_some() {
            global.db.clone_from(&self.db);
        }
        if self.config.is_some() {
            global.config.clone_from(&self.config);
        }
        if self.config_from.is_some() {
            global.config_from.clone_from(&self.config_from);
        }
    }
}

/// `--color`: the commands that colour their output or their errors.
#[derive(Debug, Args, Default)]
pub(crate) struct ColorArg {
    /// When to use colors [default: auto].
    #[arg(long, value_enum, help_heading = OUTPUT_OPTIONS)]
    pub color: Option<ColorChoice>,
}

impl Shared for ColorArg {
    fn options(&self) -> &'static [&'static str] {
        &["--color"]
    }

    fn apply(&self, global: &mut GlobalArgs) {
        if self.color.is_some() {
            global.color = self.color;
        }
    }
}

/// `-q`: the commands that say more than their results.
#[derive(Debug, Args, Default)]
pub(crate) struct QuietArg {
    /// Print less (only findings and errors).
    #[arg(short, long, help_heading = OUTPUT_OPTIONS)]
    pub quiet: bool,
}

impl Shared for QuietArg {
    fn options(&self) -> &'static [&'static str] {
        &["--quiet"]
    }

    fn apply(&self, global: &mut GlobalArgs) {
        global.quiet |= self.quiet;
    }
}

/// `-v`: the commands that can say more.
#[derive(Debug, Args, Default)]
pub(crate) struct VerboseArg {
    /// Print more (every file processed).
    #[arg(short, long, conflicts_with = "quiet", help_heading = OUTPUT_OPTIONS)]
    pub verbose: bool,
}

impl Shared for VerboseArg {
    fn options(&self) -> &'static [&'static str] {
        &["--verbose"]
    }

    fn apply(&self, global: &mut GlobalArgs) {
        global.verbose |= self.verbose;
    }
}

/// `--threads`: the commands that read files on every core.
#[derive(Debug, Args, Default)]
pub(crate) struct ThreadsArg {
    /// Worker threads (default: one per core; at most 4 per core and 256).
    #[arg(long, value_name = "N", help_heading = RUN_OPTIONS)]
    pub threads: Option<usize>,
}

impl Shared for ThreadsArg {
    fn options(&self) -> &'static [&'static str] {
        &["--threads"]
    }

    fn apply(&self, global: &mut GlobalArgs) {
        if self.threads.is_some() {
            global.threads = self.threads;
        }
    }
}

/// `--no-cache`: the commands that use the results cache.
#[derive(Debug, Args, Default)]
pub(crate) struct CacheArg {
    /// Do not read or write the results cache.
    #[arg(long, help_heading = RUN_OPTIONS)]
    pub no_cache: bool,
}

impl Shared for CacheArg {
    fn options(&self) -> &'static [&'static str] {
        &["--no-cache"]
    }

    fn apply(&self, global: &mut GlobalArgs) {
        global.no_cache |= self.no_cache;
    }
}

/// Every shared option: `check` and `fmt`, which run over the files of a
/// database and take them all.
#[derive(Debug, Args, Default)]
pub(crate) struct FilesArgs {
    #[command(flatten)]
    pub db: DbArgs,
    #[command(flatten)]
    pub color: ColorArg,
    #[command(flatten)]
    pub quiet: QuietArg,
    #[command(flatten)]
    pub verbose: VerboseArg,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub cache: CacheArg,
}

impl Shared for FilesArgs {
    fn options(&self) -> &'static [&'static str] {
        &[
            "--db",
            "--config",
            "--config-from",
            "--color",
            "--quiet",
            "--verbose",
            "--threads",
            "--no-cache",
        ]
    }

    fn apply(&self, global: &mut GlobalArgs) {
        let groups: [&dyn Shared; 6] = [
            &self.db,
            &self.color,
            &self.quiet,
            &self.verbose,
            &self.threads,
            &self.cache,
        ];
        for group in groups {
            group.apply(global);
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub(crate) enum ColorChoice {
    #[default]
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
    /// `[verify]` of the configuration, checked with it.
    pub verify: VerifyConfig,
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
    pub origin: urldb_store::Origin,
    /// `urldb.toml` was read with `--config-from`: the owner's, from a
    /// revision a pull request cannot change (`--allow-env NAME` lets it
    /// choose the host a secret goes to).
    pub owners_config: bool,
    /// Every database of the run, the one above first: a named path is
    /// taken to the database whose configuration governs it
    /// (`docs/files.md`, "One configuration per file").
    pub databases: std::cell::RefCell<Databases<VerifySection>>,
    /// `--config FILE`: one configuration for every file.
    pub config_given: bool,
}

/// The working directory as the user's shell names it (`$PWD`, when it
/// is an absolute name of the current directory without `.` or `..`),
/// else as the system resolves it: `--config-from` finds the owner's
/// configuration on the path as named, never through a link
/// (`docs/security.md`).
fn logical_cwd() -> Result<PathBuf, CommandError> {
    let physical = std::env::current_dir().map_err(CommandError::CurrentDir)?;
    let named = std::env::var_os("PWD")
        .map(PathBuf::from)
        .filter(|p| {
            p.is_absolute()
                && p.components().all(|c| {
                    !matches!(
                        c,
                        std::path::Component::CurDir | std::path::Component::ParentDir
                    )
                })
        })
        .filter(|p| same_folder(p, &physical));
    Ok(named.unwrap_or(physical))
}

/// `a` and `b` name one folder.
fn same_folder(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (std::fs::metadata(a), std::fs::metadata(b)) {
            (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        matches!((dunce::canonicalize(a), dunce::canonicalize(b)), (Ok(x), Ok(y)) if x == y)
    }
}

impl Context {
    /// The run context; the error is the complete text to print.
    pub(crate) fn new(global: &GlobalArgs) -> Result<Context, CommandError> {
        let color = match global.color.unwrap_or_default() {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => auto_color(),
        };
        let cwd = logical_cwd()?;
        let (db, config) = (global.db.as_deref(), global.config.as_deref());
        // `URLDB_CONFIG_FROM=` (empty, as the Action leaves it outside
        // pull requests) is no revision.
        let rev = global.config_from.as_deref().filter(|r| !r.is_empty());
        // Every table of the file is checked before any command runs.
        let databases = Databases::<VerifySection>::open(&cwd, db, config, rev)
            .map_err(|e| settings_error(e, color))?;
        let settings = databases.primary().settings.clone();
        let verify = databases.get(0).1.read_config();
        // Said when it matters: the revision has no configuration at all.
        if let (Some(rev), true, false) = (rev, databases.revision_has_none(), global.quiet) {
            urldb_output::say!(
                "note: --config-from {}: that revision has no {} anywhere; using the defaults",
                urldb_core::text::escape(rev),
                urldb_core::config::FILE_NAME,
            );
        }
        if let (Some(rev), Some(path), false) = (rev, &settings.config_path, global.quiet) {
            note_unread_edit(&cwd, rev, path);
        }
        let members = databases.primary().members.clone();
        if let Some(asked) = global.threads {
            let n = capped_threads(asked);
            if n < asked {
                urldb_output::say!(
                    "note: --threads {asked} is more than this machine can use; using {n} \
                     (4 per core, at most {MAX_THREADS})"
                );
            }
            rayon::ThreadPoolBuilder::new()
                .num_threads(n.max(1))
                .build_global()
                .map_err(CommandError::Threads)?;
        }
        say_warnings(&settings);
        let bare = members.by_name();
        let owners_config = rev.is_some() && settings.config_path.is_some();
        Ok(Context {
            owners_config,
            bare,
            members,
            origin: settings.origin,
            config: settings.config,
            verify,
            root: settings.root,
            color,
            quiet: global.quiet,
            verbose: global.verbose,
            no_cache: global.no_cache,
            databases: std::cell::RefCell::new(databases),
            config_given: config.is_some(),
        })
    }

    /// The error of a database a named path led to (exit 2), as the
    /// primary one's would be said.
    pub(crate) fn settings_error(&self, e: SettingsError) -> CommandError {
        settings_error(e, self.color)
    }

    /// Database `i` of the run (0: the primary one): its settings, its
    /// members and its `[verify]`.
    pub(crate) fn database(&self, i: usize) -> (urldb_store::Database, VerifyConfig) {
        let databases = self.databases.borrow();
        let (database, verify) = databases.get(i);
        (database.clone(), verify.read_config())
    }

    /// The lint options of database `i` with the command line's selection.
    pub(crate) fn options_of(
        &self,
        i: usize,
        select: Option<&SelectArgs>,
    ) -> Result<Options, CommandError> {
        if i == 0 {
            return self.options(select);
        }
        let (database, _) = self.database(i);
        let mut options =
            urldb_store::lint_options(&database.settings.config, overrides(select).as_ref())?;
        urldb_store::with_root(&mut options, &database.settings.root);
        Ok(options)
    }

    /// The results cache of the database at `root` for a run with
    /// `options`, unless `--no-cache`.
    pub(crate) fn cache_at(&self, root: &Root, options: &Options) -> Option<urldb_store::Cache> {
        if self.no_cache {
            return None;
        }
        let cache = urldb_store::Cache::open(root, options);
        if self.verbose
            && let Some(reason) = &cache.untrusted
        {
            urldb_output::say!("note: results cache not used: {reason}");
        }
        Some(cache)
    }

    /// With `-v`: every file the run processed, each on a line (checked,
    /// or unchanged since a clean run and so not checked again), then how
    /// many of each.
    pub(crate) fn say_cached(&self, outcome: &urldb_store::database::RunOutcome) {
        if !self.verbose {
            return;
        }
        let files = |n: usize| format!("{n} file{}", if n == 1 { "" } else { "s" });
        for (path, cached) in &outcome.visited {
            urldb_output::say!(
                "{}: {}",
                urldb_core::source::shown_path(path),
                if *cached {
                    "unchanged since a clean run; not checked again"
                } else {
                    "checked"
                }
            );
        }
        if self.no_cache {
            urldb_output::say!("{} checked (--no-cache)", files(outcome.checked));
        } else {
            urldb_output::say!(
                "{} looked at: {} unchanged since a clean run ({} of them read again, their \
                 times having changed), {} checked; `--no-cache` checks every file",
                files(outcome.checked),
                outcome.cached,
                outcome.reread,
                outcome.checked.saturating_sub(outcome.cached),
            );
        }
    }

    /// Lint options from the configuration and the command line.
    pub(crate) fn options(&self, select: Option<&SelectArgs>) -> Result<Options, CommandError> {
        for code in select.iter().flat_map(|s| &s.ignore) {
            if urldb_core::rules::gate_findings::always(code) {
                urldb_output::say!(
                    "warning: --ignore {}: a gate finding is always checked and reported \
                     (see docs/suppressions.md, \"Gate findings\")",
                    urldb_core::text::escape(code)
                );
            }
        }
        let mut options = urldb_store::lint_options(&self.config, overrides(select).as_ref())?;
        urldb_store::with_root(&mut options, &self.root);
        Ok(options)
    }
}

/// `--config-from REV` reads `urldb.toml` as REV has it: when the work
/// tree's differs (a pull request's edit), say once that the edit is not
/// used, naming the file, so that a change that seems to do nothing is
/// explained. A file that cannot be read to compare is not said.
fn note_unread_edit(cwd: &Path, rev: &str, path: &Path) {
    let Ok(repo) = urldb_store::Repository::discover(cwd, "--config-from") else {
        return;
    };
    let Some(repo_path) = repo.repo_path(path) else {
        return;
    };
    let limit = urldb_core::config::MAX_CONFIG_SIZE;
    let Ok(Some(at_rev)) = repo.file_at(rev, &repo_path, limit) else {
        return;
    };
    let Ok(here) = urldb_store::read_limited(path, limit, None) else {
        return;
    };
    // Line endings git may convert on checkout are no edit.
    let text = |bytes: &[u8]| {
        bytes
            .iter()
            .copied()
            .filter(|b| *b != b'\r')
            .collect::<Vec<u8>>()
    };
    if text(&here) != text(&at_rev) {
        let shown = path.strip_prefix(cwd).unwrap_or(path);
        urldb_output::say!(
            "note: --config-from {}: {} is read as that revision has it; the working tree's \
             changes to it are not used by this run",
            urldb_core::text::escape(rev),
            urldb_core::text::escape(&shown.display().to_string())
        );
    }
}

/// `--color auto`: `NO_COLOR` (set, not empty) turns colours off;
/// otherwise `FORCE_COLOR` or `CLICOLOR_FORCE` (set, not empty and not
/// `0`) turns them on where no terminal is (a CI log that shows them);
/// otherwise colours when standard output is a terminal. As ruff, cargo
/// and most tools that read them.
fn auto_color() -> bool {
    let set = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    let forced = |name: &str| set(name).is_some_and(|v| v != "0" && v != "false");
    if set("NO_COLOR").is_some() {
        return false;
    }
    forced("FORCE_COLOR") || forced("CLICOLOR_FORCE") || urldb_output::gate::stdout_is_terminal()
}

/// `--select`, `--extend-select` and `--ignore`, on top of `[lint]`.
fn overrides(select: Option<&SelectArgs>) -> Option<RuleOverrides> {
    select.map(|s| RuleOverrides {
        select: s.select.clone(),
        extend_select: s.extend_select.clone(),
        ignore: s.ignore.clone(),
    })
}

/// A configuration's error as the command says it: an invalid file with
/// its places (in colour when asked), anything else as it is.
fn settings_error(e: SettingsError, color: bool) -> CommandError {
    match e {
        SettingsError::Config(error) => CommandError::Config { error, color },
        e => CommandError::Settings(e),
    }
}

/// What a configuration asks that is not done (a gate finding turned
/// off), said once for each configuration a run reads.
pub(crate) fn say_warnings(settings: &urldb_store::Settings) {
    if let Some(path) = &settings.config_path {
        for (line, warning) in &settings.config.warnings {
            urldb_output::say!(
                "warning: {}:{line}: {}",
                urldb_core::source::shown_path(path),
                urldb_core::text::escape(warning)
            );
        }
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
    config: &VerifyConfig,
    default: std::time::Duration,
) -> Result<std::time::Duration, CommandError> {
    match given.or(config.timeout.as_deref()) {
        Some(text) => urldb_verify::config::parse_duration(text)
            .ok_or_else(|| CommandError::NotADuration(text.to_string())),
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
