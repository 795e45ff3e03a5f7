//! `--format full`: miette's graphical report — the source line, the
//! labelled span, the help and the rule code.

use std::io::{self, Write};

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteDiagnostic, NamedSource};

use crate::database::FileResult;
use crate::diagnostic::Severity;

pub fn write(out: &mut dyn Write, files: &[FileResult], color: bool) -> io::Result<()> {
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(100)
        .with_links(false)
        .with_break_words(false);
    for file in files {
        let source = &file.checked.source;
        let name = super::display_path(&file.path);
        // One copy of the text per file, shared by its findings.
        let named = NamedSource::new(name.clone(), source.text.clone());
        for f in &file.checked.findings {
            // The message is the heading; the label says what a fix would do.
            let label_text = f
                .fix
                .as_ref()
                .filter(|_| f.fixable())
                .map(|fix| format!("[*] {}", fix.title));
            let primary =
                LabeledSpan::new_primary_with_span(label_text, clamp(&f.span, source.text.len()));
            let mut labels = vec![primary];
            for (span, text) in &f.labels {
                labels.push(LabeledSpan::new_with_span(
                    Some(text.clone()),
                    clamp(span, source.text.len()),
                ));
            }
            let mut diag = MietteDiagnostic::new(f.message.clone())
                .with_code(f.rule.code)
                .with_severity(match f.severity {
                    Severity::Error => miette::Severity::Error,
                    Severity::Warning => miette::Severity::Warning,
                })
                .with_labels(labels);
            if let Some(help) = &f.help {
                diag = diag.with_help(help.clone());
            }
            let with_source = WithSource {
                diag: &diag,
                source: &named,
            };
            let mut text = String::new();
            if handler.render_report(&mut text, &with_source).is_err() {
                text = format!("{name}: {} {}\n", f.rule.code, f.message);
            }
            out.write_all(text.as_bytes())?;
            writeln!(out)?;
        }
    }
    Ok(())
}

fn clamp(span: &std::ops::Range<usize>, len: usize) -> miette::SourceSpan {
    let start = span.start.min(len);
    let end = span.end.clamp(start, len);
    (start, end - start).into()
}

/// A diagnostic and the file text it points into, without copying the text.
#[derive(Debug)]
struct WithSource<'a> {
    diag: &'a MietteDiagnostic,
    source: &'a NamedSource<String>,
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
