//! Which database an open document belongs to, and with which settings:
//! `urldb.toml` found from the document's directory upward (as the command
//! line finds it from the current directory), the database root it names,
//! and whether the document is one of the database's domain files at all.
//!
//! The configuration is read again for every check: it is small, and an
//! edit to it takes effect at once (`workspace/didChangeWatchedFiles` only
//! asks for the open documents to be checked again).

use std::path::{Path, PathBuf};

use crate::app::Context;
use crate::config::{self, Config};
use crate::lint::Options;

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
pub enum Verdict {
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
) -> Verdict {
    let Some(path) = path else {
        return match options(&Config::default(), PathBuf::from(".")) {
            Ok((options, exclude)) => Verdict::Check(Box::new(Setup {
                path: PathBuf::from(name),
                options,
                root: None,
                exclude,
            })),
            Err(message) => Verdict::Broken(message),
        };
    };
    if !crate::discover::is_domain_file_name(path) {
        return Verdict::Ignore;
    }
    let dir = path.parent().unwrap_or(Path::new("/"));
    let config_path = match config_override {
        Some(p) => Some(p.to_path_buf()),
        None => Config::discover(dir),
    };
    let config = match &config_path {
        Some(p) => match Config::load(p) {
            Ok(c) => c,
            Err(e) => return Verdict::Broken(e.to_string()),
        },
        None => Config::default(),
    };
    // The root: `root` of urldb.toml (relative to it, and inside its
    // directory), else the directory of urldb.toml, else the workspace
    // folder holding the file, else the file's directory.
    let root = match &config_path {
        Some(cfg) => {
            let base = cfg.parent().unwrap_or(Path::new("/"));
            match &config.root {
                Some(r) => {
                    let root = base.join(r);
                    if !crate::read::is_inside(&root, base) {
                        return Verdict::Broken(format!(
                            "{}: root = \"{}\" leads outside the directory that holds {}; \
                             the database root must be inside it",
                            cfg.display(),
                            r.display(),
                            config::FILE_NAME
                        ));
                    }
                    root
                }
                None => base.to_path_buf(),
            }
        }
        None => match workspace {
            Some(w) if path.starts_with(w) => w.to_path_buf(),
            _ => dir.to_path_buf(),
        },
    };
    let (options, exclude) = match options(&config, root.clone()) {
        Ok(o) => o,
        Err(message) => return Verdict::Broken(message),
    };
    if !in_database(path, &root, &exclude) {
        return Verdict::Ignore;
    }
    Verdict::Check(Box::new(Setup {
        path: path.to_path_buf(),
        options,
        root: Some(root),
        exclude,
    }))
}

/// The lint options and exclude globs of a configuration: the command
/// line's own code, with no command-line selection.
fn options(config: &Config, root: PathBuf) -> Result<(Options, globset::GlobSet), String> {
    let ctx = Context {
        config: config.clone(),
        root,
        color: false,
        quiet: true,
        verbose: false,
        no_cache: true,
    };
    Ok((
        ctx.options(None).map_err(|e| e.to_string())?,
        ctx.exclude().map_err(|e| e.to_string())?,
    ))
}

/// `path` is a file the database walk would find: under the root (both
/// resolved), in no hidden directory, matched by no `exclude` glob.
pub fn in_database(path: &Path, root: &Path, exclude: &globset::GlobSet) -> bool {
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
        let exclude = crate::discover::exclude_set(&["vendor".to_string()]).expect("globs");
        let at = |p: &str| dir.path().join(p);
        assert!(in_database(&at("db/a/example.com.yaml"), &root, &exclude));
        assert!(!in_database(&at("db/.hidden/x.org.yaml"), &root, &exclude));
        assert!(!in_database(&at("db/vendor/x.org.yaml"), &root, &exclude));
        assert!(!in_database(&at("elsewhere/x.org.yaml"), &root, &exclude));
    }
}
