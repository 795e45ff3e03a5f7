//! The notifications the server takes: documents opened, changed (edits
//! applied in order, each range in the encoding agreed), closed and
//! saved, and files changed on disk. Each only notes what is to be checked
//! again; the session publishes the diagnostics once the queue is empty.

use lsp_server::Notification;
use lsp_types::notification::Notification as _;
use lsp_types::{
    DidChangeTextDocumentParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams,
    notification,
};

use crate::position::Positions;
use crate::session::{Document, Server, file_path};

/// Why one notification was not handled (the session goes on).
#[derive(Debug, thiserror::Error)]
pub(crate) enum NotificationError {
    #[error("{0}")]
    Params(#[from] serde_json::Error),
    #[error("change to a document that is not open: {0}")]
    NotOpen(String),
}

impl Server<'_> {
    pub(crate) fn on_notification(&mut self, n: Notification) -> Result<(), NotificationError> {
        match n.method.as_str() {
            notification::DidOpenTextDocument::METHOD => {
                let p: DidOpenTextDocumentParams = serde_json::from_value(n.params)?;
                let key = p.text_document.uri.as_str().to_string();
                self.documents.insert(
                    key.clone(),
                    Document {
                        text: p.text_document.text,
                        version: p.text_document.version,
                        path: file_path(&p.text_document.uri),
                    },
                );
                self.dirty.insert(key);
            }
            notification::DidChangeTextDocument::METHOD => {
                let p: DidChangeTextDocumentParams = serde_json::from_value(n.params)?;
                let key = p.text_document.uri.as_str().to_string();
                let Some(doc) = self.documents.get_mut(&key) else {
                    return Err(NotificationError::NotOpen(key));
                };
                for change in p.content_changes {
                    match change.range {
                        Some(range) => {
                            let pos = Positions::new(&doc.text, self.encoding);
                            let start = pos.offset(range.start);
                            let end = pos.offset(range.end).max(start);
                            doc.text.replace_range(start..end, &change.text);
                        }
                        None => doc.text = change.text,
                    }
                }
                doc.version = p.text_document.version;
                self.dirty.insert(key);
            }
            notification::DidCloseTextDocument::METHOD => {
                let p: DidCloseTextDocumentParams = serde_json::from_value(n.params)?;
                let key = p.text_document.uri.as_str().to_string();
                self.documents.remove(&key);
                self.dirty.remove(&key);
                self.publish(p.text_document.uri, Vec::new(), None);
            }
            notification::DidSaveTextDocument::METHOD => {
                // The database on disk changed: completion and the
                // cross-file rules read it again, for every open document.
                self.vocabularies.clear();
                self.disk_facts.clear();
                self.guesses.clear();
                self.dirty.extend(self.documents.keys().cloned());
            }
            notification::DidChangeWatchedFiles::METHOD => {
                // `urldb.toml` or a domain file changed: the configuration
                // is read again at the next check of every open document.
                self.vocabularies.clear();
                self.disk_facts.clear();
                self.guesses.clear();
                self.shown.clear();
                self.dirty.extend(self.documents.keys().cloned());
            }
            _ => {}
        }
        Ok(())
    }
}
