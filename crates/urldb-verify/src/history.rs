//! `verify --history FILE`: one JSON line per run (or shard of a run)
//! and one per URL, its recent verdicts as letters, read before a run to
//! tell new failures from persistent ones and to mark flaky URLs, and
//! rewritten after it (`docs/verify.md`, "History"). The file stays about
//! one line per URL whatever the number of runs kept. Files of the format
//! before (one line per URL per run) are read, and written back in this
//! one.
//!
//! Read with `BufRead` and serde_json, judged by a pure function
//! (`crate::trend::classify`), written under the file's lock.
//!
//! History files concatenate: `cat` of the shards' files is a history.
//! Lines read twice (two shards' copies of the same earlier history) count
//! once; a URL's newest line wins (shards are disjoint by host, so each
//! URL was checked by one); the run lines of one run's shards add up. A
//! run that starts after the run reading the file (beyond
//! [`CLOCK_ALLOWANCE`]), or whose start is no time, is skipped as a
//! malformed line is: a line dated 2099 would otherwise stay the newest
//! run for ever.

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
pub use append::{append, lines};
use read::{open, scan};

/// How far another machine's clock may be ahead of this one's: a run
/// starting later than this after the current run is not trusted.
pub const CLOCK_ALLOWANCE: jiff::SignedDuration = jiff::SignedDuration::from_mins(5);

/// The key of an archive lookup among a URL line's facts.
const ARCHIVE_FACT: &str = "archive";

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
    /// The run lines read, by run (in order): each shard's of a run.
    parts: Vec<(usize, RunPart)>,
    /// Each URL's last status, kind and reserved facts.
    info: HashMap<String, UrlInfo>,
    /// Lines of the format before were read (the next write converts
    /// them).
    converted: bool,
}

/// One run line: a run, or one shard's part of it, and its counts
/// (`checked`, `broken`, `blocked`, `skipped`, `accepted`).
#[derive(Debug, Clone, PartialEq, Eq)]
struct RunPart {
    started: String,
    shard: Option<String>,
    counts: [usize; 5],
}

/// What a URL line keeps besides its verdicts.
#[derive(Debug, Clone, Default, PartialEq)]
struct UrlInfo {
    status: Option<u16>,
    kind: Option<String>,
    /// Reserved for later facts about the URL (an archived copy, ...):
    /// read and written back as it is.
    facts: Option<serde_json::Map<String, serde_json::Value>>,
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
        Ok(scan(&shown_path(path), BufReader::new(file), now)?.history)
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

    /// The archive lookup kept for `url` (`verify --archive`), if any.
    pub fn archived(&self, url: &str) -> Option<crate::archive::Archived> {
        let fact = self.info.get(url)?.facts.as_ref()?.get(ARCHIVE_FACT)?;
        serde_json::from_value(fact.clone()).ok()
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
            moved: None,
            archived: None,
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

    /// Lines of the format before: one URL in one run.
    fn old_lines(run: &RunInfo, results: &[UrlResult]) -> Vec<u8> {
        let mut out = Vec::new();
        for r in results {
            let line = serde_json::json!({
                "run": run.id, "started": run.started, "url": r.url, "file": r.file,
                "line": r.line, "time": run.started, "status": r.status,
                "verdict": r.outcome, "kind": r.kind, "reason": r.reason, "ms": r.ms,
            });
            out.extend(serde_json::to_vec(&line).expect("JSON"));
            out.push(b'\n');
        }
        out
    }

    #[test]
    fn runs_from_the_future_are_skipped_and_dropped_by_the_next_write() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("h.jsonl");
        let now: jiff::Timestamp = "2026-06-01T00:00:00Z".parse().expect("time");
        let at = |id: &str, started: &str, verdict| {
            old_lines(&run(id, started), &[result("http://a/", verdict)])
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
        // The next run rewrites the file without them.
        append(
            &path,
            &run("next", "2026-06-01T00:00:01.000Z"),
            &[],
            30,
            &|_| {},
        )
        .expect("append");
        let kept = History::read(&path, now).expect("read");
        // Runs in time order: the skewed one, ahead of this clock, last.
        assert_eq!(
            kept.run_ids().collect::<Vec<_>>(),
            ["past", "next", "skewed"]
        );
        assert!(kept.warnings.is_empty());
        assert_eq!(kept.urls["http://a/"], [(0, Pass), (2, Broken)]);
    }

    #[test]
    fn keeps_the_newest_runs_in_one_line_per_url() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("h.jsonl");
        for (i, id) in ["r1", "r2", "r3", "r4"].into_iter().enumerate() {
            let r = run(id, &format!("2026-01-01T00:00:0{i}.000Z"));
            let verdict = if i == 2 { Broken } else { Pass };
            append(&path, &r, &[result("http://a/", verdict)], 2, &|_| {}).expect("append");
        }
        let h = History::read(&path, jiff::Timestamp::now()).expect("read");
        assert_eq!(h.run_ids().collect::<Vec<_>>(), ["r3", "r4"]);
        let text = std::fs::read_to_string(&path).expect("read");
        assert_eq!(
            text,
            "{\"run\":\"r3\",\"started\":\"2026-01-01T00:00:02.000Z\",\"checked\":1,\"broken\":1,\"blocked\":0,\"skipped\":0,\"accepted\":0}\n\
             {\"run\":\"r4\",\"started\":\"2026-01-01T00:00:03.000Z\",\"checked\":1,\"broken\":0,\"blocked\":0,\"skipped\":0,\"accepted\":0}\n\
             {\"url\":\"http://a/\",\"at\":\"r4\",\"recent\":\"xo\",\"status\":200}\n"
        );
    }

