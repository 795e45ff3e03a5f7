//! Reading a history file: its runs, each URL's verdicts, and where each
//! run's lines are in it (for a rewrite), in one pass over its lines.
//!
//! A run reads the whole history while its URLs are fetched, so the file
//! is read in pieces through one small buffer ([`read`]): its memory is
//! what is kept of it (a verdict per line, each URL once), not the file.
//! A line read twice (two copies of one earlier history concatenated) has
//! a URL with a verdict in its run already, which is all that is looked at
//! there (no table of every line); a file with such a line is read again
//! whole and its lines compared byte for byte ([`parse`]) before anything
//! is dropped, since only a rewrite drops them.

use std::fs::{File, Metadata};
use std::hash::BuildHasher;
use std::io::Read;
use std::ops::Range;
use std::path::Path;

use foldhash::HashMap;
use hashbrown::HashTable;

use super::History;
use super::line;
use super::verdicts::Verdicts;
use crate::trend::Verdict;
use urldb_store::write::Stamp;

/// The longest history line read; a longer one is malformed.
pub(super) const MAX_LINE: usize = 64 * 1024;

/// The buffer a history is read through: a few times [`MAX_LINE`], so
/// that any line short enough to read fits, and small enough to stay in
/// the processor's cache while its lines are parsed.
const PIECE: usize = 256 * 1024;

/// Lines in a file of `len` bytes, about: urldb's own lines are 200 bytes
/// and more, so this is rather too many than too few (room reserved once).
fn lines_in(len: usize) -> usize {
    len / 160 + 1
}

/// Read a history file in pieces. A file that does not exist is an empty
/// history (the first run); one that cannot be read is an error (exit 2);
/// a malformed line is skipped with a warning. Read as `crates/urldb-store/src/read.rs` reads
/// any file: regular files only, never a FIFO, a device or `/proc`.
///
/// A line whose URL has a verdict in its run already counts as a repeat
/// here; [`super::prepare`] reads such a file again with [`parse`], which
/// compares lines byte for byte.
pub fn read(path: &Path) -> Result<History, String> {
    read_with(path, PIECE, MAX_LINE)
}

/// A history file opened to be read, and what it was when opened; none
/// when it does not exist. Opened as `crates/urldb-store/src/read.rs` opens any file.
fn open(path: &Path) -> Result<Option<(File, Metadata)>, String> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        _ => urldb_store::read::open(path, None)
            .map(Some)
            .map_err(|e| format!("{}: {e}", urldb_core::source::shown_path(path))),
    }
}

/// The bytes of a history file and its stamp; none when it does not
/// exist. What a rewrite needs: it copies the bytes, and
/// `Lock::replace_unchanged` checks the stamp again.
pub(super) fn read_bytes(path: &Path) -> Result<(Vec<u8>, Option<Stamp>), String> {
    let Some((mut file, meta)) = open(path)? else {
        return Ok((Vec::new(), None));
    };
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.read_to_end(&mut bytes)
        .map_err(|e| format!("{}: {e}", urldb_core::source::shown_path(path)))?;
    Ok((bytes, Some(Stamp::of(&meta))))
}

fn read_with(path: &Path, piece: usize, max_line: usize) -> Result<History, String> {
    let Some((mut file, meta)) = open(path)? else {
        return Ok(History::default());
    };
    let shown = urldb_core::source::shown_path(path);
    let failed = |e: String| format!("{shown}: {e}");
    let estimate = lines_in(usize::try_from(meta.len()).unwrap_or(0));
    let mut reader = Reader::new(&shown, estimate, max_line);
    let mut buf = vec![0; piece.max(max_line + 1)];
    // `buf[..filled]` is the file from offset `base` on; `n` is the number
    // (from 0) of the line that starts at `buf[0]`.
    let (mut filled, mut base, mut n) = (0, 0, 0);
    // In a line longer than the buffer, already warned about.
    let mut skipping = false;
    loop {
        let got = match file.read(&mut buf[filled..]) {
            Ok(got) => got,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(failed(e.to_string())),
        };
        filled += got;
        let mut start = 0;
        for end in memchr::memchr_iter(b'\n', &buf[..filled]) {
            if !std::mem::take(&mut skipping) {
                let at = base + start..base + end + 1;
                reader.line(n, &buf[start..end], at, None);
            }
            n += 1;
            start = end + 1;
        }
        if got == 0 {
            if !skipping && start < filled {
                let at = base + start..base + filled;
                reader.line(n, &buf[start..filled], at, None);
            }
            break;
        }
        if start == 0 && filled == buf.len() {
            // No newline in the whole buffer: a line far too long to read.
            if !skipping {
                reader.too_long(n);
                skipping = true;
            }
            base += filled;
            filled = 0;
            continue;
        }
        buf.copy_within(start..filled, 0);
        base += start;
        filled -= start;
    }
    let mut history = reader.finish();
    history.stamp = Some(Stamp::of(&meta));
    Ok(history)
}

