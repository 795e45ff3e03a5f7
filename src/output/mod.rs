//! Turning findings into output. The only layer that knows about lines,
//! columns and miette; every format reads the same [`Located`] findings.

pub(crate) mod changes;
pub(crate) mod concise;
pub(crate) mod full;
pub(crate) mod github;
pub(crate) mod json;
pub(crate) mod junit;
pub(crate) mod sarif;

use std::collections::BTreeMap;
use std::io::{self, Write};

use urldb_core::rules::diagnostic::{Finding, Severity};
use urldb_core::source::display_path;
use urldb_store::database::FileResult;

/// Output formats of `check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Format {
    /// Source snippets with labelled spans and help (the default, on a terminal or not).
    Full,
    /// One line per finding: `path:line:col: code message`.
    Concise,
    /// A JSON array of findings.
    Json,
    /// GitHub Actions workflow commands (annotations on the pull request).
    Github,
    /// JUnit XML, one failed test case per finding.
    Junit,
    /// SARIF 2.1.0, for code-scanning services.
    Sarif,
}

/// A finding with its position in lines and columns (1-based, columns in
/// characters), computed once for every output format.
#[derive(Debug, serde::Serialize)]
pub(crate) struct Located<'a> {
    pub path: String,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
    pub code: &'static str,
    pub severity: Severity,
    pub message: &'a str,
    pub help: Option<&'a str>,
    pub fixable: bool,
    #[serde(skip)]
    pub finding: &'a Finding,
}

/// Every finding of `file`, located. Findings are in file order, so two
/// cursors (starts, ends) walk forward along each line: many findings on
/// one long line cost the line once, not once per finding.
pub(crate) fn locate(file: &FileResult) -> Vec<Located<'_>> {
    locate_in(file, &file.checked.findings)
}

/// `findings` (in file order) of `file`, located: its findings, or those
/// a suppression comment excused.
pub(crate) fn locate_in<'a>(
    file: &'a FileResult,
    findings: impl IntoIterator<Item = &'a Finding>,
) -> Vec<Located<'a>> {
    let source = &file.checked.source;
    let path = display_path(&file.path);
    let mut starts = Cursor::new(source);
    let mut ends = Cursor::new(source);
    findings
        .into_iter()
        .map(|f| {
            Located::new(
                path.clone(),
                starts.line_col(f.span.start),
                ends.line_col(f.span.end),
                f,
            )
        })
        .collect()
}

/// [`urldb_core::source::Source::line_col`] for offsets that mostly go forward: the column of
/// the last offset is kept, and a later offset on the same line counts
/// only the characters in between.
struct Cursor<'a> {
    source: &'a urldb_core::source::Source,
    /// 0-based line, byte offset, and its 1-based column; `None` at first.
    at: Option<(usize, usize, usize)>,
}

impl<'a> Cursor<'a> {
    fn new(source: &'a urldb_core::source::Source) -> Self {
        Cursor { source, at: None }
    }

    fn line_col(&mut self, offset: usize) -> (usize, usize) {
        let text = &self.source.text;
        let offset = offset.min(text.len());
        let line0 = self.source.lines().line_of(offset);
        let column = match self.at {
            Some((line, from, column)) if line == line0 && from <= offset => {
                column
                    + text
                        .get(from..offset)
                        .map_or(offset - from, |s| s.chars().count())
            }
            _ => self.source.line_col(offset).1,
        };
        self.at = Some((line0, offset, column));
        (line0 + 1, column)
    }
}

/// One finding of `file`, located.
pub(crate) fn locate_one<'a>(file: &'a FileResult, f: &'a Finding) -> Located<'a> {
    let source = &file.checked.source;
    Located::new(
        display_path(&file.path),
        source.line_col(f.span.start),
        source.line_col(f.span.end),
        f,
    )
}

