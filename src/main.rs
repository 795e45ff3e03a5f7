use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = urldb::cli::Cli::parse();
    ExitCode::from(urldb::cli::run(cli) as u8)
}
