//! ## What it checks
//! A `content-sha256` of 64 hex digits written with uppercase letters
//! (`0D5A…`).
//!
//! ## Why it matters
//! The format asks for "a lowercase hexadecimal expression of the digest",
//! as `sha256sum` prints it. Comparing digests as text (in `grep`, in a
//! review, in another tool) misses an uppercase copy of the same digest.
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! _path: /m51.txt
//! content-length: 1650240
//! content-sha256: FD3589AA8A72BEB48939DE884E3EE5324B510C145003F375C77CD4ECB1A79672
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
//! Safe, by `urldb check --fix`: the digits are lowercased (the digest is
//! the same number).

use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "sha256-case",
    summary: "`content-sha256` has uppercase hex digits",
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

/// Clean text: a `content-sha256` without an uppercase letter, or one that
/// is no digest at all (`invalid-sha256`'s) (`rules::clean`).
pub(crate) static CLEAN: &[Clean] = &[Clean::Value {
    key: domain::CONTENT_SHA256,
    // A digest without an uppercase letter has nothing to lowercase.
    looks_at: LooksAt::Bytes(|b| b.is_ascii_uppercase()),
    clean: |digest, _| {
        // Folded without a branch per byte, so that it vectorizes.
        !digest
            .value
            .bytes()
            .fold(false, |any, b| any | b.is_ascii_uppercase())
            || digest.value.len() != 64
            || !digest.value.bytes().all(|b| b.is_ascii_hexdigit())
    },
}];

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    for record in records(ctx.documents) {
        let Some(entry) = record.get(domain::CONTENT_SHA256) else {
            continue;
        };
        let Some(digest) = entry.value.as_scalar().map(|s| s.value.as_str()) else {
            continue;
        };
        // Anything but 64 hex digits is `invalid-sha256`'s business.
        if digest.len() != 64 || !digest.bytes().all(|b| b.is_ascii_hexdigit()) {
            continue;
        }
        if !digest.bytes().any(|b| b.is_ascii_uppercase()) {
            continue;
        }
        let Some(at) = entry_path(record.doc, record.entries, domain::CONTENT_SHA256) else {
            continue;
        };
        out.push(
            Finding::new(
                &RULE,
                entry.value.span.clone(),
                "`content-sha256` has uppercase hex digits",
            )
            .help("write the digest in lowercase, as `sha256sum` prints it")
            .fix(Fix::safe(
                "lowercase the digest",
                vec![Edit::SetScalar {
                    at,
                    value: Scalar::string(digest.to_ascii_lowercase()),
                }],
            )),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{codes, fixed, record};

    const LOWER: &str = "fd3589aa8a72beb48939de884e3ee5324b510c145003f375c77cd4ecb1a79672";

    fn with_sha256(sha: &str) -> String {
        record(&format!(
            "_path: /a\ncontent-length: 1\ncontent-sha256: {sha}\ncontent-type: text/plain\n"
        ))
    }

    #[test]
    fn flags_uppercase_digest() {
        let text = with_sha256(&LOWER.to_ascii_uppercase());
        assert!(codes("example.com.yaml", &text).contains(&"sha256-case"));
        let mixed = format!("FD{}", &LOWER[2..]);
        assert!(codes("example.com.yaml", &with_sha256(&mixed)).contains(&"sha256-case"));
    }

    #[test]
    fn accepts_lowercase_digest() {
        assert!(!codes("example.com.yaml", &with_sha256(LOWER)).contains(&"sha256-case"));
    }

    #[test]
    fn leaves_invalid_digests_to_invalid_sha256() {
        let text = with_sha256(&LOWER[1..].to_ascii_uppercase());
        let found = codes("example.com.yaml", &text);
        assert!(!found.contains(&"sha256-case"));
        assert!(found.contains(&"invalid-sha256"));
    }

    #[test]
    fn fix_lowercases() {
        assert_eq!(
            fixed(
                "example.com.yaml",
                &with_sha256(&LOWER.to_ascii_uppercase())
            ),
            with_sha256(LOWER)
        );
    }
}
