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

use super::{CLOCK_ALLOWANCE, History, HistoryError, Run};
use crate::trend::{RunCount, Verdict};

/// The longest history line read; a longer one is malformed.
const MAX_LINE: usize = 64 * 1024;

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

/// A history and, when asked for, its well-formed lines with their run.
pub(super) struct Scan {
    pub(super) history: History,
    pub(super) lines: Vec<(usize, Vec<u8>)>,
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

/// Read a history's lines from `input` (`shown`: its name in warnings);
/// with `keep_lines`, keep each well-formed line with its run. Runs that
/// start after `now` (beyond [`CLOCK_ALLOWANCE`]) are skipped.
pub(super) fn scan(
    shown: &str,
    mut input: impl BufRead,
    keep_lines: bool,
    now: jiff::Timestamp,
) -> Result<Scan, HistoryError> {
    let io = |e: std::io::Error| HistoryError::Read {
        path: PathBuf::from(shown),
        source: ReadError::Io(e),
    };
    let mut history = History::default();
    let mut lines = Vec::new();
    let (mut met, mut index): (Vec<RunCount>, HashMap<String, usize>) = Default::default();
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
                        met.push(RunCount {
                            id: key.run.clone(),
                            started: key.started.clone(),
                            ..RunCount::default()
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
        history.skip(format!("{shown}:{n}: {why}; line skipped"));
    }
    // Runs in time order, those from the future left out, and everything
    // that names a run renumbered (`usize::MAX`: left out).
    let horizon = now.checked_add(CLOCK_ALLOWANCE).unwrap_or(now);
    let mut runs: Vec<(usize, Run)> = Vec::new();
    for (r, count) in met.into_iter().enumerate() {
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
    history.urls.retain(|_, verdicts| {
        verdicts.retain_mut(|(r, _)| {
            *r = rank[*r];
            *r != usize::MAX
        });
        verdicts.sort_by_key(|(r, _)| *r);
        !verdicts.is_empty()
    });
    lines.retain_mut(|(r, _)| {
        *r = rank[*r];
        *r != usize::MAX
    });
    Ok(Scan { history, lines })
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
        let h = scan("h.jsonl", text.as_bytes(), false, jiff::Timestamp::now())
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
        let h = scan("h", junk.as_bytes(), false, jiff::Timestamp::now())
            .expect("scan")
            .history;
        assert_eq!((h.warnings.len(), h.more_warnings()), (MAX_WARNINGS, 6));
    }
}
