//! `urldb check`: lint, and with `--fix` repair.

use std::io::Write;

use std::path::PathBuf;

use clap::Args;

use super::shared_args::GitArgs;
use crate::app::{CommandError, Context, ExitStatus, SelectArgs};
use crate::output::{self, Counts};
use urldb_store::database::{self, FileError, FileProblem, Mode, RunOutcome};

#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    /// Files or directories to check (default: the database that governs the working directory, whole, and every database below it); `-`
    /// reads standard input, named by --stdin-filename.
    pub paths: Vec<PathBuf>,
    /// Apply safe fixes; the result is canonical text.
    #[arg(long, conflicts_with = "diff")]
    pub fix: bool,
    /// Show what `--fix` would change, as a unified diff; write nothing.
    #[arg(long)]
    pub diff: bool,
    /// Write a `# urldb: ignore[...]` suppression for every finding that
    /// `--fix` cannot repair (ruff's `--add-noqa`); then report what is left.
    #[arg(long, conflicts_with_all = ["fix", "diff", "stdin_filename", "no_suppressions"])]
    pub add_suppressions: bool,
    /// Honour no suppression: no `# urldb: ignore[...]` comment and no
    /// `[lint.per-file-ignores]` (for whoever owns the gate; `[lint]`
    /// selection still applies).
    #[arg(
        long,
        env = "URLDB_NO_SUPPRESSIONS",
        value_parser = switch
    )]
    pub no_suppressions: bool,
    /// Output format.
    #[arg(long, value_enum, env = "URLDB_FORMAT", default_value_t = crate::output::Format::Full)]
    pub format: crate::output::Format,
    #[command(flatten)]
    pub select: SelectArgs,
    /// Count findings per rule: the table instead of the findings.
    #[arg(long)]
    pub statistics: bool,
    /// With --statistics: the findings too, before the table.
    #[arg(long, requires = "statistics")]
    pub show_findings: bool,
    /// Exit 0 even when there are findings.
    #[arg(long)]
    pub exit_zero: bool,
    /// Read the file from stdin (also written `-`), as if it were NAME.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["staged", "since", "shard"])]
    pub stdin_filename: Option<PathBuf>,
    #[command(flatten)]
    pub git: GitArgs,
    /// Check only shard K of N (1-based): a deterministic split of the files for CI matrices.
    #[arg(long, value_name = "K/N", value_parser = super::shared_args::parse_shard)]
    pub shard: Option<(usize, usize)>,
    /// List the files a run would take, each with whether it is in the
    /// database and why not; check nothing.
    #[arg(long, conflicts_with_all = [
        "fix", "diff", "add_suppressions", "stdin_filename", "staged", "since", "shard",
        "statistics",
    ])]
    pub show_files: bool,
    #[command(flatten)]
    pub shared: crate::app::FilesArgs,
}

