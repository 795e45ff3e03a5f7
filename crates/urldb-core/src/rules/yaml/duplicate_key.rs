//! ## What it checks
//! The same key twice in one mapping, at any depth: in the metadata, in a
//! record, or inside an extra value.
//!
//! ## Why it matters
//! YAML forbids duplicate keys, but readers disagree on what to do: PyYAML
//! (the reference tool) silently keeps the last value, others keep the
//! first or refuse the file. A record with two `_path` lines is two URLs
//! squeezed into one, and which one survives depends on the tool. urldb
//! does not guess, and does not rewrite the file.
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! _path: /a
//! content-type: text/html
//! _path: /b
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! ---
//! _path: /a
//! content-type: text/html
//! ---
//! _path: /b
//! content-type: text/html
//! ```
//!
//! ## Fix
//! None: only a person knows which value is right (or whether the entry
//! was meant to be a record of its own).

use foldhash::HashMap;

use crate::model::resolve::Implicit;
use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "duplicate-key",
    summary: "the same key twice in one mapping",
    severity: Severity::Error,
    fix: FixKind::None,
    blocks_rewrite: true,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::Always("urldb reads the first value of the key, PyYAML the last"),
    check: Check::File {
        check,
        clean: CleanText(CLEAN),
    },
};

/// Clean text: no key written twice in a record (`rules::clean`; in
/// canonical order equal keys are neighbours, and a key written plain as
/// the renderer writes it is a string, compared by its text).
pub(crate) static CLEAN: &[Clean] = &[Clean::Record(|shape| !shape.repeated_key)];

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    // One map for every mapping: cleared, not allocated again.
    let mut first = HashMap::default();
    for entries in crate::model::node::mappings(ctx.documents) {
        check_mapping(entries, &mut first, out);
    }
}

/// What a scalar key loads as, for comparing keys: strings by their text,
/// other YAML 1.1 types by their value where spellings differ (`~` and
/// `null`, `yes` and `true`).
#[derive(Debug, PartialEq, Eq, Hash)]
enum KeyId<'a> {
    Str(&'a str),
    Null,
    Bool(bool),
    /// The YAML 1.1 type (its name) and the text.
    Other(&'static str, &'a str),
}

fn key_id(key: &Node) -> Option<KeyId<'_>> {
    let scalar = key.as_scalar()?;
    Some(match scalar.implicit() {
        Implicit::Str => KeyId::Str(&scalar.value),
        Implicit::Null => KeyId::Null,
        Implicit::Bool => match domain::parse_bool(&scalar.value) {
            Some(b) => KeyId::Bool(b),
            None => KeyId::Other(Implicit::Bool.name(), &scalar.value),
        },
        other => KeyId::Other(other.name(), &scalar.value),
    })
}

fn check_mapping<'a>(
    entries: &'a [Entry],
    first: &mut HashMap<KeyId<'a>, &'a Node>,
    out: &mut Vec<Finding>,
) {
    if entries.len() < 2 || strictly_sorted_strings(entries) {
        return;
    }
    first.clear();
    for entry in entries {
        // An alias key (`*a: x`) is reported by `yaml-alias`; its value is
        // unknown here.
        if entry.key.alias {
            continue;
        }
        let Some(id) = key_id(&entry.key) else {
            continue;
        };
        let Some(previous) = first.get(&id) else {
            first.insert(id, &entry.key);
            continue;
        };
        let text = entry.key_str().unwrap_or_default();
        let same_text = previous.as_scalar().is_some_and(|s| s.value == text);
        let message = if same_text {
            format!("duplicate key `{text}`")
        } else {
            let prev = previous.as_scalar().map_or("", |s| s.value.as_str());
            format!("duplicate key `{text}` (the same key as `{prev}`)")
        };
        out.push(
            Finding::new(&RULE, key_span(&entry.key, &entry.value), message)
                .label(key_span(previous, previous), "first defined here")
                .help(
                    "YAML readers keep one of the two values, and not all the same one; \
                     remove one, or move it to a record of its own",
                ),
        );
    }
}

