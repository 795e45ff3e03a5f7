//! `urldb diff`: what changed in the database, record by record, between
//! two versions of it in git (`docs/git.md`, "`urldb diff`"). The change
//! set is the store's ([`urldb_store::changes()`]); this prints it.

use clap::Args;

use crate::app::{CommandError, Context, ExitStatus};
use crate::output::changes::{self, Format};
use urldb_output::gate::{self, Syntax};
use urldb_store::{Repository, Sides};

#[derive(Debug, Args)]
pub(crate) struct DiffArgs {
    /// What to compare, as `git diff` takes it: nothing (the index with the working tree), `REV` (REV with the working tree) or `REV..REV`.
    #[arg(value_name = "REVISIONS")]
    pub revisions: Option<String>,
    /// Compare HEAD (or the REV given) with the index: what `git commit` would take.
    #[arg(long)]
    pub staged: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// `--format markdown`: the most bytes the summary takes; lists are cut
    /// to fit (default 1 MiB, GitHub's job-summary limit; 65536 for an
    /// issue or comment body).
    #[arg(long, value_name = "BYTES", default_value_t = urldb_verify::output::SUMMARY_LIMIT as u64,
          value_parser = clap::value_parser!(u64).range(urldb_verify::output::SUMMARY_LIMIT_MIN as u64..))]
    pub summary_limit: u64,
    /// Exit 1 when a record or a domain's metadata changed (as `git diff --exit-code`).
    #[arg(long)]
    pub exit_code: bool,
    #[command(flatten)]
    pub db: crate::app::DbArgs,
    #[command(flatten)]
    pub color: crate::app::ColorArg,
    #[command(flatten)]
    pub quiet: crate::app::QuietArg,
}

pub(crate) fn run(ctx: &Context, args: &DiffArgs) -> Result<ExitStatus, CommandError> {
    let sides = Sides::from_args(args.revisions.as_deref(), args.staged)
        .map_err(urldb_store::ChangesError::from)?;
    let repo = Repository::discover(&ctx.root, "urldb diff")?;
    let max = ctx.config.max_file_size()?;
    let changes = urldb_store::changes(&repo, &ctx.members, sides, max)?;
    let syntax = match args.format {
        Format::Json => Syntax::Json,
        Format::Human | Format::Markdown | Format::Github => Syntax::Text,
    };
    let mut out = gate::stdout(syntax);
    match args.format {
        Format::Human => changes::human::write(&mut out, &changes, ctx.color, ctx.quiet)?,
        Format::Json => changes::json::write(&mut out, &changes)?,
        Format::Markdown => changes::markdown::write(
            &mut out,
            &changes,
            usize::try_from(args.summary_limit).unwrap_or(usize::MAX),
        )?,
        Format::Github => changes::github::write(&mut out, &changes)?,
    }
    out.finish()?;
    super::print_errors(&changes.errors);
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
