//! The file options `check` and `fmt` share: which version of the files
//! (`--staged`, `--since`) and `--shard K/N`. The options every command
//! may take (`--db`, `--color`, ...) are `app::args`'.

use super::notes::note_nothing_selected;
use crate::app::Context;

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
