//! A plain list of URLs, one per line: `export --to urls` (and `ls`)
//! writes it; `import --from urls` reads it, skipping blank lines and lines
//! that start with `#`.

use std::io::Write;

use super::LineProblem;
use crate::listing::UrlRecord;
use urldb_core::url::{Canonical, canonicalize_given};

/// One URL a line. A `_path` holding a control character (which no line
/// of a URL list can hold) has it percent-encoded in its URL
/// ([`urldb_core::url::Origin::url_of`]); the count of such URLs is
/// returned, for a note.
pub fn write_urls(records: &[UrlRecord], out: &mut impl Write) -> std::io::Result<usize> {
    let mut encoded = 0;
    for r in records {
        encoded += usize::from(r.path.chars().any(urldb_core::text::needs_escape));
        writeln!(out, "{}", r.url)?;
    }
    Ok(encoded)
}

/// The URLs of `text`, canonical, each with its line; bad lines as problems.
pub fn read_urls(text: &str) -> (Vec<(usize, Canonical)>, Vec<LineProblem>) {
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
