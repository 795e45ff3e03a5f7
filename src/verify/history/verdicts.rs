//! Each URL's verdicts in the runs of a history file, gathered in one
//! pass over its lines. A history holds a line per URL per run, hundreds
//! of thousands of them, and is read on every `verify --history` run
//! (`docs/performance.md`, "`urldb verify --history`"): so no allocation
//! per URL. The URLs are kept back to back in one string and found
//! through a hash table of their indices; the verdicts are kept in one
//! list, grouped by URL once every line is in.

use std::hash::BuildHasher;
use std::ops::Range;

use hashbrown::HashTable;

use crate::verify::trend::Verdict;

#[derive(Default)]
pub struct Verdicts {
    hasher: foldhash::fast::RandomState,
    /// Every distinct URL, back to back; `urls[u]` is URL `u`'s range.
    text: String,
    urls: Vec<Range<usize>>,
    /// The URL of the line added last.
    last: Option<usize>,
    /// URL indices, by the hash of their text.
    index: HashTable<usize>,
    /// (URL, run, verdict) in the order added; emptied by `finish`.
    added: Vec<(usize, usize, Verdict)>,
    /// After `finish`: (run, verdict) grouped by URL, each URL's oldest
    /// run first; URL `u`'s are `grouped[starts[u]..starts[u + 1]]`.
    grouped: Vec<(usize, Verdict)>,
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
    pub fn with_capacity(lines: usize) -> Verdicts {
        Verdicts {
            // A URL a line at most: the table never grows while reading.
            index: HashTable::with_capacity(lines),
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

    /// One line's verdict: `url` was `verdict` in run `run`.
    pub fn add(&mut self, url: &str, run: usize, verdict: Verdict) {
        let u = match self.find(url, self.last) {
            Some(u) => u,
            None => {
                let u = self.urls.len();
                self.urls.push(self.text.len()..self.text.len() + url.len());
                self.text.push_str(url);
                let (hasher, text, urls) = (&self.hasher, &self.text, &self.urls);
                self.index.insert_unique(hasher.hash_one(url), u, |&v| {
                    hasher.hash_one(&text[urls[v].clone()])
                });
                u
            }
        };
        self.last = Some(u);
        self.added.push((u, run, verdict));
    }

    /// Once every line is added: number the runs as `rank` says (a run's
    /// place in time order), and group the verdicts by URL, oldest first.
    pub fn finish(&mut self, rank: &[usize]) {
        let mut starts = vec![0; self.urls.len() + 1];
        for &(u, _, _) in &self.added {
            starts[u + 1] += 1;
        }
        for u in 0..self.urls.len() {
            starts[u + 1] += starts[u];
        }
        let mut next = starts.clone();
        let mut grouped = vec![(0, Verdict::Ok); self.added.len()];
        for &(u, run, verdict) in &self.added {
            grouped[next[u]] = (rank[run], verdict);
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
    pub fn of(&self, url: &str, after: Option<usize>) -> (Option<usize>, &[(usize, Verdict)]) {
        match self.find(url, after) {
            Some(u) if u + 1 < self.starts.len() => {
                (Some(u), &self.grouped[self.starts[u]..self.starts[u + 1]])
            }
            _ => (after, &[]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Verdict::{Broken, Ok};

    #[test]
    fn groups_each_urls_verdicts_in_run_order() {
        let mut v = Verdicts::with_capacity(4);
        // Runs as first met: 0 is "b" (later in time), 1 is "a".
        v.add("http://x/", 0, Broken);
        v.add("http://y/", 0, Ok);
        v.add("http://x/", 1, Ok);
        v.add("http://x/", 0, Ok);
        v.finish(&[1, 0]);
        assert_eq!(v.of("http://x/", None).1, [(0, Ok), (1, Broken), (1, Ok)]);
        assert_eq!(v.of("http://y/", None).1, [(1, Ok)]);
        assert_eq!(v.of("http://z/", None).1, []);
    }
}
