//! ## What it checks
//! A `content-length` that is not a plain decimal integer ≥ 0: a sign
//! (`+12`, `-1`), `_` separators (`1_000`), leading zeros (`0123`), a
//! float, hexadecimal (`0x1F`), a quoted string (`'1406'`), or anything
//! else that is not a number; or a number no file can have, larger than
//! 18446744073709551615 (`u64::MAX`, what `verify` and every other reader
//! can hold).
//!
//! ## Why it matters
//! `verify` compares it with the length of the body the server sends. The
//! reference tool wrote a plain integer; YAML 1.1 reads the other
//! spellings in surprising ways (`0123` is octal 83, `1_000` is 1000,
//! `'1406'` is a string), so other tools reading the file may not agree on
//! the number, and a string never equals a length.
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! _path: /favicon.ico
//! content-length: '1406'
//! content-sha256: 0d5a5c3c6e4f1b2a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c
//! content-type: image/x-icon
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! ---
//! _path: /favicon.ico
//! content-length: 1406
//! content-sha256: 0d5a5c3c6e4f1b2a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c
//! content-type: image/x-icon
//! ```
//!
//! ## Fix
//! Sometimes, by `urldb check --fix`: `+12` becomes `12`, `1_000` becomes
//! `1000`, and a quoted string of plain digits (`'1406'`) becomes the
//! integer; each means one number that every reader agrees on. Leading
//! zeros are not fixed (`0123` is 83 to YAML 1.1 but 123 to YAML 1.2:
//! which was meant?), nor negative numbers, floats, hexadecimal or text:
//! fetch the URL again (`urldb add --static`) or correct it by hand.

use crate::model::resolve::Implicit;
use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "invalid-content-length",
    summary: "`content-length` is not a plain non-negative integer",
    severity: Severity::Error,
    fix: FixKind::Sometimes,
    blocks_rewrite: false,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::Some("a value `verify` cannot read as a byte count (`verify` refuses the record)"),
    check: Check::File {
        check,
        clean: CleanText(CLEAN),
    },
};

/// Clean text: a plain decimal integer that fits (`rules::clean`).
pub(crate) static CLEAN: &[Clean] = &[Clean::Value {
    key: domain::CONTENT_LENGTH,
    looks_at: LooksAt::Everything,
    // A plain decimal (`domain::content_length` reads no other) that fits.
    clean: |length, _| !length.quoted && domain::content_length(length.value).is_some(),
}];

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    for record in records(ctx.documents) {
        let Some(entry) = record.get(domain::CONTENT_LENGTH) else {
            continue;
        };
        let Some(scalar) = entry.value.as_scalar() else {
            out.push(
                Finding::new(
                    &RULE,
                    entry.value.span.clone(),
                    format!(
                        "`content-length` is a {}, not an integer",
                        entry.value.kind_name()
                    ),
                )
                .help("write the length of the body in bytes, as a plain integer"),
            );
            continue;
        };
        // What `verify` cannot read as a byte count is a gate finding.
        let refused = domain::content_length(scalar.value.trim()).is_none();
        let mark = |f: Finding| if refused { f.gate() } else { f };
        if scalar.style == ScalarStyle::Plain && is_plain_decimal(&scalar.value) {
            if domain::content_length(&scalar.value).is_none() {
                out.push(mark(
                    Finding::new(
                        &RULE,
                        entry.value.span.clone(),
                        format!(
                            "`content-length` `{}` is larger than any file can be (at most {})",
                            scalar.value,
                            u64::MAX
                        ),
                    )
                    .help("fetch the URL again (`urldb add --static`) or correct it by hand"),
                ));
            }
            continue;
        }
        let finding = mark(Finding::new(
            &RULE,
            entry.value.span.clone(),
            problem(scalar),
        ));
        let Some(digits) = repair(scalar) else {
            out.push(finding.help("write the length of the body in bytes, as a plain integer"));
            continue;
        };
        let Some(at) = entry_path(record.doc, record.entries, domain::CONTENT_LENGTH) else {
            continue;
        };
        out.push(finding.help(format!("write `{digits}`")).fix(Fix::safe(
            "write the length as a plain integer",
            vec![Edit::SetScalar {
                at,
                value: Scalar::plain(digits),
            }],
        )));
    }
}

