//! `--format concise`: one line per finding, for grep and editors.

use std::io::{self, Write};

use crate::database::FileResult;

pub fn write(out: &mut dyn Write, files: &[FileResult]) -> io::Result<()> {
    for file in files {
        for f in super::locate(file) {
            let mark = if f.fixable { " [*]" } else { "" };
            writeln!(
                out,
                "{}:{}:{}: {} {}{mark} {}",
                f.path,
                f.line,
                f.column,
                f.severity.as_str(),
                f.code,
                f.message
            )?;
        }
    }
    Ok(())
}
