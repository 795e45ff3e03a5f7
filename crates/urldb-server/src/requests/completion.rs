//! `textDocument/completion`: keys, categories and content types, the
//! words the database's files and the open documents use.

use std::path::Path;

use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionParams, CompletionResponse, CompletionTextEdit,
    MarkupContent, MarkupKind, Range, TextEdit, request,
};
use urldb_core::model::domain;

use super::{Failure, Handler};
use crate::position::Positions;
use crate::session::Server;
use crate::vocabulary::Vocabulary;

pub(crate) struct Completing;

impl Handler for Completing {
    type Request = request::Completion;

    fn answer(
        server: &mut Server<'_>,
        params: CompletionParams,
        _: &dyn Fn() -> bool,
    ) -> Result<Option<CompletionResponse>, Failure> {
        Ok(server.completion(&params).map(CompletionResponse::Array))
    }
}

impl Server<'_> {
    fn completion(&mut self, p: &CompletionParams) -> Option<Vec<lsp_types::CompletionItem>> {
        let at = &p.text_document_position;
        let (members, configured) =
            self.with_checked(&at.text_document.uri, false, |_, setup, _, _| {
                (
                    setup.members.clone(),
                    setup.options.settings.categories.clone(),
                )
            })?;
        let mut vocabulary = match &members {
            Some(members) => self.vocabulary(members),
            None => Vocabulary::default(),
        };
        vocabulary.categories.extend(configured.unwrap_or_default());
        // The open documents count too, as they are in the editor.
        for doc in self.documents.values() {
            vocabulary.add_text(&doc.text);
        }
        let doc = self.documents.get(at.text_document.uri.as_str())?;
        let pos = Positions::new(&doc.text, self.encoding);
        Some(completions(
            &doc.text,
            pos.offset(at.position),
            &pos,
            &vocabulary,
        ))
    }

    /// The categories and content types of the database's files on disk.
    fn vocabulary(&mut self, members: &urldb_store::membership::Members) -> Vocabulary {
        let root: &Path = members.root();
        if let Some(v) = self.vocabularies.get(root) {
            return v.clone();
        }
        use rayon::prelude::*;
        let files = urldb_store::find_files(members).files;
        let limit = urldb_core::config::DEFAULT_MAX_FILE_SIZE;
        let vocabulary = files
            .par_iter()
            // A link that leads out of the root is not read, as `check`
            // does not read it.
            .filter(|path| urldb_store::is_inside(path, root))
            .filter_map(|path| urldb_store::read_limited(path, limit, None).ok())
            .map(|bytes| {
                let mut v = Vocabulary::default();
                v.add_text(&String::from_utf8_lossy(&bytes));
                v
            })
            .reduce(Vocabulary::default, |mut a, b| {
                a.categories.extend(b.categories);
                a.content_types.extend(b.content_types);
                a
            });
        self.vocabularies
            .insert(root.to_path_buf(), vocabulary.clone());
        vocabulary
    }
}

/// What the cursor is completing.
#[derive(Debug, PartialEq, Eq)]
enum Slot {
    MetadataKey,
    RecordKey,
    Category,
    ContentType,
}

/// Where a completion goes: what kind of word, and the byte offset where
/// the word being typed starts. Read from the text alone (a half-typed
/// file seldom parses).
fn slot(text: &str, offset: usize) -> Option<(Slot, usize)> {
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

fn completions(
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
                        crate::keys::describe(k, metadata),
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
