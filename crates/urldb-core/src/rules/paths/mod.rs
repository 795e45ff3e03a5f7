//! Paths: what `_path` holds, and whether it is the URL the record names.
//!
//! One rule a file: its documentation (the file's `//!` comment), its
//! `RULE` and its check. The catalogue is `rules::ALL`.

pub(crate) mod path_bad_escape;
pub(crate) mod path_case;
pub(crate) mod path_dot_segment;
pub(crate) mod path_escape_case;
pub(crate) mod path_fragment;
pub(crate) mod path_invalid_char;
pub(crate) mod path_network_reference;
pub(crate) mod path_not_absolute;
pub(crate) mod path_unneeded_escape;
