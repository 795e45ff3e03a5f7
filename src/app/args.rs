//! The options several commands share, grouped as each command offers
//! them ([`Shared`]), and the global options given before the command
//! that they are put on top of ([`GlobalArgs::with`]).

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use urldb_verify::results::FailOn;

use super::errors::CommandError;

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

/// The database options, `--color` and `-q`: every command that reads a
/// database and prints (`add`, `rm`, `ls`, `diff`, `verify`, ...); those
/// that also act on `-v` or `--threads` offer that group beside it.
#[derive(Debug, Args, Default)]
pub(crate) struct DbOutputArgs {
    #[command(flatten)]
    pub db: DbArgs,
    #[command(flatten)]
    pub color: ColorArg,
    #[command(flatten)]
    pub quiet: QuietArg,
}

impl Shared for DbOutputArgs {
    fn options(&self) -> &'static [&'static str] {
        &["--db", "--config", "--config-from", "--color", "--quiet"]
    }

    fn apply(&self, global: &mut GlobalArgs) {
        let groups: [&dyn Shared; 3] = [&self.db, &self.color, &self.quiet];
        for group in groups {
            group.apply(global);
        }
    }
}

/// Every shared option: `check` and `fmt`, which run over the files of a
/// database and take them all.
#[derive(Debug, Args, Default)]
pub(crate) struct FilesArgs {
    #[command(flatten)]
    pub output: DbOutputArgs,
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
        let groups: [&dyn Shared; 4] = [&self.output, &self.verbose, &self.threads, &self.cache];
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
