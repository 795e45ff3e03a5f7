//! The database on disk: which files belong to it ([`membership`]), the
//! domain files of a root found ([`discover`]), read within a size limit and inside the root ([`read`]),
//! checked per file in parallel with the core's rules ([`database`]),
//! remembered when clean ([`cache`]), and written back without ever losing
//! data ([`write`]). Also the git repository around a database ([`git`]),
//! editing by URL ([`by_url`], [`listing`], [`documents`]) and other formats of a URL list
//! ([`interchange`]), and what `urldb init` finds ([`adopt`]). `docs/dev/architecture.md` draws the whole map.

pub mod adopt;
pub mod by_url;
pub mod cache;
pub mod database;
pub mod discover;
pub mod documents;
pub mod git;
pub mod interchange;
pub mod listing;
pub mod membership;
pub mod read;
pub mod settings;
pub mod write;
