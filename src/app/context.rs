//! The run context every command takes: the configuration and the
//! databases of the run, the root, colours, threads, and the lint options
//! each database gives with the command line's selection.

use std::path::{Path, PathBuf};

use urldb_core::config::Config;
use urldb_core::lint::Options;
use urldb_store::Root;
use urldb_store::{Databases, RuleOverrides, SettingsError};
use urldb_verify::config::{VerifyConfig, VerifySection};

use super::args::{ColorChoice, GlobalArgs, SelectArgs};
use super::errors::{CommandError, ExitStatus};

/// Everything a command needs to know about where and how it runs.
pub(crate) struct Context {
    pub config: Config,
    /// `[verify]` of the configuration, checked with it.
    pub verify: VerifyConfig,
    pub root: Root,
    pub color: bool,
    pub quiet: bool,
    pub verbose: bool,
    /// `--no-cache`.
    pub no_cache: bool,
    /// No `urldb.toml` and no `--db`: the database is a guess, said so,
    /// and files whose names are no domain names are not domain files
    /// (`docs/files.md`, "Which files are in the database").
    pub bare: bool,
    /// Which files are in the database (`urldb_store::membership`).
    pub members: urldb_store::membership::Members,
    /// How the root was chosen.
    pub origin: urldb_store::Origin,
    /// `urldb.toml` was read with `--config-from`: the owner's, from a
    /// revision a pull request cannot change (`--allow-env NAME` lets it
    /// choose the host a secret goes to).
    pub owners_config: bool,
    /// Every database of the run, the one above first: a named path is
    /// taken to the database whose configuration governs it
    /// (`docs/files.md`, "One configuration per file").
    pub databases: std::cell::RefCell<Databases<VerifySection>>,
    /// `--config FILE`: one configuration for every file.
    pub config_given: bool,
}

/// The working directory as the user's shell names it (`$PWD`, when it
/// is an absolute name of the current directory without `.` or `..`),
/// else as the system resolves it: `--config-from` finds the owner's
/// configuration on the path as named, never through a link
/// (`docs/security.md`).
fn logical_cwd() -> Result<PathBuf, CommandError> {
    let physical = std::env::current_dir().map_err(CommandError::CurrentDir)?;
    let named = std::env::var_os("PWD")
        .map(PathBuf::from)
        .filter(|p| {
            p.is_absolute()
                && p.components().all(|c| {
                    !matches!(
                        c,
                        std::path::Component::CurDir | std::path::Component::ParentDir
                    )
                })
        })
        .filter(|p| same_folder(p, &physical));
    Ok(named.unwrap_or(physical))
}

