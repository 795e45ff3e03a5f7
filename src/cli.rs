//! The command line (clap derive): the subcommands and their dispatch. The
//! arguments of each command live beside it in `commands/`, what every run
//! shares in [`crate::app`].

use std::path::PathBuf;

use clap::{CommandFactory, Parser, Subcommand};

use crate::app::{ExitStatus, GlobalArgs, exit_status, with_context};
use crate::commands::check::CheckArgs;
use crate::commands::fmt::FmtArgs;

#[derive(Debug, Parser)]
#[command(
    name = "urldb",
    version,
    about = "Lint, format and maintain a URL database kept in git",
    after_help = "The options above may also follow the command; `urldb COMMAND --help` \
                  lists those that act in it."
)]
pub(crate) struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
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
    /// What changed in the database between two versions in git, record by record.
    Diff(crate::commands::diff::DiffArgs),
    /// Merge three versions of a domain file by records (for tools other than git).
    Merge(crate::commands::merge::MergeArgs),
    /// git's merge driver for domain files (`urldb install-hook --merge-driver` sets it up).
    MergeDriver(crate::commands::merge::MergeDriverArgs),
    /// Fetch every URL and check that it still works.
    Verify(Box<crate::commands::verify::VerifyArgs>),
    /// Show, or with --write make, the change for each URL `verify --follow-moves` found moved.
    Moved(crate::commands::moved::MovedArgs),
    /// Merge the `verify --format json` results of shards and show them.
    Report(crate::commands::report::ReportArgs),
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
    /// Write urldb.toml for the database that is there, or create a new
    /// one (urldb.toml and one example domain file).
    Init(crate::commands::init::InitArgs),
    /// Install a git pre-commit hook that runs `check --staged` and `fmt --check --staged`.
    InstallHook {
        /// Replace a pre-commit hook urldb did not install (it is kept as a backup).
        #[arg(long)]
        force: bool,
        /// Set up the merge driver instead: a line in .gitattributes for the database's domain files, and `merge.urldb.driver` in the repository's git configuration.
        #[arg(long, conflicts_with = "force")]
        merge_driver: bool,
        #[command(flatten)]
        shared: crate::app::DbOutputArgs,
    },
    /// Print a shell completion script.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print a man page (roff): urldb's, or one command's (`urldb man check`).
    Man {
        /// The command whose page to print (default: urldb's own page).
        #[arg(value_name = "COMMAND")]
        command: Option<String>,
        /// Write every page (`urldb.1`, `urldb-check.1`, ...) into DIR instead (made if missing).
        #[arg(long, value_name = "DIR", conflicts_with = "command")]
        dir: Option<PathBuf>,
    },
    /// Run the language server (LSP over stdin and stdout) for editors.
    Server {
        /// The configuration file, for every file (default: the urldb.toml that governs each file, the nearest above it within the git work tree).
        #[arg(long, value_name = "FILE", help_heading = crate::app::DATABASE_OPTIONS)]
        config: Option<PathBuf>,
    },
}

/// Run the command; its result becomes the exit status in one place
/// ([`exit_status`]). The shared options given after the command are put
/// on those given before it.
pub(crate) fn run(cli: Cli) -> ExitStatus {
    let global = cli.global;
    exit_status(match cli.command {
        Command::Rules => global
            .with("rules", &[])
            .and_then(|_| crate::commands::rules::list()),
        Command::Rule { code } => global
            .with("rule", &[])
            .and_then(|_| crate::commands::rules::show(&code)),
        Command::Init(args) => global
            .with("init", &[&args.quiet])
            .and_then(|g| crate::commands::init::run(&args, g.quiet)),
        Command::Completions { shell } => global
            .with("completions", &[])
            .and_then(|_| crate::commands::completions::completions(shell, Cli::command())),
        Command::Man { command, dir } => global.with("man", &[]).and_then(|_| {
            crate::commands::completions::man(Cli::command(), command.as_deref(), dir.as_deref())
        }),
        Command::Merge(args) => global
            .with("merge", &[])
            .and_then(|g| crate::commands::merge::merge(&g, &args)),
        Command::MergeDriver(args) => global
            .with("merge-driver", &[])
            .and_then(|g| crate::commands::merge::driver(&g, &args)),
        Command::Report(args) => global
            .with("report", &[&args.quiet])
            .and_then(|g| crate::commands::report::run(&args, g.quiet)),
        Command::Server { config } => global
            .with("server", &[&crate::app::ConfigOnly])
            .and_then(|g| crate::commands::server::run(config.or(g.config).as_deref())),
        Command::InstallHook {
            force,
            merge_driver,
            shared,
        } => global.with("install-hook", &[&shared]).and_then(|g| {
            with_context(&g, |ctx| {
                if merge_driver {
                    crate::commands::install_hook::merge_driver(ctx)
                } else {
                    crate::commands::install_hook::run(ctx, force, &g)
                }
            })
        }),
        Command::Check(args) => global
            .with("check", &[&args.shared])
            .and_then(|g| with_context(&g, |ctx| crate::commands::check::run(ctx, &args))),
        Command::Fmt(args) => global
            .with("fmt", &[&args.shared])
            .and_then(|g| with_context(&g, |ctx| crate::commands::fmt::run(ctx, &args))),
        Command::Add(args) => global
            .with("add", &[&args.shared])
            .and_then(|g| with_context(&g, |ctx| crate::commands::add::run(ctx, &args))),
        Command::Rm(args) => global
            .with("rm", &[&args.shared])
            .and_then(|g| with_context(&g, |ctx| crate::commands::rm::run(ctx, &args))),
        Command::Ls(args) => global
            .with("ls", &[&args.shared, &args.threads])
            .and_then(|g| with_context(&g, |ctx| crate::commands::ls::run(ctx, &args))),
        Command::Diff(args) => global
            .with("diff", &[&args.shared])
            .and_then(|g| with_context(&g, |ctx| crate::commands::diff::run(ctx, &args))),
        Command::Verify(args) => global
            .with("verify", &[&args.shared, &args.verbose])
            .and_then(|g| with_context(&g, |ctx| crate::commands::verify::run(ctx, &args))),
        Command::Moved(args) => global
            .with("moved", &[&args.shared])
            .and_then(|g| with_context(&g, |ctx| crate::commands::moved::run(ctx, &args))),
        Command::Import(args) => global
            .with("import", &[&args.shared])
            .and_then(|g| with_context(&g, |ctx| crate::commands::import::run(ctx, &args))),
        Command::Export(args) => global
            .with("export", &[&args.shared, &args.threads])
            .and_then(|g| with_context(&g, |ctx| crate::commands::export::run(ctx, &args))),
    })
}

#[cfg(test)]
mod tests {
    /// clap's own consistency checks (no two arguments with one short
    /// letter, valid defaults, ...) on the whole command tree: a collision
    /// would panic at startup in a debug build, only for the command that
    /// has it.
    #[test]
    fn argument_definitions_are_consistent() {
        use clap::CommandFactory;
        super::Cli::command().debug_assert();
    }
}
