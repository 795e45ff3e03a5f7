//! The one way urldb opens a file to read it (domain files, `urldb.toml`,
//! a catalogue to import, a hook): only a regular file, never a FIFO, a
//! socket, a device or a file of `/proc` or `/sys`, and for a domain file
//! never through a symbolic link that leads out of the database root.
//!
//! The file's type is looked at before it is opened, the open itself does
//! not wait (`O_NONBLOCK`: a FIFO swapped in meanwhile cannot hang the
//! run), and the opened handle is looked at again. The size limit is
//! enforced by the read, not only by `stat`: a file that lies about its
//! size, or grows while it is read, is still read no further than the
//! limit. See `docs/files.md`.

use std::fs::{File, Metadata};
use std::io::Read;
use std::path::{Path, PathBuf};

/// A database root, resolved once where a run starts (the command line,
/// the editor's workspace) and passed to whatever reads domain files: a
/// domain file that is a symbolic link is read only when it resolves
/// inside it. A value, not a process-wide setting, so every caller of the
/// library gets the same containment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Root {
    /// As given: what paths below it are shown relative to.
    given: PathBuf,
    /// Resolved (symbolic links followed): what containment is judged by.
    resolved: PathBuf,
}

impl Root {
    /// The root at `dir`, which must exist.
    pub fn new(dir: &Path) -> std::io::Result<Root> {
        Ok(Root {
            given: dir.to_path_buf(),
            resolved: dunce::canonicalize(dir)?,
        })
    }

    /// The resolved root.
    pub fn resolved(&self) -> &Path {
        &self.resolved
    }
}

impl std::ops::Deref for Root {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.given
    }
}

impl AsRef<Path> for Root {
    fn as_ref(&self) -> &Path {
        &self.given
    }
}

/// `path`, resolved, lies inside the resolved `root` (or is it).
pub fn is_inside(path: &Path, root: &Path) -> bool {
    match (dunce::canonicalize(path), dunce::canonicalize(root)) {
        (Ok(p), Ok(r)) => p.starts_with(r),
        _ => false,
    }
}

/// Why a file was not read. The message is what to show after the file's
/// name; it never holds anything of a symbolic link's target.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("symbolic link to a file that does not exist")]
    DanglingLink,
    #[error("symbolic link to a file outside the database root; not read")]
    LinkOutsideRoot,
    #[error("symbolic link to a system file; not read")]
    LinkToSystemFile,
    #[error("is a system file (/proc, /sys, /dev); not read")]
    SystemFile,
    /// A directory, FIFO, socket or device: what it is.
    #[error("{0}")]
    NotRegular(&'static str),
    /// Larger than the limit asked for (and not read beyond it).
    #[error("too large ({size} bytes)")]
    TooLarge { size: u64 },
}

/// Files of the kernel's pseudo-file systems: they say they are regular
/// files of size 0, and may hold anything (the environment, memory).
fn is_pseudo(resolved: &Path) -> bool {
    resolved.starts_with("/proc") || resolved.starts_with("/sys") || resolved.starts_with("/dev")
}

/// What kind of file `meta` describes, when it is not a regular file.
fn not_regular(meta: &Metadata) -> Option<&'static str> {
    let t = meta.file_type();
    if t.is_file() {
        return None;
    }
    if t.is_dir() {
        return Some("is a directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Some("is a FIFO (named pipe); only regular files are read");
        }
        if t.is_socket() {
            return Some("is a socket; only regular files are read");
        }
        if t.is_block_device() || t.is_char_device() {
            return Some("is a device; only regular files are read");
        }
    }
    Some("is not a regular file; only regular files are read")
}

/// Open a regular file for reading. `within`: the file is a domain file
/// of that root, and must not be a symbolic link leading out of it.
pub fn open_regular(path: &Path, within: Option<&Root>) -> Result<(File, Metadata), ReadError> {
    let lmeta = std::fs::symlink_metadata(path)?;
    // What is opened: the file itself, or the file a link resolves to (the
    // one judged here), never following a link at open time, so a link
    // swapped in after this look is not followed. A plain file is looked at
    // once (this is every file of every run).
    let (target, meta) = if lmeta.file_type().is_symlink() {
        let resolved = dunce::canonicalize(path).map_err(|_| ReadError::DanglingLink)?;
        if let Some(root) = within
            && !resolved.starts_with(root.resolved())
        {
            return Err(ReadError::LinkOutsideRoot);
        }
        if is_pseudo(&resolved) {
            return Err(ReadError::LinkToSystemFile);
        }
        let meta = std::fs::symlink_metadata(&resolved)?;
        (std::borrow::Cow::Owned(resolved), meta)
    } else if path.is_absolute() && is_pseudo(path) {
        return Err(ReadError::SystemFile);
    } else {
        (std::borrow::Cow::Borrowed(path), lmeta)
    };
    if let Some(what) = not_regular(&meta) {
        return Err(ReadError::NotRegular(what));
    }
    let file = open_nonblocking(&target)?;
    // The file may have been swapped since it was looked at: look at what
    // was opened.
    let meta = file.metadata()?;
    if let Some(what) = not_regular(&meta) {
        return Err(ReadError::NotRegular(what));
    }
    Ok((file, meta))
}

#[cfg(unix)]
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY | libc::O_NOFOLLOW)
        .open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    File::open(path)
}

/// Read a whole regular file of at most `max` bytes ([`ReadError::TooLarge`]
/// when it is larger, not read beyond the limit).
pub fn read_limited(path: &Path, max: u64, within: Option<&Root>) -> Result<Vec<u8>, ReadError> {
    let (file, meta) = open_regular(path, within)?;
    if meta.len() > max {
        return Err(ReadError::TooLarge { size: meta.len() });
    }
    let mut buf = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(max.saturating_add(1)).read_to_end(&mut buf)?;
    let len = buf.len() as u64;
    if len > max {
        return Err(ReadError::TooLarge {
            size: len.max(meta.len()),
        });
    }
    Ok(buf)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn refuses_a_fifo_without_waiting() {
        let dir = tempfile::tempdir().expect("tempdir");
        let fifo = dir.path().join("f.yaml");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo");
        assert!(status.success());
        let err = read_limited(&fifo, 100, None).expect_err("must refuse");
        assert!(err.to_string().contains("FIFO"), "{err}");
    }

    #[test]
    fn reads_no_further_than_the_limit() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("a.yaml");
        std::fs::write(&path, "0123456789").expect("write");
        assert!(matches!(
            read_limited(&path, 9, None),
            Err(ReadError::TooLarge { size: 10 })
        ));
        assert_eq!(
            read_limited(&path, 10, None).expect("read"),
            b"0123456789".to_vec()
        );
        assert!(read_limited(Path::new("/proc/self/environ"), 1 << 20, None).is_err());
    }
}
