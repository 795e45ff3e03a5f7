//! Metadata: the file name as a host, `https`, `case-sensitive-paths`, `cnames`, and the hosts across files.
//!
//! One rule a file: its documentation (the file's `//!` comment), its
//! `RULE` and its check. The catalogue is `rules::ALL`.

pub(crate) mod cname_conflict;
pub(crate) mod cname_is_primary;
pub(crate) mod domain_conflict;
pub(crate) mod duplicate_cname;
pub(crate) mod invalid_boolean;
pub(crate) mod invalid_cname;
pub(crate) mod invalid_domain_name;
pub(crate) mod unknown_metadata_key;
pub(crate) mod unsorted_cnames;