/// Parse a history file's bytes (`shown`: its name in warnings), comparing
/// lines byte for byte: a line the same as one before it is a repeat.
/// (Its [`History::stamp`] is left for the caller.)
pub fn parse(shown: &str, bytes: &[u8]) -> History {
    let estimate = lines_in(bytes.len());
    let mut reader = Reader::new(shown, estimate, MAX_LINE);
    // The lines kept so far, as ranges of `bytes`, by the hash of their
    // bytes: a repeat is found without keeping a copy of any line.
    let hasher = foldhash::fast::RandomState::default();
    let mut seen: HashTable<Range<usize>> = HashTable::with_capacity(estimate);
    let mut start = 0;
    for (n, end) in memchr::memchr_iter(b'\n', bytes)
        .chain(std::iter::once(bytes.len()))
        .enumerate()
    {
        let range = start..end;
        let at = start..(end + 1).min(bytes.len());
        start = end + 1;
        let mut repeat = |raw: &[u8]| {
            let hash = hasher.hash_one(raw);
            if seen.find(hash, |r| &bytes[r.clone()] == raw).is_some() {
                return true;
            }
            seen.insert_unique(hash, range.clone(), |r| hasher.hash_one(&bytes[r.clone()]));
            false
        };
        reader.line(n, &bytes[range.clone()], at, Some(&mut repeat));
    }
    reader.finish()
}

/// Whether a line was read before (remembering it if not).
type Repeat<'a> = dyn FnMut(&[u8]) -> bool + 'a;

/// A history being read, a line at a time.
struct Reader<'s> {
    shown: &'s str,
    max_line: usize,
    history: History,
    /// Runs in the order first met: (id, earliest start), and id → index;
    /// per run (checked, broken).
    met: Vec<(String, String)>,
    index: HashMap<String, usize>,
    counts: Vec<(usize, usize)>,
    /// The run of the line kept last.
    last: Option<usize>,
}

