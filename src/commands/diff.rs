//! `urldb diff`: what changed in the database, record by record, between
//! two versions of it in git (`docs/git.md`, "`urldb diff`"). The change
//! set is the store's, database by database over what a run over the
//! paths covers ([`urldb_store::Databases::changes`]); this prints it.

use std::path::PathBuf;

use clap::Args;

use crate::app::{CommandError, Context, ExitStatus};
use crate::output::changes::{self, Format};
use urldb_output::gate::{self, Syntax};
use urldb_store::{ChangeSet, Repository, Sides};

#[derive(Debug, Args)]
pub(crate) struct DiffArgs {
    /// What to compare, as `git diff` takes it: nothing (the index with the working tree), `REV` (REV with the working tree) or `REV..REV`; then the domain files or folders to compare (default: what a run with no path covers: the database that governs the working directory and every database below it). A word that is both a revision and a path is refused: put `--` before the paths.
    #[arg(value_name = "REVISIONS|PATH")]
    pub words: Vec<String>,
    /// Paths after `--`: never read as a revision.
    #[arg(last = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Compare HEAD (or the REV given) with the index: what `git commit` would take.
    #[arg(long)]
    pub staged: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    #[command(flatten)]
    pub summary_limit: super::shared_args::SummaryLimitArg,
    /// Exit 1 when a record or a domain's metadata changed (as `git diff --exit-code`).
    #[arg(long)]
    pub exit_code: bool,
    #[command(flatten)]
    pub shared: crate::app::DbOutputArgs,
}

/// A word of `urldb diff` that is no revision and no path, or both.
#[derive(Debug, thiserror::Error)]
pub(crate) enum WordError {
    #[error(
        "`{}` is both a revision and a path: write `urldb diff {} --` to compare with the \
         revision, or `urldb diff -- {}` for the path",
        urldb_core::text::escape(.0),
        urldb_core::text::escape(.0),
        urldb_core::text::escape(.0)
    )]
    Ambiguous(String),
    #[error(
        "`{}`: no such path in the working tree (paths that no longer exist go after `--`)",
        urldb_core::text::escape(.0)
    )]
    NoPath(String),
    #[error(
        "`{}`: one revision or one range (`A..B`) is compared; paths go after it, or after `--`",
        urldb_core::text::escape(.0)
    )]
    SecondRevision(String),
}

/// The revisions and the paths of `urldb diff WORD... [-- PATH...]`, by
/// git's rule: before `--`, the first word is a path when it exists and
/// names no revision, refused when it is both, else a revision; every
/// later word is a path; after `--`, every word is a path.
fn revisions_and_paths(
    ctx: &Context,
    args: &DiffArgs,
) -> Result<(Option<String>, Vec<PathBuf>), CommandError> {
    let mut words = args.words.iter();
    let mut paths = Vec::new();
    let mut revisions = None;
    if let Some(first) = words.next() {
        let is_path = std::path::Path::new(first).symlink_metadata().is_ok();
        let is_revision = !first.is_empty()
            && Repository::discover(&ctx.root, "urldb diff").is_ok_and(|r| r.is_revision(first));
        match (is_revision, is_path) {
            (true, true) if args.paths.is_empty() => {
                return Err(WordError::Ambiguous(first.clone()).into());
            }
            (false, true) => paths.push(PathBuf::from(first)),
            // No path: a revision, and when it names none the store's
            // error says why (a shallow clone's missing base, a typo).
            (_, false) | (true, true) => revisions = Some(first.clone()),
        }
    }
    for word in words {
        if std::path::Path::new(word).symlink_metadata().is_err() {
            return Err(if revisions.is_some() {
                WordError::NoPath(word.clone())
            } else {
                WordError::SecondRevision(word.clone())
            }
            .into());
        }
        paths.push(PathBuf::from(word));
    }
    paths.extend(args.paths.iter().cloned());
    Ok((revisions, paths))
}

pub(crate) fn run(ctx: &Context, args: &DiffArgs) -> Result<ExitStatus, CommandError> {
    let (revisions, paths) = revisions_and_paths(ctx, args)?;
    let sides = Sides::from_args(revisions.as_deref(), args.staged)
        .map_err(urldb_store::ChangesError::from)?;
    let sets = super::targets::change_sets(ctx, &paths, &sides, "urldb diff")?;
    let changes = combined(sides, sets);
    let syntax = match args.format {
        Format::Json => Syntax::Json,
        Format::Human | Format::Markdown | Format::Github => Syntax::Text,
    };
    let mut out = gate::stdout(syntax);
    match args.format {
        Format::Human => changes::human::write(&mut out, &changes, ctx.color, ctx.quiet)?,
        Format::Json => changes::json::write(&mut out, &changes)?,
        Format::Markdown => {
            changes::markdown::write(&mut out, &changes, args.summary_limit.bytes())?
        }
        Format::Github => changes::github::write(&mut out, &changes)?,
    }
    out.finish()?;
    super::notes::print_errors(&changes.errors);
    // A side git or the file system could not give: the change set is
    // incomplete (a file that does not parse is a change shown as such).
    for file in changes.files.iter().filter(|f| f.has_error()) {
        for (_, why) in file.unreadable.iter().filter(|(_, why)| why.is_error()) {
            urldb_output::say!(
                "error: {}: {}",
                urldb_core::source::shown_path(&file.path),
                urldb_core::text::escape(&why.to_string())
            );
        }
    }
    Ok(
        if !changes.errors.is_empty() || changes.files.iter().any(|f| f.has_error()) {
            ExitStatus::Error
        } else if args.exit_code && !changes.files.is_empty() {
            ExitStatus::Failure
        } else {
            ExitStatus::Success
        },
    )
}

/// The change sets of several databases as one, its files sorted by path
/// as one database's are.
fn combined(sides: Sides, sets: Vec<(usize, ChangeSet)>) -> ChangeSet {
    let mut all = ChangeSet {
        sides,
        files: Vec::new(),
        errors: Vec::new(),
    };
    for (_, set) in sets {
        all.files.extend(set.files);
        all.errors.extend(set.errors);
    }
    all.files.sort_by(|a, b| a.path.cmp(&b.path));
    all
}
