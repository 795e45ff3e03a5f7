//! Hostile databases against the file system and the output layer (what
//! `verify` requests is in `verify::hostile_verdicts`).

mod check_gate;
mod config_from;
mod gate;
mod io;
mod output;
mod runner_commands;
