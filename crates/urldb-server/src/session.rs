//! The session: the open documents and what is kept between requests;
//! the check of a document that every request and the diagnostics start
//! from (its database's settings, the cross-file rules over its
//! database); what is sent to the client. The loop over the client's
//! messages is `main_loop.rs`; what each request answers is in
//! `requests/`, one file per kind.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::PathBuf;

use lsp_server::{Connection, Message, Notification};
use lsp_types::notification::Notification as _;
use lsp_types::{MessageType, PublishDiagnosticsParams, ShowMessageParams, Uri, notification};
use urldb_core::config::Section;

use crate::cancel::Cancels;
use crate::position::{Encoding, Positions};
use crate::vocabulary::Vocabulary;
use crate::workspace::{self, Handling};
use crate::{cross_file, diagnostics};

/// An open document.
pub(crate) struct Document {
    pub(crate) text: String,
    pub(crate) version: i32,
    pub(crate) path: Option<PathBuf>,
}

/// One session with a client: its documents and what is kept between
/// requests.
pub(crate) struct Server<'a> {
    pub(crate) connection: &'a Connection,
    /// The requests the client cancelled, noted as they are read.
    pub(crate) cancels: Cancels,
    /// The client resolves code actions' edits (`initialize.rs`).
    pub(crate) resolves_edits: bool,
    pub(crate) encoding: Encoding,
    /// `--config`.
    pub(crate) config: Option<PathBuf>,
    /// The tables of `urldb.toml` other crates own, checked with it.
    pub(crate) sections: &'a [&'a dyn Section],
    pub(crate) workspace: Option<PathBuf>,
    pub(crate) watch_dynamically: bool,
    pub(crate) documents: HashMap<String, Document>,
    /// Documents whose diagnostics are to be published.
    pub(crate) dirty: BTreeSet<String>,
    /// Messages already shown (a broken `urldb.toml` is said once, not at
    /// every keystroke).
    pub(crate) shown: HashSet<String>,
    /// Categories and content types of each database root's files on
    /// disk, read on the first completion, dropped when files change.
    pub(crate) vocabularies: HashMap<PathBuf, Vocabulary>,
    /// The cross-file facts of each database root's files on disk, read at
    /// the first check, dropped when files change.
    pub(crate) disk_facts: HashMap<PathBuf, std::sync::Arc<cross_file::DiskFacts>>,
    /// Where the database is below a folder no `urldb.toml` covers, found
    /// at the first check, dropped when files change.
    pub(crate) guesses: workspace::Guesses,
    pub(crate) shut_down: bool,
    pub(crate) next_id: i32,
}

impl Server<'_> {
    pub(crate) fn send(&self, message: impl Into<Message>) {
        // The client went away: the main loop ends at the next receive.
        let _ = self.connection.sender.send(message.into());
    }

    pub(crate) fn show(&mut self, typ: MessageType, message: String) {
        if !self.shown.insert(message.clone()) {
            return;
        }
        self.send(Notification::new(
            notification::ShowMessage::METHOD.to_string(),
            ShowMessageParams { typ, message },
        ));
    }

    pub(crate) fn publish(
        &self,
        uri: Uri,
        diagnostics: Vec<lsp_types::Diagnostic>,
        version: Option<i32>,
    ) {
        self.send(Notification::new(
            notification::PublishDiagnostics::METHOD.to_string(),
            PublishDiagnosticsParams {
                uri,
                diagnostics,
                version,
            },
        ));
    }

    pub(crate) fn publish_one(&mut self, key: &str) {
        let Ok(uri) = key.parse::<Uri>() else { return };
        let version = self.documents.get(key).map(|d| d.version);
        let diagnostics = self
            .with_checked(&uri, false, |checked, _, _, pos| {
                diagnostics::diagnostics(checked, &uri, pos)
            })
            .unwrap_or_default();
        self.publish(uri, diagnostics, version);
    }

    /// Run `f` on the check of an open document that belongs to a
    /// database; `None` for an unknown or ignored document (a broken
    /// configuration is shown to the user).
    pub(crate) fn with_checked<T>(
        &mut self,
        uri: &Uri,
        tree: bool,
        f: impl FnOnce(&urldb_core::lint::Checked, &workspace::Setup, &Document, &Positions) -> T,
    ) -> Option<T> {
        let doc = self.documents.get(uri.as_str())?;
        let name = uri
            .as_str()
            .rsplit('/')
            .next()
            .unwrap_or("untitled.yaml")
            .to_string();
        let verdict = workspace::resolve(
            doc.path.as_deref(),
            &name,
            self.config.as_deref(),
            self.sections,
            self.workspace.as_deref(),
            &mut self.guesses,
        );
        let setup = match verdict {
            Handling::Check(setup) => setup,
            Handling::Ignore => return None,
            Handling::Broken(message) => {
                self.show(MessageType::ERROR, format!("urldb: {message}"));
                return None;
            }
        };
        let disk = setup
            .members
            .as_ref()
            .map(|members| self.disk_facts(members, &setup));
        let doc = self.documents.get(uri.as_str())?;
        let mut checked = diagnostics::check(&setup.path, &doc.text, &setup.options, tree);
        if let (Some(members), Some(disk)) = (&setup.members, disk) {
            let others: Vec<(PathBuf, &str)> = self
                .documents
                .iter()
                .filter(|(key, _)| key.as_str() != uri.as_str())
                .filter_map(|(_, d)| {
                    let path = d.path.as_ref()?;
                    members
                        .of_governed(path)
                        .is_ok()
                        .then(|| (path.clone(), d.text.as_str()))
                })
                .collect();
            cross_file::add(&setup.path, &mut checked, &others, &disk, &setup.options);
        }
        let pos = Positions::new(&doc.text, self.encoding);
        Some(f(&checked, &setup, doc, &pos))
    }

    /// The cross-file facts of the database's files on disk.
    fn disk_facts(
        &mut self,
        members: &urldb_store::membership::Members,
        setup: &workspace::Setup,
    ) -> std::sync::Arc<cross_file::DiskFacts> {
        self.disk_facts
            .entry(members.root().to_path_buf())
            .or_insert_with(|| {
                std::sync::Arc::new(cross_file::disk_facts(
                    members,
                    setup.options.settings.max_file_size,
                ))
            })
            .clone()
    }
}

/// The path of a `file:` URI.
pub(crate) fn file_path(uri: &Uri) -> Option<PathBuf> {
    let url = url::Url::parse(uri.as_str()).ok()?;
    if url.scheme() != "file" {
        return None;
    }
    url.to_file_path().ok()
}
