//! Each URL's verdicts in the runs of a history file, gathered in one
//! pass over its lines. A history holds a line per URL per run, hundreds
//! of thousands of them, and is read on every `verify --history` run
//! (`docs/dev/performance.md`, "`urldb verify --history`"): so no allocation
//! per URL. The URLs are kept back to back in one string and found
//! through a hash table of their indices; the verdicts are kept in one
//! list, grouped by URL once every line is in.

use std::hash::BuildHasher;
use std::ops::Range;

use hashbrown::HashTable;

use crate::trend::Verdict;

#[derive(Default)]
pub(crate) struct Verdicts {
    hasher: foldhash::fast::RandomState,
    /// Every distinct URL, back to back; `urls[u]` is URL `u`'s range.
    text: String,
    urls: Vec<Range<usize>>,
    /// The URL of the line added last.
    last: Option<usize>,
    /// URL indices, by the hash of their text.
    index: HashTable<usize>,
    /// Per URL, the runs it has a verdict in, run `r` as bit `r % 64`: a
    /// line can only repeat one before it if its bit is set.
    runs: Vec<u64>,
    /// (URL, run, verdict) in the order added; emptied by `finish`. In
    /// 32 bits: a verdict per line, and a history of 100,000 URLs at 30
    /// runs has three million lines.
    added: Vec<(u32, u32, Verdict)>,
    /// After `finish`: (run, verdict) grouped by URL, each URL's oldest
    /// run first; URL `u`'s are `grouped[starts[u]..starts[u + 1]]`.
    grouped: Vec<(u32, Verdict)>,
    starts: Vec<usize>,
}

impl std::fmt::Debug for Verdicts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Verdicts")
            .field("urls", &self.urls.len())
            .field("verdicts", &(self.added.len() + self.grouped.len()))
            .finish()
    }
}

impl Verdicts {
    /// Room for about `lines` verdicts.
    pub(super) fn with_capacity(lines: usize) -> Verdicts {
        Verdicts {
            // Not a URL a line: a file of 30 runs has a thirtieth as many,
            // and a table sized for every line is mostly empty memory that
            // its URLs, spread over it, all touch. It grows as URLs come.
            index: HashTable::with_capacity(lines.min(1 << 16)),
            added: Vec::with_capacity(lines),
            ..Verdicts::default()
        }
    }

    /// URL `url`'s index. `after`: the index of the URL looked up before.
    /// A history's runs list their URLs in the same order, and so do the
    /// results of a run: the URL after that one is tried first, which
    /// costs a look at memory just read instead of a hash table probe.
    fn find(&self, url: &str, after: Option<usize>) -> Option<usize> {
        let next = after.map_or(0, |u| u + 1);
        if self
            .urls
            .get(next)
            .is_some_and(|r| &self.text[r.clone()] == url)
        {
            return Some(next);
        }
        let hash = self.hasher.hash_one(url);
        self.index
            .find(hash, |&u| &self.text[self.urls[u].clone()] == url)
            .copied()
    }

    /// URL `url`'s index, a new one if it is new.
    pub(super) fn url(&mut self, url: &str) -> usize {
        let u = match self.find(url, self.last) {
            Some(u) => u,
            None => {
                let u = self.urls.len();
                self.urls.push(self.text.len()..self.text.len() + url.len());
                self.runs.push(0);
                self.text.push_str(url);
                let (hasher, text, urls) = (&self.hasher, &self.text, &self.urls);
                self.index.insert_unique(hasher.hash_one(url), u, |&v| {
                    hasher.hash_one(&text[urls[v].clone()])
                });
                u
            }
        };
        self.last = Some(u);
        u
    }

    /// Whether URL `u` may have a verdict in run `run` already: never
    /// when it has none; sometimes when it has one in another run (every
    /// 64th run shares a bit).
    pub(super) fn may_have(&self, u: usize, run: usize) -> bool {
        self.runs[u] & (1 << (run % 64)) != 0
    }

    /// One line's verdict: URL `u` was `verdict` in run `run`.
    pub(super) fn add(&mut self, u: usize, run: usize, verdict: Verdict) {
        self.runs[u] |= 1 << (run % 64);
        self.added.push((small(u), small(run), verdict));
    }

    /// Once every line is added: number the runs as `rank` says (a run's
    /// place in time order), and group the verdicts by URL, oldest first.
    pub(super) fn finish(&mut self, rank: &[usize]) {
        let mut starts = vec![0; self.urls.len() + 1];
        for &(u, _, _) in &self.added {
            starts[u as usize + 1] += 1;
        }
        for u in 0..self.urls.len() {
            starts[u + 1] += starts[u];
        }
        let mut next = starts.clone();
        let mut grouped = vec![(0, Verdict::Ok); self.added.len()];
        for &(u, run, verdict) in &self.added {
            let u = u as usize;
            grouped[next[u]] = (small(rank[run as usize]), verdict);
            next[u] += 1;
        }
        for u in 0..self.urls.len() {
            grouped[starts[u]..starts[u + 1]].sort_by_key(|&(run, _)| run);
        }
        self.added = Vec::new();
        self.grouped = grouped;
        self.starts = starts;
    }

    /// `url`'s (run, verdict) pairs, oldest run first (after `finish`),
    /// and its index. `after`: the index the previous call returned, or
    /// none: results in the order of the history's lines are found without
    /// a probe of the hash table.
    pub(super) fn of(&self, url: &str, after: Option<usize>) -> (Option<usize>, &[(u32, Verdict)]) {
        match self.find(url, after) {
            Some(u) if u + 1 < self.starts.len() => {
                (Some(u), &self.grouped[self.starts[u]..self.starts[u + 1]])
            }
            _ => (after, &[]),
        }
    }
}

/// An index of a URL or a run, in 32 bits: there are fewer of either
/// than lines, and a file of four billion lines would be a terabyte.
fn small(index: usize) -> u32 {
    u32::try_from(index).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Verdict::{Broken, Ok};

    #[test]
    fn groups_each_urls_verdicts_in_run_order() {
        let mut v = Verdicts::with_capacity(4);
        // Runs as first met: 0 is "b" (later in time), 1 is "a".
        for (url, run, verdict) in [
            ("http://x/", 0, Broken),
            ("http://y/", 0, Ok),
            ("http://x/", 1, Ok),
            ("http://x/", 0, Ok),
        ] {
            let u = v.url(url);
            v.add(u, run, verdict);
        }
        let (x, y) = (v.url("http://x/"), v.url("http://y/"));
        assert!(v.may_have(x, 1));
        assert!(!v.may_have(y, 1));
        v.finish(&[1, 0]);
        assert_eq!(v.of("http://x/", None).1, [(0, Ok), (1, Broken), (1, Ok)]);
        assert_eq!(v.of("http://y/", None).1, [(1, Ok)]);
        assert_eq!(v.of("http://z/", None).1, []);
    }
}
