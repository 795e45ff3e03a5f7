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
    #[error(
        "{path}: is read-only; urldb does not replace a read-only file (make it writable first)"
    )]
    ReadOnly { path: PathBuf },
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
    // A rename replaces a read-only file as easily as any other (and root
    // may write anything): look at the permission bits ourselves.
    if meta.permissions().readonly() {
        return Err(WriteError::ReadOnly {
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
    let mut builder = tempfile::Builder::new();
    builder.prefix(".urldb-").suffix(".tmp");
    // A temporary file is private (0600); a new domain file gets the
    // permissions any new file would (0666 less the umask), like `touch`.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir).map_err(io)?;
    tmp.write_all(new).map_err(io)?;
    tmp.as_file().sync_all().map_err(io)?;
    tmp.persist_noclobber(path).map_err(|e| io(e.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_and_keeps_permissions() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("a.yaml");
        fs::write(&path, "old").expect("write");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).expect("chmod");
        }
        replace(&path, b"old", b"new").expect("replace");
        assert_eq!(fs::read(&path).expect("read"), b"new");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(
                fs::metadata(&path).expect("meta").permissions().mode() & 0o777,
                0o640
            );
        }
        // No temporary file is left behind.
        assert_eq!(fs::read_dir(dir.path()).expect("ls").count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn new_files_get_the_permissions_of_any_new_file() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("tempdir");
        // What the umask makes of a plain new file.
        let plain = dir.path().join("plain");
        fs::write(&plain, "x").expect("write");
        let expected = fs::metadata(&plain).expect("meta").permissions().mode() & 0o777;
        let path = dir.path().join("a.yaml");
        create(&path, b"new").expect("create");
        let mode = fs::metadata(&path).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode, expected, "a private temporary file's mode leaked");
    }

    #[test]
    fn refuses_a_file_changed_since_it_was_read() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("a.yaml");
        fs::write(&path, "changed by someone else").expect("write");
        let err = replace(&path, b"what we read", b"new").expect_err("must refuse");
        assert!(matches!(err, WriteError::Changed { .. }), "{err}");
        assert_eq!(fs::read(&path).expect("read"), b"changed by someone else");
    }

    #[cfg(unix)]
    #[test]
    fn refuses_to_write_through_a_symlink() {
        let dir = tempfile::tempdir().expect("tempdir");
        let target = dir.path().join("real.yaml");
        let link = dir.path().join("a.yaml");
        fs::write(&target, "old").expect("write");
        std::os::unix::fs::symlink(&target, &link).expect("symlink");
        let err = replace(&link, b"old", b"new").expect_err("must refuse");
        assert!(matches!(err, WriteError::Symlink { .. }), "{err}");
        assert_eq!(fs::read(&target).expect("read"), b"old");
        assert!(
            fs::symlink_metadata(&link)
                .expect("meta")
                .file_type()
                .is_symlink()
        );
    }

    #[test]
    fn create_never_overwrites() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("a.yaml");
        create(&path, b"first").expect("create");
        assert!(create(&path, b"second").is_err());
        assert_eq!(fs::read(&path).expect("read"), b"first");
    }
}
