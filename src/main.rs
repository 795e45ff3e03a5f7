//! The `urldb` binary: the command line ([`cli`]), what every command
//! shares ([`app`]), one module per command ([`commands`]) and the output
//! formats of `check` ([`output`]). The work itself is done by the
//! workspace's library crates; `docs/dev/architecture.md` draws the map.

use std::process::ExitCode;

use clap::Parser;

mod app;
mod cli;
mod commands;
mod config_error;
mod output;
mod usage_hints;

fn main() -> ExitCode {
    match cli::Cli::try_parse() {
        Ok(cli) => ExitCode::from(cli::run(cli) as u8),
        Err(error) => ExitCode::from(usage(&error) as u8),
    }
}

/// clap's message (a usage error, or `--help`, `--version`), written
/// through the output gate as everything else: an error quotes the bad
/// argument, which may be a stranger's file name (`urldb check $(git diff
/// --name-only …)`), so its control characters are escaped and a runner
/// command in it reads as nothing.
fn usage(error: &clap::Error) -> i32 {
    use std::io::Write;
    use urldb_output::gate;
    let mut text = error.render().to_string();
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if let Some(tip) = usage_hints::hint(error, &args) {
        text = usage_hints::with_tip(&text, &tip);
    }
    let result = if error.use_stderr() {
        let mut err = gate::stderr();
        text.lines()
            .try_for_each(|line| writeln!(err, "{}", urldb_core::text::escape(line)))
            .and_then(|()| err.finish())
    } else {
        let mut out = gate::stdout(gate::Syntax::Text);
        out.write_all(text.as_bytes()).and_then(|()| out.finish())
    };
    // As clap exits: 2 for a usage error, 0 for help and version. A
    // message that cannot be written is lost, the exit code is not.
    let _ = result;
    error.exit_code()
}
