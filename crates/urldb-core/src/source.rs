//! The text of one domain file and the table that turns byte offsets into
//! lines and columns.
//!
//! Findings carry byte ranges; only the reporting layer asks for lines and
//! columns, so the conversion lives here, next to the text it describes.

use std::ops::Range;
use std::path::{Path, PathBuf};

/// A path as urldb names it: with `/` separators, otherwise exact (for
/// machine formats, which escape it their own way, and for messages,
/// which are escaped when printed). Every format spells a path this way on
/// every system, as git does (`docs/output.md`): on Windows `\` becomes
/// `/`; elsewhere a `\` is a character of the name and stays.
pub fn display_path(path: &std::path::Path) -> String {
    let s = path.to_string_lossy();
    let s = if std::path::MAIN_SEPARATOR == '\\' {
        std::borrow::Cow::Owned(s.replace('\\', "/"))
    } else {
        s
    };
    match s.strip_prefix("./") {
        Some(rest) => rest.to_owned(),
        None => s.into_owned(),
    }
}

/// A path as human output shows it: [`display_path`], with control
/// characters escaped ([`crate::text::path_text`]), and `.` for the empty
/// path (the current folder). The one function a name from the repository
/// (a file's, a folder's) goes through before a terminal: a folder named
/// with ESC, BEL or CR (an OSC 52 sequence sets the clipboard) reaches it
/// as `\x1b`, `\x07`, `\r` (`docs/security.md` §7).
pub fn shown_path(path: &std::path::Path) -> String {
    let shown = display_path(path);
    if shown.is_empty() {
        ".".to_string()
    } else {
        crate::text::path_text(&shown)
    }
}

/// A byte range into a [`Source`]'s text.
pub type Span = Range<usize>;

/// One domain file as read from disk (or stdin, or the git index).
#[derive(Debug, Clone)]
pub struct Source {
    /// The path as the user should see it (relative to where urldb runs).
    pub path: PathBuf,
    /// The text. Invalid UTF-8 is replaced (U+FFFD) so that a report can
    /// still show the file; the `invalid-utf8` finding says where.
    pub text: String,
    /// Built on first use: a clean file never needs it.
    lines: std::sync::OnceLock<LineIndex>,
}

impl Source {
    pub fn new(path: impl Into<PathBuf>, text: String) -> Self {
        Source {
            path: path.into(),
            text,
            lines: std::sync::OnceLock::new(),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn lines(&self) -> &LineIndex {
        self.lines.get_or_init(|| LineIndex::new(&self.text))
    }

    /// 1-based line and 1-based column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        self.lines().line_col(&self.text, offset)
    }
}

/// Byte offsets of the start of every line. A line ends at `\n`, at `\r\n`
/// or at a lone `\r`, as YAML sees line breaks.
#[derive(Debug, Clone)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\n' => starts.push(i + 1),
                b'\r' if bytes.get(i + 1) != Some(&b'\n') => starts.push(i + 1),
                _ => {}
            }
            i += 1;
        }
        LineIndex { starts }
    }

    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// Byte offset where 0-based line `line0` starts.
    pub fn line_start(&self, line0: usize) -> usize {
        self.starts.get(line0).copied().unwrap_or(usize::MAX)
    }

    /// 0-based line holding `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        match self.starts.binary_search(&offset) {
            Ok(line) => line,
            Err(next) => next - 1,
        }
    }

    pub fn line_col(&self, text: &str, offset: usize) -> (usize, usize) {
        let offset = offset.min(text.len());
        let line = self.line_of(offset);
        let start = self.starts[line];
        let col = text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count());
        (line + 1, col + 1)
    }

    /// Byte offset of a 1-based line and 0-based character column (as a
    /// yaml-rust2 marker gives them), clamped to the text. The marker's own
    /// `index()` counts characters and drifts after block scalars, so it is
    /// never used.
    pub fn offset(&self, text: &str, line: usize, col: usize) -> usize {
        let Some(&start) = self.starts.get(line.saturating_sub(1)) else {
            return text.len();
        };
        let rest = &text[start..];
        // Most lines are ASCII: the column is the byte count.
        let head = &rest.as_bytes()[..col.min(rest.len())];
        if head.is_ascii() {
            return start + head.len();
        }
        start
            + rest
                .char_indices()
                .nth(col)
                .map_or(rest.len(), |(byte, _)| byte)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_characters_not_bytes() {
        let text = "a: é\nb: x\r\nc\rd";
        let s = Source::new("x.yaml", text.to_string());
        let offset = |line, col| s.lines().offset(&s.text, line, col);
        assert_eq!(offset(1, 3), 3);
        assert_eq!(offset(1, 4), 5);
        assert_eq!(offset(2, 0), 6);
        assert_eq!(offset(3, 0), 12);
        assert_eq!(offset(4, 0), 14);
        assert_eq!(s.line_col(5), (1, 5));
        assert_eq!(s.line_col(12), (3, 1));
    }
}
