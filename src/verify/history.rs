//! `verify --history FILE`: one JSON line per URL per run, read before a
//! run to tell new failures from persistent ones and to mark flaky URLs,
//! appended to after it, and kept to the last `--history-keep` runs
//! (`docs/verify.md`, "History").
//!
//! History files concatenate: the lines of the shards of one CI run share
//! its run id, and a line read twice (two shards' copies of the same
//! earlier history, `cat`-ed together) counts once.

use std::collections::{HashMap, HashSet};
use std::io::Read;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::results::{Results, RunInfo, UrlResult};
use super::trend::{RunCount, Verdict, classify};

/// The runs kept when `--history-keep` is not given.
pub const DEFAULT_KEEP: usize = 30;

/// The longest history line read; a longer one is malformed.
const MAX_LINE: usize = 64 * 1024;

/// One line of a history file: one URL in one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Line<'a> {
    pub run: std::borrow::Cow<'a, str>,
    /// The run's start time, RFC 3339 in UTC: runs are ordered by it.
    pub started: std::borrow::Cow<'a, str>,
    pub url: std::borrow::Cow<'a, str>,
    pub file: std::borrow::Cow<'a, str>,
    pub line: usize,
    /// When this URL was checked, RFC 3339 in UTC (the run's start time).
    pub time: std::borrow::Cow<'a, str>,
    pub status: Option<u16>,
    pub verdict: Verdict,
    pub reason: Option<std::borrow::Cow<'a, str>>,
    pub ms: u64,
}

/// A history file as read: the raw bytes (to rewrite it), the runs it
/// holds in time order, each URL's verdicts, and the lines it skipped.
#[derive(Debug, Default)]
pub struct History {
    bytes: Vec<u8>,
    /// (id, earliest start), oldest first.
    runs: Vec<(String, String)>,
    /// URL → (run index in `runs`, verdict), in file order.
    urls: HashMap<String, Vec<(usize, Verdict)>>,
    /// Per run: (checked, broken).
    counts: Vec<(usize, usize)>,
    /// Lines seen twice (two copies of one earlier history concatenated).
    pub duplicates: usize,
    /// `FILE:LINE: why`, for each malformed line skipped.
    pub warnings: Vec<String>,
}

/// Read a history file. A file that does not exist is an empty history
/// (the first run); one that cannot be read is an error (exit 2); a
/// malformed line is skipped with a warning. Read as `src/read.rs` reads
/// any file: regular files only, never a FIFO, a device or `/proc`.
pub fn read(path: &Path) -> Result<History, String> {
    let shown = crate::source::shown_path(path);
    let bytes = match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(History::default()),
        _ => {
            let (mut file, meta) =
                crate::read::open(path, false).map_err(|e| format!("{shown}: {e}"))?;
            let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
            file.read_to_end(&mut bytes)
                .map_err(|e| format!("{shown}: {e}"))?;
            bytes
        }
    };
    Ok(parse(&shown, bytes))
}

/// Parse a history file's bytes (`shown`: its name in warnings).
pub fn parse(shown: &str, bytes: Vec<u8>) -> History {
    let mut history = History::default();
    let mut run_index: HashMap<String, usize> = HashMap::new();
    let mut unordered: Vec<(String, String)> = Vec::new();
    let mut entries: Vec<(String, usize, Verdict)> = Vec::new();
    let mut seen: HashSet<&[u8]> = HashSet::new();
    for (n, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        if raw.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let warn = |why: &str| format!("{shown}:{}: {why}; line skipped", n + 1);
        if raw.len() > MAX_LINE {
            history
                .warnings
                .push(warn(&format!("longer than {MAX_LINE} bytes")));
            continue;
        }
        let line: Line<'_> = match serde_json::from_slice(raw) {
            Ok(line) => line,
            Err(e) => {
                history.warnings.push(warn(&format!(
                    "not a history line ({})",
                    crate::text::escape(&e.to_string())
                )));
                continue;
            }
        };
        if !seen.insert(raw) {
            history.duplicates += 1;
            continue;
        }
        let next = unordered.len();
        let i = *run_index.entry(line.run.to_string()).or_insert_with(|| {
            unordered.push((line.run.to_string(), line.started.to_string()));
            next
        });
        if line.started.as_ref() < unordered[i].1.as_str() {
            unordered[i].1 = line.started.to_string();
        }
        entries.push((line.url.into_owned(), i, line.verdict));
    }
    drop(seen);
    // Runs in time order (then by id): a concatenation of shard files
    // lists them in any order.
    let mut order: Vec<usize> = (0..unordered.len()).collect();
    order.sort_by(|&a, &b| {
        (&unordered[a].1, &unordered[a].0).cmp(&(&unordered[b].1, &unordered[b].0))
    });
    let mut rank = vec![0; unordered.len()];
    for (r, &i) in order.iter().enumerate() {
        rank[i] = r;
    }
    history.runs = order.iter().map(|&i| unordered[i].clone()).collect();
    history.counts = vec![(0, 0); history.runs.len()];
    for (url, i, verdict) in entries {
        let r = rank[i];
        history.counts[r].0 += 1;
        if verdict == Verdict::Broken {
            history.counts[r].1 += 1;
        }
        history.urls.entry(url).or_default().push((r, verdict));
    }
    for v in history.urls.values_mut() {
        v.sort_by_key(|&(r, _)| r);
    }
    history.bytes = bytes;
    history
}

