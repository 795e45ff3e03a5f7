//! `verify --history FILE`: one JSON line per URL per run, read before a
//! run to tell new failures from persistent ones and to mark flaky URLs,
//! and appended to after it. What is judged reads the newest
//! `--history-keep` runs; the file holds a quarter more at most ([`limit`])
//! and is rewritten only when it has no room left, at the start of a run
//! ([`prepare`]), so that most runs only append (`docs/verify.md`,
//! "History"; what that costs: `docs/dev/performance.md`).
//!
//! History files concatenate: the lines of the shards of one CI run share
//! its run id, and a line read twice (two shards' copies of the same
//! earlier history, `cat`-ed together) counts once.

mod line;
mod read;
mod session;
mod verdicts;

use std::ops::Range;
use std::path::Path;

use super::results::{Results, RunInfo, UrlResult};
use super::trend::{RunCount, Trend, classify};
pub use line::Line;
use read::read_bytes;
pub use read::{parse, read};
pub use session::{Opened, Session};
use urldb_store::write::{Stamp, WriteError};
use verdicts::Verdicts;

/// The runs kept when `--history-keep` is not given.
pub const DEFAULT_KEEP: usize = 30;

/// A history file as read: the runs it holds in time order, each URL's
/// verdicts, where each run's lines are, and the lines it skipped.
#[derive(Debug, Default)]
pub struct History {
    /// The file's stamp when it was read (none: it did not exist): when it
    /// has not changed by the time this run's lines are added, they are
    /// appended.
    stamp: Option<Stamp>,
    /// (id, earliest start), oldest first.
    runs: Vec<(String, String)>,
    /// Each URL's (run index in `runs`, verdict), oldest first.
    urls: Verdicts,
    /// Per run: (checked, broken).
    counts: Vec<(usize, usize)>,
    /// Where the well-formed lines kept are, newlines included, with their
    /// run: a span per stretch of one run's lines, in file order. What a
    /// rewrite copies.
    spans: Vec<(Range<usize>, usize)>,
    /// Lines seen twice (two copies of one earlier history concatenated).
    pub duplicates: usize,
    /// `FILE:LINE: why`, for each malformed line skipped.
    pub warnings: Vec<String>,
    /// Set by [`prepare`]: the file, as of `stamp`, has room for the run's
    /// lines and holds no malformed or repeated line, so they are appended.
    ready: bool,
}

impl History {
    /// The ids of the runs, oldest first.
    pub fn run_ids(&self) -> impl Iterator<Item = &str> {
        self.runs.iter().map(|(id, _)| id.as_str())
    }
}

/// The earlier runs kept beside run `current` (`runs`: as [`History`]
/// holds them, oldest first): the newest `keep - 1` that are not
/// `current` itself. What is judged and what a rewrite keeps.
fn kept_runs(runs: &[(String, String)], current: &str, keep: usize) -> Vec<usize> {
    let mut earlier: Vec<usize> = (0..runs.len()).filter(|&r| runs[r].0 != current).collect();
    let skip = earlier.len().saturating_sub(keep.saturating_sub(1));
    earlier.drain(..skip);
    earlier
}

/// The trends [`judge`] gives a run's results, made without changing them
/// (so that their history lines can be made meanwhile).
#[derive(Debug)]
pub struct Judgement {
    /// One per result, in order; empty for results of no run.
    trends: Vec<Trend>,
    counts: Vec<RunCount>,
}

