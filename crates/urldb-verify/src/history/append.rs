//! Adding a run to a history file (`docs/verify.md`, "History"): its
//! lines appended while the file has room, else the file rewritten with
//! the newest runs, under the file's lock.

use std::io::Read;
use std::path::Path;

use serde::Serialize;
use urldb_core::source::shown_path;
use urldb_store::ReadError;
use urldb_store::write::{Lock, Notes};

use super::read::{Scan, open, scan};
use super::{HistoryError, kept_runs};
use crate::results::{RunInfo, UrlResult};
use crate::trend::Verdict;

/// One line of a history file, as written: one URL in one run.
#[derive(Serialize)]
struct Line<'a> {
    run: &'a str,
    /// The run's start time, RFC 3339 in UTC: runs are ordered by it.
    started: &'a str,
    url: &'a str,
    file: &'a str,
    line: usize,
    /// When this URL was checked (the run's start time).
    time: &'a str,
    status: Option<u16>,
    verdict: Verdict,
    /// What kind of failure, skip, block or acceptance (`status`,
    /// `accepted`, `challenge`, `skip`, ...), as in the JSON results.
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<&'a str>,
    reason: Option<&'a str>,
    ms: u64,
}

/// The most runs a history file holds before its oldest are dropped:
/// `keep` and a quarter more. Until then a run only adds its lines at the
/// end, so the file is rewritten once every few runs, not on every run.
pub fn limit(keep: usize) -> usize {
    keep.saturating_add(keep.div_ceil(4))
}

/// The history lines of a run's results, each ending in a newline.
pub fn lines(run: &RunInfo, results: &[UrlResult]) -> Vec<u8> {
    let mut out = Vec::new();
    for r in results {
        let line = Line {
            run: &run.id,
            started: &run.started,
            url: &r.url,
            file: &r.file,
            line: r.line,
            time: &run.started,
            status: r.status,
            verdict: r.outcome,
            kind: r.kind.as_deref(),
            reason: r.reason.as_deref(),
            ms: r.ms,
        };
        // Writing plain data to a Vec cannot fail.
        let _ = serde_json::to_writer(&mut out, &line);
        out.push(b'\n');
    }
    out
}

/// Add run `run`'s lines for `results` to the history at `path`, under
/// the file's lock: read again under it (lines another process added
/// meanwhile are kept), then appended when the file has room and nothing
/// malformed or repeated, else rewritten with the newest `keep - 1`
/// earlier runs (and any earlier lines of `run` itself) and these. What
/// the writer has to say meanwhile goes to `notes`.
pub fn append(
    path: &Path,
    run: &RunInfo,
    results: &[UrlResult],
    keep: usize,
    notes: Notes<'_>,
) -> Result<(), HistoryError> {
    let failed = |source| HistoryError::Write {
        path: path.to_path_buf(),
        source,
    };
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(HistoryError::Symlink(path.to_path_buf()));
    }
    let lock = Lock::acquire(path, notes).map_err(failed)?;
    let new = lines(run, results);
    let Some((mut file, _)) = open(path)? else {
        return lock.create(&new).map_err(failed);
    };
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)
        .map_err(|e| HistoryError::Read {
            path: path.to_path_buf(),
            source: ReadError::Io(e),
        })?;
    // Closed before the file is replaced: where Windows renames without
    // POSIX semantics (FAT, network drives), a file open even in this
    // process cannot be replaced.
    drop(file);
    // The run's start is written by `verify` itself: a time.
    let now = run
        .started
        .parse()
        .unwrap_or_else(|_| jiff::Timestamp::now());
    let Scan { history, lines } = scan(&shown_path(path), &bytes[..], true, now)?;
    let earlier = history.runs.iter().filter(|r| r.count.id != run.id).count();
    if history.malformed == 0 && history.duplicates == 0 && earlier < limit(keep) {
        let mut appending = lock.append().map_err(failed)?;
        appending.write(&new).map_err(failed)?;
        return appending.finish().map_err(failed);
    }
    let mut is_kept: Vec<bool> = history.runs.iter().map(|r| r.count.id == run.id).collect();
    for r in kept_runs(&history.runs, &run.id, keep) {
        is_kept[r] = true;
    }
    let mut text: Vec<u8> = lines
        .into_iter()
        .filter(|(r, _)| is_kept[*r])
        .flat_map(|(_, line)| line)
        .collect();
    text.extend_from_slice(&new);
    lock.replace(&bytes, &text).map_err(failed)
}