/// String keys in strictly increasing order (as in every canonical
/// mapping) are all different: no map needed to know it.
fn strictly_sorted_strings(entries: &[Entry]) -> bool {
    fn text(e: &Entry) -> Option<&str> {
        e.key
            .as_scalar()
            .filter(|s| !e.key.alias && s.implicit() == Implicit::Str)
            .map(|s| s.value.as_str())
    }
    entries
        .windows(2)
        .all(|w| match (text(&w[0]), text(&w[1])) {
            (Some(a), Some(b)) => a < b,
            _ => false,
        })
}

/// An empty key (`: x`) has an empty span: show the entry instead.
fn key_span(key: &Node, value: &Node) -> Span {
    if key.span.is_empty() {
        key.span.start..value.span.end.max(key.span.start)
    } else {
        key.span.clone()
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{check, codes, findings, record};

    #[test]
    fn flags_a_duplicate_record_key() {
        let text = "---\n---\n_path: /a\ncontent-type: text/html\n_path: /b\n";
        let found = findings(text, "duplicate-key");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].message, "duplicate key `_path`");
        assert_eq!(&text[found[0].span.clone()], "_path");
        assert_eq!(found[0].span.start, 42);
        assert_eq!(found[0].labels[0].0, 8..13);
        assert_eq!(found[0].labels[0].1, "first defined here");
    }

    #[test]
    fn flags_duplicates_at_any_depth() {
        assert_eq!(
            findings("---\nhttps: true\nhttps: false\n", "duplicate-key").len(),
            1
        );
        let nested = "---\n---\n_path: /a\ncontent-type: text/html\nextra:\n- {a: 1, b: 2, a: 3}\n";
        assert_eq!(findings(nested, "duplicate-key").len(), 1);
        let deep = "---\n---\n_path: /a\ncontent-type: text/html\nx:\n  y:\n    z: 1\n    z: 2\n";
        assert_eq!(findings(deep, "duplicate-key").len(), 1);
    }

    #[test]
    fn flags_every_repetition_against_the_first() {
        let found = findings(
            "---\n---\n_path: /a\n_path: /b\n_path: /c\ncontent-type: text/html\n",
            "duplicate-key",
        );
        assert_eq!(found.len(), 2);
        assert!(found.iter().all(|f| f.labels[0].0 == (8..13)));
    }

    #[test]
    fn quoted_and_plain_spellings_are_the_same_key() {
        assert_eq!(
            findings(
                "---\n---\n_path: /a\n'_path': /b\ncontent-type: text/html\n",
                "duplicate-key"
            )
            .len(),
            1
        );
    }

    #[test]
    fn accepts_the_same_key_in_different_mappings() {
        let text = "---\n---\n_path: /a\ncontent-type: text/html\n---\n_path: /b\ncontent-type: text/html\n";
        assert!(!codes("example.com.yaml", text).contains(&"duplicate-key"));
        assert!(
            findings(
                "---\n---\n_path: /a\ncontent-type: text/html\nx: {a: {a: 1}}\n",
                "duplicate-key"
            )
            .is_empty()
        );
    }

    #[test]
    fn blocks_rewriting() {
        let checked = check(b"---\n---\ncontent-type: text/html\n_path: /a\n_path: /b\n");
        assert!(
            checked
                .blocked_by
                .is_some_and(|r| r.code == "duplicate-key")
        );
    }

    #[test]
    fn alias_keys_are_left_to_yaml_alias() {
        // Two `*a` keys: their values are unknown (never expanded), so they
        // are not called duplicates; yaml-alias reports them.
        let text = record("_path: /a\ncontent-type: text/html\nx: &a k\n*a : 1\n*a : 2\n");
        let found = codes("example.com.yaml", &text);
        assert!(!found.contains(&"duplicate-key"), "{found:?}");
        assert!(found.contains(&"yaml-alias"), "{found:?}");
    }
}
