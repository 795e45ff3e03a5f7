//! `--format full`: miette's graphical report — the source line, the
//! labelled span, the help and the rule code.
//!
//! miette is never given the file: each finding gets an [`Excerpt`], the
//! few lines its spans touch (and one line around them), with control
//! characters escaped and long lines cut around the span. Rendering a
//! finding costs the size of its excerpt, not of the file, and no column
//! miette is asked to draw is wider than a cut line.

use std::io::{self, Write};
use std::ops::Range;

use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteDiagnostic, MietteError,
    MietteSpanContents, SourceCode, SourceSpan, SpanContents,
};

use urldb_core::rules::diagnostic::{Finding, Severity};
use urldb_core::source::Source;
use urldb_core::text::{escape, escaped_width, push_escaped};
use urldb_store::database::FileResult;

/// A span that covers more lines than this is shown by its first line.
const MAX_SPAN_LINES: usize = 4;
/// A line longer than this (in shown characters) is cut around the span.
const MAX_LINE: usize = 160;
/// How much of a cut line is kept before the first span point on it.
const CUT_BEFORE: usize = 40;
/// How much of a cut line is kept in all (in characters of the file).
const CUT_KEEP: usize = 120;

pub(crate) fn write(out: &mut dyn Write, files: &[FileResult], color: bool) -> io::Result<()> {
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(100)
        .with_links(false)
        .with_break_words(false)
        .with_context_lines(1);
    for file in files {
        let source = &file.checked.source;
        let name = urldb_core::source::shown_path(&file.path);
        let (shown, more) = super::capped(&file.checked.findings);
        for f in shown {
            let text = render(&handler, &name, source, f);
            out.write_all(text.as_bytes())?;
            writeln!(out)?;
        }
        for (code, n) in more {
            writeln!(out, "{}", super::more_line(&name, code, n))?;
            writeln!(out)?;
        }
    }
    Ok(())
}

