//! `--format github`: GitHub Actions workflow commands, which the runner
//! shows on the pull request's files: a `::notice` on the line of each
//! record added or changed (what changed in it), one on the file for each
//! record removed, for a metadata change and for a renamed file, and a
//! `::warning` for a side that cannot be read. `file=` and the paths in
//! the messages are named as every annotation names its file
//! ([`crate::output::github::annotation_root`]: from `GITHUB_WORKSPACE`,
//! else the repository's top). Text from the database is escaped visibly
//! first ([`urldb_core::text::escape`]), then in GitHub's
//! way ([`urldb_output::github_data`], [`urldb_output::github_property`]).

use std::io::{self, Write};

use urldb_core::text::escape;
use urldb_output::AnnotationRoot;
use urldb_output::gate::Gate;
use urldb_output::{github_data as data, github_property as property};
use urldb_store::{ChangeSet, FileChange, FileKind, RecordKind};

use super::{key_change, key_changes, record_name, record_word, which_word};

pub(crate) fn write<W: Write>(out: &mut Gate<W>, changes: &ChangeSet) -> io::Result<()> {
    let root = crate::output::github::annotation_root();
    for file in &changes.files {
        write_file(out, file, changes, &root)?;
    }
    Ok(())
}

fn write_file<W: Write>(
    out: &mut Gate<W>,
    file: &FileChange,
    changes: &ChangeSet,
    root: &AnnotationRoot,
) -> io::Result<()> {
    let path = property(&escape(&root.file(&file.path)));
    let mut notice = |kind: &str, line: Option<usize>, title: &str, message: &str| {
        let line = line.map(|l| format!(",line={l}")).unwrap_or_default();
        out.command(&format!(
            "::{kind} file={path}{line},title={}::{}",
            property(&format!("urldb diff ({title})")),
            data(&escape(message))
        ))
    };
    if let FileKind::Renamed { from, from_domain } = &file.kind {
        let message = if file.kind.changes_domain(&file.domain) {
            format!(
                "renamed from {from_domain} ({}): every URL changes domain",
                root.file(from)
            )
        } else {
            format!("moved from {}", root.file(from))
        };
        notice("notice", None, "renamed", &message)?;
    }
    for (which, why) in &file.unreadable {
        let side = match which {
            urldb_store::Which::Old => &changes.sides.old,
            urldb_store::Which::New => &changes.sides.new,
        };
        notice(
            "warning",
            None,
            "unreadable",
            &format!(
                "the {} side ({}) cannot be read: {why}; its records are not compared",
                which_word(*which),
                side.label()
            ),
        )?;
    }
    for key in &file.metadata {
        let every = if key.changes_every_url() {
            " (every URL of the domain)"
        } else {
            ""
        };
        notice(
            "notice",
            Some(1),
            "metadata",
            &format!("{}{every}", key_change(key, &str::to_string, ":")),
        )?;
    }
    for record in &file.records {
        let name = record_name(record.path.as_deref());
        let message = match record.kind {
            RecordKind::Added => match &record.url {
                Some(url) => format!("{name}: {url}"),
                None => name.to_string(),
            },
            RecordKind::Removed => match record.old_line {
                Some(line) => format!("{name} (line {line} of {})", changes.sides.old.label()),
                None => name.to_string(),
            },
            RecordKind::Changed => {
                let keys = key_changes(&record.keys, &str::to_string, ":");
                format!("{name}: {keys}")
            }
        };
        notice(
            "notice",
            record.new_line,
            record_word(record.kind),
            &message,
        )?;
    }
    Ok(())
}
