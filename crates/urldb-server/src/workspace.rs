//! Which database an open document belongs to, and with which settings:
//! the `urldb.toml` that governs the document (the nearest above it, up to
//! the work tree's top: `urldb_store::Governing`, as on the command line),
//! the database root it names, and whether the document is one of the
//! database's domain files at all (the membership rule of
//! `urldb_store::membership`, as on the command line: a folder with a
//! `urldb.toml` of its own is another database).
//!
//! The configuration is read again for every check: it is small, and an
//! edit to it takes effect at once (`workspace/didChangeWatchedFiles` only
//! asks for the open documents to be checked again). Where no
//! `urldb.toml` says where the database is, the folder found is kept in
//! [`Guesses`] until files change: finding it walks the workspace.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use urldb_core::config::{Config, Section};
use urldb_core::lint::Options;
use urldb_store::membership::{self, Guess, Members};
use urldb_store::{Settings, SettingsError};

/// How to check one document.
pub(crate) struct Setup {
    /// The path it is checked as (its file name gives the domain).
    pub path: PathBuf,
    pub options: Options,
    /// The files of the database it belongs to (none for an unsaved
    /// buffer), for the cross-file rules and the vocabulary of completion.
    pub members: Option<Members>,
}

/// What to do with a document.
pub(crate) enum Handling {
    /// A domain file of a database (or an unsaved buffer): check it.
    Check(Box<Setup>),
    /// Not in the database: outside its root, excluded, hidden, not a YAML
    /// file, or (no `urldb.toml`) not named like a domain file. Left alone.
    Ignore,
    /// Its configuration cannot be used: the message says why.
    Broken(String),
}

/// Where the database is below each folder that no `urldb.toml` covers.
pub(crate) type Guesses = HashMap<PathBuf, Guess>;

/// Decide for the document at `path` (`None`: not a file on disk, such as
/// an unsaved buffer, checked with the default settings as `name`).
/// `config_override` is `--config`; `workspace` the client's root folder.
pub(crate) fn resolve(
    path: Option<&Path>,
    name: &str,
    config_override: Option<&Path>,
    sections: &[&dyn Section],
    workspace: Option<&Path>,
    guesses: &mut Guesses,
) -> Handling {
    let Some(path) = path else {
        let defaults = Config::default();
        let made =
            || -> Result<_, SettingsError> { Ok(urldb_store::lint_options(&defaults, None)?) };
        return match made() {
            Ok(options) => Handling::Check(Box::new(Setup {
                path: PathBuf::from(name),
                options,
                members: None,
            })),
            Err(e) => Handling::Broken(e.to_string()),
        };
    };
    let dir = path.parent().unwrap_or(Path::new("/"));
    let config_path = match config_override {
        Some(p) => Some(p.to_path_buf()),
        None => match urldb_store::governing_config(dir) {
            Ok(found) => found,
            Err(e) => return Handling::Broken(format!("{e}; files under it are not checked")),
        },
    };
    // A file whose name alone keeps it out of every database (not YAML;
    // with no urldb.toml, not named like a domain) is left alone before
    // anything is read or walked.
    if membership::file_name(path, config_path.is_none()).is_err() {
        return Handling::Ignore;
    }
    // The root when urldb.toml names none is its directory; without
    // urldb.toml, the one folder of the workspace that holds the domain
    // files, as on the command line. A file outside the workspace that no
    // urldb.toml claims belongs to no database: it is left alone, and
    // nothing beside it is read. With no workspace at all, the file's
    // directory is where the database is looked for.
    let home = match (&config_path, workspace) {
        (Some(cfg), _) => cfg.parent().unwrap_or(Path::new("/")).to_path_buf(),
        (None, Some(w)) if path.starts_with(w) => w.to_path_buf(),
        (None, Some(_)) => return Handling::Ignore,
        (None, None) => dir.to_path_buf(),
    };
    let guess = |dir: &Path| {
        guesses
            .entry(dir.to_path_buf())
            .or_insert_with(|| membership::guess(dir))
            .clone()
    };
    let resolved = match config_override {
        Some(given) => Settings::resolve_guessing(&home, None, Some(given), sections, guess),
        None => Settings::resolve_governed(&home, None, config_path.as_deref(), sections, guess),
    };
    let settings = match resolved {
        Ok(s) => s,
        Err(e @ SettingsError::Ambiguous { .. }) => return Handling::Broken(e.to_string()),
        Err(e) => return Handling::Broken(format!("{e}; files under it are not checked")),
    };
    let made = || -> Result<(Options, Members), SettingsError> {
        Ok((settings.lint_options(None)?, settings.members()?))
    };
    let (options, members) = match made() {
        Ok(o) => o,
        Err(e) => return Handling::Broken(format!("{e}; files under it are not checked")),
    };
    if members.of_governed(path).is_err() {
        return Handling::Ignore;
    }
    Handling::Check(Box::new(Setup {
        path: path.to_path_buf(),
        options,
        members: Some(members),
    }))
}
