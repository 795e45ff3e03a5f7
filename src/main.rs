//! The `urldb` binary: the command line ([`cli`]), what every command
//! shares ([`app`]), one module per command ([`commands`]) and the output
//! formats of `check` ([`report`]). The work itself is done by the
//! workspace's library crates; `docs/dev/architecture.md` draws the map.

use std::process::ExitCode;

use clap::Parser;

mod app;
mod cli;
mod commands;
mod output;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    ExitCode::from(cli::run(cli) as u8)
}
