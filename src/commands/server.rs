//! `urldb server`: the language server, on stdin and stdout.

use crate::app::{CommandError, ExitStatus};

/// Serve until the client says `exit`: 0 after `shutdown`, 1 without it
/// (as the protocol asks), 2 when the connection itself failed.
pub(crate) fn run(config: Option<&std::path::Path>) -> Result<ExitStatus, CommandError> {
    // `[verify]` is checked with the rest of `urldb.toml`, as in `check`.
    let verify = urldb_verify::config::VerifySection::default();
    let sections: [&dyn urldb_core::config::Section; 1] = [&verify];
    match urldb_server::run_stdio(config.map(std::path::Path::to_path_buf), &sections) {
        Ok(true) => Ok(ExitStatus::Success),
        Ok(false) => Ok(ExitStatus::Failure),
        Err(e) => Err(e.into()),
    }
}
