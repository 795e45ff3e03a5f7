//! What the server answers, computed from one document's text with the
//! library's own entry points: [`lint::check_bytes`] for findings and the
//! canonical text (as `check --stdin-filename` and `fmt --stdin-filename`),
//! [`lint::fix`] for "fix all" (as `check --fix`), the renderer for every
//! edit.

use std::collections::BTreeSet;

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CompletionItem, CompletionItemKind,
    CompletionTextEdit, Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity,
    DocumentSymbol, Hover, HoverContents, Location, MarkupContent, MarkupKind, NumberOrString,
    Range, SymbolKind, TextEdit, Uri, WorkspaceEdit,
};

use super::position::Positions;
use urldb_core::lint::{self, Checked, Options};
use urldb_core::model::domain;
use urldb_core::model::node::Document;
use urldb_core::rules::diagnostic::{Finding, Severity};
use urldb_core::source::Source;

/// The code action kind of "fix all".
pub(crate) const FIX_ALL: &str = "source.fixAll.urldb";

/// Check a buffer. A buffer over `max-file-size` is not parsed: it gets
/// the one `file-too-large` finding, as a file on disk would. For its
/// findings alone (diagnostics), a large buffer is checked in pieces on
/// every core, without its tree (`lint::check_file`); what needs the tree
/// (symbols, hover, fixes) asks for it with `tree`.
pub fn check(path: &std::path::Path, text: &str, options: &Options, tree: bool) -> Checked {
    if text.len() as u64 > options.settings.max_file_size {
        return urldb_store::database::too_large(path, text.len() as u64, options);
    }
    if tree {
        lint::check_bytes(path, text.as_bytes(), options)
    } else {
        lint::check_findings(path, text.as_bytes(), options)
    }
}

pub fn diagnostics(checked: &Checked, uri: &Uri, pos: &Positions) -> Vec<Diagnostic> {
    checked
        .findings
        .iter()
        .map(|f| diagnostic(f, uri, pos))
        .collect()
}

