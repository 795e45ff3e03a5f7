//! Hostile databases against the file system and the output layer (what
//! `verify` requests is in `verify::hostile_verdicts`).

mod booleans;
mod check_gate;
// Symbolic links and a Linux git set-up: run where the whole suite runs.
#[cfg(unix)]
mod config_from;
mod cross_file;
mod gate;
mod io;
#[cfg(unix)]
mod linked_config;
#[cfg(unix)]
mod links;
mod markdown_budgets;
mod one_host;
mod output;
mod reader;
mod runner_commands;
mod tab_outside_check;
#[cfg(unix)]
mod terminal;