/// Judge `results` against `history` (the runs kept with `keep`, this
/// one included).
pub fn judge(results: &Results, history: &History, keep: usize) -> Judgement {
    let Some(run) = results.runs.first() else {
        return Judgement {
            trends: Vec::new(),
            counts: Vec::new(),
        };
    };
    let kept = kept_runs(&history.runs, &run.id, keep);
    let mut is_kept = vec![false; history.runs.len()];
    for &r in &kept {
        is_kept[r] = true;
    }
    let mut at = None;
    let mut earlier = Vec::new();
    let trends = results
        .results
        .iter()
        .map(|r| {
            let (found, verdicts) = history.urls.of(&r.url, at);
            at = found;
            earlier.clear();
            earlier.extend(
                verdicts
                    .iter()
                    .filter(|&&(run, _)| is_kept[run as usize])
                    .map(|&(_, verdict)| verdict),
            );
            classify(&earlier, r.outcome)
        })
        .collect();
    let mut counts: Vec<RunCount> = kept
        .iter()
        .map(|&r| RunCount {
            id: history.runs[r].0.clone(),
            started: history.runs[r].1.clone(),
            checked: history.counts[r].0,
            broken: history.counts[r].1,
        })
        .collect();
    counts.push(RunCount {
        id: run.id.clone(),
        started: run.started.clone(),
        checked: results.results.len(),
        broken: results.results.iter().filter(|r| r.is_broken()).count(),
    });
    Judgement { trends, counts }
}

impl Judgement {
    /// Give the results their trends and the kept runs' counts, and count
    /// them again (new and flaky URLs).
    pub fn apply(self, results: &mut Results) {
        if self.trends.len() != results.results.len() {
            return;
        }
        for (r, trend) in results.results.iter_mut().zip(self.trends) {
            r.history = Some(trend);
        }
        results.history = self.counts;
        let (deprecated, elapsed) = (results.summary.skipped_deprecated, results.summary.elapsed);
        results.recount(deprecated, elapsed);
    }
}

/// The history lines of a run's results.
pub fn lines(run: &RunInfo, results: &[UrlResult]) -> Vec<u8> {
    // A line is its fields and about 130 bytes of keys, punctuation and
    // numbers: room for all of them at once, not grown twice on the way.
    let fields: usize = results
        .iter()
        .map(|r| r.url.len() + r.file.len() + r.reason.as_ref().map_or(0, String::len))
        .sum();
    let per_line = run.id.len() + 2 * run.started.len() + 130;
    let mut out = Vec::with_capacity(fields + results.len() * per_line);
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
            reason: r.reason.as_deref(),
            ms: r.ms,
        };
        line.write_to(&mut out);
    }
    out
}

/// The most runs a history file holds before its oldest are dropped:
/// `keep` and a quarter more. Until then a run only adds its lines at the
/// end (what is judged and reported reads only the newest `keep`), so the
/// file is rewritten once every few runs rather than on every run.
pub fn limit(keep: usize) -> usize {
    keep.saturating_add(keep.div_ceil(4))
}

/// Read the history before run `run_id`, and make room for its lines.
/// When the file has no room for another run ([`limit`]) or holds
/// malformed or repeated lines, it is rewritten now, through
/// `crates/urldb-store/src/write.rs`'s lock, with the newest `keep - 1` earlier runs (and any
/// lines of `run_id` itself). Called while the URLs are fetched, so that
/// the end of the run only appends ([`append`]). A rewrite that cannot be
/// made now is left to the end of the run, which rewrites carefully and
/// reports what stops it.
pub fn prepare(path: &Path, run_id: &str, keep: usize) -> Result<History, String> {
    let mut history = read(path)?;
    if history.stamp.is_none() {
        return Ok(history);
    }
    let mut bytes = None;
    if history.duplicates > 0 {
        // Lines that may repeat others were found by their URL and run:
        // compare the lines themselves before any is dropped.
        let (whole, stamp) = read_bytes(path)?;
        history = parse(&urldb_core::source::shown_path(path), &whole);
        history.stamp = stamp;
        bytes = Some(whole);
    }
    let earlier = history.runs.iter().filter(|(id, _)| id != run_id).count();
    let clean = history.warnings.is_empty() && history.duplicates == 0;
    history.ready = (clean && earlier < limit(keep)) || history.compact(path, bytes, run_id, keep);
    Ok(history)
}

