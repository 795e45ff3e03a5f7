//! One line of a history file, and how it is read.
//!
//! A history holds a line per URL per run and is read on every run, so
//! the lines urldb writes itself are read by a recognizer of exactly that
//! shape (the fields in their order, strings without escapes, plain
//! numbers), about twice as fast as serde_json (`docs/dev/performance.md`,
//! "`urldb verify --history`"). Every other line, edited by hand or
//! written by another tool, is read by serde_json; a line the recognizer
//! accepts is valid JSON that serde_json reads to the same values (a
//! property test below holds it to that).

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::trend::Verdict;

/// One line of a history file, as written: one URL in one run. (Read
/// back, only its [`Key`] is needed.)
#[derive(Debug, Serialize)]
pub struct Line<'a> {
    pub run: &'a str,
    /// The run's start time, RFC 3339 in UTC: runs are ordered by it.
    pub started: &'a str,
    pub url: &'a str,
    pub file: &'a str,
    pub line: usize,
    /// When this URL was checked, RFC 3339 in UTC (the run's start time).
    pub time: &'a str,
    pub status: Option<u16>,
    pub verdict: Verdict,
    pub reason: Option<&'a str>,
    pub ms: u64,
}

impl Line<'_> {
    /// Add this line, as serde_json writes it, and a newline to `out`.
    /// A run writes a line per URL while its report waits, so this is
    /// the shape [`as_written`] reads written directly, about three times
    /// as fast as through serde; any string that needs an escape goes to
    /// serde_json (a property test below holds the two to the same bytes).
    pub fn write_to(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"run\":");
        string(out, self.run);
        out.extend_from_slice(b",\"started\":");
        string(out, self.started);
        out.extend_from_slice(b",\"url\":");
        string(out, self.url);
        out.extend_from_slice(b",\"file\":");
        string(out, self.file);
        out.extend_from_slice(b",\"line\":");
        number(out, self.line as u64);
        out.extend_from_slice(b",\"time\":");
        string(out, self.time);
        out.extend_from_slice(b",\"status\":");
        match self.status {
            Some(status) => number(out, u64::from(status)),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(match self.verdict {
            Verdict::Ok => b",\"verdict\":\"ok\"",
            Verdict::Broken => b",\"verdict\":\"broken\"",
            Verdict::Skipped => b",\"verdict\":\"skipped\"",
        });
        out.extend_from_slice(b",\"reason\":");
        match self.reason {
            Some(reason) => string(out, reason),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"ms\":");
        number(out, self.ms);
        out.extend_from_slice(b"}\n");
    }
}

/// A JSON string: as it is when nothing in it needs an escape, else
/// escaped by serde_json.
fn string(out: &mut Vec<u8>, text: &str) {
    if text.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20) {
        // Writing to a Vec cannot fail.
        let _ = serde_json::to_writer(&mut *out, text);
    } else {
        out.push(b'"');
        out.extend_from_slice(text.as_bytes());
        out.push(b'"');
    }
}

/// An unsigned integer in decimal.
fn number(out: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[at..]);
}

/// What a reader needs of a [`Line`]: its run, when the run started, the
/// URL and its verdict. The other fields are for people and other tools:
/// they are skipped (still checked to be JSON) and kept as written.
#[derive(Debug, PartialEq, Deserialize)]
pub(crate) struct Key<'a> {
    #[serde(borrow)]
    pub run: Cow<'a, str>,
    #[serde(borrow)]
    pub started: Cow<'a, str>,
    #[serde(borrow)]
    pub url: Cow<'a, str>,
    pub verdict: Verdict,
}

/// Read what a reader needs of one line.
pub(super) fn key(raw: &[u8]) -> Result<Key<'_>, serde_json::Error> {
    match as_written(raw) {
        Some(key) => Ok(key),
        None => serde_json::from_slice(raw),
    }
}

