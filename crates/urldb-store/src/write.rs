//! Writing a file without ever losing data, by git's lockfile discipline:
//! `FILE.lock` is created next to the file, exclusively (a second writer
//! waits for it), the file is read again and compared under the lock, the
//! new text is written to the lock file with the original's permissions and
//! owner, flushed to disk, and the lock file is renamed over the file (then
//! the directory is flushed). Every urldb writer goes through a [`Lock`],
//! so two urldb processes never interleave their read and their rename; a
//! read-modify-write (`add`, `rm`, `import`) takes the lock before the read
//! its new text is computed from. See `docs/files.md`.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use crate::read::ReadError;

/// How long a writer waits for another's lock before giving up.
pub(crate) const LOCK_WAIT: Duration = Duration::from_secs(10);

/// How long a writer keeps trying to replace a file that another program
/// holds open on Windows (a virus scanner or an indexer lets go within
/// moments; an editor that keeps the file open does not): about what git
/// for Windows waits before it asks.
const IN_USE_WAIT: Duration = Duration::from_secs(2);

/// What a writer has to say while it works, for its caller to show (a
/// library prints nothing). Each is handed over as it happens, to the
/// [`Notes`] given to [`Lock::acquire`]: a wait may follow it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WriteNote {
    /// A lock left by a urldb that was killed while writing was removed.
    StaleLockRemoved { lock: PathBuf },
    /// Windows: another program has the file open; replacing it is tried
    /// again for up to `for_secs` seconds.
    InUse { path: PathBuf, for_secs: u64 },
}

impl std::fmt::Display for WriteNote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteNote::StaleLockRemoved { lock } => write!(
                f,
                "removed {}: left by a urldb that was killed while writing",
                urldb_core::source::shown_path(lock)
            ),
            WriteNote::InUse { path, for_secs } => write!(
                f,
                "{}: open in another program; trying again for up to {for_secs} s",
                urldb_core::source::shown_path(path)
            ),
        }
    }
}

/// Where a writer's [`WriteNote`]s go.
pub type Notes<'a> = &'a dyn Fn(&WriteNote);

#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("{}: is a symbolic link; urldb does not write through links", shown(.path))]
    Symlink { path: PathBuf },
    #[error(
        "{}: changed on disk since it was read; not overwritten (run again)",
        shown(.path)
    )]
    Changed { path: PathBuf },
    #[error(
        "{}: is read-only; urldb does not replace a read-only file (make it writable first)",
        shown(.path)
    )]
    ReadOnly { path: PathBuf },
    #[error(
        "{}: is not a regular file; urldb only writes regular files",
        shown(.path)
    )]
    NotRegular { path: PathBuf },
    #[error("{}: already exists; not overwritten", shown(.path))]
    Exists { path: PathBuf },
    /// Windows: another program holds the file open without sharing its
    /// deletion (`FILE_SHARE_DELETE`), so no rename can replace it.
    #[error(
        "{}: another program has it open and does not let it be replaced \
         (an editor, a viewer, a virus scanner?); not rewritten, the file is unchanged \
         (waited {waited} s): close it there and run again",
        shown(.path)
    )]
    InUse { path: PathBuf, waited: u64 },
    #[error(
        "{lock}: exists{age}: another urldb is writing {path}, or one was killed; \
         remove {lock} if no urldb is running (waited {waited} s)",
        lock = shown(.lock),
        path = shown(.path)
    )]
    Locked {
        path: PathBuf,
        lock: PathBuf,
        age: String,
        waited: u64,
    },
    /// `FILE.lock` is a symbolic link, a directory or anything but a
    /// regular file: never urldb's lock, so not waited for.
    #[error(
        "{}: is {what}, not a lock urldb takes; {} not written (remove {} if it is not needed)",
        urldb_core::text::escape(&.lock.display().to_string()),
        urldb_core::text::escape(&.path.display().to_string()),
        urldb_core::text::escape(&.lock.display().to_string())
    )]
    NotALock {
        path: PathBuf,
        lock: PathBuf,
        what: &'static str,
    },
    #[error("{}: {source}", shown(.path))]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// A path in a message, spelled as every output spells it
/// (`docs/output.md`); escaped where the message is printed.
fn shown(path: &Path) -> String {
    urldb_core::source::display_path(path)
}

