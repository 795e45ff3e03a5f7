//! ## What it checks
//! A `content-type` that is not a media type: `type/subtype` made of
//! RFC 9110 tokens, optionally followed by `; name=value` parameters (a
//! value is a token or a quoted string; white space around `;` is allowed).
//! The redirect marker the reference tool stores for redirects,
//! `X-<3xx status>-Redirect` (`X-301-Redirect`), is accepted too. The value
//! is read as text; a list or a mapping is never a media type. (Uppercase
//! letters are `content-type-case`'s finding.)
//!
//! ## Why it matters
//! `verify` compares the value with the `Content-Type` the server sends,
//! so a value that no server can send (`html`, `text/html;`, `text html`)
//! fails every run, or hides a typo that should have been caught when the
//! record was written.
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! _path: /a
//! content-type: text html
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! ---
//! _path: /a
//! content-type: text/html
//! ```
//!
//! ## Fix
//! None: only a person (or the server, with `urldb add`) knows the type.

use crate::model::media_type;
use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "invalid-content-type",
    summary: "`content-type` is not a media type",
    severity: Severity::Error,
    fix: FixKind::None,
    blocks_rewrite: false,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::Some("a `content-type` that is not a single value (`verify` refuses the record)"),
    check: Check::File {
        check,
        clean: CleanText(CLEAN),
    },
};

/// Clean text: a `content-type` that is a media type or a redirect marker,
/// or none at all (`missing-content-type`'s) (`rules::clean`).
pub(crate) static CLEAN: &[Clean] = &[Clean::Value {
    key: domain::CONTENT_TYPE,
    looks_at: LooksAt::Everything,
    clean: |content_type, _| validate(content_type.value).is_ok() || content_type.is_plain_null(),
}];

const HELP: &str = "write a media type `type/subtype` (`text/html`, `text/html; charset=utf-8`), \
                    or `X-<status>-Redirect` (`X-301-Redirect`) for a redirect";

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    // A file repeats a handful of media types: one found valid is not
    // parsed again for the next record.
    let mut last_valid: Option<&str> = None;
    for record in records(ctx.documents) {
        let Some(entry) = record.get(domain::CONTENT_TYPE) else {
            continue;
        };
        // A null `content-type` is `missing-content-type`'s.
        if entry.value.is_null() {
            continue;
        }
        let Some(scalar) = entry.value.as_scalar() else {
            out.push(
                Finding::new(
                    &RULE,
                    entry.value.span.clone(),
                    format!(
                        "`content-type` is a {}, not a media type",
                        entry.value.kind_name()
                    ),
                )
                .help(HELP)
                // `verify` refuses a record without one value here.
                .gate(),
            );
            continue;
        };
        let text = scalar.value.as_str();
        if last_valid == Some(text) {
            continue;
        }
        let Err(problem) = validate(text) else {
            last_valid = Some(text);
            continue;
        };
        let message = if text.is_empty() {
            "`content-type` is empty".to_string()
        } else {
            format!("`{text}` is not a media type: {problem}")
        };
        out.push(Finding::new(&RULE, entry.value.span.clone(), message).help(HELP));
    }
}

/// `Ok` for a media type or a redirect marker; else what is wrong.
fn validate(text: &str) -> Result<(), media_type::MediaTypeError> {
    media_type::parse(text).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::validate;
    use crate::rules::test_support::{codes, record};

    fn with_content_type(content_type: &str) -> String {
        record(&format!("_path: /a\ncontent-type: {content_type}\n"))
    }

    fn flagged(content_type: &str) -> bool {
        codes("example.com.yaml", &with_content_type(content_type))
            .contains(&"invalid-content-type")
    }

    #[test]
    fn accepts_media_types() {
        for t in [
            "text/html",
            "image/x-icon",
            "application/vnd.ms-excel",
            "application/atom+xml",
            "text/html; charset=utf-8",
            "text/html;charset=UTF-8",
            "text/html ;charset=utf-8 ; q=1",
            "multipart/form-data; boundary=\"a b;c\\\"d\"",
            "TEXT/HTML",
            "a!#$%&'*+-.^_`|~9/z",
        ] {
            assert_eq!(validate(t), Ok(()), "{t}");
        }
    }

    #[test]
    fn accepts_redirect_markers() {
        for t in [
            "X-300-Redirect",
            "X-301-Redirect",
            "X-302-Redirect",
            "X-308-Redirect",
            "X-399-Redirect",
        ] {
            assert_eq!(validate(t), Ok(()), "{t}");
        }
    }

    #[test]
    fn rejects_other_redirect_markers() {
        for t in [
            "X-200-Redirect",
            "X-404-Redirect",
            "X-3010-Redirect",
            "x-301-redirect",
            "X-301-redirect",
        ] {
            assert!(validate(t).is_err(), "{t}");
        }
        assert!(validate("X--Redirect").is_err());
    }

    #[test]
    fn rejects_what_is_not_a_media_type() {
        for t in [
            "",
            "html",
            "text/",
            "/html",
            "text html",
            "text/html;",
            "text/html; charset",
            "text/html; charset=",
            "text/html; =utf-8",
            "text/html charset=utf-8",
            "text/html ",
            " text/html",
            "text/html/x",
            "text/html; charset=\"utf-8",
            "text/(html)",
            "text/htmł",
            "text/html, text/plain",
        ] {
            assert!(validate(t).is_err(), "{t:?}");
        }
    }

    #[test]
    fn explains_the_problem() {
        assert_eq!(
            validate("html").map_err(|e| e.to_string()),
            Err("there is no `/subtype`".to_string())
        );
        assert_eq!(
            validate("text html").map_err(|e| e.to_string()),
            Err("a space is not allowed in the type".to_string())
        );
        assert_eq!(
            validate("text/html; charset").map_err(|e| e.to_string()),
            Err("parameter `charset` has no `=value`".to_string())
        );
        assert_eq!(
            validate("text/").map_err(|e| e.to_string()),
            Err("it ends where a subtype after `/` should be".to_string())
        );
    }

    #[test]
    fn flags_in_a_record() {
        assert!(flagged("text html"));
        assert!(flagged("'text/html;'"));
        assert!(flagged("''"));
        assert!(flagged("[text/html]"));
        assert!(flagged("{a: b}"));
    }

    #[test]
    fn accepts_in_a_record() {
        assert!(!flagged("text/html"));
        assert!(!flagged("X-301-Redirect"));
        assert!(!flagged("'text/html; charset=utf-8'"));
    }

    #[test]
    fn leaves_a_missing_content_type_alone() {
        assert!(
            !codes("example.com.yaml", "---\n---\n_path: /a\n").contains(&"invalid-content-type")
        );
    }
}
