//! `verify --history FILE`: one JSON line per URL per run, read before a
//! run to tell new failures from persistent ones and to mark flaky URLs,
//! and added to after it (`docs/verify.md`, "History").
//!
//! Kept as lychee keeps its cache: read with `BufRead` and serde_json,
//! judged by a pure function ([`crate::trend::classify`]), written under
//! the file's lock. A run appends its lines while the file holds fewer
//! than [`limit`] earlier runs and nothing malformed; otherwise the file
//! is rewritten with the newest `keep - 1` earlier runs and this one.
//!
//! History files concatenate: the lines of the shards of one CI run share
//! its run id, and a line read twice (two shards' copies of the same
//! earlier history, `cat`-ed together) counts once.

use std::collections::{HashMap, HashSet};
use std::hash::BuildHasher;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use urldb_core::source::shown_path;
use urldb_store::read::ReadError;
use urldb_store::write::{Lock, WriteError};

use crate::results::{Results, RunInfo, UrlResult};
use crate::trend::{RunCount, Verdict, classify};

/// The runs kept when `--history-keep` is not given.
pub const DEFAULT_KEEP: usize = 30;

/// The longest history line read; a longer one is malformed.
const MAX_LINE: usize = 64 * 1024;

/// Malformed lines named one by one; the rest are counted
/// ([`History::more_warnings`]), so that a file of junk cannot flood the
/// log (`docs/security.md`, "Budgets").
pub const MAX_WARNINGS: usize = 20;

/// Why a history could not be used (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    #[error(
        "{}: is a symbolic link; urldb does not write through links, nor read a history \
         through one",
        shown_path(.0)
    )]
    Symlink(PathBuf),
    #[error("{}: {source}", shown_path(.path))]
    Read { path: PathBuf, source: ReadError },
    #[error("{}: cannot write the history: {source}", shown_path(.path))]
    Write { path: PathBuf, source: WriteError },
}

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

/// What a reader needs of a line; the other fields are for people and
/// other tools, checked to be JSON and kept as written.
#[derive(Deserialize)]
struct Key {
    run: String,
    started: String,
    url: String,
    verdict: Verdict,
    #[serde(default)]
    kind: Option<String>,
}

/// One run met in a history: its id, earliest start, URLs checked and
/// found broken.
#[derive(Debug, Clone)]
struct Run {
    id: String,
    started: String,
    /// `started` read as a time, once the file is read: `last_judged` and
    /// `last_passed` ask it of every URL's runs.
    started_at: Option<jiff::Timestamp>,
    checked: usize,
    broken: usize,
    blocked: usize,
    skipped: usize,
    accepted: usize,
}

/// A history file as read: its runs in time order, each URL's verdicts,
/// and what was skipped.
#[derive(Debug, Default)]
pub struct History {
    /// Ordered by earliest start, then id (shard files come in any order).
    runs: Vec<Run>,
    /// Each URL's (run index, verdict), oldest run first.
    urls: HashMap<String, Vec<(usize, Verdict)>>,
    /// Lines seen twice (two copies of one earlier history concatenated).
    pub duplicates: usize,
    /// `FILE:LINE: why`, for the first [`MAX_WARNINGS`] malformed lines.
    warnings: Vec<String>,
    /// Every malformed line skipped.
    malformed: usize,
}

/// A history and, when asked for, its well-formed lines with their run.
struct Scan {
    history: History,
    lines: Vec<(usize, Vec<u8>)>,
}

impl History {
    /// Read the history at `path` before a run. A file that does not
    /// exist is an empty history (the first run); a symbolic link, or a
    /// file that cannot be read, is an error; a malformed line is skipped
    /// with a warning. Opened as every file urldb reads is: regular files
    /// only, never a FIFO, a device or `/proc`.
    pub fn read(path: &Path) -> Result<History, HistoryError> {
        let Some((file, _)) = open(path)? else {
            return Ok(History::default());
        };
        Ok(scan(&shown_path(path), BufReader::new(file), false)?.history)
    }

    /// `FILE:LINE: why`, for the first [`MAX_WARNINGS`] malformed lines.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Malformed lines skipped but not named in [`History::warnings`].
    pub fn more_warnings(&self) -> usize {
        self.malformed - self.warnings.len()
    }

    /// When `url` was last judged (ok or broken) by a run, by that run's
    /// start; `None` when never, or when no start time can be read.
    pub fn last_judged(&self, url: &str) -> Option<jiff::Timestamp> {
        self.last(url, Verdict::judged)
    }

