//! `urldb add` (being built).

use clap::Args;

use crate::cli::{Context, ExitStatus};

#[derive(Debug, Args)]
pub struct AddArgs {}

pub fn run(_ctx: &Context, _args: &AddArgs) -> ExitStatus {
    eprintln!("error: `urldb add` is not available yet");
    ExitStatus::Error
}
