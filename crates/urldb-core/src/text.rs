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
//! characters to escape. The rules are in `docs/output.md`.

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
/// ([`crate::gate`]), as for any other text.
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

/// Escape a GitHub workflow command's message (the text after `::`).
pub fn github_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escape a GitHub workflow command's property value (`file=`, `title=`).
pub fn github_property(s: &str) -> String {
    github_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// Escape text for an XML attribute or element. Tab, line feed and
/// carriage return become character references (the exact value, and no
/// line of the document starts with data); DEL, C1 controls and the other
/// characters [`needs_escape`] names become references too;
/// characters XML 1.0 cannot hold at all (other C0 controls, U+FFFE,
/// U+FFFF) become a visible escape such as `\x01`. (Also used by `verify
/// --format junit`.)
pub fn xml(s: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => {
                let _ = write!(out, "&#{};", c as u32);
            }
            c if (c as u32) < 0x20 => push_escaped(&mut out, c),
            '\u{FFFE}' => out.push_str("\\u{fffe}"),
            '\u{FFFF}' => out.push_str("\\u{ffff}"),
            c if needs_escape(c) => {
                let _ = write!(out, "&#x{:x};", c as u32);
            }
            c => out.push(c),
        }
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

/// A JSON formatter that also writes DEL, C1 controls and the other
/// characters [`needs_escape`] names as `\uXXXX` (serde_json escapes only
/// C0 controls): the value stays exact, and no raw control character
/// reaches a terminal that shows the JSON.
pub(crate) struct JsonFormatter<F>(pub F);

impl<F: serde_json::ser::Formatter> serde_json::ser::Formatter for JsonFormatter<F> {
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        // Most text is printable ASCII: one pass over the bytes says so.
        if fragment.bytes().all(|b| (0x20..0x7F).contains(&b)) {
            return writer.write_all(fragment.as_bytes());
        }
        let mut start = 0;
        for (i, c) in fragment.char_indices() {
            if needs_escape(c) {
                writer.write_all(&fragment.as_bytes()[start..i])?;
                // Every such character is in the Basic Multilingual Plane.
                write!(writer, "\\u{:04x}", c as u32)?;
                start = i + c.len_utf8();
            }
        }
        writer.write_all(&fragment.as_bytes()[start..])
    }
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn end_object_key<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object_key(w)
    }
    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object_value(w)
    }
}

/// A buffer of a concrete type in front of `out`, for one large document.
/// The serializer writes a few bytes at a time (a quote, a comma, an
/// indent); through a `dyn Write` each is a call that cannot be inlined,
/// a tenth of the time of writing a large report. A `BufWriter` passes a
/// write of at least its capacity straight through, so one in front of
/// another copies nothing twice.
fn buffered(out: &mut dyn std::io::Write) -> std::io::BufWriter<&mut dyn std::io::Write> {
    std::io::BufWriter::with_capacity(1 << 16, out)
}

/// serde_json's `PrettyFormatter` (two spaces a level), byte for byte,
/// with each line break and its indent written at once rather than a
/// write per level: a report of 100,000 URLs is a million indented lines.
#[derive(Default)]
struct Pretty {
    level: usize,
    has_value: bool,
}

/// A line break and the indent of `level`, after a comma or not.
fn new_line<W: ?Sized + std::io::Write>(
    w: &mut W,
    comma: bool,
    level: usize,
) -> std::io::Result<()> {
    const BREAK: &[u8] = b",\n                                                                ";
    let start = usize::from(!comma);
    match BREAK.get(start..2 + 2 * level) {
        Some(line) => w.write_all(line),
        None => {
            w.write_all(&BREAK[start..2])?;
            (0..level).try_for_each(|_| w.write_all(b"  "))
        }
    }
}

impl Pretty {
    /// An array or an object begins: one level deeper, nothing in it yet.
    fn open<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        bracket: &[u8],
    ) -> std::io::Result<()> {
        self.level += 1;
        self.has_value = false;
        w.write_all(bracket)
    }

    /// It ends: on a line of its own unless it was empty.
    fn close<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        bracket: &[u8],
    ) -> std::io::Result<()> {
        self.level -= 1;
        if self.has_value {
            new_line(w, false, self.level)?;
        }
        w.write_all(bracket)
    }
}

impl serde_json::ser::Formatter for Pretty {
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"[")
    }
    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"]")
    }
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        new_line(w, !first, self.level)
    }
    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"{")
    }
    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"}")
    }
    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        new_line(w, !first, self.level)
    }
    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b": ")
    }
    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// `value` as pretty JSON ([`JsonFormatter`]) to `out`.
pub fn write_json_pretty<T: serde::Serialize + ?Sized>(
    out: &mut dyn std::io::Write,
    value: &T,
) -> serde_json::Result<()> {
    let formatter = JsonFormatter(Pretty::default());
    let mut out = buffered(out);
    let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
    value.serialize(&mut ser)?;
    std::io::Write::flush(&mut out).map_err(serde_json::Error::io)
}

/// `value` as compact JSON ([`JsonFormatter`]) to `out`.
pub fn write_json<T: serde::Serialize + ?Sized>(
    out: &mut dyn std::io::Write,
    value: &T,
) -> serde_json::Result<()> {
    let formatter = JsonFormatter(serde_json::ser::CompactFormatter);
    let mut ser = serde_json::Serializer::with_formatter(out, formatter);
    value.serialize(&mut ser)
}

#[cfg(test)]
mod json_tests {
    #[test]
    fn pretty_json_is_serde_jsons_at_every_depth() {
        let mut values = vec![
            serde_json::json!([]),
            serde_json::json!({}),
            serde_json::json!({"a": [], "b": {}, "c": [[], [{}]], "d": null}),
        ];
        // Wide: each level twice over, nine levels.
        let mut wide = serde_json::json!({"leaf": [1, {}, [], "x"]});
        for _ in 0..9 {
            wide = serde_json::json!({"k": wide.clone(), "l": [wide, 2]});
            values.push(wide.clone());
        }
        // Deep: 140 levels, past the 32 indented from one slice.
        let mut deep = serde_json::json!(1);
        for _ in 0..70 {
            deep = serde_json::json!({"n": [deep, {}], "e": []});
        }
        values.push(deep);
        for value in values {
            let mut out = Vec::new();
            super::write_json_pretty(&mut out, &value).expect("write");
            let expected = serde_json::to_string_pretty(&value).expect("serde_json");
            assert_eq!(String::from_utf8(out).expect("utf-8"), expected);
        }
    }

    #[test]
    fn json_escapes_every_control_and_stays_exact() {
        let value = "a\u{1b}[31m\u{7f}\u{9b}\u{2028}é\n";
        let mut out = Vec::new();
        super::write_json(&mut out, &value).expect("write");
        let text = String::from_utf8(out).expect("utf-8");
        assert_eq!(text, r#""a\u001b[31m\u007f\u009b\u2028é\n""#);
        let back: String = serde_json::from_str(&text).expect("parse");
        assert_eq!(back, value);
    }
}
