//! One module per subcommand: read the arguments, call the library, print,
//! and say which exit status the run earned.

pub(crate) mod add;
pub(crate) mod check;
pub(crate) mod completions;
pub(crate) mod export;
pub(crate) mod fmt;
pub(crate) mod import;
pub(crate) mod init;
pub(crate) mod install_hook;
pub(crate) mod ls;
pub(crate) mod records;
pub(crate) mod report;
pub(crate) mod rm;
pub(crate) mod rules;
pub(crate) mod server;
pub(crate) mod verify;

use std::io::Read;

use crate::app::{CommandError, ExitStatus};
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
/// `verify`'s ([`urldb_verify::shard::Shard`], a split of the URLs).
fn parse_shard(text: &str) -> Result<(usize, usize), CommandError> {
    let shard: urldb_verify::shard::Shard = text
        .parse()
        .map_err(|e: urldb_verify::shard::ShardError| CommandError::Usage(e.to_string()))?;
    Ok((shard.index as usize, shard.count as usize))
}

/// The more serious of two statuses (commands that go on after a failure).
pub(crate) fn worse(a: ExitStatus, b: ExitStatus) -> ExitStatus {
    if (b as i32) > (a as i32) { b } else { a }
}

/// Print file errors (I/O problems) to stderr, file names and messages
/// escaped ([`urldb_core::text`]).
pub(crate) fn print_errors(errors: &[FileError]) {
    for e in errors {
        urldb_core::say!(
            "error: {}: {}",
            urldb_core::source::shown_path(&e.path),
            urldb_core::text::escape(&e.message)
        );
    }
}

pub(crate) fn read_stdin() -> Result<Vec<u8>, CommandError> {
    let mut buf = Vec::new();
    std::io::stdin()
        .read_to_end(&mut buf)
        .map_err(|e| CommandError::Failed(format!("cannot read stdin: {e}")))?;
    Ok(buf)
}

/// The files a `check` or `fmt` run looks at, and the git repository
/// around the database when there is one.
pub(crate) struct Run {
    pub targets: urldb_store::database::Targets,
    /// The repository, when not already held by a staged snapshot.
    repo: Option<urldb_store::git::Repository>,
    /// The database root (the work tree's files are read inside it).
    root: urldb_store::read::Root,
    /// `--staged` writes: git's conversion between the work tree and the
    /// index, made once for all of them.
    conversion: std::cell::RefCell<Option<urldb_store::git::Conversion>>,
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
        use urldb_store::database;
        use urldb_store::git::Repository;
        let exclude = ctx.exclude()?;
        if git.staged {
            let repo = Repository::discover(&ctx.root, "--staged")
                .map_err(|e| CommandError::Failed(e.to_string()))?;
            let targets = database::staged_targets(repo, paths, &exclude)
                .map_err(|e| CommandError::Failed(e.to_string()))?;
            return Ok(Run {
                targets,
                repo: None,
                root: ctx.root.clone(),
                conversion: Default::default(),
            });
        }
        let mut targets = targets(ctx, paths, &exclude);
        let repo = match &git.since {
            Some(rev) => {
                let repo = Repository::discover(&ctx.root, "--since")
                    .map_err(|e| CommandError::Failed(e.to_string()))?;
                database::changed_since(&mut targets, &repo, rev)
                    .map_err(|e| CommandError::Failed(e.to_string()))?;
                Some(repo)
            }
            // Only for repository-relative diff paths: no repository is fine.
            None if diff => Repository::discover(&ctx.root, "--diff").ok(),
            None => None,
        };
        Ok(Run {
            targets,
            repo,
            root: ctx.root.clone(),
            conversion: Default::default(),
        })
    }

    pub(crate) fn repo(&self) -> Option<&urldb_store::git::Repository> {
        match &self.targets.snapshot {
            urldb_store::database::Snapshot::Index(index) => Some(&index.repo),
            urldb_store::database::Snapshot::WorkTree(_) => self.repo.as_ref(),
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
        let error = |e: &dyn std::fmt::Display| NotWritten::Error(e.to_string());
        match &self.targets.snapshot {
            urldb_store::database::Snapshot::WorkTree(_) => {
                urldb_store::write::replace(path, read, new.as_bytes()).map_err(|e| error(&e))
            }
            urldb_store::database::Snapshot::Index(index) => {
                let Some(file) = index.files.get(path) else {
                    return Err(NotWritten::Error("not in the git index".to_string()));
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
                    empty => empty.insert(index.repo.conversion().map_err(|e| error(&e))?),
                };
                let limit = (read.len() as u64).saturating_mul(4) + (64 << 10);
                let on_disk = urldb_store::database::read_file(&self.root, path, limit)
                    .map_err(|_| NotWritten::UnstagedChanges)?;
                let holds_staged = conversion
                    .to_git(&file.repo_path, &on_disk)
                    .is_ok_and(|stored| stored == read);
                if !holds_staged {
                    return Err(NotWritten::UnstagedChanges);
                }
                let checked_out = conversion
                    .to_worktree(&file.repo_path, new.as_bytes())
                    .map_err(|e| error(&e))?;
                urldb_store::write::replace(path, &on_disk, &checked_out).map_err(|e| error(&e))?;
                index
                    .repo
                    .stage(file, new.as_bytes())
                    .map_err(|e| error(&e))
            }
        }
    }
}

