//! Why a file's new text (`fmt`, `check --fix`) was not written.

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
