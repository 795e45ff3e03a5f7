//! The options a few commands share: which version of the files
//! (`--staged`, `--since`) and `--shard K/N` of `check` and `fmt`,
//! `--summary-limit` of the commands that write a job summary, and the
//! variable `URLDB_FORMAT` of those that read `check`'s format. The
//! options every command may take (`--db`, `--color`, ...) are
//! `app::args`'.

use super::notes::note_nothing_selected;
use crate::app::{CommandError, Context};

/// Which version of the files: the work tree (default), the index, or the
/// files changed since a revision.
#[derive(Debug, clap::Args, Default)]
pub(crate) struct GitArgs {
    /// Use the staged contents (the git index) instead of the working tree.
    #[arg(long, conflicts_with = "since")]
    pub staged: bool,
    /// Only files changed between REV and the working tree (cross-file rules still see every file).
    #[arg(long, value_name = "REV")]
    pub since: Option<String>,
}

/// `--shard K/N` of `check` (a split of the files): the same syntax as
/// `verify`'s ([`urldb_verify::Shard`], a split of the URLs).
pub(crate) fn parse_shard(text: &str) -> Result<(usize, usize), urldb_verify::ShardError> {
    let shard: urldb_verify::Shard = text.parse()?;
    Ok((shard.index as usize, shard.count as usize))
}

/// `--shard K/N` of `check` and `fmt`: keep that shard of the files, and
/// say so when it holds none.
pub(crate) fn shard(ctx: &Context, parts: &mut [urldb_store::Part], k: usize, n: usize) {
    let count = |parts: &[urldb_store::Part]| -> usize {
        parts.iter().map(|p| p.targets.checked.len()).sum()
    };
    let before = count(parts);
    for part in parts.iter_mut() {
        urldb_store::database::shard(&mut part.targets, k, n);
    }
    if count(parts) == 0 && before > 0 {
        note_nothing_selected(
            ctx,
            &format!("--shard {k}/{n}: none of the {before} files falls in this shard"),
        );
    }
}

/// `--summary-limit` of `verify`, `report` and `diff`: the size of a
/// `--format markdown` summary.
#[derive(Debug, clap::Args)]
pub(crate) struct SummaryLimitArg {
    /// `--format markdown`: the most bytes the summary takes; lists are cut
    /// to fit (default 1 MiB, GitHub's job-summary limit; 65536 for an
    /// issue or comment body).
    #[arg(long, value_name = "BYTES", default_value_t = urldb_output::SUMMARY_LIMIT as u64,
          value_parser = clap::value_parser!(u64).range(urldb_output::SUMMARY_LIMIT_MIN as u64..))]
    summary_limit: u64,
}

impl SummaryLimitArg {
    /// The limit in bytes (more than the address space: no limit).
    pub(crate) fn bytes(&self) -> usize {
        usize::try_from(self.summary_limit).unwrap_or(usize::MAX)
    }
}

/// The `--format` of a command that also reads `check`'s variable
/// `URLDB_FORMAT` (`fmt`, `verify`): the one given; else the variable's
/// value (empty is unset) as `read` takes it, `None` being a value no
/// command takes (an error); else `default`.
pub(crate) fn format_or_variable<T>(
    given: Option<T>,
    default: T,
    read: impl FnOnce(&str) -> Option<T>,
) -> Result<T, CommandError> {
    if let Some(format) = given {
        return Ok(format);
    }
    let Some(value) = std::env::var_os("URLDB_FORMAT").filter(|v| !v.is_empty()) else {
        return Ok(default);
    };
    let value = value.to_string_lossy();
    read(&value).ok_or_else(|| CommandError::BadFormatVariable(value.into_owned()))
}
