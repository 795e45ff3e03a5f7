//! Which database an open document belongs to, and with which settings:
//! `urldb.toml` found from the document's directory upward (as the command
//! line finds it from the current directory), the database root it names,
//! and whether the document is one of the database's domain files at all.
//!
//! The configuration is read again for every check: it is small, and an
//! edit to it takes effect at once (`workspace/didChangeWatchedFiles` only
//! asks for the open documents to be checked again).

use std::path::{Path, PathBuf};

use urldb_core::config::Config;
use urldb_core::lint::Options;
use urldb_store::settings::{self, Settings, SettingsError};

/// How to check one document.
pub struct Setup {
    /// The path it is checked as (its file name gives the domain).
    pub path: PathBuf,
    pub options: Options,
    /// The database it belongs to, for the vocabulary of completion.
    pub root: Option<PathBuf>,
    pub exclude: globset::GlobSet,
}

/// What to do with a document.
pub enum Handling {
    /// A domain file of a database (or an unsaved buffer): check it.
    Check(Box<Setup>),
    /// Outside the database root, excluded, hidden, or not a YAML file:
    /// left alone.
    Ignore,
    /// Its configuration cannot be used: the message says why.
    Broken(String),
}

/// Decide for the document at `path` (`None`: not a file on disk, such as
/// an unsaved buffer, checked with the default settings as `name`).
/// `config_override` is `--config`; `workspace` the client's root folder.
pub fn resolve(
    path: Option<&Path>,
    name: &str,
    config_override: Option<&Path>,
    workspace: Option<&Path>,
) -> Handling {
    let Some(path) = path else {
        let defaults = Config::default();
        let made = || -> Result<_, SettingsError> {
            let options = settings::lint_options(&defaults, None)?;
            let exclude = urldb_core::config::exclude_set(&defaults.exclude)?;
            Ok((options, exclude))
        };
        return match made() {
            Ok((options, exclude)) => Handling::Check(Box::new(Setup {
                path: PathBuf::from(name),
                options,
                root: None,
                exclude,
            })),
            Err(e) => Handling::Broken(e.to_string()),
        };
    };
    if !urldb_store::discover::is_domain_file_name(path) {
        return Handling::Ignore;
    }
    let dir = path.parent().unwrap_or(Path::new("/"));
    let config_path = match config_override {
        Some(p) => Some(p.to_path_buf()),
        None => settings::find_config(dir),
    };
    // The root when urldb.toml names none is its directory; without
    // urldb.toml, the workspace folder holding the file. A file outside
    // the workspace that no urldb.toml claims belongs to no database: it
    // is left alone, and nothing beside it is read. With no workspace at
    // all, the file's directory is the root. The rest is resolved as the
    // command line resolves it.
    let home = match (&config_path, workspace) {
        (Some(cfg), _) => cfg.parent().unwrap_or(Path::new("/")).to_path_buf(),
        (None, Some(w)) if path.starts_with(w) => w.to_path_buf(),
        (None, Some(_)) => return Handling::Ignore,
        (None, None) => dir.to_path_buf(),
    };
    let settings = match Settings::resolve(&home, None, config_path.as_deref()) {
        Ok(s) => s,
        Err(e) => return Handling::Broken(e.to_string()),
    };
    let root = settings.root.to_path_buf();
    let (options, exclude) = match options(&settings) {
        Ok(o) => o,
        Err(e) => return Handling::Broken(e.to_string()),
    };
    if !in_database(path, &root, &exclude) {
        return Handling::Ignore;
    }
    Handling::Check(Box::new(Setup {
        path: path.to_path_buf(),
        options,
        root: Some(root),
        exclude,
    }))
}

/// The lint options and exclude globs of resolved settings, with no
/// selection of the command line's.
fn options(settings: &Settings) -> Result<(Options, globset::GlobSet), SettingsError> {
    Ok((settings.lint_options(None)?, settings.exclude()?))
}

/// `path` is a file the database walk would find: under the root (both
/// resolved), in no hidden directory, matched by no `exclude` glob.
pub(crate) fn in_database(path: &Path, root: &Path, exclude: &globset::GlobSet) -> bool {
    let (Ok(root), Some(dir), Some(file)) = (
        root.canonicalize(),
        path.parent().and_then(|d| d.canonicalize().ok()),
        path.file_name(),
    ) else {
        return false;
    };
    let resolved = dir.join(file);
    let Ok(rel) = resolved.strip_prefix(&root) else {
        return false;
    };
    let mut partial = PathBuf::new();
    for component in rel.components() {
        partial.push(component);
        let hidden = component
            .as_os_str()
            .to_str()
            .is_some_and(|c| c.starts_with('.'));
        if hidden || exclude.is_match(&partial) {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outside_hidden_and_excluded_files_are_not_in_the_database() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().join("db");
        for sub in ["db/a", "db/.hidden", "db/vendor", "elsewhere"] {
            std::fs::create_dir_all(dir.path().join(sub)).expect("mkdir");
        }
        let exclude = urldb_store::discover::exclude_set(&["vendor".to_string()]).expect("globs");
        let at = |p: &str| dir.path().join(p);
        assert!(in_database(&at("db/a/example.com.yaml"), &root, &exclude));
        assert!(!in_database(&at("db/.hidden/x.org.yaml"), &root, &exclude));
        assert!(!in_database(&at("db/vendor/x.org.yaml"), &root, &exclude));
        assert!(!in_database(&at("elsewhere/x.org.yaml"), &root, &exclude));
    }
}
