//! ## What it checks
//! A non-empty file whose last line has no line break.
//!
//! ## Why it matters
//! POSIX tools see a last line without a line break as incomplete:
//! `cat a.yaml b.yaml` glues two documents together, `wc -l` miscounts,
//! and git marks the line "\ No newline at end of file", so the next record
//! appended shows up as a change to the previous one.
//!
//! ## Example
//! (`␊` marks the line breaks.)
//! ```yaml
//! ---␊
//! ---␊
//! _path: /a␊
//! content-type: text/html
//! ```
//!
//! Use instead:
//! ```yaml
//! ---␊
//! ---␊
//! _path: /a␊
//! content-type: text/html␊
//! ```
//!
//! ## Fix
//! Safe, by `urldb fmt`: the canonical text ends with a line break.

use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "missing-final-newline",
    summary: "file does not end with a line break",
    severity: Severity::Error,
    fix: FixKind::Format,
    blocks_rewrite: false,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::No,
    check: Check::Text(check),
};

fn check(ctx: &TextContext, out: &mut Vec<Finding>) {
    let text = &ctx.source.text;
    if text.is_empty() || text.ends_with(['\n', '\r']) {
        return;
    }
    let end = text.len();
    out.push(
        Finding::new(&RULE, end..end, "no line break at the end of the file")
            .help("end the last line with a line break; `urldb fmt` adds it")
            .fix(Fix::format("add a line break at the end")),
    );
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{check, codes, fixed};

    #[test]
    fn flags_a_missing_final_newline() {
        let text = "---\n---\n_path: /a\ncontent-type: text/html";
        assert_eq!(codes("example.com.yaml", text), ["missing-final-newline"]);
        let checked = check(text);
        assert_eq!(checked.findings[0].span, text.len()..text.len());
    }

    #[test]
    fn accepts_a_final_line_break() {
        assert!(
            !codes(
                "example.com.yaml",
                "---\n---\n_path: /a\ncontent-type: text/html\n"
            )
            .contains(&"missing-final-newline")
        );
        assert!(
            !codes("example.com.yaml", "---\r\nhttps: true\r\n").contains(&"missing-final-newline")
        );
    }

    #[test]
    fn accepts_an_empty_file() {
        assert!(!codes("example.com.yaml", "").contains(&"missing-final-newline"));
    }

    #[test]
    fn fix_adds_the_line_break() {
        assert_eq!(
            fixed(
                "example.com.yaml",
                "---\n---\n_path: /a\ncontent-type: text/html"
            ),
            "---\n---\n_path: /a\ncontent-type: text/html\n"
        );
        assert_eq!(
            fixed("example.com.yaml", "---\r\nhttps: true"),
            "---\r\nhttps: true\r\n"
        );
    }
}
