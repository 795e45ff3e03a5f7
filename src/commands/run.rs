//! The run context of `check` and `fmt`: the files a run takes, database
//! by database, with the git repository around each, and what it does
//! with a file's new text (write it back, `--staged` to the index too, or
//! show it as a diff).

use super::not_written::NotWritten;
use super::notes::{bare_run, note_nothing_selected, note_skipped, warn_miscased, write_note};
use super::shared_args::GitArgs;
use super::targets::{no_domain_file, select};
use crate::app::CommandError;

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