fn io_error(path: &Path) -> impl Fn(std::io::Error) -> WriteError + '_ {
    move |source| WriteError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The directory a file is in (`.` for a bare name).
fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// `FILE.lock`, next to `FILE`.
pub(crate) fn lock_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// A lock file older than this, that no process holds, was left by a
/// writer that died. (Younger, it may be one just created, not yet held.)
const STALE_AFTER: Duration = Duration::from_secs(2);

/// The metadata of `path`, a file urldb may write: not a symbolic link,
/// a regular file, not read-only. The permission bits are looked at
/// here, not left to the write: a rename replaces a read-only file as
/// easily as any other, and root may write anything, so a read-only file
/// is refused with the same words whoever runs urldb.
fn writable(path: &Path) -> Result<fs::Metadata, WriteError> {
    let meta = fs::symlink_metadata(path).map_err(io_error(path))?;
    let path = path.to_path_buf();
    if meta.file_type().is_symlink() {
        return Err(WriteError::Symlink { path });
    }
    if !meta.file_type().is_file() {
        return Err(WriteError::NotRegular { path });
    }
    if meta.permissions().readonly() {
        return Err(WriteError::ReadOnly { path });
    }
    Ok(meta)
}

/// Remove `lock` if it is a stale lock: a regular file no live process
/// holds, old enough not to be one just created. The removal is made
/// while holding the stale file's own lock, and only if the name still
/// leads to that file, so two waiters never remove a lock a third has
/// just taken.
fn break_stale(lock: &Path) -> bool {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Never through a link, never waiting on a FIFO: such a lock is
        // not urldb's, and is left for its owner to explain.
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let Ok(file) = options.open(lock) else {
        return false;
    };
    let Ok(meta) = file.metadata() else {
        return false;
    };
    if !meta.is_file() || file.try_lock().is_err() {
        return false;
    }
    let old = meta
        .modified()
        .ok()
        .and_then(|t| SystemTime::now().duration_since(t).ok())
        .is_some_and(|age| age >= STALE_AFTER);
    if !old || !same_file(lock, &file, &meta) {
        return false;
    }
    fs::remove_file(lock).is_ok()
}

/// `path` still names the opened `file` (whose metadata is `meta`).
#[cfg(unix)]
fn same_file(path: &Path, _file: &File, meta: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    fs::symlink_metadata(path).is_ok_and(|m| m.dev() == meta.dev() && m.ino() == meta.ino())
}

/// `path` still names the opened `file`: the same volume serial number and
/// file index (`GetFileInformationByHandle`, through `same-file`), Windows'
/// device and inode.
#[cfg(windows)]
fn same_file(path: &Path, file: &File, _meta: &fs::Metadata) -> bool {
    let Ok(opened) = file.try_clone().and_then(same_file::Handle::from_file) else {
        return false;
    };
    same_file::Handle::from_path(path).is_ok_and(|named| named == opened)
}

#[cfg(not(any(unix, windows)))]
fn same_file(_path: &Path, _file: &File, _meta: &fs::Metadata) -> bool {
    false
}

/// Windows refused to replace a file another program holds open: access
/// denied (`ERROR_ACCESS_DENIED`, what `MoveFileEx` says when the file is
/// open without `FILE_SHARE_DELETE`) or a sharing violation
/// (`ERROR_SHARING_VIOLATION`, 32). On Unix a rename never waits for
/// readers, and a denied one is the directory's permissions: no retry.
fn in_use(e: &std::io::Error) -> bool {
    cfg!(windows)
        && (e.kind() == std::io::ErrorKind::PermissionDenied || e.raw_os_error() == Some(32))
}

/// The right to write one file: `FILE.lock`, held from [`Lock::acquire`]
/// until it is renamed over the file ([`Lock::replace`], [`Lock::create`])
/// or dropped (removed, the file untouched).
pub struct Lock<'n> {
    path: PathBuf,
    lock: PathBuf,
    file: Option<File>,
    /// Renamed over the file: there is no lock file left to remove.
    done: bool,
    notes: Notes<'n>,
}

impl std::fmt::Debug for Lock<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lock")
            .field("path", &self.path)
            .field("lock", &self.lock)
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

