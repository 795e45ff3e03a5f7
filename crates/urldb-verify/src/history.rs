//! `verify --history FILE`: one JSON line per URL per run, read before a
//! run to tell new failures from persistent ones and to mark flaky URLs,
//! and added to after it (`docs/verify.md`, "History").
//!
//! Kept as lychee keeps its cache: read with `BufRead` and serde_json,
//! judged by a pure function (`crate::trend::classify`), written under
//! the file's lock. A run appends its lines while the file holds fewer
//! than [`limit`] earlier runs and nothing malformed; otherwise the file
//! is rewritten with the newest `keep - 1` earlier runs and this one.
//!
//! History files concatenate: the lines of the shards of one CI run share
//! its run id, and a line read twice (two shards' copies of the same
//! earlier history, `cat`-ed together) counts once. A run that starts after
//! the run reading the file (beyond [`CLOCK_ALLOWANCE`]), or whose start is
//! no time, is skipped as a malformed line is: a line dated 2099 would
//! otherwise stay the newest run for ever.

use std::collections::HashMap;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use urldb_core::source::shown_path;
use urldb_store::ReadError;
use urldb_store::write::WriteError;

use crate::results::Results;
use crate::trend::{RunCount, Verdict, classify};

mod append;
mod read;
pub use append::{append, limit, lines};
use read::{open, scan};

/// How far another machine's clock may be ahead of this one's: a run
/// starting later than this after the current run is not trusted.
pub const CLOCK_ALLOWANCE: jiff::SignedDuration = jiff::SignedDuration::from_mins(5);

/// The runs kept when `--history-keep` is not given.
pub const DEFAULT_KEEP: usize = 30;

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
    /// The write error names the file.
    #[error("cannot write the history: {source}")]
    Write { path: PathBuf, source: WriteError },
}

/// One run met in a history: its id, earliest start and counts, and that
/// start read as a time once the file is read (`--max-age` asks it of
/// every URL's runs).
#[derive(Debug, Clone)]
struct Run {
    count: RunCount,
    started_at: jiff::Timestamp,
}

/// A history file as read: its runs in time order, each URL's verdicts,
/// and what was skipped.
#[derive(Debug, Default)]
pub struct History {
    /// Ordered by earliest start, then id (shard files come in any order);
    /// none starts after the reading run.
    runs: Vec<Run>,
    /// Each URL's (run index, verdict), oldest run first.
    urls: HashMap<String, Vec<(usize, Verdict)>>,
    /// Lines seen twice (two copies of one earlier history concatenated).
    pub duplicates: usize,
    /// `FILE:LINE: why`, for the first [`MAX_WARNINGS`] malformed lines
    /// (a run from the future counts as one).
    warnings: Vec<String>,
    /// Every malformed line (or run from the future) skipped.
    malformed: usize,
}

impl History {
    /// Read the history at `path` before a run. A file that does not
    /// exist is an empty history (the first run); a symbolic link, or a
    /// file that cannot be read, is an error; a malformed line is skipped
    /// with a warning, as is a run starting after `now` (the reading run's
    /// start). Opened as every file urldb reads is: regular files
    /// only, never a FIFO, a device or `/proc`.
    pub fn read(path: &Path, now: jiff::Timestamp) -> Result<History, HistoryError> {
        let Some((file, _)) = open(path)? else {
            return Ok(History::default());
        };
        Ok(scan(&shown_path(path), BufReader::new(file), false, now)?.history)
    }

