//! `urldb.toml`'s mistakes as the terminal shows them: each with the
//! offending line of the file and a mark under the value, as a finding is
//! shown (miette). The language server and `--format` outputs show the
//! plain `path:line:col: message` form (`ConfigError`'s `Display`).

use std::path::Path;

use urldb_core::config::{ConfigError, Problem};

/// The error as a report with the offending TOML line, like a finding:
/// one report per problem.
pub(crate) fn render(error: &ConfigError, color: bool) -> String {
    let ConfigError::Invalid {
        path,
        problems,
        text,
    } = error;
    let mut out = String::new();
    for problem in problems {
        out.push_str(&render_one(path, text, problem, color));
    }
    out
}

fn render_one(path: &Path, text: &str, problem: &Problem, color: bool) -> String {
    let plain = || format!("error: {}\n", problem.located(path, text));
    let Some(span) = &problem.span else {
        return plain();
    };
    // The file's lines as human output shows them (control characters
    // visible), the span moved with them.
    let (shown, span) = visible(text, span.clone());
    let mut diag = miette::MietteDiagnostic::new(problem.message.trim_end().to_string())
        .with_severity(miette::Severity::Error)
        .with_label(miette::LabeledSpan::at(span, "here"));
    if let Some(help) = &problem.help {
        diag = diag.with_help(help.clone());
    }
    let report = miette::Report::new(diag).with_source_code(miette::NamedSource::new(
        &*urldb_core::text::escape(&path.display().to_string()),
        shown,
    ));
    let theme = if color {
        miette::GraphicalTheme::unicode()
    } else {
        miette::GraphicalTheme::unicode_nocolor()
    };
    let mut out = String::new();
    let handler = miette::GraphicalReportHandler::new_themed(theme).with_width(100);
    if handler.render_report(&mut out, report.as_ref()).is_err() {
        return plain();
    }
    out
}

/// `text` with its control characters written visibly, as
/// [`urldb_core::text::escape`] does (line breaks kept), and `span` moved to the
/// same characters.
fn visible(text: &str, span: std::ops::Range<usize>) -> (String, std::ops::Range<usize>) {
    let mut out = String::with_capacity(text.len());
    let (mut start, mut end) = (None, None);
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if i == span.start {
            start = Some(out.len());
        }
        if i == span.end {
            end = Some(out.len());
        }
        let line_break =
            c == '\n' || (c == '\r' && chars.peek().is_some_and(|&(_, next)| next == '\n'));
        if line_break || !urldb_core::text::needs_escape(c) {
            out.push(c);
        } else {
            urldb_core::text::push_escaped(&mut out, c);
        }
    }
    let start = start.unwrap_or(out.len());
    let end = end.unwrap_or(out.len()).max(start);
    (out, start..end)
}
