//! Reading a history file (`docs/verify.md`, "History"): each line
//! parsed as far as a reader needs it, repeats counted once, malformed
//! lines and runs from the future skipped with a bounded list of warnings,
//! and the runs put in time order.

use std::borrow::Cow;
use std::collections::HashSet;
use std::hash::BuildHasher;
use std::path::Path;

use serde::Deserialize;

use super::{CLOCK_ALLOWANCE, History, HistoryError, Map, Run, RunPart, Track, UrlInfo};
use crate::trend::{RunCount, Verdict};

/// The longest history line read; a longer one is malformed.
const MAX_LINE: usize = 64 * 1024;

/// Any line of a history, as far as a reader needs it: a run line
/// (`run`, `started`, the counts), a URL line (`url`, `at`, `recent`), or
/// a line of the format before (one URL in one run: `run`, `started`,
/// `url`, `verdict`), read and converted. Other fields are for people and
/// other tools. Text is borrowed from the line where it has no escape:
/// a million lines are read without a million copies of their fields.
#[derive(Deserialize)]
struct Key<'a> {
    #[serde(borrow)]
    run: Option<Cow<'a, str>>,
    #[serde(borrow)]
    started: Option<Cow<'a, str>>,
    #[serde(borrow)]
    url: Option<Cow<'a, str>>,
    verdict: Option<Verdict>,
    #[serde(borrow)]
    kind: Option<Cow<'a, str>>,
    status: Option<u16>,
    #[serde(borrow)]
    at: Option<Cow<'a, str>>,
    #[serde(borrow)]
    recent: Option<Cow<'a, str>>,
    facts: Option<serde_json::Map<String, serde_json::Value>>,
    #[serde(borrow)]
    shard: Option<Cow<'a, str>>,
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

/// A URL of lines of the format before: its (run, verdict) pairs, and the
/// run of its newest status with that status.
type OldUrl = (Vec<(usize, Verdict)>, usize, UrlInfo);

