//! One module per subcommand: read the arguments, call the library, print,
//! and say which exit status the run earned.

pub(crate) mod add;
pub(crate) mod check;
pub(crate) mod completions;
pub(crate) mod diff;
pub(crate) mod export;
pub(crate) mod fmt;
pub(crate) mod import;
pub(crate) mod init;
pub(crate) mod install_hook;
pub(crate) mod ls;
pub(crate) mod merge;
pub(crate) mod moved;
pub(crate) mod records;
pub(crate) mod report;
pub(crate) mod rm;
pub(crate) mod rules;
pub(crate) mod server;
pub(crate) mod verify;

use std::io::Read;

use crate::app::{CommandError, Context, ExitStatus};
use urldb_store::database::FileError;

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
fn parse_shard(text: &str) -> Result<(usize, usize), urldb_verify::ShardError> {
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

/// The more serious of two statuses (commands that go on after a failure).
pub(crate) fn worse(a: ExitStatus, b: ExitStatus) -> ExitStatus {
    if (b as i32) > (a as i32) { b } else { a }
}

/// What a writer has to say while it works (a stale lock removed, a file
/// open in another program), printed as it happens: the store only tells.
pub(crate) fn write_note(note: &urldb_store::write::WriteNote) {
    urldb_output::say!("note: {note}");
}

/// Add `records` to `domain`'s file for `add` and `import`: the edit, or
/// `None` when the file could not be changed (said on stderr, and
/// `status` is an error).
pub(crate) fn add_to_file(
    ctx: &Context,
    domain: &urldb_store::Domain,
    records: &[urldb_store::NewRecord],
    create: bool,
    options: &urldb_core::lint::Options,
    status: &mut ExitStatus,
) -> Option<urldb_store::FileEdit> {
    match urldb_store::add_records(&ctx.root, domain, records, create, options, &write_note) {
        Ok(edit) => Some(edit),
        Err(e) => {
            urldb_output::say!("error: {}", urldb_core::text::escape(&e.to_string()));
            *status = worse(*status, ExitStatus::Error);
            None
        }
    }
}

/// Print file errors (I/O problems) to stderr, file names and messages
/// escaped ([`urldb_core::text`]).
pub(crate) fn print_errors(errors: &[FileError]) {
    for e in errors {
        urldb_output::say!(
            "error: {}: {}",
            urldb_core::source::shown_path(&e.path),
            urldb_core::text::escape(&e.message())
        );
    }
}

/// `-` among the paths means standard input, as ruff and yamllint read
/// it; urldb needs the file's name too (which rules, which line endings,
/// whether it is a domain file), so `-` comes with `--stdin-filename`,
/// which reads standard input on its own as well. `-` without a name, or
/// beside other paths, is a usage error.
pub(crate) fn stdin_dash(
    paths: &[std::path::PathBuf],
    name: Option<&std::path::Path>,
) -> Result<(), CommandError> {
    let dash = |p: &std::path::PathBuf| p.as_os_str() == "-";
    if !paths.iter().any(dash) {
        return Ok(());
    }
    if paths.len() > 1 {
        return Err(CommandError::DashBesidePaths);
    }
    match name {
        Some(_) => Ok(()),
        None => Err(CommandError::DashWithoutName),
    }
}

pub(crate) fn read_stdin() -> Result<Vec<u8>, CommandError> {
    let mut buf = Vec::new();
    std::io::stdin()
        .read_to_end(&mut buf)
        .map_err(CommandError::Stdin)?;
    Ok(buf)
}

/// The files a `check` or `fmt` run looks at, database by database, and
/// the git repository around each database when there is one.
pub(crate) struct Run {
    /// One part a database (the primary one alone, but for named paths
    /// that other configurations govern).
    pub parts: Vec<urldb_store::Part>,
    /// Each part's repository, when not already held by a staged snapshot.
    repos: Vec<Option<urldb_store::Repository>>,
    /// Each part's database root (the work tree's files are read inside it).
    roots: Vec<urldb_store::Root>,
    /// With several parts: the part of each file.
    owner: std::collections::HashMap<std::path::PathBuf, usize>,
    /// `--staged` writes: git's conversion between the work tree and the
    /// index, made once for all of them.
    conversion: std::cell::RefCell<Option<urldb_store::Conversion>>,
}

impl Run {
    /// Select the files: the work tree, the index (`--staged`), or the
    /// files changed since a revision (`--since`). `diff`: the run prints
    /// diffs, which name repository paths when there is a repository.
    pub(crate) fn select(
        ctx: &crate::app::Context,
        paths: &[std::path::PathBuf],
        git: &GitArgs,
        diff: bool,
    ) -> Result<Run, CommandError> {
        use urldb_store::Repository;
        use urldb_store::database;
        let mut parts = if git.staged {
            select(ctx, |d| d.select_staged(paths))?
        } else {
            select(ctx, |d| {
                d.select(paths).map_err(urldb_store::SelectError::Settings)
            })?
        };
        let skipped: Vec<_> = parts
            .iter_mut()
            .flat_map(|p| std::mem::take(&mut p.targets.skipped))
            .collect();
        if !git.staged && ctx.bare && paths.is_empty() {
            bare_run(ctx, &parts[0].targets);
        }
        note_skipped(ctx, &skipped);
        warn_miscased(parts.iter().flat_map(|p| &p.targets.miscased));
        // A database with no domain file is a wrong `root` or working
        // directory, not a database that passed.
        if !git.staged && paths.is_empty() {
            no_domain_file(ctx, &parts)?;
        }
        if git.staged && paths.is_empty() && parts.iter().all(|p| p.targets.checked.is_empty()) {
            note_nothing_selected(ctx, "--staged: the git index holds no domain file");
        }
        let before: usize = parts.iter().map(|p| p.targets.checked.len()).sum();
        let mut repos = Vec::new();
        let mut roots = Vec::new();
        for part in &mut parts {
            let root = ctx.database(part.database).0.settings.root;
            let repo = match (&part.targets.snapshot, &git.since) {
                (database::Snapshot::Index(_), _) => None,
                (_, Some(rev)) => {
                    let repo = Repository::discover(&root, "--since")?;
                    database::changed_since(&mut part.targets, &repo, rev)?;
                    Some(repo)
                }
                // Only for repository-relative diff paths: no repository is fine.
                (_, None) if diff => Repository::discover(&root, "--diff").ok(),
                (_, None) => None,
            };
            repos.push(repo);
            roots.push(root);
        }
        if let Some(rev) = &git.since {
            let after: usize = parts.iter().map(|p| p.targets.checked.len()).sum();
            if after == 0 && before > 0 {
                note_nothing_selected(
                    ctx,
                    &format!(
                        "--since {}: no domain file changed since that revision",
                        urldb_core::text::escape(rev)
                    ),
                );
            }
        }
        let owner = if parts.len() > 1 {
            parts
                .iter()
                .enumerate()
                .flat_map(|(i, p)| p.targets.all.iter().map(move |f| (f.clone(), i)))
                .collect()
        } else {
            Default::default()
        };
        Ok(Run {
            parts,
            repos,
            roots,
            owner,
            conversion: Default::default(),
        })
    }

    /// The part `path` is a file of.
    fn part_of(&self, path: &std::path::Path) -> usize {
        self.owner.get(path).copied().unwrap_or(0)
    }

    pub(crate) fn repo(&self) -> Option<&urldb_store::Repository> {
        let part = self.parts.first()?;
        match &part.targets.snapshot {
            urldb_store::database::Snapshot::Index(index) => Some(&index.repo),
            urldb_store::database::Snapshot::WorkTree(_) => self.repos.first()?.as_ref(),
        }
    }

    /// The path a diff names: repository-relative inside a repository (so
    /// `git apply` takes it from the top), else as shown; control
    /// characters escaped ([`urldb_core::text::escape`]).
    pub(crate) fn diff_path(&self, path: &std::path::Path) -> String {
        let path = self
            .repo()
            .and_then(|r| r.repo_path(path))
            .unwrap_or_else(|| urldb_core::source::display_path(path));
        urldb_core::text::escape(&path).into_owned()
    }

    /// Write a file's new text: to the work tree, or with `--staged` to the
    /// index *and* the work tree, but only when the work tree holds exactly
    /// the staged bytes (otherwise unstaged work would be lost).
    pub(crate) fn write(
        &self,
        path: &std::path::Path,
        read: &[u8],
        new: &str,
    ) -> Result<(), NotWritten> {
        let part = self.part_of(path);
        let (Some(targets), Some(root)) = (
            self.parts.get(part).map(|p| &p.targets),
            self.roots.get(part),
        ) else {
            return Err(NotWritten::NotStaged);
        };
        match &targets.snapshot {
            urldb_store::database::Snapshot::WorkTree(_) => Ok(urldb_store::write::replace(
                path,
                read,
                new.as_bytes(),
                &write_note,
            )?),
            urldb_store::database::Snapshot::Index(index) => {
                let Some(file) = index.files.get(path) else {
                    return Err(NotWritten::NotStaged);
                };
                // The work tree holds the staged text when git's conversion
                // of it (line endings by `core.autocrlf` or `.gitattributes`)
                // gives the staged blob, as `git status` compares them; the
                // new text goes to the work tree as git would check it out.
                // Larger than four times the blob and 64 KiB, no conversion
                // (UTF-32 as `working-tree-encoding` at most) gives it back.
                let mut conversion = self.conversion.borrow_mut();
                let conversion = match &mut *conversion {
                    Some(conversion) => conversion,
                    empty => empty.insert(index.repo.conversion()?),
                };
                let limit = (read.len() as u64).saturating_mul(4) + (64 << 10);
                let on_disk = urldb_store::database::read_file(root, path, limit)
                    .map_err(|_| NotWritten::UnstagedChanges)?;
                let holds_staged = conversion
                    .to_git(&file.repo_path, &on_disk)
                    .is_ok_and(|stored| stored == read);
                if !holds_staged {
                    return Err(NotWritten::UnstagedChanges);
                }
                let checked_out = conversion.to_worktree(&file.repo_path, new.as_bytes())?;
                urldb_store::write::replace(path, &on_disk, &checked_out, &write_note)?;
                Ok(index.repo.stage(file, new.as_bytes())?)
            }
        }
    }

    /// Run over every part, each database with its own options (the
    /// command line's selection on top of its `[lint]`) and its own cache,
    /// and the outcomes together.
    pub(crate) fn run(
        &self,
        ctx: &crate::app::Context,
        select: Option<&crate::app::SelectArgs>,
        adjust: impl Fn(&mut urldb_core::lint::Options),
        mode: urldb_store::database::Mode,
        cache: bool,
    ) -> Result<urldb_store::database::RunOutcome, CommandError> {
        let mut outcome = urldb_store::database::RunOutcome::default();
        for (part, root) in self.parts.iter().zip(&self.roots) {
            let mut options = ctx.options_of(part.database, select)?;
            adjust(&mut options);
            let cache = if cache {
                ctx.cache_at(root, &options)
            } else {
                None
            };
            outcome.absorb(urldb_store::database::run(
                &part.targets,
                &options,
                mode,
                cache,
            ));
        }
        Ok(outcome)
    }
}

/// The database of `--stdin-filename NAME`: the one whose configuration
/// governs NAME (its index, and whether NAME is one of its files).
pub(crate) fn stdin_database(
    ctx: &crate::app::Context,
    name: &std::path::Path,
) -> Result<(usize, Result<(), urldb_store::membership::Skip>), CommandError> {
    let mut databases = ctx.databases.borrow_mut();
    let before = databases.len();
    let route = databases.route(name).map_err(|e| ctx.settings_error(e))?;
    for i in before..databases.len() {
        crate::app::say_warnings(&databases.get(i).0.settings);
    }
    Ok(match route {
        urldb_store::Route::To(i) => (i, databases.get(i).0.members.of(name)),
        urldb_store::Route::Governed(config) => {
            (0, Err(urldb_store::membership::Skip::Governed { config }))
        }
    })
}

/// The parts of a selection `how` makes of the run's databases; the
/// warnings of each configuration read for it said once.
fn select<T>(
    ctx: &crate::app::Context,
    how: impl FnOnce(
        &mut urldb_store::Databases<urldb_verify::config::VerifySection>,
    ) -> Result<T, urldb_store::SelectError>,
) -> Result<T, CommandError> {
    let mut databases = ctx.databases.borrow_mut();
    let before = databases.len();
    let selected = how(&mut databases).map_err(|e| match e {
        urldb_store::SelectError::Settings(e) => ctx.settings_error(e),
        urldb_store::SelectError::Git(e) => CommandError::Git(e),
        urldb_store::SelectError::Changes(e) => CommandError::Changes(e),
    })?;
    for i in before..databases.len() {
        crate::app::say_warnings(&databases.get(i).0.settings);
    }
    Ok(selected)
}

/// What changed between `sides` (`verify --since`/`--staged`, `diff`) in
/// every database a run over `paths` covers, each database's change set
/// with its index: the same databases, by the same resolution, as a
/// `check` over `paths` (`docs/files.md`, "What a run covers").
pub(crate) fn change_sets(
    ctx: &crate::app::Context,
    paths: &[std::path::PathBuf],
    sides: &urldb_store::Sides,
    option: &'static str,
) -> Result<Vec<(usize, urldb_store::ChangeSet)>, CommandError> {
    select(ctx, |d| d.changes(paths, sides, option))
}

/// A command that works on one database (`add`, `rm`, `import`) run where
/// no configuration governs the working directory and several databases
/// lie below it: which one is the user's to say.
pub(crate) fn one_database(ctx: &crate::app::Context) -> Result<(), CommandError> {
    match ctx.databases.borrow().several_below() {
        Some(configs) => Err(CommandError::SeveralDatabases(configs)),
        None => Ok(()),
    }
}

/// The files a run takes (`paths`, or the whole database), database by
/// database, with what was left out said once: the named paths that are
/// not in a database, and on a bare run (no `urldb.toml`, no `--db`)
/// which folder was taken as the database and which YAML files are no
/// domain files.
pub(crate) fn targets(
    ctx: &crate::app::Context,
    paths: &[std::path::PathBuf],
) -> Result<Vec<urldb_store::Part>, CommandError> {
    let mut parts = select(ctx, |d| {
        d.select(paths).map_err(urldb_store::SelectError::Settings)
    })?;
    if ctx.bare && paths.is_empty() {
        bare_run(ctx, &parts[0].targets);
    }
    warn_miscased(parts.iter().flat_map(|p| &p.targets.miscased));
    if paths.is_empty() {
        no_domain_file(ctx, &parts)?;
    }
    let skipped: Vec<_> = parts
        .iter_mut()
        .flat_map(|p| std::mem::take(&mut p.targets.skipped))
        .collect();
    note_skipped(ctx, &skipped);
    Ok(parts)
}

/// Files whose extension is `.yaml` in another case (`.YAML`) are no
/// domain files, as in ruff and yamllint, but were most likely meant to
/// be: each is said, with the name that makes it one, even with `-q`
/// (the run's results lack it, as `ls` says of a record left out).
fn warn_miscased<'a>(miscased: impl Iterator<Item = &'a std::path::PathBuf>) {
    use urldb_core::source::shown_path;
    for path in miscased {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default();
        let split = name.rfind('.').unwrap_or(name.len());
        let (stem, extension) = name.split_at(split);
        let renamed = format!("{stem}{}", extension.to_lowercase());
        urldb_output::say!(
            "warning: {}: not in the database: a domain file's name ends in `.yaml` (or \
             `.yml`) in lowercase; rename it `{}` to check it",
            shown_path(path),
            urldb_core::text::escape(&renamed)
        );
    }
}

