//! ## What it checks
//! A file with more than 200,000 YAML documents (counted by their `---` and
//! `...` markers at the start of a line).
//!
//! ## Why it matters
//! Each document becomes a record in memory, many times the size of its
//! text: a file of a million tiny documents would take gigabytes to check.
//! No domain needs that many records in one file, so urldb does not read
//! such a file any further: no other rule runs on it, and it is not
//! rewritten.
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! ---
//! (and 200,000 more `---` lines)
//! ```
//!
//! Use instead: records that hold URLs, at most 200,000 of them to a file.
//!
//! ## Fix
//! None: only a person knows what the file was meant to hold.

use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "too-many-documents",
    summary: "more YAML documents in one file than the limit",
    severity: Severity::Error,
    fix: FixKind::None,
    blocks_rewrite: true,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::Always("`check` did not read the file"),
    check: Check::Parse,
};

/// The most documents a file may hold.
pub(crate) const MAX_DOCUMENTS: usize = 200_000;

/// How many document markers (`---` or `...` at the start of a line, then a
/// space, a tab, a line break or the end) `text` holds: one more than its
/// documents at most, counted without parsing.
pub(crate) fn markers(text: &str) -> usize {
    let bytes = text.as_bytes();
    let is_marker = |at: usize| {
        let rest = &bytes[at..];
        (rest.starts_with(b"---") || rest.starts_with(b"..."))
            && matches!(rest.get(3), None | Some(b' ' | b'\t' | b'\n' | b'\r'))
    };
    let mut n = usize::from(is_marker(0));
    for i in memchr::memchr2_iter(b'\n', b'\r', bytes) {
        n += usize::from(is_marker(i + 1));
    }
    n
}

/// The finding for a file with `markers` document markers; the span is the
/// first marker past the limit.
pub(crate) fn finding(text: &str, markers: usize) -> Finding {
    let at = nth_marker(text, MAX_DOCUMENTS + 1).unwrap_or(0);
    Finding::new(
        &RULE,
        at..(at + 3).min(text.len()),
        format!(
            "{} document markers, over the limit of {}; the file is not read",
            crate::text::thousands(markers),
            crate::text::thousands(MAX_DOCUMENTS)
        ),
    )
    .help("a domain file holds one document per record; split or remove the empty documents")
}

fn nth_marker(text: &str, n: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let starts = std::iter::once(0).chain(memchr::memchr2_iter(b'\n', b'\r', bytes).map(|i| i + 1));
    starts
        .filter(|&at| {
            let rest = &bytes[at.min(bytes.len())..];
            (rest.starts_with(b"---") || rest.starts_with(b"..."))
                && matches!(rest.get(3), None | Some(b' ' | b'\t' | b'\n' | b'\r'))
        })
        .nth(n - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_markers_at_line_starts() {
        assert_eq!(markers("---\n---\n_path: /a\n...\n--- {}\n"), 4);
        assert_eq!(markers("x: '---'\n----\n ---\n...x\n"), 0);
        assert_eq!(markers("---"), 1);
        assert_eq!(markers("---\r\n---\r..."), 3);
    }

    #[test]
    fn a_file_over_the_limit_gets_one_finding_and_nothing_else() {
        let text = "---\n".repeat(MAX_DOCUMENTS + 2);
        let checked = crate::rules::test_support::check(text.as_bytes());
        let codes: Vec<&str> = checked.findings.iter().map(|f| f.rule.code).collect();
        assert_eq!(codes, ["too-many-documents"]);
        assert_eq!(checked.findings[0].span.start, 4 * MAX_DOCUMENTS);
        assert!(checked.blocked_by.is_some() && !checked.documents.parses());
    }

    #[test]
    fn a_file_at_the_limit_is_read() {
        let text = "---\n".repeat(MAX_DOCUMENTS);
        let checked = crate::rules::test_support::check(text.as_bytes());
        assert!(
            checked
                .findings
                .iter()
                .all(|f| f.rule.code != "too-many-documents")
        );
    }
}