    fn skip(&mut self, why: String) {
        self.malformed += 1;
        if self.warnings.len() < MAX_WARNINGS {
            self.warnings.push(why);
        }
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
    /// start; `None` when never.
    pub fn last_judged(&self, url: &str) -> Option<jiff::Timestamp> {
        let verdicts = self.urls.get(url)?;
        let (run, _) = verdicts.iter().rev().find(|(_, v)| v.judged())?;
        Some(self.runs[*run].started_at)
    }

    /// When `url` passed, by that run's start, if its latest verdict is
    /// that pass: a URL that failed, was skipped or blocked after it
    /// passed is not fresh (`--max-age`).
    pub fn passed_last(&self, url: &str) -> Option<jiff::Timestamp> {
        match self.urls.get(url)?.last()? {
            (run, Verdict::Ok) => Some(self.runs[*run].started_at),
            _ => None,
        }
    }

    /// The ids of the runs, oldest first.
    pub fn run_ids(&self) -> impl Iterator<Item = &str> {
        self.runs.iter().map(|r| r.count.id.as_str())
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
        let mut counts: Vec<RunCount> = kept.iter().map(|&r| self.runs[r].count.clone()).collect();
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

/// The earlier runs kept beside run `current`: the newest `keep - 1` that
/// are not `current` itself. What is judged and what a rewrite keeps.
fn kept_runs(runs: &[Run], current: &str, keep: usize) -> Vec<usize> {
    let mut earlier: Vec<usize> = (0..runs.len())
        .filter(|&r| runs[r].count.id != current)
        .collect();
    let skip = earlier.len().saturating_sub(keep.saturating_sub(1));
    earlier.drain(..skip);
    earlier
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{RunInfo, UrlResult};
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
    fn runs_from_the_future_are_skipped_and_dropped_by_the_next_write() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("h.jsonl");
        let now: jiff::Timestamp = "2026-06-01T00:00:00Z".parse().expect("time");
        let at = |id: &str, started: &str, verdict| {
            lines(&run(id, started), &[result("http://a/", verdict)])
        };
        let text = [
            at("past", "2026-05-01T00:00:00.000Z", Pass),
            at("skewed", "2026-06-01T00:04:00.000Z", Broken),
            at("future", "2099-01-01T00:00:00.000Z", Pass),
            at("no-time", "yesterday", Pass),
        ]
        .concat();
        std::fs::write(&path, &text).expect("write");
        let h = History::read(&path, now).expect("read");
        assert_eq!(h.run_ids().collect::<Vec<_>>(), ["past", "skewed"]);
        assert_eq!(h.warnings.len(), 2, "{:?}", h.warnings);
        assert!(
            h.warnings[0].contains("run `future` starts at 2099-01-01"),
            "{:?}",
            h.warnings
        );
        assert!(h.warnings[1].contains("`no-time` has a start that is no time"));
        // The latest verdict is the failure within the clock allowance.
        assert_eq!(h.passed_last("http://a/"), None);
        assert!(h.last_judged("http://a/").is_some_and(|t| t > now));
        // The next run's lines rewrite the file without them.
        append(
            &path,
            &run("next", "2026-06-01T00:00:01.000Z"),
            &[],
            30,
            &|_| {},
        )
        .expect("append");
        let kept = History::read(&path, now).expect("read");
        assert_eq!(kept.run_ids().collect::<Vec<_>>(), ["past", "skewed"]);
        assert!(kept.warnings.is_empty());
    }

    #[test]
    fn appends_while_there_is_room_then_keeps_the_newest_runs() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("h.jsonl");
        let mut written = Vec::new();
        for (i, id) in ["r1", "r2", "r3", "r4"].into_iter().enumerate() {
            let r = run(id, &format!("2026-01-01T00:00:0{i}.000Z"));
            let results = [result("http://a/", Pass)];
            append(&path, &r, &results, 2, &|_| {}).expect("append");
            written.push(lines(&r, &results));
        }
        // limit(2) = 3 earlier runs: r4 found three and rewrote, keeping r3.
        let h = History::read(&path, jiff::Timestamp::now()).expect("read");
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
        append(&path, &r2, &[], 30, &|_| {}).expect("append");
        assert_eq!(std::fs::read(&path).expect("read"), kept);
    }

    #[test]
    fn judged_against_the_kept_runs_only() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("h.jsonl");
        for (id, verdict) in [("r1", Broken), ("r2", Pass), ("r3", Broken)] {
            let r = run(id, &format!("2026-01-01T00:00:0{}.000Z", &id[1..]));
            append(&path, &r, &[result("http://a/", verdict)], 30, &|_| {}).expect("append");
        }
        let h = History::read(&path, jiff::Timestamp::now()).expect("read");
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
