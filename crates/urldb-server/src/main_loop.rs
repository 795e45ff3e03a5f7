//! The main loop: the client's messages taken in batches, each request
//! and notification under `catch_unwind` (a panic answers the request with
//! an error, is logged to stderr, and the server goes on), then the
//! diagnostics of the documents that changed published, once.

use std::panic::AssertUnwindSafe;

use lsp_server::{ErrorCode, Message, Request, RequestId, Response};
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use lsp_types::{notification, request};

use crate::requests::{self, Failure, cancelled};
use crate::session::Server;

impl Server<'_> {
    /// Handle messages until `exit`; true when `shutdown` came first.
    ///
    /// Messages are taken in batches: everything waiting when the server
    /// is free again (after checking a large document, say). A batch's
    /// edits are all applied before any document is checked, so a version
    /// superseded by a newer one is never checked; a request cancelled
    /// before it starts (a `$/cancelRequest` read by then, in the same
    /// batch or not) is answered `RequestCancelled` without being worked
    /// on, and one cancelled while it runs is answered so at its next unit
    /// of work.
    pub(crate) fn main_loop(&mut self) -> bool {
        loop {
            let Ok(first) = self.connection.receiver.recv() else {
                // The client went away without `exit`.
                return false;
            };
            let mut batch = vec![first];
            batch.extend(self.connection.receiver.try_iter());
            for message in batch {
                if self.handle(message) {
                    return self.shut_down;
                }
            }
            self.publish_dirty();
        }
    }

    /// Handle one message; true at `exit`.
    fn handle(&mut self, message: Message) -> bool {
        match message {
            Message::Request(req) => self.on_request(req),
            Message::Notification(n) => {
                if n.method == notification::Exit::METHOD {
                    return true;
                }
                if self.shut_down {
                    return false;
                }
                let method = n.method.clone();
                let outcome =
                    std::panic::catch_unwind(AssertUnwindSafe(|| self.on_notification(n)));
                match outcome {
                    Ok(Ok(())) => {}
                    Ok(Err(message)) => urldb_output::say!("urldb server: {method}: {message}"),
                    Err(panic) => urldb_output::say!(
                        "urldb server: internal error handling {method}: {}",
                        panic_message(&*panic)
                    ),
                }
            }
            // Answers to our own requests (`client/registerCapability`).
            Message::Response(_) => {}
        }
        false
    }

    fn on_request(&mut self, req: Request) {
        let id = req.id.clone();
        if self.shut_down {
            self.send(Response::new_err(
                id,
                ErrorCode::InvalidRequest as i32,
                "the server is shut down; only `exit` is accepted".to_string(),
            ));
            return;
        }
        if req.method == request::Shutdown::METHOD {
            self.shut_down = true;
            self.send(Response::new_ok(id, ()));
            return;
        }
        let method = req.method.clone();
        let cancels = self.cancels.clone();
        let watched = id.clone();
        let is_cancelled = move || cancels.is_cancelled(&watched);
        let response = guarded(id.clone(), &method, || {
            if is_cancelled() {
                return Err(cancelled());
            }
            requests::dispatch(self, req, &is_cancelled)
        });
        self.cancels.forget(&id);
        self.send(response);
    }

    fn publish_dirty(&mut self) {
        for key in std::mem::take(&mut self.dirty) {
            let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| {
                self.publish_one(&key);
            }));
            if let Err(panic) = outcome {
                urldb_output::say!(
                    "urldb server: internal error checking {key}: {}",
                    panic_message(&*panic)
                );
            }
        }
    }
}

/// The answer to a request: `handle`'s result, or its error, or, when it
/// panics, an internal error (logged on stderr); never the end of the
/// server.
fn guarded(
    id: RequestId,
    method: &str,
    handle: impl FnOnce() -> Result<serde_json::Value, Failure>,
) -> Response {
    match std::panic::catch_unwind(AssertUnwindSafe(handle)) {
        Ok(Ok(value)) => Response::new_ok(id, value),
        Ok(Err(failure)) => Response::new_err(id, failure.code as i32, failure.message),
        Err(panic) => {
            let message = format!(
                "internal error handling {method}: {}",
                panic_message(&*panic)
            );
            urldb_output::say!("urldb server: {message}");
            Response::new_err(id, ErrorCode::InternalError as i32, message)
        }
    }
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panicking_handler_is_answered_with_an_internal_error() {
        let response = guarded(RequestId::from(7), "textDocument/hover", || {
            panic!("index out of bounds: the len is 3 but the index is 9")
        });
        assert_eq!(response.id, RequestId::from(7));
        let Err(error) = response.response_result else {
            panic!("an error response");
        };
        assert_eq!(error.code, ErrorCode::InternalError as i32);
        assert!(
            error.message.contains("textDocument/hover") && error.message.contains("the len is 3"),
            "{}",
            error.message
        );
        let ok = guarded(RequestId::from(8), "x", || Ok(serde_json::json!([])));
        assert_eq!(ok.response_result.ok(), Some(serde_json::json!([])));
    }
}
