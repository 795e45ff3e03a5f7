//! The urldb core: one domain file's text in, findings and canonical text
//! out. It knows the model of a domain file ([`model`]), reads text into
//! it with byte spans ([`parse`]), checks it ([`rules`], run by [`lint`]),
//! and renders it as canonical text ([`render`]). It reads no file and
//! opens no connection: the callers (`urldb-store`, `urldb-verify`,
//! `urldb-server`, the `urldb` binary) hand it text and settings.
//! `docs/dev/architecture.md` draws the whole map.

pub mod config;
pub mod diff;
pub mod fix;
pub mod lint;
pub mod merge;
pub mod model;
pub mod parse;
pub(crate) mod per_file_ignores;
pub mod render;
pub mod rules;
pub mod selection;
pub mod source;
pub(crate) mod suggest;
pub(crate) mod suppress;
pub mod text;
pub mod url;

/// `[lint.per-file-ignores]`, compiled (`lint::Options::per_file_ignores`).
pub use per_file_ignores::{BadPerFileIgnore, PerFileIgnores};
/// "Did you mean": the closest of some words to a word given.
pub use suggest::closest;
