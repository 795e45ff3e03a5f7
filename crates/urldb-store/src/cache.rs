//! The results cache: a file that was clean last time, and has not changed,
//! is not read or checked again.
//!
//! Like ruff's cache, it remembers only what a run may skip: files with no
//! finding whose text is already canonical, keyed by the SHA-256 of their
//! bytes, and valid only for one urldb build and one set of lint options
//! (each set has its own cache file). It lives outside the work tree, in
//! the user's cache directory (`$XDG_CACHE_HOME/urldb/`, else
//! `%LOCALAPPDATA%\urldb\` on Windows, else `~/.cache/urldb/`), in a
//! directory named after the resolved database
//! root: a commit cannot plant entries in it (a cache inside the work tree
//! could come with a pull request and pass a broken file unread). A cache
//! directory that is a symbolic link, or that another user owns, is
//! neither read nor written. See `docs/files.md`.
//!
//! A file's metadata (size, modification and change times, inode) is
//! remembered with its hash, so that an unchanged file costs one `stat`,
//! not a read. Metadata is trusted only when the file was last changed
//! well before the run that cached it, as git does for its index: a file
//! changed twice within one timestamp tick, around the time urldb read it,
//! would otherwise keep its old metadata with new bytes. Such a file is
//! hashed again on the next run instead. A file whose metadata changed but
//! whose bytes did not (`touch`, a branch switched back) is hashed, found
//! clean, and not checked.
//!
//! On Windows, which has no change time std can read and no inode, a
//! file's size and modification time could stay the same while its bytes
//! change: there every file is hashed on every run (and clean ones still
//! not checked).
//!
//! Cross-file rules still run on every run; a cached file carries the
//! facts they need (its cnames and where they are).
//!
//! The cache is advisory: any problem reading or writing it means a full
//! run, never a failed one.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use foldhash::HashMap;
use sha2::{Digest, Sha256};

use urldb_core::lint::Options;
use urldb_core::model::domain::hex_digest;
use urldb_core::source::Span;

/// Why the results cache is not used (the run goes on without it).
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    #[error("no cache directory ($XDG_CACHE_HOME and $HOME unset)")]
    NoHome,
    #[error("{}: {source}", .path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{} is a symbolic link", .0.display())]
    Symlink(PathBuf),
    #[error("{} is not a directory", .0.display())]
    NotADirectory(PathBuf),
    #[error("{} belongs to another user", .0.display())]
    NotOurs(PathBuf),
    #[error("{}: could not be created", .0.display())]
    NotCreated(PathBuf),
}

fn io_at(path: &Path) -> impl Fn(std::io::Error) -> CacheError + '_ {
    move |source| CacheError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The cache directory of a database, and why there is none to use: the
/// user's cache directory, `urldb/`, then the first 16 hex digits of the
/// SHA-256 of the resolved root.
pub fn cache_location(root: &Path) -> Result<PathBuf, CacheError> {
    let absolute = |name: &str| {
        std::env::var_os(name)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    // The XDG base directory specification ignores relative paths. On
    // Windows the user's local application data (`%LOCALAPPDATA%`, private
    // to the user by its access-control list) comes before `HOME`, which
    // only Git for Windows' shells set.
    let local = if cfg!(windows) {
        absolute("LOCALAPPDATA")
    } else {
        None
    };
    let base = match absolute("XDG_CACHE_HOME").or(local) {
        Some(dir) => dir,
        None => match absolute("HOME") {
            Some(home) => home.join(".cache"),
            None => return Err(CacheError::NoHome),
        },
    };
    let root = dunce::canonicalize(root).map_err(io_at(root))?;
    let id = hex_digest(&Sha256::digest(root.as_os_str().as_encoded_bytes()));
    Ok(base.join("urldb").join(&id[..16]))
}

/// A directory of the cache may be used: it is a directory (not a symbolic
/// link), and this user owns it. `Ok(false)`: it does not exist yet.
fn trusted(dir: &Path) -> Result<bool, CacheError> {
    let meta = match std::fs::symlink_metadata(dir) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(io_at(dir)(e)),
    };
    if meta.file_type().is_symlink() {
        return Err(CacheError::Symlink(dir.to_path_buf()));
    }
    if !meta.is_dir() {
        return Err(CacheError::NotADirectory(dir.to_path_buf()));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // SAFETY: geteuid has no preconditions and cannot fail.
        #[allow(unsafe_code)]
        let me = unsafe { libc::geteuid() };
        if meta.uid() != me {
            return Err(CacheError::NotOurs(dir.to_path_buf()));
        }
    }
    Ok(true)
}

