//! Other formats for the database's records (`docs/urls.md`): the
//! URI-Catalogue format ([`uri_catalogue`], both ways), a plain
//! URL list ([`urls`], both ways), and JSON and CSV ([`json`], [`csv`],
//! export only; they carry every field).

pub mod csv;
pub mod json;
pub mod uri_catalogue;
pub mod urls;

/// A problem with one record of an imported file, by line (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineProblem {
    pub line: usize,
    pub message: String,
    /// The record was skipped (else only a field was dropped).
    pub skipped: bool,
}
