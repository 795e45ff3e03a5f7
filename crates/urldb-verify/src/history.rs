//! `verify --history FILE`: one JSON line per run (or shard of a run)
//! and one per URL, its recent verdicts as letters, read before a run to
//! tell new failures from persistent ones and to mark flaky URLs, and
//! rewritten after it (`docs/verify.md`, "History"). The file stays about
//! one line per URL whatever the number of runs kept. Files of the format
//! before (one line per URL per run) are read, and written back in this
//! one.
//!
//! Read whole, line by line with serde_json (fields borrowed from the
//! line), each URL's verdicts kept as one byte a run; judged by a pure
//! function (`crate::trend::classify`); written under the file's lock,
//! parsed again there only when another process changed the file since
//! it was read (`docs/dev/performance.md`, "The history's size").
//!
//! History files concatenate: `cat` of the shards' files is a history.
//! Lines read twice (two shards' copies of the same earlier history) count
//! once; a URL's newest line wins (shards are disjoint by host, so each
//! URL was checked by one); the run lines of one run's shards add up. A
//! run that starts after the run reading the file (beyond
//! [`CLOCK_ALLOWANCE`]), or whose start is no time, is skipped as a
//! malformed line is: a line dated 2099 would otherwise stay the newest
//! run for ever.

use std::hash::BuildHasher;
use std::io::Read;
use std::path::{Path, PathBuf};

use urldb_core::source::shown_path;
use urldb_store::ReadError;
use urldb_store::write::WriteError;

use crate::results::Results;
use crate::trend::{RunCount, Verdict, classify};

mod append;
mod read;
pub use append::{append, append_after, lines};
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
    /// Each URL's verdicts and what its line keeps besides.
    urls: Map<Box<str>, Track>,
    /// Lines seen twice (two copies of one earlier history concatenated).
    pub duplicates: usize,
    /// `FILE:LINE: why`, for the first [`MAX_WARNINGS`] malformed lines
    /// (a run from the future counts as one).
    warnings: Vec<String>,
    /// Every malformed line (or run from the future) skipped.
    malformed: usize,
    /// The run lines read, by run (in order): each shard's of a run.
    parts: Vec<(usize, RunPart)>,
    /// Lines of the format before were read (the next write converts
    /// them).
    converted: bool,
    /// The length and a hash of the bytes read: the rewrite after the run
    /// reads the file again under its lock, and parses it again only when
    /// another process changed it meanwhile.
    read: Option<(usize, u64)>,
}

/// A hash map keyed by what a history file says: foldhash, seeded anew
/// each run (a committed history may come from a stranger: no key set can
/// be made to collide), about ten times faster than SipHash on a million
/// URLs.
type Map<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;

/// One URL's verdicts as its line keeps them: one letter per run
/// (`o` ok, `x` broken, `-` skipped, `b` blocked, `.` not checked), oldest first, the last in run `last` (a place in
/// [`History::runs`]), the first and the last never `.`; one byte a run,
/// so that a million URLs of thirty runs take tens of megabytes, not
/// hundreds.
#[derive(Debug, Clone, PartialEq)]
struct Track {
    last: usize,
    letters: Box<[u8]>,
    info: UrlInfo,
    /// Its place in the file read: a history urldb wrote is sorted by
    /// URL, so the rewrite sorts little more than this run's new URLs.
    line: u32,
}

fn verdict_of(letter: u8) -> Option<Verdict> {
    match letter {
        b'o' => Some(Verdict::Ok),
        b'x' => Some(Verdict::Broken),
        b'-' => Some(Verdict::Skipped),
        b'b' => Some(Verdict::Blocked),
        _ => None,
    }
}

fn letter_of(verdict: Verdict) -> u8 {
    match verdict {
        Verdict::Ok => b'o',
        Verdict::Broken => b'x',
        Verdict::Skipped => b'-',
        Verdict::Blocked => b'b',
    }
}