/// Digits only, and no leading zero (but `0` itself).
fn is_plain_decimal(text: &str) -> bool {
    !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'))
}

/// The plain integer a scalar unambiguously means, when it has one.
fn repair(scalar: &Scalar) -> Option<String> {
    let text = scalar.value.as_str();
    match scalar.style {
        // A quoted string of plain digits.
        ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => domain::content_length(text)
            .is_some()
            .then(|| text.to_string()),
        // A YAML 1.1 decimal integer with a `+` sign or `_` separators.
        ScalarStyle::Plain if Implicit::of(text) == Implicit::Int => {
            let digits: String = text
                .strip_prefix('+')
                .unwrap_or(text)
                .chars()
                .filter(|&c| c != '_')
                .collect();
            domain::content_length(&digits).is_some().then_some(digits)
        }
        _ => None,
    }
}

/// What is wrong with a scalar that is not a plain decimal integer.
fn problem(scalar: &Scalar) -> String {
    let text = scalar.value.as_str();
    let shown = format!("`content-length` `{text}`");
    if matches!(
        scalar.style,
        ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted
    ) {
        return format!("{shown} is a quoted string, not an integer");
    }
    if scalar.style != ScalarStyle::Plain {
        return format!("{shown} is a block string, not an integer");
    }
    if text.is_empty() || scalar.is_plain_null() {
        return "`content-length` has no value".to_string();
    }
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
    let negative = text.starts_with('-') && unsigned.bytes().any(|b| (b'1'..=b'9').contains(&b));
    match Implicit::of(text) {
        Implicit::Float if negative => return format!("{shown} is negative"),
        Implicit::Float => return format!("{shown} is not an integer"),
        Implicit::Int => {
            if unsigned.starts_with("0x") || unsigned.starts_with("0b") {
                return format!("{shown} is not written in decimal");
            }
            if unsigned.contains(':') {
                return format!("{shown} is a YAML 1.1 sexagesimal number");
            }
            if negative {
                return format!("{shown} is negative");
            }
            if unsigned.len() > 1 && unsigned.starts_with('0') {
                let octal: String = unsigned.chars().filter(|&c| c != '_').collect();
                return match u128::from_str_radix(&octal, 8) {
                    Ok(n) => format!("{shown} has leading zeros: YAML 1.1 reads it as octal ({n})"),
                    Err(_) => format!("{shown} has leading zeros"),
                };
            }
            if text.starts_with(['+', '-']) {
                return format!("{shown} has a sign");
            }
            if text.contains('_') {
                return format!("{shown} has `_` separators");
            }
        }
        _ => {}
    }
    if unsigned.len() > 1
        && unsigned.starts_with('0')
        && unsigned.bytes().all(|b| b.is_ascii_digit())
    {
        return format!("{shown} has leading zeros");
    }
    format!("{shown} is not a decimal integer")
}

#[cfg(test)]
mod tests {
    use super::{is_plain_decimal, problem, repair};
    use crate::model::node::Scalar;
    use crate::rules::test_support::{codes, fixed, record};

    fn with_length(length: &str) -> String {
        record(&format!(
            "_path: /a\ncontent-length: {length}\ncontent-sha256: {}\ncontent-type: text/html\n",
            "ab".repeat(32)
        ))
    }

    fn flagged(length: &str) -> bool {
        codes("example.com.yaml", &with_length(length)).contains(&"invalid-content-length")
    }

    fn quoted(text: &str) -> Scalar {
        Scalar {
            value: text.into(),
            style: crate::model::node::ScalarStyle::SingleQuoted,
        }
    }

    #[test]
    fn accepts_plain_integers() {
        for length in ["0", "1", "1406", "18446744073709551615"] {
            assert!(!flagged(length), "{length}");
        }
    }

