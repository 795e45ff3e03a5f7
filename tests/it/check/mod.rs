//! `urldb check` (and what it shares with `fmt`): the command line, the
//! cache, configuration (and which one governs each file), git selection,
//! the rules and their fixtures, the output formats, and bad input.

mod bare_run;
mod cache;
mod cli;
mod config;
mod corpus;
mod corpus_mutations;
mod fast_path;
mod git;
mod git_line_endings;
mod governing;
mod media_type;
mod membership;
mod memory;
mod output_errors;
mod parts;
mod robustness;
mod rules;
mod sarif;
mod suppressions;
mod windows_names;
