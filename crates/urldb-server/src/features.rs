//! What the server answers, computed from one document's text with the
//! library's own entry points: [`lint::check_bytes`] for findings and the
//! canonical text (as `check --stdin-filename` and `fmt --stdin-filename`),
//! the renderer for every edit. Code actions are in `code_actions.rs`.

use std::collections::BTreeSet;

use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionTextEdit, Diagnostic,
    DiagnosticRelatedInformation, DiagnosticSeverity, DocumentSymbol, Hover, HoverContents,
    Location, MarkupContent, MarkupKind, NumberOrString, Range, SymbolKind, TextEdit, Uri,
};

use super::position::Positions;
use urldb_core::lint::{self, Checked, Options};
use urldb_core::model::domain;
use urldb_core::model::node::Document;
use urldb_core::rules::diagnostic::{Finding, Severity};

/// The code action kind of "fix all".
pub(crate) const FIX_ALL: &str = "source.fixAll.urldb";

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

/// Why a document has no canonical text: the message to show.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub(crate) struct NotFormatted(String);

/// The canonical text, or why there is none (the blocking finding).
pub(crate) fn format(checked: &Checked) -> Result<Option<String>, NotFormatted> {
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

/// One symbol per record, named by its `_path`.
pub(crate) fn symbols(checked: &Checked, pos: &Positions) -> Vec<DocumentSymbol> {
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
pub(crate) fn hover(checked: &Checked, pos: &Positions, offset: usize) -> Option<Hover> {
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
pub(crate) struct Vocabulary {
    pub categories: BTreeSet<String>,
    pub content_types: BTreeSet<String>,
}

impl Vocabulary {
    /// Add what the documents use.
    pub(crate) fn add(&mut self, docs: &[Document]) {
        // A value being typed (`content-type: `, `- `) is empty: no word
        // to offer, and it would sort first.
        let word = |v: &str| !v.trim().is_empty();
        for record in domain::records(docs) {
            self.categories
                .extend(record.categories().filter(|c| word(c)).map(str::to_string));
            if let Some(ct) = record
                .get(domain::CONTENT_TYPE)
                .and_then(|e| e.value.as_scalar())
                .filter(|ct| word(&ct.value))
            {
                self.content_types.insert(ct.value.to_string());
            }
        }
    }

    /// Add what a domain file's text uses (parsed only, not checked).
    pub(crate) fn add_text(&mut self, text: &str) {
        let tree = urldb_core::parse::read_text(text);
        self.add(&tree.documents);
    }
}

/// What the cursor is completing.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    MetadataKey,
    RecordKey,
    Category,
    ContentType,
}

/// Where a completion goes: what kind of word, and the byte offset where
/// the word being typed starts. Read from the text alone (a half-typed
/// file seldom parses).
pub(crate) fn slot(text: &str, offset: usize) -> Option<(Slot, usize)> {
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

pub(crate) fn completions(
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
