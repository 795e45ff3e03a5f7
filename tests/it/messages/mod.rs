//! What urldb says when something is wrong or asked, as a newcomer meets
//! it: every error names its subject once (`subjects`), advice a person can
//! follow (`advice`), help and manual pages that offer only what acts
//! (`help`), every command a message suggests exists and every option it
//! offers is taken (`hints`), and the mistakes a user makes past the first
//! hour fail loudly with a way out that works (`mistakes`).

mod advice;
mod help;
mod hints;
mod mistakes;
// Makes a symbolic link: run where the whole suite runs.
#[cfg(unix)]
mod subjects;
