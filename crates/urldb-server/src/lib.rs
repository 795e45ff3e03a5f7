//! `urldb server`: a language server over stdio (LSP 3.17), on the
//! library's own entry points. See `docs/editors.md`.
//!
//! One thread does the work: messages are handled in order, and the
//! diagnostics of changed documents are published once the queue of
//! incoming messages is empty, so a burst of edits is checked once. A
//! second thread reads stdin and notes every `$/cancelRequest` as it comes
//! ([`cancel`]); a request looks there before it starts and between its
//! units of work, and a cancelled one is answered `RequestCancelled`. Each
//! request and notification runs under `catch_unwind`: a panic answers the
//! request with an error, is logged to stderr, and the server goes on.
//!
//! Every document is checked from the editor's buffer, never from the
//! disk. Which documents are checked, and with which settings, is decided
//! by [`workspace`].

mod cancel;
mod code_actions;
mod cross_file;
pub(crate) mod features;
mod keys;
pub(crate) mod position;
mod transport;
pub(crate) mod workspace;

use std::collections::{BTreeSet, HashMap, HashSet};
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use urldb_core::config::Section;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionParams, CodeActionProviderCapability,
    CompletionOptions, CompletionParams, DidChangeTextDocumentParams, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, DocumentFormattingParams, DocumentSymbolParams,
    DocumentSymbolResponse, HoverParams, HoverProviderCapability, InitializeParams, MessageType,
    OneOf, PublishDiagnosticsParams, ServerCapabilities, ServerInfo, ShowMessageParams,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions, Uri, notification, request,
};

use self::cancel::Cancels;
use self::features::Vocabulary;
use self::position::{Encoding, Positions};
use self::workspace::Handling;

/// Why a session could not be served at all.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error("{0}")]
    Protocol(#[from] lsp_server::ProtocolError),
    #[error("invalid initialize parameters: {0}")]
    Initialize(serde_json::Error),
}

/// Why one notification was not handled (the session goes on).
#[derive(Debug, thiserror::Error)]
enum NotificationError {
    #[error("{0}")]
    Params(#[from] serde_json::Error),
    #[error("change to a document that is not open: {0}")]
    NotOpen(String),
}

/// Serve over stdin and stdout until `exit`. `config` is `--config`;
/// `sections` are the tables of `urldb.toml` other crates own (`[verify]`),
/// checked with the file so that a broken one is said here as `urldb
/// check` says it. `Ok(true)`: a clean exit (`shutdown`, then `exit`).
pub fn run_stdio(config: Option<PathBuf>, sections: &[&dyn Section]) -> Result<bool, ServerError> {
    let cancels = Cancels::default();
    let (connection, writer) = transport::stdio(cancels.clone());
    let served = serve(&connection, config, sections, cancels);
    // Every answer is written before the process ends.
    drop(connection);
    let _ = writer.join();
    served
}

/// Serve on a connection until `exit` (or until the client goes away).
/// `cancels` is fed by whatever reads the connection's input.
fn serve(
    connection: &Connection,
    config: Option<PathBuf>,
    sections: &[&dyn Section],
    cancels: Cancels,
) -> Result<bool, ServerError> {
    let (id, params) = connection.initialize_start()?;
    let params: InitializeParams = match serde_json::from_value(params) {
        Ok(p) => p,
        Err(e) => {
            let error = ServerError::Initialize(e);
            let _ = connection.sender.send(
                Response::new_err(id, ErrorCode::InvalidParams as i32, error.to_string()).into(),
            );
            return Err(error);
        }
    };
    let encoding = Encoding::negotiate(
        params
            .capabilities
            .general
            .as_ref()
            .and_then(|g| g.position_encodings.as_deref()),
    );
    let result = serde_json::json!({
        "capabilities": capabilities(encoding),
        "serverInfo": ServerInfo {
            name: "urldb".to_string(),
            version: Some(env!("CARGO_PKG_VERSION").to_string()),
        },
    });
    connection.initialize_finish(id, result)?;
    let mut server = Server {
        connection,
        cancels,
        resolves_edits: resolves_edits(&params),
        encoding,
        config,
        sections,
        workspace: workspace_folder(&params),
        watch_dynamically: params
            .capabilities
            .workspace
            .as_ref()
            .and_then(|w| w.did_change_watched_files)
            .and_then(|d| d.dynamic_registration)
            .unwrap_or(false),
        documents: HashMap::new(),
        dirty: BTreeSet::new(),
        shown: HashSet::new(),
        vocabularies: HashMap::new(),
        disk_facts: HashMap::new(),
        guesses: HashMap::new(),
        shut_down: false,
        next_id: 0,
    };
    // `initialize_finish` took the `initialized` notification.
    server.register_watchers();
    Ok(server.main_loop())
}

fn capabilities(encoding: Encoding) -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(encoding.kind()),
        // `save`: clients send didSave only when asked to, and a save is
        // when the cross-file rules read the disk again.
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                save: Some(TextDocumentSyncSaveOptions::Supported(true)),
                ..TextDocumentSyncOptions::default()
            },
        )),
        document_formatting_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![
                CodeActionKind::QUICKFIX,
                CodeActionKind::from(features::FIX_ALL),
            ]),
            resolve_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        document_symbol_provider: Some(OneOf::Left(true)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec!["-".into(), " ".into(), "[".into(), ",".into()]),
            ..CompletionOptions::default()
        }),
        ..ServerCapabilities::default()
    }
}

