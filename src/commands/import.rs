//! `urldb import`: records from a URI-Catalogue (`docs/urls.md`) or a URL list
//! into the database (one write per file). Invalid catalogue records are
//! skipped and invalid optional fields dropped, each reported by line; the
//! valid records are imported.

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::Args;

use crate::app::{CommandError, Context, ExitStatus};
use urldb_core::url::Canonical;
use urldb_store::interchange::LineProblem;
use urldb_store::{Change, Domain, HostIndex, NewRecord};

#[derive(Debug, Args)]
pub(crate) struct ImportArgs {
    /// The format to read.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub from: ImportFormat,
    /// The file to read (`-` for stdin).
    pub file: PathBuf,
    /// The content type of records that have none (`TYPE`), and of every
    /// URL of a URL list.
    #[arg(long, value_name = "TYPE")]
    pub content_type: Option<String>,
    /// Create `HOST.yaml` for hosts that no domain file knows.
    #[arg(long)]
    pub create_domain: bool,
    #[command(flatten)]
    pub shared: crate::app::DbOutputArgs,
}

/// One record on its way in, with the line it came from.
struct Incoming {
    line: usize,
    url: Canonical,
    record: NewRecord,
}

pub(crate) fn run(ctx: &Context, args: &ImportArgs) -> Result<ExitStatus, CommandError> {
    super::targets::one_database(ctx)?;
    let options = ctx.options(None)?;
    let name = urldb_core::source::display_path(&args.file);
    let bytes = if args.file.as_os_str() == "-" {
        super::stdin::read_stdin()
    } else {
        urldb_store::read_limited(&args.file, u64::MAX, None).map_err(|source| {
            CommandError::Input {
                path: args.file.clone(),
                source,
            }
        })
    };
    let bytes = bytes?;

    let (incoming, mut problems) = read_incoming(args, &bytes)?;

    let index = HostIndex::build(&ctx.members);
    let mut per_file: BTreeMap<PathBuf, (Domain, Vec<Incoming>)> = BTreeMap::new();
    for mut item in incoming {
        let domain = match index.domain_for(&ctx.root, &item.url, args.create_domain) {
            Ok(d) => d,
            Err(e) => {
                problems.push(LineProblem {
                    line: item.line,
                    message: format!("record skipped: {e}"),
                    skipped: true,
                });
                continue;
            }
        };
        item.record.path = domain.path_for(&item.url);
        per_file
            .entry(domain.file.clone())
            .or_insert_with(|| (domain, Vec::new()))
            .1
            .push(item);
    }

    let mut status = ExitStatus::Success;
    let mut added = 0;
    for (domain, items) in per_file.values() {
        let records: Vec<NewRecord> = items.iter().map(|i| i.record.clone()).collect();
        let Some(result) = super::by_url::add_to_file(
            ctx,
            domain,
            &records,
            args.create_domain,
            &options,
            &mut status,
        ) else {
            continue;
        };
        let file = urldb_core::source::display_path(&result.file);
        for (item, change) in items.iter().zip(&result.changes) {
            match change {
                Change::Added => added += 1,
                Change::Exists { existing, .. } => problems.push(LineProblem {
                    line: item.line,
                    message: format!("already in {file} as `{existing}`; left as it is"),
                    skipped: false,
                }),
                Change::Invalid { code, message } => problems.push(LineProblem {
                    line: item.line,
                    message: format!("record skipped: {message} [{code}]"),
                    skipped: true,
                }),
                _ => {}
            }
        }
    }
    let skipped = print_problems(&mut problems, &name, added, ctx.quiet);
    if skipped > 0 {
        status = status.worse(ExitStatus::Failure);
    }
    Ok(status)
}

/// The records a catalogue or URL list holds, and the lines that give none
/// (skipped, with why).
fn read_incoming(
    args: &ImportArgs,
    bytes: &[u8],
) -> Result<(Vec<Incoming>, Vec<LineProblem>), CommandError> {
    let mut problems: Vec<LineProblem> = Vec::new();
    let mut incoming: Vec<Incoming> = Vec::new();
    let missing_type = |line: usize| LineProblem {
        line,
        message: "record skipped: no content type (`TYPE`); give one with --content-type"
            .to_string(),
        skipped: true,
    };
    match args.from {
        ImportFormat::UriCatalogue => {
            let (entries, found) = urldb_store::interchange::read_catalogue(bytes);
            problems.extend(found);
            for entry in entries {
                let Some(content_type) = entry.content_type.or(args.content_type.clone()) else {
                    problems.push(missing_type(entry.line));
                    continue;
                };
                incoming.push(Incoming {
                    line: entry.line,
                    record: NewRecord {
                        path: entry.url.path_and_query.clone(),
                        content_type,
                        categories: entry.categories,
                        digest: entry.digest,
                        extras: entry.extras,
                    },
                    url: entry.url,
                });
            }
        }
        ImportFormat::Urls => {
            let Ok(text) = std::str::from_utf8(bytes) else {
                return Err(CommandError::NotText(args.file.clone()));
            };
            let (urls, found) = urldb_store::interchange::read_urls(text);
            problems.extend(found);
            for (line, url) in urls {
                let Some(content_type) = args.content_type.clone() else {
                    problems.push(LineProblem {
                        line,
                        message: "skipped: a URL list has no content types; give one with \
                                  --content-type, or use `urldb add` to ask the server"
                            .to_string(),
                        skipped: true,
                    });
                    continue;
                };
                incoming.push(Incoming {
                    line,
                    record: NewRecord {
                        path: url.path_and_query.clone(),
                        content_type,
                        categories: Vec::new(),
                        digest: None,
                        extras: Vec::new(),
                    },
                    url,
                });
            }
        }
    }

    Ok((incoming, problems))
}

/// Print each line's problem (escaped: it may quote the imported file) and
/// the summary; the number of records skipped.
fn print_problems(problems: &mut [LineProblem], name: &str, added: usize, quiet: bool) -> usize {
    problems.sort_by_key(|p| p.line);
    let mut skipped = 0;
    for p in problems.iter() {
        let kind = if p.skipped { "error" } else { "warning" };
        skipped += usize::from(p.skipped);
        urldb_output::say!(
            "{kind}: {}:{}: {}",
            urldb_core::text::escape(name),
            p.line,
            urldb_core::text::escape(&p.message)
        );
    }
    if !quiet {
        urldb_output::say!("imported {added} records; {skipped} skipped");
    }
    skipped
}

/// What `urldb import --from` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ImportFormat {
    UriCatalogue,
    Urls,
}
