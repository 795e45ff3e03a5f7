//! ## What it checks
//! Spaces or tabs at the end of a line (before the line break, or at the
//! end of the file). One finding per line.
//!
//! ## Why it matters
//! Trailing whitespace is invisible in an editor but not in a diff: lines
//! show as changed when only an editor's "strip whitespace" setting
//! differs between two people. The canonical text has none. Inside a block
//! scalar (`|`) trailing spaces are part of the value; the canonical text
//! writes such values quoted with escapes, so they are kept, only visible.
//!
//! ## Example
//! (`·` marks a space.)
//! ```yaml
//! ---
//! ---
//! _path: /a··
//! content-type: text/html
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! ---
//! _path: /a
//! content-type: text/html
//! ```
//!
//! ## Fix
//! Safe, by `urldb fmt`: the file is written as canonical text, which has
//! no trailing whitespace; no value changes.

use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "trailing-whitespace",
    summary: "spaces or tabs at the end of a line",
    severity: Severity::Error,
    fix: FixKind::Format,
    blocks_rewrite: false,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::No,
    check: Check::Text(check),
};

fn check(ctx: &TextContext, out: &mut Vec<Finding>) {
    let bytes = ctx.source.text.as_bytes();
    // Without a CR, whitespace ends a line only before an LF or at the
    // end: four searches at memchr speed clear the common file.
    if memchr::memchr(b'\r', bytes).is_none()
        && !bytes.ends_with(b" ")
        && !bytes.ends_with(b"\t")
        && memchr::memmem::find(bytes, b" \n").is_none()
        && memchr::memmem::find(bytes, b"\t\n").is_none()
    {
        return;
    }
    let mut line_start = 0;
    while line_start <= bytes.len() {
        let line_end = bytes[line_start..]
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')
            .map_or(bytes.len(), |p| line_start + p);
        let line = &bytes[line_start..line_end];
        let content = line
            .iter()
            .rposition(|&b| b != b' ' && b != b'\t')
            .map_or(0, |p| p + 1);
        if content < line.len() {
            let white = &line[content..];
            out.push(
                Finding::new(
                    &RULE,
                    line_start + content..line_end,
                    format!("trailing whitespace ({})", describe(white)),
                )
                .help("`urldb fmt` removes it")
                .fix(Fix::format("remove trailing whitespace")),
            );
        }
        if line_end >= bytes.len() {
            break;
        }
        line_start = line_end + 1;
        if bytes[line_end] == b'\r' && bytes.get(line_start) == Some(&b'\n') {
            line_start += 1;
        }
    }
}

/// "2 spaces", "1 tab", "1 space and 1 tab".
fn describe(white: &[u8]) -> String {
    let tabs = white.iter().filter(|&&b| b == b'\t').count();
    let spaces = white.len() - tabs;
    let count = |n: usize, word: &str| {
        if n == 1 {
            format!("1 {word}")
        } else {
            format!("{n} {word}s")
        }
    };
    match (spaces, tabs) {
        (s, 0) => count(s, "space"),
        (0, t) => count(t, "tab"),
        (s, t) => format!("{} and {}", count(s, "space"), count(t, "tab")),
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{codes, findings, fixed};

    #[test]
    fn flags_each_line_with_trailing_whitespace() {
        let found = findings(
            "--- \n---\n_path: /a  \ncontent-type: text/html\t\r\n",
            "trailing-whitespace",
        );
        let spans: Vec<_> = found.iter().map(|f| f.span.clone()).collect();
        assert_eq!(spans, [3..4, 18..20, 44..45]);
        assert_eq!(found[1].message, "trailing whitespace (2 spaces)");
        assert_eq!(found[2].message, "trailing whitespace (1 tab)");
    }

    #[test]
    fn flags_whitespace_only_lines_and_the_end_of_the_file() {
        let found = findings(
            "---\n \t\n---\n_path: /a\ncontent-type: text/html\n  ",
            "trailing-whitespace",
        );
        let spans: Vec<_> = found.iter().map(|f| f.span.clone()).collect();
        assert_eq!(spans, [4..6, 45..47]);
        assert_eq!(found[0].message, "trailing whitespace (1 space and 1 tab)");
    }

    #[test]
    fn flags_spaces_in_a_block_scalar() {
        assert!(
            codes(
                "example.com.yaml",
                "---\n---\n_path: /a\ncontent-type: text/html\nnote: |\n  a  \n"
            )
            .contains(&"trailing-whitespace")
        );
    }

    #[test]
    fn accepts_clean_lines() {
        assert!(
            findings(
                "---\n---\n_path: /a b\ncontent-type: text/html\n",
                "trailing-whitespace"
            )
            .is_empty()
        );
        assert!(findings("", "trailing-whitespace").is_empty());
    }

    #[test]
    fn fix_removes_it() {
        assert_eq!(
            fixed(
                "example.com.yaml",
                "--- \n---\n_path: /a  \n  \ncontent-type: text/html\t\n"
            ),
            "---\n---\n_path: /a\ncontent-type: text/html\n"
        );
    }

    #[test]
    fn fix_keeps_block_scalar_content() {
        let out = fixed(
            "example.com.yaml",
            "---\n---\n_path: /a\ncontent-type: text/html\nnote: |\n  a  \n",
        );
        assert!(findings(&out, "trailing-whitespace").is_empty());
        assert!(out.contains("a  \\n"), "{out}");
    }
}