impl Track {
    /// No verdict: a place holder while a map's tracks are placed.
    fn empty() -> Track {
        Track {
            last: 0,
            letters: Box::default(),
            info: UrlInfo::default(),
            line: u32::MAX,
        }
    }

    /// A track from letters whose last is in run `last`; `.` at either end
    /// taken off, letters before the first run dropped; `None` when no
    /// verdict is left.
    fn new(last: usize, letters: &[u8], info: UrlInfo) -> Option<Track> {
        let end = letters.iter().rposition(|&l| l != b'.')?;
        let last = last.checked_sub(letters.len() - 1 - end)?;
        let letters = &letters[..=end];
        let letters = &letters[letters.len().saturating_sub(last + 1)..];
        let start = letters.iter().position(|&l| l != b'.')?;
        Some(Track {
            last,
            letters: letters[start..].into(),
            info,
            line: u32::MAX,
        })
    }

    /// A track from (run, verdict) pairs in any order; of two verdicts
    /// of one run, the first given.
    fn of_verdicts(mut verdicts: Vec<(usize, Verdict)>, info: UrlInfo) -> Option<Track> {
        verdicts.sort_by_key(|(r, _)| *r);
        verdicts.dedup_by_key(|(r, _)| *r);
        let (first, last) = (verdicts.first()?.0, verdicts.last()?.0);
        let mut letters = vec![b'.'; last - first + 1];
        for (r, v) in verdicts {
            letters[r - first] = letter_of(v);
        }
        Track::new(last, &letters, info)
    }

