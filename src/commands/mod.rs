//! One module per subcommand: read the arguments, call the library, print,
//! and say which exit status the run earned.

pub mod add;
pub mod check;
pub mod completions;
pub mod export;
pub mod fmt;
pub mod import;
pub mod init;
pub mod ls;
pub mod rm;
pub mod rules;
pub mod verify;

use std::io::Read;

use crate::database::FileError;

/// Print file errors (I/O problems) to stderr.
pub fn print_errors(errors: &[FileError]) {
    for e in errors {
        eprintln!(
            "error: {}: {}",
            crate::report::display_path(&e.path),
            e.message
        );
    }
}

pub fn read_stdin() -> Result<Vec<u8>, String> {
    let mut buf = Vec::new();
    std::io::stdin()
        .read_to_end(&mut buf)
        .map_err(|e| format!("cannot read stdin: {e}"))?;
    Ok(buf)
}
