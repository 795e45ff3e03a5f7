//! Diagnostics: a buffer checked with the library's own entry points
//! (`lint::check_bytes`, or `lint::check_findings` for the findings alone,
//! as `check --stdin-filename`), each finding one diagnostic.

use lsp_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Uri,
};

use crate::position::Positions;
use urldb_core::lint::{self, Checked, Options};
use urldb_core::rules::diagnostic::{Finding, Severity};

/// Check a buffer. A buffer over `max-file-size` is not parsed: it gets
/// the one `file-too-large` finding, as a file on disk would. For its
/// findings alone (diagnostics), a large buffer is checked in pieces on
/// every core, without its tree (`lint::check_file`); what needs the tree
/// (symbols, hover, fixes) asks for it with `tree`.
pub(crate) fn check(path: &std::path::Path, text: &str, options: &Options, tree: bool) -> Checked {
    if text.len() as u64 > options.settings.max_file_size {
        return lint::too_large(path, text.len() as u64, options);
    }
    if tree {
        lint::check_bytes(path, text.as_bytes(), options)
    } else {
        lint::check_findings(path, text.as_bytes(), options)
    }
}

pub(crate) fn diagnostics(checked: &Checked, uri: &Uri, pos: &Positions) -> Vec<Diagnostic> {
    checked
        .findings
        .iter()
        .map(|f| diagnostic(f, uri, pos))
        .collect()
}

pub(crate) fn diagnostic(f: &Finding, uri: &Uri, pos: &Positions) -> Diagnostic {
    let mut message = f.message.clone();
    if let Some(help) = &f.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    let related: Vec<DiagnosticRelatedInformation> = f
        .labels
        .iter()
        .map(|(span, label)| DiagnosticRelatedInformation {
            location: Location {
                uri: uri.clone(),
                range: pos.range(span),
            },
            message: label.clone(),
        })
        .collect();
    Diagnostic {
        range: pos.range(&f.span),
        severity: Some(match f.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(f.rule.code.to_string())),
        // No `codeDescription`: the project has no site to link to; the
        // rule's documentation is the hover of the diagnostic's range.
        code_description: None,
        source: Some("urldb".to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: None,
    }
}