/// `a` and `b` name one folder.
fn same_folder(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (std::fs::metadata(a), std::fs::metadata(b)) {
            (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        matches!((dunce::canonicalize(a), dunce::canonicalize(b)), (Ok(x), Ok(y)) if x == y)
    }
}

impl Context {
    /// The run context; the error is the complete text to print.
    pub(crate) fn new(global: &GlobalArgs) -> Result<Context, CommandError> {
        let color = match global.color.unwrap_or_default() {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => auto_color(),
        };
        let cwd = logical_cwd()?;
        let (db, config) = (global.db.as_deref(), global.config.as_deref());
        // `URLDB_CONFIG_FROM=` (empty, as the Action leaves it outside
        // pull requests) is no revision.
        let rev = global.config_from.as_deref().filter(|r| !r.is_empty());
        // Every table of the file is checked before any command runs.
        let databases = Databases::<VerifySection>::open(&cwd, db, config, rev)
            .map_err(|e| settings_error(e, color))?;
        let settings = databases.primary().settings.clone();
        let verify = databases.get(0).1.read_config();
        // Said when it matters: the revision has no configuration at all.
        if let (Some(rev), true, false) = (rev, databases.revision_has_none(), global.quiet) {
            urldb_output::say!(
                "note: --config-from {}: that revision has no {} anywhere; using the defaults",
                urldb_core::text::escape(rev),
                urldb_core::config::FILE_NAME,
            );
        }
        if let (Some(rev), Some(path), false) = (rev, &settings.config_path, global.quiet) {
            note_unread_edit(&cwd, rev, path);
        }
        let members = databases.primary().members.clone();
        if let Some(asked) = global.threads {
            let n = capped_threads(asked);
            if n < asked {
                urldb_output::say!(
                    "note: --threads {asked} is more than this machine can use; using {n} \
                     (4 per core, at most {MAX_THREADS})"
                );
            }
            rayon::ThreadPoolBuilder::new()
                .num_threads(n.max(1))
                .build_global()
                .map_err(CommandError::Threads)?;
        }
        say_warnings(&settings);
        let bare = members.by_name();
        let owners_config = rev.is_some() && settings.config_path.is_some();
        Ok(Context {
            owners_config,
            bare,
            members,
            origin: settings.origin,
            config: settings.config,
            verify,
            root: settings.root,
            color,
            quiet: global.quiet,
            verbose: global.verbose,
            no_cache: global.no_cache,
            databases: std::cell::RefCell::new(databases),
            config_given: config.is_some(),
        })
    }

    /// The error of a database a named path led to (exit 2), as the
    /// primary one's would be said.
    pub(crate) fn settings_error(&self, e: SettingsError) -> CommandError {
        settings_error(e, self.color)
    }

    /// Database `i` of the run (0: the primary one): its settings, its
    /// members and its `[verify]`.
    pub(crate) fn database(&self, i: usize) -> (urldb_store::Database, VerifyConfig) {
        let databases = self.databases.borrow();
        let (database, verify) = databases.get(i);
        (database.clone(), verify.read_config())
    }

    /// The lint options of database `i` with the command line's selection.
    pub(crate) fn options_of(
        &self,
        i: usize,
        select: Option<&SelectArgs>,
    ) -> Result<Options, CommandError> {
        if i == 0 {
            return self.options(select);
        }
        let (database, _) = self.database(i);
        let mut options =
            urldb_store::lint_options(&database.settings.config, overrides(select).as_ref())?;
        urldb_store::with_root(&mut options, &database.settings.root);
        Ok(options)
    }

    /// The results cache of the database at `root` for a run with
    /// `options`, unless `--no-cache`.
    pub(crate) fn cache_at(&self, root: &Root, options: &Options) -> Option<urldb_store::Cache> {
        if self.no_cache {
            return None;
        }
        let cache = urldb_store::Cache::open(root, options);
        if self.verbose
            && let Some(reason) = &cache.untrusted
        {
            urldb_output::say!("note: results cache not used: {reason}");
        }
        Some(cache)
    }

    /// With `-v`: every file the run processed, each on a line (checked,
    /// or unchanged since a clean run and so not checked again), then how
    /// many of each.
    pub(crate) fn say_cached(&self, outcome: &urldb_store::database::RunOutcome) {
        if !self.verbose {
            return;
        }
        let files = |n: usize| format!("{n} file{}", if n == 1 { "" } else { "s" });
        for (path, cached) in &outcome.visited {
            urldb_output::say!(
                "{}: {}",
                urldb_core::source::shown_path(path),
                if *cached {
                    "unchanged since a clean run; not checked again"
                } else {
                    "checked"
                }
            );
        }
        if self.no_cache {
            urldb_output::say!("{} checked (--no-cache)", files(outcome.checked));
        } else {
            urldb_output::say!(
                "{} looked at: {} unchanged since a clean run ({} of them read again, their \
                 times having changed), {} checked; `--no-cache` checks every file",
                files(outcome.checked),
                outcome.cached,
                outcome.reread,
                outcome.checked.saturating_sub(outcome.cached),
            );
        }
    }

    /// Lint options from the configuration and the command line.
    pub(crate) fn options(&self, select: Option<&SelectArgs>) -> Result<Options, CommandError> {
        for code in select.iter().flat_map(|s| &s.ignore) {
            if urldb_core::rules::gate_findings::always(code) {
                urldb_output::say!(
                    "warning: --ignore {}: a gate finding is always checked and reported \
                     (see docs/suppressions.md, \"Gate findings\")",
                    urldb_core::text::escape(code)
                );
            }
        }
        let mut options = urldb_store::lint_options(&self.config, overrides(select).as_ref())?;
        urldb_store::with_root(&mut options, &self.root);
        Ok(options)
    }
}

/// `--config-from REV` reads `urldb.toml` as REV has it: when the work
/// tree's differs (a pull request's edit), say once that the edit is not
/// used, naming the file, so that a change that seems to do nothing is
/// explained. A file that cannot be read to compare is not said.
fn note_unread_edit(cwd: &Path, rev: &str, path: &Path) {
    let Ok(repo) = urldb_store::Repository::discover(cwd, "--config-from") else {
        return;
    };
    let Some(repo_path) = repo.repo_path(path) else {
        return;
    };
    let limit = urldb_core::config::MAX_CONFIG_SIZE;
    let Ok(Some(at_rev)) = repo.file_at(rev, &repo_path, limit) else {
        return;
    };
    let Ok(here) = urldb_store::read_limited(path, limit, None) else {
        return;
    };
    // Line endings git may convert on checkout are no edit.
    let text = |bytes: &[u8]| {
        bytes
            .iter()
            .copied()
            .filter(|b| *b != b'\r')
            .collect::<Vec<u8>>()
    };
    if text(&here) != text(&at_rev) {
        let shown = path.strip_prefix(cwd).unwrap_or(path);
        urldb_output::say!(
            "note: --config-from {}: {} is read as that revision has it; the working tree's \
             changes to it are not used by this run",
            urldb_core::text::escape(rev),
            urldb_core::text::escape(&shown.display().to_string())
        );
    }
}

/// `--color auto`: `NO_COLOR` (set, not empty) turns colours off;
/// otherwise `FORCE_COLOR` or `CLICOLOR_FORCE` (set, not empty and not
/// `0`) turns them on where no terminal is (a CI log that shows them);
/// otherwise colours when standard output is a terminal. As ruff, cargo
/// and most tools that read them.
fn auto_color() -> bool {
    let set = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    let forced = |name: &str| set(name).is_some_and(|v| v != "0" && v != "false");
    if set("NO_COLOR").is_some() {
        return false;
    }
    forced("FORCE_COLOR") || forced("CLICOLOR_FORCE") || urldb_output::gate::stdout_is_terminal()
}

/// `--select`, `--extend-select` and `--ignore`, on top of `[lint]`.
fn overrides(select: Option<&SelectArgs>) -> Option<RuleOverrides> {
    select.map(|s| RuleOverrides {
        select: s.select.clone(),
        extend_select: s.extend_select.clone(),
        ignore: s.ignore.clone(),
    })
}

/// A configuration's error as the command says it: an invalid file with
/// its places (in colour when asked), anything else as it is.
fn settings_error(e: SettingsError, color: bool) -> CommandError {
    match e {
        SettingsError::Config(error) => CommandError::Config { error, color },
        e => CommandError::Settings(e),
    }
}

/// What a configuration asks that is not done (a gate finding turned
/// off), said once for each configuration a run reads.
pub(crate) fn say_warnings(settings: &urldb_store::Settings) {
    if let Some(path) = &settings.config_path {
        for (line, warning) in &settings.config.warnings {
            urldb_output::say!(
                "warning: {}:{line}: {}",
                urldb_core::source::shown_path(path),
                urldb_core::text::escape(warning)
            );
        }
    }
}

/// Build the context from the global options and run `f` with it; a
/// context that cannot be built is an error (exit 2).
pub(crate) fn with_context(
    global: &GlobalArgs,
    f: impl FnOnce(&Context) -> Result<ExitStatus, CommandError>,
) -> Result<ExitStatus, CommandError> {
    f(&Context::new(global)?)
}

/// `--timeout`, else `[verify] timeout`, else `default`. Not a duration
/// is a usage error (exit 2), the same in every command that takes it.
pub(crate) fn timeout(
    given: Option<&str>,
    config: &VerifyConfig,
    default: std::time::Duration,
) -> Result<std::time::Duration, CommandError> {
    match given.or(config.timeout.as_deref()) {
        Some(text) => urldb_verify::config::parse_duration(text)
            .ok_or_else(|| CommandError::NotADuration(text.to_string())),
        None => Ok(default),
    }
}

/// The most worker threads a run starts, whatever `--threads` says.
pub(crate) const MAX_THREADS: usize = 256;

/// `--threads N` as used: at most 4 per available core and at most
/// [`MAX_THREADS`] (more only adds memory and switching, and a hostile
/// `urldb.toml` or command line could ask for thousands).
pub(crate) fn capped_threads(asked: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    asked.min(cores.saturating_mul(4)).min(MAX_THREADS)
}
