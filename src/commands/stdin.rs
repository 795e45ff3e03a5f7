//! Standard input as a domain file: `-` among the paths, the
//! `--stdin-filename` that names it, and the database that name is in.

use std::io::Read;

use crate::app::CommandError;

/// `-` among the paths means standard input, as ruff and yamllint read
/// it; urldb needs the file's name too (which rules, which line endings,
/// whether it is a domain file), so `-` comes with `--stdin-filename`,
/// which reads standard input on its own as well. `-` without a name, or
/// beside other paths, is a usage error.
pub(crate) fn stdin_dash(
    paths: &[std::path::PathBuf],
    name: Option<&std::path::Path>,
) -> Result<(), CommandError> {
    let dash = |p: &std::path::PathBuf| p.as_os_str() == "-";
    if !paths.iter().any(dash) {
        return Ok(());
    }
    if paths.len() > 1 {
        return Err(CommandError::DashBesidePaths);
    }
    match name {
        Some(_) => Ok(()),
        None => Err(CommandError::DashWithoutName),
    }
}

pub(crate) fn read_stdin() -> Result<Vec<u8>, CommandError> {
    let mut buf = Vec::new();
    std::io::stdin()
        .read_to_end(&mut buf)
        .map_err(CommandError::Stdin)?;
    Ok(buf)
}

/// The database of `--stdin-filename NAME`: the one whose configuration
/// governs NAME (its index, and whether NAME is one of its files).
pub(crate) fn stdin_database(
    ctx: &crate::app::Context,
    name: &std::path::Path,
) -> Result<(usize, Result<(), urldb_store::membership::Skip>), CommandError> {
    let mut databases = ctx.databases.borrow_mut();
    let before = databases.len();
    let route = databases.route(name).map_err(|e| ctx.settings_error(e))?;
    for i in before..databases.len() {
        crate::app::say_warnings(&databases.get(i).0.settings);
    }
    Ok(match route {
        urldb_store::Route::To(i) => (i, databases.get(i).0.members.of(name)),
        urldb_store::Route::Governed(config) => {
            (0, Err(urldb_store::membership::Skip::Governed { config }))
        }
    })
}
