//! The database on disk: which files belong to it ([`membership`]), the
//! domain files of a root found ([`find_files`]), read within a size limit
//! and inside the root ([`read_limited`], [`Root`]), checked per file in
//! parallel with the core's rules ([`database`]), remembered when clean
//! ([`Cache`]), and written back without ever losing data ([`write`]).
//! Also the settings of a run or an editor workspace ([`Settings`]), the
//! git repository around a database ([`Repository`]), editing by URL
//! ([`add_records`], [`collect_records`]) and other formats of a URL list
//! ([`interchange`]), what `urldb init` finds ([`plan_init`]), and what
//! changed between two versions of a database, record by record
//! ([`changes()`]).
//! `docs/dev/architecture.md` draws the whole map.
//!
//! The public surface is this file: four modules whose items read best
//! with their module's name (`database::run`, `write::replace`), and the
//! items below. Every other module is private.

pub mod database;
pub mod interchange;
pub mod membership;
pub mod write;

mod adopt;
mod by_url;
mod cache;
mod changes;
mod configs_below;
mod databases;
mod discover;
mod documents;
mod git;
mod governing;
mod listing;
mod merging;
mod read;
mod selecting;
mod settings;
mod written_style;

pub use adopt::{InitDatabase, InitError, InitPlan, listed_names, plan_init};
pub use by_url::{
    Change, Domain, EditError, FileEdit, HostIndex, LookupError, NewRecord, add_records,
    read_record, redirect_paths, remove_paths,
};
pub use cache::{Cache, cache_location};
pub use changes::{
    ChangeSet, ChangesError, FileChange, FileKind, KeyChange, Recheck, RecordChange, RecordKind,
    Side, Sides, SidesError, Unreadable, Value, Which, changes,
};
pub use configs_below::{MAX_DATABASES, TooManyDatabases, configs_below};
pub use databases::{Database, Databases, Part, Route, SelectError};
pub use discover::{Found, Judged, WalkError, find_files, judge_files};
pub use documents::DocumentError;
pub use git::{Conversion, GitError, Repository};
pub use governing::{Governing, governing_config};
pub use listing::{
    Collected, Filter, LeftOut, LeftOutReason, UnknownDomain, UrlRecord, collect_records,
    known_hosts, require_known,
};
pub use merging::{LineMerge, MergingError, line_merge, set_local_config};
pub use read::{ReadError, Root, is_inside, open_regular, read_limited};
pub use selecting::{FilesOf, SelectsNothing, require_selecting};
pub use settings::{Origin, RuleOverrides, Settings, SettingsError, lint_options, with_root};
pub use written_style::{StyleCount, count_written_styles};
