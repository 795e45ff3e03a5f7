//! `urldb merge-driver` (git's merge-driver protocol) and `urldb merge`
//! (three files, for tools other than git): the merge by records of
//! `urldb_core::merge`, in the style of the `urldb.toml` that governs the
//! file, or git's line merge for what it does not take (`docs/git.md`,
//! "Merging"). Nothing is ever lost: the line merge keeps every side's
//! lines.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::app::{CommandError, Context, ExitStatus, GlobalArgs};
use urldb_core::merge::{Labels, MergeOptions, Unmergeable};

/// The largest version read (a domain file past `max-file-size` is
/// merged line by line all the same: git's merge takes any size).
const READ_LIMIT: u64 = 1 << 30;

/// How conflicts are marked: git's `%L` and `%S %X %Y`.
#[derive(Debug, clap::Args)]
pub(crate) struct MarkerArgs {
    /// The length of the conflict markers (git's %L; default 7).
    #[arg(long, value_name = "N")]
    pub marker_size: Option<String>,
    /// The names of the common ancestor, ours and theirs in conflict markers (git's %S %X %Y; a literal `%S`, `%X`, `%Y` is no name).
    #[arg(long, num_args = 3, value_names = ["BASE", "OURS", "THEIRS"])]
    pub labels: Option<Vec<String>>,
}

#[derive(Debug, clap::Args)]
pub(crate) struct MergeDriverArgs {
    /// The common ancestor's version (git's %O).
    pub base: PathBuf,
    /// Ours (git's %A): the merge is written here.
    pub ours: PathBuf,
    /// Theirs (git's %B).
    pub theirs: PathBuf,
    /// The file's path from the top of the work tree (git's %P): which urldb.toml governs it.
    pub path: PathBuf,
    #[command(flatten)]
    pub markers: MarkerArgs,
}

#[derive(Debug, clap::Args)]
pub(crate) struct MergeArgs {
    /// The common ancestor's version.
    pub base: PathBuf,
    /// Ours.
    pub ours: PathBuf,
    /// Theirs.
    pub theirs: PathBuf,
    /// Write the merge to FILE (default: standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// The file's path in the database, which decides the urldb.toml that governs it (default: OURS).
    #[arg(long, value_name = "PATH")]
    pub path: Option<PathBuf>,
    #[command(flatten)]
    pub markers: MarkerArgs,
}

impl MarkerArgs {
    fn size(&self) -> Result<usize, CommandError> {
        match self.marker_size.as_deref() {
            // Git before 2.44 leaves `%L` as it is.
            None | Some("%L") => Ok(7),
            Some(text) => text
                .parse()
                .ok()
                .filter(|n| (1..=1024).contains(n))
                .ok_or_else(|| CommandError::BadMarkerSize(text.to_string())),
        }
    }

    fn labels(&self) -> Labels {
        let mut labels = Labels::default();
        if let Some(given) = &self.labels {
            let slots = [&mut labels.base, &mut labels.ours, &mut labels.theirs];
            for (slot, (label, literal)) in
                slots.into_iter().zip(given.iter().zip(["%S", "%X", "%Y"]))
            {
                // Older git passes `%S` through: no name given.
                if label != literal && !label.is_empty() {
                    *slot = label.replace(['\n', '\r'], " ");
                }
            }
        }
        labels
    }
}

/// Where the merge goes.
enum Target<'a> {
    /// Over ours (the driver).
    Ours,
    File(&'a Path),
    Stdout,
}

pub(crate) fn driver(
    global: &GlobalArgs,
    args: &MergeDriverArgs,
) -> Result<ExitStatus, CommandError> {
    run(
        global,
        [&args.base, &args.ours, &args.theirs],
        &args.path,
        &args.markers,
        Target::Ours,
    )
}

pub(crate) fn merge(global: &GlobalArgs, args: &MergeArgs) -> Result<ExitStatus, CommandError> {
    let target = match &args.output {
        Some(file) => Target::File(file),
        None => Target::Stdout,
    };
    run(
        global,
        [&args.base, &args.ours, &args.theirs],
        args.path.as_deref().unwrap_or(&args.ours),
        &args.markers,
        target,
    )
}