    /// Each (run, verdict), oldest first.
    fn verdicts(&self) -> impl DoubleEndedIterator<Item = (usize, Verdict)> + '_ {
        let first = self.last + 1 - self.letters.len();
        self.letters
            .iter()
            .enumerate()
            .filter_map(move |(i, &l)| Some((first + i, verdict_of(l)?)))
    }
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
        let Some((mut file, _)) = open(path)? else {
            return Ok(History::default());
        };
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .map_err(|e| HistoryError::Read {
                path: path.to_path_buf(),
                source: ReadError::Io(e),
            })?;
        let mut history = scan(&shown_path(path), &bytes, now)?.history;
        history.read = Some(fingerprint(&bytes));
        Ok(history)
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
        let fact = self.urls.get(url)?.info.facts.as_ref()?.get(ARCHIVE_FACT)?;
        serde_json::from_value(fact.clone()).ok()
    }

    /// When `url` was last judged (ok or broken) by a run, by that run's
    /// start; `None` when never.
    pub fn last_judged(&self, url: &str) -> Option<jiff::Timestamp> {
        let (run, _) = self
            .urls
            .get(url)?
            .verdicts()
            .rev()
            .find(|(_, v)| v.judged())?;
        Some(self.runs[run].started_at)
    }

    /// When `url` passed, by that run's start, if its latest verdict is
    /// that pass: a URL that failed, was skipped or blocked after it
    /// passed is not fresh (`--max-age`).
    pub fn passed_last(&self, url: &str) -> Option<jiff::Timestamp> {
        match self.urls.get(url)?.verdicts().next_back()? {
            (run, Verdict::Ok) => Some(self.runs[run].started_at),
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
                .get(r.url.as_str())
                .into_iter()
                .flat_map(Track::verdicts)
                .filter(|(run, _)| is_kept[*run])
                .map(|(_, verdict)| verdict)
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

/// The length and a hash of a history's bytes: what tells that a file
/// is still the one read.
fn fingerprint(bytes: &[u8]) -> (usize, u64) {
    let hasher = foldhash::quality::FixedState::with_seed(3);
    (bytes.len(), hasher.hash_one(bytes))
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

    /// The history of `text`, read at `now`.
    fn read_text(text: &str, now: &str) -> History {
        scan("h", text.as_bytes(), now.parse().expect("time"))
            .expect("read")
            .history
    }

    impl History {
        pub(crate) fn verdicts_of(&self, url: &str) -> Vec<(usize, Verdict)> {
            self.urls[url].verdicts().collect()
        }
    }

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
        assert_eq!(kept.verdicts_of("http://a/"), [(0, Pass), (2, Broken)]);
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
        assert_eq!(after.verdicts_of("http://a/"), [(0, Pass), (2, Broken)]);
        assert_eq!(after.verdicts_of("http://b/"), [(0, Broken), (1, Pass)]);
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
        assert_eq!(h.verdicts_of("http://a/"), [(0, Pass), (1, Broken)]);
        assert_eq!(h.verdicts_of("http://b/"), [(0, Pass), (1, Broken)]);
        assert_eq!((h.runs[1].count.checked, h.runs[1].count.broken), (2, 2));
        assert_eq!((h.runs[0].count.checked, h.duplicates > 0), (2, true));
        let facts = h.urls["http://a/"].info.facts.as_ref().expect("facts");
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

    /// The rewrite after a run parses the file again only when another
    /// process changed it after it was read: that process's run is kept.
    #[test]
    fn a_history_read_before_the_run_is_not_parsed_again_unless_changed() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("h.jsonl");
        let r1 = run("r1", "2026-01-01T00:00:01.000Z");
        append(&path, &r1, &[result("http://a/", Pass)], 30, &|_| {}).expect("append");
        let now: jiff::Timestamp = "2026-01-01T00:00:09Z".parse().expect("time");
        let read = History::read(&path, now).expect("read");
        // Unchanged: the same text as a rewrite that parses it again.
        let copy = dir.path().join("copy.jsonl");
        std::fs::copy(&path, &copy).expect("copy");
        let r2 = run("r2", "2026-01-01T00:00:02.000Z");
        let results = [result("http://a/", Broken), result("http://b/", Pass)];
        append_after(&path, &read, &r2, &results, 30, &|_| {}).expect("append");
        append(&copy, &r2, &results, 30, &|_| {}).expect("append");
        assert_eq!(
            std::fs::read(&path).expect("read"),
            std::fs::read(&copy).expect("read")
        );
        // Changed meanwhile (another shard's run): read again, kept.
        std::fs::copy(&copy, &path).expect("copy");
        let read = History::read(&path, now).expect("read");
        let other = run("r3", "2026-01-01T00:00:03.000Z");
        append(&path, &other, &[result("http://c/", Pass)], 30, &|_| {}).expect("append");
        let r4 = run("r4", "2026-01-01T00:00:04.000Z");
        append_after(&path, &read, &r4, &[result("http://a/", Pass)], 30, &|_| {}).expect("append");
        let h = History::read(&path, now).expect("read");
        assert_eq!(h.run_ids().collect::<Vec<_>>(), ["r1", "r2", "r3", "r4"]);
        assert_eq!(
            h.verdicts_of("http://a/"),
            [(0, Pass), (1, Broken), (3, Pass)]
        );
        assert_eq!(h.verdicts_of("http://c/"), [(2, Pass)]);
    }

    /// Whatever the runs kept and the letters read, the rewrite keeps
    /// each URL's verdicts in the kept runs and adds this run's: read back,
    /// they are those (the rewrite's quick path for the usual file and its
    /// general one agree).
    #[test]
    fn a_rewrite_keeps_the_kept_verdicts_and_adds_this_runs() {
        let mut seed = 7_u64;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let verdicts = [Pass, Broken, Verdict::Skipped, Verdict::Blocked];
        for case in 0..200 {
            let runs = 1 + next(6) as usize;
            let ids: Vec<String> = (0..runs)
                .map(|i| format!("2026-01-01T00:00:{:02}.000Z", 10 + i))
                .collect();
            let mut text = String::new();
            for id in &ids {
                text += &format!("{{\"run\":\"{id}\",\"started\":\"{id}\",\"checked\":1}}\n");
            }
            let mut want: Vec<(String, Vec<(usize, Verdict)>)> = Vec::new();
            for u in 0..4 {
                let url = format!("http://h/{u}");
                let at = next(runs as u64) as usize;
                let len = 1 + next(at as u64 + 1) as usize;
                let mut letters = String::new();
                let mut mine = Vec::new();
                for i in 0..len {
                    let run = at + 1 - len + i;
                    if next(4) == 0 {
                        letters.push('.');
                    } else {
                        let v = verdicts[next(4) as usize];
                        letters.push(letter_of(v) as char);
                        mine.push((run, v));
                    }
                }
                text += &format!(
                    "{{\"url\":\"{url}\",\"at\":\"{}\",\"recent\":\"{letters}\"}}\n",
                    ids[at]
                );
                want.push((url, mine));
            }
            let keep = 1 + next(runs as u64 + 1) as usize;
            // This run: new and newest, or again one of those read.
            let this = if next(3) == 0 {
                run(&ids[next(runs as u64) as usize], "x")
            } else {
                run("new", "2026-01-01T00:01:00.000Z")
            };
            let this_place = ids.iter().position(|i| *i == this.id);
            let mut checked: Vec<UrlResult> = Vec::new();
            for u in 0..4 {
                if next(2) == 0 {
                    checked.push(result(&format!("http://h/{u}"), verdicts[next(4) as usize]));
                }
            }
            let h = read_text(&text, "2026-02-01T00:00:00Z");
            let kept = kept_runs(&h.runs, &this.id, keep);
            let out = lines(&h, &this, &checked, keep);
            let written = String::from_utf8(out.clone()).expect("UTF-8");
            assert!(
                !written.contains("\"recent\":\"."),
                "case {case}: {written}"
            );
            let back = read_text(
                std::str::from_utf8(&out).expect("UTF-8"),
                "2026-02-01T00:00:00Z",
            );
            let names: Vec<&str> = back.run_ids().collect();
            for (url, mine) in &want {
                let mut expected: Vec<(&str, Verdict)> = mine
                    .iter()
                    .filter(|(r, _)| kept.contains(r) || Some(*r) == this_place)
                    .filter(|(r, _)| {
                        Some(*r) != this_place || !checked.iter().any(|c| &c.url == url)
                    })
                    .map(|(r, v)| (ids[*r].as_str(), *v))
                    .collect();
                if let Some(c) = checked.iter().find(|c| &c.url == url) {
                    expected.push((this.id.as_str(), c.outcome));
                }
                let got: Vec<(&str, Verdict)> = back
                    .urls
                    .get(url.as_str())
                    .into_iter()
                    .flat_map(Track::verdicts)
                    .map(|(r, v)| (names[r], v))
                    .collect();
                let mut expected_sorted = expected.clone();
                expected_sorted.sort_by_key(|(id, _)| names.iter().position(|n| n == id));
                assert_eq!(
                    got, expected_sorted,
                    "case {case}: {url}\n{text}\nkeep {keep}, run {}",
                    this.id
                );
            }
        }
    }

    /// Letters not checked at either end are not kept; letters before the
    /// first run read are dropped; a line of dots alone is no verdict.
    #[test]
    fn a_tracks_letters_keep_only_what_names_a_verdict() {
        let t = |last, letters: &str| {
            Track::new(last, letters.as_bytes(), UrlInfo::default()).map(|t| {
                (
                    t.last,
                    String::from_utf8(t.letters.to_vec()).expect("ASCII"),
                )
            })
        };
        assert_eq!(t(5, "..o.x.."), Some((3, "o.x".to_string())));
        assert_eq!(t(1, "oxo"), Some((1, "xo".to_string())));
        assert_eq!(t(0, "x."), None);
        assert_eq!(t(4, "..."), None);
        assert_eq!(t(4, ""), None);
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