impl<'a> Located<'a> {
    /// `f` at its (line, column) start and end, in the file shown as `path`.
    fn new(
        path: String,
        (line, column): (usize, usize),
        (end_line, end_column): (usize, usize),
        f: &'a Finding,
    ) -> Self {
        Located {
            path,
            line,
            column,
            end_line,
            end_column,
            code: f.rule.code,
            severity: f.severity,
            message: &f.message,
            help: f.help.as_deref(),
            fixable: f.fixable(),
            finding: f,
        }
    }
}

/// The human formats (`full`, `concise`) show at most this many findings
/// of one rule in one file; one line counts the rest. Machine formats
/// list every finding. (A cross-file finding lists as many other files.)
pub(crate) use urldb_core::rules::SHOWN_PER_RULE;

/// The findings a human format shows (in order), and for each rule with
/// more than [`SHOWN_PER_RULE`] findings in the file, how many are not
/// shown (in the order the rules were first cut).
pub(crate) fn capped(findings: &[Finding]) -> (Vec<&Finding>, Vec<(&'static str, usize)>) {
    let mut seen: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut shown = Vec::new();
    let mut order = Vec::new();
    for f in findings {
        let n = seen.entry(f.rule.code).or_insert(0);
        *n += 1;
        if *n <= SHOWN_PER_RULE {
            shown.push(f);
        } else if *n == SHOWN_PER_RULE + 1 {
            order.push(f.rule.code);
        }
    }
    let more = order
        .into_iter()
        .map(|code| (code, seen.get(code).copied().unwrap_or(0) - SHOWN_PER_RULE))
        .collect();
    (shown, more)
}

/// The line that stands for the findings a human format does not show.
pub(crate) fn more_line(shown_path: &str, code: &str, n: usize) -> String {
    format!(
        "{shown_path}: … and {} more `{code}` finding{} in this file (all of them in `--format json`)",
        urldb_core::text::thousands(n),
        plural(n)
    )
}

/// Counts for the summary line and the exit code.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Counts {
    pub errors: usize,
    pub warnings: usize,
    pub fixable: usize,
    pub files: usize,
    /// Findings a suppression comment or `[lint.per-file-ignores]`
    /// excused (`check --no-suppressions` shows them).
    pub excused: usize,
}

impl Counts {
    pub(crate) fn of(files: &[FileResult]) -> Counts {
        let mut c = Counts::default();
        for file in files {
            if !file.checked.findings.is_empty() {
                c.files += 1;
            }
            c.excused += file.checked.suppressed.len();
            for f in &file.checked.findings {
                match f.severity {
                    Severity::Error => c.errors += 1,
                    Severity::Warning => c.warnings += 1,
                }
                c.fixable += usize::from(f.fixable());
            }
        }
        c
    }

    pub(crate) fn total(&self) -> usize {
        self.errors + self.warnings
    }
}

/// Write the findings of `files` in `format`.
pub(crate) fn write<W: Write>(
    out: &mut urldb_output::gate::Gate<W>,
    format: Format,
    files: &[FileResult],
    color: bool,
) -> io::Result<()> {
    match format {
        Format::Full => full::write(out, files, color),
        Format::Concise => concise::write(out, files),
        Format::Json => json::write(out, files),
        Format::Github => github::write(out, files, &github::annotation_root()),
        Format::Junit => junit::write(out, files),
        Format::Sarif => sarif::write(out, files),
    }
}

/// `--statistics`: how many findings per code.
pub(crate) fn statistics(out: &mut dyn Write, files: &[FileResult]) -> io::Result<()> {
    let mut counts: BTreeMap<&'static str, (usize, bool, &'static str)> = BTreeMap::new();
    for file in files {
        for f in &file.checked.findings {
            let entry = counts
                .entry(f.rule.code)
                .or_insert((0, false, f.rule.summary));
            entry.0 += 1;
            entry.1 |= f.fixable();
        }
    }
    let mut rows: Vec<_> = counts.into_iter().collect();
    rows.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(a.0.cmp(b.0)));
    let width = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    for (code, (n, fixable, summary)) in rows {
        let mark = if fixable { "[*]" } else { "   " };
        writeln!(out, "{n:>5}  {code:<width$}  {mark} {summary}")?;
    }
    Ok(())
}