/// A database with no domain file at all is an error: a wrong `root` or
/// working directory, not a database that passed.
fn no_domain_file(
    ctx: &crate::app::Context,
    parts: &[urldb_store::Part],
) -> Result<(), CommandError> {
    let empty = |p: &urldb_store::Part| p.targets.all.is_empty() && p.targets.errors.is_empty();
    if parts.iter().all(empty) {
        return Err(CommandError::NoDomainFile {
            root: urldb_store::membership::shown_dir(&ctx.root),
            origin: ctx.origin.clone(),
            misnamed: parts.iter().map(|p| p.targets.misnamed.len()).sum(),
        });
    }
    Ok(())
}

/// A run that selected nothing by `--since`, `--staged` or `--shard` is
/// no mistake (a pull request that changed no record, an empty shard):
/// said in one note, unless `-q`.
pub(crate) fn note_nothing_selected(ctx: &crate::app::Context, by: &str) {
    if !ctx.quiet {
        urldb_output::say!("note: {by}; nothing to do");
    }
}

/// Say that named paths were skipped as not in the database: the path and
/// the reason when one was named (or with `-v`, each), else one line for
/// all (a pre-commit hook names every YAML file of the repository);
/// nothing with `-q`.
pub(crate) fn note_skipped(
    ctx: &crate::app::Context,
    skipped: &[(std::path::PathBuf, urldb_store::membership::Skip)],
) {
    use urldb_core::source::shown_path;
    use urldb_core::text::escape;
    if ctx.quiet || skipped.is_empty() {
        return;
    }
    if skipped.len() == 1 || ctx.verbose {
        for (path, skip) in skipped {
            urldb_output::say!(
                "note: {}: not in the database ({}); skipped",
                shown_path(path),
                escape(&skip.to_string())
            );
        }
    } else {
        urldb_output::say!(
            "note: skipped {} files that are not in the database `{}` \
             (`urldb check --show-files PATH...` says why)",
            skipped.len(),
            escape(&urldb_store::membership::shown_dir(&ctx.root))
        );
    }
}

