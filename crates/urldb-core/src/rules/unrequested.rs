//! The `_path` findings that make a record's URL another one than the
//! record names: another host or port once joined as text, a path that
//! clients rewrite (`/a\b` is `/a/b` to them, `/a/../b` is `/b`), a
//! fragment that is never sent. `verify` requests no record with one (it
//! reports it as not checked, and it counts as broken), and `ls` and
//! `export` list none (they leave it out with a warning, `docs/urls.md`):
//! so no command prints a URL that `verify` would not request. These are
//! the rules' own checks, run on the file as `check` runs them.

//! Each rule states whether it blocks a request ([`Rule::blocks_request`]);
//! [`blocking`] reads them from the catalogue.

use std::path::Path;

use crate::model::node::Document;
use crate::rules::diagnostic::Finding;
use crate::rules::{ALL, Check, FileContext, Rule, settings::LintSettings};
use crate::source::Source;

/// The rules whose findings keep a record's URL from being requested, by
/// their rank ([`Rule::blocks_request`]), read from the catalogue once.
pub fn blocking() -> &'static [&'static Rule] {
    static BLOCKING: std::sync::LazyLock<Vec<&'static Rule>> = std::sync::LazyLock::new(|| {
        let mut rules: Vec<&'static Rule> = ALL
            .iter()
            .copied()
            .filter(|r| r.blocks_request.is_some())
            .collect();
        rules.sort_by_key(|r| r.blocks_request);
        rules
    });
    &BLOCKING
}

/// The findings of the [`blocking`] rules in the file `file` (its `text`,
/// parsed as `documents`, named after `domain`), by the rules' rank.
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
    for rule in blocking() {
        if let Check::File { check, .. } = rule.check {
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
    use super::blocking;

    /// Each blocking rule reads the model of a file (the only findings
    /// `blocking_findings` runs), and no two share a rank: the reason a
    /// record is left out is one rule's.
    #[test]
    fn blocking_rules_read_the_model_and_have_ranks_of_their_own() {
        let rules = blocking();
        assert_eq!(rules.len(), 6, "{rules:?}");
        for rule in rules {
            assert!(
                matches!(rule.check, crate::rules::Check::File { .. }),
                "{}",
                rule.code
            );
        }
        let mut ranks: Vec<_> = rules.iter().map(|r| r.blocks_request).collect();
        ranks.dedup();
        assert_eq!(ranks.len(), rules.len(), "{rules:?}");
    }
}
