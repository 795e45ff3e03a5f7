//! Writing a file without ever losing data: a temporary file in the same
//! directory, flushed to disk, with the original's permissions, renamed over
//! the original — and only if the original is still what was read.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("{path}: is a symbolic link; urldb does not write through links")]
    Symlink { path: PathBuf },
    #[error("{path}: changed on disk since it was read; not overwritten (run again)")]
    Changed { path: PathBuf },
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// Replace `path`'s contents with `new`, if the file still holds `expected`.
pub fn replace(path: &Path, expected: &[u8], new: &[u8]) -> Result<(), WriteError> {
    let io = |source| WriteError::Io {
        path: path.to_path_buf(),
        source,
    };
    let meta = fs::symlink_metadata(path).map_err(io)?;
    if meta.file_type().is_symlink() {
        return Err(WriteError::Symlink {
            path: path.to_path_buf(),
        });
    }
    let current = fs::read(path).map_err(io)?;
    if current != expected {
        return Err(WriteError::Changed {
            path: path.to_path_buf(),
        });
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".urldb-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(io)?;
    tmp.write_all(new).map_err(io)?;
    tmp.as_file()
        .set_permissions(meta.permissions())
        .map_err(io)?;
    tmp.as_file().sync_all().map_err(io)?;
    // Last look before the rename: a writer that raced us keeps its data.
    let current = fs::read(path).map_err(io)?;
    if current != expected {
        return Err(WriteError::Changed {
            path: path.to_path_buf(),
        });
    }
    tmp.persist(path).map_err(|e| io(e.error))?;
    Ok(())
}

/// Create a new file atomically (it must not exist yet).
pub fn create(path: &Path, new: &[u8]) -> Result<(), WriteError> {
    let io = |source| WriteError::Io {
        path: path.to_path_buf(),
        source,
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".urldb-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(io)?;
    tmp.write_all(new).map_err(io)?;
    tmp.as_file().sync_all().map_err(io)?;
    tmp.persist_noclobber(path).map_err(|e| io(e.error))?;
    Ok(())
}
