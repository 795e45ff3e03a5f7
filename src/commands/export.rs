//! `urldb export`: every record of the database in another format
//! (`docs/urls.md`, the URI-Catalogue section, for that format), to stdout;
//! what a URI-Catalogue cannot hold is said on stderr, record by record.

use std::path::PathBuf;

use clap::Args;

use super::records::{finish, records_named};
use crate::app::{CommandError, Context, ExitStatus};
use urldb_output::gate::{self, Syntax};

#[derive(Debug, Args)]
pub(crate) struct ExportArgs {
    /// The format to write.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub to: ExportFormat,
    /// Domain files or directories to export (default: the database that governs the working directory, whole, and every database below it).
    pub paths: Vec<PathBuf>,
    // The records to export (default: all); `deprecated` ones are never
    // left out.
    #[command(flatten)]
    pub select: super::records::RecordArgs,
    #[command(flatten)]
    pub shared: crate::app::DbOutputArgs,
    #[command(flatten)]
    pub threads: crate::app::ThreadsArg,
}

pub(crate) fn run(ctx: &Context, args: &ExportArgs) -> Result<ExitStatus, CommandError> {
    // `deprecated` records included: an export loses nothing of what it
    // selects, so that `import` brings it all back (docs/coming-from-wwturldb.md).
    let filter = args.select.filter(true)?;
    let collected = records_named(ctx, &args.paths, &filter, "export")?;
    // A file it cannot read (exit 2) leaves stdout empty: a part of the
    // database that looks whole (`[]`, a CSV header) would be imported,
    // or published, as if it were all of it.
    if !collected.errors.is_empty() {
        let status = finish(Ok(()), &collected)?;
        urldb_output::say!(
            "error: nothing exported: the files above cannot be read, and an export without \
             their records would look whole"
        );
        return Ok(status);
    }
    let records = &collected.records;
    let mut out = gate::stdout(match args.to {
        ExportFormat::Urls => Syntax::Url,
        ExportFormat::Json => Syntax::Json,
        ExportFormat::Csv | ExportFormat::UriCatalogue => Syntax::Text,
    });
    let written = match args.to {
        ExportFormat::Urls => urldb_store::interchange::write_urls(records, &mut out),
        ExportFormat::Json => urldb_store::interchange::write_json(records, &mut out),
        ExportFormat::Csv => super::records::write_csv(records, &mut out),
        ExportFormat::UriCatalogue => {
            let now = urldb_store::interchange::catalogue_date(catalogue_time(ctx)?);
            let written = urldb_store::interchange::write_catalogue(records, &now);
            // Said on stderr even with --quiet, as `import` says what it
            // dropped: these are values the output does not hold.
            for (i, message) in &written.left_out {
                if let Some(r) = records.get(*i) {
                    urldb_output::say!(
                        "warning: {}:{}: {}: {}",
                        urldb_core::text::escape(&urldb_core::source::display_path(&r.file)),
                        r.line,
                        urldb_core::text::escape(&r.url),
                        urldb_core::text::escape(message)
                    );
                }
            }
            super::records::write_data(&mut out, written.text.as_bytes())
        }
    };
    finish(written.and_then(|()| out.finish()), &collected)
}

/// The time a URI-Catalogue is stamped with (its generated `DATE`s):
/// `SOURCE_DATE_EPOCH` when set (reproducible builds), else the time of
/// the database's newest commit (`HEAD`), else now, so that exporting the
/// same commit twice writes the same bytes. A `SOURCE_DATE_EPOCH` that is
/// not a number of seconds is an error, as that convention asks.
fn catalogue_time(ctx: &Context) -> Result<u64, CommandError> {
    if let Some(value) = std::env::var_os("SOURCE_DATE_EPOCH").filter(|v| !v.is_empty()) {
        let text = value.to_string_lossy();
        return text
            .trim()
            .parse::<u64>()
            .map_err(|_| CommandError::SourceDateEpoch(text.into_owned()));
    }
    let committed = urldb_store::Repository::discover(&ctx.root, "export")
        .ok()
        .and_then(|repo| repo.head_time())
        .and_then(|t| u64::try_from(t).ok());
    Ok(committed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0)
    }))
}

/// What `urldb export --to` writes (and `urldb ls --format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ExportFormat {
    UriCatalogue,
    Urls,
    Json,
    Csv,
}
