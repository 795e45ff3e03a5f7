//! What every command run shares: the exit status and the error type
//! (`app/errors.rs`), the shared command-line options (`app/args.rs`) and
//! the run context (`app/context.rs`: configuration, database root,
//! colors, threads, the rule selection it asks for). Commands take a
//! [`Context`] and return an [`ExitStatus`]; `cli` builds the one and
//! turns the other into the process's exit code.

mod args;
mod context;
mod errors;

pub(crate) use args::{
    ConfigOnly, DATABASE_OPTIONS, DbOutputArgs, FailOnArg, FilesArgs, GlobalArgs, QuietArg,
    SelectArgs, ThreadsArg, VerboseArg, fail_on,
};
pub(crate) use context::{Context, MAX_THREADS, say_warnings, timeout, with_context};
pub(crate) use errors::{CommandError, ExitStatus, about_url, exit_status, verify_exit_status};