    #[test]
    fn old_histories_are_read_and_converted_with_every_verdict() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("h.jsonl");
        let r1 = run("r1", "2026-01-01T00:00:01.000Z");
        let r2 = run("r2", "2026-01-01T00:00:02.000Z");
        let kept = old_lines(
            &r1,
            &[result("http://a/", Pass), result("http://b/", Broken)],
        );
        let first_end = kept.iter().position(|&c| c == b'\n').expect("newline") + 1;
        // A malformed line, and the last line without its newline, as an
        // editor may leave it.
        let text = [
            &kept[..first_end],
            b"not json\n",
            &kept[first_end..kept.len() - 1],
            b"\n",
            &old_lines(&r2, &[result("http://b/", Pass)])[..],
        ]
        .concat();
        std::fs::write(&path, text).expect("write");
        let before = History::read(&path, jiff::Timestamp::now()).expect("read");
        assert!(before.converted);
        let r3 = run("r3", "2026-01-01T00:00:03.000Z");
        append(&path, &r3, &[result("http://a/", Broken)], 30, &|_| {}).expect("append");
        let after = History::read(&path, jiff::Timestamp::now()).expect("read");
        assert!(!after.converted && after.warnings.is_empty());
        assert_eq!(after.run_ids().collect::<Vec<_>>(), ["r1", "r2", "r3"]);
        assert_eq!(after.urls["http://a/"], [(0, Pass), (2, Broken)]);
        assert_eq!(after.urls["http://b/"], [(0, Broken), (1, Pass)]);
        let counts: Vec<(usize, usize)> = after
            .runs
            .iter()
            .map(|r| (r.count.checked, r.count.broken))
            .collect();
        assert_eq!(counts, [(2, 1), (1, 0), (1, 1)]);
        let text = std::fs::read_to_string(&path).expect("read");
        assert!(text.ends_with('\n') && text.lines().count() == 5, "{text}");
        assert!(
            text.contains("{\"url\":\"http://a/\",\"at\":\"r3\",\"recent\":\"o.x\""),
            "{text}"
        );
    }

    #[test]
    fn shards_histories_concatenate_and_reserved_facts_are_kept() {
        let dir = tempfile::tempdir().expect("tempdir");
        let earlier = dir.path().join("earlier.jsonl");
        let r1 = run("r1", "2026-01-01T00:00:01.000Z");
        append(
            &earlier,
            &r1,
            &[result("http://a/", Pass), result("http://b/", Pass)],
            30,
            &|_| {},
        )
        .expect("append");
        // A later tool's fact about a URL, kept through every rewrite.
        let text = std::fs::read_to_string(&earlier).expect("read").replace(
            "\"at\":\"r1\",\"recent\":\"o\",\"status\":200}",
            "\"at\":\"r1\",\"recent\":\"o\",\"status\":200,\"facts\":{\"archived\":\"2025\"}}",
        );
        std::fs::write(&earlier, text).expect("write");
        let mut shard_files = Vec::new();
        for (k, url) in [(1, "http://a/"), (2, "http://b/")] {
            let file = dir.path().join(format!("h{k}.jsonl"));
            std::fs::copy(&earlier, &file).expect("copy");
            let mut r2 = run("r2", "2026-01-01T00:00:02.000Z");
            r2.shard = Some(crate::Shard { index: k, count: 2 });
            append(&file, &r2, &[result(url, Broken)], 30, &|_| {}).expect("append");
            shard_files.push(std::fs::read(&file).expect("read"));
        }
        let all = dir.path().join("all.jsonl");
        std::fs::write(&all, shard_files.concat()).expect("write");
        let h = History::read(&all, jiff::Timestamp::now()).expect("read");
        assert_eq!(h.run_ids().collect::<Vec<_>>(), ["r1", "r2"]);
        assert_eq!(h.urls["http://a/"], [(0, Pass), (1, Broken)]);
        assert_eq!(h.urls["http://b/"], [(0, Pass), (1, Broken)]);
        assert_eq!((h.runs[1].count.checked, h.runs[1].count.broken), (2, 2));
        assert_eq!((h.runs[0].count.checked, h.duplicates > 0), (2, true));
        let facts = h.info["http://a/"].facts.as_ref().expect("facts");
        assert_eq!(facts["archived"], "2025");
        // Written again (the merge job), the shards' run lines stay apart.
        let r3 = run("r3", "2026-01-01T00:00:03.000Z");
        append(&all, &r3, &[], 30, &|_| {}).expect("append");
        let text = std::fs::read_to_string(&all).expect("read");
        assert_eq!(text.matches("\"shard\":").count(), 2, "{text}");
        assert!(text.contains("\"facts\":{\"archived\":\"2025\"}"), "{text}");
    }

    #[test]
    fn a_url_costs_one_line_whatever_the_runs() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("h.jsonl");
        let urls: Vec<UrlResult> = (0..1000)
            .map(|i| {
                result(
                    &format!("https://www.example.org/docs/page-{i:06}.html"),
                    Pass,
                )
            })
            .collect();
        let mut sizes = Vec::new();
        for i in 0..30 {
            let r = run(&format!("r{i}"), &format!("2026-01-01T00:00:{i:02}.000Z"));
            append(&path, &r, &urls, 30, &|_| {}).expect("append");
            sizes.push(std::fs::metadata(&path).expect("size").len());
        }
        // The URL, its 30 letters and a few fields: under 80 bytes besides
        // the URL's own 47.
        assert!(sizes[29] < (47 + 80) * 1000, "{sizes:?}");
        assert!(sizes[29] - sizes[0] < 30 * 1000 + 30 * 200, "{sizes:?}");
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