impl History {
    /// Rewrite the file with only the lines kept beside run `run_id`;
    /// `bytes`: the file as parsed, if it was read whole (else it is read
    /// now, and must be the file read). Whether it was rewritten.
    fn compact(&mut self, path: &Path, bytes: Option<Vec<u8>>, run_id: &str, keep: usize) -> bool {
        let Some(read) = &self.stamp else {
            return false;
        };
        let Ok(lock) = urldb_store::write::Lock::acquire(path) else {
            return false;
        };
        let bytes = match bytes {
            Some(bytes) => bytes,
            None => match read_bytes(path) {
                Ok((bytes, Some(stamp))) if stamp == *read => bytes,
                _ => return false,
            },
        };
        let text = kept(&bytes, &self.runs, &self.spans, run_id, keep);
        // The bytes are the file as stamped when it was read: checked by
        // its stamp, not read (92 MB in the benchmark) twice more.
        match lock.replace_unchanged(read, &text) {
            Ok(stamp) => {
                self.stamp = Some(stamp);
                // Where the lines are now is not needed: the run appends.
                self.spans = Vec::new();
                true
            }
            Err(_) => false,
        }
    }
}

/// The lines of `bytes` kept beside run `run_id` (`runs` and `spans`: as
/// [`History`] holds them): those of the newest `keep - 1` other runs and
/// those of `run_id` itself, in file order, each ending in a newline.
fn kept(
    bytes: &[u8],
    runs: &[(String, String)],
    spans: &[(Range<usize>, usize)],
    run_id: &str,
    keep: usize,
) -> Vec<u8> {
    let mut is_kept: Vec<bool> = runs.iter().map(|(id, _)| id == run_id).collect();
    for r in kept_runs(runs, run_id, keep) {
        is_kept[r] = true;
    }
    let mut text = Vec::with_capacity(bytes.len());
    for (span, r) in spans {
        if is_kept[*r] {
            text.extend_from_slice(&bytes[span.clone()]);
            if text.last() != Some(&b'\n') {
                text.push(b'\n');
            }
        }
    }
    text
}

