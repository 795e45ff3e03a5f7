//! `urldb moved RESULTS.json`: the change the database keeps for each URL
//! that `verify --follow-moves` found moved (`docs/verify.md`, "When a URL
//! breaks"): the old record becomes a redirect record, as `add` writes
//! one, and the target is added with the old record's other keys. Shown,
//! or with `--write` made, through `add`'s locking and canonical writing.

use std::path::PathBuf;

use clap::Args;

use crate::app::{CommandError, Context, ExitStatus};
use urldb_core::text::escape;
use urldb_store::{Change, Domain, HostIndex, NewRecord};
use urldb_verify::results::{MoveVerdict, Moved, UrlResult};

#[derive(Debug, Args)]
pub(crate) struct MovedArgs {
    /// The output of `urldb verify --follow-moves --format json` (one run, or `urldb report --format json`'s merge of shards).
    #[arg(value_name = "RESULTS")]
    pub results: PathBuf,
    /// Make the changes (without it they are only shown).
    #[arg(long)]
    pub write: bool,
    /// Also the candidates (`moved?`: the same media type, no proof); their targets get no `content-length` or `content-sha256`.
    #[arg(long)]
    pub candidates: bool,
    /// Create `HOST.yaml` for a target host that no domain file knows.
    #[arg(long)]
    pub create_domain: bool,
    #[command(flatten)]
    pub shared: crate::app::DbOutputArgs,
}

/// Why one move cannot be made: said for that move, and the others go on.
#[derive(Debug, thiserror::Error)]
enum MoveError {
    #[error("{from}: {source}")]
    Url {
        from: String,
        source: urldb_core::url::UrlError,
    },
    #[error("{from}: {source}")]
    Lookup {
        from: String,
        source: urldb_store::LookupError,
    },
    #[error("{from}: {source}")]
    Edit {
        from: String,
        source: urldb_store::EditError,
    },
    #[error("{from}: no record `{path}` in {file} any more; verify again")]
    Gone {
        from: String,
        path: String,
        file: String,
    },
    #[error("{from}: the results name no target")]
    NoTarget { from: String },
    #[error("{from}: its target {target} is not added: {message} [{code}]")]
    Invalid {
        from: String,
        target: String,
        code: &'static str,
        message: String,
    },
}

/// One move, ready to be shown or made.
struct Planned<'a> {
    moved: &'a Moved,
    old_domain: Domain,
    old: NewRecord,
    target_domain: Domain,
    new: NewRecord,
}

pub(crate) fn run(ctx: &Context, args: &MovedArgs) -> Result<ExitStatus, CommandError> {
    super::targets::one_database(ctx)?;
    let results = super::report::read(&args.results)?;
    let options = ctx.options(None)?;
    let index = HostIndex::build(&ctx.members);
    let wanted = |m: &Moved| match m.verdict {
        MoveVerdict::Moved => true,
        MoveVerdict::Candidate => args.candidates,
        MoveVerdict::NotMoved => false,
    };
    let moves: Vec<(&UrlResult, &Moved)> = results
        .results
        .iter()
        .filter_map(|r| r.moved.as_ref().filter(|m| wanted(m)).map(|m| (r, m)))
        .collect();
    if moves.is_empty() {
        if !ctx.quiet {
            urldb_output::say!(
                "note: {} has no {}; `urldb verify --follow-moves --format json` finds them",
                urldb_core::source::shown_path(&args.results),
                if args.candidates {
                    "move or candidate"
                } else {
                    "proven move (`--candidates` adds the others)"
                }
            );
        }
        return Ok(ExitStatus::Success);
    }
    let mut status = ExitStatus::Success;
    let mut out = urldb_output::gate::stdout(urldb_output::gate::Syntax::Text);
    let mut made = 0;
    // One record met twice (its http and https URLs) moves once.
    let mut seen = std::collections::HashSet::new();
    for (result, moved) in moves {
        let host = url::Url::parse(&moved.from)
            .ok()
            .and_then(|u| u.host_str().map(str::to_string));
        if !seen.insert((host, result.file.clone(), result.path.clone())) {
            continue;
        }
        let planned = match plan(ctx, &index, result, moved, args.create_domain, &options) {
            Ok(Some(p)) => p,
            Ok(None) => {
                if !ctx.quiet {
                    urldb_output::say!(
                        "note: {}: its record is a redirect already; left as it is",
                        escape(&moved.from)
                    );
                }
                continue;
            }
            Err(e) => {
                urldb_output::say!("error: {}", escape(&e.to_string()));
                status = status.worse(ExitStatus::Failure);
                continue;
            }
        };
        show(&mut out, &planned)?;
        if args.write {
            match write(ctx, &planned, args.create_domain, &options) {
                Ok(()) => made += 1,
                Err(e) => {
                    urldb_output::say!("error: {}", escape(&e.to_string()));
                    status = status.worse(ExitStatus::Failure);
                }
            }
        }
    }
    out.finish()?;
    if !ctx.quiet {
        if args.write {
            urldb_output::say!("{made} move{} written", if made == 1 { "" } else { "s" });
        } else {
            urldb_output::say!("note: nothing written; `--write` makes these changes");
        }
    }
    Ok(status)
}

