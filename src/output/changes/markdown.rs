//! `--format markdown`: the change set for a CI job page
//! (`$GITHUB_STEP_SUMMARY`) or a pull-request comment: the totals, then
//! each domain file with its metadata and records. Every text from the
//! database or git is a code span ([`urldb_output::markdown_code`]), so a
//! hostile `_path` forges no link, row or heading. The whole stays within
//! `--summary-limit` bytes, as `verify --format markdown` does: lines are
//! cut where the next would not fit, and what was left out is counted.

use std::fmt::{self, Write as _};
use std::io::{self, Write};

use urldb_core::source::display_path;
use urldb_output::gate::{Syntax, written_len};
use urldb_output::markdown_code as code;
use urldb_store::{ChangeSet, FileChange, FileKind, RecordKind};

use super::{file_word, key_change, key_changes, record_name, record_word, totals, which_word};

/// Room kept for the line that says what was left out.
const RESERVE: usize = 512;

pub(crate) fn write(out: &mut dyn Write, changes: &ChangeSet, limit: usize) -> io::Result<()> {
    let mut doc = String::new();
    summary(&mut doc, changes, limit).map_err(io::Error::other)?;
    out.write_all(doc.as_bytes())
}

fn summary(out: &mut String, changes: &ChangeSet, limit: usize) -> fmt::Result {
    let side = |s: &urldb_store::Side| match s {
        urldb_store::Side::WorkTree | urldb_store::Side::Index => s.label().to_string(),
        _ => code(s.label()),
    };
    writeln!(out, "## urldb diff")?;
    writeln!(out)?;
    if changes.files.is_empty() {
        writeln!(
            out,
            "No record changed ({} → {}).",
            side(&changes.sides.old),
            side(&changes.sides.new)
        )?;
        return Ok(());
    }
    writeln!(
        out,
        "**{}** ({} → {}).",
        totals(changes),
        side(&changes.sides.old),
        side(&changes.sides.new)
    )?;
    // (file, a record's line, the line)
    let lines: Vec<(usize, bool, String)> = changes
        .files
        .iter()
        .enumerate()
        .flat_map(|(i, file)| file_lines(file).into_iter().map(move |(r, l)| (i, r, l)))
        .collect();
    // Measured as the output gate writes it (`##[` in a `_path` is three
    // bytes more on standard output): the limit is on what the reader gets.
    let budget = limit.saturating_sub(RESERVE);
    let mut shown = 0;
    let mut written = written_len(out, Syntax::Text);
    for (_, _, line) in &lines {
        let more = written_len(line, Syntax::Text);
        if written + more > budget {
            break;
        }
        out.push_str(line);
        written += more;
        shown += 1;
    }
    let left = &lines[shown..];
    if !left.is_empty() {
        let records = left.iter().filter(|(_, record, _)| *record).count();
        let mut files: Vec<usize> = left.iter().map(|(file, _, _)| *file).collect();
        files.dedup();
        writeln!(out)?;
        writeln!(
            out,
            "… and {} more line{} ({} in {} file{}) not shown, to fit the summary's size; \
             `urldb diff --format json` lists every change.",
            left.len(),
            if left.len() == 1 { "" } else { "s" },
            super::records(records),
            files.len(),
            if files.len() == 1 { "" } else { "s" },
        )?;
    }
    Ok(())
}

/// A file's heading and its list, one line each (each ends in `\n`),
/// with whether it is a record's.
fn file_lines(file: &FileChange) -> Vec<(bool, String)> {
    let mut lines = Vec::new();
    let what = match &file.kind {
        FileKind::Modified => String::new(),
        FileKind::Renamed { from, from_domain } if file.kind.changes_domain(&file.domain) => {
            format!(
                ", renamed from {} in {}: every URL changes domain",
                code(from_domain),
                code(&display_path(from))
            )
        }
        FileKind::Renamed { from, .. } => format!(", moved from {}", code(&display_path(from))),
        _ => format!(", {} file", file_word(file)),
    };
    lines.push((
        false,
        format!(
            "\n### {} in {}{what}\n\n",
            code(&file.domain),
            code(&display_path(&file.path))
        ),
    ));
    for (which, why) in &file.unreadable {
        lines.push((
            false,
            format!(
                "- **the {} side cannot be read:** {}; its records are not compared\n",
                which_word(*which),
                code(&why.to_string())
            ),
        ));
    }
    for key in &file.metadata {
        lines.push((
            false,
            format!(
                "- metadata {}{}\n",
                key_change(key, &code, ":"),
                if key.changes_every_url() {
                    " (every URL of the domain)"
                } else {
                    ""
                }
            ),
        ));
    }
    for record in &file.records {
        let name = code(record_name(record.path.as_deref()));
        let line = match record.kind {
            RecordKind::Added => match &record.url {
                Some(url) => format!("- added {name} {}\n", code(url)),
                None => format!("- added {name}\n"),
            },
            RecordKind::Removed => format!("- removed {name}\n"),
            RecordKind::Changed => {
                let keys = key_changes(&record.keys, &code, "");
                format!("- {} {name}: {}\n", record_word(record.kind), keys)
            }
        };
        lines.push((true, line));
    }
    lines
}
