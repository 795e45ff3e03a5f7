//! `urldb ls` (being built).

use clap::Args;

use crate::cli::{Context, ExitStatus};

#[derive(Debug, Args)]
pub struct LsArgs {}

pub fn run(_ctx: &Context, _args: &LsArgs) -> ExitStatus {
    eprintln!("error: `urldb ls` is not available yet");
    ExitStatus::Error
}
