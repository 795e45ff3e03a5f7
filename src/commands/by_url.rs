//! What the commands that edit the database by URL share (`add`, `rm`,
//! `import`): a URL given made canonical, or its error said; a host the
//! database does not place, said; records added to one file. Each says
//! its problem on standard error and makes the run's status worse, so
//! that the command goes on with the next URL.

use crate::app::{Context, ExitStatus};
use urldb_core::url::Canonical;

/// `input` made canonical, or `None` when urldb takes no such URL: said
/// once, its control characters escaped, and `status` an error.
pub(crate) fn canonical(input: &str, status: &mut ExitStatus) -> Option<Canonical> {
    match urldb_core::url::canonicalize_given(input) {
        Ok(url) => Some(url),
        Err(e) => {
            urldb_output::say!("error: {}", crate::app::about_url(input, &e));
            *status = status.worse(ExitStatus::Error);
            None
        }
    }
}

/// The host of `input` placed in no domain file (the host index's
/// `error`): said with the URL as given, and `status` a failure. The
/// index names files, so the whole line is escaped.
pub(crate) fn unplaced(input: &str, error: &dyn std::fmt::Display, status: &mut ExitStatus) {
    urldb_output::say!(
        "error: {}",
        urldb_core::text::escape(&format!("{input}: {error}"))
    );
    *status = status.worse(ExitStatus::Failure);
}

/// Add `records` to `domain`'s file for `add` and `import`: the edit, or
/// `None` when the file could not be changed (said on stderr, and
/// `status` is an error).
pub(crate) fn add_to_file(
    ctx: &Context,
    domain: &urldb_store::Domain,
    records: &[urldb_store::NewRecord],
    create: bool,
    options: &urldb_core::lint::Options,
    status: &mut ExitStatus,
) -> Option<urldb_store::FileEdit> {
    match urldb_store::add_records(
        &ctx.root,
        domain,
        records,
        create,
        options,
        &super::notes::write_note,
    ) {
        Ok(edit) => Some(edit),
        Err(e) => {
            urldb_output::say!("error: {}", urldb_core::text::escape(&e.to_string()));
            *status = status.worse(ExitStatus::Error);
            None
        }
    }
}
