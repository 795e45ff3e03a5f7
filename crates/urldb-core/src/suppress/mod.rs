//! Exceptions where they belong: suppression comments
//! (`# urldb: ignore[rule-code, …]`, `# urldb: ignore-file[rule-code]`) and
//! `[lint.per-file-ignores]`. `docs/suppressions.md` is the user's page.
//!
//! Suppression is applied in one place, [`crate::lint::check_bytes`],
//! after every rule has run and the selection has kept the enabled
//! findings, before anything is reported, cached or fixed: a suppressed
//! finding is moved to [`crate::lint::Checked::suppressed`] (SARIF shows
//! it as suppressed; no other format counts it). Cross-file findings are
//! matched against the same directives by `urldb-store`
//! ([`Directives::of_text`]).
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
//! One job a module: [`directive`] reads a comment, [`apply`] decides
//! what the directives of a file excuse, [`per_file`] is the table in
//! `urldb.toml`, [`add`] writes directives (`check --add-suppressions`),
//! [`ignore_here`] is the editor's code action. Only `add` and
//! `ignore_here` run the linter, and nothing below them imports them: the
//! configuration (which validates [`per_file`]) and the linter (which
//! applies [`apply`]) import the module they need.

pub(crate) mod add;
pub(crate) mod apply;
pub(crate) mod directive;
pub(crate) mod ignore_here;
pub(crate) mod per_file;

pub use add::{Added, add};
pub use apply::Directives;
pub use directive::{Code, Directive, Kind, Malformed, is_directive, parse_comment};
pub use ignore_here::ignore_here;
pub use per_file::{BadPerFileIgnore, PerFileIgnores};
