//! `textDocument/formatting`: the canonical text, as `fmt
//! --stdin-filename` writes it, as one edit of the whole buffer; a
//! document a finding keeps from being rewritten says why.

use lsp_types::{DocumentFormattingParams, MessageType, TextEdit, request};
use urldb_core::lint::Checked;

use super::{Failure, Handler};
use crate::position::replace_all;
use crate::session::Server;

pub(crate) struct Formatting;

impl Handler for Formatting {
    type Request = request::Formatting;

    fn answer(
        server: &mut Server<'_>,
        params: DocumentFormattingParams,
        _: &dyn Fn() -> bool,
    ) -> Result<Option<Vec<TextEdit>>, Failure> {
        let result = server.with_checked(&params.text_document.uri, true, |checked, _, _, pos| {
            format(checked)
                .map(|text| text.map(|t| replace_all(pos, t)))
                .map_err(|e| e.to_string())
        });
        Ok(match result {
            None => None,
            Some(Ok(edit)) => Some(edit.into_iter().collect()),
            Some(Err(message)) => {
                // Said at every request: the user asked.
                server.shown.remove(&message);
                server.show(MessageType::WARNING, message);
                None
            }
        })
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
