//! `urldb report`: merge the `verify --format json` results of the shards
//! of a run and show them in any verify format, with verify's exit status
//! (`docs/verify.md`, "Results that merge").

use std::path::PathBuf;

use clap::Args;

use super::verify::{VerifyFormat, write_results};
use crate::app::FailOnArg;
use crate::app::{CommandError, ExitStatus};
use urldb_verify::output::problem_entry_line;
use urldb_verify::results::{self, Results};

/// The largest results file read (a million URLs take about 400 MB).
const MAX_RESULTS_FILE: u64 = 4 << 30;

/// Duplicate URLs named one by one; the rest are counted.
const MAX_NAMED: usize = 10;

#[derive(Debug, Args)]
pub(crate) struct ReportArgs {
    /// `urldb verify --format json` output files, e.g. one per shard.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = VerifyFormat::Human)]
    pub format: VerifyFormat,
    #[command(flatten)]
    pub summary_limit: super::shared_args::SummaryLimitArg,
    /// What exits 1: any broken URL, or only newly broken ones (every one, without history); `blocked` adds URLs a bot wall answered. Comma-separated or repeated.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "any")]
    pub fail_on: Vec<FailOnArg>,
    #[command(flatten)]
    pub quiet: crate::app::QuietArg,
}

pub(crate) fn run(args: &ReportArgs, quiet: bool) -> Result<ExitStatus, CommandError> {
    let mut inputs = Vec::with_capacity(args.files.len());
    for path in &args.files {
        inputs.push(read(path)?);
    }
    let names: Vec<String> = args
        .files
        .iter()
        .map(|p| urldb_core::source::shown_path(p))
        .collect();
    let (merged, duplicates) = results::merge(inputs);
    for d in duplicates.iter().take(MAX_NAMED) {
        urldb_output::say!(
            "warning: {} ({}:{}) is in more than one results file; the result in {} is kept",
            urldb_core::text::escape(&d.url),
            urldb_core::text::path_text(&d.file),
            d.line,
            names
                .get(d.kept)
                .map(String::as_str)
                .unwrap_or("the last file")
        );
    }
    if duplicates.len() > MAX_NAMED {
        urldb_output::say!(
            "warning: {} more URLs are in more than one results file",
            duplicates.len() - MAX_NAMED
        );
    }
    for missing in missing_shards(&merged) {
        urldb_output::say!(
            "warning: no results of shard {missing}: its URLs are not in this report"
        );
    }
    for p in &merged.problems {
        urldb_output::say!("{}", problem_entry_line(p));
    }
    write_results(args.format, &merged, quiet, args.summary_limit.bytes())?;
    Ok(crate::app::verify_exit_status(
        merged.conclusion(crate::app::fail_on(&args.fail_on)),
    ))
}

/// Read one results file: exit 2, naming the file, when it cannot be read
/// or is not what `verify --format json` writes.
pub(crate) fn read(path: &std::path::Path) -> Result<Results, CommandError> {
    let bytes = urldb_store::read_limited(path, MAX_RESULTS_FILE, None).map_err(|source| {
        CommandError::Input {
            path: path.to_path_buf(),
            source,
        }
    })?;
    serde_json::from_slice(&bytes).map_err(|source| CommandError::NotResults {
        path: path.to_path_buf(),
        source,
    })
}

/// The shards `K/N` no input came from, when the inputs are shards.
fn missing_shards(results: &Results) -> Vec<String> {
    let mut counts: Vec<u32> = results
        .runs
        .iter()
        .filter_map(|r| r.shard.map(|s| s.count))
        .collect();
    counts.sort_unstable();
    counts.dedup();
    let mut missing = Vec::new();
    for n in counts {
        for k in 1..=n {
            let present = results
                .runs
                .iter()
                .any(|r| r.shard.is_some_and(|s| s.count == n && s.index == k));
            if !present {
                missing.push(format!("{k}/{n}"));
            }
        }
    }
    missing
}
