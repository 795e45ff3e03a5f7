//! `urldb export` (being built).

use clap::Args;

use crate::cli::{Context, ExitStatus};

#[derive(Debug, Args)]
pub struct ExportArgs {}

pub fn run(_ctx: &Context, _args: &ExportArgs) -> ExitStatus {
    eprintln!("error: `urldb export` is not available yet");
    ExitStatus::Error
}
