//! `urldb completions SHELL` and `urldb man`: generated from the clap
//! definitions, so they never drift from the real options.

use std::io::Write;

use crate::app::ExitStatus;

/// `command`: the whole command line, from `cli` (which knows it).
pub fn completions(shell: clap_complete::Shell, mut command: clap::Command) -> ExitStatus {
    clap_complete::generate(shell, &mut command, "urldb", &mut std::io::stdout());
    ExitStatus::Success
}

pub fn man(command: clap::Command) -> ExitStatus {
    let mut out = Vec::new();
    if let Err(e) = clap_mangen::Man::new(command).render(&mut out) {
        eprintln!("error: {e}");
        return ExitStatus::Error;
    }
    match std::io::stdout().write_all(&out) {
        Ok(()) => ExitStatus::Success,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitStatus::Success,
        Err(e) => {
            eprintln!("error: {e}");
            ExitStatus::Error
        }
    }
}
