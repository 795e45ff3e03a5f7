//! `--format human` (the default): one `FILE:LINE: URL: reason` line per
//! broken or blocked URL, then the summary; and the `error:` lines of the
//! problems that kept a file or record from being verified.

use std::io::{self, Write};

use super::{plural, trend_note};
use crate::plan::Problem;
use crate::results::{ProblemEntry, Results, Summary, UrlResult};
use urldb_core::source::shown_path;
use urldb_core::text::{escape, path_text};

/// Every line of a human report: broken URLs, then the summary (unless
/// `quiet`).
pub fn write_human(out: &mut dyn Write, results: &Results, quiet: bool) -> io::Result<()> {
    for r in &results.results {
        line(out, r)?;
    }
    if !quiet {
        summary(out, &results.summary, results.has_history())?;
    }
    Ok(())
}

/// `--host-stats`: one line per origin requested, the busiest first
/// (`docs/verify.md`, "Pacing").
pub fn write_host_stats(out: &mut dyn Write, results: &Results) -> io::Result<()> {
    let mut hosts: Vec<_> = results.hosts.iter().collect();
    hosts.sort_by(|a, b| b.requests.cmp(&a.requests).then(a.origin.cmp(&b.origin)));
    for h in hosts {
        let median = h
            .median_ms
            .map_or(String::new(), |m| format!(", median {m} ms"));
        let capped = match h.crawl_delay_capped_ms {
            Some(ms) => format!(
                " (its Crawl-delay of {} s capped at {} s)",
                ms as f64 / 1000.0,
                crate::pace::MAX_CRAWL_DELAY.as_secs()
            ),
            None => String::new(),
        };
        writeln!(
            out,
            "host {}: {} request{}{median}, {} × 429, {} × 5xx, {} skipped by robots.txt, interval {} ms{capped}",
            escape(&h.origin),
            h.requests,
            if h.requests == 1 { "" } else { "s" },
            h.too_many,
            h.server_errors,
            h.skipped_robots,
            h.interval_ms
        )?;
    }
    Ok(())
}

/// `FILE:LINE: URL: reason`, one line per broken URL. The URL and the
/// reason (which may quote what a server sent) are escaped
/// ([`urldb_core::text::escape`]); a newly broken URL is marked when the
/// history says so.
fn line(out: &mut dyn Write, r: &UrlResult) -> io::Result<()> {
    if r.is_broken() || r.is_blocked() {
        writeln!(
            out,
            "{}:{}: {}: {}{}",
            path_text(&r.file),
            r.line,
            escape(&r.url),
            escape(&r.reason_and_found("broken")),
            trend_note(r)
        )?;
    }
    Ok(())
}

/// A problem that kept a file or record from being verified.
pub fn problem_line(problem: &Problem) -> String {
    match problem.line {
        Some(line) => format!(
            "error: {}:{line}: {}",
            shown_path(&problem.file),
            escape(&problem.problem.to_string())
        ),
        None => format!(
            "error: {}: {}",
            shown_path(&problem.file),
            escape(&problem.problem.to_string())
        ),
    }
}

/// A problem of a results file (`urldb report`), as [`problem_line`].
pub fn problem_entry_line(p: &ProblemEntry) -> String {
    match p.line {
        Some(line) => format!(
            "error: {}:{line}: {}",
            path_text(&p.file),
            escape(&p.message)
        ),
        None => format!("error: {}: {}", path_text(&p.file), escape(&p.message)),
    }
}

/// The closing lines of a human report.
fn summary(out: &mut dyn Write, s: &Summary, history: bool) -> io::Result<()> {
    let mut extra = vec![format!("{} ok", s.ok)];
    if s.accepted > 0 {
        extra.push(format!(
            "{} of them by a status urldb.toml accepts",
            s.accepted
        ));
    }
    if s.blocked > 0 {
        extra.push(format!("{} blocked by a bot wall", s.blocked));
    }
    if s.skipped > 0 {
        extra.push(format!(
            "{} skipped by urldb.toml or skip-verify",
            s.skipped
        ));
    }
    if s.fresh > 0 {
        extra.push(format!(
            "{} skipped as fresh (passed within --max-age)",
            s.fresh
        ));
    }
    if history {
        extra.push(format!("{} newly broken", s.new));
        if s.flaky > 0 {
            extra.push(format!("{} flaky", s.flaky));
        }
    }
    if s.not_checked > 0 {
        extra.push(format!(
            "{} not checked (see each one's reason)",
            s.not_checked
        ));
    }
    if s.skipped_robots > 0 {
        extra.push(format!("{} skipped by robots.txt", s.skipped_robots));
    }
    if s.skipped_deprecated > 0 {
        extra.push(format!(
            "{} deprecated record{} not checked",
            s.skipped_deprecated,
            plural(s.skipped_deprecated)
        ));
    }
    let secs = s.elapsed.as_secs_f64();
    if s.broken == 0 {
        writeln!(
            out,
            "{} ({}) in {secs:.2} s.",
            super::none_broken(s),
            extra.join(", ")
        )?;
    } else {
        writeln!(
            out,
            "{} of {} URL{} broken ({}) in {secs:.2} s.",
            s.broken,
            s.urls,
            plural(s.urls),
            extra.join(", ")
        )?;
    }
    if s.private > 0 {
        writeln!(
            out,
            "note: {} URL{} resolved only to loopback, private, link-local or metadata addresses and {} not fetched; --allow-private fetches them",
            s.private,
            plural(s.private),
            if s.private == 1 { "was" } else { "were" }
        )?;
    }
    Ok(())
}
