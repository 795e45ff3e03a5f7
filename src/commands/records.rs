//! Which records a command works on, and how it ends: the record options
//! `ls`, `export` and `verify` share, reading the records they select, and
//! the exit status once a list is written.

use std::path::PathBuf;

use clap::Args;

use crate::app::{CommandError, Context, ExitStatus};
use urldb_store::{Collected, Filter, LeftOut};

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
            let url = urldb_core::url::canonicalize_given(d).map_err(|source| {
                CommandError::DomainArg {
                    given: d.clone(),
                    source,
                }
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

/// The records of `paths` (default: the whole database; `doing` says
/// what for, when none of them is a domain file) that `filter`
/// accepts, when every domain it asks for is named by one of the files
/// and each of its other filters matches a record (the error says which
/// does not, with a suggestion); the files are found
/// once, and their notes said once. Records whose `_path` makes no URL of
/// their own host are in `left_out`, for [`finish`] to say.
pub(crate) fn records_named(
    ctx: &Context,
    paths: &[PathBuf],
    filter: &Filter,
    doing: &'static str,
) -> Result<Collected, CommandError> {
    let parts = super::targets::targets(ctx, paths)?;
    require_named_files(paths, &parts, doing)?;
    if !filter.domains.is_empty() {
        let known = known_hosts(ctx, &parts);
        urldb_store::require_known("--domain", &filter.domains, &known)?;
    }
    require_selecting(ctx, &parts, filter)?;
    collect(ctx, parts, filter)
}

/// Paths were named and none of them is (or holds) a domain file of a
/// database: each was noted as skipped, and listing, exporting or
/// verifying nothing would say "empty" where the user named files
/// (exit 2, as a filter that selects nothing). `check` and `fmt` stay
/// quiet there: a pre-commit hook names every YAML file of a commit.
pub(crate) fn require_named_files(
    paths: &[PathBuf],
    parts: &[urldb_store::Part],
    doing: &'static str,
) -> Result<(), CommandError> {
    let none = parts
        .iter()
        .all(|p| p.targets.checked.is_empty() && p.targets.errors.is_empty());
    if !paths.is_empty() && none {
        return Err(CommandError::NoNamedFile(doing));
    }
    Ok(())
}

/// Each of `filter`'s categories, path prefix and pattern matches a
/// record of the files of `parts` (`urldb_store::require_selecting`).
pub(crate) fn require_selecting(
    ctx: &Context,
    parts: &[urldb_store::Part],
    filter: &Filter,
) -> Result<(), CommandError> {
    let databases: Vec<_> = parts
        .iter()
        .map(|part| {
            let settings = ctx.database(part.database).0.settings;
            let max = settings.config.max_file_size()?;
            Ok((settings.root, max))
        })
        .collect::<Result<_, CommandError>>()?;
    let groups: Vec<urldb_store::FilesOf> = parts
        .iter()
        .zip(&databases)
        .map(|(part, (root, max_size))| urldb_store::FilesOf {
            root,
            files: &part.targets.checked,
            max_size: *max_size,
        })
        .collect();
    Ok(urldb_store::require_selecting(&groups, filter)?)
}

/// Every host the files of `parts` name (their stems and cnames).
pub(crate) fn known_hosts(
    ctx: &Context,
    parts: &[urldb_store::Part],
) -> std::collections::BTreeSet<String> {
    let mut known = std::collections::BTreeSet::new();
    for part in parts {
        let root = ctx.database(part.database).0.settings.root;
        known.extend(urldb_store::known_hosts(&root, &part.targets.checked));
    }
    known
}

/// The records of `parts` that `filter` accepts, each database's files
/// read within its own `max-file-size`; in the order of their files.
fn collect(
    ctx: &Context,
    parts: Vec<urldb_store::Part>,
    filter: &Filter,
) -> Result<Collected, CommandError> {
    let several = parts.len() > 1;
    let mut collected = Collected::default();
    for part in parts {
        let settings = ctx.database(part.database).0.settings;
        let max = settings.config.max_file_size()?;
        let found =
            urldb_store::collect_records(&settings.root, &part.targets.checked, filter, max);
        collected.records.extend(found.records);
        collected.left_out.extend(found.left_out);
        collected.errors.extend(found.errors);
        collected.errors.extend(part.targets.errors);
    }
    if several {
        collected.records.sort_by(|a, b| a.file.cmp(&b.file));
        collected.left_out.sort_by(|a, b| a.file.cmp(&b.file));
    }
    Ok(collected)
}

/// The exit status once the output is written: a failed write is the
/// command's error ([`CommandError::Output`]); unreadable files are exit 2;
/// records left out because their `_path` makes no URL of their own host
/// are said one line each, even with `--quiet` (the output lacks them),
/// and are exit 1, as a finding is (`docs/urls.md`, "A record's URL").
pub(crate) fn finish(
    written: std::io::Result<()>,
    collected: &Collected,
) -> Result<ExitStatus, CommandError> {
    written?;
    for left in &collected.left_out {
        say_left_out(left);
    }
    super::notes::print_errors(&collected.errors);
    Ok(if !collected.errors.is_empty() {
        ExitStatus::Error
    } else if !collected.left_out.is_empty() {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    })
}

/// `warning: FILE:LINE: record left out: REASON (`urldb check FILE` says more)`.
fn say_left_out(left: &LeftOut) {
    let file = urldb_core::source::shown_path(&left.file);
    urldb_output::say!(
        "warning: {file}:{}: record left out: {} (`urldb check` reports the record)",
        left.line,
        urldb_core::text::escape(&left.reason.to_string())
    );
}

/// CSV of `records` on the gated stdout: exact bytes when stdout is a
/// regular file (no runner reads it, and `import` reads it back), through
/// the gate otherwise, since CSV has no other way to write a byte
/// (`docs/security.md`).
pub(crate) fn write_csv<W: std::io::Write>(
    records: &[urldb_store::UrlRecord],
    out: &mut urldb_output::gate::Gate<W>,
) -> std::io::Result<()> {
    if urldb_output::gate::stdout_is_a_file() {
        urldb_store::interchange::write_csv(records, &mut Exact(out))
    } else {
        urldb_store::interchange::write_csv(records, out)
    }
}

/// A data format's bytes (the URI-Catalogue): see [`write_csv`].
pub(crate) fn write_data<W: std::io::Write>(
    out: &mut urldb_output::gate::Gate<W>,
    bytes: &[u8],
) -> std::io::Result<()> {
    if urldb_output::gate::stdout_is_a_file() {
        out.exact(bytes)
    } else {
        std::io::Write::write_all(out, bytes)
    }
}

/// Writes through [`Gate::exact`](urldb_output::gate::Gate::exact).
struct Exact<'a, W: std::io::Write>(&'a mut urldb_output::gate::Gate<W>);

impl<W: std::io::Write> std::io::Write for Exact<'_, W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.exact(buf)?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}
