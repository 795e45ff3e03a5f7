//! Records: their order and keys, and each value but `_path`'s.
//!
//! One rule a file: its documentation (the file's `//!` comment), its
//! `RULE` and its check. The catalogue is `rules::ALL`.

pub(crate) mod content_type_case;
pub(crate) mod duplicate_category;
pub(crate) mod duplicate_path;
pub(crate) mod empty_categories;
pub(crate) mod empty_category;
pub(crate) mod equivalent_paths;
pub(crate) mod incomplete_static;
pub(crate) mod invalid_categories;
pub(crate) mod invalid_content_length;
pub(crate) mod invalid_content_type;
pub(crate) mod invalid_sha256;
pub(crate) mod sha256_case;
pub(crate) mod suspicious_key;
pub(crate) mod unknown_category;
pub(crate) mod unsorted_categories;
pub(crate) mod unsorted_keys;
pub(crate) mod unsorted_records;
