//! The command line (clap derive): the subcommands and their dispatch. The
//! arguments of each command live beside it in `commands/`, what every run
//! shares in [`crate::app`].

use clap::{CommandFactory, Parser, Subcommand};

use crate::app::{ExitStatus, GlobalArgs, exit_status, with_context};
use crate::commands::check::CheckArgs;
use crate::commands::fmt::FmtArgs;

#[derive(Debug, Parser)]
#[command(
    name = "urldb",
    version,
    about = "Lint, format and maintain a URL database kept in git"
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
    /// Fetch every URL and check that it still works.
    Verify(crate::commands::verify::VerifyArgs),
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

/// Run the command; its result becomes the exit status in one place
/// ([`exit_status`]).
pub(crate) fn run(cli: Cli) -> ExitStatus {
    exit_status(match cli.command {
        Command::Rules => crate::commands::rules::list(),
        Command::Rule { code } => crate::commands::rules::show(&code),
        Command::Init(args) => crate::commands::init::run(&args, cli.global.quiet),
        Command::Completions { shell } => {
            crate::commands::completions::completions(shell, Cli::command())
        }
        Command::Man => crate::commands::completions::man(Cli::command()),
        Command::Report(args) => crate::commands::report::run(&args, cli.global.quiet),
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
