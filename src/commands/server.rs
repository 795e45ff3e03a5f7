//! `urldb server`: the language server, on stdin and stdout.

use crate::cli::ExitStatus;

/// Serve until the client says `exit`: 0 after `shutdown`, 1 without it
/// (as the protocol asks), 2 when the connection itself failed.
pub fn run(config: Option<&std::path::Path>) -> ExitStatus {
    match crate::server::run_stdio(config.map(std::path::Path::to_path_buf)) {
        Ok(true) => ExitStatus::Success,
        Ok(false) => ExitStatus::Failure,
        Err(message) => {
            eprintln!("error: urldb server: {message}");
            ExitStatus::Error
        }
    }
}
