//! ## What it checks
//! A domain file with no YAML document at all: an empty file, or one that
//! holds only blank lines or comments.
//!
//! ## Why it matters
//! Every domain file starts with its metadata document, even when the
//! domain has no metadata (a bare `---` line). An empty file is usually a
//! mistake: a truncated write, a failed merge, or a file created and never
//! filled. It names a domain but says nothing about it, and PyYAML loads
//! it as no documents at all, which the reference tool could not read.
//!
//! ## Example
//! ```yaml
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! ```
//!
//! A file with metadata and no records is valid.
//!
//! ## Fix
//! None: the file may have lost its content; restore it (`git diff`), add a
//! `---` line, or delete the file.

use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "empty-file",
    summary: "file holds no YAML document",
    severity: Severity::Error,
    fix: FixKind::None,
    blocks_rewrite: true,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::No,
    check: Check::File {
        check,
        clean: CleanText(CLEAN),
    },
};

/// Clean text: it speaks only of a file without a document, and the proof
/// takes records after a metadata document (`rules::clean`).
pub(crate) static CLEAN: &[Clean] = &[Clean::Metadata];

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    if !ctx.documents.is_empty() {
        return;
    }
    let message = if ctx.source.text.is_empty() {
        "the file is empty"
    } else {
        "the file holds no YAML document"
    };
    out.push(Finding::new(&RULE, 0..0, message).help(
        "a domain file starts with its metadata document: write at least a `---` line, \
             or delete the file",
    ));
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{check, codes};

    #[test]
    fn flags_an_empty_file() {
        assert_eq!(codes("example.com.yaml", ""), ["empty-file"]);
    }

    #[test]
    fn flags_blank_lines_and_comments_only() {
        assert!(codes("example.com.yaml", "\n\n").contains(&"empty-file"));
        assert!(codes("example.com.yaml", "# nothing yet\n").contains(&"empty-file"));
    }

    #[test]
    fn accepts_metadata_without_records() {
        assert!(codes("example.com.yaml", "---\n").is_empty());
        assert!(codes("example.com.yaml", "--- {}\n").is_empty());
        assert!(codes("example.com.yaml", "---\nhttps: true\n").is_empty());
    }

    #[test]
    fn blocks_rewriting() {
        let checked = check(b"\n");
        assert!(checked.blocked_by.is_some_and(|r| r.code == "empty-file"));
        assert!(checked.canonical.is_none());
    }
}
