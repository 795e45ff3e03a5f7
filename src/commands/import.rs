//! `urldb import` (being built).

use clap::Args;

use crate::cli::{Context, ExitStatus};

#[derive(Debug, Args)]
pub struct ImportArgs {}

pub fn run(_ctx: &Context, _args: &ImportArgs) -> ExitStatus {
    eprintln!("error: `urldb import` is not available yet");
    ExitStatus::Error
}