impl History {
    /// The ids of the runs, oldest first.
    pub fn run_ids(&self) -> impl Iterator<Item = &str> {
        self.runs.iter().map(|(id, _)| id.as_str())
    }

    /// The earlier runs kept beside the current one `current`: the newest
    /// `keep - 1` that are not `current` itself.
    fn kept_runs(&self, current: &str, keep: usize) -> Vec<usize> {
        let earlier: Vec<usize> = (0..self.runs.len())
            .filter(|&r| self.runs[r].0 != current)
            .collect();
        let skip = earlier.len().saturating_sub(keep.saturating_sub(1));
        earlier[skip..].to_vec()
    }
}

/// Give each result its trend against `history` (the runs kept with
/// `keep`, this one included), and list the broken count of each kept run.
pub fn annotate(results: &mut Results, history: &History, keep: usize) {
    let Some(current) = results.runs.first().map(|r| r.id.clone()) else {
        return;
    };
    let kept = history.kept_runs(&current, keep);
    let kept_set: HashSet<usize> = kept.iter().copied().collect();
    for r in &mut results.results {
        let earlier: Vec<Verdict> = history
            .urls
            .get(&r.url)
            .map(|v| {
                v.iter()
                    .filter(|(run, _)| kept_set.contains(run))
                    .map(|&(_, verdict)| verdict)
                    .collect()
            })
            .unwrap_or_default();
        r.history = Some(classify(&earlier, r.outcome));
    }
    let mut counts: Vec<RunCount> = kept
        .iter()
        .map(|&r| RunCount {
            id: history.runs[r].0.clone(),
            started: history.runs[r].1.clone(),
            checked: history.counts[r].0,
            broken: history.counts[r].1,
        })
        .collect();
    if let Some(run) = results.runs.first() {
        counts.push(RunCount {
            id: run.id.clone(),
            started: run.started.clone(),
            checked: results.results.len(),
            broken: results.results.iter().filter(|r| r.is_broken()).count(),
        });
    }
    results.history = counts;
}

/// The history lines of a run's results.
pub fn lines(run: &RunInfo, results: &[UrlResult]) -> Vec<u8> {
    let mut out = Vec::with_capacity(results.len() * 160);
    for r in results {
        let line = Line {
            run: run.id.as_str().into(),
            started: run.started.as_str().into(),
            url: r.url.as_str().into(),
            file: r.file.as_str().into(),
            line: r.line,
            time: run.started.as_str().into(),
            status: r.status,
            verdict: r.outcome,
            reason: r.reason.as_deref().map(Into::into),
            ms: r.ms,
        };
        // Plain data: serializing it cannot fail.
        if serde_json::to_writer(&mut out, &line).is_ok() {
            out.push(b'\n');
        }
    }
    out
}

/// Add this run's lines to the history file and keep only the newest
/// `keep` runs (this one included), through `src/write.rs`'s lock: the
/// file is read again under the lock, so lines another process added
/// since this run read it are kept too.
pub fn append(
    path: &Path,
    run: &RunInfo,
    results: &[UrlResult],
    keep: usize,
) -> Result<(), String> {
    let shown = crate::source::shown_path(path);
    let lock = crate::write::Lock::acquire(path).map_err(|e| e.to_string())?;
    let current = read(path)?;
    let exists = std::fs::symlink_metadata(path).is_ok();
    let kept: HashSet<&str> = current
        .kept_runs(&run.id, keep)
        .into_iter()
        .map(|r| current.runs[r].0.as_str())
        .chain(std::iter::once(run.id.as_str()))
        .collect();
    let mut text = Vec::with_capacity(current.bytes.len() + results.len() * 160);
    let mut seen: HashSet<&[u8]> = HashSet::new();
    for raw in current.bytes.split(|&b| b == b'\n') {
        if raw.iter().all(u8::is_ascii_whitespace) || raw.len() > MAX_LINE {
            continue;
        }
        // Malformed lines were warned about when the run began; the
        // rewrite drops them, with the lines of runs no longer kept.
        let Ok(line) = serde_json::from_slice::<Line<'_>>(raw) else {
            continue;
        };
        if kept.contains(line.run.as_ref()) && seen.insert(raw) {
            text.extend_from_slice(raw);
            text.push(b'\n');
        }
    }
    text.extend(lines(run, results));
    let written = if exists {
        lock.replace(&current.bytes, &text)
    } else {
        lock.create(&text)
    };
    written.map_err(|e| format!("{shown}: cannot write the history: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use Verdict::Broken;

    #[test]
    fn malformed_lines_are_skipped_with_their_line_number() {
        let good = r#"{"run":"r1","started":"2026-01-01T00:00:00Z","url":"http://a/","file":"a.yaml","line":3,"time":"2026-01-01T00:00:00Z","status":404,"verdict":"broken","reason":"HTTP 404","ms":1}"#;
        let text = format!("{good}\nnot json\n{{\"run\":1}}\n{good}\n\u{1b}[31m\n");
        let h = parse("h.jsonl", text.into_bytes());
        assert_eq!(h.runs.len(), 1);
        assert_eq!(h.duplicates, 1);
        assert_eq!(h.urls["http://a/"], vec![(0, Broken)]);
        assert_eq!(h.warnings.len(), 3, "{:?}", h.warnings);
        assert!(h.warnings[0].starts_with("h.jsonl:2: "), "{:?}", h.warnings);
        assert!(h.warnings[1].starts_with("h.jsonl:3: "), "{:?}", h.warnings);
        assert!(!h.warnings[2].contains('\u{1b}'), "{:?}", h.warnings);
    }
}