impl<'n> Lock<'n> {
    /// Take the lock of `path`, waiting up to [`LOCK_WAIT`] for another
    /// writer's lock to go away. What there is to say meanwhile, and while
    /// the file is written, goes to `notes`.
    pub fn acquire(path: &Path, notes: Notes<'n>) -> Result<Lock<'n>, WriteError> {
        Lock::acquire_within(path, LOCK_WAIT, notes)
    }

    fn acquire_within(
        path: &Path,
        wait: Duration,
        notes: Notes<'n>,
    ) -> Result<Lock<'n>, WriteError> {
        if fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(WriteError::Symlink {
                path: path.to_path_buf(),
            });
        }
        let lock = lock_path(path);
        let started = Instant::now();
        let mut pause = Duration::from_millis(1);
        loop {
            let mut options = fs::OpenOptions::new();
            // `create_new` is O_CREAT|O_EXCL: it fails on any existing
            // name, a symbolic link included (never followed).
            options.write(true).create_new(true);
            #[cfg(unix)]
            {
                use std::os::unix::fs::OpenOptionsExt;
                // What any new file gets (0666 less the umask), like `touch`.
                options.mode(0o666);
            }
            match options.open(&lock) {
                Ok(file) => {
                    // Held (an advisory `flock`) until the rename: the
                    // kernel lets go of it when the process ends, however
                    // it ends, which is how a waiter tells a killed
                    // writer's lock from a live one. Blocking: only a
                    // waiter looking at this new lock can hold it, briefly.
                    file.lock().map_err(io_error(&lock))?;
                    return Ok(Lock {
                        path: path.to_path_buf(),
                        lock,
                        file: Some(file),
                        done: false,
                        notes,
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    // A link or a directory (committed with the database,
                    // say) can never be a writer's lock: waiting for it to
                    // go away would only cost the whole wait, for every
                    // such file in turn.
                    if let Ok(meta) = fs::symlink_metadata(&lock) {
                        let kind = meta.file_type();
                        let what = if kind.is_symlink() {
                            Some("a symbolic link")
                        } else if kind.is_dir() {
                            Some("a directory")
                        } else if !kind.is_file() {
                            Some("not a regular file")
                        } else {
                            None
                        };
                        if let Some(what) = what {
                            return Err(WriteError::NotALock {
                                path: path.to_path_buf(),
                                lock,
                                what,
                            });
                        }
                    }
                    if break_stale(&lock) {
                        notes(&WriteNote::StaleLockRemoved { lock: lock.clone() });
                        continue;
                    }
                    if started.elapsed() >= wait {
                        let age = fs::symlink_metadata(&lock)
                            .ok()
                            .and_then(|m| m.modified().ok())
                            .and_then(|t| SystemTime::now().duration_since(t).ok())
                            .map(|d| format!(" (for {} s)", d.as_secs()))
                            .unwrap_or_default();
                        return Err(WriteError::Locked {
                            path: path.to_path_buf(),
                            lock,
                            age,
                            waited: wait.as_secs(),
                        });
                    }
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(50));
                }
                Err(e) => return Err(io_error(&lock)(e)),
            }
        }
    }

    /// Replace the file's contents with `new`, if it still holds `expected`
    /// (read again, under the lock).
    pub fn replace(self, expected: &[u8], new: &[u8]) -> Result<(), WriteError> {
        let path = self.path.clone();
        let io = io_error(&path);
        let meta = writable(&path)?;
        let current = match crate::read::read_limited(&path, expected.len() as u64, None) {
            Ok(bytes) => bytes,
            Err(ReadError::TooLarge { .. }) => {
                return Err(WriteError::Changed { path: path.clone() });
            }
            Err(ReadError::Io(e)) => return Err(io(e)),
            Err(e) => return Err(io(std::io::Error::other(e.to_string()))),
        };
        if current != expected {
            return Err(WriteError::Changed { path: path.clone() });
        }
        self.replace_file(&meta, expected, new)
    }

    /// Create the file with `new`, or replace what it holds (read under
    /// the lock): for a file urldb makes whole (`urldb man --dir`), where
    /// an earlier version is replaced. Never through a symbolic link
    /// ([`WriteError::Symlink`]), never over anything but a regular file.
    pub fn overwrite(self, new: &[u8]) -> Result<(), WriteError> {
        let path = self.path.clone();
        let io = io_error(&path);
        match fs::symlink_metadata(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return self.create(new),
            Err(e) => return Err(io(e)),
            Ok(_) => {}
        }
        let meta = writable(&path)?;
        let current = match crate::read::read_limited(&path, meta.len(), None) {
            Ok(bytes) => bytes,
            Err(ReadError::TooLarge { .. }) => {
                return Err(WriteError::Changed { path: path.clone() });
            }
            Err(ReadError::Io(e)) => return Err(io(e)),
            Err(e) => return Err(io(std::io::Error::other(e.to_string()))),
        };
        self.replace_file(&meta, &current, new)
    }

