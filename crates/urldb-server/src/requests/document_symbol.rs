//! `textDocument/documentSymbol`: one symbol per record, named by its
//! `_path`.

use lsp_types::{
    DocumentSymbol, DocumentSymbolParams, DocumentSymbolResponse, SymbolKind, request,
};
use urldb_core::lint::Checked;
use urldb_core::model::domain;

use super::{Failure, Handler};
use crate::position::Positions;
use crate::session::Server;

pub(crate) struct Symbols;

impl Handler for Symbols {
    type Request = request::DocumentSymbolRequest;

    fn answer(
        server: &mut Server<'_>,
        params: DocumentSymbolParams,
        _: &dyn Fn() -> bool,
    ) -> Result<Option<DocumentSymbolResponse>, Failure> {
        let symbols = server.with_checked(&params.text_document.uri, true, |checked, _, _, pos| {
            symbols(checked, pos)
        });
        Ok(symbols.map(DocumentSymbolResponse::Nested))
    }
}

/// One symbol per record, named by its `_path`.
fn symbols(checked: &Checked, pos: &Positions) -> Vec<DocumentSymbol> {
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
