//! git's side of merging domain files (`docs/git.md`, "Merging"): the
//! line merge for what the merge by records does not take — `git
//! merge-file`, run on the three files, so that the result is exactly what
//! git would have written without the driver, and nothing is lost — and
//! the driver's entry in the repository's own git configuration.

use std::path::Path;
use std::process::{Command, Stdio};

/// The three files merged line by line.
#[derive(Debug)]
pub struct LineMerge {
    pub text: Vec<u8>,
    /// It holds conflict blocks.
    pub conflicts: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum MergingError {
    #[error("could not run `git config` (is git on PATH?): {0}")]
    RunConfig(#[source] std::io::Error),
    #[error("`git config` failed: {}", urldb_core::text::escape(.0))]
    Config(String),
    #[error("could not run `git merge-file` (is git on PATH?): {0}")]
    Run(#[source] std::io::Error),
    #[error("`git merge-file` failed: {}", urldb_core::text::escape(.0))]
    Failed(String),
}

/// Merge `ours` and `theirs` against `base` as `git merge-file -p` does,
/// with these labels (ours, base, theirs) and marker size.
pub fn line_merge(
    base: &Path,
    ours: &Path,
    theirs: &Path,
    labels: [&str; 3],
    marker_size: usize,
) -> Result<LineMerge, MergingError> {
    let mut git = Command::new("git");
    git.arg("merge-file")
        .arg("-p")
        .arg(format!("--marker-size={marker_size}"));
    for label in labels {
        git.arg("-L").arg(label);
    }
    let output = git
        .arg("--")
        .arg(ours)
        .arg(base)
        .arg(theirs)
        .stdin(Stdio::null())
        .output()
        .map_err(MergingError::Run)?;
    // The exit status is the number of conflicts (at most 127); a
    // failure is negative, which the shell reports as 128 and more.
    match output.status.code() {
        Some(n @ 0..=127) => Ok(LineMerge {
            text: output.stdout,
            conflicts: n > 0,
        }),
        _ => Err(MergingError::Failed(
            String::from_utf8_lossy(&output.stderr).trim().to_string(),
        )),
    }
}

/// Set `key` to `value` in the local configuration of the repository
/// whose work tree is `workdir` (`git config --local`): each clone has its
/// own, which is why a clone runs the setup.
pub fn set_local_config(workdir: &Path, key: &str, value: &str) -> Result<(), MergingError> {
    let output = Command::new("git")
        .arg("-C")
        .arg(workdir)
        .args(["config", "--local", key, value])
        .stdin(Stdio::null())
        .output()
        .map_err(MergingError::RunConfig)?;
    if output.status.success() {
        Ok(())
    } else {
        Err(MergingError::Config(
            String::from_utf8_lossy(&output.stderr).trim().to_string(),
        ))
    }
}
