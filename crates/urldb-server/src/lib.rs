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
//!
//! This file lists the modules: [`initialize`] (the handshake and the
//! capabilities), [`main_loop`], [`session`] (the open documents, the
//! check every answer starts from), [`notifications`], [`requests`] (one
//! file per kind of request, as `ruff_server` keeps them), what they use
//! ([`diagnostics`], [`code_actions`], [`cross_file`], [`vocabulary`],
//! [`keys`], [`position`]) and the transport ([`transport`], [`cancel`]).

mod cancel;
mod code_actions;
mod cross_file;
mod diagnostics;
mod initialize;
mod keys;
mod main_loop;
mod notifications;
mod position;
mod requests;
mod session;
mod transport;
mod vocabulary;
mod workspace;

use std::path::PathBuf;

use urldb_core::config::Section;

pub use initialize::ServerError;

/// Serve over stdin and stdout until `exit`. `config` is `--config`;
/// `sections` are the tables of `urldb.toml` other crates own (`[verify]`),
/// checked with the file so that a broken one is said here as `urldb
/// check` says it. `Ok(true)`: a clean exit (`shutdown`, then `exit`).
pub fn run_stdio(config: Option<PathBuf>, sections: &[&dyn Section]) -> Result<bool, ServerError> {
    let cancels = cancel::Cancels::default();
    let (connection, writer) = transport::stdio(cancels.clone());
    let served = initialize::serve(&connection, config, sections, cancels);
    // Every answer is written before the process ends.
    drop(connection);
    let _ = writer.join();
    served
}
