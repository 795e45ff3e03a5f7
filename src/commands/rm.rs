//! `urldb rm`: remove the records of URLs (one write per file).

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::Args;

use crate::app::{CommandError, Context, ExitStatus};
use urldb_store::{Change, Domain, HostIndex};

#[derive(Debug, Args)]
pub(crate) struct RmArgs {
    /// URLs whose records to remove.
    #[arg(required = true, value_name = "URL")]
    pub urls: Vec<String>,
    #[command(flatten)]
    pub shared: crate::app::DbOutputArgs,
}

pub(crate) fn run(ctx: &Context, args: &RmArgs) -> Result<ExitStatus, CommandError> {
    super::targets::one_database(ctx)?;
    let options = ctx.options(None)?;
    let index = HostIndex::build(&ctx.members);
    let mut status = ExitStatus::Success;
    let mut per_file: BTreeMap<PathBuf, (Domain, Vec<(String, String)>)> = BTreeMap::new();
    for input in &args.urls {
        let Some(url) = super::by_url::canonical(input, &mut status) else {
            continue;
        };
        let domain = match index.lookup(&url.host) {
            Ok(d) => d.clone(),
            Err(e) => {
                super::by_url::unplaced(input, &e, &mut status);
                continue;
            }
        };
        let path = domain.path_for(&url);
        per_file
            .entry(domain.file.clone())
            .or_insert_with(|| (domain, Vec::new()))
            .1
            .push((input.clone(), path));
    }
    for (domain, items) in per_file.values() {
        let paths: Vec<String> = items.iter().map(|(_, p)| p.clone()).collect();
        let result = match urldb_store::remove_paths(
            &ctx.root,
            domain,
            &paths,
            &options,
            &super::notes::write_note,
        ) {
            Ok(r) => r,
            Err(e) => {
                urldb_output::say!("error: {}", urldb_core::text::escape(&e.to_string()));
                status = status.worse(ExitStatus::Error);
                continue;
            }
        };
        let file = urldb_core::source::shown_path(&result.file);
        let escape = |s: &str| urldb_core::text::escape(s).into_owned();
        for ((input, path), change) in items.iter().zip(&result.changes) {
            match change {
                // The record removed, by its stored `_path`; and the URL
                // as given when it was spelt otherwise.
                Change::Removed { stored } if !ctx.quiet && stored == path => {
                    urldb_output::say!("removed {} from {file}", escape(stored));
                }
                Change::Removed { stored } if !ctx.quiet => urldb_output::say!(
                    "removed {} from {file} (given as {})",
                    escape(stored),
                    escape(input)
                ),
                Change::NotFound => {
                    urldb_output::say!(
                        "error: {}: no record `{}` in {file}",
                        escape(input),
                        escape(path)
                    );
                    status = status.worse(ExitStatus::Failure);
                }
                _ => {}
            }
        }
    }
    Ok(status)
}
