//! The input of `--format html` ([`HtmlPage`]) filled from a verify run's
//! results; [`super::html`] draws it.

use super::html::{self, HtmlPage, HtmlRow};
use super::human::problem_entry_line;
use crate::results::{Results, Verdict};
use crate::trend::Class;

/// The HTML page's input: every URL in the results' order, with its
/// trend and the runs' counts when the results carry a history.
pub fn html_page(results: &Results) -> HtmlPage {
    let rows = results
        .results
        .iter()
        .map(|r| HtmlRow {
            url: r.url.clone(),
            file: r.file.clone(),
            line: r.line,
            status: r.status,
            verdict: if r.is_not_checked() {
                html::PageVerdict::NotChecked
            } else if r.is_accepted() {
                html::PageVerdict::Accepted
            } else if r.is_skipped_by_choice() {
                html::PageVerdict::Excluded
            } else {
                html_verdict(r.outcome)
            },
            kind: r.kind.clone(),
            reason: r.reason_and_found(""),
            elapsed: std::time::Duration::from_millis(r.ms),
            recent: r.history.as_ref().map_or_else(Vec::new, |t| {
                t.recent.iter().map(|&v| html_verdict(v)).collect()
            }),
            // Flaky wins: a URL passing now may still be one to watch.
            trend: r.history.as_ref().and_then(|t| match t.class {
                _ if t.flaky => Some(html::PageTrend::Flaky),
                Class::New => Some(html::PageTrend::New),
                Class::Persistent => Some(html::PageTrend::Persistent),
                Class::Passing | Class::Skipped | Class::Blocked => None,
            }),
        })
        .collect();
    HtmlPage {
        counts: results.summary,
        rows,
        runs: results.history.clone(),
        problems: results.problems.iter().map(problem_entry_line).collect(),
    }
}

/// A verdict, as the page marks it.
fn html_verdict(v: Verdict) -> html::PageVerdict {
    match v {
        Verdict::Ok => html::PageVerdict::Ok,
        Verdict::Broken => html::PageVerdict::Broken,
        Verdict::Skipped => html::PageVerdict::Skipped,
        Verdict::Blocked => html::PageVerdict::Blocked,
    }
}
