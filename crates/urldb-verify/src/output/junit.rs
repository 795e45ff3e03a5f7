//! `--format junit`: JUnit XML, for CI test views.

use std::io::{self, Write};

use crate::results::{Results, Verdict};
use urldb_output::xml;

/// JUnit XML: one test suite, one test case per URL.
pub fn write_junit(out: &mut dyn Write, results: &Results) -> io::Result<()> {
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
                let message = &r.reason_and_found("broken");
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
