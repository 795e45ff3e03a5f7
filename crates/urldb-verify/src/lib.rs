//! `urldb verify` as a library: plan the URLs of the database ([`plan`]),
//! fetch them with bounded concurrency and a per-host limit ([`run`],
//! `running.rs`), judge each answer against its record ([`judge`],
//! `judging.rs`), gather them in one model ([`results`], merged across
//! `--shard`s and classified against a [`history`]) and describe them for
//! people and machines ([`output`]: one module per `--format`).
//!
//! The semantics are the reference tool's (`docs/verify.md`): GET,
//! redirects not followed, a status of 400 or more is broken, a 3xx passes
//! with `redirect-ok` or a matching `X-<status>-Redirect` content type,
//! otherwise the media type must match (with two tolerated aliases), and a
//! record with `content-length` / `content-sha256` gets its body streamed
//! and compared.
//!
//! The public surface is this file: five modules whose items read best
//! with their module's name (`plan::plan`, `history::append`,
//! `results::merge`), and the items below. Every other module is private.

pub mod config;
pub mod history;
pub mod output;
pub mod plan;
pub mod results;

mod archive;
mod blocked;
mod exceptions;
mod http;
mod judging;
mod maps;
mod moves;
mod pace;
mod robots;
mod running;
mod schedule;
mod shard;
mod trend;

pub use archive::{
    ArchiveOptions, ArchiveVerdict, Archived, DEFAULT_ARCHIVE, INTERNET_ARCHIVE_INTERVAL,
    LOOKUP_KEPT,
};
pub use exceptions::{AllowEnv, Allowed, BadAllowEnv, ExceptionError, Exceptions};
pub use http::{BodyMode, Client, ClientOptions, FetchError};
pub use judging::{Blocked, Failure, Outcome, judge, outcome};
pub use moves::{FollowMoves, MAX_HOPS, MoveVerdict, Moved};
pub use robots::{RobotsDenial, RobotsRules};
pub use running::{CheckResult, HostRun, RunOptions, RunOutput, run};
pub use shard::{
    AutoShardError, HostSplit, JOB_INDEX, Shard, ShardError, ShardSpec, by_host as shard_by_host,
};
