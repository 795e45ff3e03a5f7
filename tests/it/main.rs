//! Every integration test in one binary (as ripgrep does): the support
//! code compiles once and the suite links once. One module per area.

mod support;

mod action;
mod add;
mod cache;
mod catalogue_round_trip;
mod cli;
mod coming_from;
mod comments;
mod config;
mod corpus;
mod corpus_mutations;
mod docs;
mod fast_path;
mod faults;
mod generator;
mod git;
mod hostile_io;
mod hostile_output;
mod hostile_verdicts;
mod html;
mod interchange;
mod layers;
mod media_type;
mod output_errors;
mod path_equivalence;
mod pre_commit;
mod properties;
mod pyyaml_differential;
mod pyyaml_style;
mod readme;
mod robustness;
mod rules;
mod sarif;
mod schema;
mod server;
mod url_differential;
mod urls;
mod verify;
mod verify_matrix;
