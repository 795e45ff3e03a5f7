//! Writing a history file (`docs/verify.md`, "History"): one line per
//! run (or shard of a run) and one line per URL, its recent verdicts as
//! letters, rewritten whole after each run under the file's lock. A file
//! of the format before (one line per URL per run) is read and written
//! back in this one.

use std::io::Read;
use std::path::Path;

use serde::Serialize;
use urldb_core::source::shown_path;
use urldb_store::ReadError;
use urldb_store::write::{Lock, Notes};

use super::read::{Scan, open, scan};
use super::{
    History, HistoryError, Map, RunPart, Track, UrlInfo, fingerprint, kept_runs, letter_of,
};
use crate::results::{RunInfo, UrlResult};
use crate::trend::Verdict;

/// A run line, as written.
#[derive(Serialize)]
struct RunLine<'a> {
    run: &'a str,
    /// The run's start time, RFC 3339 in UTC: runs are ordered by it.
    started: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    shard: Option<&'a str>,
    checked: usize,
    broken: usize,
    blocked: usize,
    skipped: usize,
    accepted: usize,
}

/// A URL line, as written.
#[derive(Serialize)]
struct UrlLine<'a> {
    url: &'a str,
    /// The run of the last letter of `recent`.
    at: &'a str,
    /// One letter per run up to `at`, oldest first: `o` ok, `x` broken,
    /// `-` skipped, `b` blocked, `.` not checked in that run.
    recent: &'a str,
    /// The last status received.
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<&'a str>,
    /// Reserved for later facts about the URL; kept as read.
    #[serde(skip_serializing_if = "Option::is_none")]
    facts: Option<&'a serde_json::Map<String, serde_json::Value>>,
}

