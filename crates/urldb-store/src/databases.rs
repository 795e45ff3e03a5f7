//! The databases of one run. Each `urldb.toml` defines one database, and
//! a file belongs to the database of the configuration that governs it
//! ([`crate::Governing`]): a run over files of several databases (a
//! pre-commit hook names every changed file of a repository) checks each
//! database as its own (its settings, cross-file rules and cache) and
//! reports them together (`docs/files.md`, "One configuration per file").
//!
//! The first database is the *primary* one: `--config FILE`'s, the one
//! whose configuration governs `--db DIR` (with DIR its root), or the one
//! whose configuration governs the working directory. A run over no named
//! path is a run over it; named paths are taken to the database that
//! governs each, found once per folder and read once per configuration.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use urldb_core::config::{Config, MAX_CONFIG_SIZE, Section};

use crate::database::{Named, Targets};
use crate::git::{GitError, Repository};
use crate::governing::Governing;
use crate::membership::{Members, Nested, Skip};
use crate::settings::{Settings, SettingsError, load_config, shown_from};

/// One database of a run: its settings and the rule that admits its files.
#[derive(Debug, Clone)]
pub struct Database {
    pub settings: Settings,
    pub members: Members,
}

/// How the run chose its databases.
enum Choice {
    /// Each named path goes to the database that governs it.
    Governed,
    /// `--db DIR`: one database; a folder in it with a `urldb.toml` of its
    /// own is another's, and skipped.
    Db,
    /// `--config FILE`: one database, which FILE governs whole.
    Given,
}

/// The databases of a run: the primary one first, then each one a named
/// path led to, with its `S` (the sections of `urldb.toml` other crates
/// read, `[verify]`).
pub struct Databases<S> {
    governing: Governing,
    choice: Choice,
    /// Where the run is.
    dir: PathBuf,
    loaded: Vec<Loaded<S>>,
    /// Where the files of each folder (as named) go: a hook names
    /// thousands of files of a few folders.
    routes: HashMap<PathBuf, Route>,
}

struct Loaded<S> {
    /// The configuration that governs it, as found (`None`: no file).
    key: Option<PathBuf>,
    database: Database,
    sections: S,
}

/// Where a named path goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    /// To this database (its index).
    To(usize),
    /// Nowhere: with `--db`, a folder below its root with a `urldb.toml` of
    /// its own holds it.
    Governed(PathBuf),
}

/// The files a run takes from one database.
#[derive(Debug)]
pub struct Part {
    /// The database (its index in [`Databases`]).
    pub database: usize,
    pub targets: Targets,
}

