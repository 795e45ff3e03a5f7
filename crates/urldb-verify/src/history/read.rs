//! Reading a history file (`docs/verify.md`, "History"): each line
//! parsed as far as a reader needs it, repeats counted once, malformed
//! lines and runs from the future skipped with a bounded list of warnings,
//! and the runs put in time order.

use std::collections::{HashMap, HashSet};
use std::hash::BuildHasher;
use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};

use serde::Deserialize;
use urldb_store::ReadError;

use super::{CLOCK_ALLOWANCE, History, HistoryError, Run, RunPart, UrlInfo};
use crate::trend::{RunCount, Verdict};

/// The longest history line read; a longer one is malformed.
const MAX_LINE: usize = 64 * 1024;

/// Any line of a history, as far as a reader needs it: a run line
/// (`run`, `started`, the counts), a URL line (`url`, `at`, `recent`), or
/// a line of the format before (one URL in one run: `run`, `started`,
/// `url`, `verdict`), read and converted. Other fields are for people and
/// other tools.
#[derive(Deserialize)]
struct Key {
    run: Option<String>,
    started: Option<String>,
    url: Option<String>,
    verdict: Option<Verdict>,
    kind: Option<String>,
    status: Option<u16>,
    at: Option<String>,
    recent: Option<String>,
    facts: Option<serde_json::Map<String, serde_json::Value>>,
    shard: Option<String>,
    checked: Option<usize>,
    #[serde(default)]
    broken: usize,
    #[serde(default)]
    blocked: usize,
    #[serde(default)]
    skipped: usize,
    #[serde(default)]
    accepted: usize,
}

/// A URL line as read, before the runs are in order.
struct Compact {
    url: String,
    /// The run of its last letter, by its place among the runs met.
    at: usize,
    letters: Vec<Option<Verdict>>,
    info: UrlInfo,
}

fn letter(c: char) -> Option<Option<Verdict>> {
    Some(match c {
        'o' => Some(Verdict::Ok),
        'x' => Some(Verdict::Broken),
        '-' => Some(Verdict::Skipped),
        'b' => Some(Verdict::Blocked),
        '.' => None,
        _ => return None,
    })
}

/// A history as read.
pub(super) struct Scan {
    pub(super) history: History,
}

/// The file at `path` opened to be read; none when it does not exist.
pub(super) fn open(
    path: &Path,
) -> Result<Option<(std::fs::File, std::fs::Metadata)>, HistoryError> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Ok(meta) if meta.file_type().is_symlink() => {
            return Err(HistoryError::Symlink(path.to_path_buf()));
        }
        _ => {}
    }
    urldb_store::open_regular(path, None)
        .map(Some)
        .map_err(|source| HistoryError::Read {
            path: path.to_path_buf(),
            source,
        })
}

