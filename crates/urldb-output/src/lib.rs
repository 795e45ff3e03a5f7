//! The output gate: every byte urldb prints passes it. [`gate`] opens
//! standard output and standard error (nothing else in urldb does; the
//! language server's JSON-RPC stream aside) and rewrites any line a CI
//! runner would obey as a command; [`say!`] is `eprintln!` through it.
//! Beside it, the escapes of the formats that print: GitHub workflow
//! commands' ([`github_data`], [`github_property`]), HTML's ([`html`]),
//! XML's ([`xml`]), JSON's ([`write_json`], [`write_json_pretty`]) and
//! Markdown's code spans ([`markdown_code`]), and the size GitHub keeps
//! of a job summary ([`SUMMARY_LIMIT`]).
//!
//! The library crates (`urldb-core`, `urldb-store`, `urldb-verify`)
//! return what they have to say as values; the `urldb` binary and the
//! language server print it through here. `docs/dev/architecture.md`
//! draws the whole map.

pub mod gate;
mod github;
mod html;
mod json;
mod markdown;
mod xml;

pub use github::{AnnotationRoot, SUMMARY_LIMIT, SUMMARY_LIMIT_MIN, github_data, github_property};
pub use html::html;
pub use json::{write_json, write_json_pretty};
pub use markdown::markdown_code;
pub use xml::xml;