/// The whole text of the history `history` becomes with run `run`'s
/// `results` added: the newest `keep - 1` earlier runs and this one.
pub fn lines(history: &History, run: &RunInfo, results: &[UrlResult], keep: usize) -> Vec<u8> {
    let kept = kept_runs(&history.runs, &run.id, keep);
    let current = history.runs.iter().position(|r| r.count.id == run.id);
    // The runs written, in the order a reader puts them (by start, then
    // id), which the letters of every URL line follow: the kept earlier
    // runs and this one (`None`: not yet in the file).
    let start_of = |r: Option<usize>| match r {
        Some(r) => history.runs[r].started_at,
        None => run.started.parse().unwrap_or(jiff::Timestamp::MAX),
    };
    let mut order: Vec<Option<usize>> = kept.iter().map(|&r| Some(r)).collect();
    order.push(current);
    let id_of = |r: Option<usize>| match r {
        Some(r) => history.runs[r].count.id.as_str(),
        None => run.id.as_str(),
    };
    order.sort_by(|a, b| (start_of(*a), id_of(*a)).cmp(&(start_of(*b), id_of(*b))));
    let last = order
        .iter()
        .position(|r| *r == current)
        .unwrap_or(order.len() - 1);
    // Old rank -> new place.
    let mut place = vec![usize::MAX; history.runs.len()];
    for (i, r) in order.iter().enumerate() {
        if let Some(r) = r {
            place[*r] = i;
        }
    }
    let ids: Vec<&str> = order.iter().map(|r| id_of(*r)).collect();
    let mut out = Vec::new();
    let write = |out: &mut Vec<u8>, line: &dyn erased::Line| {
        line.write(out);
        out.push(b'\n');
    };
    // Run lines: each kept run's parts (one summed line for a run of the
    // format before), this run's after the parts it already has (another
    // shard's).
    let count = |f: &dyn Fn(&UrlResult) -> bool| results.iter().filter(|r| f(r)).count();
    let shard = run.shard.map(|s| s.to_string());
    for &r in &order {
        if let Some(r) = r {
            let count = &history.runs[r].count;
            let parts: Vec<&RunPart> = history
                .parts
                .iter()
                .filter(|(k, _)| *k == r)
                .map(|(_, p)| p)
                .collect();
            if parts.is_empty() {
                write(
                    &mut out,
                    &RunLine {
                        run: &count.id,
                        started: &count.started,
                        shard: None,
                        checked: count.checked,
                        broken: count.broken,
                        blocked: count.blocked,
                        skipped: count.skipped,
                        accepted: count.accepted,
                    },
                );
            }
            for p in parts {
                let [checked, broken, blocked, skipped, accepted] = p.counts;
                write(
                    &mut out,
                    &RunLine {
                        run: &count.id,
                        started: &p.started,
                        shard: p.shard.as_deref(),
                        checked,
                        broken,
                        blocked,
                        skipped,
                        accepted,
                    },
                );
            }
        }
        if r == current {
            write(
                &mut out,
                &RunLine {
                    run: &run.id,
                    started: &run.started,
                    shard: shard.as_deref(),
                    checked: results.len(),
                    broken: count(&|r| r.is_broken()),
                    blocked: count(&|r| r.is_blocked()),
                    skipped: count(&|r| r.outcome == Verdict::Skipped),
                    accepted: count(&|r| r.is_accepted()),
                },
            );
        }
    }
    // URL lines, by URL: the kept verdicts, this run's last.
    let this_run: Map<&str, &UrlResult> = results.iter().map(|r| (r.url.as_str(), r)).collect();
    // A URL is written when this run checked it or one of its verdicts is
    // in a kept run (its last, usually: the kept runs are the newest).
    let kept = |t: &Track| {
        place[t.last] != usize::MAX || t.verdicts().any(|(r, _)| place[r] != usize::MAX)
    };
    let mut urls: Vec<(&str, Option<&Track>)> = history
        .urls
        .iter()
        .filter(|(url, t)| kept(t) || this_run.contains_key(&***url))
        .map(|(url, t)| (&**url, Some(t)))
        .collect();
    urls.extend(
        results
            .iter()
            .map(|r| r.url.as_str())
            .filter(|url| !history.urls.contains_key(*url))
            .map(|url| (url, None)),
    );
    // In the file's order first: a file urldb wrote is then sorted but
    // for this run's new URLs at the end, which the stable sort by URL
    // merges in about one pass.
    urls.sort_unstable_by_key(|(_, t)| t.map_or(u32::MAX, |t| t.line));
    urls.sort_by(|a, b| a.0.cmp(b.0));
    urls.dedup_by(|a, b| a.0 == b.0);
    // The usual rewrite: the kept runs are the newest, in the order read,
    // so a kept letter keeps its place less the runs dropped (`from`, the
    // first kept run, goes to place `to`), and a URL's letters are a
    // slice of its old ones.
    let from = place.iter().position(|&p| p != usize::MAX);
    let shifted = from.filter(|&k| {
        place[k..]
            .iter()
            .enumerate()
            .all(|(i, &p)| p == place[k] + i)
    });
    // An archive lookup made (or reused) this run, by whichever of a
    // URL's results holds it (a URL checked for two records has two);
    // one that could not be made is not kept, so that the next run asks.
    let archived_now: Map<&str, serde_json::Value> = results
        .iter()
        .filter_map(|r| {
            let a = r
                .archived
                .as_ref()
                .filter(|a| a.verdict != crate::archive::ArchiveVerdict::NotAsked)?;
            Some((r.url.as_str(), serde_json::to_value(a).ok()?))
        })
        .collect();
    let no_info = UrlInfo::default();
    let mut letters: Vec<(usize, u8)> = Vec::new();
    let mut recent: Vec<u8> = Vec::new();
    for (url, track) in urls {
        let checked = this_run.get(url);
        let info = track.map_or(&no_info, |t| &t.info);
        let mut status_kind = (info.status, info.kind.as_deref());
        if let Some(r) = checked {
            status_kind = (r.status, r.kind.as_deref());
        }
        recent.clear();
        let end = match (shifted, track) {
            (Some(k), Some(t)) if t.last >= k && checked.is_none_or(|_| place[t.last] < last) => {
                let first = t.last + 1 - t.letters.len();
                let kept = &t.letters[k.saturating_sub(first)..];
                let start = kept.iter().position(|&l| l != b'.').unwrap_or(0);
                recent.extend_from_slice(&kept[start..]);
                match checked {
                    Some(r) => {
                        recent.resize(recent.len() + (last - place[t.last] - 1), b'.');
                        recent.push(letter_of(r.outcome));
                        last
                    }
                    None => place[t.last],
                }
            }
            _ => {
                letters.clear();
                letters.extend(
                    track
                        .into_iter()
                        .flat_map(Track::verdicts)
                        .map(|(r, v)| (place[r], letter_of(v)))
                        .filter(|(p, _)| *p != usize::MAX && (checked.is_none() || *p != last)),
                );
                if let Some(r) = checked {
                    letters.push((last, letter_of(r.outcome)));
                    letters.sort_by_key(|(p, _)| *p);
                }
                let (Some(&(first, _)), Some(&(end, _))) = (letters.first(), letters.last()) else {
                    continue;
                };
                recent.resize(end - first + 1, b'.');
                for (p, l) in &letters {
                    recent[p - first] = *l;
                }
                end
            }
        };
        let with_archive = archived_now.get(url).map(|fact| {
            let mut facts = info.facts.clone().unwrap_or_default();
            facts.insert(super::ARCHIVE_FACT.to_string(), fact.clone());
            facts
        });
        write(
            &mut out,
            &UrlLine {
                url,
                at: ids[end],
                // Letters only: ASCII.
                recent: std::str::from_utf8(&recent).unwrap_or_default(),
                status: status_kind.0,
                kind: status_kind.1,
                facts: with_archive.as_ref().or(info.facts.as_ref()),
            },
        );
    }
    out
}

