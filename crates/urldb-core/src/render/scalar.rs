//! How PyYAML writes one string: `Emitter.analyze_scalar`,
//! `choose_scalar_style` and the three scalar writers, ported line by line.
//!
//! Matching PyYAML byte for byte is what lets a team switch from the
//! reference tool without a diff, so this module follows the Python code's
//! structure rather than a tidier one; `tests/it/fmt/pyyaml_differential.rs`
//! compares the two on generated hard strings. `allow_unicode` is a
//! parameter: true in the `readable` style, false in the `pyyaml` style
//! (`docs/format.md`). Line folding (the `width`) is the emitter's part.

/// What `analyze_scalar` finds out about a string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Analysis {
    pub empty: bool,
    pub multiline: bool,
    pub allow_flow_plain: bool,
    pub allow_block_plain: bool,
    pub allow_single_quoted: bool,
}

/// The style PyYAML chooses for a scalar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Style {
    Plain,
    Single,
    Double,
}

fn is_break(ch: char) -> bool {
    matches!(ch, '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

fn is_space_or_break(ch: char) -> bool {
    matches!(
        ch,
        '\0' | ' ' | '\t' | '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

/// `Emitter.analyze_scalar`.
pub(crate) fn analyze(scalar: &str, allow_unicode: bool) -> Analysis {
    if scalar.is_empty() {
        return Analysis {
            empty: true,
            multiline: false,
            allow_flow_plain: false,
            allow_block_plain: true,
            allow_single_quoted: true,
        };
    }
    // The strings of a URL database are nearly all printable ASCII, where
    // the character loop below reduces to a table lookup per byte.
    analyze_printable_ascii(scalar.as_bytes())
        .unwrap_or_else(|| analyze_chars(scalar, allow_unicode))
}

/// `analyze_scalar`'s character loop, for a non-empty string.
fn analyze_chars(scalar: &str, allow_unicode: bool) -> Analysis {
    let chars: Vec<char> = scalar.chars().collect();
    let len = chars.len();

    let mut block_indicators = false;
    let mut flow_indicators = false;
    let mut line_breaks = false;
    let mut special_characters = false;
    let mut leading_space = false;
    let mut leading_break = false;
    let mut trailing_space = false;
    let mut trailing_break = false;
    let mut break_space = false;
    let mut space_break = false;

    if scalar.starts_with("---") || scalar.starts_with("...") {
        block_indicators = true;
        flow_indicators = true;
    }
    let mut preceded_by_whitespace = true;
    let mut followed_by_whitespace = len == 1 || is_space_or_break(chars[1]);
    let mut previous_space = false;
    let mut previous_break = false;

    for (index, &ch) in chars.iter().enumerate() {
        if index == 0 {
            if "#,[]{}&*!|>'\"%@`".contains(ch) {
                flow_indicators = true;
                block_indicators = true;
            }
            if ch == '?' || ch == ':' {
                flow_indicators = true;
                if followed_by_whitespace {
                    block_indicators = true;
                }
            }
            if ch == '-' && followed_by_whitespace {
                flow_indicators = true;
                block_indicators = true;
            }
        } else {
            if ",?[]{}".contains(ch) {
                flow_indicators = true;
            }
            if ch == ':' {
                flow_indicators = true;
                if followed_by_whitespace {
                    block_indicators = true;
                }
            }
            if ch == '#' && preceded_by_whitespace {
                flow_indicators = true;
                block_indicators = true;
            }
        }

        if is_break(ch) {
            line_breaks = true;
        }
        if !(ch == '\n' || ('\x20'..='\x7E').contains(&ch)) {
            let unicode = (ch == '\u{85}'
                || ('\u{A0}'..='\u{D7FF}').contains(&ch)
                || ('\u{E000}'..='\u{FFFD}').contains(&ch)
                || ('\u{10000}'..'\u{10FFFF}').contains(&ch))
                && ch != '\u{FEFF}';
            // Without allow_unicode, every character beyond ASCII is special
            // (only double quotes can escape it).
            if !unicode || !allow_unicode {
                special_characters = true;
            }
        }

        if ch == ' ' {
            if index == 0 {
                leading_space = true;
            }
            if index == len - 1 {
                trailing_space = true;
            }
            if previous_break {
                break_space = true;
            }
            previous_space = true;
            previous_break = false;
        } else if is_break(ch) {
            if index == 0 {
                leading_break = true;
            }
            if index == len - 1 {
                trailing_break = true;
            }
            if previous_space {
                space_break = true;
            }
            previous_space = false;
            previous_break = true;
        } else {
            previous_space = false;
            previous_break = false;
        }

        preceded_by_whitespace = is_space_or_break(ch);
        followed_by_whitespace = index + 2 >= len || is_space_or_break(chars[index + 2]);
    }

    let mut allow_flow_plain = true;
    let mut allow_block_plain = true;
    let mut allow_single_quoted = true;
    if leading_space || leading_break || trailing_space || trailing_break {
        allow_flow_plain = false;
        allow_block_plain = false;
    }
    if break_space {
        allow_flow_plain = false;
        allow_block_plain = false;
        allow_single_quoted = false;
    }
    if space_break || special_characters {
        allow_flow_plain = false;
        allow_block_plain = false;
        allow_single_quoted = false;
    }
    if line_breaks {
        allow_flow_plain = false;
        allow_block_plain = false;
    }
    if flow_indicators {
        allow_flow_plain = false;
    }
    if block_indicators {
        allow_block_plain = false;
    }
    Analysis {
        empty: false,
        multiline: line_breaks,
        allow_flow_plain,
        allow_block_plain,
        allow_single_quoted,
    }
}

/// What a byte means to [`analyze_printable_ascii`].
const PLAIN: u8 = 0;
/// `,` `?` `[` `]` `{` `}`: a flow indicator anywhere.
const FLOW: u8 = 1;
const COLON: u8 = 2;
const HASH: u8 = 3;
/// Not printable ASCII: the character loop decides.
const OTHER: u8 = 4;

static CLASS: [u8; 256] = {
    let mut table = [OTHER; 256];
    let mut b = 0x20;
    while b < 0x7F {
        table[b] = PLAIN;
        b += 1;
    }
    table[b',' as usize] = FLOW;
    table[b'?' as usize] = FLOW;
    table[b'[' as usize] = FLOW;
    table[b']' as usize] = FLOW;
    table[b'{' as usize] = FLOW;
    table[b'}' as usize] = FLOW;
    table[b':' as usize] = COLON;
    table[b'#' as usize] = HASH;
    table
};

/// Each class of [`CLASS`] but `PLAIN` as a bit, to gather a string's
/// classes in one pass.
static BIT: [u8; 256] = {
    let mut table = [0; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = match CLASS[b] {
            PLAIN => 0,
            class => 1 << class,
        };
        b += 1;
    }
    table
};

/// The bytes for which [`analyze`] reads a whole string: a byte that is
/// not printable ASCII, `:` and `#` (which end a key and start a comment
/// next to a space), a space, and a quote (which a quoted string doubles).
/// Of a string holding none of them, its first bytes and its YAML type
/// decide how a string is written in block context
/// ([`analyze_in_block`]).
pub(crate) fn read_whole(b: u8) -> bool {
    matches!(b, b':' | b'#' | b' ' | b'\'') || !(0x21..=0x7E).contains(&b)
}

/// [`analyze`] of a non-empty string holding no byte [`read_whole`] is
/// true of, for a scalar in block context: from its first bytes alone.
/// Whether flow context could take it plain is not known (`false`).
pub(crate) fn analyze_in_block(s: &[u8]) -> Option<Analysis> {
    let (_, block_indicators) = leading_indicators(s)?;
    Some(Analysis {
        empty: false,
        multiline: false,
        allow_flow_plain: false,
        allow_block_plain: !block_indicators,
        allow_single_quoted: true,
    })
}

/// A string starting with `first` is written plain in block context
/// when it holds no byte [`read_whole`] is true of, whatever follows:
/// `first` makes no block indicator even alone (where `?`, `:` and `-`
/// would, before the end), and leads no YAML type but a string
/// (`Implicit::may_lead`, which also covers the `-` and `.` of a
/// document marker).
pub(crate) fn leads_plain_string(first: u8) -> bool {
    // Asked of every value the proof reads: a table, made once.
    static LEADS: std::sync::LazyLock<[bool; 256]> = std::sync::LazyLock::new(|| {
        std::array::from_fn(|b| {
            let first = b as u8;
            !read_whole(first)
                && leading_indicators(&[first]).is_some_and(|(_, block)| !block)
                && !crate::model::resolve::Implicit::may_lead(first)
        })
    });
    LEADS[usize::from(first)]
}

/// The indicators (flow, block) a string's first bytes make, or `None`
/// when it is empty or its first byte is not printable ASCII.
fn leading_indicators(s: &[u8]) -> Option<(bool, bool)> {
    let len = s.len();
    let space_at = |i: usize| i >= len || s[i] == b' ';
    let mut flow_indicators = false;
    let mut block_indicators = false;
    if s.starts_with(b"---") || s.starts_with(b"...") {
        flow_indicators = true;
        block_indicators = true;
    }
    let &first = s.first()?;
    match first {
        b'#' | b',' | b'[' | b']' | b'{' | b'}' | b'&' | b'*' | b'!' | b'|' | b'>' | b'\''
        | b'"' | b'%' | b'@' | b'`' => {
            flow_indicators = true;
            block_indicators = true;
        }
        b'?' | b':' => {
            flow_indicators = true;
            block_indicators |= space_at(1);
        }
        b'-' if space_at(1) => {
            flow_indicators = true;
            block_indicators = true;
        }
        _ if CLASS[usize::from(first)] == OTHER => return None,
        _ => {}
    }
    Some((flow_indicators, block_indicators))
}

/// [`analyze`] of a non-empty string of printable ASCII (no line breaks,
/// no special characters): the same flags, from bytes, without allocating.
/// `None` for any other string.
fn analyze_printable_ascii(s: &[u8]) -> Option<Analysis> {
    let len = s.len();
    let space_at = |i: usize| i >= len || s[i] == b' ';
    let (mut flow_indicators, mut block_indicators) = leading_indicators(s)?;
    let first = s[0];
    // Most strings after their first byte hold no `:`, `#` or byte beyond
    // printable ASCII, and at most flow indicators (`?` of a query): told
    // in one pass over the bytes' classes, then nothing is looked at again.
    let seen = s[1..]
        .iter()
        .fold(0u8, |seen, &b| seen | BIT[usize::from(b)]);
    let mut i = 1;
    if seen & !BIT[usize::from(b',')] == 0 {
        flow_indicators |= seen != 0;
        i = len;
    }
    // Runs of ordinary bytes are skipped in a tight loop.
    while let Some(skip) = s[i..].iter().position(|&b| CLASS[usize::from(b)] != PLAIN) {
        i += skip;
        match CLASS[usize::from(s[i])] {
            FLOW => flow_indicators = true,
            COLON => {
                flow_indicators = true;
                block_indicators |= space_at(i + 1);
            }
            HASH => {
                if s[i - 1] == b' ' {
                    flow_indicators = true;
                    block_indicators = true;
                }
            }
            _ => return None,
        }
        i += 1;
    }
    let edge_space = first == b' ' || s[len - 1] == b' ';
    Some(Analysis {
        empty: false,
        multiline: false,
        allow_flow_plain: !edge_space && !flow_indicators,
        allow_block_plain: !edge_space && !block_indicators,
        allow_single_quoted: true,
    })
}

/// `Emitter.choose_scalar_style` for a scalar with no requested style.
/// `implicit` is true when the text resolves to the scalar's own tag (a
/// string that would not load as a bool, number, null, ...).
pub(crate) fn choose_style(a: &Analysis, implicit: bool, simple_key: bool, in_flow: bool) -> Style {
    if implicit
        && !(simple_key && (a.empty || a.multiline))
        && ((in_flow && a.allow_flow_plain) || (!in_flow && a.allow_block_plain))
    {
        return Style::Plain;
    }
    if a.allow_single_quoted && !(simple_key && a.multiline) {
        return Style::Single;
    }
    Style::Double
}

/// The escape PyYAML writes for a character in a double-quoted scalar.
pub(crate) fn escape_double(ch: char, out: &mut String) {
    let short = match ch {
        '\0' => Some('0'),
        '\x07' => Some('a'),
        '\x08' => Some('b'),
        '\x09' => Some('t'),
        '\x0A' => Some('n'),
        '\x0B' => Some('v'),
        '\x0C' => Some('f'),
        '\x0D' => Some('r'),
        '\x1B' => Some('e'),
        '"' => Some('"'),
        '\\' => Some('\\'),
        '\u{85}' => Some('N'),
        '\u{A0}' => Some('_'),
        '\u{2028}' => Some('L'),
        '\u{2029}' => Some('P'),
        _ => None,
    };
    out.push('\\');
    match short {
        Some(c) => out.push(c),
        None => {
            let code = ch as u32;
            let text = if code <= 0xFF {
                format!("x{code:02X}")
            } else if code <= 0xFFFF {
                format!("u{code:04X}")
            } else {
                format!("U{code:08X}")
            };
            out.push_str(&text);
        }
    }
}

/// Characters `write_double_quoted` writes as they are.
pub(crate) fn double_quoted_verbatim(ch: char, allow_unicode: bool) -> bool {
    !matches!(
        ch,
        '"' | '\\' | '\u{85}' | '\u{2028}' | '\u{2029}' | '\u{FEFF}'
    ) && (('\x20'..='\x7E').contains(&ch)
        || (allow_unicode
            && (('\u{A0}'..='\u{D7FF}').contains(&ch) || ('\u{E000}'..='\u{FFFD}').contains(&ch))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        // A fixed seed: the same cases on every run (tests/it/support,
        // `property_config`, says why).
        #![proptest_config(ProptestConfig {
            rng_seed: proptest::test_runner::RngSeed::Fixed(46),
            ..ProptestConfig::default()
        })]

        #[test]
        fn ascii_shortcut_agrees_with_the_character_loop(s in "[ -~]{1,12}") {
            prop_assert_eq!(analyze_printable_ascii(s.as_bytes()), Some(analyze_chars(&s, true)));
        }

        #[test]
        fn ascii_shortcut_agrees_on_indicator_heavy_strings(s in "[-?:#, .a'\\[\\]{}]{1,8}") {
            prop_assert_eq!(analyze_printable_ascii(s.as_bytes()), Some(analyze_chars(&s, true)));
        }

        #[test]
        fn ascii_shortcut_leaves_other_strings_to_the_character_loop(
            s in "[ -~]{0,6}[\\x00-\\x1f\\x7f\\u{80}-\\u{10ffff}][ -~\\n]{0,6}"
        ) {
            prop_assert_eq!(analyze_printable_ascii(s.as_bytes()), None);
            prop_assert_eq!(analyze(&s, true), analyze_chars(&s, true));
            prop_assert_eq!(analyze(&s, false), analyze_chars(&s, false));
        }
    }
}
