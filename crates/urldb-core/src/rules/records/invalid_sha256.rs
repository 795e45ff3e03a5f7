//! ## What it checks
//! A `content-sha256` that is not exactly 64 hex digits: too short or too
//! long, a character that is not a hex digit, an empty value, or a list or
//! mapping. A valid digest in uppercase is `sha256-case`'s business. The
//! value is read by its text: a plain scalar made only of digits is still a
//! digest, not a number.
//!
//! ## Why it matters
//! `verify` compares the SHA-256 of the body with this value: one that is
//! not a SHA-256 digest (a truncated copy, an MD5, a `sha256:` prefix)
//! makes every check of the URL fail, or hides the fact that it was never
//! computed.
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! _path: /m51.txt
//! content-length: 1650240
//! content-sha256: fd3589aa8a72beb48939de884e3ee532
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
//! None: the right digest has to be computed from the content
//! (`sha256sum`).

use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "invalid-sha256",
    summary: "`content-sha256` is not 64 hex digits",
    severity: Severity::Error,
    fix: FixKind::None,
    blocks_rewrite: false,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::Some(
        "a value `verify` cannot read as a SHA-256 digest (`verify` refuses the record)",
    ),
    check: Check::File {
        check,
        clean: CleanText(CLEAN),
    },
};

/// Clean text: 64 hex digits (`rules::clean`).
pub(crate) static CLEAN: &[Clean] = &[Clean::Value {
    key: domain::CONTENT_SHA256,
    looks_at: LooksAt::Everything,
    clean: |digest, _| {
        // Folded without a branch per byte, so that it vectorizes.
        digest.value.len() == DIGITS
            && digest
                .value
                .bytes()
                .fold(true, |ok, b| ok & b.is_ascii_hexdigit())
    },
}];

const DIGITS: usize = 64;

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    for record in records(ctx.documents) {
        let Some(entry) = record.get(domain::CONTENT_SHA256) else {
            continue;
        };
        let help = "a SHA-256 digest is 64 lowercase hex digits, as `sha256sum` prints it";
        let Some(digest) = entry.value.as_scalar().map(|s| s.value.as_str()) else {
            out.push(
                Finding::new(
                    &RULE,
                    entry.value.span.clone(),
                    format!(
                        "`content-sha256` is a {}, not a digest",
                        entry.value.kind_name()
                    ),
                )
                .help(help),
            );
            continue;
        };
        // What `verify` cannot read as a digest (64 hex digits once trimmed)
        // is a gate finding.
        let trimmed = digest.trim();
        let refused = !(trimmed.len() == DIGITS && trimmed.bytes().all(|b| b.is_ascii_hexdigit()));
        let mark = |f: Finding| if refused { f.gate() } else { f };
        if let Some(prefix) = algorithm_prefix(digest) {
            out.push(mark(
                Finding::new(
                    &RULE,
                    sub_span(ctx.source, &entry.value, 0..prefix.len()),
                    format!("`content-sha256` starts with `{prefix}`"),
                )
                .help("write only the 64 hex digits: the key already says SHA-256"),
            ));
            continue;
        }
        if let Some((at, c)) = digest.char_indices().find(|(_, c)| !c.is_ascii_hexdigit()) {
            out.push(mark(
                Finding::new(
                    &RULE,
                    sub_span(ctx.source, &entry.value, at..at + c.len_utf8()),
                    format!(
                        "`content-sha256` has {}, which is not a hex digit",
                        show_char(c)
                    ),
                )
                .help(help),
            ));
            continue;
        }
        if digest.is_empty() {
            let span = if entry.value.span.is_empty() {
                entry.key.span.clone()
            } else {
                entry.value.span.clone()
            };
            out.push(mark(
                Finding::new(&RULE, span, "`content-sha256` is empty").help(help),
            ));
            continue;
        }
        if digest.len() != DIGITS {
            out.push(mark(
                Finding::new(
                    &RULE,
                    entry.value.span.clone(),
                    format!(
                        "`content-sha256` has {} hex digits, not {DIGITS}",
                        digest.len()
                    ),
                )
                .help(help),
            ));
        }
    }
}

/// An algorithm name in front of 64 hex digits (`sha256:…`, `SHA256=…`),
/// as some tools print digests.
fn algorithm_prefix(digest: &str) -> Option<&str> {
    let split = digest.len().checked_sub(DIGITS)?;
    let (prefix, hex) = (digest.get(..split)?, digest.get(split..)?);
    let name = prefix.strip_suffix([':', '-', '=', ' '])?;
    let known = name.eq_ignore_ascii_case("sha256") || name.eq_ignore_ascii_case("sha-256");
    (known && hex.bytes().all(|b| b.is_ascii_hexdigit())).then_some(prefix)
}

/// A character as the user should see it in a message.
fn show_char(c: char) -> String {
    if c.is_ascii_graphic() || (!c.is_ascii() && !c.is_control() && !c.is_whitespace()) {
        format!("`{c}`")
    } else {
        format!("U+{:04X}", u32::from(c))
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{codes, finding, record};

    const DIGEST: &str = "fd3589aa8a72beb48939de884e3ee5324b510c145003f375c77cd4ecb1a79672";

    fn with_sha256(sha: &str) -> String {
        record(&format!(
            "_path: /a\ncontent-length: 1\ncontent-sha256: {sha}\ncontent-type: text/plain\n"
        ))
    }

    fn flagged(sha: &str) -> bool {
        codes("example.com.yaml", &with_sha256(sha)).contains(&"invalid-sha256")
    }

    #[test]
    fn flags_wrong_length() {
        assert!(flagged(&DIGEST[..32]));
        assert!(flagged(&format!("{DIGEST}0")));
    }

    #[test]
    fn flags_non_hex_and_shapes() {
        assert!(flagged(&format!("g{}", &DIGEST[1..])));
        assert!(flagged(&format!("sha256:{DIGEST}")));
        assert!(flagged("''"));
        assert!(flagged("[a]"));
        assert!(flagged(""));
    }

    #[test]
    fn accepts_digests_and_leaves_case_to_sha256_case() {
        assert!(!flagged(DIGEST));
        assert!(!flagged(&DIGEST.to_ascii_uppercase()));
        // Only digits: still a digest (read by its text).
        assert!(!flagged(&"1".repeat(64)));
        assert!(!flagged(&format!("'{}'", "0".repeat(64))));
    }

    #[test]
    fn names_an_algorithm_prefix() {
        let text = with_sha256(&format!("sha256:{DIGEST}"));
        let finding = finding(&text, "invalid-sha256");
        assert_eq!(finding.message, "`content-sha256` starts with `sha256:`");
        assert_eq!(&text[finding.span.clone()], "sha256:");
        assert_eq!(super::algorithm_prefix(&format!("é{DIGEST}")), None);
        assert_eq!(super::algorithm_prefix("abc"), None);
    }

    #[test]
    fn points_at_the_bad_character() {
        let text = with_sha256(&format!("{}x{}", &DIGEST[..10], &DIGEST[11..]));
        let finding = finding(&text, "invalid-sha256");
        assert_eq!(&text[finding.span.clone()], "x");
    }
}