impl<S: Section + Default> Databases<S> {
    /// The databases of a run in `dir` (the working directory; as the
    /// shell names it, `$PWD`, when that is the current directory): `db`
    /// (`--db`), `config` (`--config`), and `rev` (`--config-from`): read
    /// every `urldb.toml` from that revision, found on the path as named.
    pub fn open(
        dir: &Path,
        db: Option<&Path>,
        config: Option<&Path>,
        rev: Option<&str>,
    ) -> Result<Databases<S>, SettingsError> {
        let governing = match rev {
            Some(rev) => Governing::revision(dir, rev)?,
            None => Governing::work_tree(),
        };
        let choice = match (config, db) {
            (Some(_), _) => Choice::Given,
            (None, Some(_)) => Choice::Db,
            (None, None) => Choice::Governed,
        };
        let mut databases = Databases {
            governing,
            choice,
            // Where a database is looked for below, resolved, as the
            // paths it finds are shown.
            dir: dunce::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf()),
            loaded: Vec::new(),
            routes: HashMap::new(),
        };
        let key = match config {
            Some(file) => Some(file.to_path_buf()),
            None => databases.governing.config_of(db.unwrap_or(dir))?,
        };
        databases.load(key, db)?;
        Ok(databases)
    }

    /// The primary database.
    pub fn primary(&self) -> &Database {
        &self.loaded[0].database
    }

    /// Database `i` and its sections.
    pub fn get(&self, i: usize) -> (&Database, &S) {
        let loaded = &self.loaded[i];
        (&loaded.database, &loaded.sections)
    }

    /// How many databases were read.
    pub fn len(&self) -> usize {
        self.loaded.len()
    }

    /// Never: the primary database is read when the run opens.
    pub fn is_empty(&self) -> bool {
        self.loaded.is_empty()
    }

    /// `--config-from REV` and REV has no `urldb.toml` anywhere: the
    /// defaults were used.
    pub fn revision_has_none(&self) -> bool {
        self.governing
            .revision_of()
            .is_some_and(|rev| rev.folders.is_empty())
    }

    /// The database the file or folder at `path` belongs to; its
    /// configuration read when no earlier path led to it (a broken one is
    /// the error).
    pub fn route(&mut self, path: &Path) -> Result<Route, SettingsError> {
        self.route_known(path, path.is_dir())
    }

    /// [`Databases::route`] for a path already known to be a folder or not;
    /// a file's route kept for its folder as named.
    fn route_known(&mut self, path: &Path, is_dir: bool) -> Result<Route, SettingsError> {
        if matches!(self.choice, Choice::Given) {
            return Ok(Route::To(0));
        }
        let folder = (!is_dir).then(|| path.parent().unwrap_or(Path::new("")));
        if let Some(known) = folder.and_then(|f| self.routes.get(f)) {
            return Ok(known.clone());
        }
        let route = self.find_route(path, is_dir)?;
        if let Some(folder) = folder {
            self.routes.insert(folder.to_path_buf(), route.clone());
        }
        Ok(route)
    }

    fn find_route(&mut self, path: &Path, is_dir: bool) -> Result<Route, SettingsError> {
        let key = self.governing.config_of_known(path, is_dir)?;
        if key.is_none() || key == self.loaded[0].key {
            return Ok(Route::To(0));
        }
        if let Some(i) = self.loaded.iter().position(|l| l.key == key) {
            return Ok(Route::To(i));
        }
        if matches!(self.choice, Choice::Db) {
            let Some(config) = key else {
                return Ok(Route::To(0));
            };
            let root = self.loaded[0].database.settings.root.resolved();
            return Ok(match config.parent() {
                Some(folder) if folder.starts_with(root) => Route::Governed(shown_from(&config)),
                _ => Route::To(0),
            });
        }
        self.load(key, None)?;
        Ok(Route::To(self.loaded.len() - 1))
    }

    /// Read the database the configuration `key` defines (`None`: no
    /// configuration; the database is `db`, else found below the working
    /// directory), with `db` its root when given.
    fn load(&mut self, key: Option<PathBuf>, db: Option<&Path>) -> Result<(), SettingsError> {
        let sections = S::default();
        let (config, config_path) = match &key {
            None => (Config::default(), None),
            Some(path) => {
                let config = self.read(path, &sections)?;
                (config, Some(shown_from(path)))
            }
        };
        let nested = match (&self.choice, self.governing.revision_of()) {
            (Choice::Given, _) => Nested::Never,
            (_, Some(rev)) => Nested::Listed(Arc::new(
                rev.folders_in_work_tree()
                    .into_iter()
                    .collect::<HashSet<PathBuf>>(),
            )),
            (_, None) => Nested::OnDisk,
        };
        // Without a configuration, the guess skips the folders that are
        // databases of their own by the same rule (the revision's, under
        // --config-from: a urldb.toml the pull request adds hides nothing).
        let settings = Settings::with_config(&self.dir, db, config, config_path, |dir| {
            crate::membership::guess_within(dir, &nested)
        })?
        .governed_by(nested.clone())?;
        let members = settings.members()?;
        self.loaded.push(Loaded {
            key,
            database: Database { settings, members },
            sections,
        });
        Ok(())
    }

    /// The configuration at `path` in the work tree, read from the work
    /// tree or, with `--config-from`, from the revision.
    fn read(&mut self, path: &Path, sections: &S) -> Result<Config, SettingsError> {
        let given = matches!(self.choice, Choice::Given);
        let Some(rev) = self.governing.revision_mut() else {
            return load_config(&shown_from(path), &[sections]);
        };
        let repo_path = if given {
            rev.given(path)?
        } else {
            rev.repo_path(path)
        };
        let not_there = || SettingsError::NotAtRevision {
            rev: rev.rev.clone(),
            path: path.to_path_buf(),
        };
        let Some(repo_path) = repo_path else {
            return Err(not_there());
        };
        let (bytes, shown) = match rev.read(&repo_path, MAX_CONFIG_SIZE) {
            Ok(read) => read,
            Err(GitError::BlobTooLarge { size }) => {
                return Err(SettingsError::ConfigTooLarge {
                    path: PathBuf::from(format!("{}:{repo_path}", rev.rev)),
                    size,
                });
            }
            Err(e) => return Err(e.into()),
        };
        let Some(bytes) = bytes else {
            return Err(not_there());
        };
        let text = String::from_utf8(bytes).map_err(|_| SettingsError::ConfigNotText {
            path: shown.clone(),
        })?;
        Ok(Config::from_text(&shown, &text, &[sections])?)
    }

    /// The files a run over `paths` takes, database by database, in the
    /// work tree: no path, the primary database whole; else each named
    /// file in the database that governs it, each named folder walked in
    /// its database, and a folder met below it that holds a `urldb.toml`
    /// of its own walked in that one (with `--db`, skipped). The first part
    /// carries what was skipped and the errors of paths that name nothing.
    pub fn select(&mut self, paths: &[PathBuf]) -> Result<Vec<Part>, SettingsError> {
        if paths.is_empty() {
            return Ok(vec![Part {
                database: 0,
                targets: crate::database::whole(&self.loaded[0].database.members),
            }]);
        }
        let routed = self.routed(paths)?;
        Ok(self.parts(routed, |members, named| named.into_targets(members)))
    }

    /// The named paths judged, database by database (with `--staged`,
    /// each database's named paths, for the index to answer).
    fn routed(&mut self, paths: &[PathBuf]) -> Result<Vec<(usize, Named)>, SettingsError> {
        let mut named: Vec<(usize, Named)> = Vec::new();
        let mut queue: Vec<PathBuf> = paths.to_vec();
        queue.reverse();
        let mut outside = Named::default();
        while let Some(p) = queue.pop() {
            // One look at the path, for the route and the judgement.
            let is_dir = p.is_dir();
            let i = match self.route_known(&p, is_dir)? {
                Route::To(i) => i,
                Route::Governed(config) => {
                    outside.skipped.push((p, Skip::Governed { config }));
                    continue;
                }
            };
            let at = match named.iter().position(|(d, _)| *d == i) {
                Some(at) => at,
                None => {
                    named.push((i, Named::default()));
                    named.len() - 1
                }
            };
            let part = &mut named[at].1;
            part.judge(&self.loaded[i].database.members, &p, is_dir);
            let governed = std::mem::take(&mut part.governed);
            if matches!(self.choice, Choice::Governed) {
                // Walked in their own databases, in the order met.
                queue.extend(governed.into_iter().rev().map(|(dir, _)| dir));
            }
        }
        let first = match named.first_mut() {
            Some((_, first)) => first,
            None => {
                named.push((0, Named::default()));
                &mut named[0].1
            }
        };
        first.skipped.extend(outside.skipped);
        Ok(named)
    }

    fn parts(
        &self,
        routed: Vec<(usize, Named)>,
        targets: impl Fn(&Members, Named) -> Targets,
    ) -> Vec<Part> {
        routed
            .into_iter()
            .map(|(i, named)| Part {
                database: i,
                targets: targets(&self.loaded[i].database.members, named),
            })
            .collect()
    }

    /// [`Databases::select`] with `--staged`: the index's blobs of each
    /// database's files (a named path need not exist in the work tree).
    pub fn select_staged(&mut self, paths: &[PathBuf]) -> Result<Vec<Part>, SelectError> {
        let self_paths_empty = paths.is_empty();
        let routed: Vec<(usize, Vec<PathBuf>, Named)> = if paths.is_empty() {
            vec![(0, Vec::new(), Named::default())]
        } else {
            let mut by_database: Vec<(usize, Vec<PathBuf>, Named)> = Vec::new();
            let mut outside = Named::default();
            for p in paths {
                match self.route(p)? {
                    Route::To(i) => match by_database.iter_mut().find(|(d, ..)| *d == i) {
                        Some((_, named, _)) => named.push(p.clone()),
                        None => by_database.push((i, vec![p.clone()], Named::default())),
                    },
                    Route::Governed(config) => {
                        outside.skipped.push((p.clone(), Skip::Governed { config }));
                    }
                }
            }
            if by_database.is_empty() {
                by_database.push((0, Vec::new(), Named::default()));
            }
            by_database[0].2.skipped.extend(outside.skipped);
            by_database
        };
        let mut parts = Vec::new();
        for (i, paths, extra) in routed {
            let members = &self.loaded[i].database.members;
            let repo = Repository::discover(members.root(), "--staged")?;
            // Named paths that all went elsewhere select nothing here.
            let named = (!self_paths_empty).then_some(paths.as_slice());
            let mut targets = crate::database::staged_targets(repo, members, named)?;
            targets.skipped.extend(extra.skipped);
            parts.push(Part {
                database: i,
                targets,
            });
        }
        Ok(parts)
    }
}

/// Why the files of a `--staged` run could not be selected.
#[derive(Debug, thiserror::Error)]
pub enum SelectError {
    #[error(transparent)]
    Settings(#[from] SettingsError),
    #[error(transparent)]
    Git(#[from] GitError),
}