/// A line exactly as [`Line`] is serialized with no string needing an
/// escape; `None` for anything else. Outside its strings such a line is
/// ASCII compared byte for byte, so only the strings are checked to be
/// UTF-8.
fn as_written(raw: &[u8]) -> Option<Key<'_>> {
    let mut s = Scan { rest: raw };
    s.literal(b"{\"run\":")?;
    let run = s.string()?;
    s.literal(b",\"started\":")?;
    let started = s.string()?;
    s.literal(b",\"url\":")?;
    let url = s.string()?;
    s.literal(b",\"file\":")?;
    s.string()?;
    s.literal(b",\"line\":")?;
    s.number()?;
    s.literal(b",\"time\":")?;
    s.string()?;
    s.literal(b",\"status\":")?;
    if s.literal(b"null").is_none() {
        s.number()?;
    }
    s.literal(b",\"verdict\":")?;
    let verdict = match s.string()? {
        "ok" => Verdict::Ok,
        "broken" => Verdict::Broken,
        "skipped" => Verdict::Skipped,
        _ => return None,
    };
    s.literal(b",\"reason\":")?;
    if s.literal(b"null").is_none() {
        s.string()?;
    }
    s.literal(b",\"ms\":")?;
    s.number()?;
    s.literal(b"}")?;
    if !s.rest.is_empty() {
        return None;
    }
    Some(Key {
        run: Cow::Borrowed(run),
        started: Cow::Borrowed(started),
        url: Cow::Borrowed(url),
        verdict,
    })
}

/// What is left of a line being recognized.
struct Scan<'a> {
    rest: &'a [u8],
}

impl<'a> Scan<'a> {
    fn literal(&mut self, text: &[u8]) -> Option<()> {
        self.rest = self.rest.strip_prefix(text)?;
        Some(())
    }

