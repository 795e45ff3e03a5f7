//! Text in XML (JUnit reports of `check` and `verify`).

use std::fmt::Write as _;

use urldb_core::text::{needs_escape, push_escaped};

/// Escape text for an XML attribute or element. Tab, line feed and
/// carriage return become character references (the exact value, and no
/// line of the document starts with data); DEL, C1 controls and the other
/// characters [`needs_escape`] names become references too;
/// characters XML 1.0 cannot hold at all (other C0 controls, U+FFFE,
/// U+FFFF) become a visible escape such as `\x01`. (Also used by `verify
/// --format junit`.)
pub fn xml(s: &str) -> String {
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
