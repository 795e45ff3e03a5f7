//! `--format human` (the default): each changed domain file under its
//! domain and path, then one line per metadata key and per record
//! (`+` added, `-` removed, `~` changed, with each changed key's old and
//! new value), and the totals (alone with `-q`). Colours (on a terminal, `--color`) only
//! mark what the signs already say. Every text from the database or git
//! is escaped ([`urldb_core::text::escape`]).

use std::io::{self, Write};

use urldb_core::source::shown_path;
use urldb_core::text::escape;
use urldb_store::{ChangeSet, FileChange, FileKind, RecordChange, RecordKind};

use super::{file_word, key_change, key_changes, record_name, side_name, totals, which_word};

/// The ANSI colours used, or nothing.
struct Paint(bool);

impl Paint {
    fn wrap(&self, code: &str, text: &str) -> String {
        if self.0 {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

pub(crate) fn write(
    out: &mut dyn Write,
    changes: &ChangeSet,
    color: bool,
    quiet: bool,
) -> io::Result<()> {
    // `-q` prints less: the totals line alone, which says whether and how
    // much changed; the records are what it leaves out.
    let paint = Paint(color);
    if !quiet {
        for file in &changes.files {
            write_file(out, file, changes, &paint)?;
        }
    }
    let between = format!(
        "{} → {}",
        side_name(&changes.sides.old),
        side_name(&changes.sides.new)
    );
    if changes.files.is_empty() {
        writeln!(out, "No record changed ({between}).")
    } else {
        writeln!(out, "{} ({between}).", totals(changes))
    }
}

fn write_file(
    out: &mut dyn Write,
    file: &FileChange,
    changes: &ChangeSet,
    paint: &Paint,
) -> io::Result<()> {
    let what = match &file.kind {
        FileKind::Modified => String::new(),
        FileKind::Renamed { from, from_domain } if file.kind.changes_domain(&file.domain) => {
            format!(
                " (renamed from {} in {}: every URL changes domain)",
                escape(from_domain),
                shown_path(from)
            )
        }
        FileKind::Renamed { from, .. } => format!(" (moved from {})", shown_path(from)),
        _ => format!(" ({} file)", file_word(file)),
    };
    writeln!(
        out,
        "{} {}{what}",
        paint.wrap("1", &escape(&file.domain)),
        shown_path(&file.path)
    )?;
    for (which, why) in &file.unreadable {
        let side = match which {
            urldb_store::Which::Old => &changes.sides.old,
            urldb_store::Which::New => &changes.sides.new,
        };
        writeln!(
            out,
            "  {} the {} side ({}) cannot be read: {}; its records are not compared",
            paint.wrap("31", "!"),
            which_word(*which),
            side_name(side),
            escape(&why.to_string())
        )?;
    }
    for key in &file.metadata {
        let every = if key.changes_every_url() {
            " (every URL of the domain)"
        } else {
            ""
        };
        writeln!(
            out,
            "  {} {}{every}",
            paint.wrap("33", "metadata"),
            key_change(key, &|t| escape(t).into_owned(), ":")
        )?;
    }
    for record in &file.records {
        writeln!(out, "  {}", record_line(record, paint))?;
    }
    Ok(())
}

/// `+ /path  URL`, `- /path`, `~ /path  key: old → new; ...`.
fn record_line(record: &RecordChange, paint: &Paint) -> String {
    let name = escape(record_name(record.path.as_deref())).into_owned();
    match record.kind {
        RecordKind::Added => {
            let url = record.url.as_deref().map(escape).unwrap_or_default();
            format!("{} {name}  {url}", paint.wrap("32", "+"))
                .trim_end()
                .to_string()
        }
        RecordKind::Removed => format!("{} {name}", paint.wrap("31", "-")),
        RecordKind::Changed => {
            let keys = key_changes(&record.keys, &|t| escape(t).into_owned(), ":");
            format!("{} {name}  {keys}", paint.wrap("33", "~"))
        }
    }
}
