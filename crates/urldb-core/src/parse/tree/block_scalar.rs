//! A block scalar as PyYAML reads it.
//!
//! yaml-rust2 and PyYAML agree on a block scalar (`|`, `>`) that a line
//! break ends, but not at the end of the text or on one with no content
//! line: yaml-rust2 adds a line break PyYAML does not (`a: |` then the end
//! of the file is `""` for PyYAML, `"\n"` for yaml-rust2; `a: >+` then
//! `  x` without a final line break is `"x"` against `"x\n"`). So the
//! value is taken from the text, as PyYAML's `scan_block_scalar` takes it
//! (`yaml/scanner.py`): the header's chomping and indentation indicators,
//! the indentation (the indicator's, else the deepest of the leading blank
//! lines and the first line, and at least one more than the collection
//! that holds the scalar), then each line at that indentation, folded or
//! not, and the tail chomped. Line breaks are read as text mode gives them
//! to PyYAML: `\r\n` and a lone `\r` are one `\n`. NEL, LS and PS never get
//! here (`crate::parse::reader`). `yaml-syntax` asks the same lines where
//! PyYAML takes a tab.

/// A block scalar as PyYAML reads it.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Block {
    pub(crate) value: String,
    /// The text of each content line after its indentation, where PyYAML
    /// takes any character (a tab among them).
    pub(crate) content: Vec<std::ops::Range<usize>>,
}

/// The block scalar whose node starts at `start` (its first content
/// character, or its indicator when it has no content) in `text`;
/// `parent` is the column of the block collection that holds it (`None`
/// for a document's root). `None` when the header is not where a block
/// scalar's header is (the caller keeps the parser's reading).
pub(crate) fn read(text: &str, start: usize, parent: Option<usize>) -> Option<Block> {
    let bytes = text.as_bytes();
    let (indicator, header_end) = header(bytes, start)?;
    let folded = bytes[indicator] == b'>';
    let (chomping, increment) = indicators(&bytes[indicator + 1..header_end])?;
    let min_indent = parent.map_or(1, |p| p + 1);
    let mut at = Cursor {
        bytes,
        pos: header_end,
        column: 0,
    };
    let mut block = Block {
        value: String::new(),
        content: Vec::new(),
    };
    if !at.line_break() {
        // The header is the text's last line: nothing follows it.
        return Some(block);
    }
    let (mut breaks, indent) = match increment {
        Some(n) => {
            let indent = min_indent + n - 1;
            (at.breaks(indent), indent)
        }
        None => {
            let (breaks, deepest) = at.indentation();
            (breaks, min_indent.max(deepest))
        }
    };
    let out = &mut block.value;
    let mut line_break = false;
    while at.column == indent && at.pos < bytes.len() {
        out.extend(std::iter::repeat_n('\n', breaks));
        let leading_non_space = !matches!(at.peek(), Some(b' ' | b'\t'));
        let end =
            memchr::memchr2(b'\n', b'\r', &bytes[at.pos..]).map_or(bytes.len(), |i| at.pos + i);
        out.push_str(text.get(at.pos..end)?);
        block.content.push(at.pos..end);
        at.pos = end;
        line_break = at.line_break();
        breaks = at.breaks(indent);
        if at.column == indent && at.pos < bytes.len() {
            // PyYAML folds by the specification's rule, not the examples'.
            if folded && line_break && leading_non_space && !matches!(at.peek(), Some(b' ' | b'\t'))
            {
                if breaks == 0 {
                    out.push(' ');
                }
            } else if line_break {
                out.push('\n');
            }
        } else {
            break;
        }
    }
    if chomping != Some(false) && line_break {
        out.push('\n');
    }
    if chomping == Some(true) {
        out.extend(std::iter::repeat_n('\n', breaks));
    }
    Some(block)
}

/// Where the header's indicator (`|` or `>`) is, and where its line ends:
/// the line holding `start` when something precedes `start` on it, else the
/// last line before it that is not blank.
fn header(bytes: &[u8], start: usize) -> Option<(usize, usize)> {
    let line_of = |at: usize| memchr::memrchr2(b'\n', b'\r', &bytes[..at]).map_or(0, |i| i + 1);
    let blank = |line: &[u8]| line.iter().all(|&b| b == b' ' || b == b'\t');
    let start = start.min(bytes.len());
    let mut line_start = line_of(start);
    if blank(&bytes[line_start..start]) {
        loop {
            if line_start == 0 {
                return None;
            }
            // Back over the line break (CR LF is one).
            let mut end = line_start - 1;
            if bytes[end] == b'\n' && end > 0 && bytes[end - 1] == b'\r' {
                end -= 1;
            }
            line_start = line_of(end);
            if !blank(&bytes[line_start..end]) {
                break;
            }
        }
    }
    let line_end =
        memchr::memchr2(b'\n', b'\r', &bytes[line_start..]).map_or(bytes.len(), |i| line_start + i);
    // The first `|` or `>` that the rest of the line shows to be the
    // indicator: flags, then blanks, then nothing or a comment.
    (line_start..line_end)
        .filter(|&i| matches!(bytes[i], b'|' | b'>'))
        .find(|&i| {
            let rest = &bytes[i + 1..line_end];
            let flags = rest
                .iter()
                .take_while(|b| matches!(b, b'+' | b'-' | b'0'..=b'9'))
                .count();
            let after = &rest[flags..];
            let blanks = after
                .iter()
                .take_while(|b| matches!(b, b' ' | b'\t'))
                .count();
            flags <= 2 && (after.len() == blanks || (blanks > 0 && after[blanks] == b'#'))
        })
        .map(|i| (i, line_end))
}

