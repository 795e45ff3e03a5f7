//! `urldb verify` and `urldb report`: outcomes against a local server, the
//! CI matrix, the HTML page, hostile databases, and what changed only
//! (`--since`, `--staged`).

mod archive;
mod budgets;
mod exceptions;
mod hostile_verdicts;
mod html;
mod maps;
mod matrix;
pub(crate) mod moves;
pub(crate) mod outcomes;
mod pacing;
mod robots;
mod shards;
mod since;
mod trust;