pub(crate) fn run(ctx: &Context, args: &CheckArgs) -> Result<ExitStatus, CommandError> {
    super::stdin::stdin_dash(&args.paths, args.stdin_filename.as_deref())?;
    if args.show_files {
        return show_files(ctx, &args.paths);
    }
    let adjust = |options: &mut urldb_core::lint::Options| {
        if args.no_suppressions {
            // Neither the comments in the data nor the table in urldb.toml
            // excuses anything (`docs/suppressions.md`, "The owner's switch").
            options.no_suppressions = true;
            options.per_file_ignores.entries.clear();
        }
    };
    let mode = if args.fix || args.diff {
        Mode::Fix
    } else {
        Mode::Check
    };
    if args.add_suppressions {
        add_suppressions(ctx, args)?;
    }
    let mut run: Option<super::run::Run> = None;
    let mut outcome = if let Some(name) = &args.stdin_filename {
        let raw = super::stdin::read_stdin()?;
        let (database, member) = super::stdin::stdin_database(ctx, name)?;
        let mut options = ctx.options_of(database, Some(&args.select))?;
        adjust(&mut options);
        if let Err(skip) = member {
            // Not a domain file: nothing to say about it, and with `--fix`
            // its text back unchanged, for the editor that sent it.
            super::notes::note_skipped(ctx, &[(name.clone(), skip)]);
            if args.fix {
                let mut out = urldb_output::gate::stdout(urldb_output::gate::Syntax::Text);
                out.exact(&raw)?;
                out.finish()?;
            }
            return Ok(ExitStatus::Success);
        }
        let mut outcome = RunOutcome {
            checked: 1,
            ..RunOutcome::default()
        };
        if let Some(result) = database::process(name, &raw, &options, mode) {
            outcome.files.push(result);
        }
        outcome
    } else {
        let mut selected = super::run::Run::select(ctx, &args.paths, &args.git, args.diff)?;
        if let Some((k, n)) = args.shard {
            super::shared_args::shard(ctx, &mut selected.parts, k, n);
        }
        let outcome = selected.run(ctx, Some(&args.select), adjust, mode, true)?;
        ctx.say_cached(&outcome);
        run = Some(selected);
        outcome
    };

    let mut out = urldb_output::gate::stdout(match args.format {
        output::Format::Json | output::Format::Sarif => urldb_output::gate::Syntax::Json,
        output::Format::Junit => urldb_output::gate::Syntax::Xml,
        output::Format::Full | output::Format::Concise | output::Format::Github => {
            urldb_output::gate::Syntax::Text
        }
    });
    let mut changed = 0;
    if args.diff {
        for file in &outcome.files {
            if let Some(new) = &file.new_text {
                out.write_all(super::run::diff_of(run.as_ref(), file, new).as_bytes())?;
                changed += 1;
            }
        }
        out.finish()?;
        super::notes::print_errors(&outcome.errors);
        return Ok(status(changed > 0, &outcome.errors, args.exit_zero));
    }
    let mut fixed = 0;
    // Files that could not be read; those after them, not written.
    let unread = outcome.errors.len();
    if args.fix {
        let mut write_errors = Vec::new();
        for file in &mut outcome.files {
            let Some(new) = file.new_text.take() else {
                fixed += file.fixed;
                continue;
            };
            let Some(run) = &run else {
                // --stdin-filename: the fixed text goes to stdout, exactly,
                // for the editor that sent it (docs/security.md).
                fixed += file.fixed;
                out.exact(new.as_bytes())?;
                continue;
            };
            let expected = file.read.take().unwrap_or_default();
            // A fix counts once it is written: a file left as it was
            // (unstaged changes with `--staged`, a failed write) is an
            // error, not a fixed finding.
            match run.write(&file.path, &expected, &new) {
                Ok(()) => fixed += file.fixed,
                Err(super::not_written::NotWritten::UnstagedChanges) => {
                    write_errors.push(FileError {
                        path: file.path.clone(),
                        problem: FileProblem::write(NotFixedUnstaged),
                    })
                }
                Err(not_written) => write_errors.push(FileError {
                    path: file.path.clone(),
                    problem: FileProblem::write(not_written),
                }),
            }
        }
        outcome.errors.extend(write_errors);
    }
    let counts = Counts::of(&outcome.files);
    let result = (|| -> std::io::Result<()> {
        // As ruff: `--statistics` is the table alone.
        if !args.statistics || args.show_findings {
            output::write(&mut out, args.format, &outcome.files, ctx.color)?;
        }
        if args.statistics {
            output::statistics(&mut out, &outcome.files)?;
        }
        // The errors come before the summary that points to them, as a
        // reader of a terminal meets both streams in one.
        out.flush()?;
        super::notes::print_errors(&outcome.errors);
        if args.format == output::Format::Full && !ctx.quiet {
            let unwritten = outcome.errors.len() - unread;
            // With --staged, the fix that writes the index and the work
            // tree together.
            let fix_command = if args.git.staged {
                "urldb check --fix --staged"
            } else {
                "urldb check --fix"
            };
            output::summary(&mut out, counts, fixed, unread, unwritten, fix_command)?;
        }
        // How many findings suppressions excused (SARIF lists them).
        if !ctx.quiet {
            match args.format {
                output::Format::Concise => output::concise::excused(&mut out, counts.excused)?,
                output::Format::Github => output::github::excused(&mut out, counts.excused)?,
                _ => {}
            }
        }
        out.finish()
    })();
    result?;
    Ok(status(counts.total() > 0, &outcome.errors, args.exit_zero))
}