    /// When `url` last passed, by that run's start.
    pub fn last_passed(&self, url: &str) -> Option<jiff::Timestamp> {
        self.last(url, |v| v == Verdict::Ok)
    }

    fn last(&self, url: &str, which: impl Fn(Verdict) -> bool) -> Option<jiff::Timestamp> {
        self.urls
            .get(url)?
            .iter()
            .filter(|(_, v)| which(*v))
            .filter_map(|(run, _)| self.runs[*run].started_at)
            .max()
    }

    /// The ids of the runs, oldest first.
    pub fn run_ids(&self) -> impl Iterator<Item = &str> {
        self.runs.iter().map(|r| r.id.as_str())
    }

    /// Give each of `results` its trend against the runs kept with `keep`
    /// (this one included), list each kept run's counts, and count the
    /// results again (new and flaky URLs). Results of no run are left as
    /// they are.
    pub fn judge(&self, results: &mut Results, keep: usize) {
        let Some(run) = results.runs.first().cloned() else {
            return;
        };
        let kept = kept_runs(&self.runs, &run.id, keep);
        let mut is_kept = vec![false; self.runs.len()];
        for &r in &kept {
            is_kept[r] = true;
        }
        for r in &mut results.results {
            let earlier: Vec<Verdict> = self
                .urls
                .get(&r.url)
                .into_iter()
                .flatten()
                .filter(|(run, _)| is_kept[*run])
                .map(|(_, verdict)| *verdict)
                .collect();
            r.history = Some(classify(&earlier, r.outcome));
        }
        let mut counts: Vec<RunCount> = kept
            .iter()
            .map(|&r| RunCount {
                id: self.runs[r].id.clone(),
                started: self.runs[r].started.clone(),
                checked: self.runs[r].checked,
                broken: self.runs[r].broken,
                blocked: self.runs[r].blocked,
                skipped: self.runs[r].skipped,
                accepted: self.runs[r].accepted,
            })
            .collect();
        counts.push(RunCount {
            id: run.id.clone(),
            started: run.started.clone(),
            checked: results.results.len(),
            broken: results.results.iter().filter(|r| r.is_broken()).count(),
            blocked: results.results.iter().filter(|r| r.is_blocked()).count(),
            skipped: results
                .results
                .iter()
                .filter(|r| r.outcome == Verdict::Skipped)
                .count(),
            accepted: results.results.iter().filter(|r| r.is_accepted()).count(),
        });
        results.history = counts;
        let (deprecated, elapsed) = (results.summary.skipped_deprecated, results.summary.elapsed);
        results.recount(deprecated, elapsed);
    }
}

/// The file at `path` opened to be read; none when it does not exist.
fn open(path: &Path) -> Result<Option<(std::fs::File, std::fs::Metadata)>, HistoryError> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Ok(meta) if meta.file_type().is_symlink() => {
            return Err(HistoryError::Symlink(path.to_path_buf()));
        }
        _ => {}
    }
    urldb_store::read::open(path, None)
        .map(Some)
        .map_err(|source| HistoryError::Read {
            path: path.to_path_buf(),
            source,
        })
}

