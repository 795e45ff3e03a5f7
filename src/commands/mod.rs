//! One module per subcommand: read the arguments, call the library, print,
//! and say which exit status the run earned. Beside them, what several
//! commands share: the files a run takes (`targets`), editing by URL
//! (`by_url`: `add`, `rm`, `import`), the run context of `check` and
//! `fmt` (`run`: `Run`, with `not_written` for a new text it could not
//! write), standard input as a file (`stdin`), options a few commands
//! share (`shared_args`) and what a run says beside its results
//! (`notes`).

pub(crate) mod add;
pub(crate) mod check;
pub(crate) mod completions;
pub(crate) mod diff;
pub(crate) mod export;
pub(crate) mod fmt;
pub(crate) mod import;
pub(crate) mod init;
pub(crate) mod install_hook;
pub(crate) mod ls;
pub(crate) mod merge;
pub(crate) mod moved;
pub(crate) mod records;
pub(crate) mod report;
pub(crate) mod rm;
pub(crate) mod rules;
pub(crate) mod server;
pub(crate) mod verify;

mod by_url;
mod not_written;
mod notes;
mod run;
mod shared_args;
mod stdin;
mod targets;