/// The cache's own directories (`urldb/` and the database's): each
/// trusted, or created (private to this user) when missing.
fn prepare(dir: &Path) -> Result<(), CacheError> {
    let parent = dir.parent().unwrap_or(dir);
    for d in [parent, dir] {
        if !trusted(d)? {
            if let Some(base) = d.parent() {
                std::fs::create_dir_all(base).map_err(io_at(base))?;
            }
            #[cfg_attr(not(unix), allow(unused_mut))]
            let mut builder = std::fs::DirBuilder::new();
            #[cfg(unix)]
            {
                use std::os::unix::fs::DirBuilderExt;
                builder.mode(0o700);
            }
            match builder.create(d) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(io_at(d)(e)),
            }
            // Whoever made it, it must pass now.
            if !trusted(d)? {
                return Err(CacheError::NotCreated(d.to_path_buf()));
            }
        }
    }
    Ok(())
}

/// Bumped when the file format or the meaning of an entry changes.
const FORMAT: u32 = 1;

/// Metadata changed less than this long before the run started is not
/// trusted (coarse file-system clocks, and clocks a little apart).
const RACY: Duration = Duration::from_secs(2);

/// What `stat` says about a file: when any of it changes, the bytes are
/// hashed again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stat {
    len: u64,
    mtime_ns: i64,
    ctime_ns: i64,
    ino: u64,
}

impl Stat {
    pub fn of(path: &Path) -> Option<Stat> {
        let meta = std::fs::metadata(path).ok()?;
        Some(Stat::from_metadata(&meta))
    }

    #[cfg(unix)]
    fn from_metadata(meta: &std::fs::Metadata) -> Stat {
        use std::os::unix::fs::MetadataExt;
        Stat {
            len: meta.len(),
            mtime_ns: meta.mtime() * 1_000_000_000 + meta.mtime_nsec(),
            ctime_ns: meta.ctime() * 1_000_000_000 + meta.ctime_nsec(),
            ino: meta.ino(),
        }
    }

    #[cfg(not(unix))]
    fn from_metadata(meta: &std::fs::Metadata) -> Stat {
        let mtime_ns = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos() as i64);
        Stat {
            len: meta.len(),
            mtime_ns,
            ctime_ns: mtime_ns,
            ino: 0,
        }
    }

    /// Last changed at or after `limit` (nanoseconds since the epoch).
    fn changed_after(&self, limit: i64) -> bool {
        self.mtime_ns >= limit || self.ctime_ns >= limit
    }
}

/// One clean file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CachedFile {
    /// SHA-256 of the bytes, in hex.
    hash: String,
    /// The metadata it had, when it can be trusted.
    stat: Option<Stat>,
    /// Its cnames and their spans, for the cross-file rules.
    pub cnames: Vec<(String, Span)>,
}

impl CachedFile {
    /// The entry describes exactly these bytes.
    pub fn matches(&self, hash: &str) -> bool {
        self.hash == hash
    }

    /// One line of the cache file: `key TAB hash TAB stat TAB cnames`.
    fn line(&self, key: &str) -> String {
        let stat = match &self.stat {
            Some(s) => format!("{},{},{},{}", s.len, s.mtime_ns, s.ctime_ns, s.ino),
            None => "-".to_string(),
        };
        let cnames: Vec<String> = self
            .cnames
            .iter()
            .map(|(name, span)| format!("{name}:{}:{}", span.start, span.end))
            .collect();
        format!("{key}\t{}\t{stat}\t{}\n", self.hash, cnames.join(","))
    }

    /// The fields after the key; `None` for anything malformed.
    fn parse(fields: &str) -> Option<CachedFile> {
        let mut parts = fields.split('\t');
        let hash = parts.next()?.to_string();
        let stat = match parts.next()? {
            "-" => None,
            s => {
                let mut n = s.split(',');
                let stat = Stat {
                    len: n.next()?.parse().ok()?,
                    mtime_ns: n.next()?.parse().ok()?,
                    ctime_ns: n.next()?.parse().ok()?,
                    ino: n.next()?.parse().ok()?,
                };
                Some(stat)
            }
        };
        let cnames = match parts.next()? {
            "" => Vec::new(),
            list => list
                .split(',')
                .map(|c| {
                    let mut f = c.rsplitn(3, ':');
                    let end = f.next()?.parse().ok()?;
                    let start = f.next()?.parse().ok()?;
                    Some((f.next()?.to_string(), start..end))
                })
                .collect::<Option<Vec<_>>>()?,
        };
        if parts.next().is_some() || hash.len() != 64 {
            return None;
        }
        Some(CachedFile { hash, stat, cnames })
    }
}

/// An entry this run keeps: the last run's line as it was, or a new one.
pub enum Kept {
    Line(Range<usize>),
    New(CachedFile),
}