/// Read a history's lines from `input` (`shown`: its name in warnings);
/// with `keep_lines`, keep each well-formed line with its run.
fn scan(shown: &str, mut input: impl BufRead, keep_lines: bool) -> Result<Scan, HistoryError> {
    let io = |e: std::io::Error| HistoryError::Read {
        path: PathBuf::from(shown),
        source: ReadError::Io(e),
    };
    let mut history = History::default();
    let mut lines = Vec::new();
    let (mut met, mut index): (Vec<Run>, HashMap<String, usize>) = Default::default();
    // A repeat is found by two hashes of the line's bytes, not a copy of it.
    let hashers = (
        foldhash::quality::FixedState::with_seed(1),
        foldhash::quality::FixedState::with_seed(2),
    );
    let mut seen = HashSet::new();
    let mut buf = Vec::new();
    for n in 1.. {
        buf.clear();
        let read = (&mut input)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)
            .map_err(io)?;
        if read == 0 {
            break;
        }
        let raw = buf.strip_suffix(b"\n").unwrap_or(&buf);
        let why = if raw.len() > MAX_LINE {
            // The rest of the line is read and dropped.
            if buf.last() != Some(&b'\n') {
                input.skip_until(b'\n').map_err(io)?;
            }
            format!("longer than {MAX_LINE} bytes")
        } else if raw.iter().all(u8::is_ascii_whitespace) {
            continue;
        } else {
            match serde_json::from_slice::<Key>(raw) {
                Ok(key) => {
                    let hash = (hashers.0.hash_one(raw), hashers.1.hash_one(raw));
                    if !seen.insert(hash) {
                        history.duplicates += 1;
                        continue;
                    }
                    let r = *index.entry(key.run.clone()).or_insert_with(|| {
                        met.push(Run {
                            id: key.run.clone(),
                            started: key.started.clone(),
                            started_at: None,
                            checked: 0,
                            broken: 0,
                            blocked: 0,
                            skipped: 0,
                            accepted: 0,
                        });
                        met.len() - 1
                    });
                    let run = &mut met[r];
                    if key.started < run.started {
                        run.started = key.started;
                    }
                    run.checked += 1;
                    run.broken += usize::from(key.verdict == Verdict::Broken);
                    run.blocked += usize::from(key.verdict == Verdict::Blocked);
                    run.skipped += usize::from(key.verdict == Verdict::Skipped);
                    run.accepted += usize::from(
                        key.verdict == Verdict::Ok
                            && key.kind.as_deref() == Some(crate::results::ACCEPTED),
                    );
                    history
                        .urls
                        .entry(key.url)
                        .or_default()
                        .push((r, key.verdict));
                    if keep_lines {
                        lines.push((r, [raw, b"\n"].concat()));
                    }
                    continue;
                }
                Err(e) => format!(
                    "not a history line ({})",
                    urldb_core::text::escape(&e.to_string())
                ),
            }
        };
        history.malformed += 1;
        if history.warnings.len() < MAX_WARNINGS {
            history
                .warnings
                .push(format!("{shown}:{n}: {why}; line skipped"));
        }
    }
    // Runs in time order, and everything that names a run renumbered.
    let mut order: Vec<usize> = (0..met.len()).collect();
    order.sort_by(|&a, &b| (&met[a].started, &met[a].id).cmp(&(&met[b].started, &met[b].id)));
    let mut rank = vec![0; met.len()];
    for (k, &r) in order.iter().enumerate() {
        rank[r] = k;
    }
    history.runs = order
        .iter()
        .map(|&r| Run {
            started_at: met[r].started.parse().ok(),
            ..met[r].clone()
        })
        .collect();
    for verdicts in history.urls.values_mut() {
        for (r, _) in verdicts.iter_mut() {
            *r = rank[*r];
        }
        verdicts.sort_by_key(|(r, _)| *r);
    }
    for (r, _) in &mut lines {
        *r = rank[*r];
    }
    Ok(Scan { history, lines })
}