/// The client can resolve a code action's `edit` and keeps its `data`
/// (LSP 3.16): its code actions come without edits, each built on
/// `codeAction/resolve`.
fn resolves_edits(params: &InitializeParams) -> bool {
    let Some(actions) = params
        .capabilities
        .text_document
        .as_ref()
        .and_then(|t| t.code_action.as_ref())
    else {
        return false;
    };
    actions.data_support == Some(true)
        && actions
            .resolve_support
            .as_ref()
            .is_some_and(|r| r.properties.iter().any(|p| p == "edit"))
}

/// The client's (first) workspace folder, as a path.
fn workspace_folder(params: &InitializeParams) -> Option<PathBuf> {
    if let Some(folder) = params.workspace_folders.as_ref().and_then(|f| f.first()) {
        return file_path(&folder.uri);
    }
    #[allow(deprecated)]
    params.root_uri.as_ref().and_then(file_path)
}

/// The path of a `file:` URI.
fn file_path(uri: &Uri) -> Option<PathBuf> {
    let url = url::Url::parse(uri.as_str()).ok()?;
    if url.scheme() != "file" {
        return None;
    }
    url.to_file_path().ok()
}

/// An open document.
struct Document {
    text: String,
    version: i32,
    path: Option<PathBuf>,
}

struct Server<'a> {
    connection: &'a Connection,
    /// The requests the client cancelled, noted as they are read.
    cancels: Cancels,
    /// The client resolves code actions' edits ([`resolves_edits`]).
    resolves_edits: bool,
    encoding: Encoding,
    /// `--config`.
    config: Option<PathBuf>,
    /// The tables of `urldb.toml` other crates own, checked with it.
    sections: &'a [&'a dyn Section],
    workspace: Option<PathBuf>,
    watch_dynamically: bool,
    documents: HashMap<String, Document>,
    /// Documents whose diagnostics are to be published.
    dirty: BTreeSet<String>,
    /// Messages already shown (a broken `urldb.toml` is said once, not at
    /// every keystroke).
    shown: HashSet<String>,
    /// Categories and content types of each database root's files on
    /// disk, read on the first completion, dropped when files change.
    vocabularies: HashMap<PathBuf, Vocabulary>,
    /// The cross-file facts of each database root's files on disk, read at
    /// the first check, dropped when files change.
    disk_facts: HashMap<PathBuf, std::sync::Arc<cross_file::DiskFacts>>,
    /// Where the database is below a folder no `urldb.toml` covers, found
    /// at the first check, dropped when files change.
    guesses: workspace::Guesses,
    shut_down: bool,
    next_id: i32,
}

/// An error answer to a request.
struct Failure {
    code: ErrorCode,
    message: String,
}

fn invalid_params(e: serde_json::Error) -> Failure {
    Failure {
        code: ErrorCode::InvalidParams,
        message: e.to_string(),
    }
}

/// The answer to a request that was cancelled.
fn cancelled() -> Failure {
    Failure {
        code: ErrorCode::RequestCanceled,
        message: "cancelled".to_string(),
    }
}