    /// Write `new` for the file whose metadata is `meta`, keeping its
    /// owner and permissions, if it still holds `expected` at the end.
    fn replace_file(
        mut self,
        meta: &fs::Metadata,
        expected: &[u8],
        new: &[u8],
    ) -> Result<(), WriteError> {
        let path = self.path.clone();
        let io = io_error(&path);
        let file = self
            .file
            .take()
            .ok_or_else(|| io(std::io::Error::other("lock used twice")))?;
        keep_owner(&file, meta);
        file.set_permissions(meta.permissions()).map_err(&io)?;
        self.commit(file, Some(expected), new)
    }

    /// Start adding to the end of the file (read under this lock by the
    /// caller); a file that does not end in a newline gets one first.
    /// Nothing is replaced, so nothing can be lost: the lock keeps other
    /// urldb writers out meanwhile, and what was added is cut off again
    /// unless [`Appending::finish`] is reached.
    pub fn append(&self) -> Result<Appending<'_>, WriteError> {
        use std::io::{Seek, SeekFrom};
        let path = &self.path;
        let io = io_error(path);
        writable(path)?;
        let mut options = fs::OpenOptions::new();
        options.read(true).append(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            // Never through a link; never waiting on a FIFO.
            options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
        }
        let mut file = options.open(path).map_err(|e| {
            #[cfg(unix)]
            if e.raw_os_error() == Some(libc::ELOOP) {
                return WriteError::Symlink { path: path.clone() };
            }
            io(e)
        })?;
        let meta = file.metadata().map_err(&io)?;
        // What was opened, in case it was swapped meanwhile.
        if !meta.file_type().is_file() {
            return Err(WriteError::NotRegular { path: path.clone() });
        }
        let len = meta.len();
        let mut newline = false;
        if len > 0 {
            let mut last = [0u8];
            file.seek(SeekFrom::Start(len - 1)).map_err(&io)?;
            std::io::Read::read_exact(&mut file, &mut last).map_err(&io)?;
            newline = last[0] != b'\n';
        }
        let mut appending = Appending {
            lock: self,
            file,
            len,
            done: false,
        };
        if newline {
            appending.write(b"\n")?;
        }
        Ok(appending)
    }

    /// Create the file (it must not exist) with `new`.
    pub fn create(mut self, new: &[u8]) -> Result<(), WriteError> {
        let path = self.path.clone();
        let io = io_error(&path);
        if fs::symlink_metadata(&path).is_ok() {
            return Err(WriteError::Exists { path: path.clone() });
        }
        let file = self
            .file
            .take()
            .ok_or_else(|| io(std::io::Error::other("lock used twice")))?;
        self.commit(file, None, new)
    }

    /// Write, flush, rename over the file, flush the directory. `expected`:
    /// the file's bytes, looked at a last time before the rename (an editor
    /// that does not know urldb's lock may have saved meanwhile).
    fn commit(
        mut self,
        mut file: File,
        expected: Option<&[u8]>,
        new: &[u8],
    ) -> Result<(), WriteError> {
        let io = io_error(&self.path);
        file.write_all(new).map_err(&io)?;
        file.sync_all().map_err(&io)?;
        const FIRST_PAUSE: Duration = Duration::from_millis(10);
        let started = Instant::now();
        let mut pause = FIRST_PAUSE;
        loop {
            let still = match expected {
                None => true,
                Some(expected) => {
                    let current =
                        crate::read::read_limited(&self.path, expected.len() as u64, None);
                    matches!(current, Ok(ref bytes) if bytes == expected)
                }
            };
            if !still {
                return Err(WriteError::Changed {
                    path: self.path.clone(),
                });
            }
            // Renamed while still held: a waiter never sees the name free
            // before the new text is in place.
            match fs::rename(&self.lock, &self.path) {
                Ok(()) => break,
                // Windows: the file is open in another program. Nothing
                // is lost meanwhile: the file keeps its old text until a
                // rename succeeds, and the lock file is removed if none does.
                Err(e) if in_use(&e) => {
                    if pause == FIRST_PAUSE {
                        (self.notes)(&WriteNote::InUse {
                            path: self.path.clone(),
                            for_secs: IN_USE_WAIT.as_secs(),
                        });
                    }
                    if started.elapsed() >= IN_USE_WAIT {
                        return Err(WriteError::InUse {
                            path: self.path.clone(),
                            waited: IN_USE_WAIT.as_secs(),
                        });
                    }
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(200));
                }
                Err(e) => return Err(io(e)),
            }
        }
        drop(file);
        // The rename is only durable once the directory is.
        if let Ok(dir) = File::open(parent_dir(&self.path)) {
            let _ = dir.sync_all();
        }
        // Renamed: nothing left to remove.
        self.done = true;
        Ok(())
    }
}

