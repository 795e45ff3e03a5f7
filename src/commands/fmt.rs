//! `urldb fmt`: rewrite files as canonical text (layout only).

use std::io::Write;

use std::path::PathBuf;

use clap::Args;

use super::shared_args::GitArgs;
use crate::app::{CommandError, Context, ExitStatus};
use urldb_store::database::{self, Mode, RunOutcome};

#[derive(Debug, Args)]
pub(crate) struct FmtArgs {
    /// Files or directories to format (default: the database that governs the working directory, whole, and every database below it); `-`
    /// reads standard input, named by --stdin-filename.
    pub paths: Vec<PathBuf>,
    /// List files that would change and exit 1; write nothing.
    #[arg(long, conflicts_with = "diff")]
    pub check: bool,
    /// Show the changes as a unified diff (`git apply` accepts it); write nothing.
    #[arg(long)]
    pub diff: bool,
    /// Read the file from stdin (also written `-`) as NAME and write its canonical text to stdout.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["staged", "since"])]
    pub stdin_filename: Option<PathBuf>,
    #[command(flatten)]
    pub git: GitArgs,
    /// Write the canonical text without the files' comments.
    #[arg(long)]
    pub drop_comments: bool,
    /// Output format of the files to reformat: `full` and `concise` list
    /// them, `github` annotates each (GitHub Actions) [default: `URLDB_FORMAT`, else full].
    #[arg(long, value_enum)]
    pub format: Option<FmtFormat>,
    #[command(flatten)]
    pub shared: crate::app::FilesArgs,
}

/// What `fmt` prints for a file it would reformat or cannot format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum FmtFormat {
    /// `Would reformat: PATH`, one line a file.
    Full,
    /// The same as `full`.
    Concise,
    /// A GitHub Actions annotation (`::error file=PATH`) a file.
    Github,
}

/// `--format`, else `URLDB_FORMAT` (which the Action sets for every
/// command): `fmt` takes every value `check` does, and prints `check`'s
/// machine formats (`json`, `junit`, `sarif`) as `full`, since its output
/// is a list of files (`docs/output.md`, "fmt's formats").
fn format(args: &FmtArgs) -> Result<FmtFormat, CommandError> {
    use clap::ValueEnum;
    super::shared_args::format_or_variable(args.format, FmtFormat::Full, |value| {
        Some(match crate::output::Format::from_str(value, false).ok()? {
            crate::output::Format::Github => FmtFormat::Github,
            crate::output::Format::Concise => FmtFormat::Concise,
            _ => FmtFormat::Full,
        })
    })
}

pub(crate) fn run(ctx: &Context, args: &FmtArgs) -> Result<ExitStatus, CommandError> {
    let github = format(args)? == FmtFormat::Github;
    super::stdin::stdin_dash(&args.paths, args.stdin_filename.as_deref())?;
    let adjust = |options: &mut urldb_core::lint::Options| {
        options.drop_comments = args.drop_comments;
    };
    let mut out = urldb_output::gate::stdout(urldb_output::gate::Syntax::Text);

    if let Some(name) = &args.stdin_filename {
        let raw = super::stdin::read_stdin()?;
        let (database, member) = super::stdin::stdin_database(ctx, name)?;
        let mut options = ctx.options_of(database, None)?;
        adjust(&mut options);
        if let Err(skip) = member {
            // Not a domain file: its text back unchanged, for the editor
            // that sent it.
            super::notes::note_skipped(ctx, &[(name.clone(), skip)]);
            out.exact(&raw)?;
            out.finish()?;
            return Ok(ExitStatus::Success);
        }
        let checked = urldb_core::lint::check_bytes(name, &raw, &options);
        return match &checked.canonical {
            // The file's own text, for the editor that sent it: written
            // exactly (docs/security.md, "The output gate").
            Some(text) => {
                out.exact(text.as_bytes())?;
                out.finish()?;
                Ok(ExitStatus::Success)
            }
            None => {
                out.exact(&raw)?;
                out.finish()?;
                report_blocked(&checked, name);
                Ok(ExitStatus::Failure)
            }
        };
    }

    let run = super::run::Run::select(ctx, &args.paths, &args.git, args.diff)?;
    let mode = if args.check && !args.diff {
        Mode::FormatCheck
    } else {
        Mode::Format
    };
    let mut outcome: RunOutcome = run.run(ctx, None, adjust, mode, true)?;
    ctx.say_cached(&outcome);
    let mut changed = 0;
    let mut blocked = 0;
    // Files whose new text could not be written (their errors come before
    // the summary): neither reformatted nor left unchanged by choice.
    let mut failed = 0;
    // A failed write to stdout does not stop the files being written: it
    // is kept, and is the run's error once they are.
    let mut output = Ok(());
    let mut keep = |written: std::io::Result<()>| {
        if let Err(e) = written
            && output.is_ok()
        {
            output = Err(e);
        }
    };
    for file in &mut outcome.files {
        if file.checked.blocked_by.is_some() {
            blocked += 1;
            if github {
                keep(annotate_blocked(&mut out, &file.checked, &file.path));
            } else {
                report_blocked(&file.checked, &file.path);
            }
            continue;
        }
        let Some(new) = file.new_text.take() else {
            continue;
        };
        changed += 1;
        let path = urldb_core::source::shown_path(&file.path);
        if github && (args.check || args.diff) {
            keep(annotate(&mut out, &file.path));
        }
        if args.diff {
            keep(out.write_all(super::run::diff_of(Some(&run), file, &new).as_bytes()));
        } else if args.check {
            if !github {
                keep(writeln!(out, "Would reformat: {path}"));
            }
        } else {
            match run.write(&file.path, file.read.as_deref().unwrap_or_default(), &new) {
                Ok(()) => {
                    if ctx.verbose {
                        keep(writeln!(out, "Reformatted: {path}"));
                    }
                }
                Err(super::not_written::NotWritten::UnstagedChanges) => {
                    changed -= 1;
                    blocked += 1;
                    urldb_output::say!(
                        "error: {path}: {}",
                        super::not_written::NotWritten::UNSTAGED
                    );
                }
                Err(not_written) => {
                    changed -= 1;
                    failed += 1;
                    outcome.errors.push(database::FileError {
                        path: file.path.clone(),
                        problem: database::FileProblem::write(not_written),
                    })
                }
            }
        }
    }
    // The errors come before the summary that points to them.
    keep(out.flush());
    super::notes::print_errors(&outcome.errors);
    if !ctx.quiet && !args.diff {
        let unchanged = outcome.checked.saturating_sub(changed + blocked + failed);
        let verb = if args.check {
            "would be reformatted"
        } else {
            "reformatted"
        };
        keep(writeln!(
            out,
            "{changed} file{} {verb}, {unchanged} file{} left unchanged{}",
            if changed == 1 { "" } else { "s" },
            if unchanged == 1 { "" } else { "s" },
            if blocked > 0 {
                format!(", {blocked} not formatted (see above)")
            } else {
                String::new()
            } + &if failed > 0 {
                format!(", {failed} not written (see above)")
            } else {
                String::new()
            }
        ));
    }
    keep(out.finish());
    output?;
    Ok(if !outcome.errors.is_empty() {
        ExitStatus::Error
    } else if blocked > 0 || ((args.check || args.diff) && changed > 0) {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    })
}