    /// No file can be longer than `u64::MAX` bytes, and no reader can hold
    /// such a length.
    #[test]
    fn flags_lengths_no_file_can_have() {
        for length in [
            "18446744073709551616",
            "18446744073709551616000",
            "'99999999999999999999'",
        ] {
            assert!(flagged(length), "{length}");
        }
    }

    #[test]
    fn flags_other_spellings() {
        for length in [
            "+12", "1_000", "'1406'", "\"1406\"", "0123", "00", "-1", "1.5", "1e3", "0x1F", "1:30",
            "abc", "''", "~", "\"\"", "[1]", "{a: 1}", "|\n  12",
        ] {
            assert!(flagged(length), "{length}");
        }
    }

    #[test]
    fn flags_a_missing_value() {
        let text = "---\n---\n_path: /a\ncontent-length:\ncontent-type: text/html\n";
        assert!(codes("example.com.yaml", text).contains(&"invalid-content-length"));
    }

    #[test]
    fn repairs_unambiguous_spellings() {
        assert_eq!(repair(&Scalar::plain("+12")).as_deref(), Some("12"));
        assert_eq!(repair(&Scalar::plain("1_000")).as_deref(), Some("1000"));
        assert_eq!(repair(&Scalar::plain("+1_000")).as_deref(), Some("1000"));
        assert_eq!(repair(&Scalar::plain("+0")).as_deref(), Some("0"));
        assert_eq!(repair(&quoted("1406")).as_deref(), Some("1406"));
        assert_eq!(repair(&Scalar::string("0")).as_deref(), Some("0"));
    }

    #[test]
    fn leaves_ambiguous_spellings() {
        for text in [
            "0123", "00", "+012", "0_1", "-1", "-0", "1.5", "1e3", "0x1F", "0b1", "1:30", "abc",
            "", "_1",
        ] {
            assert_eq!(repair(&Scalar::plain(text)), None, "{text}");
        }
        for text in ["0123", "+12", "1_000", "", " 12", "12 "] {
            assert_eq!(repair(&quoted(text)), None, "{text:?}");
        }
    }

    #[test]
    fn explains_the_problem() {
        assert!(problem(&Scalar::plain("0123")).contains("octal (83)"));
        assert!(problem(&Scalar::plain("0129")).ends_with("has leading zeros"));
        assert!(problem(&Scalar::plain("-1")).ends_with("is negative"));
        assert!(problem(&Scalar::plain("-1.5")).ends_with("is negative"));
        assert!(problem(&Scalar::plain("-0")).ends_with("has a sign"));
        assert!(problem(&Scalar::plain("+12")).ends_with("has a sign"));
        assert!(problem(&Scalar::plain("1_000")).ends_with("has `_` separators"));
        assert!(problem(&Scalar::plain("0x1F")).ends_with("not written in decimal"));
        assert!(problem(&Scalar::plain("1.5")).ends_with("is not an integer"));
        assert!(problem(&quoted("1406")).ends_with("is a quoted string, not an integer"));
        assert!(problem(&Scalar::plain("abc")).ends_with("is not a decimal integer"));
        assert!(problem(&Scalar::plain("")).ends_with("has no value"));
    }

    #[test]
    fn plain_decimal() {
        assert!(is_plain_decimal("0"));
        assert!(is_plain_decimal("10"));
        assert!(!is_plain_decimal("01"));
        assert!(!is_plain_decimal(""));
        assert!(!is_plain_decimal("1 "));
    }

    #[test]
    fn fix_writes_plain_integers() {
        for (bad, good) in [
            ("+12", "12"),
            ("1_000", "1000"),
            ("'1406'", "1406"),
            ("\"1406\"", "1406"),
        ] {
            assert_eq!(
                fixed("example.com.yaml", &with_length(bad)),
                with_length(good),
                "{bad}"
            );
        }
    }

    #[test]
    fn no_fix_for_leading_zeros() {
        let text = with_length("0123");
        assert_eq!(fixed("example.com.yaml", &text), text);
    }
}
