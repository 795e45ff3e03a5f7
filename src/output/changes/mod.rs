//! `urldb diff`'s output, one file per format, from one change set
//! ([`urldb_store::ChangeSet`]): [`human`] (grouped by domain file,
//! coloured on a terminal), [`json`], [`markdown`] (a job summary or a
//! pull-request comment, cut to a size) and [`github`] (a `::notice` on
//! each changed record). `docs/git.md` ("`urldb diff`") describes them.

pub(crate) mod github;
pub(crate) mod human;
pub(crate) mod json;
pub(crate) mod markdown;

use urldb_store::{FileChange, FileKind, KeyChange, RecordKind, Side, Value, Which};

/// Output formats of `diff`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Format {
    /// Grouped by domain file, one line per record (coloured on a terminal).
    Human,
    /// One JSON document with every change.
    Json,
    /// A Markdown summary for a CI job page or a pull-request comment.
    Markdown,
    /// GitHub Actions annotations: a `::notice` on each changed record.
    Github,
}

/// A value as the text formats show it (not escaped yet): a scalar's
/// text, a list as `[a, b]`, a mapping as `{k: v}`.
pub(crate) fn shown(value: Option<&Value>) -> String {
    match value {
        None => "(none)".to_string(),
        Some(Value::Text(text)) if text.is_empty() => "\"\"".to_string(),
        Some(Value::Text(text)) => text.clone(),
        Some(Value::List(items)) => {
            let items: Vec<String> = items.iter().map(|v| shown(Some(v))).collect();
            format!("[{}]", items.join(", "))
        }
        Some(Value::Map(entries)) => {
            let entries: Vec<String> = entries
                .iter()
                .map(|(k, v)| format!("{k}: {}", shown(Some(v))))
                .collect();
            format!("{{{}}}", entries.join(", "))
        }
    }
}

/// One key's change as a text format writes it, `key: old → new`: each
/// part through `quote` (an escape, a code span), `colon` after the key.
pub(crate) fn key_change(key: &KeyChange, quote: &dyn Fn(&str) -> String, colon: &str) -> String {
    format!(
        "{}{colon} {} → {}",
        quote(&key.key),
        quote(&shown(key.old.as_ref())),
        quote(&shown(key.new.as_ref()))
    )
}

/// A changed record's keys ([`key_change`]), `; ` between them.
pub(crate) fn key_changes(
    keys: &[KeyChange],
    quote: &dyn Fn(&str) -> String,
    colon: &str,
) -> String {
    let parts: Vec<String> = keys.iter().map(|k| key_change(k, quote, colon)).collect();
    parts.join("; ")
}

/// `a record`, `3 records`.
pub(crate) fn records(n: usize) -> String {
    format!("{n} record{}", if n == 1 { "" } else { "s" })
}

/// The record's `_path`, or what stands for a record without one.
pub(crate) fn record_name(path: Option<&str>) -> &str {
    path.unwrap_or("(a record without `_path`)")
}

/// What a side is called in the text formats: `HEAD`, `the index`.
pub(crate) fn side_name(side: &Side) -> String {
    urldb_core::text::escape(side.label()).into_owned()
}

/// One word for what became of a record.
pub(crate) fn record_word(kind: RecordKind) -> &'static str {
    match kind {
        RecordKind::Added => "added",
        RecordKind::Removed => "removed",
        RecordKind::Changed => "changed",
    }
}

/// One word for what became of a file.
pub(crate) fn file_word(file: &FileChange) -> &'static str {
    match &file.kind {
        FileKind::Added => "added",
        FileKind::Removed => "removed",
        FileKind::Modified => "modified",
        FileKind::Renamed { .. } if file.kind.changes_domain(&file.domain) => "renamed",
        FileKind::Renamed { .. } => "moved",
    }
}

/// `old`, `new`.
pub(crate) fn which_word(which: Which) -> &'static str {
    match which {
        Which::Old => "old",
        Which::New => "new",
    }
}

/// The totals of a change set, for the closing line of a text format:
/// `2 records added, 1 removed, 1 changed in 3 domain files`.
pub(crate) fn totals(changes: &urldb_store::ChangeSet) -> String {
    let (added, removed, changed) = changes.counts();
    let files = changes.files.len();
    let renamed = changes
        .files
        .iter()
        .filter(|f| f.kind.changes_domain(&f.domain))
        .count();
    let renamed = match renamed {
        0 => String::new(),
        1 => "; 1 renamed (every URL of it changes domain)".to_string(),
        n => format!("; {n} renamed (every URL of them changes domain)"),
    };
    format!(
        "{} added, {removed} removed, {changed} changed in {files} domain file{}{renamed}",
        records(added),
        if files == 1 { "" } else { "s" }
    )
}