fn bare_run(ctx: &crate::app::Context, targets: &urldb_store::database::Targets) {
    use urldb_core::source::display_path;
    use urldb_core::text::escape;
    use urldb_store::Origin;
    if ctx.quiet {
        return;
    }
    let root = escape(&urldb_store::membership::shown_dir(&ctx.root)).into_owned();
    let listed = |list: Vec<String>| {
        let more = if list.len() > 5 { ", ..." } else { "" };
        let shown: Vec<&str> = list.iter().take(5).map(String::as_str).collect();
        format!("{}{more}", shown.join(", "))
    };
    if ctx.origin == Origin::Found && (root != "." || !targets.misnamed.is_empty()) {
        // Said when it was a guess: a folder below, or files left out; the
        // current directory holding only domain files is plainly the
        // database.
        let n = targets.all.len();
        urldb_output::say!(
            "note: no urldb.toml: taking `{root}` as the database, the one folder with domain \
             files ({n} domain file{}); `urldb init` writes a urldb.toml that says so",
            if n == 1 { "" } else { "s" },
        );
    }
    if !targets.misnamed.is_empty() {
        // Each with its own reason: `example.net.yml` is left out for its
        // extension, `localhost.yaml` for its single label.
        let names = targets
            .misnamed
            .iter()
            .map(|p| {
                let why = urldb_store::membership::name_shape(p)
                    .map_or("", urldb_store::membership::NameShape::short);
                format!("`{}` ({why})", escape(&display_path(p)))
            })
            .collect();
        urldb_output::say!(
            "note: not domain files (a domain file is `<domain>.yaml`): {}",
            listed(names)
        );
    }
}

