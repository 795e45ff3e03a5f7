//! Other formats for the database's records (`docs/urls.md`): the
//! URI-Catalogue format ([`uri_catalogue`], both ways), a plain
//! URL list ([`urls`], both ways), and JSON and CSV ([`json`], [`csv`],
//! export only; they carry every field).

mod csv;
mod json;
mod uri_catalogue;
mod urls;

pub use csv::write_csv;
pub use json::write_json;
pub use uri_catalogue::{CatalogueEntry, Written, catalogue_date, read_catalogue, write_catalogue};
pub use urls::{read_urls, write_urls};

/// A problem with one record of an imported file, by line (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineProblem {
    pub line: usize,
    pub message: String,
    /// The record was skipped (else only a field was dropped).
    pub skipped: bool,
}
