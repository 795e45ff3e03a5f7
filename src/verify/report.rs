//! The results of a verify run for people (`human`), machines (`json`), CI
//! test views (`junit`), pull-request annotations (`github`) and the input
//! of the HTML page ([`html_page`], drawn by [`super::html`]). Writers
//! take any `Write`; only the command decides where output goes.

use std::io::{self, Write};
use std::time::Duration;

use serde::Serialize;

use super::html::{Counts, HtmlPage, HtmlRow, Verdict};
use super::plan::{Check, Plan, Problem};
use super::{CheckResult, Outcome};
use crate::http::FetchError;
use crate::report::junit::xml;
use crate::source::{display_path, shown_path};
use crate::text::escape;

/// The counts of a run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub struct Summary {
    /// URLs fetched (or skipped by robots.txt).
    pub urls: usize,
    pub ok: usize,
    pub broken: usize,
    pub skipped_robots: usize,
    /// `deprecated` records not checked.
    pub skipped_deprecated: usize,
    /// Of the broken ones: refused by the private-address guard.
    pub private: usize,
    /// Of the broken ones: never requested, the record's `_path` being at
    /// fault (see `urldb check`).
    pub not_checked: usize,
    /// Files or records that could not be read or are incomplete.
    pub problems: usize,
    #[serde(skip)]
    pub elapsed: Duration,
}