/// One finding as miette draws it, or as a plain snippet when it cannot.
fn render(handler: &GraphicalReportHandler, name: &str, source: &Source, f: &Finding) -> String {
    let excerpt = Excerpt::new(name, source, f);
    // The message is the heading; the label says what a fix would do.
    let label_text = f
        .fix
        .as_ref()
        .filter(|_| f.fixable())
        .map(|fix| format!("[*] {}", escape(&fix.title)));
    let mut labels = vec![LabeledSpan::new_primary_with_span(
        label_text,
        excerpt.spans[0],
    )];
    for ((_, text), span) in f.labels.iter().zip(&excerpt.spans[1..]) {
        labels.push(LabeledSpan::new_with_span(
            Some(escape(text).into_owned()),
            *span,
        ));
    }
    let mut diag = MietteDiagnostic::new(escape(&f.message).into_owned())
        .with_code(f.rule.code)
        .with_severity(match f.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
        .with_labels(labels);
    if let Some(help) = &f.help {
        diag = diag.with_help(escape(help).into_owned());
    }
    let with_source = WithSource {
        diag: &diag,
        source: &excerpt,
    };
    let mut text = String::new();
    if handler.render_report(&mut text, &with_source).is_err() {
        text = plain(name, source, f);
    }
    text
}

/// The fallback: `× message`, `at FILE:LINE:COL`, the line cut around the
/// span, the help.
fn plain(name: &str, source: &Source, f: &Finding) -> String {
    let (line, col) = source.line_col(f.span.start);
    let mut text = format!(
        "{} {}\n  × {}\n  at {name}:{line}:{col}\n",
        f.severity.as_str(),
        f.rule.code,
        escape(&f.message)
    );
    let start = f.span.start.min(source.text.len());
    let line0 = source.lines().line_of(start);
    let (shown, _) = cut_line(source, line0, &[start]);
    text.push_str("  | ");
    text.push_str(&shown);
    text.push('\n');
    if let Some(help) = &f.help {
        text.push_str(&format!("  help: {}\n", escape(help)));
    }
    text
}

/// The lines a finding's spans touch, escaped and cut, as miette's source.
#[derive(Debug)]
struct Excerpt {
    name: String,
    text: String,
    regions: Vec<Region>,
    /// The primary span, then one per secondary label, in excerpt offsets.
    spans: Vec<SourceSpan>,
    /// The primary span's start in the excerpt, and its column in the file
    /// (0-based, in characters), for the `[file:line:col]` header.
    primary: (usize, usize),
}

/// Consecutive lines of the file, kept in the excerpt.
#[derive(Debug)]
struct Region {
    /// Byte range in the excerpt's text.
    bytes: Range<usize>,
    /// The 0-based line number of its first line in the file.
    line0: usize,
}

impl Excerpt {
    fn new(name: &str, source: &Source, f: &Finding) -> Excerpt {
        let text = &source.text;
        if text.is_empty() {
            // A file not read (too large, too many documents): no lines.
            return Excerpt {
                name: name.to_string(),
                text: String::new(),
                regions: vec![Region {
                    bytes: 0..0,
                    line0: 0,
                }],
                spans: vec![SourceSpan::new(0.into(), 0); 1 + f.labels.len()],
                primary: (0, 0),
            };
        }
        let lines = source.lines();
        // The empty "line" after a final line break is not shown as one.
        let trailing_break = text.ends_with(['\n', '\r']);
        let last_line = lines
            .line_count()
            .saturating_sub(1 + usize::from(trailing_break));
        let clamp = |span: &Range<usize>| {
            let start = span.start.min(text.len());
            let mut end = span.end.clamp(start, text.len());
            let first = lines.line_of(start);
            if lines.line_of(end) > first + MAX_SPAN_LINES {
                end = line_end(text, lines, first).max(start);
            }
            start..end
        };
        let spans: Vec<Range<usize>> = std::iter::once(&f.span)
            .chain(f.labels.iter().map(|(s, _)| s))
            .map(clamp)
            .collect();
        // The lines to keep: each span's lines and one around them.
        let mut wanted: Vec<(usize, usize)> = spans
            .iter()
            .map(|s| {
                let end_line = lines.line_of(s.end);
                (
                    lines.line_of(s.start).saturating_sub(1),
                    (end_line + 1).min(last_line).max(end_line),
                )
            })
            .collect();
        wanted.sort_unstable();
        let mut merged: Vec<(usize, usize)> = Vec::new();
        for (a, b) in wanted {
            match merged.last_mut() {
                Some(last) if a <= last.1 + 1 => last.1 = last.1.max(b),
                _ => merged.push((a, b)),
            }
        }
        let mut points: Vec<usize> = spans.iter().flat_map(|s| [s.start, s.end]).collect();
        points.sort_unstable();
        points.dedup();
        let mut mapped: Vec<(usize, usize)> = Vec::with_capacity(points.len());
        let mut out = String::new();
        let mut regions = Vec::new();
        for (a, b) in merged {
            let start = out.len();
            for line0 in a..=b {
                let from = lines.line_start(line0);
                let to = line_end(text, lines, line0);
                let on_line: Vec<usize> = points
                    .iter()
                    .copied()
                    .filter(|&p| lines.line_of(p) == line0)
                    .map(|p| p.min(to))
                    .collect();
                let base = out.len();
                // A long line is cut around the primary span when it is on it.
                let anchor = (lines.line_of(spans[0].start) == line0).then_some(spans[0].start);
                let (shown, at) = cut_line_mapped(text, from..to, &on_line, anchor);
                out.push_str(&shown);
                out.push('\n');
                for (p, (_, pos)) in points
                    .iter()
                    .filter(|&&p| lines.line_of(p) == line0)
                    .zip(at)
                {
                    mapped.push((*p, base + pos));
                }
            }
            regions.push(Region {
                bytes: start..out.len(),
                line0: a,
            });
        }
        let map = |p: usize| {
            mapped
                .iter()
                .find(|(q, _)| *q == p)
                .map_or(0, |(_, at)| *at)
        };
        let spans: Vec<SourceSpan> = spans
            .iter()
            .map(|s| {
                let start = map(s.start);
                let end = map(s.end).max(start);
                SourceSpan::new(start.into(), end - start)
            })
            .collect();
        let (_, col) = source.line_col(f.span.start.min(text.len()));
        let primary = (spans[0].offset(), col.saturating_sub(1));
        Excerpt {
            name: name.to_string(),
            text: out,
            regions,
            spans,
            primary,
        }
    }
}

/// Where line `line0`'s text ends, before its line break.
fn line_end(text: &str, lines: &urldb_core::source::LineIndex, line0: usize) -> usize {
    let next = lines.line_start(line0 + 1).min(text.len());
    let from = lines.line_start(line0).min(next);
    let bytes = text.as_bytes();
    let mut end = next;
    if end > from && bytes[end - 1] == b'\n' {
        end -= 1;
    }
    if end > from && bytes[end - 1] == b'\r' {
        end -= 1;
    }
    end
}

/// Line `line0` as shown: escaped and cut around `points`.
fn cut_line(source: &Source, line0: usize, points: &[usize]) -> (String, Vec<usize>) {
    let lines = source.lines();
    let from = lines.line_start(line0).min(source.text.len());
    let to = line_end(&source.text, lines, line0);
    let points: Vec<usize> = points.iter().map(|&p| p.clamp(from, to)).collect();
    let (shown, at) = cut_line_mapped(&source.text, from..to, &points, None);
    (shown, at.into_iter().map(|(_, pos)| pos).collect())
}

/// The text of `line` (a byte range of `text` without its line break),
/// escaped, and cut to a window around `anchor` (else the first of
/// `points`, sorted byte offsets within the line) when it is long. Returns
/// the shown text and, for each point, its byte offset in it (points
/// outside the window stop at its edges).
fn cut_line_mapped(
    text: &str,
    line: Range<usize>,
    points: &[usize],
    anchor: Option<usize>,
) -> (String, Vec<(usize, usize)>) {
    let s = &text[line.clone()];
    let width: usize = s.chars().map(escaped_width).sum();
    let (keep_from, keep_to) = if width <= MAX_LINE {
        (0, s.len())
    } else {
        let anchor = anchor
            .or(points.first().copied())
            .map_or(0, |p| p.saturating_sub(line.start));
        let chars_before = s[..anchor.min(s.len())].chars().count();
        let first_char = chars_before.saturating_sub(CUT_BEFORE);
        let mut idx = s.char_indices().map(|(i, _)| i).skip(first_char);
        let from = idx.next().unwrap_or(s.len());
        let to = s[from..]
            .char_indices()
            .nth(CUT_KEEP)
            .map_or(s.len(), |(i, _)| from + i);
        (from, to)
    };
    let mut out = String::new();
    if keep_from > 0 {
        out.push('…');
    }
    let mut at = Vec::with_capacity(points.len());
    let mut next = 0;
    for (i, c) in s[keep_from..keep_to].char_indices() {
        let i = i + keep_from + line.start;
        while next < points.len() && points[next] <= i {
            at.push((points[next], out.len()));
            next += 1;
        }
        push_escaped(&mut out, c);
    }
    while next < points.len() {
        at.push((points[next], out.len()));
        next += 1;
    }
    if keep_to < s.len() {
        out.push('…');
    }
    (out, at)
}

impl SourceCode for Excerpt {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let offset = span.offset();
        let region = self
            .regions
            .iter()
            .find(|r| r.bytes.contains(&offset))
            .or_else(|| self.regions.iter().rev().find(|r| r.bytes.end == offset))
            .ok_or(MietteError::OutOfBounds)?;
        let slice = &self.text[region.bytes.clone()];
        let local_offset = offset - region.bytes.start;
        let local = SourceSpan::new(
            local_offset.into(),
            span.len().min(slice.len() - local_offset),
        );
        let contents = slice.read_span(&local, context_lines_before, context_lines_after)?;
        let column = if offset == self.primary.0 && context_lines_before == 0 {
            self.primary.1
        } else {
            contents.column()
        };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            contents.data(),
            SourceSpan::new(
                (contents.span().offset() + region.bytes.start).into(),
                contents.span().len(),
            ),
            contents.line() + region.line0,
            column,
            contents.line_count(),
        )))
    }
}

/// A diagnostic and the excerpt it points into.
#[derive(Debug)]
struct WithSource<'a> {
    diag: &'a MietteDiagnostic,
    source: &'a Excerpt,
}

impl std::fmt::Display for WithSource<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self.diag, f)
    }
}

impl std::error::Error for WithSource<'_> {}

impl miette::Diagnostic for WithSource<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        self.diag.code()
    }
    fn severity(&self) -> Option<miette::Severity> {
        self.diag.severity()
    }
    fn help<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        self.diag.help()
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.diag.labels()
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(self.source)
    }
}
