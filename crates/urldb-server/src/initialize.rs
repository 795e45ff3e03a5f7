//! Initialization: the `initialize` handshake (the position encoding
//! both sides speak, what the client can do), the capabilities the server
//! offers, and the watchers it registers; then the session runs
//! (`session.rs`) until `exit`.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::PathBuf;

use lsp_server::{Connection, ErrorCode, Request, RequestId, Response};
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, CompletionOptions,
    HoverProviderCapability, InitializeParams, OneOf, ServerCapabilities, ServerInfo,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions, notification, request,
};
use urldb_core::config::Section;

use crate::cancel::Cancels;
use crate::code_actions;
use crate::position::Encoding;
use crate::session::{Server, file_path};

/// Why a session could not be served at all.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error("{0}")]
    Protocol(#[from] lsp_server::ProtocolError),
    #[error("invalid initialize parameters: {0}")]
    Initialize(serde_json::Error),
}

/// Serve on a connection until `exit` (or until the client goes away).
/// `cancels` is fed by whatever reads the connection's input.
pub(crate) fn serve(
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
                CodeActionKind::from(code_actions::FIX_ALL),
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

impl Server<'_> {
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
}