/// A letter of `recent` (`o`, `x`, `-`, `b`, `.`: [`super::verdict_of`]).
fn is_letter(l: u8) -> bool {
    matches!(l, b'o' | b'x' | b'-' | b'b' | b'.')
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

/// The runs met while reading, by id, in the order met.
#[derive(Default)]
struct Met {
    runs: Vec<RunCount>,
    index: Map<String, usize>,
}

impl Met {
    /// The place of run `id` (met now when new); `started` ("" from a URL
    /// line, which names its run without a start) keeps the earliest.
    fn run(&mut self, id: &str, started: &str) -> usize {
        let r = match self.index.get(id) {
            Some(&r) => r,
            None => {
                self.runs.push(RunCount {
                    id: id.to_string(),
                    ..RunCount::default()
                });
                self.index.insert(id.to_string(), self.runs.len() - 1);
                self.runs.len() - 1
            }
        };
        let run = &mut self.runs[r];
        if !started.is_empty() && (run.started.is_empty() || started < run.started.as_str()) {
            run.started = started.to_string();
        }
        r
    }
}

/// Read a history's lines from `input` (`shown`: its name in warnings),
/// in either format. Runs that start after `now` (beyond
/// [`CLOCK_ALLOWANCE`]) are skipped.
pub(super) fn scan(shown: &str, input: &[u8], now: jiff::Timestamp) -> Result<Scan, HistoryError> {
    let mut history = History::default();
    let mut met = Met::default();
    let mut parts: Vec<(usize, RunPart)> = Vec::new();
    // URL lines, by URL, their `last` the place of their run among those
    // met (placed in time order once all are read); a second line of one
    // URL (shards' files concatenated) waits in `rivals`.
    let lines = memchr::memchr_iter(b'\n', input).count() + 1;
    let mut tracks: Map<Box<str>, Track> = Map::with_capacity_and_hasher(lines, Default::default());
    let mut rivals: Vec<(Box<str>, Track)> = Vec::new();
    // Lines of the format before: each URL's (run, verdict) and newest
    // status (run, info).
    let mut old: Map<String, OldUrl> = Map::default();
    // A repeat is found by two hashes of the line's bytes, not a copy of it.
    let hashers = (
        foldhash::quality::FixedState::with_seed(1),
        foldhash::quality::FixedState::with_seed(2),
    );
    let mut seen: HashSet<(u64, u64), foldhash::fast::RandomState> = HashSet::default();
    let mut rest = input;
    let mut n = 0;
    while !rest.is_empty() {
        n += 1;
        let (raw, after) = match memchr::memchr(b'\n', rest) {
            Some(end) => (&rest[..end], &rest[end + 1..]),
            None => (rest, &rest[rest.len()..]),
        };
        rest = after;
        let why = if raw.len() > MAX_LINE {
            format!("longer than {MAX_LINE} bytes")
        } else if raw.iter().all(u8::is_ascii_whitespace) {
            continue;
        } else {
            match serde_json::from_slice::<Key>(raw) {
                Ok(key) => {
                    // Only run lines and lines of the format before are
                    // hashed: a URL line seen twice is its own rival,
                    // below, and counts nothing twice.
                    let hash = match key.recent {
                        Some(_) => (0, 0),
                        None => (hashers.0.hash_one(raw), hashers.1.hash_one(raw)),
                    };
                    if key.recent.is_none() && seen.contains(&hash) {
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
                            let r = met.run(&run, &started);
                            let count = &mut met.runs[r];
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
                                kind: kind.map(Cow::into_owned),
                                facts: None,
                            };
                            let entry = old.entry(url.into_owned()).or_default();
                            entry.0.push((r, verdict));
                            (entry.1, entry.2) = (r, info);
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
                            let r = met.run(&run, &started);
                            let count = &mut met.runs[r];
                            count.checked += checked;
                            count.broken += broken;
                            count.blocked += blocked;
                            count.skipped += skipped;
                            count.accepted += accepted;
                            parts.push((
                                r,
                                RunPart {
                                    started: started.into_owned(),
                                    shard: shard.map(Cow::into_owned),
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
                        } if recent.bytes().all(is_letter) => {
                            // Its run is named by a run line, maybe a
                            // later one: placed once all are read.
                            let at = met.run(&at, "");
                            let info = UrlInfo {
                                status,
                                kind: kind.map(Cow::into_owned),
                                facts,
                            };
                            // Placed and trimmed once the runs are in
                            // order.
                            let track = Some(Track {
                                last: at,
                                letters: recent.as_bytes().into(),
                                info,
                                line: u32::try_from(n).unwrap_or(u32::MAX),
                            });
                            if let Some(track) = track {
                                match tracks.entry(url.into()) {
                                    std::collections::hash_map::Entry::Vacant(v) => {
                                        v.insert(track);
                                    }
                                    std::collections::hash_map::Entry::Occupied(o) => {
                                        rivals.push((o.key().clone(), track));
                                    }
                                }
                            }
                            continue;
                        }
                        Key {
                            url: Some(_),
                            at: Some(_),
                            recent: Some(_),
                            ..
                        } => "recent: expected only the letters o, x, -, b and .".to_string(),
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
    for (r, count) in met.runs.into_iter().enumerate() {
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
    let mut rank = vec![usize::MAX; met.index.len()];
    for (k, (r, _)) in runs.iter().enumerate() {
        rank[*r] = k;
    }
    history.runs = runs.into_iter().map(|(_, run)| run).collect();
    history.parts = parts
        .into_iter()
        .filter(|(r, _)| rank[*r] != usize::MAX)
        .map(|(r, part)| (rank[r], part))
        .collect();
    // Each URL line's run placed; its letters end at that run and go back
    // one run each. Of a URL's lines, the one whose last verdict is newest
    // (then the longer).
    let place = |t: Track| {
        let Track {
            last,
            letters,
            info,
            line,
        } = t;
        match rank[last] {
            usize::MAX => None,
            // The usual line (no `.` at either end, no letter before the
            // first run): its letters kept as read.
            last if letters.len() <= last + 1
                && letters.first().is_some_and(|&l| l != b'.')
                && letters.last().is_some_and(|&l| l != b'.') =>
            {
                Some(Track {
                    last,
                    letters,
                    info,
                    line,
                })
            }
            last => Track::new(last, &letters, info).map(|t| Track { line, ..t }),
        }
    };
    tracks.retain(|_, t| match place(std::mem::replace(t, Track::empty())) {
        Some(placed) => {
            *t = placed;
            true
        }
        None => false,
    });
    for (url, rival) in rivals {
        let Some(rival) = place(rival) else {
            continue;
        };
        match tracks.get_mut(&url) {
            Some(k) if (k.last, k.letters.len()) >= (rival.last, rival.letters.len()) => {}
            Some(k) => *k = rival,
            None => {
                tracks.insert(url, rival);
            }
        }
    }
    // Lines of the format before, renumbered; with a URL line of the same
    // URL, the verdicts of both (the older format's first for one run).
    for (url, (verdicts, r, info)) in old {
        let mut verdicts: Vec<(usize, Verdict)> = verdicts
            .into_iter()
            .filter_map(|(r, v)| Some((rank[r], v)).filter(|(r, _)| *r != usize::MAX))
            .collect();
        let info = if rank[r] == usize::MAX {
            UrlInfo::default()
        } else {
            info
        };
        let url: Box<str> = url.into();
        let info = match tracks.remove(&url) {
            Some(t) => {
                verdicts.extend(t.verdicts());
                t.info
            }
            None => info,
        };
        if let Some(track) = Track::of_verdicts(verdicts, info) {
            tracks.insert(url, track);
        }
    }
    history.urls = tracks;
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
        assert_eq!(h.verdicts_of("http://a/"), [(0, Broken)]);
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
