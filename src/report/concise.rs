//! `--format concise`: one line per finding, for grep and editors. Text
//! from the database is escaped ([`crate::text`]); at most
//! [`super::SHOWN_PER_RULE`] findings of one rule per file.

use std::io::{self, Write};

use crate::database::FileResult;
use crate::text::escape;

pub fn write(out: &mut dyn Write, files: &[FileResult]) -> io::Result<()> {
    for file in files {
        let path = crate::source::shown_path(&file.path);
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