/// Add this run's lines to the history file through `crates/urldb-store/src/write.rs`'s
/// lock. When [`prepare`] made the file ready and it has not changed
/// since, the lines are appended. Otherwise the file is read again under
/// the lock (lines another process added since this run read it are
/// kept) and rewritten with only the newest `keep` runs, this one
/// included.
///
/// `new`: the run's [`lines`] in pieces, each written as it comes, while
/// the caller makes the next and goes on with the results (judges and
/// reports them); an `Err` piece (the making failed) leaves the file as
/// it was.
pub fn append(
    path: &Path,
    run_id: &str,
    new: impl IntoIterator<Item = Result<Vec<u8>, String>>,
    keep: usize,
    earlier: Option<&History>,
) -> Result<(), String> {
    let shown = urldb_core::source::shown_path(path);
    let failed = |e: WriteError| format!("{shown}: cannot write the history: {e}");
    let lock = urldb_store::write::Lock::acquire(path).map_err(failed)?;
    let new = new.into_iter();
    if let Some(h) = earlier
        && h.ready
        && let Some(stamp) = &h.stamp
    {
        match lock.append(stamp) {
            Ok(mut appending) => {
                for piece in new {
                    // On an error, `appending` cuts the file back as it goes.
                    appending.write(&piece?).map_err(failed)?;
                }
                return appending.finish().map_err(failed);
            }
            // Changed since it was read: read it again, below.
            Err(WriteError::Changed { .. }) => {}
            Err(e) => return Err(failed(e)),
        }
    }
    let (bytes, stamp) = read_bytes(path)?;
    // Malformed lines were warned about when the run began; the rewrite
    // drops them, with repeated lines and the lines of runs no longer kept.
    let now = parse(&shown, &bytes);
    let mut text = kept(&bytes, &now.runs, &now.spans, run_id, keep);
    for piece in new {
        text.extend_from_slice(&piece?);
    }
    // Read under the lock: checked by its stamp, not read again.
    let written = match &stamp {
        Some(read) => lock.replace_unchanged(read, &text),
        None => lock.create(&text),
    };
    written.map(drop).map_err(failed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trend::Verdict::{self, Broken};

    #[test]
    fn malformed_lines_are_skipped_with_their_line_number() {
        let good = r#"{"run":"r1","started":"2026-01-01T00:00:00Z","url":"http://a/","file":"a.yaml","line":3,"time":"2026-01-01T00:00:00Z","status":404,"verdict":"broken","reason":"HTTP 404","ms":1}"#;
        let text = format!("{good}\nnot json\n{{\"run\":1}}\n{good}\n\u{1b}[31m\n");
        let h = parse("h.jsonl", text.as_bytes());
        assert_eq!(h.runs.len(), 1);
        assert_eq!(h.duplicates, 1);
        assert_eq!(h.urls.of("http://a/", None).1, [(0, Broken)]);
        assert_eq!(h.warnings.len(), 3, "{:?}", h.warnings);
        assert!(h.warnings[0].starts_with("h.jsonl:2: "), "{:?}", h.warnings);
        assert!(h.warnings[1].starts_with("h.jsonl:3: "), "{:?}", h.warnings);
        assert!(!h.warnings[2].contains('\u{1b}'), "{:?}", h.warnings);
    }

    fn result(url: &str) -> UrlResult {
        UrlResult {
            url: url.to_string(),
            file: "a.yaml".to_string(),
            line: 2,
            path: "/".to_string(),
            outcome: Verdict::Ok,
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

    /// Add `run`'s lines for `urls` to the history at `path`.
    fn add(
        path: &Path,
        run: &RunInfo,
        urls: &[&str],
        keep: usize,
        earlier: Option<&History>,
    ) -> Result<(), String> {
        let results: Vec<UrlResult> = urls.iter().map(|url| result(url)).collect();
        append(path, &run.id, [Ok(lines(run, &results))], keep, earlier)
    }

    #[test]
    fn repeats_are_made_sure_of_before_a_rewrite() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("h.jsonl");
        // Two records of one URL: two lines of one run that differ.
        let mut second = result("http://a/");
        (second.line, second.outcome) = (9, Broken);
        let r1 = run("r1", "2026-01-01T00:00:01.000Z");
        let first = lines(&r1, &[result("http://a/"), second]);
        // Read in pieces, the second line may repeat the first, but it
        // does not: the file is kept as it is, both verdicts too. Two
        // copies of it, concatenated: the second copy is dropped.
        let twice = [&first[..], &first[..]].concat();
        for (text, suspected, repeats) in [(&first, 1, 0), (&twice, 3, 2)] {
            std::fs::write(&path, text).expect("write");
            assert_eq!(read(&path).expect("read").duplicates, suspected);
            let h = prepare(&path, "r2", 30).expect("prepare");
            assert_eq!((h.duplicates, h.ready), (repeats, true));
            assert_eq!(
                h.urls.of("http://a/", None).1,
                [(0, Verdict::Ok), (0, Broken)]
            );
            assert_eq!(std::fs::read(&path).expect("read"), first);
        }
    }

    #[test]
    fn a_rewrite_ends_every_line_it_keeps_with_a_newline() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("h.jsonl");
        let r1 = run("r1", "2026-01-01T00:00:01.000Z");
        let kept = lines(&r1, &[result("http://a/"), result("http://b/")]);
        let (a, b) = kept.split_at(kept.len() / 2);
        // A malformed line, which has the file rewritten, and the last line
        // without its newline, as an editor may leave it.
        let text = [a, b"not json\n", &b[..b.len() - 1]].concat();
        std::fs::write(&path, text).expect("write");
        let h = prepare(&path, "r2", 30).expect("prepare");
        assert!(h.ready);
        assert_eq!(std::fs::read(&path).expect("read"), kept);
    }

    /// A rewrite copies the lines where the read found them: a file that
    /// changed since (here, cut short) is not rewritten from those places,
    /// and is left as it is.
    #[test]
    fn a_rewrite_is_given_up_when_the_file_changed_since_it_was_read() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("h.jsonl");
        for (id, url) in [("r1", "http://a/"), ("r2", "http://b/")] {
            let r = run(id, "2026-01-01T00:00:01.000Z");
            add(&path, &r, &[url], 30, None).expect("add");
        }
        let mut history = read(&path).expect("read");
        // Cut short by someone else: the places read are past its end.
        let whole = std::fs::read(&path).expect("read");
        let changed = &whole[..whole.len() / 2];
        std::fs::write(&path, changed).expect("write");
        assert!(!history.compact(&path, None, "r3", 2));
        assert_eq!(std::fs::read(&path).expect("read"), changed);
        // Put back and read again, it is rewritten: only the newest
        // earlier run is kept.
        std::fs::write(&path, &whole).expect("write");
        let mut history = read(&path).expect("read");
        assert!(history.compact(&path, None, "r3", 2));
        assert_eq!(
            read(&path).expect("read").run_ids().collect::<Vec<_>>(),
            ["r2"]
        );
    }

    #[test]
    fn lines_another_process_added_meanwhile_are_kept() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("h.jsonl");
        let r1 = run("r1", "2026-01-01T00:00:01.000Z");
        add(&path, &r1, &["http://a/"], 30, None).expect("first");
        // Ready to be appended to, as the run began.
        let before = prepare(&path, "r3", 30).expect("prepare");
        assert!(before.ready);
        // Another process, writing while this one checked: a run's lines,
        // and a line cut short. The file is no longer the one judged ready,
        // so it is read again and rewritten, which drops the broken line.
        let other = run("r2", "2026-01-01T00:00:02.000Z");
        let mut text = std::fs::read(&path).expect("read");
        text.extend(lines(&other, &[result("http://b/")]));
        text.extend(b"{\"run\":\"r2\"\n");
        std::fs::write(&path, text).expect("write");
        let r3 = run("r3", "2026-01-01T00:00:03.000Z");
        add(&path, &r3, &["http://c/"], 30, Some(&before)).expect("append");
        let after = read(&path).expect("read");
        assert_eq!(after.run_ids().collect::<Vec<_>>(), ["r1", "r2", "r3"]);
        assert!(after.warnings.is_empty(), "{:?}", after.warnings);
        // Unchanged since it was read: the first parse is used, the same result.
        let r4 = run("r4", "2026-01-01T00:00:04.000Z");
        add(&path, &r4, &["http://d/"], 2, Some(&after)).expect("append");
        assert_eq!(
            read(&path).expect("read").run_ids().collect::<Vec<_>>(),
            ["r3", "r4"]
        );
    }

    /// Lines whose making fails part way (a line maker that panicked sent
    /// no end) are not kept, whether the file was being appended to or
    /// rewritten: what was written of them is cut off again, and no lock
    /// is left.
    #[test]
    fn pieces_that_end_in_an_error_leave_the_file_as_it_was() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("h.jsonl");
        let r1 = run("r1", "2026-01-01T00:00:01.000Z");
        add(&path, &r1, &["http://a/"], 30, None).expect("first");
        let before = std::fs::read(&path).expect("read");
        let r2 = run("r2", "2026-01-01T00:00:02.000Z");
        let made = lines(&r2, &[result("http://b/")]);
        for ready in [true, false] {
            let mut earlier = prepare(&path, "r2", 30).expect("prepare");
            earlier.ready = ready;
            let failed = append(
                &path,
                &r2.id,
                [
                    Ok(made.clone()),
                    Err("the history writer failed".to_string()),
                ],
                30,
                Some(&earlier),
            );
            assert_eq!(failed, Err("the history writer failed".to_string()));
            assert_eq!(
                std::fs::read(&path).expect("read"),
                before,
                "ready: {ready}"
            );
            assert_eq!(std::fs::read_dir(dir.path()).expect("ls").count(), 1);
        }
    }
}
