//! The files a command takes (`paths`, or the whole database), database
//! by database, by the one resolution every command shares
//! (`urldb_store::Databases`, `docs/files.md`, "What a run covers"), and
//! the errors a selection ends in (no domain file, several databases
//! where one is needed).

use super::notes::{bare_run, note_skipped, warn_miscased};
use crate::app::CommandError;

/// The parts of a selection `how` makes of the run's databases; the
/// warnings of each configuration read for it said once.
pub(crate) fn select<T>(
    ctx: &crate::app::Context,
    how: impl FnOnce(
        &mut urldb_store::Databases<urldb_verify::config::VerifySection>,
    ) -> Result<T, urldb_store::SelectError>,
) -> Result<T, CommandError> {
    let mut databases = ctx.databases.borrow_mut();
    let before = databases.len();
    let selected = how(&mut databases).map_err(|e| match e {
        urldb_store::SelectError::Settings(e) => ctx.settings_error(e),
        urldb_store::SelectError::Git(e) => CommandError::Git(e),
        urldb_store::SelectError::Changes(e) => CommandError::Changes(e),
    })?;
    for i in before..databases.len() {
        crate::app::say_warnings(&databases.get(i).0.settings);
    }
    Ok(selected)
}

/// What changed between `sides` (`verify --since`/`--staged`, `diff`) in
/// every database a run over `paths` covers, each database's change set
/// with its index: the same databases, by the same resolution, as a
/// `check` over `paths` (`docs/files.md`, "What a run covers").
pub(crate) fn change_sets(
    ctx: &crate::app::Context,
    paths: &[std::path::PathBuf],
    sides: &urldb_store::Sides,
    option: &'static str,
) -> Result<Vec<(usize, urldb_store::ChangeSet)>, CommandError> {
    select(ctx, |d| d.changes(paths, sides, option))
}

/// A command that works on one database (`add`, `rm`, `import`) run where
/// no configuration governs the working directory and several databases
/// lie below it: which one is the user's to say.
pub(crate) fn one_database(ctx: &crate::app::Context) -> Result<(), CommandError> {
    match ctx.databases.borrow().several_below() {
        Some(configs) => Err(CommandError::SeveralDatabases(configs)),
        None => Ok(()),
    }
}

/// The files a run takes (`paths`, or the whole database), database by
/// database, with what was left out said once: the named paths that are
/// not in a database, and on a bare run (no `urldb.toml`, no `--db`)
/// which folder was taken as the database and which YAML files are no
/// domain files.
pub(crate) fn targets(
    ctx: &crate::app::Context,
    paths: &[std::path::PathBuf],
) -> Result<Vec<urldb_store::Part>, CommandError> {
    let mut parts = select(ctx, |d| {
        d.select(paths).map_err(urldb_store::SelectError::Settings)
    })?;
    if ctx.bare && paths.is_empty() {
        bare_run(ctx, &parts[0].targets);
    }
    warn_miscased(parts.iter().flat_map(|p| &p.targets.miscased));
    if paths.is_empty() {
        no_domain_file(ctx, &parts)?;
    }
    let skipped: Vec<_> = parts
        .iter_mut()
        .flat_map(|p| std::mem::take(&mut p.targets.skipped))
        .collect();
    note_skipped(ctx, &skipped);
    Ok(parts)
}

/// A database with no domain file at all is an error: a wrong `root` or
/// working directory, not a database that passed.
pub(crate) fn no_domain_file(
    ctx: &crate::app::Context,
    parts: &[urldb_store::Part],
) -> Result<(), CommandError> {
    let empty = |p: &urldb_store::Part| p.targets.all.is_empty() && p.targets.errors.is_empty();
    if parts.iter().all(empty) {
        return Err(CommandError::NoDomainFile {
            root: urldb_store::membership::shown_dir(&ctx.root),
            origin: ctx.origin.clone(),
            misnamed: parts.iter().map(|p| p.targets.misnamed.len()).sum(),
        });
    }
    Ok(())
}