/// `--format github`: a file `fmt --check` would rewrite, as an
/// annotation on the file (escaped for the runner, `crate::output::github`),
/// named from the repository's root (`GITHUB_WORKSPACE`, else the work
/// tree's top); the command in the message is one to run from there, and
/// says so.
fn annotate<W: Write>(
    out: &mut urldb_output::gate::Gate<W>,
    path: &std::path::Path,
) -> std::io::Result<()> {
    use urldb_core::text::escape;
    use urldb_output::{github_data, github_property};
    let root = crate::output::github::annotation_root();
    let shown = root.file(path);
    out.command(&format!(
        "::error file={},title={}::{}",
        github_property(&escape(&shown)),
        github_property("urldb fmt"),
        github_data(&format!(
            "not formatted as `urldb fmt` writes it; run `urldb fmt {}`{}",
            escape(&shown),
            root.run_from()
        ))
    ))
}

/// `--format github`: why a file cannot be formatted, as an annotation on
/// the finding that blocks it.
fn annotate_blocked<W: Write>(
    out: &mut urldb_output::gate::Gate<W>,
    checked: &urldb_core::lint::Checked,
    path: &std::path::Path,
) -> std::io::Result<()> {
    use urldb_core::text::escape;
    use urldb_output::{github_data, github_property};
    let Some(rule) = checked.blocked_by else {
        return Ok(());
    };
    let shown = crate::output::github::annotation_root().file(path);
    let (place, message) = match checked.findings.iter().find(|f| f.rule.code == rule.code) {
        Some(f) => {
            let (line, col) = checked.source.line_col(f.span.start);
            (
                format!(",line={line},col={col}"),
                escape(&f.message).into_owned(),
            )
        }
        None => (String::new(), rule.summary.to_string()),
    };
    out.command(&format!(
        "::error file={}{place},title={}::{}",
        github_property(&escape(&shown)),
        github_property(&format!("urldb fmt ({})", rule.code)),
        github_data(&format!("not formatted: {message}"))
    ))
}

/// Say why a file was not formatted: the first finding that blocks it.
fn report_blocked(checked: &urldb_core::lint::Checked, path: &std::path::Path) {
    let Some(rule) = checked.blocked_by else {
        return;
    };
    let path = urldb_core::source::shown_path(path);
    let detail = checked
        .findings
        .iter()
        .find(|f| f.rule.code == rule.code)
        .map(|f| {
            let (line, col) = checked.source.line_col(f.span.start);
            format!("{line}:{col}: {}", urldb_core::text::escape(&f.message))
        })
        .unwrap_or_else(|| rule.summary.to_string());
    urldb_output::say!("error: {path}: not formatted: {} at {detail}", rule.code);
}
