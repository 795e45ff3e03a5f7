//! The requests the server answers, one file per kind, as `ruff_server`
//! keeps them: each is a [`Handler`] of its LSP request, whose answer is
//! built from the session's check of the document (`Server::with_checked`).
//! A request cancelled before it starts is not worked on
//! (`session.rs`); one cancelled while it runs is answered so at its next
//! unit of work.

pub(crate) mod code_action;
pub(crate) mod code_action_resolve;
pub(crate) mod completion;
pub(crate) mod document_symbol;
pub(crate) mod formatting;
pub(crate) mod hover;

use lsp_server::{ErrorCode, Request};
use lsp_types::request::{self as lsp, Request as _};

use crate::session::Server;

/// How the server answers one kind of request.
pub(crate) trait Handler {
    type Request: lsp::Request;

    /// The answer to the request's parameters; `is_cancelled` says whether
    /// the client has cancelled it since.
    fn answer(
        server: &mut Server<'_>,
        params: <Self::Request as lsp::Request>::Params,
        is_cancelled: &dyn Fn() -> bool,
    ) -> Result<<Self::Request as lsp::Request>::Result, Failure>;
}

/// Answer `req` with the handler of its method.
pub(crate) fn dispatch(
    server: &mut Server<'_>,
    req: Request,
    is_cancelled: &dyn Fn() -> bool,
) -> Result<serde_json::Value, Failure> {
    match req.method.as_str() {
        lsp::Formatting::METHOD => answer::<formatting::Formatting>(server, req, is_cancelled),
        lsp::CodeActionRequest::METHOD => {
            answer::<code_action::CodeActions>(server, req, is_cancelled)
        }
        lsp::CodeActionResolveRequest::METHOD => {
            answer::<code_action_resolve::Resolve>(server, req, is_cancelled)
        }
        lsp::DocumentSymbolRequest::METHOD => {
            answer::<document_symbol::Symbols>(server, req, is_cancelled)
        }
        lsp::HoverRequest::METHOD => answer::<hover::Hovering>(server, req, is_cancelled),
        lsp::Completion::METHOD => answer::<completion::Completing>(server, req, is_cancelled),
        _ => Err(Failure {
            code: ErrorCode::MethodNotFound,
            message: format!("urldb server does not handle `{}`", req.method),
        }),
    }
}

/// `H`'s answer to `req`, as JSON.
fn answer<H: Handler>(
    server: &mut Server<'_>,
    req: Request,
    is_cancelled: &dyn Fn() -> bool,
) -> Result<serde_json::Value, Failure> {
    let params = serde_json::from_value(req.params).map_err(invalid_params)?;
    let result = H::answer(server, params, is_cancelled)?;
    serde_json::to_value(result).map_err(|e| Failure {
        code: ErrorCode::InternalError,
        message: e.to_string(),
    })
}

/// An error answer to a request.
pub(crate) struct Failure {
    pub(crate) code: ErrorCode,
    pub(crate) message: String,
}

pub(crate) fn invalid_params(e: serde_json::Error) -> Failure {
    Failure {
        code: ErrorCode::InvalidParams,
        message: e.to_string(),
    }
}

/// The answer to a request that was cancelled.
pub(crate) fn cancelled() -> Failure {
    Failure {
        code: ErrorCode::RequestCanceled,
        message: "cancelled".to_string(),
    }
}

impl From<crate::code_actions::Interrupted> for Failure {
    fn from(_: crate::code_actions::Interrupted) -> Self {
        cancelled()
    }
}
