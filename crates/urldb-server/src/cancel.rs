//! The requests a client cancelled (`$/cancelRequest`), as the thread that
//! reads stdin sees them: the request being worked on looks here between
//! units of work, so a cancel is honoured while the request runs, not only
//! before it starts.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use lsp_server::{Message, RequestId};
use lsp_types::notification::{Cancel, Notification as _};

/// How many cancelled ids are kept. A cancel that comes after its request
/// was answered is never looked up again; the oldest is dropped first.
const KEPT: usize = 1024;

/// The ids of cancelled requests, shared between the reader and the
/// server's thread.
#[derive(Debug, Clone, Default)]
pub(crate) struct Cancels(Arc<Mutex<VecDeque<RequestId>>>);

impl Cancels {
    fn ids(&self) -> MutexGuard<'_, VecDeque<RequestId>> {
        // A panic while holding the lock leaves a valid list of ids.
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Note the id `message` cancels, when it is a `$/cancelRequest`.
    pub(crate) fn note(&self, message: &Message) {
        let Message::Notification(n) = message else {
            return;
        };
        if n.method != Cancel::METHOD {
            return;
        }
        let Ok(params) = serde_json::from_value::<lsp_types::CancelParams>(n.params.clone()) else {
            return;
        };
        let id = match params.id {
            lsp_types::NumberOrString::Number(n) => RequestId::from(n),
            lsp_types::NumberOrString::String(s) => RequestId::from(s),
        };
        let mut ids = self.ids();
        if ids.len() == KEPT {
            ids.pop_front();
        }
        ids.push_back(id);
    }

    pub(crate) fn is_cancelled(&self, id: &RequestId) -> bool {
        self.ids().contains(id)
    }

    /// The request was answered: its id is not looked up again.
    pub(crate) fn forget(&self, id: &RequestId) {
        self.ids().retain(|i| i != id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_server::Notification;

    fn cancel(id: serde_json::Value) -> Message {
        Message::Notification(Notification::new(
            Cancel::METHOD.to_string(),
            serde_json::json!({ "id": id }),
        ))
    }

    #[test]
    fn cancels_are_noted_and_forgotten() {
        let cancels = Cancels::default();
        cancels.note(&cancel(serde_json::json!(7)));
        cancels.note(&cancel(serde_json::json!("x")));
        cancels.note(&cancel(serde_json::json!({"not": "an id"})));
        cancels.note(&Message::Notification(Notification::new(
            "textDocument/didSave".into(),
            serde_json::json!({ "id": 8 }),
        )));
        assert!(cancels.is_cancelled(&RequestId::from(7)));
        assert!(cancels.is_cancelled(&RequestId::from("x".to_string())));
        assert!(!cancels.is_cancelled(&RequestId::from(8)));
        cancels.forget(&RequestId::from(7));
        assert!(!cancels.is_cancelled(&RequestId::from(7)));
        for i in 0..2 * KEPT as i32 {
            cancels.note(&cancel(serde_json::json!(i)));
        }
        assert_eq!(cancels.ids().len(), KEPT);
        assert!(cancels.is_cancelled(&RequestId::from(2 * KEPT as i32 - 1)));
        assert!(!cancels.is_cancelled(&RequestId::from(0)));
    }
}
