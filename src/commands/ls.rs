//! `urldb ls`: the database's URLs (scheme from `https`), filtered, as a
//! URL list (the reference tool's `dump-urls`), JSON or CSV.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::app::{CommandError, Context, ExitStatus};
use urldb_store::interchange;
use urldb_store::listing::Filter;

#[derive(Debug, Args)]
pub(crate) struct LsArgs {
    /// Domain files or directories to list (default: the whole database).
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub filter: FilterArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = LsFormat::Urls)]
    pub format: LsFormat,
}

/// The record filters `ls` shares with `verify`: the selection, and whether
/// `deprecated` records are in it.
#[derive(Debug, Args)]
pub(crate) struct FilterArgs {
    #[command(flatten)]
    pub select: RecordArgs,
    /// Include `deprecated` records too.
    #[arg(long)]
    pub include_deprecated: bool,
}

/// Which records: the options `ls`, `verify` and `export` share.
#[derive(Debug, Args)]
pub(crate) struct RecordArgs {
    /// Only this domain (its primary name or a cname); repeatable.
    #[arg(short = 'd', long, value_name = "DOMAIN")]
    pub domain: Vec<String>,
    /// Only records with this category; repeatable (any of them).
    #[arg(short = 'c', long, value_name = "CATEGORY")]
    pub category: Vec<String>,
    /// Only paths starting with this text.
    #[arg(long, value_name = "PREFIX")]
    pub path_prefix: Option<String>,
    /// Only paths that this robots.txt-style pattern matches (`%xx` decoded
    /// except `%2F`, prefix match).
    #[arg(long = "match", value_name = "PATTERN")]
    pub pattern: Option<String>,
}

impl FilterArgs {
    /// The filter, `deprecated` records left out unless asked for.
    pub(crate) fn filter(&self) -> Result<Filter, CommandError> {
        self.select.filter(self.include_deprecated)
    }
}

impl RecordArgs {
    /// The filter, with `--domain` values read as hosts (lowercase, IDN to
    /// A-labels, no trailing dot).
    pub(crate) fn filter(&self, include_deprecated: bool) -> Result<Filter, CommandError> {
        let mut domains = Vec::new();
        for d in &self.domain {
            let url = urldb_core::url::canonicalize_given(d).map_err(|e| {
                CommandError::Usage(format!("--domain `{}`: {e}", urldb_core::text::escape(d)))
            })?;
            domains.push(url.host);
        }
        Ok(Filter {
            domains,
            categories: self.category.clone(),
            path_prefix: self.path_prefix.clone(),
            pattern: self.pattern.clone(),
            include_deprecated,
        })
    }
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
    let (records, errors) = super::export::records_named(ctx, &args.paths, &filter)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let written = match args.format {
        LsFormat::Urls => interchange::urls::write(&records, &mut out)
            .map(|encoded| super::export::note_encoded(encoded, ctx)),
        LsFormat::Json => interchange::json::write(&records, &mut out),
        LsFormat::Csv => interchange::csv::write(&records, &mut out),
    };
    let flushed = written.and_then(|()| out.flush());
    super::export::finish(flushed, &errors)
}
