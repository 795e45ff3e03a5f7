//! Byte offsets (what findings carry) to and from LSP positions: a 0-based
//! line and a column counted in the encoding the client and the server
//! agreed on at `initialize` (UTF-16 code units unless the client offers
//! UTF-8, LSP 3.17 `general.positionEncodings`).
//!
//! Lines end at `\n`, `\r\n` or a lone `\r`, as both YAML and LSP see line
//! breaks ([`LineIndex`]). A position past the end of its line means the
//! line's end, a line past the last means the end of the text: a client's
//! out-of-range position is clamped, never an error.

use lsp_types::{Position, PositionEncodingKind, Range, TextEdit};

use urldb_core::source::LineIndex;

/// How columns are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Encoding {
    Utf8,
    Utf16,
}

impl Encoding {
    /// UTF-8 when the client offers it (no conversion), else the
    /// protocol's default, UTF-16.
    pub(crate) fn negotiate(offered: Option<&[PositionEncodingKind]>) -> Encoding {
        if offered.is_some_and(|list| list.contains(&PositionEncodingKind::UTF8)) {
            Encoding::Utf8
        } else {
            Encoding::Utf16
        }
    }

    pub(crate) fn kind(self) -> PositionEncodingKind {
        match self {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
        }
    }

    fn width(self, c: char) -> usize {
        match self {
            Encoding::Utf8 => c.len_utf8(),
            Encoding::Utf16 => c.len_utf16(),
        }
    }
}

/// A text and its line table, for converting many positions.
pub(crate) struct Positions<'a> {
    text: &'a str,
    lines: LineIndex,
    encoding: Encoding,
}

impl<'a> Positions<'a> {
    pub(crate) fn new(text: &'a str, encoding: Encoding) -> Self {
        Positions {
            text,
            lines: LineIndex::new(text),
            encoding,
        }
    }

    /// The position of a byte offset (clamped to the text, and moved back
    /// to the start of the character it falls in).
    pub(crate) fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.lines.line_of(offset);
        let start = self.lines.line_start(line);
        let head = self.text.get(start..offset).unwrap_or_default();
        let character = match self.encoding {
            Encoding::Utf8 => head.len(),
            Encoding::Utf16 => head.encode_utf16().count(),
        };
        Position {
            line: saturate(line),
            character: saturate(character),
        }
    }

    pub(crate) fn range(&self, span: &std::ops::Range<usize>) -> Range {
        Range {
            start: self.position(span.start),
            end: self.position(span.end.max(span.start)),
        }
    }

    /// The whole text, for a whole-document edit.
    pub(crate) fn all(&self) -> Range {
        self.range(&(0..self.text.len()))
    }

    /// The byte offset of a position, clamped: past the line's end is the
    /// line's end (before its line break), past the last line is the end
    /// of the text, inside a character is that character's start.
    pub(crate) fn offset(&self, position: Position) -> usize {
        let line = position.line as usize;
        if line >= self.lines.line_count() {
            return self.text.len();
        }
        let start = self.lines.line_start(line);
        let next = if line + 1 < self.lines.line_count() {
            self.lines.line_start(line + 1)
        } else {
            self.text.len()
        };
        let content = self.text.get(start..next).unwrap_or_default();
        let content = content
            .strip_suffix("\r\n")
            .or_else(|| content.strip_suffix('\n'))
            .or_else(|| content.strip_suffix('\r'))
            .unwrap_or(content);
        let wanted = position.character as usize;
        let mut units = 0;
        for (byte, c) in content.char_indices() {
            let width = self.encoding.width(c);
            if units + width > wanted {
                return start + byte;
            }
            units += width;
        }
        start + content.len()
    }

    /// The line (0-based) holding a byte offset, and where it starts.
    pub(crate) fn line_of(&self, offset: usize) -> (usize, usize) {
        let line = self.lines.line_of(offset.min(self.text.len()));
        (line, self.lines.line_start(line))
    }
}

fn saturate(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// One edit replacing the whole text.
pub(crate) fn replace_all(pos: &Positions, new_text: String) -> TextEdit {
    TextEdit {
        range: pos.all(),
        new_text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(line: u32, character: u32) -> Position {
        Position { line, character }
    }

    #[test]
    fn columns_follow_the_negotiated_encoding() {
        // `😀` is 4 bytes, 2 UTF-16 code units; `é` 2 bytes, 1 unit.
        let text = "a: é\n_path: /😀/a%7e\r\nz\rlast";
        let percent = text.find('%').expect("a percent sign");
        let utf16 = Positions::new(text, Encoding::Utf16);
        let utf8 = Positions::new(text, Encoding::Utf8);
        assert_eq!(utf16.position(percent), pos(1, 12));
        assert_eq!(utf8.position(percent), pos(1, 14));
        assert_eq!(utf16.offset(pos(1, 12)), percent);
        assert_eq!(utf8.offset(pos(1, 14)), percent);
        // Lone CR and CRLF both end a line.
        assert_eq!(utf16.position(text.len()), pos(3, 4));
        assert_eq!(utf16.offset(pos(2, 0)), text.find("z\r").expect("z"));
    }

    #[test]
    fn out_of_range_positions_are_clamped() {
        let text = "ab\r\ncd";
        let p = Positions::new(text, Encoding::Utf16);
        // Past the end of a line: its end, before the line break.
        assert_eq!(p.offset(pos(0, 99)), 2);
        // Past the last line: the end of the text.
        assert_eq!(p.offset(pos(99, 0)), text.len());
        // Inside a surrogate pair: the character's start.
        let emoji = Positions::new("😀x", Encoding::Utf16);
        assert_eq!(emoji.offset(pos(0, 1)), 0);
        assert_eq!(emoji.offset(pos(0, 2)), 4);
        // An offset inside a character, or past the end, is clamped too.
        assert_eq!(emoji.position(2), pos(0, 0));
        assert_eq!(emoji.position(99), pos(0, 3));
    }
}
