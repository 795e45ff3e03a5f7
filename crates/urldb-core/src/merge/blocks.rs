//! Conflict blocks: git's markers around the lines of the one record or
//! key both sides changed, in the `diff3` form (ours, the common
//! ancestor's, theirs), so that whoever resolves it sees what each side
//! did. The `<<<<<<<` line names what is in conflict after the label.

use super::Labels;

/// How blocks are written: the marker size and labels git passed, and the
/// line break of the text around them.
pub(super) struct Markers<'a> {
    pub size: usize,
    pub labels: &'a Labels,
    pub newline: &'static str,
}

impl Markers<'_> {
    /// One block: the three versions of the lines in conflict (each empty
    /// or ending with a line break), and what they are.
    pub(super) fn block(&self, subject: &str, ours: &str, base: &str, theirs: &str) -> String {
        let n = self.newline;
        let marker = |c: &str| c.repeat(self.size);
        let subject = crate::text::escape(subject);
        format!(
            "{} {} ({subject}){n}{ours}{} {}{n}{base}{}{n}{theirs}{} {}{n}",
            marker("<"),
            self.labels.ours,
            marker("|"),
            self.labels.base,
            marker("="),
            marker(">"),
            self.labels.theirs,
        )
    }

    /// `ours` (the text with ours' side of every conflict) with each
    /// conflict's lines replaced by its block. Each conflict gives the
    /// text with only its own part as in the common ancestor and as in
    /// theirs; the lines where the three differ are its part. `None` when
    /// two parts overlap (the caller puts them in one block).
    pub(super) fn splice(
        &self,
        ours: &str,
        conflicts: &[(String, String, String)],
    ) -> Option<String> {
        let x: Vec<&str> = ours.split_inclusive('\n').collect();
        let mut parts: Vec<(usize, usize, String)> = Vec::new();
        for (subject, base, theirs) in conflicts {
            let b: Vec<&str> = base.split_inclusive('\n').collect();
            let t: Vec<&str> = theirs.split_inclusive('\n').collect();
            let shortest = x.len().min(b.len()).min(t.len());
            let prefix = (0..shortest)
                .take_while(|&i| x[i] == b[i] && x[i] == t[i])
                .count();
            let suffix = (0..shortest - prefix)
                .take_while(|&i| {
                    let (xi, bi, ti) = (x.len() - 1 - i, b.len() - 1 - i, t.len() - 1 - i);
                    x[xi] == b[bi] && x[xi] == t[ti]
                })
                .count();
            let lines = |v: &[&str]| v[prefix..v.len() - suffix].concat();
            parts.push((
                prefix,
                x.len() - suffix,
                self.block(subject, &lines(&x), &lines(&b), &lines(&t)),
            ));
        }
        parts.sort_by_key(|(start, end, _)| (*start, *end));
        let mut out = String::with_capacity(ours.len());
        let mut at = 0;
        for (start, end, block) in parts {
            if start < at {
                return None;
            }
            out.push_str(&x[at..start].concat());
            out.push_str(&block);
            at = end;
        }
        out.push_str(&x[at..].concat());
        Some(out)
    }
}

/// A line that starts a conflict block (`<<<<<<<`, `|||||||`, `=======`,
/// `>>>>>>>` at the margin), the 1-based number of the first: a text that
/// holds one is a merge left unresolved. Seven of a marker's character
/// after a line break are looked for first (the whole text at once).
pub fn conflict_marker_line(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let first = ["<<<<<<<", "|||||||", "=======", ">>>>>>>"]
        .iter()
        .filter_map(|marker| {
            let mut from = 0;
            loop {
                let at = if from == 0 && bytes.starts_with(marker.as_bytes()) {
                    0
                } else {
                    from + memchr::memmem::find(&bytes[from..], format!("\n{marker}").as_bytes())?
                        + 1
                };
                let line = &text[at..];
                let line = &line[..line.find('\n').unwrap_or(line.len())];
                let line = line.trim_end_matches('\r');
                // `=======` is a marker alone on its line; the others may
                // be followed by a label.
                let is_marker = if marker.starts_with('=') {
                    line.bytes().all(|b| b == b'=')
                } else {
                    true
                };
                if is_marker {
                    return Some(at);
                }
                from = at + 1;
            }
        })
        .min()?;
    Some(bytes[..first].iter().filter(|b| **b == b'\n').count() + 1)
}
