//! Text from files, file names and the network, made safe to print.
//!
//! A database is written by strangers: a value may hold a line feed
//! followed by `::error ...` (which GitHub Actions runs as a workflow
//! command when a log line starts with it) or an escape sequence that a
//! terminal obeys. Every human-readable output passes such text through
//! [`escape`]: control characters become visible escapes, so data can
//! neither start a line of its own nor reach a terminal raw. Machine
//! formats keep the exact value in their own escaping (JSON `\u001b`, XML
//! character references) and use [`needs_escape`] to know which
//! characters to escape; those formats' own escapes live where output is
//! made (`urldb-output`). The rules are in `docs/output.md`.

use std::borrow::Cow;
use std::fmt::Write as _;

/// A character that is escaped in human output: C0 controls (line feed,
/// carriage return and tab included), DEL, C1 controls, the Unicode line
/// and paragraph separators, and the bidirectional formatting characters
/// (which reorder what a reader sees).
pub fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
        )
}

/// `s` with every [`needs_escape`] character written as a visible escape:
/// `\n`, `\r`, `\t`, `\x1b` (below U+0100), `\u{202e}` (above). Other text,
/// backslashes included, is unchanged.
pub fn escape(s: &str) -> Cow<'_, str> {
    // Most text is printable ASCII: one pass over the bytes says so.
    if s.bytes().all(|b| (0x20..0x7F).contains(&b)) || !s.chars().any(needs_escape) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        push_escaped(&mut out, c);
    }
    Cow::Owned(out)
}

/// Push `c` to `out`, escaped when [`needs_escape`] says so.
pub fn push_escaped(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c if needs_escape(c) => {
            let n = c as u32;
            // Writing to a String cannot fail.
            let _ = if n < 0x100 {
                write!(out, "\\x{n:02x}")
            } else {
                write!(out, "\\u{{{n:x}}}")
            };
        }
        c => out.push(c),
    }
}

/// How many characters [`push_escaped`] writes for `c`.
pub fn escaped_width(c: char) -> usize {
    match c {
        '\n' | '\r' | '\t' => 2,
        c if needs_escape(c) && (c as u32) < 0x100 => 4,
        c if needs_escape(c) => format!("{:x}", c as u32).len() + 4,
        _ => 1,
    }
}

/// A file name as human text: escaped. A name that would start a runner
/// command (`::error….yaml`) is the output gate's business
/// (`urldb_output::gate`), as for any other text.
pub fn path_text(path: &str) -> String {
    escape(path).into_owned()
}

/// A URL as one line of a URL list: characters that cannot stand in a URL
/// line ([`needs_escape`]) are percent-encoded (their UTF-8 bytes), as the
/// `path-invalid-char` fix would write them. The flag says whether any
/// was.
pub fn url_line(url: &str) -> (Cow<'_, str>, bool) {
    if !url.chars().any(needs_escape) {
        return (Cow::Borrowed(url), false);
    }
    let mut out = String::with_capacity(url.len() + 8);
    for c in url.chars() {
        if needs_escape(c) {
            let mut buf = [0; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                let _ = write!(out, "%{b:02X}");
            }
        } else {
            out.push(c);
        }
    }
    (Cow::Owned(out), true)
}

/// `4950` as `4,950`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_controls_visibly() {
        assert_eq!(escape("plain /a b"), "plain /a b");
        assert_eq!(escape("a\nb\r\tc"), "a\\nb\\r\\tc");
        assert_eq!(escape("\u{1b}[31m\u{7f}\u{9b}"), "\\x1b[31m\\x7f\\x9b");
        assert_eq!(escape("x\u{202e}y\u{2028}"), "x\\u{202e}y\\u{2028}");
        assert_eq!(escape("é ✓ \\n"), "é ✓ \\n");
    }

    #[test]
    fn widths_match_the_escapes() {
        for c in ['a', 'é', '\n', '\u{1b}', '\u{9b}', '\u{202e}', '\u{2028}'] {
            let mut s = String::new();
            push_escaped(&mut s, c);
            assert_eq!(s.chars().count(), escaped_width(c), "{c:?}");
        }
    }

    #[test]
    fn paths_cannot_start_a_workflow_command() {
        assert_eq!(path_text("a\n::b.yaml"), "a\\n::b.yaml");
        assert_eq!(path_text("dir/example.org.yaml"), "dir/example.org.yaml");
    }

    #[test]
    fn url_lines_percent_encode_controls() {
        assert_eq!(
            url_line("https://example.org/a\n::error"),
            (
                Cow::Owned("https://example.org/a%0A::error".to_string()),
                true
            )
        );
        assert!(!url_line("https://example.org/é").1);
        assert_eq!(url_line("http://x/\u{85}").0, "http://x/%C2%85");
    }
}