impl Summary {
    pub fn of(plan: &Plan, results: &[CheckResult], elapsed: Duration) -> Summary {
        let mut s = Summary {
            urls: results.len(),
            skipped_deprecated: plan.deprecated,
            problems: plan.problems.len(),
            elapsed,
            ..Summary::default()
        };
        for r in results {
            match &r.outcome {
                Outcome::Ok => s.ok += 1,
                Outcome::SkippedByRobots => s.skipped_robots += 1,
                Outcome::Broken(f) => {
                    s.broken += 1;
                    if matches!(f, super::Failure::NotChecked(_)) {
                        s.not_checked += 1;
                    }
                    if matches!(
                        f,
                        super::Failure::NoAnswer(FetchError::PrivateAddress { .. })
                    ) {
                        s.private += 1;
                    }
                }
            }
        }
        s
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// `FILE:LINE: URL: reason`, one line per failure (as each ends). The
/// URL and the reason (which may quote what a server sent) are escaped
/// ([`crate::text::escape`]).
pub fn human_line(out: &mut dyn Write, check: &Check, result: &CheckResult) -> io::Result<()> {
    if let Outcome::Broken(failure) = &result.outcome {
        writeln!(
            out,
            "{}:{}: {}: {}",
            shown_path(&check.file),
            check.line,
            escape(&check.url),
            escape(&failure.to_string())
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
pub fn human_summary(out: &mut dyn Write, s: &Summary) -> io::Result<()> {
    let mut extra = vec![format!("{} ok", s.ok)];
    if s.not_checked > 0 {
        extra.push(format!(
            "{} not checked for a faulty `_path`",
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

#[derive(Serialize)]
struct JsonResult<'a> {
    url: &'a str,
    file: String,
    line: usize,
    path: &'a str,
    /// `ok`, `broken` or `skipped`.
    outcome: &'static str,
    /// A stable name of the failure (`status`, `content-type`, ...).
    kind: Option<&'static str>,
    reason: Option<String>,
    status: Option<u16>,
    attempts: u32,
    ms: u128,
}

#[derive(Serialize)]
struct JsonReport<'a> {
    summary: &'a Summary,
    results: Vec<JsonResult<'a>>,
    problems: Vec<String>,
}

/// One JSON document: the summary, every result, the problems.
pub fn json(
    out: &mut dyn Write,
    plan: &Plan,
    results: &[CheckResult],
    summary: &Summary,
) -> io::Result<()> {
    let results = plan
        .checks
        .iter()
        .zip(results)
        .map(|(c, r)| {
            let (outcome, kind, reason) = match &r.outcome {
                Outcome::Ok => ("ok", None, None),
                Outcome::SkippedByRobots => (
                    "skipped",
                    Some("robots"),
                    Some("disallowed by robots.txt".to_string()),
                ),
                Outcome::Broken(f) => ("broken", Some(f.kind()), Some(f.to_string())),
            };
            JsonResult {
                url: &c.url,
                file: display_path(&c.file),
                line: c.line,
                path: &c.path,
                outcome,
                kind,
                reason,
                status: r.status,
                attempts: r.attempts,
                ms: r.elapsed.as_millis(),
            }
        })
        .collect();
    let report = JsonReport {
        summary,
        results,
        problems: plan.problems.iter().map(problem_line).collect(),
    };
    crate::text::write_json_pretty(&mut *out, &report)?;
    writeln!(out)
}

/// JUnit XML: one test suite, one test case per URL.
pub fn junit(
    out: &mut dyn Write,
    plan: &Plan,
    results: &[CheckResult],
    summary: &Summary,
) -> io::Result<()> {
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<testsuites name="urldb verify" tests="{}" failures="{}" skipped="{}">"#,
        summary.urls, summary.broken, summary.skipped_robots
    )?;
    writeln!(
        out,
        r#"  <testsuite name="urldb verify" tests="{}" failures="{}" skipped="{}" time="{:.3}">"#,
        summary.urls,
        summary.broken,
        summary.skipped_robots,
        summary.elapsed.as_secs_f64()
    )?;
    for (c, r) in plan.checks.iter().zip(results) {
        let file = display_path(&c.file);
        write!(
            out,
            r#"    <testcase name="{}" classname="{}" file="{}" line="{}" time="{:.3}""#,
            xml(&c.url),
            xml(&file),
            xml(&file),
            c.line,
            r.elapsed.as_secs_f64()
        )?;
        match &r.outcome {
            Outcome::Ok => writeln!(out, "/>")?,
            Outcome::SkippedByRobots => {
                writeln!(out, ">")?;
                writeln!(
                    out,
                    r#"      <skipped message="disallowed by robots.txt"/>"#
                )?;
                writeln!(out, "    </testcase>")?;
            }
            Outcome::Broken(f) => {
                let message = f.to_string();
                writeln!(out, ">")?;
                writeln!(
                    out,
                    r#"      <failure type="{}" message="{}">{}:{}: {}: {}</failure>"#,
                    f.kind(),
                    xml(&message),
                    xml(&file),
                    c.line,
                    xml(&c.url),
                    xml(&message)
                )?;
                writeln!(out, "    </testcase>")?;
            }
        }
    }
    writeln!(out, "  </testsuite>")?;
    writeln!(out, "</testsuites>")
}

/// GitHub Actions annotations: one `::error` per broken URL, on its record.
pub fn github(out: &mut dyn Write, plan: &Plan, results: &[CheckResult]) -> io::Result<()> {
    use crate::report::github::{data, property};
    for (c, r) in plan.checks.iter().zip(results) {
        if let Outcome::Broken(f) = &r.outcome {
            writeln!(
                out,
                "::error file={},line={},title={}::{}",
                property(&escape(&display_path(&c.file))),
                c.line,
                property(&format!("urldb verify ({})", f.kind())),
                data(&escape(&format!("{}: {f}", c.url)))
            )?;
        }
    }
    for p in &plan.problems {
        let line = p.line.map(|l| format!(",line={l}")).unwrap_or_default();
        writeln!(
            out,
            "::error file={}{line},title=urldb verify::{}",
            property(&escape(&display_path(&p.file))),
            data(&escape(&p.message))
        )?;
    }
    Ok(())
}

/// The HTML page's input for this run: every URL in database order, no
/// history.
pub fn html_page(plan: &Plan, results: &[CheckResult], summary: &Summary) -> HtmlPage {
    let rows = plan
        .checks
        .iter()
        .zip(results)
        .map(|(c, r)| {
            let (verdict, kind, reason) = match &r.outcome {
                Outcome::Ok => (Verdict::Ok, None, String::new()),
                Outcome::SkippedByRobots => (
                    Verdict::Skipped,
                    Some("robots".to_string()),
                    "disallowed by robots.txt".to_string(),
                ),
                Outcome::Broken(f) => (
                    if matches!(f, super::Failure::NotChecked(_)) {
                        Verdict::NotChecked
                    } else {
                        Verdict::Broken
                    },
                    Some(f.kind().to_string()),
                    f.to_string(),
                ),
            };
            HtmlRow {
                url: c.url.clone(),
                file: display_path(&c.file),
                line: c.line,
                status: r.status,
                verdict,
                kind,
                reason,
                elapsed: r.elapsed,
                recent: Vec::new(),
                trend: None,
            }
        })
        .collect();
    HtmlPage {
        counts: Counts {
            checked: summary.urls,
            ok: summary.ok,
            broken: summary.broken,
            not_checked: summary.not_checked,
            private: summary.private,
            skipped_robots: summary.skipped_robots,
            skipped_deprecated: summary.skipped_deprecated,
            problems: summary.problems,
            elapsed: summary.elapsed,
        },
        rows,
        runs: Vec::new(),
        problems: plan.problems.iter().map(problem_line).collect(),
    }
}
