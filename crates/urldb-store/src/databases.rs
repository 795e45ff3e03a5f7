//! The databases of one run. Each `urldb.toml` defines one database, and
//! a file belongs to the database of the configuration that governs it
//! ([`crate::Governing`]): a run over files of several databases (a
//! pre-commit hook names every changed file of a repository) checks each
//! database as its own (its settings, cross-file rules and cache) and
//! reports them together (`docs/files.md`, "One configuration per file").
//!
//! The first database is the *primary* one: `--config FILE`'s, the one
//! whose configuration governs `--db DIR` (with DIR its root), the one
//! whose configuration governs the working directory, or, when none
//! governs it, the first database below it (`urldb init db` at the top of
//! a repository makes `db/` one). A run over no named path covers the
//! primary database whole and every database whose `urldb.toml` lies below
//! the working directory ([`Databases::covered`]); named paths are taken
//! to the database that governs each, found once per folder and read once
//! per configuration (`docs/files.md`, "What a run covers").

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use urldb_core::config::{Config, MAX_CONFIG_SIZE, Section};

use crate::changes::{ChangeSet, ChangesError, Sides};
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
    /// Each loaded database's index by its key: routing a file is one
    /// look-up, however many databases a run has read.
    index: HashMap<Option<PathBuf>, usize>,
    /// Where the files of each folder (as named) go: a hook names
    /// thousands of files of a few folders.
    routes: HashMap<PathBuf, Route>,
    /// The `urldb.toml` files below the working directory, once looked
    /// for.
    below: Option<Vec<PathBuf>>,
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