/// What one move changes, read from the database as it is now; `None`
/// when the old record is a redirect record already (the move was made).
fn plan<'a>(
    ctx: &Context,
    index: &HostIndex,
    result: &UrlResult,
    moved: &'a Moved,
    create_domain: bool,
    options: &urldb_core::lint::Options,
) -> Result<Option<Planned<'a>>, MoveError> {
    let from = moved.from.clone();
    let target = moved
        .target
        .as_deref()
        .ok_or_else(|| MoveError::NoTarget { from: from.clone() })?;
    let url_error = |source| MoveError::Url {
        from: from.clone(),
        source,
    };
    let lookup = |source| MoveError::Lookup {
        from: from.clone(),
        source,
    };
    let old_url = urldb_core::url::canonicalize_given(&moved.from).map_err(url_error)?;
    let old_domain = index.lookup(&old_url.host).map_err(lookup)?.clone();
    let old = urldb_store::read_record(&ctx.root, &old_domain, &result.path, options)
        .map_err(|source| MoveError::Edit {
            from: from.clone(),
            source,
        })?
        .ok_or_else(|| MoveError::Gone {
            from: from.clone(),
            path: result.path.clone(),
            file: urldb_core::source::display_path(&old_domain.file),
        })?;
    // Results older than the database: the move was made already.
    if urldb_verify::plan::redirect_marker(&old.content_type).is_some() {
        return Ok(None);
    }
    let target_url = urldb_core::url::canonicalize_given(target).map_err(url_error)?;
    let target_domain = index
        .domain_for(&ctx.root, &target_url, create_domain)
        .map_err(lookup)?;
    let new = NewRecord {
        path: target_domain.path_for(&target_url),
        // Only a proof carries the bytes' length and digest along.
        digest: match moved.verdict {
            MoveVerdict::Moved => old.digest.clone(),
            MoveVerdict::Candidate | MoveVerdict::NotMoved => None,
        },
        ..old.clone()
    };
    Ok(Some(Planned {
        moved,
        old_domain,
        old,
        target_domain,
        new,
    }))
}

/// The two lines of a move: the old record's change, the new record.
fn show(out: &mut dyn std::io::Write, p: &Planned<'_>) -> std::io::Result<()> {
    let removed = if p.old.digest.is_some() {
        ", without content-length and content-sha256"
    } else {
        ""
    };
    writeln!(
        out,
        "{}: {}: content-type: X-{}-Redirect{removed}",
        urldb_core::source::shown_path(&p.old_domain.file),
        escape(&p.old.path),
        p.moved.status
    )?;
    writeln!(
        out,
        "{}: + {} ({}), {} from {}",
        urldb_core::source::shown_path(&p.target_domain.file),
        escape(&p.new.path),
        escape(&p.new.content_type),
        match p.moved.verdict {
            MoveVerdict::Moved => "moved with proof",
            MoveVerdict::Candidate | MoveVerdict::NotMoved => "a candidate",
        },
        escape(&p.moved.from)
    )
}

/// Add the target, then make the old record a redirect: a target that
/// cannot be added leaves the old record as it was.
fn write(
    ctx: &Context,
    p: &Planned<'_>,
    create_domain: bool,
    options: &urldb_core::lint::Options,
) -> Result<(), MoveError> {
    let edit = |source| MoveError::Edit {
        from: p.moved.from.clone(),
        source,
    };
    let added = urldb_store::add_records(
        &ctx.root,
        &p.target_domain,
        std::slice::from_ref(&p.new),
        create_domain,
        options,
        &super::notes::write_note,
    )
    .map_err(edit)?;
    if let Some(Change::Invalid { code, message }) = added.changes.first() {
        return Err(MoveError::Invalid {
            from: p.moved.from.clone(),
            target: p.moved.target.clone().unwrap_or_default(),
            code,
            message: message.clone(),
        });
    }
    let redirected = urldb_store::redirect_paths(
        &ctx.root,
        &p.old_domain,
        &[(p.old.path.clone(), p.moved.status)],
        options,
        &super::notes::write_note,
    )
    .map_err(edit)?;
    match redirected.changes.first() {
        Some(Change::Redirected { .. }) => Ok(()),
        _ => Err(MoveError::Gone {
            from: p.moved.from.clone(),
            path: p.old.path.clone(),
            file: urldb_core::source::display_path(&p.old_domain.file),
        }),
    }
}
