//! `urldb rm` (being built).

use clap::Args;

use crate::cli::{Context, ExitStatus};

#[derive(Debug, Args)]
pub struct RmArgs {}

pub fn run(_ctx: &Context, _args: &RmArgs) -> ExitStatus {
    eprintln!("error: `urldb rm` is not available yet");
    ExitStatus::Error
}
