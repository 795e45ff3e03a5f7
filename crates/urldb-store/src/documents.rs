//! Reading a domain file's documents for listing and editing (not for
//! `check`, which reads every byte through the rules): the whole file, or
//! only its metadata document, which is all that finding a host needs.

use std::io::{BufRead, BufReader};
use std::path::Path;

use urldb_core::model::node::Document;

use crate::read::{ReadError, Root};

/// Why a domain file's documents could not be read.
#[derive(Debug, thiserror::Error)]
pub enum DocumentError {
    #[error(transparent)]
    Read(#[from] ReadError),
    #[error("too large ({size} bytes; see `max-file-size`)")]
    TooLarge { size: u64 },
    #[error("metadata document larger than 1 MiB")]
    MetadataTooLarge,
    #[error("not UTF-8 text; run `urldb check`")]
    NotUtf8,
    #[error("cannot be read (YAML syntax error); run `urldb check`")]
    Syntax,
    #[error("cannot read its metadata; run `urldb check`")]
    BadMetadata,
}

/// The documents of a file's metadata, read from its first lines only.
pub(crate) fn read_metadata(root: &Root, path: &Path) -> Result<Vec<Document>, DocumentError> {
    let (file, _) = crate::read::open_regular(path, Some(root))?;
    let mut reader = BufReader::new(file);
    let mut head: Vec<u8> = Vec::new();
    let mut markers = 0;
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = reader.read_until(b'\n', &mut line).map_err(ReadError::Io)?;
        if n == 0 {
            break;
        }
        let body = urldb_core::parse::without_bom_bytes(&line);
        let is_marker =
            body.starts_with(b"---") && body.get(3).is_none_or(|b| b.is_ascii_whitespace());
        if is_marker {
            markers += 1;
            if markers == 2 {
                break;
            }
        }
        head.extend_from_slice(&line);
        // Metadata is a few lines; a file whose first document is huge is
        // not a domain file worth reading further for its host names.
        if head.len() > 1 << 20 {
            return Err(DocumentError::MetadataTooLarge);
        }
    }
    let reading = urldb_core::parse::read_bytes(&head).map_err(|why| match why {
        urldb_core::parse::Unreadable::NotUtf8 => DocumentError::NotUtf8,
        urldb_core::parse::Unreadable::Refused => DocumentError::BadMetadata,
    })?;
    if !reading.tree.problems.is_empty() {
        return Err(DocumentError::BadMetadata);
    }
    Ok(reading.tree.documents)
}

/// The text of a domain file (without a BOM) and its documents.
pub(crate) fn read_text_and_documents(
    root: &Root,
    file: &Path,
    max_size: u64,
) -> Result<(String, Vec<Document>), DocumentError> {
    let raw = match crate::read::read_limited(file, max_size, Some(root)) {
        Ok(raw) => raw,
        Err(ReadError::TooLarge { size }) => return Err(DocumentError::TooLarge { size }),
        Err(e) => return Err(e.into()),
    };
    let reading = urldb_core::parse::read_bytes(&raw).map_err(|why| match why {
        urldb_core::parse::Unreadable::NotUtf8 => DocumentError::NotUtf8,
        urldb_core::parse::Unreadable::Refused => DocumentError::Syntax,
    })?;
    Ok((reading.text.to_string(), reading.tree.documents))
}