/// Lines are plain data: writing them to a `Vec` cannot fail.
mod erased {
    pub(super) trait Line {
        fn write(&self, out: &mut Vec<u8>);
    }

    impl<T: serde::Serialize> Line for T {
        fn write(&self, out: &mut Vec<u8>) {
            let _ = serde_json::to_writer(out, self);
        }
    }
}

/// Add run `run`'s `results` to the history at `path`, under the file's
/// lock: read again under it (lines another process added meanwhile are
/// kept), then rewritten with the newest `keep - 1` earlier runs and
/// this one. What the writer has to say meanwhile goes to `notes`.
pub fn append(
    path: &Path,
    run: &RunInfo,
    results: &[UrlResult],
    keep: usize,
    notes: Notes<'_>,
) -> Result<(), HistoryError> {
    append_to(path, None, run, results, keep, notes)
}

/// [`append`] after `earlier` was read from `path` ([`History::read`]):
/// when the file under the lock still holds the bytes read then, it is
/// not parsed again (a history of a million URLs is read once a run).
pub fn append_after(
    path: &Path,
    earlier: &History,
    run: &RunInfo,
    results: &[UrlResult],
    keep: usize,
    notes: Notes<'_>,
) -> Result<(), HistoryError> {
    append_to(path, Some(earlier), run, results, keep, notes)
}

fn append_to(
    path: &Path,
    earlier: Option<&History>,
    run: &RunInfo,
    results: &[UrlResult],
    keep: usize,
    notes: Notes<'_>,
) -> Result<(), HistoryError> {
    let failed = |source| HistoryError::Write {
        path: path.to_path_buf(),
        source,
    };
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(HistoryError::Symlink(path.to_path_buf()));
    }
    let lock = Lock::acquire(path, notes).map_err(failed)?;
    let Some((mut file, _)) = open(path)? else {
        return lock
            .create(&lines(&History::default(), run, results, keep))
            .map_err(failed);
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
    let text = match earlier {
        Some(h) if h.read == Some(fingerprint(&bytes)) => lines(h, run, results, keep),
        _ => {
            // The run's start is written by `verify` itself: a time.
            let now = run
                .started
                .parse()
                .unwrap_or_else(|_| jiff::Timestamp::now());
            let Scan { history } = scan(&shown_path(path), &bytes, now)?;
            lines(&history, run, results, keep)
        }
    };
    lock.replace(&bytes, &text).map_err(failed)
}