fn diagnostic(f: &Finding, uri: &Uri, pos: &Positions) -> Diagnostic {
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

/// Why a document has no canonical text: the message to show.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NotFormatted(String);

/// The canonical text, or why there is none (the blocking finding).
pub fn format(checked: &Checked) -> Result<Option<String>, NotFormatted> {
    match &checked.canonical {
        Some(text) if *text == checked.source.text => Ok(None),
        Some(text) => Ok(Some(text.clone())),
        None => {
            let rule = checked.blocked_by.map_or("yaml-syntax", |r| r.code);
            let detail = checked
                .findings
                .iter()
                .find(|f| f.rule.code == rule)
                .map(|f| {
                    let (line, col) = checked.source.line_col(f.span.start);
                    format!(" ({line}:{col}: {})", f.message)
                })
                .unwrap_or_default();
            Err(NotFormatted(format!(
                "urldb: {} not formatted: it has a `{rule}` finding{detail}, which a rewrite \
                 cannot keep; `urldb rule {rule}` says more",
                checked.source.path.display()
            )))
        }
    }
}

/// One edit replacing the whole text.
pub(crate) fn replace_all(pos: &Positions, new_text: String) -> TextEdit {
    TextEdit {
        range: pos.all(),
        new_text,
    }
}

/// Quick fixes for the fixable findings overlapping `range` (bytes), "ignore
/// `code` here" (a suppression comment) for every finding there, and
/// "fix all" when any finding is fixable, filtered by the kinds the
/// client asked for (`only`).
// `WorkspaceEdit::changes` is keyed by `Uri`, whose cache cell clippy
// mistakes for a mutable key; the map holds one entry and is never looked
// up.
#[allow(clippy::mutable_key_type)]
pub(crate) fn code_actions(
    checked: &Checked,
    options: &Options,
    uri: &Uri,
    pos: &Positions,
    range: std::ops::Range<usize>,
    only: Option<&[CodeActionKind]>,
) -> Vec<CodeActionOrCommand> {
    let wanted = |kind: &CodeActionKind| {
        only.is_none_or(|only| {
            only.iter().any(|o| {
                kind.as_str() == o.as_str()
                    || kind.as_str().starts_with(&format!("{}.", o.as_str()))
            })
        })
    };
    let edit = |text: String| {
        let mut changes = std::collections::HashMap::new();
        changes.insert(uri.clone(), vec![replace_all(pos, text)]);
        WorkspaceEdit {
            changes: Some(changes),
            ..WorkspaceEdit::default()
        }
    };
    let mut actions = Vec::new();
    if wanted(&CodeActionKind::QUICKFIX)
        && let Some(docs) = checked.documents.parsed()
    {
        for f in &checked.findings {
            let touches = f.span.start <= range.end && range.start <= f.span.end;
            let Some(fix) = f.fix.as_ref().filter(|_| f.fixable() && touches) else {
                continue;
            };
            let Some(text) = fixed_one(checked, docs, fix, options) else {
                continue;
            };
            actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: format!("{} ({})", capitalize(&fix.title), f.rule.code),
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![diagnostic(f, uri, pos)]),
                edit: Some(edit(text)),
                is_preferred: Some(true),
                ..CodeAction::default()
            }));
        }
    }
    // Every finding may be excused where it is (`docs/suppressions.md`).
    if wanted(&CodeActionKind::QUICKFIX) {
        // The buffer checked alone, once for the request: `checked` holds
        // the cross-file findings too, which no directive's re-check finds.
        let mut alone = None;
        for f in &checked.findings {
            let touches = f.span.start <= range.end && range.start <= f.span.end;
            if !touches || f.rule.code == urldb_core::rules::unused_suppression::RULE.code {
                continue;
            }
            let before = alone.get_or_insert_with(|| {
                lint::check_bytes(
                    &checked.source.path,
                    checked.source.text.as_bytes(),
                    options,
                )
            });
            let Some(text) =
                urldb_core::suppress::ignore_here(before, f.span.start, f.rule.code, options)
            else {
                continue;
            };
            actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: format!("Ignore `{}` here", f.rule.code),
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![diagnostic(f, uri, pos)]),
                edit: Some(edit(text)),
                ..CodeAction::default()
            }));
        }
    }
    let fix_all = CodeActionKind::from(FIX_ALL);
    if wanted(&fix_all) && checked.findings.iter().any(Finding::fixable) {
        let fixed = lint::fix(clone_checked(checked), options);
        if let Some(text) = fixed.text {
            actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: "Fix all safely fixable urldb findings".to_string(),
                kind: Some(fix_all),
                edit: Some(edit(text)),
                ..CodeAction::default()
            }));
        }
    }
    actions
}

/// The text after one finding's fix: its edits applied to the tree, then
/// the canonical text rendered (a fix without edits is a layout fix, which
/// the rendering itself makes).
fn fixed_one(
    checked: &Checked,
    docs: &[Document],
    fix: &urldb_core::rules::diagnostic::Fix,
    options: &Options,
) -> Option<String> {
    let docs = urldb_core::fix::apply_edits(docs.to_vec(), fix.edits.clone());
    let text = urldb_core::render::render(
        &docs,
        &lint::render_options(&checked.source.text, &docs, options),
    );
    (text != checked.source.text).then_some(text)
}

