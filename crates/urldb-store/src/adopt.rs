//! What `urldb init` does with what is there: which folder is the database
//! (one already holding domain files, the one named with `--root`, or a
//! new one), where `urldb.toml` goes (in a new database's own folder; for
//! a database adopted, the top of the git work tree, where every command
//! run in the repository finds it), and which YAML files in it to leave
//! out so that the database holds, with `urldb.toml`, exactly the files it
//! held without (`docs/files.md`). Nothing is written here: the command
//! writes the [`InitPlan`].

use std::path::{Path, PathBuf};

use crate::membership::{self, Candidate, Guess, Members};
use crate::read::Root;

/// What `init` will write.
#[derive(Debug)]
pub struct InitPlan {
    /// Where `urldb.toml` goes.
    pub config: PathBuf,
    /// The database folder (as the user named it, or relative to the
    /// current directory).
    pub root: PathBuf,
    /// `root` as `urldb.toml` says it: relative to the file's directory,
    /// `/`-separated.
    pub root_value: String,
    pub database: InitDatabase,
}

/// The database `init` found, or the one it makes.
#[derive(Debug)]
pub enum InitDatabase {
    /// None was there: a new one, with an example domain file.
    New,
    /// Domain files were there: `urldb.toml` only, nothing in the database
    /// changes.
    Existing {
        /// How many domain files.
        files: usize,
        /// YAML files in the folder whose names are no domain names
        /// (`mkdocs.yml`), relative to it and `/`-separated: written as
        /// `exclude` globs, so they stay out as they were without
        /// `urldb.toml`.
        left_out: Vec<String>,
        /// The folder was found, not named with `--root`.
        found: bool,
    },
}

/// Why `init` writes nothing.
#[derive(Debug, thiserror::Error)]
pub enum InitError {
    #[error("`{}` is not a directory", shown(.0))]
    NotADirectory(PathBuf),
    #[error("`{}` already exists; init writes only new files", shown(.0))]
    Exists(PathBuf),
    #[error(
        "more than one folder below `{}` holds files named like domain files: {}; \
         run `urldb init --root DIR` with the database's folder",
        shown(.dir),
        membership::candidates_text(.candidates)
    )]
    Ambiguous {
        dir: PathBuf,
        candidates: Vec<Candidate>,
    },
    #[error(
        "`{}` holds YAML files that are not domain files ({}), and no domain file \
         (`<domain>.yaml`): a database there would take them for domain files. Make the \
         database a folder of its own: `urldb init --root DIR` (created if needed)",
        shown(.dir),
        listed_names(.names)
    )]
    NotDomainFiles { dir: PathBuf, names: Vec<String> },
    #[error(
        "`{}` is outside `{}`, the directory that urldb.toml goes to (the top of the git \
         work tree); the database must be inside it",
        shown(.root),
        shown(.top)
    )]
    RootOutside { root: PathBuf, top: PathBuf },
    #[error("`{}`: the name is not UTF-8, and urldb.toml cannot name it", shown(.0))]
    NotUtf8(PathBuf),
    /// `--root DIR` names no folder: it adopts an existing one only (a
    /// typo would otherwise start a second, empty database).
    #[error("{}", no_such_root(.root, .nearest.as_ref()))]
    NoSuchRoot {
        root: PathBuf,
        nearest: Option<Candidate>,
    },
    /// A new database's folder is (or holds) the root of the database that
    /// `config` defines: its own `urldb.toml` would take that folder away.
    #[error(
        "`{}` is the database of {}; a urldb.toml in it would take it from that database \
         (edit that file instead)",
        shown(.dir),
        urldb_core::source::shown_path(.config)
    )]
    TakenFrom { dir: PathBuf, config: PathBuf },
    #[error("`{}`: {source}", shown(.path))]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// The message of [`InitError::NoSuchRoot`], with the folder to offer.
fn no_such_root(root: &Path, nearest: Option<&Candidate>) -> String {
    let offer = match nearest {
        Some(c) => format!(
            "; did you mean `{}` ({} domain file{})?",
            shown(&c.dir),
            c.files,
            if c.files == 1 { "" } else { "s" }
        ),
        None => ".".to_string(),
    };
    format!(
        "--root `{}`: no such folder; --root names the existing folder of a database to \
         adopt{offer} To start a new database, `urldb init DIR`",
        shown(root)
    )
}

fn shown(path: &Path) -> String {
    urldb_core::text::escape(&membership::shown_dir(path)).into_owned()
}

/// Names for a message: the first five, in backquotes, escaped.
pub fn listed_names(names: &[String]) -> String {
    let mut listed: Vec<String> = names
        .iter()
        .take(5)
        .map(|n| format!("`{}`", urldb_core::text::escape(n)))
        .collect();
    if names.len() > 5 {
        listed.push("...".to_string());
    }
    listed.join(", ")
}

