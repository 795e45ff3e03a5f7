//! `--format json`: an array of findings with positions, for machines.

use std::io::{self, Write};

use urldb_store::database::FileResult;

pub(crate) fn write(out: &mut dyn Write, files: &[FileResult]) -> io::Result<()> {
    let all: Vec<_> = files.iter().flat_map(super::locate).collect();
    urldb_output::write_json_pretty(&mut *out, &all)?;
    writeln!(out)
}
