//! Hostile databases against the file system and the output layer (what
//! `verify` requests is in `verify::hostile_verdicts`).

mod check_gate;
mod gate;
mod io;
mod output;
mod runner_commands;
