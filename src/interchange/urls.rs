//! A plain list of URLs, one per line: `export --to urls` (and `ls`)
//! writes it; `import --from urls` reads it, skipping blank lines and lines
//! that start with `#`.

use std::io::Write;

use super::LineProblem;
use crate::listing::UrlRecord;
use crate::url::{Canonical, canonicalize_given};

pub fn write(records: &[UrlRecord], out: &mut impl Write) -> std::io::Result<()> {
    for r in records {
        writeln!(out, "{}", r.url())?;
    }
    Ok(())
}

/// The URLs of `text`, canonical, each with its line; bad lines as problems.
pub fn read(text: &str) -> (Vec<(usize, Canonical)>, Vec<LineProblem>) {
    let mut urls = Vec::new();
    let mut problems = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match canonicalize_given(line) {
            Ok(url) => urls.push((i + 1, url)),
            Err(e) => problems.push(LineProblem {
                line: i + 1,
                message: e.to_string(),
                skipped: true,
            }),
        }
    }
    (urls, problems)
}