impl InitPlan {
    /// The `exclude` globs that keep the files left out out: each name
    /// escaped, so that it matches that one path.
    pub fn exclude(&self) -> Vec<String> {
        match &self.database {
            // A backslash escapes in a glob (where it is no separator):
            // doubled, it is itself; globset escapes the rest.
            InitDatabase::Existing { left_out, .. } => left_out
                .iter()
                .map(|name| globset::escape(&name.replace('\\', "\\\\")))
                .collect(),
            InitDatabase::New => Vec::new(),
        }
    }
}

/// Decide what `init` writes for directory `dir` (created if needed), with
/// `root` the database folder the user named (`--root`), which must exist.
pub fn plan_init(dir: &Path, root: Option<&Path>) -> Result<InitPlan, InitError> {
    if dir.exists() && !dir.is_dir() {
        return Err(InitError::NotADirectory(dir.to_path_buf()));
    }
    if let Some(root) = root {
        if root.exists() && !root.is_dir() {
            return Err(InitError::NotADirectory(root.to_path_buf()));
        }
        if !root.exists() {
            return Err(InitError::NoSuchRoot {
                root: root.to_path_buf(),
                nearest: nearest_database(&top_of(dir), root),
            });
        }
    }
    let (root, found) = match root {
        Some(root) => (root.to_path_buf(), false),
        None if !dir.exists() => return new_database(dir),
        None => match membership::guess(dir) {
            Guess::One(c) => (relative(&c.dir), true),
            Guess::Nothing => {
                no_yaml_files(dir)?;
                return new_database(dir);
            }
            Guess::Several(candidates) => {
                return Err(InitError::Ambiguous {
                    dir: dir.to_path_buf(),
                    candidates: candidates
                        .into_iter()
                        .map(|c| Candidate {
                            dir: relative(&c.dir),
                            ..c
                        })
                        .collect(),
                });
            }
        },
    };
    // Adopted: urldb.toml at the top of the work tree, where every command
    // run in the repository finds it.
    let top = top_of(dir);
    let config = top.join(urldb_core::config::FILE_NAME);
    // One already there, or between `dir` and the top, governs the folder.
    let existing = crate::governing::governing_config(&absolute(dir))
        .ok()
        .flatten()
        .filter(|found| {
            found
                .parent()
                .is_some_and(|d| d.starts_with(resolved(&top)))
        });
    if let Some(found) = existing.or_else(|| config.exists().then(|| config.clone())) {
        return Err(InitError::Exists(relative(&found)));
    }
    let (resolved_root, top_resolved) = (resolved(&root), resolved(&top));
    let below = resolved_root
        .strip_prefix(&top_resolved)
        .map_err(|_| InitError::RootOutside {
            root: root.clone(),
            top: top.clone(),
        })?;
    let root_value = match slashed(below) {
        Some(s) if s.is_empty() => ".".to_string(),
        Some(s) => s,
        None => return Err(InitError::NotUtf8(root.clone())),
    };
    let database = existing_database(&root, found)?;
    Ok(InitPlan {
        config: relative(&config),
        root,
        root_value,
        database,
    })
}

/// A new database in `dir`: its own `urldb.toml` in it (`root = "."`), so
/// that the folder is a database wherever it is, in another repository or
/// not (`docs/files.md`).
fn new_database(dir: &Path) -> Result<InitPlan, InitError> {
    let config = dir.join(urldb_core::config::FILE_NAME);
    if config.symlink_metadata().is_ok() {
        return Err(InitError::Exists(relative(&config)));
    }
    // The database of a configuration above whose root is this folder (or
    // inside it) would lose it.
    let nearest_existing = absolute(dir)
        .ancestors()
        .find(|d| d.is_dir())
        .map(Path::to_path_buf);
    if let Some(outer) =
        nearest_existing.and_then(|d| crate::governing::governing_config(&d).ok().flatten())
        && let Ok(loaded) = crate::settings::load_config(&outer, &[])
        && let (Some(value), Some(folder)) = (&loaded.root, outer.parent())
        && resolved(&folder.join(value)).starts_with(resolved(dir))
    {
        return Err(InitError::TakenFrom {
            dir: dir.to_path_buf(),
            config: relative(&outer),
        });
    }
    Ok(InitPlan {
        config: if dir == Path::new(".") {
            PathBuf::from(urldb_core::config::FILE_NAME)
        } else {
            config
        },
        root: dir.to_path_buf(),
        root_value: ".".to_string(),
        database: InitDatabase::New,
    })
}

