//! ## What it checks
//! A `content-type` whose type or subtype has uppercase letters
//! (`Text/HTML`, `application/JSON; charset=utf-8`). Parameters are not
//! looked at (`charset=UTF-8` is fine), and neither is the redirect marker
//! `X-301-Redirect`, which the reference tool wrote that way.
//!
//! ## Why it matters
//! Media types are case-insensitive, and servers send them in lowercase:
//! `Text/HTML` and `text/html` are the same type spelt two ways, which
//! makes `ls`, `grep` and reviews miss one of them. One spelling keeps the
//! database searchable.
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! _path: /
//! content-type: Text/HTML; charset=UTF-8
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! ---
//! _path: /
//! content-type: text/html; charset=UTF-8
//! ```
//!
//! ## Fix
//! Safe, by `urldb check --fix`: the type and subtype are lowercased (the
//! same media type); parameters keep their case, since a parameter value
//! may be case-sensitive.

use crate::model::media_type;
use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "content-type-case",
    summary: "`content-type` type or subtype has uppercase letters",
    severity: Severity::Error,
    fix: FixKind::Safe,
    blocks_rewrite: false,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::No,
    check: Check::File {
        check,
        clean: CleanText(CLEAN),
    },
};

/// Clean text: a `content-type` whose type and subtype are lowercase
/// (`rules::clean`); one with no uppercase letter at all is not asked.
pub(crate) static CLEAN: &[Clean] = &[Clean::Value {
    key: domain::CONTENT_TYPE,
    looks_at: LooksAt::Bytes(|b| b.is_ascii_uppercase()),
    clean: |content_type, _| lowercase_media_type(content_type.value).is_none(),
}];

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    // A file repeats a handful of media types: one found lowercase is not
    // looked at again for the next record.
    let mut last_fine: Option<&str> = None;
    for record in records(ctx.documents) {
        let Some(entry) = record.get(domain::CONTENT_TYPE) else {
            continue;
        };
        let Some(value) = entry.value.as_scalar().map(|s| s.value.as_str()) else {
            continue;
        };
        if last_fine == Some(value) {
            continue;
        }
        let Some((fixed, range)) = lowercase_media_type(value) else {
            last_fine = Some(value);
            continue;
        };
        let Some(at) = entry_path(record.doc, record.entries, domain::CONTENT_TYPE) else {
            continue;
        };
        let media = &value[range.clone()];
        let lower = media.to_ascii_lowercase();
        out.push(
            Finding::new(
                &RULE,
                sub_span(ctx.source, &entry.value, range),
                format!("media type `{media}` has uppercase letters"),
            )
            .help(format!(
                "write `{lower}`: media types are case-insensitive and written in lowercase"
            ))
            .fix(Fix::safe(
                format!("write `{lower}`"),
                vec![Edit::SetScalar {
                    at,
                    value: Scalar::string(fixed),
                }],
            )),
        );
    }
}

/// The content type with its type and subtype lowercased, and the byte
/// range of `type/subtype` in it, when they are valid tokens with uppercase
/// letters. Anything malformed is `invalid-content-type`'s business.
pub(crate) fn lowercase_media_type(value: &str) -> Option<(String, std::ops::Range<usize>)> {
    let range = media_type::essence_range(value)?;
    let essence = &value[range.clone()];
    if !essence.bytes().any(|b| b.is_ascii_uppercase()) {
        return None;
    }
    let mut fixed = value.to_string();
    fixed.replace_range(range.clone(), &essence.to_ascii_lowercase());
    Some((fixed, range))
}

#[cfg(test)]
mod tests {
    use super::lowercase_media_type;
    use crate::rules::test_support::{codes, fixed, record};

    fn with_content_type(content_type: &str) -> String {
        record(&format!("_path: /\ncontent-type: {content_type}\n"))
    }

    #[test]
    fn flags_uppercase_type() {
        for t in [
            "Text/HTML",
            "text/HTML",
            "TEXT/html; charset=utf-8",
            "application/JSON",
        ] {
            assert!(
                codes("example.com.yaml", &with_content_type(t)).contains(&"content-type-case"),
                "{t}"
            );
        }
    }

    #[test]
    fn accepts_lowercase_types_parameters_and_markers() {
        for t in [
            "text/html",
            "text/html; charset=UTF-8",
            "X-301-Redirect",
            "X-302-Redirect",
        ] {
            assert!(
                !codes("example.com.yaml", &with_content_type(t)).contains(&"content-type-case"),
                "{t}"
            );
        }
    }

    #[test]
    fn leaves_malformed_types_alone() {
        assert_eq!(lowercase_media_type("Text HTML"), None);
        assert_eq!(lowercase_media_type("Text/"), None);
        assert_eq!(lowercase_media_type("Text/HT ML"), None);
    }

    #[test]
    fn lowercases_only_type_and_subtype() {
        assert_eq!(
            lowercase_media_type("Text/HTML; Charset=UTF-8"),
            Some(("text/html; Charset=UTF-8".to_string(), 0..9))
        );
    }

    #[test]
    fn fix_keeps_parameters() {
        assert_eq!(
            fixed(
                "example.com.yaml",
                &with_content_type("Text/HTML; charset=UTF-8")
            ),
            with_content_type("text/html; charset=UTF-8")
        );
    }
}