impl Route {
    /// The database's index (`usize::MAX` for none).
    fn index(&self) -> usize {
        match self {
            Route::To(i) => *i,
            Route::Governed(_) => usize::MAX,
        }
    }
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
            index: HashMap::new(),
            routes: HashMap::new(),
            below: None,
        };
        let key = match config {
            Some(file) => Some(file.to_path_buf()),
            None => databases.governing.config_of(db.unwrap_or(dir))?,
        };
        // No configuration governs the working directory: the databases
        // below it are the run's, the first of them the primary one (no
        // folder is guessed where a database is defined).
        let key = match (key, &databases.choice) {
            (None, Choice::Governed) => databases.configs_below()?.first().cloned(),
            (key, _) => key,
        };
        databases.load(key, db)?;
        Ok(databases)
    }

    /// Every `urldb.toml` below the working directory (in the work tree,
    /// as git sees it; with `--config-from`, the revision's), looked for
    /// once.
    fn configs_below(&mut self) -> Result<&[PathBuf], SettingsError> {
        if self.below.is_none() {
            let found = match self.governing.revision_of() {
                Some(rev) => {
                    let mut found: Vec<PathBuf> = rev
                        .folders_in_work_tree()
                        .into_iter()
                        .filter(|f| f != &self.dir && f.starts_with(&self.dir))
                        .map(|f| f.join(urldb_core::config::FILE_NAME))
                        .collect();
                    found.sort_by_cached_key(|p| (p.components().count(), p.clone()));
                    found
                }
                None => crate::configs_below::configs_below(&self.dir)?,
            };
            self.below = Some(found);
        }
        Ok(self.below.as_deref().unwrap_or_default())
    }

    /// The databases a run over `paths` covers, by index, the primary one
    /// first when it is one of them. No path: the primary database and,
    /// unless `--db` or `--config` chose one database, every database
    /// whose `urldb.toml` lies below the working directory. Named paths:
    /// the database of each, and of each `urldb.toml` below a named
    /// folder.
    pub fn covered(&mut self, paths: &[PathBuf]) -> Result<Vec<usize>, SettingsError> {
        if !paths.is_empty() {
            return Ok(self.routed(paths)?.into_iter().map(|(i, _)| i).collect());
        }
        let mut covered = vec![0];
        if !matches!(self.choice, Choice::Governed) {
            return Ok(covered);
        }
        let configs = self.configs_below()?.to_vec();
        let mut seen: HashSet<usize> = HashSet::from([0]);
        for config in configs {
            let folder = config.parent().unwrap_or(Path::new(""));
            if let Route::To(i) = self.route_known(folder, true)?
                && seen.insert(i)
            {
                covered.push(i);
            }
        }
        Ok(covered)
    }

    /// The primary database was taken from below the working directory
    /// (no configuration governs it) and it is one of several there: the
    /// configurations, for a command that works on one database to name.
    pub fn several_below(&self) -> Option<Vec<PathBuf>> {
        let below = self.below.as_deref()?;
        (self.loaded[0].key.is_some()
            && below.len() > 1
            && below.first() == self.loaded[0].key.as_ref())
        .then(|| below.iter().map(|p| shown_from(p)).collect())
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
        // A folder's route is its files' route: the nearest `urldb.toml`
        // at or above it governs both.
        let folder = if is_dir {
            path
        } else {
            path.parent().unwrap_or(Path::new(""))
        };
        if let Some(known) = self.routes.get(folder) {
            return Ok(known.clone());
        }
        let route = self.find_route(path, is_dir)?;
        self.routes.insert(folder.to_path_buf(), route.clone());
        Ok(route)
    }

    fn find_route(&mut self, path: &Path, is_dir: bool) -> Result<Route, SettingsError> {
        let key = self.governing.config_of_known(path, is_dir)?;
        if key.is_none() || key == self.loaded[0].key {
            return Ok(Route::To(0));
        }
        if let Some(&i) = self.index.get(&key) {
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
        self.index.entry(key.clone()).or_insert(self.loaded.len());
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
    /// work tree: no path, every database the run covers
    /// ([`Databases::covered`]) whole; else each named file in the
    /// database that governs it, each named folder walked in its database,
    /// and a folder met below it that holds a `urldb.toml` of its own
    /// walked in that one (with `--db`, skipped). The first part carries
    /// what was skipped and the errors of paths that name nothing.
    pub fn select(&mut self, paths: &[PathBuf]) -> Result<Vec<Part>, SettingsError> {
        if paths.is_empty() {
            let covered = self.covered(paths)?;
            return Ok(covered
                .into_iter()
                .map(|i| Part {
                    database: i,
                    targets: crate::database::whole(&self.loaded[i].database.members),
                })
                .collect());
        }
        let routed = self.routed(paths)?;
        Ok(self.parts(routed, |members, named| named.into_targets(members)))
    }

    /// The named paths judged, database by database (with `--staged`,
    /// each database's named paths, for the index to answer).
    fn routed(&mut self, paths: &[PathBuf]) -> Result<Vec<(usize, Named)>, SettingsError> {
        let mut named: Vec<(usize, Named)> = Vec::new();
        // Each database's place in `named`: one look-up a path.
        let mut place: HashMap<usize, usize> = HashMap::new();
        // The folders of other databases queued to be walked.
        let mut queued: HashSet<PathBuf> = HashSet::new();
        // Each path with whether the user named it: the `urldb.toml` files
        // below a named folder are all of those below the folders queued
        // from it, so only a named folder is searched for them (once per
        // database would be a walk of the tree per database below it).
        let mut queue: Vec<(PathBuf, bool)> = paths.iter().map(|p| (p.clone(), true)).collect();
        queue.reverse();
        let mut outside = Named::default();
        while let Some((p, was_named)) = queue.pop() {
            // One look at the path, for the route and the judgement.
            let is_dir = p.is_dir();
            let i = match self.route_known(&p, is_dir)? {
                Route::To(i) => i,
                Route::Governed(config) => {
                    outside.skipped.push((p, Skip::Governed { config }));
                    continue;
                }
            };
            let at = *place.entry(i).or_insert_with(|| {
                named.push((i, Named::default()));
                named.len() - 1
            });
            let part = &mut named[at].1;
            part.judge(&self.loaded[i].database.members, &p, is_dir);
            let governed = std::mem::take(&mut part.governed);
            if matches!(self.choice, Choice::Governed) {
                // The folders of other databases met below the walk, and
                // every database below a named folder (the walk covers its
                // database's root only): each walked whole in its own
                // database once, in the order met.
                let mut folders: Vec<PathBuf> = governed.into_iter().map(|(dir, _)| dir).collect();
                if is_dir && was_named {
                    // The working directory (`check .`): its configurations
                    // are the ones a run with no path covers, looked for
                    // once.
                    let configs = if dunce::canonicalize(&p).is_ok_and(|c| c == self.dir) {
                        // Spelled below `p` as a walk of it finds them: a
                        // relative path is resolved from the working
                        // directory, not from `/` component by component.
                        let dir = self.dir.clone();
                        self.configs_below()?
                            .iter()
                            .map(|c| {
                                c.strip_prefix(&dir)
                                    .map_or_else(|_| c.clone(), |r| p.join(r))
                            })
                            .collect()
                    } else {
                        crate::configs_below::configs_below(&p)?
                    };
                    for config in configs {
                        folders.push(config.parent().unwrap_or(Path::new("")).to_path_buf());
                    }
                }
                let mut next = Vec::new();
                for folder in folders {
                    // Another database (this walk covers its own below
                    // `p`), each folder once, however it was named.
                    if let Route::To(j) = self.route_known(&folder, true)?
                        && j != i
                        && queued.insert(dunce::canonicalize(&folder).unwrap_or(folder.clone()))
                    {
                        next.push(folder);
                    }
                }
                queue.extend(next.into_iter().rev().map(|folder| (folder, false)));
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

    /// What changed between `sides` (`--since`, `--staged`, `urldb diff`)
    /// in each database a run over `paths` covers ([`Databases::covered`]),
    /// database by database: each one's files judged by its own members
    /// and read within its own `max-file-size`; with named paths, only
    /// the files at or below them. `option` names the option in a message
    /// when there is no repository.
    pub fn changes(
        &mut self,
        paths: &[PathBuf],
        sides: &Sides,
        option: &'static str,
    ) -> Result<Vec<(usize, ChangeSet)>, SelectError> {
        let mut sets = Vec::new();
        for i in self.covered(paths)? {
            let database = &self.loaded[i].database;
            let repo = Repository::discover(database.members.root(), option)?;
            let max = database
                .settings
                .config
                .max_file_size()
                .unwrap_or(urldb_core::config::DEFAULT_MAX_FILE_SIZE);
            let mut set = crate::changes::changes(&repo, &database.members, sides.clone(), max)?;
            if !paths.is_empty() {
                set.files.retain(|f| named(paths, &f.path));
                set.errors.retain(|e| named(paths, &e.path));
            }
            sets.push((i, set));
        }
        Ok(sets)
    }

    /// [`Databases::select`] with `--staged`: the index's blobs of each
    /// database's files (a named path need not exist in the work tree).
    pub fn select_staged(&mut self, paths: &[PathBuf]) -> Result<Vec<Part>, SelectError> {
        let self_paths_empty = paths.is_empty();
        let routed: Vec<(usize, Vec<PathBuf>, Named)> = if paths.is_empty() {
            // Every staged domain file of every database the run covers.
            self.covered(paths)?
                .into_iter()
                .map(|i| (i, Vec::new(), Named::default()))
                .collect()
        } else {
            let mut by_database: Vec<(usize, Vec<PathBuf>, Named)> = Vec::new();
            let mut place: HashMap<usize, usize> = HashMap::new();
            let mut outside = Named::default();
            // A named folder takes the databases below it too, as in the
            // work tree: each one's own staged files.
            let mut queue: Vec<PathBuf> = paths.to_vec();
            queue.reverse();
            while let Some(p) = queue.pop() {
                let is_dir = p.is_dir();
                match self.route_known(&p, is_dir)? {
                    Route::To(i) => {
                        let at = *place.entry(i).or_insert_with(|| {
                            by_database.push((i, Vec::new(), Named::default()));
                            by_database.len() - 1
                        });
                        by_database[at].1.push(p.clone());
                    }
                    Route::Governed(config) => {
                        outside.skipped.push((p.clone(), Skip::Governed { config }));
                        continue;
                    }
                }
                if is_dir && matches!(self.choice, Choice::Governed) {
                    for config in
                        crate::configs_below::configs_below(&p).map_err(SettingsError::from)?
                    {
                        let folder = config.parent().unwrap_or(Path::new("")).to_path_buf();
                        if !place.contains_key(&self.route_known(&folder, true)?.index()) {
                            queue.push(folder);
                        }
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

/// Why the files of a `--staged` run, or the change set of a run, could
/// not be had.
#[derive(Debug, thiserror::Error)]
pub enum SelectError {
    #[error(transparent)]
    Settings(#[from] SettingsError),
    #[error(transparent)]
    Git(#[from] GitError),
    #[error(transparent)]
    Changes(#[from] ChangesError),
}

/// `file` is one of the `paths` named, or below one of them (each
/// compared with its folder resolved, as a walk names it).
fn named(paths: &[PathBuf], file: &Path) -> bool {
    let resolved =
        |p: &Path| dunce::canonicalize(p).unwrap_or_else(|_| crate::membership::resolve_parent(p));
    let file = resolved(file);
    paths.iter().any(|p| file.starts_with(resolved(p)))
}
