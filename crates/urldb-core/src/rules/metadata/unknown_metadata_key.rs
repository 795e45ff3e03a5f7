//! ## What it checks
//! A key in the metadata document (the first document) other than
//! `case-sensitive-paths`, `cnames` and `https`. Near misses get a "did you
//! mean": `cname`, `case_sensitive_paths`, `HTTPS`, `http`, `aliases`.
//!
//! ## Why it matters
//! Nothing reads an unknown metadata key, so a misspelt one silently does
//! nothing: `case_sensitive_paths: false` leaves the domain case-sensitive,
//! `cname:` declares no alias. The key is kept (it may be a deliberate
//! note), hence a warning rather than an error.
//!
//! ## Example
//! ```yaml
//! ---
//! cname:
//! - www.example.com
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! cnames:
//! - www.example.com
//! ```
//!
//! ## Fix
//! None: renaming the key changes what the file means (that is the point,
//! but a person should confirm it), and the right name may already be
//! present.

use crate::model::resolve::Implicit;
use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "unknown-metadata-key",
    summary: "metadata key that urldb does not know",
    severity: Severity::Warning,
    fix: FixKind::None,
    blocks_rewrite: false,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::No,
    check: Check::File {
        check,
        clean: CleanText(CLEAN),
    },
};

/// Clean text: it reads the metadata document alone (`rules::clean`).
pub(crate) static CLEAN: &[Clean] = &[Clean::Metadata];

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    for entry in domain::metadata(ctx.documents) {
        // Keys that are not strings are `non-string-key`'s business.
        let Some(key) = entry.key.as_scalar() else {
            continue;
        };
        if key.implicit() != Implicit::Str {
            continue;
        }
        let key = key.value.as_str();
        if domain::METADATA_KEYS.contains(&key) {
            continue;
        }
        let message = match suggestion(key) {
            Some(known) => format!("unknown metadata key `{key}` (did you mean `{known}`?)"),
            None => format!("unknown metadata key `{key}`"),
        };
        let help = if domain::RECORD_KEYS.contains(&key) {
            "this is a record key: the first document of a file is the metadata, so a file \
             without metadata starts with a bare `---` line before its first record"
        } else {
            "the metadata keys are `case-sensitive-paths`, `cnames` and `https`; other keys \
             are kept but nothing reads them"
        };
        out.push(Finding::new(&RULE, entry.key.span.clone(), message).help(help));
    }
}

/// Other names people give the known keys.
const ALIASES: [(&str, &str); 3] = [
    ("alias", domain::CNAMES),
    ("aliases", domain::CNAMES),
    ("ssl", domain::HTTPS),
];

/// The known key `key` is probably a misspelling of.
fn suggestion(key: &str) -> Option<&'static str> {
    let normal = key.trim().to_lowercase().replace(['_', ' '], "-");
    if let Some(&known) = domain::METADATA_KEYS.iter().find(|k| **k == normal) {
        return Some(known);
    }
    if let Some(&(_, known)) = ALIASES.iter().find(|(alias, _)| *alias == normal) {
        return Some(known);
    }
    let known = crate::suggest::closest(&normal, domain::METADATA_KEYS)?;
    // Jaro-Winkler likes common prefixes (`https-only` ~ `https`): ask for
    // a small edit distance too.
    (strsim::osa_distance(&normal, known) <= 2).then_some(known)
}

#[cfg(test)]
mod tests {
    use super::suggestion;
    use crate::rules::test_support::{codes, findings, with_metadata};

    fn message(meta: &str) -> Option<String> {
        findings(with_metadata(meta), "unknown-metadata-key")
            .first()
            .map(|f| f.message.clone())
    }

    #[test]
    fn flags_unknown_keys() {
        assert!(
            codes("example.com.yaml", &with_metadata("owner: web-team\n"))
                .contains(&"unknown-metadata-key")
        );
    }

    #[test]
    fn did_you_mean() {
        assert_eq!(
            message("cname:\n- www.example.com\n").as_deref(),
            Some("unknown metadata key `cname` (did you mean `cnames`?)")
        );
        assert_eq!(
            suggestion("case_sensitive_paths"),
            Some("case-sensitive-paths")
        );
        assert_eq!(
            suggestion("Case-Sensitive-Path"),
            Some("case-sensitive-paths")
        );
        assert_eq!(suggestion("HTTPS"), Some("https"));
        assert_eq!(suggestion("http"), Some("https"));
        assert_eq!(suggestion("aliases"), Some("cnames"));
        assert_eq!(suggestion("https-only"), None);
        assert_eq!(suggestion("owner"), None);
    }

    #[test]
    fn accepts_known_keys() {
        let text =
            with_metadata("case-sensitive-paths: false\ncnames:\n- www.example.com\nhttps: true\n");
        assert!(!codes("example.com.yaml", &text).contains(&"unknown-metadata-key"));
    }

    #[test]
    fn record_keys_in_metadata_get_a_hint() {
        let found = findings(
            b"---\n_path: /\ncontent-type: text/html\n",
            "unknown-metadata-key",
        );
        let helps: Vec<&str> = found.iter().filter_map(|f| f.help.as_deref()).collect();
        assert_eq!(helps.len(), 2);
        assert!(helps.iter().all(|h| h.contains("bare `---`")));
    }

    #[test]
    fn ignores_record_keys() {
        let text = "---\n---\n_path: /\ncontent-type: text/html\nowner: me\n";
        assert!(!codes("example.com.yaml", text).contains(&"unknown-metadata-key"));
    }
}