fn clone_checked(checked: &Checked) -> Checked {
    Checked {
        source: Source::new(&checked.source.path, checked.source.text.clone()),
        documents: checked.documents.clone(),
        findings: checked.findings.clone(),
        suppressed: checked.suppressed.clone(),
        blocked_by: checked.blocked_by,
        canonical: checked.canonical.clone(),
    }
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// One symbol per record, named by its `_path`.
pub fn symbols(checked: &Checked, pos: &Positions) -> Vec<DocumentSymbol> {
    let Some(docs) = checked.documents.parsed() else {
        return Vec::new();
    };
    domain::records(docs)
        .map(|record| {
            let whole = docs
                .get(record.doc)
                .map_or(record.node.span.clone(), |d| d.span.clone());
            let range = pos.range(
                &(whole.start.min(record.node.span.start)..whole.end.max(record.node.span.end)),
            );
            let selection = record
                .path_field()
                .map_or(record.node.span.clone(), |(entry, _)| {
                    entry.value.span.clone()
                });
            let content_type = record
                .get(domain::CONTENT_TYPE)
                .and_then(|e| e.value.as_scalar())
                .map(|s| s.value.to_string());
            #[allow(deprecated)]
            DocumentSymbol {
                name: match record.path() {
                    Some(p) if !p.is_empty() => p.to_string(),
                    _ => "(no _path)".to_string(),
                },
                detail: content_type,
                kind: SymbolKind::OBJECT,
                tags: None,
                deprecated: None,
                range,
                selection_range: pos.range(&selection),
                children: None,
            }
        })
        .collect()
}

/// The documentation under `offset`: the rules of the findings there,
/// else what the key there means.
pub fn hover(checked: &Checked, pos: &Positions, offset: usize) -> Option<Hover> {
    let mut seen = BTreeSet::new();
    let mut parts = Vec::new();
    let mut range: Option<Range> = None;
    for f in &checked.findings {
        let here = (f.span.start <= offset && offset < f.span.end) || f.span.start == offset;
        if here && seen.insert(f.rule.code) {
            parts.push(urldb_core::rules::docs::render(f.rule));
            range.get_or_insert_with(|| pos.range(&f.span));
        }
    }
    if parts.is_empty()
        && let Some(docs) = checked.documents.parsed()
    {
        for (index, doc) in docs.iter().enumerate() {
            let Some(entries) = doc.root.as_ref().and_then(|r| r.as_map()) else {
                continue;
            };
            for entry in entries {
                let span = &entry.key.span;
                if !(span.start <= offset && offset <= span.end) {
                    continue;
                }
                let Some(key) = entry.key_str() else { continue };
                if let Some(text) = super::keys::describe(key, index == 0) {
                    parts.push(text);
                    range = Some(pos.range(span));
                }
            }
        }
    }
    if parts.is_empty() {
        return None;
    }
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: parts.join("\n---\n\n"),
        }),
        range,
    })
}

/// Words completion offers: categories and content types.
#[derive(Debug, Default, Clone)]
pub struct Vocabulary {
    pub categories: BTreeSet<String>,
    pub content_types: BTreeSet<String>,
}

impl Vocabulary {
    /// Add what the documents use.
    pub fn add(&mut self, docs: &[Document]) {
        for record in domain::records(docs) {
            self.categories
                .extend(record.categories().map(str::to_string));
            if let Some(ct) = record
                .get(domain::CONTENT_TYPE)
                .and_then(|e| e.value.as_scalar())
            {
                self.content_types.insert(ct.value.to_string());
            }
        }
    }

    /// Add what a domain file's text uses (parsed only, not checked).
    pub fn add_text(&mut self, text: &str) {
        let tree = urldb_core::parse::fast::parse(text)
            .unwrap_or_else(|| urldb_core::parse::tree::parse_tree(text));
        self.add(&tree.documents);
    }
}

/// What the cursor is completing.
#[derive(Debug, PartialEq, Eq)]
pub enum Slot {
    MetadataKey,
    RecordKey,
    Category,
    ContentType,
}