/// The earlier runs kept beside run `current`: the newest `keep - 1` that
/// are not `current` itself. What is judged and what a rewrite keeps.
fn kept_runs(runs: &[Run], current: &str, keep: usize) -> Vec<usize> {
    let mut earlier: Vec<usize> = (0..runs.len()).filter(|&r| runs[r].id != current).collect();
    let skip = earlier.len().saturating_sub(keep.saturating_sub(1));
    earlier.drain(..skip);
    earlier
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
/// earlier runs (and any earlier lines of `run` itself) and these.
pub fn append(
    path: &Path,
    run: &RunInfo,
    results: &[UrlResult],
    keep: usize,
) -> Result<(), HistoryError> {
    let failed = |source| HistoryError::Write {
        path: path.to_path_buf(),
        source,
    };
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(HistoryError::Symlink(path.to_path_buf()));
    }
    let lock = Lock::acquire(path).map_err(failed)?;
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
    let Scan { history, lines } = scan(&shown_path(path), &bytes[..], true)?;
    let earlier = history.runs.iter().filter(|r| r.id != run.id).count();
    if history.malformed == 0 && history.duplicates == 0 && earlier < limit(keep) {
        let mut appending = lock.append().map_err(failed)?;
        appending.write(&new).map_err(failed)?;
        return appending.finish().map_err(failed);
    }
    let mut is_kept: Vec<bool> = history.runs.iter().map(|r| r.id == run.id).collect();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trend::Verdict::{Broken, Ok as Pass};

    fn result(url: &str, outcome: Verdict) -> UrlResult {
        UrlResult {
            url: url.to_string(),
            file: "a.yaml".to_string(),
            line: 2,
            path: "/".to_string(),
            outcome,
            kind: None,
            reason: None,
            status: Some(200),
            attempts: 1,
            ms: 1,
            history: None,
        }
    }

    fn run(id: &str, started: &str) -> RunInfo {
        RunInfo {
            id: id.to_string(),
            started: started.to_string(),
            shard: None,
            elapsed_ms: 1,
        }
    }

    #[test]
    fn malformed_lines_are_skipped_with_their_line_number_and_counted_past_the_cap() {
        let good = r#"{"run":"r1","started":"2026-01-01T00:00:00Z","url":"http://a/","file":"a.yaml","line":3,"time":"2026-01-01T00:00:00Z","status":404,"verdict":"broken","reason":"HTTP 404","ms":1}"#;
        let text = format!("{good}\nnot json\n{{\"run\":1}}\n{good}\n\u{1b}[31m\n");
        let h = scan("h.jsonl", text.as_bytes(), false)
            .expect("scan")
            .history;
        assert_eq!(h.runs.len(), 1);
        assert_eq!(h.duplicates, 1);
        assert_eq!(h.urls["http://a/"], [(0, Broken)]);
        assert_eq!(h.warnings.len(), 3, "{:?}", h.warnings);
        assert!(h.warnings[0].starts_with("h.jsonl:2: "), "{:?}", h.warnings);
        assert!(h.warnings[1].starts_with("h.jsonl:3: "), "{:?}", h.warnings);
        assert!(!h.warnings[2].contains('\u{1b}'), "{:?}", h.warnings);
        let junk = "x\n".repeat(MAX_WARNINGS + 5) + &"y".repeat(MAX_LINE + 10) + "\n";
        let h = scan("h", junk.as_bytes(), false).expect("scan").history;
        assert_eq!((h.warnings.len(), h.more_warnings()), (MAX_WARNINGS, 6));
    }

    #[test]
    fn appends_while_there_is_room_then_keeps_the_newest_runs() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("h.jsonl");
        let mut written = Vec::new();
        for (i, id) in ["r1", "r2", "r3", "r4"].into_iter().enumerate() {
            let r = run(id, &format!("2026-01-01T00:00:0{i}.000Z"));
            let results = [result("http://a/", Pass)];
            append(&path, &r, &results, 2).expect("append");
            written.push(lines(&r, &results));
        }
        // limit(2) = 3 earlier runs: r4 found three and rewrote, keeping r3.
        let h = History::read(&path).expect("read");
        assert_eq!(h.run_ids().collect::<Vec<_>>(), ["r3", "r4"]);
        assert_eq!(
            std::fs::read(&path).expect("read"),
            [&written[2][..], &written[3][..]].concat()
        );
    }

    #[test]
    fn a_rewrite_drops_malformed_lines_and_ends_every_line_with_a_newline() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("h.jsonl");
        let r1 = run("r1", "2026-01-01T00:00:01.000Z");
        let kept = lines(&r1, &[result("http://a/", Pass), result("http://b/", Pass)]);
        let first_end = kept.iter().position(|&c| c == b'\n').expect("newline") + 1;
        // A malformed line, which has the file rewritten, and the last line
        // without its newline, as an editor may leave it.
        let text = [
            &kept[..first_end],
            b"not json\n",
            &kept[first_end..kept.len() - 1],
        ]
        .concat();
        std::fs::write(&path, text).expect("write");
        let r2 = run("r2", "2026-01-01T00:00:02.000Z");
        append(&path, &r2, &[], 30).expect("append");
        assert_eq!(std::fs::read(&path).expect("read"), kept);
    }

    #[test]
    fn judged_against_the_kept_runs_only() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("h.jsonl");
        for (id, verdict) in [("r1", Broken), ("r2", Pass), ("r3", Broken)] {
            let r = run(id, &format!("2026-01-01T00:00:0{}.000Z", &id[1..]));
            append(&path, &r, &[result("http://a/", verdict)], 30).expect("append");
        }
        let h = History::read(&path).expect("read");
        let mut results = Results::default();
        results.runs.push(run("r4", "2026-01-01T00:00:04.000Z"));
        results.results.push(result("http://a/", Broken));
        h.judge(&mut results, 3);
        let trend = results.results[0].history.clone().expect("judged");
        assert_eq!(trend.recent, [Pass, Broken, Broken]);
        assert!(!trend.flaky);
        assert_eq!(results.history.len(), 3);
    }
}
