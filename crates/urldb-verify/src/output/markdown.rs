//! `--format markdown`: a summary for a CI job page (GitHub's
//! `$GITHUB_STEP_SUMMARY`): the counts, then each broken URL with its
//! reason and record, newly broken ones first when a history says which.
//!
//! Every text that comes from the database or a server is shown as a code
//! span ([`urldb_output::markdown_code`]), the one Markdown construct whose content is never
//! read as Markdown or HTML: a hostile URL cannot forge a link, a table
//! row, an image, emphasis or a tag. (GitHub Flavored Markdown spec,
//! "Code spans".) Numbers and urldb's own words are the only text outside
//! code spans.

use std::fmt::{self, Write as _};
use std::io::{self, Write};

use super::plural;
use crate::results::{Results, UrlResult};
use urldb_output::SUMMARY_LIMIT_MIN;
use urldb_output::gate::{Syntax, written_len};
use urldb_output::markdown_code as code;

/// The broken URLs listed at most; the rest are counted.
const MAX_LISTED: usize = 1000;

/// Room kept for what follows a list (later headings, "and N more" lines).
const RESERVE: usize = 2048;

/// The whole summary, in at most `limit` bytes (at least
/// [`SUMMARY_LIMIT_MIN`]): lists are cut where the next entry would not fit
/// and say how many were left out.
pub fn write_markdown(out: &mut dyn Write, results: &Results, limit: usize) -> io::Result<()> {
    let mut doc = String::new();
    summary(&mut doc, results, limit.max(SUMMARY_LIMIT_MIN)).map_err(io::Error::other)?;
    out.write_all(doc.as_bytes())
}

fn summary(out: &mut String, results: &Results, limit: usize) -> fmt::Result {
    let s = &results.summary;
    let history = results.has_history();
    writeln!(out, "## urldb verify")?;
    writeln!(out)?;
    if s.broken == 0 {
        writeln!(out, "{}.", super::none_broken(s))?;
    } else if history {
        writeln!(
            out,
            "**{} of {} URL{} broken**, {} newly broken.",
            s.broken,
            s.urls,
            plural(s.urls),
            s.new
        )?;
    } else {
        writeln!(
            out,
            "**{} of {} URL{} broken.**",
            s.broken,
            s.urls,
            plural(s.urls)
        )?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "| URLs | ok | broken | new | flaky | blocked | accepted | skipped | skipped (robots) | fresh | deprecated, not checked | problems |"
    )?;
    writeln!(
        out,
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    )?;
    let dash = |n: usize| {
        if history {
            n.to_string()
        } else {
            "–".to_string()
        }
    };
    writeln!(
        out,
        "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
        s.urls,
        s.ok,
        s.broken,
        dash(s.new),
        dash(s.flaky),
        s.blocked,
        s.accepted,
        s.skipped,
        s.skipped_robots,
        s.fresh,
        s.skipped_deprecated,
        s.problems
    )?;
    let shards: Vec<String> = results
        .runs
        .iter()
        .filter_map(|r| r.shard.map(|s| s.to_string()))
        .collect();
    if !shards.is_empty() {
        writeln!(out)?;
        writeln!(out, "Shards: {}.", shards.join(", "))?;
    }
    let broken: Vec<&UrlResult> = results.results.iter().filter(|r| r.is_broken()).collect();
    if history {
        let (new, old): (Vec<&UrlResult>, Vec<&UrlResult>) = broken
            .iter()
            .partition(|r| r.history.as_ref().is_some_and(|h| h.is_new()));
        section(out, limit, "Newly broken", &new)?;
        section(out, limit, "Still broken", &old)?;
        let flaky: Vec<&UrlResult> = results
            .results
            .iter()
            .filter(|r| !r.is_broken() && r.history.as_ref().is_some_and(|h| h.flaky))
            .collect();
        section(out, limit, "Flaky (passing now, failed recently)", &flaky)?;
    } else {
        section(out, limit, "Broken", &broken)?;
    }
    let blocked: Vec<&UrlResult> = results.results.iter().filter(|r| r.is_blocked()).collect();
    section(
        out,
        limit,
        "Blocked by a bot wall (not counted as broken)",
        &blocked,
    )?;
    if !results.problems.is_empty() {
        writeln!(out)?;
        writeln!(out, "### Not verified")?;
        writeln!(out)?;
        let lines = results.problems.iter().map(|p| {
            let at = match p.line {
                Some(line) => format!("{}:{line}", p.file),
                None => p.file.clone(),
            };
            format!("- {} {}\n", code(&at), code(&p.message))
        });
        list(out, limit, results.problems.len(), lines)?;
    }
    hosts(out, results, limit)
}