/// Why a new text was not written.
#[derive(Debug, thiserror::Error)]
pub(crate) enum NotWritten {
    /// `--staged`: the work tree differs from the index; both are left.
    #[error("{}", NotWritten::UNSTAGED)]
    UnstagedChanges,
    #[error("not in the git index")]
    NotStaged,
    #[error(transparent)]
    Write(#[from] urldb_store::write::WriteError),
    #[error(transparent)]
    Git(#[from] urldb_store::GitError),
}

impl NotWritten {
    pub(crate) const UNSTAGED: &str = "not formatted: the working tree has unstaged changes to this \
        file (they are kept); stage them, or run `urldb fmt` on the file, and run again";
    /// [`Self::UNSTAGED`] for `check --fix --staged`, whose way out is
    /// `check --fix` on the work tree.
    pub(crate) const UNSTAGED_FIX: &str = "not fixed: the working tree has unstaged changes to \
        this file (they are kept); stage them (`git add`) and run again, or run \
        `urldb check --fix` on the file to fix the working tree alone";
}

/// The unified diff from `file` as read to `new`, as `fmt --diff` and
/// `check --diff` print it: named by its repository path when there is a
/// run with a repository, else as shown (stdin).
pub(crate) fn diff_of(
    run: Option<&Run>,
    file: &urldb_store::database::FileResult,
    new: &str,
) -> String {
    let path = match run {
        Some(run) => run.diff_path(&file.path),
        None => urldb_core::source::shown_path(&file.path),
    };
    let original = String::from_utf8_lossy(file.read.as_deref().unwrap_or_default());
    urldb_core::diff::unified(&path, &original, new)
}
