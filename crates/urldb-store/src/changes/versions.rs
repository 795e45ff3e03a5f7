//! One side of a changed file, read and parsed: its documents, or why
//! they cannot be had. A side that cannot be read is said as such; its
//! records are never taken for removed or added.

use std::path::PathBuf;

use urldb_core::model::node::Document;

use super::sides::Source;
use crate::git::{GitError, Repository};
use crate::read::{ReadError, Root};

/// Why one side of a file cannot be compared record by record.
#[derive(Debug, thiserror::Error)]
pub enum Unreadable {
    #[error("too large ({size} bytes; see `max-file-size`)")]
    TooLarge { size: u64 },
    #[error("not UTF-8 text (`urldb check` says more)")]
    NotUtf8,
    #[error("does not parse as YAML (`urldb check` says more)")]
    Syntax,
    /// The file system refused it (a work-tree file).
    #[error(transparent)]
    Read(ReadError),
    /// git could not give it (an object a shallow clone lacks).
    #[error(transparent)]
    Git(GitError),
}

impl Unreadable {
    /// Not a problem of the text but of reading it: the run is incomplete
    /// (exit 2).
    pub fn is_error(&self) -> bool {
        matches!(self, Unreadable::Read(_) | Unreadable::Git(_))
    }
}

/// A side's text and documents.
#[derive(Debug)]
pub(crate) struct Parsed {
    /// The text without a byte order mark: lines are counted in it.
    pub text: String,
    pub documents: Vec<Document>,
}

/// One side of a file: where it is and what it holds.
#[derive(Debug)]
pub(crate) struct Version {
    /// The path urldb shows.
    pub path: PathBuf,
    /// Its domain: the file's name without `.yaml`.
    pub domain: String,
    /// Its blob, when it comes from git (the same id is the same text).
    pub blob: Option<gix::ObjectId>,
    /// The bytes as read, when they could be (what `verify` plans from,
    /// and says itself why it cannot).
    pub bytes: Option<Vec<u8>>,
    pub content: Result<Parsed, Unreadable>,
}

/// Read and parse one side of the file at `repo_path`.
pub(crate) fn read(
    repo: &Repository,
    root: &Root,
    repo_path: &str,
    source: &Source,
    max: u64,
) -> Version {
    let (path, bytes, blob) = match source {
        Source::Blob(id) => {
            let path = repo
                .user_path(repo_path)
                .unwrap_or_else(|| PathBuf::from(repo_path));
            let bytes = repo.blobs().read(*id, max).map_err(|e| match e {
                GitError::BlobTooLarge { size } => Unreadable::TooLarge { size },
                e => Unreadable::Git(e),
            });
            (path, bytes, Some(*id))
        }
        Source::File(file) => {
            let bytes = crate::read::read_limited(file, max, Some(root)).map_err(|e| match e {
                ReadError::TooLarge { size } => Unreadable::TooLarge { size },
                e => Unreadable::Read(e),
            });
            (file.clone(), bytes, None)
        }
    };
    let (bytes, content) = match bytes {
        Ok(bytes) => {
            let content = parse(&bytes);
            (Some(bytes), content)
        }
        Err(why) => (None, Err(why)),
    };
    Version {
        domain: urldb_core::rules::domain_of(&path),
        path,
        blob,
        bytes,
        content,
    }
}

/// The documents of a domain file's bytes, read through the reader's one
/// door ([`urldb_core::parse::read_bytes`]).
fn parse(bytes: &[u8]) -> Result<Parsed, Unreadable> {
    let reading = urldb_core::parse::read_bytes(bytes).map_err(|why| match why {
        urldb_core::parse::Unreadable::NotUtf8 => Unreadable::NotUtf8,
        urldb_core::parse::Unreadable::Refused => Unreadable::Syntax,
    })?;
    Ok(Parsed {
        documents: reading.tree.documents,
        text: reading.text.to_string(),
    })
}