/// `--add-suppressions`: check, then write into every file with findings
/// that `--fix` cannot repair a suppression for each (through the renderer,
/// by the same lock, re-check and rename as every write).
fn add_suppressions(ctx: &Context, args: &CheckArgs) -> Result<(), CommandError> {
    let mut selected = super::run::Run::select(ctx, &args.paths, &args.git, false)?;
    if let Some((k, n)) = args.shard {
        for part in &mut selected.parts {
            database::shard(&mut part.targets, k, n);
        }
    }
    let (mut files, mut findings, mut gate) = (0, 0, 0);
    let mut errors = Vec::new();
    for part in &selected.parts {
        let options = ctx.options_of(part.database, Some(&args.select))?;
        let outcome = database::run(&part.targets, &options, Mode::Check, None);
        // Gate findings are never excused: no suppression is written for one.
        gate += outcome
            .files
            .iter()
            .flat_map(|f| &f.checked.findings)
            .filter(|f| f.gate)
            .count();
        for file in &outcome.files {
            if file.checked.findings.iter().all(|f| f.fixable() || f.gate) {
                continue;
            }
            let raw = match part
                .targets
                .snapshot
                .read(&file.path, options.settings.max_file_size)
            {
                Ok(raw) => raw,
                Err(e) => {
                    errors.push(FileError {
                        path: file.path.clone(),
                        problem: FileProblem::Read(std::sync::Arc::new(e)),
                    });
                    continue;
                }
            };
            // The file's cross-file findings were found over the whole
            // database: they are passed in, the rest is found again.
            let cross_file: Vec<_> = file
                .checked
                .findings
                .iter()
                .filter(|f| matches!(f.rule.check, urldb_core::rules::Check::Database(_)))
                .cloned()
                .collect();
            let added = urldb_core::lint::add_suppressions(&file.path, &raw, &options, &cross_file);
            let Some(new) = added.text else { continue };
            match selected.write(&file.path, &raw, &new) {
                Ok(()) => {
                    files += 1;
                    findings += added.suppressed;
                }
                Err(not_written) => errors.push(FileError {
                    path: file.path.clone(),
                    problem: FileProblem::write(not_written),
                }),
            }
        }
    }
    if !ctx.quiet {
        urldb_output::say!(
            "Added suppressions for {findings} finding{} in {files} file{}.",
            if findings == 1 { "" } else { "s" },
            if files == 1 { "" } else { "s" }
        );
        if gate > 0 {
            urldb_output::say!(
                "{gate} gate finding{} cannot be suppressed: fix {} (see `urldb rule CODE`).",
                if gate == 1 { "" } else { "s" },
                if gate == 1 { "it" } else { "them" }
            );
        }
    }
    super::notes::print_errors(&errors);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(CommandError::SuppressionsNotWritten)
    }
}

/// A boolean switch as a CI system sets it: `true`/`false`, `1`/`0`,
/// `yes`/`no`, `on`/`off` (any case); empty is false (an unset input).
fn switch(text: &str) -> Result<bool, NotASwitch> {
    match text.trim().to_ascii_lowercase().as_str() {
        "" | "false" | "0" | "no" | "off" | "n" | "f" => Ok(false),
        "true" | "1" | "yes" | "on" | "y" | "t" => Ok(true),
        _ => Err(NotASwitch),
    }
}

/// A value [`switch`] does not read (clap names the option and the value).
#[derive(Debug, thiserror::Error)]
#[error("expected true or false (or 1/0, yes/no, on/off)")]
struct NotASwitch;