/// Each origin's figures, the busiest first (`docs/verify.md`, "Pacing").
fn hosts(out: &mut String, results: &Results, limit: usize) -> fmt::Result {
    if results.hosts.is_empty() {
        return Ok(());
    }
    let mut hosts: Vec<_> = results.hosts.iter().collect();
    hosts.sort_by(|a, b| b.requests.cmp(&a.requests).then(a.origin.cmp(&b.origin)));
    writeln!(out)?;
    writeln!(out, "### Hosts ({})", hosts.len())?;
    writeln!(out)?;
    writeln!(
        out,
        "| host | requests | median ms | 429 | 5xx | skipped (robots) | interval ms |"
    )?;
    writeln!(out, "|---|---:|---:|---:|---:|---:|---:|")?;
    let lines = hosts.iter().map(|h| {
        let capped = match h.crawl_delay_capped_ms {
            Some(ms) => format!(" (Crawl-delay {ms} capped)"),
            None => String::new(),
        };
        format!(
            "| {} | {} | {} | {} | {} | {} | {}{capped} |\n",
            code(&h.origin),
            h.requests,
            h.median_ms.map_or("–".to_string(), |m| m.to_string()),
            h.too_many,
            h.server_errors,
            h.skipped_robots,
            h.interval_ms
        )
    });
    let mut shown = 0;
    for line in lines.take(MAX_LISTED) {
        if out.len() + line.len() + RESERVE > limit {
            break;
        }
        out.push_str(&line);
        shown += 1;
    }
    if shown < hosts.len() {
        writeln!(out)?;
        writeln!(
            out,
            "{} more host{} not shown.",
            hosts.len() - shown,
            plural(hosts.len() - shown)
        )?;
    }
    Ok(())
}

fn section(out: &mut String, limit: usize, title: &str, results: &[&UrlResult]) -> fmt::Result {
    if results.is_empty() {
        return Ok(());
    }
    writeln!(out)?;
    writeln!(out, "### {title} ({})", results.len())?;
    writeln!(out)?;
    let lines = results.iter().map(|r| {
        let flaky = if r.is_broken() && r.history.as_ref().is_some_and(|h| h.flaky) {
            " (flaky)"
        } else {
            ""
        };
        let found = r
            .found()
            .map(|f| format!(" → {}", code(&f)))
            .unwrap_or_default();
        format!(
            "- {} {}{flaky} at {}{found}\n",
            code(&r.url),
            code(r.reason.as_deref().unwrap_or("ok")),
            code(&format!("{}:{}", r.file, r.line))
        )
    });
    list(out, limit, results.len(), lines)
}

/// The first lines of a list of `len` that fit: at most [`MAX_LISTED`],
/// and none that would take the summary past `limit` less [`RESERVE`];
/// then how many were left out. Measured as the output gate writes them
/// (a `##[` in a URL is three bytes more on standard output), since the
/// limit is on what reaches the job summary.
fn list(
    out: &mut String,
    limit: usize,
    len: usize,
    lines: impl Iterator<Item = String>,
) -> fmt::Result {
    let mut shown = 0;
    let mut written = written_len(out, Syntax::Text);
    for line in lines.take(MAX_LISTED) {
        let more = written_len(&line, Syntax::Text);
        if written + more + RESERVE > limit {
            break;
        }
        out.push_str(&line);
        written += more;
        shown += 1;
    }
    if shown < len {
        writeln!(out, "- … and {} more", len - shown)?;
    }
    Ok(())
}