/// Bytes being added to the end of a locked file ([`Lock::append`]): in
/// as many writes as the caller has parts (a run's history lines are tens
/// of megabytes, written as they are made), kept only once flushed by
/// [`Appending::finish`]. Dropped before that, on an error or a panic, the
/// file is cut back to the size it had, not left with half a line at its
/// end.
pub struct Appending<'a> {
    lock: &'a Lock<'a>,
    file: File,
    /// The file's size before anything was added.
    len: u64,
    done: bool,
}

impl Appending<'_> {
    /// Add `part`.
    pub fn write(&mut self, part: &[u8]) -> Result<(), WriteError> {
        self.file.write_all(part).map_err(io_error(&self.lock.path))
    }

    /// Flush what was added (`fdatasync`): from now on it is kept.
    pub fn finish(mut self) -> Result<(), WriteError> {
        self.file.sync_data().map_err(io_error(&self.lock.path))?;
        self.done = true;
        Ok(())
    }
}

impl Drop for Appending<'_> {
    fn drop(&mut self) {
        if !self.done {
            let _ = self
                .file
                .set_len(self.len)
                .and_then(|()| self.file.sync_data());
        }
    }
}

impl Drop for Lock<'_> {
    fn drop(&mut self) {
        // Not committed: give the lock back, leave the file as it was.
        if !self.done {
            let _ = fs::remove_file(&self.lock);
        }
    }
}

/// Give the new file the original's owner and group, when this user may
/// (root may; others may keep a group they are in). A file that cannot keep
/// its owner becomes the writer's, as with any editor.
#[cfg(unix)]
fn keep_owner(file: &File, original: &fs::Metadata) {
    use std::os::unix::fs::MetadataExt;
    let Ok(now) = file.metadata() else {
        return;
    };
    if now.uid() == original.uid() && now.gid() == original.gid() {
        return;
    }
    if std::os::unix::fs::fchown(file, Some(original.uid()), Some(original.gid())).is_err() {
        let _ = std::os::unix::fs::fchown(file, None, Some(original.gid()));
    }
}

#[cfg(not(unix))]
fn keep_owner(_file: &File, _original: &fs::Metadata) {}

/// Replace `path`'s contents with `new`, if the file still holds `expected`.
pub fn replace(
    path: &Path,
    expected: &[u8],
    new: &[u8],
    notes: Notes<'_>,
) -> Result<(), WriteError> {
    Lock::acquire(path, notes)?.replace(expected, new)
}

/// Create a new file atomically (it must not exist yet).
pub fn create(path: &Path, new: &[u8], notes: Notes<'_>) -> Result<(), WriteError> {
    Lock::acquire(path, notes)?.create(new)
}

