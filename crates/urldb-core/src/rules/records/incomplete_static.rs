//! ## What it checks
//! A record with `content-length` but no `content-sha256`, or the reverse.
//! The finding points at the key that is present.
//!
//! ## Why it matters
//! The two keys together declare "static content": `urldb add --static`
//! records both, and `verify` streams the body to compare its length *and*
//! its digest. One without the other is a half-declared promise, usually an
//! edit by hand or a merge that kept one line of two.
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! _path: /m51.txt
//! content-length: 1650240
//! content-type: text/plain
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! ---
//! _path: /m51.txt
//! content-length: 1650240
//! content-sha256: fd3589aa8a72beb48939de884e3ee5324b510c145003f375c77cd4ecb1a79672
//! content-type: text/plain
//! ```
//!
//! ## Fix
//! None: the missing value has to be measured from the content, or the
//! other key removed if the content is not static.

use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "incomplete-static",
    summary: "`content-length` without `content-sha256`, or the reverse",
    severity: Severity::Error,
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

/// Clean text: a record with both `content-length` and `content-sha256`, or
/// neither (`rules::clean`).
pub(crate) static CLEAN: &[Clean] = &[Clean::Record(|shape| {
    shape.holds(domain::CONTENT_LENGTH) == shape.holds(domain::CONTENT_SHA256)
})];

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    for record in records(ctx.documents) {
        let length = record.get(domain::CONTENT_LENGTH);
        let digest = record.get(domain::CONTENT_SHA256);
        let (present, missing, help) = match (length, digest) {
            (Some(entry), None) => (
                entry,
                domain::CONTENT_SHA256,
                "add the body's SHA-256 (`sha256sum`), or remove `content-length` if the content is not static",
            ),
            (None, Some(entry)) => (
                entry,
                domain::CONTENT_LENGTH,
                "add the body's length in bytes, or remove `content-sha256` if the content is not static",
            ),
            _ => continue,
        };
        let Some(key) = present.key_str() else {
            continue;
        };
        out.push(
            Finding::new(
                &RULE,
                present.key.span.clone(),
                format!("`{key}` without `{missing}`"),
            )
            .help(help),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{codes, finding, record};

    const DIGEST: &str = "fd3589aa8a72beb48939de884e3ee5324b510c145003f375c77cd4ecb1a79672";

    fn flagged(fields: &str) -> bool {
        let text = record(&format!("_path: /a\n{fields}content-type: text/plain\n"));
        codes("example.com.yaml", &text).contains(&"incomplete-static")
    }

    #[test]
    fn flags_length_without_digest() {
        assert!(flagged("content-length: 10\n"));
    }

    #[test]
    fn flags_digest_without_length() {
        assert!(flagged(&format!("content-sha256: {DIGEST}\n")));
    }

    #[test]
    fn accepts_both_or_neither() {
        assert!(!flagged(&format!(
            "content-length: 10\ncontent-sha256: {DIGEST}\n"
        )));
        assert!(!flagged(""));
    }

    #[test]
    fn span_is_the_present_key() {
        let text = "---\n---\n_path: /a\ncontent-length: 10\ncontent-type: text/plain\n";
        let finding = finding(text, "incomplete-static");
        assert_eq!(&text[finding.span.clone()], "content-length");
    }
}