/// The cache of one run: what the last run left, and where to write this
/// run's.
pub struct Cache {
    root: PathBuf,
    /// The cache file; `None` when there is no cache directory to trust.
    file: Option<PathBuf>,
    /// Why the cache is not used, when it is not.
    pub untrusted: Option<String>,
    build: String,
    /// Nanoseconds since the epoch, when the run started, less [`RACY`].
    trust_before: i64,
    /// The last run's cache file, read whole; entries are parsed only
    /// when their file is looked up.
    text: String,
    /// Each key's line in `text` (without the key and its tab).
    index: HashMap<String, Range<usize>>,
}

/// What the cache knows about one file.
pub enum Lookup {
    /// Unchanged since it was found clean: its entry, and its line.
    Clean(CachedFile, Range<usize>),
    /// Not known (or changed): its bytes must be read. When they hash to
    /// the entry's, the file is still clean.
    Read {
        stat: Option<Stat>,
        entry: Option<CachedFile>,
    },
}

impl Cache {
    /// The cache for a run over `root` with `options`, in its
    /// [`location`]. An unreadable or stale cache file counts as empty; an
    /// untrusted cache directory is neither read nor written.
    pub fn open(root: &Path, options: &Options) -> Cache {
        let dir = cache_location(root).and_then(|dir| {
            trusted(dir.parent().unwrap_or(&dir))?;
            trusted(&dir)?;
            Ok(dir)
        });
        match dir {
            Ok(dir) => Cache::open_in(root, options, Some(dir), None),
            Err(reason) => Cache::open_in(root, options, None, Some(reason.to_string())),
        }
    }

    fn open_in(
        root: &Path,
        options: &Options,
        dir: Option<PathBuf>,
        untrusted: Option<String>,
    ) -> Cache {
        let started = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .unwrap_or_default();
        let trust_before = i64::try_from(started.saturating_sub(RACY).as_nanos()).unwrap_or(0);
        let options_key = hex_digest(&Sha256::digest(format!("{options:?}").as_bytes()));
        let file = dir.map(|d| d.join(format!("results-{}.txt", &options_key[..16])));
        let build = build_id();
        let header = format!("urldb-cache {FORMAT} {build}\n");
        let text = file
            .as_deref()
            .filter(|f| std::fs::symlink_metadata(f).is_ok_and(|m| m.is_file()))
            .and_then(|f| crate::read::read_limited(f, 1 << 30, None).ok())
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .filter(|t| t.starts_with(&header))
            .unwrap_or_default();
        let mut index = HashMap::default();
        let mut at = header.len().min(text.len());
        for line in text[at..].split_inclusive('\n') {
            if let Some((key, _)) = line.split_once('\t') {
                let fields = at + key.len() + 1..at + line.len() - 1;
                index.insert(key.to_string(), fields);
            }
            at += line.len();
        }
        Cache {
            root: root.to_path_buf(),
            file,
            untrusted,
            build,
            trust_before,
            text,
            index,
        }
    }

    /// The key of a file: its path below the root. Files outside the root
    /// (named on the command line), and names the file format cannot hold,
    /// are not cached.
    pub fn key(&self, path: &Path) -> Option<String> {
        let rel = path.strip_prefix(&self.root).ok()?;
        let parts: Option<Vec<&str>> = rel
            .components()
            .map(|c| match c {
                std::path::Component::Normal(s) => s.to_str(),
                _ => None,
            })
            .collect();
        Some(parts?.join("/")).filter(|k| !k.contains(['\t', '\n', '\r']))
    }

    pub fn lookup(&self, key: &str, path: &Path) -> Lookup {
        let stat = Stat::of(path);
        let known = self.index.get(key).and_then(|range| {
            let entry = CachedFile::parse(self.text.get(range.clone())?)?;
            Some((entry, range.clone()))
        });
        match known {
            Some((entry, range)) if stat.is_some() && entry.stat == stat => {
                Lookup::Clean(entry, range)
            }
            known => Lookup::Read {
                stat,
                entry: known.map(|(entry, _)| entry),
            },
        }
    }

    /// The entry for a clean file just read (`hash`: its
    /// [`content_hash`]): its metadata is kept only if it can be trusted
    /// next time.
    pub fn entry(
        &self,
        hash: String,
        stat: Option<Stat>,
        cnames: Vec<(String, Span)>,
    ) -> CachedFile {
        CachedFile {
            hash,
            // Windows has no change time that std reads, nor an inode: a
            // file rewritten with its size and modification time kept
            // would pass as unchanged, so there every file is hashed.
            stat: stat.filter(|s| cfg!(unix) && !s.changed_after(self.trust_before)),
            cnames,
        }
    }

