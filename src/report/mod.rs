//! Turning findings into output. The only layer that knows about lines,
//! columns and miette; every format reads the same [`Located`] findings.

pub mod concise;
pub mod full;
pub mod github;
pub mod json;
pub mod junit;
pub mod sarif;

use std::collections::BTreeMap;
use std::io::{self, Write};

use crate::database::FileResult;
use crate::diagnostic::{Finding, Severity};

/// Output formats of `check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Source snippets with labelled spans and help (the default on a terminal).
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
pub struct Located<'a> {
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

/// A path as urldb shows it: with `/` separators.
pub fn display_path(path: &std::path::Path) -> String {
    let s = path.to_string_lossy();
    let s = s.strip_prefix("./").unwrap_or(&s);
    s.replace('\\', "/")
}

pub fn locate(file: &FileResult) -> Vec<Located<'_>> {
    let source = &file.checked.source;
    file.checked
        .findings
        .iter()
        .map(|f| {
            let (line, column) = source.line_col(f.span.start);
            let (end_line, end_column) = source.line_col(f.span.end);
            Located {
                path: display_path(&file.path),
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
        })
        .collect()
}

/// Counts for the summary line and the exit code.
#[derive(Debug, Default, Clone, Copy)]
pub struct Counts {
    pub errors: usize,
    pub warnings: usize,
    pub fixable: usize,
    pub files: usize,
}

impl Counts {
    pub fn of(files: &[FileResult]) -> Counts {
        let mut c = Counts::default();
        for file in files {
            if !file.checked.findings.is_empty() {
                c.files += 1;
            }
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

    pub fn total(&self) -> usize {
        self.errors + self.warnings
    }
}

/// Write the findings of `files` in `format`.
pub fn write(
    out: &mut dyn Write,
    format: Format,
    files: &[FileResult],
    color: bool,
) -> io::Result<()> {
    match format {
        Format::Full => full::write(out, files, color),
        Format::Concise => concise::write(out, files),
        Format::Json => json::write(out, files),
        Format::Github => github::write(out, files),
        Format::Junit => junit::write(out, files),
        Format::Sarif => sarif::write(out, files),
    }
}

/// `--statistics`: how many findings per code.
pub fn statistics(out: &mut dyn Write, files: &[FileResult]) -> io::Result<()> {
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

/// The closing lines of a `check` run.
pub fn summary(out: &mut dyn Write, counts: Counts, fixed: usize) -> io::Result<()> {
    if fixed > 0 {
        writeln!(out, "Fixed {fixed} finding{}.", plural(fixed))?;
    }
    if counts.total() == 0 {
        if fixed == 0 {
            writeln!(out, "All checks passed.")?;
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
    writeln!(
        out,
        "Found {} ({}) in {} file{}.",
        plural_word(counts.total(), "finding"),
        parts.join(", "),
        counts.files,
        plural(counts.files)
    )?;
    if counts.fixable > 0 {
        writeln!(
            out,
            "[*] {} fixable with `urldb check --fix`.",
            counts.fixable
        )?;
    }
    Ok(())
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn plural_word(n: usize, word: &str) -> String {
    format!("{n} {word}{}", plural(n))
}
