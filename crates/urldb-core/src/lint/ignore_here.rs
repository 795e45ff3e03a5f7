//! The language server's "ignore this finding here" code action.

use crate::rules::gate_findings;

use crate::suppress::{Directives, Kind, rewritten};

/// The language server's "ignore this finding here": `text` with `code`
/// excused on the line where `at` is (added to the directive ending that
/// line, or a new one after the line's note or code), or, when that would
/// change what the file means (the line ends inside a block scalar), in a
/// directive before the record. Each candidate is checked again: the
/// finding must be excused and the documents unchanged. `None` when
/// neither works. `before` is the file checked alone (`lint::check_bytes`,
/// no cross-file finding): asked once for every finding of a request.
pub fn ignore_here(
    before: &super::Checked,
    at: usize,
    code: &'static str,
    options: &super::Options,
) -> Option<String> {
    // No directive excuses a gate finding: nothing to try.
    if gate_findings::always(code) {
        return None;
    }
    let (path, text) = (&before.source.path, before.source.text.as_str());
    let at = at.min(text.len());
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[at..].find(['\n', '\r']).map_or(text.len(), |i| at + i);
    let directives = Directives::of_text(text);
    let on_line = directives
        .list
        .iter()
        .find(|d| d.kind == Kind::Line && (line_start..=line_end).contains(&d.comment.start));
    let mut candidates = Vec::new();
    match on_line {
        Some(d) => {
            let mut codes: Vec<&str> = d.codes.iter().map(|c| c.text.as_str()).collect();
            codes.push(code);
            let new = rewritten(d, &codes).unwrap_or_default();
            candidates.push(format!(
                "{}{new}{}",
                &text[..d.comment.start],
                &text[d.comment.end..]
            ));
        }
        None => candidates.push(format!(
            "{} # urldb: ignore[{code}]{}",
            &text[..line_end],
            &text[line_end..]
        )),
    }
    if let Some(docs) = before.documents.parsed()
        && let Some(doc) = docs
            .iter()
            .rev()
            .find(|d| d.explicit_start && d.span.start <= at)
    {
        let start = doc.span.start;
        let newline = if text[start..].contains("\r\n") {
            "\r\n"
        } else {
            "\n"
        };
        candidates.push(format!(
            "{}# urldb: ignore[{code}]{newline}{}",
            &text[..start],
            &text[start..]
        ));
    }
    let count = |c: &super::Checked| c.findings.iter().filter(|f| f.rule.code == code).count();
    candidates.into_iter().find(|candidate| {
        let after = super::check_bytes(path, candidate.as_bytes(), options);
        let same = match (before.documents.parsed(), after.documents.parsed()) {
            (Some(a), Some(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.root == y.root)
            }
            (None, _) => true,
            _ => false,
        };
        same && count(&after) < count(before)
    })
}
