//! How a command ends: the exit status, the same in every command, and
//! the error that stops a command short (exit 2), printed in one place
//! ([`exit_status`]).

use std::path::PathBuf;

use urldb_store::SettingsError;
use urldb_verify::results::Conclusion;

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

impl ExitStatus {
    /// The more serious of two statuses (commands that go on after a
    /// failure).
    pub(crate) fn worse(self, other: ExitStatus) -> ExitStatus {
        if (other as i32) > (self as i32) {
            other
        } else {
            self
        }
    }
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
    /// `--timeout` or `[verify] timeout`: not a duration, or one out of
    /// range (0, which would fail every URL, or a day or more).
    #[error("timeout: `{}` {} (try \"10s\" or \"500ms\")", urldb_core::text::escape(.0), why_not_a_timeout(.0))]
    NotADuration(String),
    /// A value that is at least 1: `--per-host`, `--history-keep`, the
    /// concurrency.
    #[error("{0} must be at least 1")]
    Zero(&'static str),
    #[error("--max-body: `{}` is not a size (try \"100 MiB\")", urldb_core::text::escape(.0))]
    MaxBody(String),
    /// `verify --map-file`: unreadable, a link, or a line that is no map.
    #[error(transparent)]
    MapFile(#[from] urldb_verify::plan::MapFileError),
    /// `verify --shard auto/N` without a job index.
    #[error(transparent)]
    AutoShard(#[from] urldb_verify::AutoShardError),
    /// `--domain` or `--map` names a domain the database does not.
    #[error(transparent)]
    UnknownDomain(#[from] urldb_store::UnknownDomain),
    /// `--category`, `--path-prefix` or `--match` selects no record.
    #[error(transparent)]
    SelectsNothing(#[from] urldb_store::SelectsNothing),
    /// `ls`, `export` or `verify` named paths, and none is a domain file
    /// of a database: an empty answer would look like an empty selection.
    #[error(
        "none of the paths named is a domain file of the database (the notes above say why): \
         nothing to {0}"
    )]
    NoNamedFile(&'static str),
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
    /// `add`, `rm`, `import` where no configuration governs the working
    /// directory and several databases lie below it.
    #[error(
        "no {} governs this folder, and {} databases lie below it ({}): run the command in \
         the folder of the one to change, or name it with `--db DIR`",
        urldb_core::config::FILE_NAME,
        .0.len(),
        listed(.0)
    )]
    SeveralDatabases(Vec<std::path::PathBuf>),
    /// `init` in a folder above a database.
    #[error(
        "{} below already defines {}: a run here covers it (`urldb check` runs over it); \
         `urldb init --another` makes a second database here all the same",
        listed(.0),
        if .0.len() == 1 { "a database" } else { "databases" }
    )]
    DatabaseBelow(Vec<std::path::PathBuf>),
    /// `urldb diff`: a word that is no revision and no path, or both.
    #[error(transparent)]
    DiffWord(#[from] crate::commands::diff::WordError),
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
    #[error(
        "--archive-url `{}`: not an http or https URL",
        urldb_core::text::escape(.0)
    )]
    ArchiveUrl(String),
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
    /// `--marker-size` that is no length.
    #[error(
        "--marker-size {}: not a length of conflict markers (a number from 1 to 1024)",
        urldb_core::text::escape(.0)
    )]
    BadMarkerSize(String),
    /// `merge`, `install-hook --merge-driver`: git could not be run.
    #[error(transparent)]
    Merging(#[from] urldb_store::MergingError),
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
        "{} and {} set [verify] concurrency, timeout, retries or map differently, and this run takes \
         files of both: verify each database on its own, or pass `--config FILE`",
        urldb_core::source::shown_path(.first),
        urldb_core::source::shown_path(.other)
    )]
    RunLevelKeys { first: PathBuf, other: PathBuf },
    #[error("urldb server: {0}")]
    Server(#[from] urldb_server::ServerError),
    /// Standard output could not be written (a full disk). A closed pipe
    /// (`urldb ls | head -1`) never comes here: the output gate discards
    /// what is written after it (`urldb_output::gate::UntilClosed`), and
    /// the command ends with the status its findings give.
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
            "; {n} YAML file{} not named `<domain>.yaml` (`urldb check --show-files` says why)",
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

/// Why `text` is no timeout: a number with a unit urldb reads is a
/// duration out of range; anything else is no duration.
fn why_not_a_timeout(text: &str) -> &'static str {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    match (number.parse::<f64>(), unit.trim()) {
        (Ok(0.0), "" | "s" | "ms" | "m" | "min") => {
            "is no time to wait: a timeout is more than 0 (a request that may take no time fails \
             every URL)"
        }
        (Ok(_), "" | "s" | "ms" | "m" | "min") => "is too long: a timeout is less than a day",
        _ => "is not a duration",
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

/// The one place a command's result becomes the exit status: an error is
/// printed once, to stderr, and is exit 2. The message is whole: no caller
/// adds to it.
pub(crate) fn exit_status(result: Result<ExitStatus, CommandError>) -> ExitStatus {
    match result {
        Ok(status) => status,
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

/// The exit status a run of `verify` (or `report`) comes to.
pub(crate) fn verify_exit_status(conclusion: Conclusion) -> ExitStatus {
    match conclusion {
        Conclusion::Passed => ExitStatus::Success,
        Conclusion::Failed => ExitStatus::Failure,
        Conclusion::Problems => ExitStatus::Error,
    }
}

/// Configuration files for a message: the first five, escaped.
fn listed(configs: &[std::path::PathBuf]) -> String {
    let mut shown: Vec<String> = configs
        .iter()
        .take(5)
        .map(|c| format!("`{}`", urldb_core::source::shown_path(c)))
        .collect();
    if configs.len() > 5 {
        shown.push(format!("and {} more", configs.len() - 5));
    }
    shown.join(", ")
}
