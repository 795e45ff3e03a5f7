//! `urldb completions SHELL` and `urldb man`: generated from the clap
//! definitions, so they never drift from the real options.

use std::io::Write;

use crate::app::{CommandError, ExitStatus};

/// `command`: the whole command line, from `cli` (which knows it). The
/// script is made in memory and written once, so a failed write is an
/// error to report (clap_complete would panic on it).
pub(crate) fn completions(
    shell: clap_complete::Shell,
    mut command: clap::Command,
) -> Result<ExitStatus, CommandError> {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut command, "urldb", &mut out);
    write_all(&out)
}

pub(crate) fn man(command: clap::Command) -> Result<ExitStatus, CommandError> {
    let mut out = Vec::new();
    clap_mangen::Man::new(command)
        .render(&mut out)
        ?;
    write_all(&out)
}

fn write_all(bytes: &[u8]) -> Result<ExitStatus, CommandError> {
    let mut stdout = urldb_core::gate::stdout(urldb_core::gate::Syntax::Text);
    stdout.write_all(bytes)?;
    stdout.finish()?;
    Ok(ExitStatus::Success)
}