impl From<code_actions::Interrupted> for Failure {
    fn from(_: code_actions::Interrupted) -> Self {
        cancelled()
    }
}

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
    fn main_loop(&mut self) -> bool {
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

    fn send(&self, message: impl Into<Message>) {
        // The client went away: the main loop ends at the next receive.
        let _ = self.connection.sender.send(message.into());
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
            self.dispatch(req, &is_cancelled)
        });
        self.cancels.forget(&id);
        self.send(response);
    }

    fn dispatch(
        &mut self,
        req: Request,
        is_cancelled: &dyn Fn() -> bool,
    ) -> Result<serde_json::Value, Failure> {
        let to_value = |v: serde_json::Result<serde_json::Value>| {
            v.map_err(|e| Failure {
                code: ErrorCode::InternalError,
                message: e.to_string(),
            })
        };
        match req.method.as_str() {
            request::Formatting::METHOD => {
                let p: DocumentFormattingParams =
                    serde_json::from_value(req.params).map_err(invalid_params)?;
                to_value(serde_json::to_value(self.formatting(&p.text_document.uri)))
            }
            request::CodeActionRequest::METHOD => {
                let p: CodeActionParams =
                    serde_json::from_value(req.params).map_err(invalid_params)?;
                let actions = self.code_actions(&p, is_cancelled)?;
                to_value(serde_json::to_value(actions))
            }
            request::CodeActionResolveRequest::METHOD => {
                let action: lsp_types::CodeAction =
                    serde_json::from_value(req.params).map_err(invalid_params)?;
                let resolved = self.resolve_code_action(action, is_cancelled)?;
                to_value(serde_json::to_value(resolved))
            }
            request::DocumentSymbolRequest::METHOD => {
                let p: DocumentSymbolParams =
                    serde_json::from_value(req.params).map_err(invalid_params)?;
                let symbols =
                    self.with_checked(&p.text_document.uri, true, |checked, _, _, pos| {
                        features::symbols(checked, pos)
                    });
                to_value(serde_json::to_value(
                    symbols.map(DocumentSymbolResponse::Nested),
                ))
            }
            request::HoverRequest::METHOD => {
                let p: HoverParams = serde_json::from_value(req.params).map_err(invalid_params)?;
                let at = p.text_document_position_params;
                let hover = self
                    .with_checked(&at.text_document.uri, true, |checked, _, _, pos| {
                        features::hover(checked, pos, pos.offset(at.position))
                    })
                    .flatten();
                to_value(serde_json::to_value(hover))
            }
            request::Completion::METHOD => {
                let p: CompletionParams =
                    serde_json::from_value(req.params).map_err(invalid_params)?;
                to_value(serde_json::to_value(self.completion(&p)))
            }
            _ => Err(Failure {
                code: ErrorCode::MethodNotFound,
                message: format!("urldb server does not handle `{}`", req.method),
            }),
        }
    }

    fn on_notification(&mut self, n: Notification) -> Result<(), NotificationError> {
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

    /// Ask the client to tell us about changes to `urldb.toml` and domain
    /// files, when it can register watchers at run time.
    fn register_watchers(&mut self) {
        if !self.watch_dynamically {
            return;
        }
        self.next_id += 1;
        let params = serde_json::json!({
            "registrations": [{
                "id": "urldb-watched-files",
                "method": notification::DidChangeWatchedFiles::METHOD,
                "registerOptions": {
                    "watchers": [
                        { "globPattern": "**/urldb.toml" },
                        { "globPattern": "**/*.{yaml,yml}" },
                    ]
                }
            }]
        });
        self.send(Request::new(
            RequestId::from(format!("urldb-{}", self.next_id)),
            request::RegisterCapability::METHOD.to_string(),
            params,
        ));
    }

    fn show(&mut self, typ: MessageType, message: String) {
        if !self.shown.insert(message.clone()) {
            return;
        }
        self.send(Notification::new(
            notification::ShowMessage::METHOD.to_string(),
            ShowMessageParams { typ, message },
        ));
    }

    fn publish(&self, uri: Uri, diagnostics: Vec<lsp_types::Diagnostic>, version: Option<i32>) {
        self.send(Notification::new(
            notification::PublishDiagnostics::METHOD.to_string(),
            PublishDiagnosticsParams {
                uri,
                diagnostics,
                version,
            },
        ));
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

    fn publish_one(&mut self, key: &str) {
        let Ok(uri) = key.parse::<Uri>() else { return };
        let version = self.documents.get(key).map(|d| d.version);
        let diagnostics = self
            .with_checked(&uri, false, |checked, _, _, pos| {
                features::diagnostics(checked, &uri, pos)
            })
            .unwrap_or_default();
        self.publish(uri, diagnostics, version);
    }

    /// Run `f` on the check of an open document that belongs to a
    /// database; `None` for an unknown or ignored document (a broken
    /// configuration is shown to the user).
    fn with_checked<T>(
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
        let mut checked = features::check(&setup.path, &doc.text, &setup.options, tree);
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

    fn formatting(&mut self, uri: &Uri) -> Option<Vec<lsp_types::TextEdit>> {
        let result = self.with_checked(uri, true, |checked, _, _, pos| {
            features::format(checked)
                .map(|text| text.map(|t| features::replace_all(pos, t)))
                .map_err(|e| e.to_string())
        })?;
        match result {
            Ok(edit) => Some(edit.into_iter().collect()),
            Err(message) => {
                // Said at every request: the user asked.
                self.shown.remove(&message);
                self.show(MessageType::WARNING, message);
                None
            }
        }
    }

    /// The code actions for a range: the buffer checked (one unit of
    /// work), then each action (`code_actions.rs` bounds them).
    fn code_actions(
        &mut self,
        p: &CodeActionParams,
        is_cancelled: &dyn Fn() -> bool,
    ) -> Result<Vec<lsp_types::CodeActionOrCommand>, Failure> {
        let uri = &p.text_document.uri;
        let lazy = self.resolves_edits;
        let listed = self.with_checked(uri, true, |checked, setup, doc, pos| {
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
        Ok(listed.transpose()?.unwrap_or_default())
    }

    /// A code action's edit, built on the buffer it was offered for.
    fn resolve_code_action(
        &mut self,
        action: lsp_types::CodeAction,
        is_cancelled: &dyn Fn() -> bool,
    ) -> Result<lsp_types::CodeAction, Failure> {
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
        let lazy = self.resolves_edits;
        let resolved = self.with_checked(&uri, true, |checked, setup, doc, pos| {
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
        Some(features::completions(
            &doc.text,
            pos.offset(at.position),
            &pos,
            &vocabulary,
        ))
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
