//! The results of a verify run for people and machines, one file per
//! format as `check`'s (`src/output/`): [`write_human`], [`write_json`],
//! [`write_junit`], [`write_github`], [`write_markdown`] and the page of
//! [`render_html`] (its input filled by [`html_page()`]). Writers take any
//! `Write`; only the command decides where output goes.

mod github;
mod html;
mod html_page;
mod human;
mod json;
mod junit;
mod markdown;

pub use github::write_github;
pub use html::{HtmlPage, HtmlRow, PageTrend, PageVerdict, RunCount, Summary, render_html};
pub use html_page::html_page;
pub use human::{problem_entry_line, problem_line, write_host_stats, write_human};
pub use json::write_json;
pub use junit::write_junit;
pub use markdown::write_markdown;

use crate::results::{Summary as RunSummary, UrlResult};

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The verdict of a run with no broken URL, without a full stop: "All 3
/// URLs passed" only when every URL was requested; URLs that robots.txt
/// kept from being requested passed nothing, and a run that requested
/// none says so, so that a green job does not read as "checked".
fn none_broken(s: &RunSummary) -> String {
    let requested = s.urls - s.skipped_robots.min(s.urls);
    if requested == s.urls {
        format!("All {} URL{} passed", s.urls, plural(s.urls))
    } else if requested == 0 {
        format!(
            "None of the {} URL{} was requested: robots.txt disallows {}",
            s.urls,
            plural(s.urls),
            if s.urls == 1 { "it" } else { "each" }
        )
    } else {
        format!(
            "{requested} of {} URL{} passed, none broken, the others not requested",
            s.urls,
            plural(s.urls)
        )
    }
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
