//! The results of a verify run for people (`human`), machines (`json`), CI
//! test views (`junit`), pull-request annotations (`github`) and the input
//! of the HTML page ([`html_page`], drawn by [`super::html`]). Writers take
//! any `Write`; only the command decides where output goes.

use std::io::{self, Write};

use super::html::{self, HtmlPage, HtmlRow};
use super::plan::Problem;
use super::results::{ProblemEntry, Results, UrlResult, Verdict};
use super::trend::Class;
use urldb_core::source::shown_path;
use urldb_core::text::xml;
use urldb_core::text::{escape, path_text};

pub use super::results::Summary;

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// `FILE:LINE: URL: reason`, one line per broken URL. The URL and the
/// reason (which may quote what a server sent) are escaped
/// ([`urldb_core::text::escape`]); a newly broken URL is marked when the
/// history says so.
pub(crate) fn human_line(out: &mut dyn Write, r: &UrlResult) -> io::Result<()> {
    if r.is_broken() || r.is_blocked() {
        writeln!(
            out,
            "{}:{}: {}: {}{}",
            path_text(&r.file),
            r.line,
            escape(&r.url),
            escape(r.reason.as_deref().unwrap_or("broken")),
            trend_note(r)
        )?;
    }
    Ok(())
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

/// Every line of a human report: broken URLs, then the summary (unless
/// `quiet`).
pub fn human(out: &mut dyn Write, results: &Results, quiet: bool) -> io::Result<()> {
    for r in &results.results {
        human_line(out, r)?;
    }
    if !quiet {
        human_summary(out, &results.summary, results.has_history())?;
    }
    Ok(())
}

/// A problem that kept a file or record from being verified.
pub fn problem_line(problem: &Problem) -> String {
    match problem.line {
        Some(line) => format!(
            "error: {}:{line}: {}",
            shown_path(&problem.file),
            escape(&problem.message)
        ),
        None => format!(
            "error: {}: {}",
            shown_path(&problem.file),
            escape(&problem.message)
        ),
    }
}

/// The closing lines of a human report.
pub(crate) fn human_summary(out: &mut dyn Write, s: &Summary, history: bool) -> io::Result<()> {
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
            "All {} URL{} passed ({}) in {secs:.2} s.",
            s.urls,
            plural(s.urls),
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

/// One JSON document: the [`Results`] model itself (what `urldb report`
/// reads back).
pub fn json(out: &mut dyn Write, results: &Results) -> io::Result<()> {
    urldb_core::text::write_json_pretty(&mut *out, results)?;
    writeln!(out)
}

/// JUnit XML: one test suite, one test case per URL.
pub fn junit(out: &mut dyn Write, results: &Results) -> io::Result<()> {
    let summary = &results.summary;
    // Blocked URLs are neither failures nor passes: JUnit's `skipped`,
    // with a message that says which; the properties count each apart.
    let skipped = summary.skipped_robots + summary.skipped + summary.blocked;
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<testsuites name="urldb verify" tests="{}" failures="{}" skipped="{skipped}">"#,
        summary.urls, summary.broken
    )?;
    writeln!(
        out,
        r#"  <testsuite name="urldb verify" tests="{}" failures="{}" skipped="{skipped}" time="{:.3}">"#,
        summary.urls,
        summary.broken,
        summary.elapsed.as_secs_f64()
    )?;
    writeln!(out, "    <properties>")?;
    for (name, n) in [
        ("blocked", summary.blocked),
        ("accepted", summary.accepted),
        ("skipped", summary.skipped),
        ("skipped-robots", summary.skipped_robots),
        ("fresh", summary.fresh),
    ] {
        writeln!(out, r#"      <property name="{name}" value="{n}"/>"#)?;
    }
    writeln!(out, "    </properties>")?;
    for r in &results.results {
        write!(
            out,
            r#"    <testcase name="{}" classname="{}" file="{}" line="{}" time="{:.3}""#,
            xml(&r.url),
            xml(&r.file),
            xml(&r.file),
            r.line,
            r.ms as f64 / 1000.0
        )?;
        match r.outcome {
            Verdict::Ok if r.is_accepted() => {
                writeln!(out, ">")?;
                writeln!(
                    out,
                    r#"      <system-out>{}</system-out>"#,
                    xml(r.reason.as_deref().unwrap_or("accepted"))
                )?;
                writeln!(out, "    </testcase>")?;
            }
            Verdict::Ok => writeln!(out, "/>")?,
            Verdict::Skipped | Verdict::Blocked => {
                writeln!(out, ">")?;
                writeln!(
                    out,
                    r#"      <skipped type="{}" message="{}"/>"#,
                    xml(r.kind.as_deref().unwrap_or("skipped")),
                    xml(r.reason.as_deref().unwrap_or("skipped"))
                )?;
                writeln!(out, "    </testcase>")?;
            }
            Verdict::Broken => {
                let message = r.reason.as_deref().unwrap_or("broken");
                writeln!(out, ">")?;
                writeln!(
                    out,
                    r#"      <failure type="{}" message="{}">{}:{}: {}: {}</failure>"#,
                    xml(r.kind.as_deref().unwrap_or("broken")),
                    xml(message),
                    xml(&r.file),
                    r.line,
                    xml(&r.url),
                    xml(message)
                )?;
                writeln!(out, "    </testcase>")?;
            }
        }
    }
    writeln!(out, "  </testsuite>")?;
    writeln!(out, "</testsuites>")
}

/// GitHub Actions annotations: one `::error` per broken URL, on its record.
pub fn github<W: Write>(out: &mut urldb_core::gate::Gate<W>, results: &Results) -> io::Result<()> {
    use urldb_core::text::{github_data as data, github_property as property};
    for r in results.results.iter().filter(|r| r.is_broken()) {
        let kind = r.kind.as_deref().unwrap_or("broken");
        out.command(&format!(
            "::error file={},line={},title={}::{}",
            property(&escape(&r.file)),
            r.line,
            property(&escape(&format!("urldb verify ({kind}){}", trend_note(r)))),
            data(&escape(&format!(
                "{}: {}",
                r.url,
                r.reason.as_deref().unwrap_or("broken")
            )))
        ))?;
    }
    for r in results.results.iter().filter(|r| r.is_blocked()) {
        out.command(&format!(
            "::warning file={},line={},title={}::{}",
            property(&escape(&r.file)),
            r.line,
            property(&escape(&format!(
                "urldb verify (blocked: {})",
                r.kind.as_deref().unwrap_or("blocked")
            ))),
            data(&escape(&format!(
                "{}: {}",
                r.url,
                r.reason.as_deref().unwrap_or("blocked")
            )))
        ))?;
    }
    let s = &results.summary;
    if s.blocked + s.accepted + s.skipped + s.fresh > 0 {
        out.command(&format!(
            "::notice title=urldb verify::{} blocked, {} accepted, {} skipped, {} fresh",
            s.blocked, s.accepted, s.skipped, s.fresh
        ))?;
    }
    for p in &results.problems {
        let line = p.line.map(|l| format!(",line={l}")).unwrap_or_default();
        out.command(&format!(
            "::error file={}{line},title=urldb verify::{}",
            property(&escape(&p.file)),
            data(&escape(&p.message))
        ))?;
    }
    Ok(())
}

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
            reason: r.reason.clone().unwrap_or_default(),
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
