//! Encoding and YAML: the bytes, the text and what PyYAML reads of them.
//!
//! One rule a file: its documentation (the file's `//!` comment), its
//! `RULE` and its check. The catalogue is `rules::ALL`.

pub(crate) mod bom;
pub(crate) mod duplicate_key;
pub(crate) mod file_too_large;
pub(crate) mod invalid_utf8;
pub(crate) mod missing_final_newline;
pub(crate) mod mixed_line_endings;
pub(crate) mod nesting_too_deep;
pub(crate) mod non_string_key;
pub(crate) mod too_many_documents;
pub(crate) mod trailing_whitespace;
pub(crate) mod unloadable_value;
pub(crate) mod yaml_alias;
pub(crate) mod yaml_comment;
pub(crate) mod yaml_syntax;
pub(crate) mod yaml_tag;