/// Create `path` with `new`, or replace the regular file there
/// ([`Lock::overwrite`]); never through a symbolic link.
pub fn overwrite(path: &Path, new: &[u8], notes: Notes<'_>) -> Result<(), WriteError> {
    Lock::acquire(path, notes)?.overwrite(new)
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
        replace(&path, b"old", b"new", &|_| {}).expect("replace");
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
        create(&path, b"new", &|_| {}).expect("create");
        let mode = fs::metadata(&path).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode, expected, "a private temporary file's mode leaked");
    }

    #[test]
    fn refuses_a_file_changed_since_it_was_read() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("a.yaml");
        fs::write(&path, "changed by someone else").expect("write");
        let err = replace(&path, b"what we read", b"new", &|_| {}).expect_err("must refuse");
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
        let err = replace(&link, b"old", b"new", &|_| {}).expect_err("must refuse");
        assert!(matches!(err, WriteError::Symlink { .. }), "{err}");
        assert_eq!(fs::read(&target).expect("read"), b"old");
        assert!(
            fs::symlink_metadata(&link)
                .expect("meta")
                .file_type()
                .is_symlink()
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_lock_that_is_a_link_or_a_directory_is_refused_at_once() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("a.yaml");
        fs::write(&path, "old").expect("write");
        for make in ["dir", "link"] {
            let lock = lock_path(&path);
            if make == "dir" {
                fs::create_dir(&lock).expect("mkdir");
            } else {
                std::os::unix::fs::symlink(dir.path().join("elsewhere"), &lock).expect("link");
            }
            let started = Instant::now();
            let err = Lock::acquire(&path, &|_| {}).expect_err("not a lock");
            assert!(matches!(err, WriteError::NotALock { .. }), "{err}");
            assert!(started.elapsed() < Duration::from_secs(1), "waited");
            assert_eq!(fs::read(&path).expect("read"), b"old");
            if make == "dir" {
                fs::remove_dir(&lock).expect("rmdir");
            } else {
                fs::remove_file(&lock).expect("rm");
            }
        }
    }

    #[test]
    fn a_second_writer_waits_for_the_lock_then_gets_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("a.yaml");
        fs::write(&path, "old").expect("write");
        let first = Lock::acquire(&path, &|_| {}).expect("lock");
        let err =
            Lock::acquire_within(&path, Duration::from_millis(50), &|_| {}).expect_err("held");
        assert!(matches!(err, WriteError::Locked { .. }), "{err}");
        drop(first);
        assert!(!lock_path(&path).exists(), "a dropped lock is removed");
        Lock::acquire_within(&path, Duration::from_millis(50), &|_| {})
            .expect("free again")
            .replace(b"old", b"new")
            .expect("replace");
        assert_eq!(fs::read(&path).expect("read"), b"new");
        assert!(!lock_path(&path).exists(), "renamed over the file");
    }

    #[test]
    fn a_stale_lock_is_removed_and_told_to_the_caller() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("a.yaml");
        fs::write(&path, "old").expect("write");
        // What a writer killed mid-write leaves: a lock file nobody holds.
        let left = File::create(lock_path(&path)).expect("lock file");
        left.set_modified(SystemTime::now() - STALE_AFTER * 2)
            .expect("age it");
        drop(left);
        let told = std::cell::RefCell::new(Vec::new());
        replace(&path, b"old", b"new", &|note| {
            told.borrow_mut().push(note.clone())
        })
        .expect("replace");
        assert_eq!(
            told.into_inner(),
            [WriteNote::StaleLockRemoved {
                lock: lock_path(&path)
            }]
        );
        assert_eq!(fs::read(&path).expect("read"), b"new");
    }

    /// `overwrite` makes a file or replaces one, and never writes
    /// through a link (the target keeps its bytes) nor over a directory.
    #[cfg(unix)]
    #[test]
    fn overwrite_replaces_a_file_and_refuses_a_link() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("page.1");
        overwrite(&path, b"one", &|_| {}).expect("created");
        overwrite(&path, b"two", &|_| {}).expect("replaced");
        assert_eq!(fs::read(&path).expect("read"), b"two");
        let victim = dir.path().join("victim");
        fs::write(&victim, "mine").expect("write");
        let link = dir.path().join("link.1");
        std::os::unix::fs::symlink(&victim, &link).expect("symlink");
        let err = overwrite(&link, b"page", &|_| {}).expect_err("refused");
        assert!(matches!(err, WriteError::Symlink { .. }), "{err}");
        let dangling = dir.path().join("dangling.1");
        std::os::unix::fs::symlink(dir.path().join("nowhere"), &dangling).expect("symlink");
        assert!(overwrite(&dangling, b"page", &|_| {}).is_err());
        assert!(!dir.path().join("nowhere").exists());
        assert_eq!(fs::read(&victim).expect("read"), b"mine");
        fs::create_dir(dir.path().join("d.1")).expect("mkdir");
        assert!(overwrite(&dir.path().join("d.1"), b"page", &|_| {}).is_err());
    }

    #[test]
    fn create_never_overwrites() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("a.yaml");
        create(&path, b"first", &|_| {}).expect("create");
        assert!(create(&path, b"second", &|_| {}).is_err());
        assert_eq!(fs::read(&path).expect("read"), b"first");
    }
}