/// The closing lines of a `check` run. `unchecked`: files that could not
/// be read; `unwritten`: files whose fixes could not be written (their
/// errors are above, on stderr): a run with any is never reported as
/// passed. `fix_command`: what fixes this run's files (`urldb check --fix
/// --staged` for the index).
pub(crate) fn summary(
    out: &mut dyn Write,
    counts: Counts,
    fixed: usize,
    unchecked: usize,
    unwritten: usize,
    fix_command: &str,
) -> io::Result<()> {
    if fixed > 0 {
        writeln!(out, "Fixed {fixed} finding{}.", plural(fixed))?;
    }
    if unchecked > 0 {
        writeln!(
            out,
            "{} could not be checked (see the errors above).",
            plural_word(unchecked, "file")
        )?;
    }
    if unwritten > 0 {
        writeln!(
            out,
            "{} could not be fixed: nothing was written to {} (see the errors above).",
            plural_word(unwritten, "file"),
            if unwritten == 1 { "it" } else { "them" }
        )?;
    }
    let unchecked = unchecked + unwritten;
    if counts.total() == 0 {
        if fixed == 0 && unchecked == 0 && counts.excused > 0 {
            writeln!(out, "All checks passed; {}", excused_note(counts.excused))?;
        } else if fixed == 0 && unchecked == 0 {
            writeln!(out, "All checks passed.")?;
        } else if counts.excused > 0 {
            writeln!(out, "{}", capitalize(&excused_note(counts.excused)))?;
        }
        return Ok(());
    }
    let mut parts = Vec::new();
    if counts.errors > 0 {
        parts.push(format!("{} error{}", counts.errors, plural(counts.errors)));
    }
    if counts.warnings > 0 {
        parts.push(format!(
            "{} warning{}",
            counts.warnings,
            plural(counts.warnings)
        ));
    }
    let excused = if counts.excused > 0 {
        format!("; {}", excused_count(counts.excused))
    } else {
        ".".to_string()
    };
    writeln!(
        out,
        "Found {} ({}) in {} file{}{excused}",
        plural_word(counts.total(), "finding"),
        parts.join(", "),
        counts.files,
        plural(counts.files)
    )?;
    if counts.fixable > 0 {
        writeln!(out, "[*] {} fixable with `{fix_command}`.", counts.fixable)?;
    }
    Ok(())
}

/// How many findings suppressions excused, and how to see them:
/// "3 findings excused by suppressions (`--no-suppressions` shows them)."
pub(crate) fn excused_note(n: usize) -> String {
    format!(
        "{} excused by suppressions (`--no-suppressions` shows {}).",
        plural_word(n, "finding"),
        if n == 1 { "it" } else { "them" }
    )
}

/// [`excused_note`] after a count of findings: "3 excused by …".
fn excused_count(n: usize) -> String {
    format!(
        "{n} excused by suppressions (`--no-suppressions` shows {}).",
        if n == 1 { "it" } else { "them" }
    )
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn plural_word(n: usize, word: &str) -> String {
    format!("{n} {word}{}", plural(n))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_cursor_agrees_with_line_col() {
        let source = urldb_core::source::Source::new("a.yaml", "ab\nçé x\r\n\nz  é".to_string());
        let mut offsets: Vec<usize> = (0..=source.text.len())
            .filter(|&i| source.text.is_char_boundary(i))
            .collect();
        // Forward, then backward, then jumping around.
        let mut cursor = super::Cursor::new(&source);
        for &i in &offsets {
            assert_eq!(cursor.line_col(i), source.line_col(i), "at {i}");
        }
        offsets.reverse();
        for &i in &offsets {
            assert_eq!(cursor.line_col(i), source.line_col(i), "at {i}");
        }
        for &i in &[3, 9, 1, 14, 4, 4, 0] {
            assert_eq!(cursor.line_col(i), source.line_col(i), "at {i}");
        }
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(urldb_core::text::thousands(7), "7");
        assert_eq!(urldb_core::text::thousands(4950), "4,950");
        assert_eq!(urldb_core::text::thousands(1_000_000), "1,000,000");
    }
}