/// A run with no `urldb.toml` and no `--db` over the whole current
/// directory: a repository's own YAML files (`readthedocs.yml`,
/// `mkdocs.yml`) are not domain files, since their names are no domain
/// names (a domain name has a dot); say which directory was taken as the
/// database when it was a guess, and what to do when it holds no domain
/// file.
/// The files a run takes (`paths`, or the whole database), what a bare run
/// leaves out and the files outside the database said once.
pub(crate) fn targets(
    ctx: &crate::app::Context,
    paths: &[std::path::PathBuf],
    exclude: &globset::GlobSet,
) -> urldb_store::database::Targets {
    let mut targets = urldb_store::database::targets(&ctx.root, paths, exclude);
    if ctx.bare && paths.is_empty() {
        bare_run(ctx, &mut targets);
    }
    targets.note_outside(ctx.quiet);
    targets
}

fn bare_run(ctx: &crate::app::Context, targets: &mut urldb_store::database::Targets) {
    use urldb_core::source::display_path;
    use urldb_core::text::escape;
    let is_domain = |p: &std::path::Path| {
        p.file_stem()
            .and_then(|s| s.to_str())
            .is_some_and(|s| s.contains('.'))
    };
    let skipped: Vec<std::path::PathBuf> = targets
        .all
        .iter()
        .filter(|p| !is_domain(p))
        .cloned()
        .collect();
    targets.all.retain(|p| is_domain(p));
    targets.checked.retain(|p| is_domain(p));
    if ctx.quiet {
        return;
    }
    let root = escape(&display_path(&ctx.root)).into_owned();
    let listed = |list: Vec<String>| {
        let more = if list.len() > 5 { ", ..." } else { "" };
        let shown: Vec<String> = list.iter().take(5).map(|n| format!("`{n}`")).collect();
        format!("{}{more}", shown.join(", "))
    };
    if targets.all.is_empty() {
        urldb_core::say!(
            "note: no urldb.toml, and no domain file (`<domain>.yaml`) below `{root}`; \
             run `urldb init` in the database directory, or pass `--db DIR`"
        );
    } else {
        let mut dirs: Vec<String> = targets
            .all
            .iter()
            .map(|p| {
                let dir = p.parent().unwrap_or(std::path::Path::new(""));
                let shown = display_path(dir);
                if shown.is_empty() {
                    ".".to_string()
                } else {
                    escape(&shown).into_owned()
                }
            })
            .collect();
        dirs.sort();
        dirs.dedup();
        // Said when it was a guess: files below the directory, or files
        // left out; a directory of domain files is plainly the database.
        if !skipped.is_empty() || dirs.len() != 1 || dirs[0] != root {
            let n = targets.all.len();
            urldb_core::say!(
                "note: no urldb.toml: taking `{root}` as the database ({n} domain file{} in {}); \
                 `urldb init` writes a urldb.toml, `--db DIR` names another directory",
                if n == 1 { "" } else { "s" },
                listed(dirs)
            );
        }
    }
    if !skipped.is_empty() {
        let names = skipped
            .iter()
            .map(|p| escape(&display_path(p)).into_owned())
            .collect();
        urldb_core::say!(
            "note: not domain files (their names are no domain names): {}",
            listed(names)
        );
    }
}

/// Why a new text was not written.
#[derive(Debug)]
pub(crate) enum NotWritten {
    /// `--staged`: the work tree differs from the index; both are left.
    UnstagedChanges,
    Error(String),
}

impl NotWritten {
    pub(crate) const UNSTAGED: &str = "not formatted: the working tree has unstaged changes to this \
        file (they are kept); stage them, or run `urldb fmt` on the file, and run again";

    /// What to tell the user.
    pub(crate) fn message(self) -> String {
        match self {
            NotWritten::UnstagedChanges => NotWritten::UNSTAGED.to_string(),
            NotWritten::Error(message) => message,
        }
    }
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
