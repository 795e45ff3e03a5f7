//! `--format concise`: one line per finding, for grep and editors. Text
//! from the database is escaped ([`urldb_core::text`]); at most
//! [`super::SHOWN_PER_RULE`] findings of one rule per file.

use std::io::{self, Write};

use urldb_core::text::escape;
use urldb_store::database::FileResult;

pub(crate) fn write(out: &mut dyn Write, files: &[FileResult]) -> io::Result<()> {
    for file in files {
        let path = urldb_core::source::shown_path(&file.path);
        let (shown, more) = super::capped(&file.checked.findings);
        for f in shown {
            let f = super::locate_one(file, f);
            let mark = if f.fixable { " [*]" } else { "" };
            writeln!(
                out,
                "{path}:{}:{}: {} {}{mark} {}",
                f.line,
                f.column,
                f.severity.as_str(),
                f.code,
                escape(f.message)
            )?;
        }
        for (code, n) in more {
            writeln!(out, "{}", super::more_line(&path, code, n))?;
        }
    }
    Ok(())
}

/// The line after the findings when suppressions excused some.
pub(crate) fn excused(out: &mut dyn Write, n: usize) -> io::Result<()> {
    if n > 0 {
        writeln!(out, "{}", super::excused_note(n))?;
    }
    Ok(())
}