    /// Write the entries this run keeps, with the last run's entries for
    /// files it did not look at. `all`: the run saw every file, so the
    /// entries of files that are gone are dropped. Nothing is written when
    /// nothing changed (the common case of an unchanged database).
    pub fn save(self, kept: Vec<(String, Kept)>, looked_at: &[String], all: bool) {
        let Some(file) = &self.file else {
            return;
        };
        let unchanged = kept.iter().all(|(_, k)| matches!(k, Kept::Line(_)))
            && if all {
                kept.len() == self.index.len()
            } else {
                looked_at
                    .iter()
                    .filter(|k| self.index.contains_key(k.as_str()))
                    .count()
                    == kept.len()
            };
        if unchanged {
            return;
        }
        let mut lines: Vec<(String, String)> = Vec::with_capacity(kept.len());
        let old_line = |key: &str, range: &Range<usize>| {
            self.text
                .get(range.clone())
                .map(|fields| format!("{key}\t{fields}\n"))
        };
        if !all {
            let seen: std::collections::HashSet<&str> =
                looked_at.iter().map(String::as_str).collect();
            for (key, range) in &self.index {
                if !seen.contains(key.as_str())
                    && let Some(line) = old_line(key, range)
                {
                    lines.push((key.clone(), line));
                }
            }
        }
        for (key, k) in kept {
            let line = match &k {
                Kept::Line(range) => old_line(&key, range),
                Kept::New(entry) => Some(entry.line(&key)),
            };
            if let Some(line) = line {
                lines.push((key, line));
            }
        }
        lines.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let mut out = format!("urldb-cache {FORMAT} {}\n", self.build);
        for (_, line) in &lines {
            out.push_str(line);
        }
        // Advisory: a cache that cannot be written only costs time.
        let _ = write_cache(file, out.as_bytes());
    }
}

/// The SHA-256 of a file's bytes, in hex.
pub(crate) fn content_hash(raw: &[u8]) -> String {
    hex_digest(&Sha256::digest(raw))
}

/// The urldb version and the executable's size and time: a rebuilt urldb
/// (even of the same version) may judge files differently.
fn build_id() -> String {
    let exe = std::env::current_exe()
        .ok()
        .and_then(|p| Stat::of(&p))
        .map_or(String::new(), |s| format!("{}-{}", s.len, s.mtime_ns));
    format!("{}-{exe}", env!("CARGO_PKG_VERSION"))
}

fn write_cache(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path.parent().unwrap_or(Path::new("."));
    prepare(dir).map_err(std::io::Error::other)?;
    let tag = dir.join("CACHEDIR.TAG");
    if std::fs::symlink_metadata(&tag).is_err() {
        // Written by the same protocol as the results (never through a
        // link): a temporary file renamed into place.
        let mut tmp = tempfile::Builder::new().prefix(".tag-").tempfile_in(dir)?;
        tmp.write_all(
            "Signature: 8a477f597d28d172789f06886806bc55\n\
             # This file is a cache directory tag created by urldb.\n\
             # For information about cache directory tags, see https://bford.info/cachedir/\n"
                .as_bytes(),
        )?;
        tmp.persist(&tag).map_err(|e| e.error)?;
    }
    let mut tmp = tempfile::Builder::new()
        .prefix(".results-")
        .suffix(".tmp")
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cache(root: &Path) -> Cache {
        Cache::open(root, &Options::default())
    }

    #[test]
    fn metadata_of_a_file_changed_just_before_the_run_is_not_kept() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("a.yaml");
        std::fs::write(&path, "---\n").expect("write");
        let c = cache(dir.path());
        let stat = Stat::of(&path);
        assert!(stat.is_some());
        assert_eq!(c.entry(content_hash(b"---\n"), stat, Vec::new()).stat, None);
        let old = Stat {
            len: 4,
            mtime_ns: 1,
            ctime_ns: 1,
            ino: 7,
        };
        // Old metadata is kept on Unix; on Windows never (no change time).
        let kept = cfg!(unix).then_some(old);
        assert_eq!(
            c.entry(content_hash(b"---\n"), Some(old), Vec::new()).stat,
            kept
        );
    }

    #[test]
    fn keys_are_paths_below_the_root() {
        let c = cache(Path::new("db"));
        assert_eq!(c.key(Path::new("db/a/b.yaml")).as_deref(), Some("a/b.yaml"));
        assert_eq!(c.key(Path::new("other/b.yaml")), None);
        assert_eq!(c.key(Path::new("db/../db/b.yaml")), None);
    }

    #[test]
    fn content_hash_is_sha256_in_lowercase_hex() {
        assert_eq!(
            content_hash(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(hex_digest(&[0x00, 0x0a, 0xff]), "000aff");
    }
}
