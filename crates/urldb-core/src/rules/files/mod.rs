//! Files: the file's name, its canonical layout, its suppression comments.
//!
//! One rule a file: its documentation (the file's `//!` comment), its
//! `RULE` and its check. The catalogue is `rules::ALL`.

pub(crate) mod not_canonical;
pub(crate) mod unused_suppression;
pub(crate) mod windows_reserved_name;
pub(crate) mod wrong_extension;
