//! Every integration test in one binary (as ripgrep does): the support
//! code compiles once and the suite links once. One module per command (`check`, `fmt`,
//! `diff`, `add`, `verify`, `interchange` for export/import/ls, `server`), then the
//! areas every command shares (`urls`, `hostile`), what differs between
//! operating systems (`systems`, also run against the Windows build under
//! Wine) and the project as a whole (`project`); within each, one file per
//! technique.

// The tests print notes for a person reading a run; urldb's own output
// is what passes the gate (clippy.toml).
#![allow(clippy::disallowed_macros, clippy::disallowed_methods)]

mod support;

mod add;
mod check;
mod diff;
mod fmt;
mod hostile;
mod init;
mod interchange;
mod layouts;
mod messages;
mod project;
mod server;
mod systems;
mod urls;
mod verify;
