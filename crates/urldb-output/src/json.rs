//! JSON as urldb prints it: serde_json's, with every character a
//! terminal could obey escaped (`docs/output.md`).

use urldb_core::text::needs_escape;

/// A JSON formatter that also writes DEL, C1 controls and the other
/// characters [`needs_escape`] names as `\uXXXX` (serde_json escapes only
/// C0 controls): the value stays exact, and no raw control character
/// reaches a terminal that shows the JSON.
struct JsonFormatter<F>(F);

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
mod tests {
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
