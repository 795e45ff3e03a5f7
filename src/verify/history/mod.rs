//! `verify --history FILE`: one JSON line per URL per run, read before a
//! run to tell new failures from persistent ones and to mark flaky URLs,
//! appended to after it, and kept to the last `--history-keep` runs
//! (`docs/verify.md`, "History").
//!
//! History files concatenate: the lines of the shards of one CI run share
//! its run id, and a line read twice (two shards' copies of the same
//! earlier history, `cat`-ed together) counts once.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::io::Read;
use std::ops::Range;
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
/// Its text fields borrow from the file's bytes when they hold no JSON
/// escape: reading a large history copies next to nothing.
pub struct Line<'a> {
    #[serde(borrow)]
    pub run: Cow<'a, str>,
    /// The run's start time, RFC 3339 in UTC: runs are ordered by it.
    #[serde(borrow)]
    pub started: Cow<'a, str>,
    #[serde(borrow)]
    pub url: Cow<'a, str>,
    #[serde(borrow)]
    pub file: Cow<'a, str>,
    pub line: usize,
    /// When this URL was checked, RFC 3339 in UTC (the run's start time).
    #[serde(borrow)]
    pub time: Cow<'a, str>,
    pub status: Option<u16>,
    pub verdict: Verdict,
    #[serde(borrow)]
    pub reason: Option<Cow<'a, str>>,
    pub ms: u64,
}

/// A history file as read: the runs it holds in time order, each URL's
/// verdicts, and the lines it skipped.
#[derive(Debug, Default)]
pub struct History {
    /// The file's bytes, and its well-formed lines in them with their run
    /// (an index into `runs`): when the file has not changed by the time
    /// this run's lines are added, it is not parsed again.
    bytes: Vec<u8>,
    spans: Vec<(Range<usize>, usize)>,
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
    let bytes = read_bytes(path)?;
    let mut history = parse(&shown, &bytes);
    history.bytes = bytes;
    Ok(history)
}

/// The bytes of a history file; none when it does not exist.
fn read_bytes(path: &Path) -> Result<Vec<u8>, String> {
    let shown = crate::source::shown_path(path);
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        _ => {
            let (mut file, meta) =
                crate::read::open(path, false).map_err(|e| format!("{shown}: {e}"))?;
            let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
            file.read_to_end(&mut bytes)
                .map_err(|e| format!("{shown}: {e}"))?;
            Ok(bytes)
        }
    }
}

/// The well-formed lines of a history file, each once (with its raw
/// bytes), the malformed ones as warnings, and how many were repeats.
struct Lines<'a> {
    lines: Vec<(Range<usize>, Line<'a>)>,
    warnings: Vec<String>,
    duplicates: usize,
}

fn lines_of<'a>(shown: &str, bytes: &'a [u8]) -> Lines<'a> {
    let mut out = Lines {
        lines: Vec::new(),
        warnings: Vec::new(),
        duplicates: 0,
    };
    let mut seen: HashSet<&[u8]> = HashSet::new();
    let mut start = 0;
    for (n, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let range = start..start + raw.len();
        start = range.end + 1;
        if raw.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let warn = |why: &str| format!("{shown}:{}: {why}; line skipped", n + 1);
        if raw.len() > MAX_LINE {
            out.warnings
                .push(warn(&format!("longer than {MAX_LINE} bytes")));
            continue;
        }
        match serde_json::from_slice::<Line<'_>>(raw) {
            Ok(line) if seen.insert(raw) => out.lines.push((range, line)),
            Ok(_) => out.duplicates += 1,
            Err(e) => out.warnings.push(warn(&format!(
                "not a history line ({})",
                crate::text::escape(&e.to_string())
            ))),
        }
    }
    out
}

