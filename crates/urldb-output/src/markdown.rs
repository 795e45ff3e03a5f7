//! Markdown for CI pages (a job summary, a pull-request comment): every
//! text that comes from the database, git or a server is shown as a code
//! span ([`markdown_code`]), the one Markdown construct whose content is
//! never read as Markdown or HTML: a hostile URL cannot forge a link, a
//! table row, an image, emphasis or a tag. (GitHub Flavored Markdown spec,
//! "Code spans".) `verify --format markdown` and `diff --format markdown`
//! write through it.

use urldb_core::text::escape;

/// The most characters of one value shown in a code span; the rest is
/// cut, with `…`.
const MAX_SHOWN: usize = 300;

/// `s` as one inline code span: control characters (line breaks
/// included) written as visible escapes first ([`escape`]), then fenced
/// by a run of backticks longer than any in `s`, padded with a space when
/// `s` starts or ends with a backtick or a space (which the span would
/// otherwise eat or close on).
pub fn markdown_code(s: &str) -> String {
    let s = escape(s);
    let s = match s.char_indices().nth(MAX_SHOWN) {
        Some((cut, _)) => format!("{}…", &s[..cut]),
        None => s.into_owned(),
    };
    if s.is_empty() {
        return "` `".to_string();
    }
    let mut longest = 0;
    let mut run = 0;
    for c in s.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let edge = s.starts_with(['`', ' ']) || s.ends_with(['`', ' ']);
    // Only spaces: CommonMark strips nothing from such a span.
    let pad = if edge && !s.trim_matches(' ').is_empty() {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{s}{pad}{fence}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use urldb_core::text::escape;

    /// The inside of a code span as CommonMark reads it: the text between
    /// the first backtick run and the next run of the same length, with
    /// one space stripped from each end when both are spaces.
    fn unspan(span: &str) -> Option<String> {
        let open = span.len() - span.trim_start_matches('`').len();
        let rest = &span[open..];
        let bytes = rest.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'`' {
                let run = rest[i..].len() - rest[i..].trim_start_matches('`').len();
                if run == open {
                    if i + run != rest.len() {
                        return None; // closed before the end: forged
                    }
                    let inner = &rest[..i];
                    let inner = if inner.len() > 1
                        && inner.starts_with(' ')
                        && inner.ends_with(' ')
                        && !inner.trim().is_empty()
                    {
                        &inner[1..inner.len() - 1]
                    } else {
                        inner
                    };
                    return Some(inner.to_string());
                }
                i += run;
            } else {
                i += 1;
            }
        }
        None
    }

    #[test]
    fn nasty_values_stay_inside_one_code_span() {
        for nasty in [
            "http://a.test/x|y|z",
            "| forged | row |",
            "`code` break",
            "``",
            "` leading",
            "trailing `",
            "<script>alert(1)</script>",
            "<img src=x onerror=alert(1)>",
            "[click](http://evil.test)",
            "![img](http://evil.test/x.png)",
            "line\n- forged item",
            "cr\rlf\r\n### heading",
            "\u{1b}[31mred",
            "\u{202e}reversed",
            "**bold** _em_ ~~del~~",
            "\\`escaped\\`",
            " ",
            "  two  ",
        ] {
            let span = markdown_code(nasty);
            assert!(
                !span.contains(['\n', '\r', '\u{1b}', '\u{202e}']),
                "{span:?}"
            );
            assert_eq!(
                unspan(&span).as_deref(),
                Some(escape(nasty).as_ref()),
                "{nasty:?} → {span:?}"
            );
        }
    }

    proptest! {
        // A fixed seed: the same cases on every run (tests/it/support,
        // `property_config`, says why).
        #![proptest_config(ProptestConfig {
            rng_seed: proptest::test_runner::RngSeed::Fixed(46),
            ..ProptestConfig::default()
        })]

        #[test]
        fn any_text_is_one_code_span_of_itself(s in "\\PC*|[`| \\[\\]<>\\n\\\\]{0,12}") {
            let span = markdown_code(&s);
            prop_assert!(!span.contains('\n'));
            if !s.is_empty() {
                prop_assert_eq!(unspan(&span), Some(escape(&s).into_owned()));
            }
        }
    }
}
