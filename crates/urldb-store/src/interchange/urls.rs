//! A plain list of URLs, one per line: `export --to urls` (and `ls`)
//! writes it; `import --from urls` reads it, skipping blank lines and lines
//! that start with `#`.

use std::io::Write;

use super::LineProblem;
use crate::listing::UrlRecord;
use urldb_core::url::{Canonical, canonicalize_given};

/// One URL a line. No listed record's `_path` holds a control character
/// (`path-invalid-char` keeps it out of the listing, as `verify` does not
/// request it), and the builder would percent-encode one anyway
/// ([`urldb_core::url::Origin::url_of`]): each URL is one line.
pub fn write_urls(records: &[UrlRecord], out: &mut impl Write) -> std::io::Result<()> {
    for r in records {
        writeln!(out, "{}", r.url)?;
    }
    Ok(())
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
