//! ## What it checks
//! The first document of a domain file (the metadata) when it is neither
//! a mapping nor empty: a list, a string, a number.
//!
//! ## Why it matters
//! The first document holds the domain's metadata (`cnames`, `https`,
//! `case-sensitive-paths`) as a mapping, or nothing at all (`---`, `--- {}`,
//! `null`). Anything else cannot be read as metadata, and often means the
//! file lost its first `---` line or a record was pasted in the wrong
//! place. urldb does not rewrite such a file.
//!
//! ## Example
//! ```yaml
//! ---
//! - www.example.com
//! ---
//! _path: /a
//! content-type: text/html
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! cnames:
//! - www.example.com
//! ---
//! _path: /a
//! content-type: text/html
//! ```
//!
//! ## Fix
//! None: only a person knows what the document was meant to say.

use crate::model::domain::is_empty_metadata;
use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "metadata-not-mapping",
    summary: "metadata document is not a mapping",
    severity: Severity::Error,
    fix: FixKind::None,
    blocks_rewrite: true,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::Always("no command reads the metadata (`https`, `cnames`)"),
    check: Check::File {
        check,
        clean: CleanText(CLEAN),
    },
};

/// Clean text: it reads the metadata document alone (`rules::clean`).
pub(crate) static CLEAN: &[Clean] = &[Clean::Metadata];

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    let Some(root) = ctx.documents.first().and_then(|d| d.root.as_ref()) else {
        return;
    };
    if root.as_map().is_some() || is_empty_metadata(root) {
        return;
    }
    let what = match &root.value {
        Value::Seq(_) => "a sequence".to_string(),
        Value::Scalar(s) => format!("the scalar `{}`", s.value),
        Value::Map(_) => return,
    };
    out.push(
        Finding::new(
            &RULE,
            root.span.clone(),
            format!("the metadata document is {what}, not a mapping"),
        )
        .help(
            "the first document holds the domain's metadata as `key: value` lines, or nothing \
             (a bare `---`); if this is a record, put a `---` line before it",
        ),
    );
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{check, codes, findings};

    #[test]
    fn flags_a_sequence() {
        let text = "---\n- www.example.com\n---\n_path: /a\ncontent-type: text/html\n";
        let found = findings(text, "metadata-not-mapping");
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].message,
            "the metadata document is a sequence, not a mapping"
        );
        assert_eq!(found[0].span.start, 4);
    }

    #[test]
    fn flags_a_scalar() {
        let found = findings("--- example.com\n", "metadata-not-mapping");
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].message,
            "the metadata document is the scalar `example.com`, not a mapping"
        );
        assert_eq!(findings("--- ''\n", "metadata-not-mapping").len(), 1);
    }

    #[test]
    fn accepts_empty_metadata() {
        for text in [
            "---\n",
            "--- {}\n",
            "--- null\n",
            "--- ~\n",
            "---\nhttps: true\n",
        ] {
            assert!(
                !codes("example.com.yaml", text).contains(&"metadata-not-mapping"),
                "{text}"
            );
        }
    }

    #[test]
    fn blocks_rewriting() {
        let checked = check(b"--- [a]\n");
        assert!(
            checked
                .blocked_by
                .is_some_and(|r| r.code == "metadata-not-mapping")
        );
    }
}