    /// A JSON string with no escape (so no `\`) and no control character
    /// (which JSON forbids unescaped), in UTF-8.
    fn string(&mut self) -> Option<&'a str> {
        let body = self.rest.strip_prefix(b"\"")?;
        let end = memchr::memchr(b'"', body)?;
        let text = &body[..end];
        // Every byte looked at, with no early way out: a loop the compiler
        // runs on many bytes at once.
        let plain = text
            .iter()
            .fold(true, |plain, &b| plain & (b != b'\\') & (b >= 0x20));
        if !plain {
            return None;
        }
        self.rest = &body[end + 1..];
        std::str::from_utf8(text).ok()
    }

    /// A JSON number as serde writes an unsigned integer: `0`, or digits
    /// not starting with `0`.
    fn number(&mut self) -> Option<()> {
        let digits = self.rest.iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 || (digits > 1 && self.rest.first() == Some(&b'0')) {
            return None;
        }
        self.rest = &self.rest[digits..];
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn written(line: &Line<'_>) -> Vec<u8> {
        serde_json::to_vec(line).expect("serialize")
    }

    fn line<'a>(url: &'a str, reason: Option<&'a str>, status: Option<u16>) -> Line<'a> {
        Line {
            run: "ci-1",
            started: "2026-11-23T05:00:00.000Z",
            url,
            file: "example.com.yaml",
            line: 12,
            time: "2026-11-23T05:00:00.000Z",
            status,
            verdict: Verdict::Broken,
            reason,
            ms: 0,
        }
    }

    #[test]
    fn urldbs_own_lines_are_recognized() {
        for l in [
            line("http://example.com/a", Some("HTTP 404"), Some(404)),
            line("http://example.com/é", None, None),
        ] {
            let raw = written(&l);
            let key = as_written(&raw).expect("recognized");
            assert_eq!(key.url, l.url);
            assert_eq!(key, serde_json::from_slice::<Key<'_>>(&raw).expect("json"));
        }
    }

    #[test]
    fn lines_needing_escapes_or_other_layouts_go_to_serde_json() {
        let escaped = written(&line("http://example.com/\"q\"", None, None));
        assert!(as_written(&escaped).is_none());
        assert_eq!(key(&escaped).expect("json").url, "http://example.com/\"q\"");
        let spaced = String::from_utf8(written(&line("http://a/", None, None)))
            .expect("utf-8")
            .replace(",\"url\"", ", \"url\"");
        assert!(as_written(spaced.as_bytes()).is_none());
        assert_eq!(key(spaced.as_bytes()).expect("json").url, "http://a/");
    }

    /// The recognizer agrees with serde_json on a line (it accepts only
    /// what serde_json reads to the same key).
    fn agrees(raw: &[u8]) -> Result<(), String> {
        match as_written(raw) {
            None => Ok(()),
            Some(fast) => match serde_json::from_slice::<Key<'_>>(raw) {
                Ok(slow) if slow == fast => Ok(()),
                other => Err(format!(
                    "{:?}: recognized as {fast:?}, serde_json: {other:?}",
                    String::from_utf8_lossy(raw)
                )),
            },
        }
    }

    /// The bytes that mean something in JSON, and some that must not
    /// appear unescaped.
    const MEANINGFUL: &[u8] = b"\"\\{}[]:,0123456789-+.eEnul \t\x01\x7f";

    #[test]
    fn every_one_byte_edit_of_a_line_is_read_as_serde_json_reads_it() {
        let raw = written(&line("http://example.com/a", Some("HTTP 500"), Some(500)));
        for i in 0..=raw.len() {
            let mut edits = Vec::new();
            if i < raw.len() {
                let mut removed = raw.clone();
                removed.remove(i);
                edits.push(removed);
            }
            for &b in MEANINGFUL {
                let mut inserted = raw.clone();
                inserted.insert(i, b);
                edits.push(inserted);
                if i < raw.len() {
                    let mut replaced = raw.clone();
                    replaced[i] = b;
                    edits.push(replaced);
                }
            }
            for edit in edits {
                if let Err(e) = agrees(&edit) {
                    panic!("{e}");
                }
            }
        }
    }

    /// Any byte, half the time one that means something in JSON.
    fn byte() -> impl Strategy<Value = u8> {
        prop_oneof![any::<u8>(), prop::sample::select(MEANINGFUL.to_vec()),]
    }

    /// [`Line::write_to`]'s bytes (without the newline).
    fn written_directly(line: &Line<'_>) -> Vec<u8> {
        let mut out = Vec::new();
        line.write_to(&mut out);
        assert_eq!(out.pop(), Some(b'\n'));
        out
    }

    #[test]
    fn lines_are_written_as_serde_json_writes_them() {
        for l in [
            line("http://example.com/a", Some("HTTP 404"), Some(404)),
            line("http://example.com/\"q\"\\\u{1}\u{7f}é", None, None),
            Line {
                line: usize::MAX,
                ms: u64::MAX,
                verdict: Verdict::Skipped,
                ..line("", Some(""), Some(0))
            },
            Line {
                line: 0,
                verdict: Verdict::Ok,
                ..line("x", Some("a\nb"), Some(u16::MAX))
            },
        ] {
            assert_eq!(
                String::from_utf8_lossy(&written_directly(&l)),
                String::from_utf8_lossy(&written(&l))
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2048))]
        /// Any field values: the same bytes as serde_json's.
        #[test]
        fn any_line_is_written_as_serde_json_writes_it(
            texts in proptest::collection::vec("[\u{0}-\u{7f}\u{80}-\u{10ffff}]{0,8}", 5),
            reason in proptest::option::of("[\u{0}-\u{7f}é]{0,8}"),
            numbers in (any::<usize>(), any::<u64>(), proptest::option::of(any::<u16>())),
            verdict in prop::sample::select(vec![Verdict::Ok, Verdict::Broken, Verdict::Skipped]),
        ) {
            let l = Line {
                run: &texts[0],
                started: &texts[1],
                url: &texts[2],
                file: &texts[3],
                line: numbers.0,
                time: &texts[4],
                status: numbers.2,
                verdict,
                reason: reason.as_deref(),
                ms: numbers.1,
            };
            prop_assert_eq!(written_directly(&l), written(&l));
        }

        /// Whatever the recognizer accepts, serde_json reads alike: a
        /// written line with bytes changed, put in or taken out.
        #[test]
        fn recognized_lines_read_as_serde_json_reads_them(
            url in "[ -~\u{80}-\u{10ffff}]{0,12}",
            status in proptest::option::of(any::<u16>()),
            edits in proptest::collection::vec((any::<prop::sample::Index>(), 0u8..3, byte()), 0..4),
        ) {
            let mut raw = written(&line(&url, Some("HTTP 500"), status));
            for (at, what, byte) in edits {
                let i = at.index(raw.len() + 1);
                match what {
                    0 if i < raw.len() => raw[i] = byte,
                    1 => raw.insert(i, byte),
                    _ if i < raw.len() => { raw.remove(i); }
                    _ => {}
                }
            }
            prop_assert!(agrees(&raw).is_ok(), "{:?}", agrees(&raw));
        }
    }
}