/// Read a history's lines from `input` (`shown`: its name in warnings),
/// in either format. Runs that start after `now` (beyond
/// [`CLOCK_ALLOWANCE`]) are skipped.
pub(super) fn scan(
    shown: &str,
    mut input: impl BufRead,
    now: jiff::Timestamp,
) -> Result<Scan, HistoryError> {
    let io = |e: std::io::Error| HistoryError::Read {
        path: PathBuf::from(shown),
        source: ReadError::Io(e),
    };
    let mut history = History::default();
    let (mut met, mut index): (Vec<RunCount>, HashMap<String, usize>) = Default::default();
    let mut parts: Vec<(usize, RunPart)> = Vec::new();
    let mut compact: Vec<Compact> = Vec::new();
    // The newest status of each URL of the format before: (run, info).
    let mut old_info: HashMap<String, (usize, UrlInfo)> = HashMap::new();
    // A repeat is found by two hashes of the line's bytes, not a copy of it.
    let hashers = (
        foldhash::quality::FixedState::with_seed(1),
        foldhash::quality::FixedState::with_seed(2),
    );
    let mut seen = HashSet::new();
    let mut buf = Vec::new();
    let mut run_of = |id: &str, started: &str, met: &mut Vec<RunCount>| -> usize {
        let r = *index.entry(id.to_string()).or_insert_with(|| {
            met.push(RunCount {
                id: id.to_string(),
                started: started.to_string(),
                ..RunCount::default()
            });
            met.len() - 1
        });
        // A URL line names its run without a start ("").
        if !started.is_empty() && (met[r].started.is_empty() || started < met[r].started.as_str()) {
            met[r].started = started.to_string();
        }
        r
    };
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
                    if seen.contains(&hash) {
                        history.duplicates += 1;
                        continue;
                    }
                    match key {
                        // A line of the format before: one URL in one run.
                        Key {
                            run: Some(run),
                            started: Some(started),
                            url: Some(url),
                            verdict: Some(verdict),
                            kind,
                            status,
                            ..
                        } => {
                            seen.insert(hash);
                            let r = run_of(&run, &started, &mut met);
                            let count = &mut met[r];
                            count.checked += 1;
                            count.broken += usize::from(verdict == Verdict::Broken);
                            count.blocked += usize::from(verdict == Verdict::Blocked);
                            count.skipped += usize::from(verdict == Verdict::Skipped);
                            count.accepted += usize::from(
                                verdict == Verdict::Ok
                                    && kind.as_deref() == Some(crate::results::ACCEPTED),
                            );
                            history.converted = true;
                            let info = UrlInfo {
                                status,
                                kind,
                                facts: None,
                            };
                            old_info.insert(url.clone(), (r, info));
                            history.urls.entry(url).or_default().push((r, verdict));
                            continue;
                        }
                        // A run line.
                        Key {
                            run: Some(run),
                            started: Some(started),
                            url: None,
                            checked: Some(checked),
                            shard,
                            broken,
                            blocked,
                            skipped,
                            accepted,
                            ..
                        } => {
                            seen.insert(hash);
                            let r = run_of(&run, &started, &mut met);
                            let count = &mut met[r];
                            count.checked += checked;
                            count.broken += broken;
                            count.blocked += blocked;
                            count.skipped += skipped;
                            count.accepted += accepted;
                            parts.push((
                                r,
                                RunPart {
                                    started,
                                    shard,
                                    counts: [checked, broken, blocked, skipped, accepted],
                                },
                            ));
                            continue;
                        }
                        // A URL line: its verdicts, the last in run `at`.
                        Key {
                            url: Some(url),
                            at: Some(at),
                            recent: Some(recent),
                            status,
                            kind,
                            facts,
                            ..
                        } => match recent.chars().map(letter).collect::<Option<Vec<_>>>() {
                            Some(letters) => {
                                seen.insert(hash);
                                // Its run is named by a run line, maybe a
                                // later one: placed once all are read.
                                let at = run_of(&at, "", &mut met);
                                compact.push(Compact {
                                    url,
                                    at,
                                    letters,
                                    info: UrlInfo {
                                        status,
                                        kind,
                                        facts,
                                    },
                                });
                                continue;
                            }
                            None => {
                                "recent: expected only the letters o, x, -, b and .".to_string()
                            }
                        },
                        _ => "not a history line (neither a run nor a URL)".to_string(),
                    }
                }
                Err(e) => format!(
                    "not a history line ({})",
                    urldb_core::text::escape(&e.to_string())
                ),
            }
        };
        history.skip(format!("{shown}:{n}: {why}; line skipped"));
    }
    // Runs in time order, those from the future left out, and everything
    // that names a run renumbered (`usize::MAX`: left out). A run only a
    // URL line names (its run line lost) has no start: left out too.
    let horizon = now.checked_add(CLOCK_ALLOWANCE).unwrap_or(now);
    let mut runs: Vec<(usize, Run)> = Vec::new();
    for (r, count) in met.into_iter().enumerate() {
        if count.started.is_empty() {
            continue;
        }
        match count.started.parse::<jiff::Timestamp>() {
            Ok(started_at) if started_at <= horizon => runs.push((r, Run { count, started_at })),
            Ok(_) => history.skip(format!(
                "{shown}: run `{}` starts at {}, after this run (more than 5 minutes ahead of \
                 this machine's clock); its lines skipped",
                urldb_core::text::escape(&count.id),
                urldb_core::text::escape(&count.started),
            )),
            Err(_) => history.skip(format!(
                "{shown}: run `{}` has a start that is no time (`{}`); its lines skipped",
                urldb_core::text::escape(&count.id),
                urldb_core::text::escape(&count.started),
            )),
        }
    }
    runs.sort_by(|(_, a), (_, b)| (a.started_at, &a.count.id).cmp(&(b.started_at, &b.count.id)));
    let mut rank = vec![usize::MAX; index.len()];
    for (k, (r, _)) in runs.iter().enumerate() {
        rank[*r] = k;
    }
    history.runs = runs.into_iter().map(|(_, run)| run).collect();
    history.parts = parts
        .into_iter()
        .filter(|(r, _)| rank[*r] != usize::MAX)
        .map(|(r, part)| (rank[r], part))
        .collect();
    for (url, (r, info)) in old_info {
        if rank[r] != usize::MAX {
            history.info.insert(url, info);
        }
    }
    // The verdicts of lines of the format before, renumbered.
    history.urls.retain(|_, verdicts| {
        verdicts.retain_mut(|(r, _)| {
            *r = rank[*r];
            *r != usize::MAX
        });
        !verdicts.is_empty()
    });
    // Of a URL's lines (shards' histories concatenated), the one whose
    // last verdict is newest; its letters end at that run and go back one
    // run each.
    let mut newest: HashMap<String, Compact> = HashMap::new();
    for c in compact {
        if rank[c.at] == usize::MAX {
            continue;
        }
        match newest.get(&c.url) {
            Some(k) if (rank[k.at], k.letters.len()) >= (rank[c.at], c.letters.len()) => {}
            _ => {
                newest.insert(c.url.clone(), c);
            }
        }
    }
    for (url, c) in newest {
        let last = rank[c.at];
        let verdicts = history.urls.entry(url.clone()).or_default();
        for (back, v) in c.letters.iter().rev().enumerate() {
            if let (Some(v), Some(r)) = (v, last.checked_sub(back)) {
                verdicts.push((r, *v));
            }
        }
        history.info.insert(url, c.info);
    }
    for verdicts in history.urls.values_mut() {
        verdicts.sort_by_key(|(r, _)| *r);
        verdicts.dedup_by_key(|(r, _)| *r);
    }
    Ok(Scan { history })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::MAX_WARNINGS;
    use crate::trend::Verdict::Broken;

    #[test]
    fn malformed_lines_are_skipped_with_their_line_number_and_counted_past_the_cap() {
        let good = r#"{"run":"r1","started":"2026-01-01T00:00:00Z","url":"http://a/","file":"a.yaml","line":3,"time":"2026-01-01T00:00:00Z","status":404,"verdict":"broken","reason":"HTTP 404","ms":1}"#;
        let text = format!("{good}\nnot json\n{{\"run\":1}}\n{good}\n\u{1b}[31m\n");
        let h = scan("h.jsonl", text.as_bytes(), jiff::Timestamp::now())
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
        let h = scan("h", junk.as_bytes(), jiff::Timestamp::now())
            .expect("scan")
            .history;
        assert_eq!((h.warnings.len(), h.more_warnings()), (MAX_WARNINGS, 6));
    }
}
