//! Exceptions where they belong: suppression comments
//! (`# urldb: ignore[rule-code, …]`, `# urldb: ignore-file[rule-code]`).
//! `docs/suppressions.md` is the user's page.
//!
//! What the directives of a file excuse is decided by [`Directives`];
//! when it is asked is decided in one place, `crate::lint`'s finishing
//! step (`lint/excuse.rs`), for a file's own findings and for the
//! cross-file ones alike: after every rule has run and the selection has
//! kept the enabled findings, before anything is reported, cached or
//! fixed (a suppressed finding is kept apart: SARIF shows it as
//! suppressed; no other format counts it).
//!
//! Where a directive applies comes from the model, so that it moves with
//! what it excuses when `fmt` sorts:
//!
//! - at the end of a line (a trailing comment), the findings that start on
//!   that line;
//! - alone on its line(s), the whole entry, list item or record (document)
//!   the parser gave the comment to: the one that follows it;
//! - `ignore-file`, anywhere, the whole file.
//!
//! Only the directives live here: [`directive`] reads a comment, [`apply`]
//! places the directives of a file, decides what they excuse and reports
//! what they get wrong (`unused-suppression`). Writing directives (`check
//! --add-suppressions`, the editor's "ignore here") runs the linter, and
//! lives with it (`lint/add_suppressions.rs`, `lint/ignore_here.rs`);
//! `[lint.per-file-ignores]` is `crate::per_file_ignores`.

pub(crate) mod apply;
pub(crate) mod directive;

pub(crate) use apply::Directives;
pub(crate) use apply::rewritten;
pub(crate) use directive::{Kind, is_directive, parse_comment};