/// `check --fix --staged` left a file unfixed: the work tree has unstaged
/// changes to it ([`super::not_written::NotWritten::UNSTAGED_FIX`]).
#[derive(Debug, thiserror::Error)]
#[error("{}", super::not_written::NotWritten::UNSTAGED_FIX)]
struct NotFixedUnstaged;

fn status(found: bool, errors: &[FileError], exit_zero: bool) -> ExitStatus {
    if !errors.is_empty() {
        ExitStatus::Error
    } else if found && !exit_zero {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    }
}

/// `--show-files` lines: each file and whether it is in its database;
/// `of`: the configuration of that database when it is not the one the
/// run is in.
fn write_judged<W: Write>(
    out: &mut urldb_output::gate::Gate<W>,
    files: &[(PathBuf, Result<(), urldb_store::membership::Skip>)],
    of: Option<&std::path::Path>,
) -> std::io::Result<()> {
    use urldb_core::source::shown_path;
    use urldb_core::text::escape;
    for (path, verdict) in files {
        match (verdict, of) {
            (Ok(()), None) => writeln!(out, "{}: in the database", shown_path(path))?,
            (Ok(()), Some(config)) => writeln!(
                out,
                "{}: in the database of {}",
                shown_path(path),
                shown_path(config)
            )?,
            (Err(skip), _) => writeln!(
                out,
                "{}: not in the database ({})",
                shown_path(path),
                escape(&skip.to_string())
            )?,
        }
    }
    Ok(())
}

/// `--show-files`: each file a run over `paths` would look at, and whether
/// it is in the database (`docs/files.md`), as ruff's `--show-files`; how
/// the database root was chosen goes to stderr.
fn show_files(ctx: &Context, paths: &[PathBuf]) -> Result<ExitStatus, CommandError> {
    use urldb_core::source::shown_path;
    use urldb_core::text::escape;
    use urldb_store::Origin;
    if !ctx.quiet {
        let root = escape(&urldb_store::membership::shown_dir(&ctx.root)).into_owned();
        let how = match &ctx.origin {
            Origin::Given => "`--db`".to_string(),
            Origin::Configured(config) => format!("from {}", shown_path(config)),
            Origin::Found => "no urldb.toml: the one folder with domain files".to_string(),
            Origin::Here => {
                "no urldb.toml, and no domain file below: the current directory".to_string()
            }
        };
        urldb_output::say!("note: the database is `{root}` ({how})");
    }
    let mut out = urldb_output::gate::stdout(urldb_output::gate::Syntax::Text);
    let mut errors = Vec::new();
    if paths.is_empty() {
        let judged = urldb_store::judge_files(&ctx.members, paths, false);
        write_judged(&mut out, &judged.files, None)?;
        errors.extend(judged.errors);
    }
    // Each named path judged in the database that governs it; a folder met
    // below a named one with a configuration of its own, in that one.
    let mut queue: Vec<PathBuf> = paths.iter().rev().cloned().collect();
    while let Some(p) = queue.pop() {
        let route = ctx
            .databases
            .borrow_mut()
            .route(&p)
            .map_err(|e| ctx.settings_error(e))?;
        let (i, judged) = match route {
            urldb_store::Route::To(i) => {
                let members = ctx.database(i).0.members;
                let routing = !ctx.config_given && ctx.origin != Origin::Given;
                (i, urldb_store::judge_files(&members, &[p], routing))
            }
            urldb_store::Route::Governed(config) => {
                let skip = urldb_store::membership::Skip::Governed { config };
                write_judged(&mut out, &[(p, Err(skip))], None)?;
                continue;
            }
        };
        let of = (i != 0)
            .then(|| ctx.database(i).0.settings.config_path)
            .flatten();
        write_judged(&mut out, &judged.files, of.as_deref())?;
        errors.extend(judged.errors);
        queue.extend(judged.governed.into_iter().rev().map(|(dir, _)| dir));
    }
    out.finish()?;
    let errors: Vec<FileError> = errors.into_iter().map(FileError::from).collect();
    super::notes::print_errors(&errors);
    Ok(if errors.is_empty() {
        ExitStatus::Success
    } else {
        ExitStatus::Error
    })
}