impl<'s> Reader<'s> {
    fn new(shown: &'s str, lines: usize, max_line: usize) -> Reader<'s> {
        Reader {
            shown,
            max_line,
            history: History {
                urls: Verdicts::with_capacity(lines),
                ..History::default()
            },
            met: Vec::new(),
            index: HashMap::default(),
            counts: Vec::new(),
            last: None,
        }
    }

    fn warn(&mut self, n: usize, why: &str) {
        let shown = self.shown;
        self.history
            .warnings
            .push(format!("{shown}:{}: {why}; line skipped", n + 1));
    }

    fn too_long(&mut self, n: usize) {
        let why = format!("longer than {} bytes", self.max_line);
        self.warn(n, &why);
    }

    /// Line `n` (from 0): `raw`, without its newline, at `at` in the file
    /// (with its newline). `repeat` tells whether a well-formed line was
    /// read before (and remembers it); without it, a line whose URL has a
    /// verdict in its run already is taken for a repeat.
    fn line(&mut self, n: usize, raw: &[u8], at: Range<usize>, repeat: Option<&mut Repeat<'_>>) {
        if raw.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        if raw.len() > self.max_line {
            self.too_long(n);
            return;
        }
        let key = match line::key(raw) {
            Ok(key) => key,
            Err(e) => {
                let why = format!(
                    "not a history line ({})",
                    urldb_core::text::escape(&e.to_string())
                );
                self.warn(n, &why);
                return;
            }
        };
        // Lines come in runs: the previous line's run is the likely one.
        let r = match self.last {
            Some(r) if self.met[r].0 == key.run => r,
            _ => self.run_of(&key.run, &key.started),
        };
        self.last = Some(r);
        let u = self.history.urls.url(&key.url);
        let repeated = match repeat {
            Some(repeat) => repeat(raw),
            // A line can repeat one before it only if its URL has a verdict
            // in its run already: taken for a repeat, to be made sure of.
            None => self.history.urls.may_have(u, r),
        };
        if repeated {
            self.history.duplicates += 1;
            return;
        }
        if *key.started < *self.met[r].1 {
            self.met[r].1 = key.started.into_owned();
        }
        self.counts[r].0 += 1;
        if key.verdict == Verdict::Broken {
            self.counts[r].1 += 1;
        }
        self.history.urls.add(u, r, key.verdict);
        // Where the run's lines are: the last span grows while they follow
        // one another, as a run's lines do.
        let spans = &mut self.history.spans;
        match spans.last_mut() {
            Some((span, run)) if *run == r && span.end == at.start => span.end = at.end,
            _ => spans.push((at, r)),
        }
    }

    /// The index of run `id`, met now if not before.
    fn run_of(&mut self, id: &str, started: &str) -> usize {
        if let Some(&r) = self.index.get(id) {
            return r;
        }
        self.met.push((id.to_string(), started.to_string()));
        self.counts.push((0, 0));
        self.index.insert(id.to_string(), self.met.len() - 1);
        self.met.len() - 1
    }

    /// Once every line is read: the runs ordered by their earliest start
    /// (then by id: a concatenation of shard files lists them in any
    /// order), and everything that names a run renumbered to match.
    fn finish(self) -> History {
        let Reader {
            met,
            counts,
            mut history,
            ..
        } = self;
        let mut order: Vec<usize> = (0..met.len()).collect();
        order.sort_by(|&a, &b| (&met[a].1, &met[a].0).cmp(&(&met[b].1, &met[b].0)));
        let mut rank = vec![0; met.len()];
        for (k, &r) in order.iter().enumerate() {
            rank[r] = k;
        }
        history.counts = order.iter().map(|&r| counts[r]).collect();
        history.runs = order.iter().map(|&r| met[r].clone()).collect();
        for (_, r) in &mut history.spans {
            *r = rank[*r];
        }
        history.urls.finish(&rank);
        history
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn good_line(run: &str, started: &str, url: &str, verdict: &str) -> String {
        format!(
            r#"{{"run":"{run}","started":"{started}","url":"{url}","file":"a.yaml","line":3,"time":"{started}","status":404,"verdict":"{verdict}","reason":null,"ms":1}}"#
        )
    }

    /// What a reading found, with the runs' verdicts and lines in a form
    /// two readings can be compared by.
    fn seen(h: &History, bytes: &[u8]) -> (Vec<String>, Vec<String>, usize, Vec<Vec<u8>>) {
        let runs = h.runs.iter().map(|(id, s)| format!("{id}@{s}")).collect();
        let lines = h
            .spans
            .iter()
            .map(|(span, r)| [h.runs[*r].0.as_bytes(), b":", &bytes[span.clone()]].concat())
            .collect();
        (runs, h.warnings.clone(), h.duplicates, lines)
    }

    /// One line of a history being made up: a well-formed line of one of
    /// three runs, a copy of a well-formed line before it, a malformed
    /// line, a blank one, or one too long to read.
    #[derive(Debug, Clone)]
    enum Made {
        Good(usize, usize, bool),
        Copy(proptest::sample::Index),
        Junk(String),
        Blank,
        Long(usize),
    }

    fn any_line() -> impl Strategy<Value = Made> {
        prop_oneof![
            6 => (0..3usize, 0..50usize, any::<bool>()).prop_map(|(r, u, b)| Made::Good(r, u, b)),
            1 => any::<proptest::sample::Index>().prop_map(Made::Copy),
            1 => "[ -~]{0,12}".prop_map(Made::Junk),
            1 => Just(Made::Blank),
            1 => (100..400usize).prop_map(Made::Long),
        ]
    }

    /// The text of `made`: a URL is checked once in a run, so a second
    /// line of a run and URL is left out; copies are copies.
    fn text_of(made: &[Made]) -> Vec<String> {
        let mut lines = Vec::new();
        let mut good = Vec::new();
        let mut pairs = std::collections::HashSet::new();
        for m in made {
            match m {
                Made::Good(r, u, broken) => {
                    if pairs.insert((r, u)) {
                        let line = good_line(
                            &format!("r{r}"),
                            &format!("2026-01-0{}T00:00:00Z", 3 - r),
                            &format!("http://a/{u}"),
                            if *broken { "broken" } else { "ok" },
                        );
                        good.push(line.clone());
                        lines.push(line);
                    }
                }
                Made::Copy(i) if !good.is_empty() => lines.push(i.get(&good).clone()),
                Made::Copy(_) => {}
                Made::Junk(text) => lines.push(text.clone()),
                Made::Blank => lines.push("  \t".to_string()),
                Made::Long(n) => lines.push(format!("{{\"run\":\"{}\"}}", "x".repeat(*n))),
            }
        }
        lines
    }

    proptest! {
        /// Read in pieces as small as a line, a file reads as parsing it
        /// whole reads it: the same runs, warnings (line numbers included),
        /// repeats, verdicts and lines of each run, with or without a
        /// newline at its end.
        #[test]
        fn reading_in_pieces_is_parsing_whole(
            made in proptest::collection::vec(any_line(), 0..60),
            newline in any::<bool>(),
            piece in 1..600usize,
        ) {
            let mut text = text_of(&made).join("\n");
            if newline {
                text.push('\n');
            }
            let dir = tempfile::tempdir().expect("tempdir");
            let path = dir.path().join("h.jsonl");
            std::fs::write(&path, &text).expect("write");
            let max_line = 300;
            let shown = urldb_core::source::shown_path(&path);
            let whole = parse(&shown, text.as_bytes());
            // `parse` reads lines up to MAX_LINE: the warnings with a
            // smaller one are made line by line.
            let mut reader = Reader::new(&shown, 1, max_line);
            let mut kept = std::collections::HashSet::new();
            for (n, raw) in text.split('\n').enumerate() {
                let mut repeat = |raw: &[u8]| !kept.insert(raw.to_vec());
                reader.line(n, raw.as_bytes(), 0..0, Some(&mut repeat));
            }
            let expected_warnings = reader.finish().warnings;
            let pieces = read_with(&path, piece, max_line).expect("read");
            let (runs, warnings, repeats, spans) = seen(&pieces, text.as_bytes());
            let (whole_runs, _, whole_repeats, whole_spans) = seen(&whole, text.as_bytes());
            prop_assert_eq!(runs, whole_runs);
            prop_assert_eq!(warnings, expected_warnings);
            prop_assert_eq!(repeats, whole_repeats);
            prop_assert_eq!(spans, whole_spans);
            for url in 0..50 {
                let url = format!("http://a/{url}");
                prop_assert_eq!(pieces.urls.of(&url, None).1, whole.urls.of(&url, None).1);
            }
        }
    }

    #[test]
    fn a_line_longer_than_the_buffer_is_skipped_once() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("h.jsonl");
        let long = "x".repeat(5000);
        let a = good_line("r1", "2026-01-01T00:00:00Z", "http://a/", "ok");
        let text = format!("{a}\n{long}\n{a}x\n{long}");
        std::fs::write(&path, &text).expect("write");
        let h = read_with(&path, 1000, 900).expect("read");
        assert_eq!(h.runs.len(), 1);
        let lines: Vec<&str> = h
            .warnings
            .iter()
            .filter_map(|w| w.split_once(".jsonl:").map(|(_, line)| line))
            .collect();
        assert_eq!(lines.len(), 3, "{:?}", h.warnings);
        assert!(
            lines[0].starts_with("2: longer than 900 bytes"),
            "{lines:?}"
        );
        assert!(lines[1].starts_with("3: not a history line"), "{lines:?}");
        assert!(
            lines[2].starts_with("4: longer than 900 bytes"),
            "{lines:?}"
        );
    }
}
