//! ## What it checks
//! A record key that is not one of `_path`, `categories`, `content-length`,
//! `content-sha256`, `content-type` but looks like a misspelling of one:
//! another case or `_` for `-` (`Content-Type`, `content_type`), a missing
//! or extra leading underscore (`path`, `_categories`), a small typo
//! (`content-lenght`, `_paths`, `categorys`), or a common other name
//! (`category`, `sha256`, `length`, `mime-type`).
//!
//! Other unknown keys are extras, which the format allows and urldb keeps:
//! they are never reported. A key is a near miss when its normal form
//! (lowercase, `_` as `-`, no leading underscore) equals a known key's, or
//! is the closest one within two edits (one for `_path`).
//!
//! ## Why it matters
//! A misspelt key is kept as an extra, so the field it was meant to be is
//! silently missing: `content_type` leaves the record without a content
//! type to verify, `category` puts the URL in no category.
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! _path: /
//! category:
//! - frontend
//! content_type: text/html
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! ---
//! _path: /
//! categories:
//! - frontend
//! content-type: text/html
//! ```
//!
//! ## Fix
//! None: the key may be a deliberate extra, and the right key may already
//! be present; rename it by hand (or silence the rule for deliberate
//! extras with `ignore`).

use crate::model::resolve::Implicit;
use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "suspicious-key",
    summary: "record key that looks like a misspelt known key",
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

/// Clean text: an extra key that is no near miss of a record key
/// (`rules::clean`).
pub(crate) static CLEAN: &[Clean] = &[Clean::ExtraKey(|key| {
    Implicit::of(key) != Implicit::Str || near_miss(key).is_none()
})];

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    for record in records(ctx.documents) {
        for entry in record.entries {
            // Keys that are not strings are `non-string-key`'s business.
            let Some(key) = entry.key.as_scalar() else {
                continue;
            };
            if key.implicit() != Implicit::Str {
                continue;
            }
            let key = key.value.as_str();
            if domain::RECORD_KEYS.contains(&key) {
                continue;
            }
            let Some(known) = near_miss(key) else {
                continue;
            };
            out.push(
                Finding::new(
                    &RULE,
                    entry.key.span.clone(),
                    format!("key `{key}` looks like a misspelling of `{known}`"),
                )
                .help(format!(
                    "rename it to `{known}`; an extra field on purpose should have a name of its own"
                )),
            );
        }
    }
}

/// Other names people give the known keys (in normal form).
const ALIASES: [(&str, &str); 8] = [
    ("category", domain::CATEGORIES),
    ("sha256", domain::CONTENT_SHA256),
    ("sha-256", domain::CONTENT_SHA256),
    ("length", domain::CONTENT_LENGTH),
    ("mime-type", domain::CONTENT_TYPE),
    ("mimetype", domain::CONTENT_TYPE),
    ("media-type", domain::CONTENT_TYPE),
    ("content-sha", domain::CONTENT_SHA256),
];

/// Lowercase, `_` and spaces as `-`, no leading `-` (so `_path`, `path`
/// and `__path` compare equal).
fn normal(key: &str) -> String {
    let lower = key.trim().to_lowercase().replace(['_', ' '], "-");
    lower.trim_start_matches('-').to_string()
}

/// The known record key that `key` (not itself a known key) is a near
/// miss of.
pub(crate) fn near_miss(key: &str) -> Option<&'static str> {
    let key = normal(key);
    if key.is_empty() {
        return None;
    }
    let known: Vec<(String, &'static str)> = domain::RECORD_KEYS
        .iter()
        .map(|k| (normal(k), *k))
        .collect();
    if let Some((_, k)) = known.iter().find(|(n, _)| *n == key) {
        return Some(k);
    }
    if let Some((_, k)) = ALIASES.iter().find(|(alias, _)| *alias == key) {
        return Some(k);
    }
    let best = crate::suggest::closest(&key, known.iter().map(|(n, _)| n.as_str()))?;
    // Jaro-Winkler rewards a shared prefix, so `content-encoding` is
    // "close" to `content-length`: a near miss must also be a few edits
    // away. Short keys get one edit, and their first letter must match
    // (`pth` is `_path`; `bath` is not).
    let short = best.len() <= 5;
    let edits = strsim::osa_distance(&key, best);
    let near = if short {
        edits <= 1 && key.chars().next() == best.chars().next()
    } else {
        edits <= 2
    };
    if !near {
        return None;
    }
    known.iter().find(|(n, _)| n == best).map(|(_, k)| *k)
}

#[cfg(test)]
mod tests {
    use super::near_miss;
    use crate::rules::test_support::codes;

    #[test]
    fn flags_near_misses() {
        let text = "---\n---\n_path: /\ncontent-type: text/html\ncontent_type: text/html\n";
        assert!(codes("example.com.yaml", text).contains(&"suspicious-key"));
    }

    #[test]
    fn near_misses() {
        for (key, known) in [
            ("content_type", "content-type"),
            ("Content-Type", "content-type"),
            ("contenttype", "content-type"),
            ("content-types", "content-type"),
            ("mime-type", "content-type"),
            ("category", "categories"),
            ("categorys", "categories"),
            ("catagories", "categories"),
            ("_categories", "categories"),
            ("_paths", "_path"),
            ("path", "_path"),
            ("_Path", "_path"),
            ("pth", "_path"),
            ("content-lenght", "content-length"),
            ("length", "content-length"),
            ("sha256", "content-sha256"),
            ("content_sha256", "content-sha256"),
            ("content-sha-256", "content-sha256"),
            ("content-sha", "content-sha256"),
        ] {
            assert_eq!(near_miss(key), Some(known), "{key}");
        }
    }

    #[test]
    fn extras_are_not_flagged() {
        for key in [
            "name",
            "date",
            "description",
            "rating",
            "language",
            "id",
            "notes",
            "owner",
            "title",
            "status",
            "redirect",
            "comment",
            "etag",
            "hash",
            "bath",
            "type",
            "content",
            "content-encoding",
            "content-language",
            "content-location",
            "content-disposition",
            "content-md5",
            "categories-old",
        ] {
            assert_eq!(near_miss(key), None, "{key}");
        }
        let text = "---\n---\n_path: /\ncontent-type: text/html\nname: Home\nowner: web\n";
        assert!(!codes("example.com.yaml", text).contains(&"suspicious-key"));
    }

    #[test]
    fn metadata_keys_are_not_records() {
        let text = "---\ncontent_type: x\n---\n_path: /\ncontent-type: text/html\n";
        assert!(!codes("example.com.yaml", text).contains(&"suspicious-key"));
    }
}