fn run(
    global: &GlobalArgs,
    [base, ours, theirs]: [&PathBuf; 3],
    name: &Path,
    markers: &MarkerArgs,
    target: Target,
) -> Result<ExitStatus, CommandError> {
    let marker_size = markers.size()?;
    let labels = markers.labels();
    let read = |path: &Path| {
        urldb_store::read_limited(path, READ_LIMIT, None).map_err(|e| CommandError::Io {
            path: path.to_path_buf(),
            source: std::io::Error::other(e.to_string()),
        })
    };
    let (raw_base, raw_ours, raw_theirs) = (read(base)?, read(ours)?, read(theirs)?);
    let shown = urldb_core::source::shown_path(name);
    let by_records = match options_for(global, name) {
        Err(why) => Err(why),
        Ok(options) => {
            fn text(raw: &[u8]) -> Option<&str> {
                std::str::from_utf8(raw).ok()
            }
            match (text(&raw_base), text(&raw_ours), text(&raw_theirs)) {
                (Some(b), Some(o), Some(t)) => urldb_core::merge::merge(
                    b,
                    o,
                    t,
                    &MergeOptions {
                        style: options.settings.style,
                        empty_metadata: options.empty_metadata,
                        marker_size,
                        labels: labels.clone(),
                    },
                )
                .map_err(NotByRecords::from),
                _ => Err(NotByRecords::NotText),
            }
        }
    };
    let (text, conflicts) = match by_records {
        Ok(merged) => {
            for conflict in &merged.conflicts {
                urldb_output::say!(
                    "conflict: {shown}: {}",
                    urldb_core::text::escape(&conflict.to_string())
                );
            }
            (merged.text.into_bytes(), !merged.conflicts.is_empty())
        }
        Err(why) => {
            urldb_output::say!(
                "note: {shown}: merged line by line, as git does (git merge-file): {}",
                urldb_core::text::escape(&why.to_string())
            );
            let merged = urldb_store::line_merge(
                base,
                ours,
                theirs,
                [&labels.ours, &labels.base, &labels.theirs],
                marker_size,
            )?;
            (merged.text, merged.conflicts)
        }
    };
    match target {
        Target::Ours => {
            urldb_store::write::replace(ours, &raw_ours, &text, &super::notes::write_note)?
        }
        Target::File(file) => {
            urldb_store::write::overwrite(file, &text, &super::notes::write_note)?
        }
        Target::Stdout => {
            let mut out = urldb_output::gate::stdout(urldb_output::gate::Syntax::Text);
            out.exact(&text)?;
            out.flush()?;
            out.finish()?;
        }
    }
    Ok(if conflicts {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    })
}

/// Why three versions are merged line by line, not by records.
#[derive(Debug, thiserror::Error)]
enum NotByRecords {
    /// No database governs the path, or its configuration is broken.
    #[error("no database: {0}")]
    NoDatabase(#[source] Box<CommandError>),
    #[error("not a domain file of the database ({0})")]
    NotAMember(urldb_store::membership::Skip),
    #[error("the database's settings: {0}")]
    Settings(#[source] Box<CommandError>),
    #[error("a version is not UTF-8 text")]
    NotText,
    #[error(transparent)]
    Unmergeable(#[from] Unmergeable),
}

/// The check options of the database whose `urldb.toml` governs `name`
/// (its style), or why it is not merged by records: no database governs
/// it, or it is not one of its domain files.
fn options_for(
    global: &GlobalArgs,
    name: &Path,
) -> Result<urldb_core::lint::Options, NotByRecords> {
    let no_database = |e| NotByRecords::NoDatabase(Box::new(e));
    let ctx = Context::new(global).map_err(no_database)?;
    let (database, member) = super::stdin::stdin_database(&ctx, name).map_err(no_database)?;
    member.map_err(NotByRecords::NotAMember)?;
    ctx.options_of(database, None)
        .map_err(|e| NotByRecords::Settings(Box::new(e)))
}
