//! The `_path` findings that make a record's URL another one than the
//! record names: another host or port once joined as text, a path that
//! clients rewrite (`/a\b` is `/a/b` to them, `/a/../b` is `/b`), a
//! fragment that is never sent. `verify` requests no record with one (it
//! reports it as not checked, and it counts as broken), and `ls` and
//! `export` list none (they leave it out with a warning, `docs/urls.md`):
//! so no command prints a URL that `verify` would not request. These are
//! the rules' own checks, run on the file as `check` runs them.

use std::path::Path;

use crate::model::node::Document;
use crate::rules::diagnostic::Finding;
use crate::rules::{Check, FileContext, by_code, settings::LintSettings};
use crate::source::Source;

/// The rules whose findings keep a record's URL from being requested.
pub static BLOCKING: [&str; 6] = [
    "path-not-absolute",
    "path-network-reference",
    "path-bad-escape",
    "path-invalid-char",
    "path-fragment",
    "path-dot-segment",
];

/// The findings of the [`BLOCKING`] rules in the file `file` (its `text`,
/// parsed as `documents`, named after `domain`), in rule order.
pub fn blocking_findings(
    file: &Path,
    text: &str,
    documents: &[Document],
    domain: &str,
) -> Vec<Finding> {
    let source = Source::new(file, text.to_string());
    let settings = LintSettings::default();
    let ctx = FileContext {
        source: &source,
        documents,
        domain,
        settings: &settings,
    };
    let mut out = Vec::new();
    for rule in BLOCKING.iter().filter_map(|code| by_code(code)) {
        if let Check::File(check) = rule.check {
            check(&ctx, &mut out);
        }
    }
    out
}

/// The finding of `blocking` (the file's [`blocking_findings`]) that
/// falls in the value of a record's `_path` (`value`, its span), if any.
pub fn blocking_in<'a>(
    blocking: &'a [Finding],
    value: &std::ops::Range<usize>,
) -> Option<&'a Finding> {
    blocking
        .iter()
        .find(|f| value.start <= f.span.start && f.span.start <= value.end)
}

#[cfg(test)]
mod tests {
    use super::BLOCKING;

    /// Each blocking code names a rule that reads the model of a file: a
    /// renamed rule cannot drop out of the list unnoticed.
    #[test]
    fn blocking_codes_name_file_rules() {
        for code in BLOCKING {
            let rule =
                crate::rules::by_code(code).unwrap_or_else(|| panic!("{code}: no such rule"));
            assert!(matches!(rule.check, crate::rules::Check::File(_)), "{code}");
        }
    }
}
