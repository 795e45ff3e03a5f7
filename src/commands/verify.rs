//! `urldb verify` (being built).

use clap::Args;

use crate::cli::{Context, ExitStatus};

#[derive(Debug, Args)]
pub struct VerifyArgs {}

pub fn run(_ctx: &Context, _args: &VerifyArgs) -> ExitStatus {
    eprintln!("error: `urldb verify` is not available yet");
    ExitStatus::Error
}
