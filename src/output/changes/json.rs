//! `--format json`: one document with every change, for machines. Keys
//! are kebab-case as in `verify --format json`; values are as urldb reads
//! them (a scalar's text, a list, a mapping; `null` where a side has no
//! such key). `docs/git.md` ("`urldb diff`") lists the fields.

use std::io::{self, Write};

use serde_json::{Value as Json, json};
use urldb_core::source::display_path;
use urldb_store::{ChangeSet, FileChange, FileKind, RecordChange, Side, Value};

use super::{file_word, record_word, which_word};

pub(crate) fn write(out: &mut dyn Write, changes: &ChangeSet) -> io::Result<()> {
    let (added, removed, changed) = changes.counts();
    let document = json!({
        "old": side(&changes.sides.old),
        "new": side(&changes.sides.new),
        "summary": {
            "files": changes.files.len(),
            "added": added,
            "removed": removed,
            "changed": changed,
        },
        "files": changes.files.iter().map(file).collect::<Vec<_>>(),
        "errors": changes.errors.iter().map(|e| json!({
            "path": display_path(&e.path),
            "message": e.message(),
        })).collect::<Vec<_>>(),
    });
    urldb_output::write_json_pretty(&mut *out, &document)?;
    writeln!(out)
}

fn side(side: &Side) -> Json {
    match side {
        Side::WorkTree => json!({"kind": "work-tree"}),
        Side::Index => json!({"kind": "index"}),
        Side::Head => json!({"kind": "revision", "revision": "HEAD"}),
        Side::Revision(rev) => json!({"kind": "revision", "revision": rev}),
    }
}

fn file(file: &FileChange) -> Json {
    let mut object = json!({
        "path": display_path(&file.path),
        "domain": file.domain,
        "status": file_word(file),
        "metadata": file.metadata.iter().map(|k| json!({
            "key": k.key,
            "old": value(k.old.as_ref()),
            "new": value(k.new.as_ref()),
            "every-url": k.changes_every_url(),
        })).collect::<Vec<_>>(),
        "records": file.records.iter().map(record).collect::<Vec<_>>(),
        "verify-every-record": file.recheck() == Some(urldb_store::Recheck::Every),
        "unreadable": file.unreadable.iter().map(|(which, why)| json!({
            "side": which_word(*which),
            "reason": why.to_string(),
            "error": why.is_error(),
        })).collect::<Vec<_>>(),
    });
    if let FileKind::Renamed { from, from_domain } = &file.kind {
        object["renamed-from"] = json!({
            "path": display_path(from),
            "domain": from_domain,
        });
    }
    object
}

fn record(record: &RecordChange) -> Json {
    json!({
        "path": record.path,
        "status": record_word(record.kind),
        "line": record.new_line,
        "old-line": record.old_line,
        "url": record.url,
        "keys": record.keys.iter().map(|k| json!({
            "key": k.key,
            "old": value(k.old.as_ref()),
            "new": value(k.new.as_ref()),
        })).collect::<Vec<_>>(),
        "verify": record.changes_what_verify_reads(),
    })
}

fn value(value: Option<&Value>) -> Json {
    match value {
        None => Json::Null,
        Some(Value::Text(text)) => Json::String(text.clone()),
        Some(Value::List(items)) => {
            Json::Array(items.iter().map(|v| self::value(Some(v))).collect())
        }
        Some(Value::Map(entries)) => Json::Object(
            entries
                .iter()
                .map(|(k, v)| (k.clone(), self::value(Some(v))))
                .collect(),
        ),
    }
}
