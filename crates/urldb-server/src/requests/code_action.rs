//! `textDocument/codeAction`: the buffer checked (one unit of work), then
//! each action, bounded per request (`code_actions.rs`).

use lsp_types::{CodeActionParams, CodeActionResponse, request};

use super::{Failure, Handler};
use crate::code_actions;
use crate::session::Server;

pub(crate) struct CodeActions;

impl Handler for CodeActions {
    type Request = request::CodeActionRequest;

    fn answer(
        server: &mut Server<'_>,
        p: CodeActionParams,
        is_cancelled: &dyn Fn() -> bool,
    ) -> Result<Option<CodeActionResponse>, Failure> {
        let uri = &p.text_document.uri;
        let lazy = server.resolves_edits;
        let listed = server.with_checked(uri, true, |checked, setup, doc, pos| {
            if is_cancelled() {
                return Err(code_actions::Interrupted);
            }
            let range = pos.offset(p.range.start)..pos.offset(p.range.end);
            let req = code_actions::Request {
                checked,
                options: &setup.options,
                uri,
                pos,
                version: doc.version,
                lazy,
                cancelled: is_cancelled,
            };
            code_actions::list(&req, range, p.context.only.as_deref())
        });
        Ok(Some(listed.transpose()?.unwrap_or_default()))
    }
}