/// Where a completion goes: what kind of word, and the byte offset where
/// the word being typed starts. Read from the text alone (a half-typed
/// file seldom parses).
pub fn slot(text: &str, offset: usize) -> Option<(Slot, usize)> {
    let offset = offset.min(text.len());
    if !text.is_char_boundary(offset) {
        return None;
    }
    let before = &text[..offset];
    let line_start = before.rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let line = &before[line_start..];
    // Which document: count the `---` lines above.
    let mut separators = 0;
    for l in before[..line_start].lines() {
        if l.starts_with("---") && l[3..].chars().next().is_none_or(char::is_whitespace) {
            separators += 1;
        }
    }
    let implicit_first = !text.starts_with("---");
    let in_metadata = separators + usize::from(implicit_first) <= 1;
    let word_start = |prefix_len: usize| line_start + prefix_len;
    // A key at the start of a line.
    if line.is_empty() || is_key_prefix(line) {
        let slot = if in_metadata {
            Slot::MetadataKey
        } else {
            Slot::RecordKey
        };
        return Some((slot, word_start(0)));
    }
    if in_metadata {
        return None;
    }
    if let Some(rest) = line.strip_prefix("content-type:") {
        let value = rest.trim_start();
        if !value.contains(' ') {
            return Some((Slot::ContentType, offset - value.len()));
        }
        return None;
    }
    // `categories: [a, b` (flow) or a `- item` under `categories:`.
    if let Some(rest) = line.strip_prefix("categories:") {
        let rest = rest.trim_start();
        if let Some(items) = rest.strip_prefix('[') {
            let current = items.rsplit(',').next().unwrap_or(items).trim_start();
            if !current.contains([']', ' ']) {
                return Some((Slot::Category, offset - current.len()));
            }
        }
        return None;
    }
    let item = line.trim_start().strip_prefix('-')?;
    let value = item.trim_start();
    if value.contains(' ') || item.len() == value.len() && !item.is_empty() {
        return None;
    }
    // The key this list item belongs to: the nearest line above that
    // starts at column 0 and is not a list item.
    let above = before[..line_start]
        .lines()
        .rev()
        .find(|l| !l.starts_with('-') && !l.starts_with(' ') && !l.is_empty())?;
    (above.trim_end() == "categories:").then(|| (Slot::Category, offset - value.len()))
}

fn is_key_prefix(line: &str) -> bool {
    !line.is_empty()
        && line
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && !line.starts_with('-')
}

pub fn completions(
    text: &str,
    offset: usize,
    pos: &Positions,
    vocabulary: &Vocabulary,
) -> Vec<CompletionItem> {
    let Some((slot, start)) = slot(text, offset) else {
        return Vec::new();
    };
    let range = Range {
        start: pos.position(start),
        end: pos.position(offset),
    };
    let item = |label: &str, kind, insert: String, doc: Option<String>| CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        text_edit: Some(CompletionTextEdit::Edit(TextEdit {
            range,
            new_text: insert,
        })),
        documentation: doc.map(|d| {
            lsp_types::Documentation::MarkupContent(MarkupContent {
                kind: MarkupKind::Markdown,
                value: d,
            })
        }),
        ..CompletionItem::default()
    };
    match slot {
        Slot::MetadataKey | Slot::RecordKey => {
            let metadata = slot == Slot::MetadataKey;
            let keys: &[&str] = if metadata {
                &domain::METADATA_KEYS
            } else {
                &domain::RECORD_KEYS
            };
            keys.iter()
                .map(|k| {
                    item(
                        k,
                        CompletionItemKind::PROPERTY,
                        format!("{k}: "),
                        super::keys::describe(k, metadata),
                    )
                })
                .collect()
        }
        Slot::Category => vocabulary
            .categories
            .iter()
            .map(|c| item(c, CompletionItemKind::ENUM_MEMBER, c.clone(), None))
            .collect(),
        Slot::ContentType => vocabulary
            .content_types
            .iter()
            .map(|c| item(c, CompletionItemKind::VALUE, c.clone(), None))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> Option<(Slot, usize)> {
        let offset = text.find('|').expect("a cursor");
        let text = text.replace('|', "");
        slot(&text, offset)
    }

    #[test]
    fn completion_slots() {
        assert_eq!(at("---\ncn|"), Some((Slot::MetadataKey, 4)));
        assert_eq!(at("---\n---\n_path: /\ncon|"), Some((Slot::RecordKey, 17)));
        assert_eq!(
            at("---\n---\ncontent-type: text/h|"),
            Some((Slot::ContentType, 22))
        );
        assert_eq!(
            at("---\n---\ncategories:\n- a\n- n|"),
            Some((Slot::Category, 26))
        );
        assert_eq!(
            at("---\n---\ncategories: [a, n|"),
            Some((Slot::Category, 24))
        );
        assert_eq!(at("---\n---\n_path: /a|"), None);
        assert_eq!(at("---\ncnames:\n- a|"), None);
    }
}
