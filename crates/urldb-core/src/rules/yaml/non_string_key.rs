//! ## What it checks
//! A mapping key that is not a string, at any depth: a sequence or mapping
//! used as a key (`? [a, b]`), or a plain key that YAML 1.1 reads as
//! something else: a number (`1:`, `0x1F:`), a boolean (`yes:`, `true:`),
//! null (`null:`, `~:`, an empty key), a timestamp (`2001-12-14:`), or the
//! merge key `<<:`.
//!
//! ## Why it matters
//! Keys of a domain file are names. The reference tool read files with
//! PyYAML, which turns `yes:` into the boolean `True` and `<<:` into a merge
//! of another mapping, so such a key means something else to it than it
//! seems to; JSON and most languages' maps cannot hold a non-string key at
//! all. urldb refuses to guess and does not rewrite the file.
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! _path: /a
//! content-type: text/html
//! status:
//!   200: ok
//!   yes: cached
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! ---
//! _path: /a
//! content-type: text/html
//! status:
//!   '200': ok
//!   'yes': cached
//! ```
//!
//! ## Fix
//! None: quoting the key keeps its text but changes what the reference
//! tool read, so a person decides.

use crate::model::resolve::Implicit;
use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "non-string-key",
    summary: "mapping key that YAML does not read as a string",
    severity: Severity::Error,
    fix: FixKind::None,
    blocks_rewrite: true,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::Always("PyYAML reads the key as another type, or refuses the file"),
    check: Check::File {
        check,
        clean: CleanText(CLEAN),
    },
};

/// Clean text: the record keys are strings, and an extra key, written plain,
/// is one when YAML reads it as one (`rules::clean`).
pub(crate) static CLEAN: &[Clean] = &[Clean::ExtraKey(|key| {
    crate::model::resolve::Implicit::of(key) == Implicit::Str
})];

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    for entries in crate::model::node::mappings(ctx.documents) {
        for entry in entries {
            check_key(entry, out);
        }
    }
}

fn check_key(entry: &Entry, out: &mut Vec<Finding>) {
    let key = &entry.key;
    let (message, help) = match &key.value {
        Value::Seq(_) => (
            "a sequence used as a mapping key".to_string(),
            "keys of a domain file are strings; write the key as a string".to_string(),
        ),
        Value::Map(_) => (
            "a mapping used as a mapping key".to_string(),
            "keys of a domain file are strings; write the key as a string".to_string(),
        ),
        Value::Scalar(scalar) => {
            let kind = scalar.implicit();
            if kind == Implicit::Str {
                return;
            }
            // An alias (`*a: x`) is read as an empty plain scalar; `yaml-alias`
            // reports it.
            if key.alias {
                return;
            }
            if scalar.value.is_empty() {
                (
                    "empty mapping key: YAML reads it as null".to_string(),
                    "write the key's name, or remove the entry".to_string(),
                )
            } else {
                (
                    format!("`{}` is read as {} by YAML 1.1", scalar.value, what(kind)),
                    format!(
                        "quote it to make it a string: `'{}':`",
                        scalar.value.replace('\'', "''")
                    ),
                )
            }
        }
    };
    let span = if key.span.is_empty() {
        key.span.start..entry.value.span.end.max(key.span.start)
    } else {
        key.span.clone()
    };
    out.push(Finding::new(&RULE, span, message).help(help));
}

/// "a boolean", "an integer", "null", "the merge key".
fn what(kind: Implicit) -> &'static str {
    match kind {
        Implicit::Str => "a string",
        Implicit::Bool => "a boolean",
        Implicit::Float => "a float",
        Implicit::Int => "an integer",
        Implicit::Merge => "the merge key",
        Implicit::Null => "null",
        Implicit::Timestamp => "a timestamp",
        Implicit::Value => "the value key",
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{codes, findings, with_path};

    /// A record at `/a` followed by the lines `extra`.
    fn with_extra(extra: &str) -> String {
        with_path("/a") + extra
    }

    #[test]
    fn flags_keys_yaml_reads_as_other_types() {
        for (key, message) in [
            ("yes", "`yes` is read as a boolean by YAML 1.1"),
            ("true", "`true` is read as a boolean by YAML 1.1"),
            ("1", "`1` is read as an integer by YAML 1.1"),
            ("1.5", "`1.5` is read as a float by YAML 1.1"),
            ("null", "`null` is read as null by YAML 1.1"),
            ("~", "`~` is read as null by YAML 1.1"),
            (
                "2001-12-14",
                "`2001-12-14` is read as a timestamp by YAML 1.1",
            ),
            ("<<", "`<<` is read as the merge key by YAML 1.1"),
        ] {
            let text = with_extra(&format!("{key}: x\n"));
            let found = findings(&text, "non-string-key");
            assert_eq!(found.len(), 1, "{key}");
            assert_eq!(found[0].message, message);
            assert_eq!(&text[found[0].span.clone()], key);
        }
        assert_eq!(
            findings(with_extra("yes: x\n"), "non-string-key")[0]
                .help
                .as_deref(),
            Some("quote it to make it a string: `'yes':`")
        );
    }

    #[test]
    fn flags_an_empty_key() {
        let found = findings(with_extra(": x\n"), "non-string-key");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].message, "empty mapping key: YAML reads it as null");
    }

    #[test]
    fn flags_collection_keys() {
        assert_eq!(
            findings(with_extra("? [a, b]\n: x\n"), "non-string-key")[0].message,
            "a sequence used as a mapping key"
        );
        assert_eq!(
            findings(with_extra("? {a: b}\n: x\n"), "non-string-key")[0].message,
            "a mapping used as a mapping key"
        );
    }

    #[test]
    fn flags_keys_at_any_depth_and_in_metadata() {
        assert_eq!(
            findings(with_extra("x:\n- {1: a}\n"), "non-string-key").len(),
            1
        );
        assert_eq!(findings("---\non: true\n", "non-string-key").len(), 1);
    }

    #[test]
    fn accepts_string_keys() {
        assert!(
            findings(
                with_extra("'yes': x\n\"1\": y\nnote: z\nyesterday: w\n"),
                "non-string-key"
            )
            .is_empty()
        );
        assert!(!codes("example.com.yaml", &with_extra("")).contains(&"non-string-key"));
    }

    #[test]
    fn leaves_alias_keys_to_yaml_alias() {
        assert!(findings(with_extra("x: &a k\n*a : v\n"), "non-string-key").is_empty());
    }
}
