//! The results of a verify run for people and machines, one file per
//! format as `check`'s (`src/output/`): [`human`], [`json`], [`junit`],
//! [`github`], [`markdown`] and the page of [`html`] (its input filled by
//! [`html_page()`]). Writers take any `Write`; only the command decides
//! where output goes.

pub mod github;
pub mod html;
mod html_page;
pub mod human;
pub mod json;
pub mod junit;
pub mod markdown;

pub use html_page::html_page;

use crate::results::UrlResult;

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// ` (new)`, ` (flaky)`: what the history says of a broken URL.
fn trend_note(r: &UrlResult) -> &'static str {
    match &r.history {
        Some(t) if t.is_new() && t.flaky => " (new, flaky)",
        Some(t) if t.is_new() => " (new)",
        Some(t) if t.flaky => " (flaky)",
        _ => "",
    }
}
