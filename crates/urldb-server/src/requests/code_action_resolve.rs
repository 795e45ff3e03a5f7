//! `codeAction/resolve`: a code action's edit, built on the buffer it was
//! offered for (a client that resolves edits gets its actions without
//! them, `code_actions.rs`).

use lsp_server::ErrorCode;
use lsp_types::{CodeAction, request};

use super::{Failure, Handler, cancelled};
use crate::code_actions;
use crate::session::Server;

pub(crate) struct Resolve;

impl Handler for Resolve {
    type Request = request::CodeActionResolveRequest;

    fn answer(
        server: &mut Server<'_>,
        action: CodeAction,
        is_cancelled: &dyn Fn() -> bool,
    ) -> Result<CodeAction, Failure> {
        let failed = |code: ErrorCode, e: code_actions::ResolveError| Failure {
            code,
            message: e.to_string(),
        };
        let Some((uri, _)) = code_actions::target(&action) else {
            return Err(failed(
                ErrorCode::InvalidParams,
                code_actions::ResolveError::NoData,
            ));
        };
        let lazy = server.resolves_edits;
        let resolved = server.with_checked(&uri, true, |checked, setup, doc, pos| {
            if is_cancelled() {
                return Err(cancelled());
            }
            let req = code_actions::Request {
                checked,
                options: &setup.options,
                uri: &uri,
                pos,
                version: doc.version,
                lazy,
                cancelled: is_cancelled,
            };
            code_actions::resolve(&req, action).map_err(|e| match e {
                code_actions::ResolveError::NoData => failed(ErrorCode::InvalidParams, e),
                code_actions::ResolveError::Stale | code_actions::ResolveError::Gone => {
                    failed(ErrorCode::ContentModified, e)
                }
                code_actions::ResolveError::NoEdit(_) => failed(ErrorCode::RequestFailed, e),
            })
        });
        resolved.unwrap_or_else(|| {
            Err(failed(
                ErrorCode::ContentModified,
                code_actions::ResolveError::Gone,
            ))
        })
    }
}
