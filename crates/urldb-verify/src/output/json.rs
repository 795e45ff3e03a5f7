//! `--format json`: the results model itself, which `urldb report` reads
//! back.

use std::io::{self, Write};

use crate::results::Results;

/// One JSON document: the [`Results`] model itself (what `urldb report`
/// reads back).
pub fn write_json(out: &mut dyn Write, results: &Results) -> io::Result<()> {
    urldb_output::write_json_pretty(&mut *out, results)?;
    writeln!(out)
}
