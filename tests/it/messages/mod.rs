//! What urldb says when something is wrong or asked, as a newcomer meets
//! it: every error names its subject once (`subjects`), advice a person can
//! follow (`advice`), help and manual pages that offer only what acts
//! (`help`), and every command a message suggests exists (`hints`).

mod advice;
mod help;
mod hints;
mod mistakes;
// Makes a symbolic link: run where the whole suite runs.
#[cfg(unix)]
mod subjects;