/// A new database in the existing folder `dir` would take every YAML file
/// in it for a domain file: refused when there is one (no domain file is,
/// or the guess would have found it).
fn no_yaml_files(dir: &Path) -> Result<(), InitError> {
    let io = |source| InitError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let members = Members::new(Root::new(dir).map_err(io)?, &[], false)
        .map_err(|e| io(std::io::Error::other(e.to_string())))?;
    let mut names = Vec::new();
    for path in crate::discover::find_files(&members).files {
        match slashed(path.strip_prefix(dir).unwrap_or(&path)) {
            Some(s) => names.push(s),
            None => return Err(InitError::NotUtf8(path)),
        }
    }
    if names.is_empty() {
        Ok(())
    } else {
        Err(InitError::NotDomainFiles {
            dir: dir.to_path_buf(),
            names,
        })
    }
}

/// The folder of domain files nearest by name to `wanted`, below `top`.
fn nearest_database(top: &Path, wanted: &Path) -> Option<Candidate> {
    let candidates = match membership::guess(top) {
        Guess::Nothing => return None,
        Guess::One(c) => vec![c],
        Guess::Several(cs) => cs,
    };
    let candidates: Vec<Candidate> = candidates
        .into_iter()
        .map(|c| Candidate {
            dir: relative(&c.dir),
            ..c
        })
        .collect();
    let wanted = membership::shown_dir(wanted);
    let names: Vec<String> = candidates
        .iter()
        .map(|c| membership::shown_dir(&c.dir))
        .collect();
    let best = urldb_core::closest(&wanted, names.iter().map(String::as_str))
        .and_then(|best| names.iter().position(|n| n == best))
        .or((candidates.len() == 1).then_some(0))?;
    candidates.into_iter().nth(best)
}

/// The domain files in `root`, and the YAML files that are not.
fn existing_database(root: &Path, found: bool) -> Result<InitDatabase, InitError> {
    let io = |source| InitError::Io {
        path: root.to_path_buf(),
        source,
    };
    // The members as a database without urldb.toml has them.
    let members = Members::new(Root::new(root).map_err(io)?, &[], true)
        .map_err(|e| io(std::io::Error::other(e.to_string())))?;
    let walked = crate::discover::find_files(&members);
    let mut left_out = Vec::new();
    for path in &walked.misnamed {
        match slashed(path.strip_prefix(root).unwrap_or(path)) {
            Some(s) => left_out.push(s),
            None => return Err(InitError::NotUtf8(path.clone())),
        }
    }
    match (walked.files.len(), left_out.is_empty()) {
        (0, true) => Ok(InitDatabase::New),
        (0, false) => Err(InitError::NotDomainFiles {
            dir: root.to_path_buf(),
            names: left_out,
        }),
        (files, _) => Ok(InitDatabase::Existing {
            files,
            left_out,
            found,
        }),
    }
}

/// A relative path's names joined by `/`, as urldb.toml writes paths (a
/// backslash in a name stays a backslash); `None` when one is not UTF-8.
fn slashed(rel: &Path) -> Option<String> {
    let names: Option<Vec<&str>> = rel
        .components()
        .filter(|c| matches!(c, std::path::Component::Normal(_)))
        .map(|c| c.as_os_str().to_str())
        .collect();
    names.map(|n| n.join("/"))
}

/// The top of the git work tree that holds `dir` (or would: the nearest
/// directory that exists), else `dir`.
fn top_of(dir: &Path) -> PathBuf {
    let existing = absolute(dir)
        .ancestors()
        .find(|d| d.is_dir())
        .map(Path::to_path_buf);
    let top = existing
        .and_then(|d| crate::git::Repository::discover(&d, "init").ok())
        .map(|repo| repo.workdir().to_path_buf());
    match top {
        Some(top) => relative(&top),
        None => dir.to_path_buf(),
    }
}

fn absolute(path: &Path) -> PathBuf {
    if path.is_absolute() {
        return path.to_path_buf();
    }
    std::env::current_dir().map_or_else(|_| path.to_path_buf(), |cwd| cwd.join(path))
}

/// `path` with links followed, or where it would be when it does not
/// exist yet.
fn resolved(path: &Path) -> PathBuf {
    dunce::canonicalize(path).unwrap_or_else(|_| membership::resolve_parent(&absolute(path)))
}

/// `path` relative to the current directory when it is below it (`.` for
/// the directory itself), as notes show paths.
fn relative(path: &Path) -> PathBuf {
    let Ok(cwd) = std::env::current_dir().and_then(dunce::canonicalize) else {
        return path.to_path_buf();
    };
    match resolved(path).strip_prefix(&cwd) {
        Ok(rel) if rel.as_os_str().is_empty() => PathBuf::from("."),
        Ok(rel) => rel.to_path_buf(),
        Err(_) => path.to_path_buf(),
    }
}
