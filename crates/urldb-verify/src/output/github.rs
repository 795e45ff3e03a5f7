//! `--format github`: GitHub Actions workflow commands, annotations on the
//! records of broken and blocked URLs. A record's file is named from the
//! repository's root ([`AnnotationRoot`]), where GitHub looks for it.

use std::io::{self, Write};

use super::trend_note;
use crate::results::Results;
use urldb_core::text::escape;
use urldb_output::AnnotationRoot;

/// GitHub Actions annotations: one `::error` per broken URL, on its record.
pub fn write_github<W: Write>(
    out: &mut urldb_output::gate::Gate<W>,
    results: &Results,
    root: &AnnotationRoot,
) -> io::Result<()> {
    use urldb_output::{github_data as data, github_property as property};
    let file = |shown: &str| property(&escape(&root.file(std::path::Path::new(shown))));
    for r in results.results.iter().filter(|r| r.is_broken()) {
        let kind = r.kind.as_deref().unwrap_or("broken");
        out.command(&format!(
            "::error file={},line={},title={}::{}",
            file(&r.file),
            r.line,
            property(&escape(&format!("urldb verify ({kind}){}", trend_note(r)))),
            data(&escape(&format!(
                "{}: {}",
                r.url,
                r.reason_and_found("broken")
            )))
        ))?;
    }
    for r in results.results.iter().filter(|r| r.is_blocked()) {
        out.command(&format!(
            "::warning file={},line={},title={}::{}",
            file(&r.file),
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
            file(&p.file),
            data(&escape(&p.message))
        ))?;
    }
    Ok(())
}
