//! `urldb verify` and `urldb report`: outcomes against a local server, the
//! CI matrix, the HTML page, and hostile databases.

mod budgets;
mod exceptions;
mod hostile_verdicts;
mod html;
mod matrix;
pub(crate) mod outcomes;
mod trust;
