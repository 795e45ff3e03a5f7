//! `urldb merge` and `urldb merge-driver`: the merge by records
//! (`properties`: random files and edit sets against a model of the
//! merge; `git`: the driver in real repositories; `cli`: `urldb merge`,
//! labels, marker size, the line merge it falls back to, and `check` on
//! a merge left unresolved).

mod cli;
mod git;
mod properties;
