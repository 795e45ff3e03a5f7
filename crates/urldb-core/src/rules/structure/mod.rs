//! Structure: a metadata document, then records, each a mapping with `_path` and `content-type`.
//!
//! One rule a file: its documentation (the file's `//!` comment), its
//! `RULE` and its check. The catalogue is `rules::ALL`.

pub(crate) mod empty_file;
pub(crate) mod metadata_not_mapping;
pub(crate) mod missing_content_type;
pub(crate) mod missing_path;
pub(crate) mod record_not_mapping;