/// The runs of `lines` as (id, earliest start), oldest first (then by
/// id: a concatenation of shard files lists them in any order), and each
/// line's run as an index into them.
fn runs_of(lines: &[(Range<usize>, Line<'_>)]) -> (Vec<(String, String)>, Vec<usize>) {
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut unordered: Vec<(&str, &str)> = Vec::new();
    let mut of_line = Vec::with_capacity(lines.len());
    for (_, line) in lines {
        let next = unordered.len();
        let i = *index.entry(line.run.as_ref()).or_insert_with(|| {
            unordered.push((line.run.as_ref(), line.started.as_ref()));
            next
        });
        if line.started.as_ref() < unordered[i].1 {
            unordered[i].1 = line.started.as_ref();
        }
        of_line.push(i);
    }
    let mut order: Vec<usize> = (0..unordered.len()).collect();
    order.sort_by(|&a, &b| (unordered[a].1, unordered[a].0).cmp(&(unordered[b].1, unordered[b].0)));
    let mut rank = vec![0; unordered.len()];
    for (r, &i) in order.iter().enumerate() {
        rank[i] = r;
    }
    let runs = order
        .iter()
        .map(|&i| (unordered[i].0.to_string(), unordered[i].1.to_string()))
        .collect();
    (runs, of_line.into_iter().map(|i| rank[i]).collect())
}

/// Parse a history file's bytes (`shown`: its name in warnings).
pub fn parse(shown: &str, bytes: &[u8]) -> History {
    let Lines {
        lines,
        warnings,
        duplicates,
    } = lines_of(shown, bytes);
    let (runs, of_line) = runs_of(&lines);
    let mut history = History {
        counts: vec![(0, 0); runs.len()],
        runs,
        duplicates,
        warnings,
        ..History::default()
    };
    for ((range, line), r) in lines.into_iter().zip(of_line) {
        history.spans.push((range, r));
        history.counts[r].0 += 1;
        if line.verdict == Verdict::Broken {
            history.counts[r].1 += 1;
        }
        match history.urls.get_mut(line.url.as_ref()) {
            Some(v) => v.push((r, line.verdict)),
            None => {
                history
                    .urls
                    .insert(line.url.to_string(), vec![(r, line.verdict)]);
            }
        }
    }
    for v in history.urls.values_mut() {
        v.sort_by_key(|&(r, _)| r);
    }
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
    earlier: Option<&History>,
) -> Result<(), String> {
    let shown = crate::source::shown_path(path);
    let lock = crate::write::Lock::acquire(path).map_err(|e| e.to_string())?;
    let exists = std::fs::symlink_metadata(path).is_ok();
    let bytes = read_bytes(path)?;
    // Malformed lines were warned about when the run began; the rewrite
    // drops them, with repeated lines and the lines of runs no longer kept.
    let reread;
    let (runs, spans) = match earlier {
        Some(h) if h.bytes == bytes => (&h.runs, &h.spans),
        _ => {
            reread = parse(&shown, &bytes);
            (&reread.runs, &reread.spans)
        }
    };
    let earlier: Vec<usize> = (0..runs.len()).filter(|&r| runs[r].0 != run.id).collect();
    let first_kept = earlier.len().saturating_sub(keep.saturating_sub(1));
    let mut kept = vec![false; runs.len()];
    for &r in &earlier[first_kept..] {
        kept[r] = true;
    }
    let mut text = Vec::with_capacity(bytes.len() + results.len() * 160);
    for (range, r) in spans {
        if kept[*r] || runs[*r].0 == run.id {
            text.extend_from_slice(&bytes[range.clone()]);
            text.push(b'\n');
        }
    }
    text.extend(lines(run, results));
    let written = if exists {
        lock.replace(&bytes, &text)
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
        let h = parse("h.jsonl", text.as_bytes());
        assert_eq!(h.runs.len(), 1);
        assert_eq!(h.duplicates, 1);
        assert_eq!(h.urls["http://a/"], vec![(0, Broken)]);
        assert_eq!(h.warnings.len(), 3, "{:?}", h.warnings);
        assert!(h.warnings[0].starts_with("h.jsonl:2: "), "{:?}", h.warnings);
        assert!(h.warnings[1].starts_with("h.jsonl:3: "), "{:?}", h.warnings);
        assert!(!h.warnings[2].contains('\u{1b}'), "{:?}", h.warnings);
    }

    #[test]
    fn lines_another_process_added_meanwhile_are_kept() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("h.jsonl");
        let result = |url: &str| UrlResult {
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
        };
        let run = |id: &str, started: &str| RunInfo {
            id: id.to_string(),
            started: started.to_string(),
            shard: None,
            elapsed_ms: 1,
        };
        let r1 = run("r1", "2026-01-01T00:00:01.000Z");
        append(&path, &r1, &[result("http://a/")], 30, None).expect("first");
        let before = read(&path).expect("read");
        // Another shard of the same run, writing while this one checked.
        let other = run("r2", "2026-01-01T00:00:02.000Z");
        let mut text = std::fs::read(&path).expect("read");
        text.extend(lines(&other, &[result("http://b/")]));
        std::fs::write(&path, text).expect("write");
        let r3 = run("r3", "2026-01-01T00:00:03.000Z");
        append(&path, &r3, &[result("http://c/")], 30, Some(&before)).expect("append");
        let after = read(&path).expect("read");
        assert_eq!(after.run_ids().collect::<Vec<_>>(), ["r1", "r2", "r3"]);
        // Unchanged since it was read: the first parse is used, the same result.
        append(
            &path,
            &run("r4", "2026-01-01T00:00:04.000Z"),
            &[result("http://d/")],
            2,
            Some(&after),
        )
        .expect("append");
        assert_eq!(
            read(&path).expect("read").run_ids().collect::<Vec<_>>(),
            ["r3", "r4"]
        );
    }
}
