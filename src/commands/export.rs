//! `urldb export`: every record of the database in another format
//! (`docs/urls.md`, the URI-Catalogue section, for that format), to stdout;
//! what a URI-Catalogue cannot hold is said on stderr, record by record.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use crate::app::{CommandError, Context, ExitStatus};
use urldb_store::database::FileError;
use urldb_store::interchange;
use urldb_store::listing::{self, Filter, UrlRecord};

#[derive(Debug, Args)]
pub(crate) struct ExportArgs {
    /// The format to write.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub to: ExportFormat,
    /// Domain files or directories to export (default: the whole database).
    pub paths: Vec<PathBuf>,
    // The records to export (default: all); `deprecated` ones are never
    // left out.
    #[command(flatten)]
    pub select: super::ls::RecordArgs,
}

pub(crate) fn run(ctx: &Context, args: &ExportArgs) -> Result<ExitStatus, CommandError> {
    // `deprecated` records included: an export loses nothing of what it
    // selects, so that `import` brings it all back (docs/coming-from-wwturldb.md).
    let filter = args.select.filter(true)?;
    let (records, errors) = records_named(ctx, &args.paths, &filter)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let written = match args.to {
        ExportFormat::Urls => {
            interchange::urls::write(&records, &mut out).map(|encoded| note_encoded(encoded, ctx))
        }
        ExportFormat::Json => interchange::json::write(&records, &mut out),
        ExportFormat::Csv => interchange::csv::write(&records, &mut out),
        ExportFormat::UriCatalogue => {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0);
            let now = interchange::uri_catalogue::format_date(now);
            let written = interchange::uri_catalogue::write(&records, &now);
            // Said on stderr even with --quiet, as `import` says what it
            // dropped: these are values the output does not hold.
            for (i, message) in &written.left_out {
                if let Some(r) = records.get(*i) {
                    eprintln!(
                        "warning: {}:{}: {}: {}",
                        urldb_core::text::escape(&urldb_core::source::display_path(&r.file)),
                        r.line,
                        urldb_core::text::escape(&r.url()),
                        urldb_core::text::escape(message)
                    );
                }
            }
            out.write_all(written.text.as_bytes())
        }
    };
    finish(written.and_then(|()| out.flush()), &errors)
}

/// [`records`], when every domain `filter` asks for is named by one of the
/// files (the error says which is not, with a suggestion).
pub(crate) fn records_named(
    ctx: &Context,
    paths: &[PathBuf],
    filter: &Filter,
) -> Result<(Vec<UrlRecord>, Vec<FileError>), CommandError> {
    if filter.domains.is_empty() {
        return records(ctx, paths, filter);
    }
    let exclude = ctx.exclude()?;
    let targets = urldb_store::database::targets(&ctx.root, paths, &exclude);
    let known = listing::known_hosts(&ctx.root, &targets.checked);
    listing::require_known("--domain", &filter.domains, &known)
        .map_err(|e| CommandError::Usage(e.to_string()))?;
    records(ctx, paths, filter)
}

/// After a URL list: say that URLs with control characters were written
/// percent-encoded (the records themselves are `path-invalid-char`).
pub(crate) fn note_encoded(encoded: usize, ctx: &Context) {
    if encoded > 0 && !ctx.quiet {
        eprintln!(
            "note: {encoded} URL{} held control characters, written percent-encoded \
             (`urldb check` reports the records)",
            if encoded == 1 { "" } else { "s" }
        );
    }
}

/// The records of `paths` (default: the whole database) that `filter`
/// accepts; the error is a configuration problem.
pub(crate) fn records(
    ctx: &Context,
    paths: &[PathBuf],
    filter: &Filter,
) -> Result<(Vec<UrlRecord>, Vec<FileError>), CommandError> {
    let exclude = ctx.exclude()?;
    let max = ctx
        .config
        .max_file_size()
        .map_err(|e| CommandError::Usage(e.to_string()))?;
    let targets = urldb_store::database::targets(&ctx.root, paths, &exclude);
    targets.note_outside(ctx.quiet);
    let (records, mut errors) = listing::collect(&ctx.root, &targets.checked, filter, max);
    errors.extend(targets.errors);
    Ok((records, errors))
}

/// The exit status once the output is written: a failed write is the
/// command's error ([`CommandError::Output`]); unreadable files are exit 2.
pub(crate) fn finish(
    written: std::io::Result<()>,
    errors: &[FileError],
) -> Result<ExitStatus, CommandError> {
    written?;
    super::print_errors(errors);
    Ok(if errors.is_empty() {
        ExitStatus::Success
    } else {
        ExitStatus::Error
    })
}

/// What `urldb export --to` writes (and `urldb ls --format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ExportFormat {
    UriCatalogue,
    Urls,
    Json,
    Csv,
}