/// The chomping (`Some(true)` keep, `Some(false)` strip, `None` clip) and
/// the indentation increment of a header's flags; `None` when PyYAML
/// refuses them (the parser has said so).
fn indicators(flags: &[u8]) -> Option<(Option<bool>, Option<usize>)> {
    let flags: Vec<u8> = flags
        .iter()
        .copied()
        .take_while(|b| matches!(b, b'+' | b'-' | b'0'..=b'9'))
        .collect();
    let chomp = |b: u8| match b {
        b'+' => Some(Some(true)),
        b'-' => Some(Some(false)),
        _ => None,
    };
    let digit = |b: u8| match b {
        b'1'..=b'9' => Some(usize::from(b - b'0')),
        _ => None,
    };
    match flags.as_slice() {
        [] => Some((None, None)),
        [a] => chomp(*a)
            .map(|c| (c, None))
            .or_else(|| Some((None, Some(digit(*a)?)))),
        [a, b] => match (chomp(*a), digit(*b), digit(*a), chomp(*b)) {
            (Some(c), Some(n), _, _) | (_, _, Some(n), Some(c)) => Some((c, Some(n))),
            _ => None,
        },
        _ => None,
    }
}

/// A place in the text, and its column when only spaces precede it on
/// its line.
struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
    column: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// Take one line break (`\r\n`, `\r` or `\n`); whether there was one.
    fn line_break(&mut self) -> bool {
        match self.peek() {
            Some(b'\r') => {
                self.pos += 1;
                if self.peek() == Some(b'\n') {
                    self.pos += 1;
                }
            }
            Some(b'\n') => self.pos += 1,
            _ => return false,
        }
        self.column = 0;
        true
    }

    fn space(&mut self) {
        self.pos += 1;
        self.column += 1;
    }

    /// PyYAML's `scan_block_scalar_indentation`: spaces and line breaks;
    /// how many breaks, and the deepest column reached.
    fn indentation(&mut self) -> (usize, usize) {
        let (mut breaks, mut deepest) = (0, 0);
        loop {
            match self.peek() {
                Some(b' ') => {
                    self.space();
                    deepest = deepest.max(self.column);
                }
                Some(b'\n' | b'\r') => {
                    self.line_break();
                    breaks += 1;
                }
                _ => return (breaks, deepest),
            }
        }
    }

    /// PyYAML's `scan_block_scalar_breaks`: spaces up to `indent`, and
    /// every line break with the spaces after it; how many breaks.
    fn breaks(&mut self, indent: usize) -> usize {
        let mut breaks = 0;
        while self.column < indent && self.peek() == Some(b' ') {
            self.space();
        }
        while self.line_break() {
            breaks += 1;
            while self.column < indent && self.peek() == Some(b' ') {
                self.space();
            }
        }
        breaks
    }
}

#[cfg(test)]
mod tests {
    use super::read;

    /// PyYAML 6.0.3's answers (`yaml.safe_load`), written down.
    #[test]
    fn values_as_pyyaml_reads_them() {
        let cases: &[(&str, usize, Option<usize>, &str)] = &[
            ("a: |\n", 3, Some(0), ""),
            ("a: |\n\n", 3, Some(0), ""),
            ("a: |+\n\n", 3, Some(0), "\n"),
            ("a: >+\n", 3, Some(0), ""),
            ("a: >2+\n  x", 9, Some(0), "x"),
            ("a: |\n  x\n", 7, Some(0), "x\n"),
            ("a: | # c\n\n  x\nb: 1\n", 12, Some(0), "\nx\n"),
            ("- >-\n\n  x", 8, Some(0), "\nx"),
            ("a: >\n  x\n  y\n\n  z\n", 7, Some(0), "x y\nz\n"),
            ("a: >\n  x\n   y\n  z\n", 7, Some(0), "x\n y\nz\n"),
            ("a: |+\n  x\n\n\n", 8, Some(0), "x\n\n\n"),
            ("a: |2-\r\n   x\r\n", 10, Some(0), " x"),
        ];
        for (text, start, parent, want) in cases {
            assert_eq!(
                read(text, *start, *parent).map(|b| b.value).as_deref(),
                Some(*want),
                "{text:?}"
            );
        }
    }
}
