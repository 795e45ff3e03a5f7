//! `urldb ls`: the database's URLs (scheme from `https`), filtered, as a
//! URL list (the reference tool's `dump-urls`), JSON or CSV.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::records::{FilterArgs, finish, records_named};
use crate::app::{CommandError, Context, ExitStatus};
use urldb_output::gate::{self, Syntax};

#[derive(Debug, Args)]
pub(crate) struct LsArgs {
    /// Domain files or directories to list (default: the database that governs the working directory, whole, and every database below it).
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub filter: FilterArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = LsFormat::Urls)]
    pub format: LsFormat,
    #[command(flatten)]
    pub shared: crate::app::DbOutputArgs,
    #[command(flatten)]
    pub threads: crate::app::ThreadsArg,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum LsFormat {
    /// One URL per line.
    Urls,
    /// A JSON array with every field.
    Json,
    /// CSV with every field.
    Csv,
}

pub(crate) fn run(ctx: &Context, args: &LsArgs) -> Result<ExitStatus, CommandError> {
    let filter = args.filter.filter()?;
    let collected = records_named(ctx, &args.paths, &filter, "list")?;
    let records = &collected.records;
    let mut out = gate::stdout(match args.format {
        LsFormat::Urls => Syntax::Url,
        LsFormat::Json => Syntax::Json,
        LsFormat::Csv => Syntax::Text,
    });
    let written = match args.format {
        LsFormat::Urls => urldb_store::interchange::write_urls(records, &mut out),
        LsFormat::Json => urldb_store::interchange::write_json(records, &mut out),
        LsFormat::Csv => super::records::write_csv(records, &mut out),
    };
    let flushed = written.and_then(|()| out.finish());
    finish(flushed, &collected)
}
