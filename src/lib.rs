//! urldb: lint, format and maintain a URL database kept in git.
//!
//! The library follows the data: files are found ([`discover`]), read into a
//! spanned model ([`parse`], [`model`]), checked by rules ([`rules`], run by
//! [`lint`] per file and [`database`] across files), then either reported
//! ([`report`]) or rendered as canonical text ([`render`]) and written
//! ([`write`]). The `urldb` binary is a thin layer over it ([`cli`]).

pub mod app;
pub mod cache;
pub mod cli;
pub mod commands;
pub mod config;
pub mod database;
pub mod diff;
pub mod discover;
pub mod edit;
pub mod git;
pub mod http;
pub mod interchange;
pub mod lint;
pub mod listing;
pub mod model;
pub mod parse;
pub mod read;
pub mod render;
pub mod report;
pub mod rules;
pub mod selection;
pub mod server;
pub mod source;
pub mod suggest;
pub mod text;
pub mod url;
pub mod verify;
pub mod write;
