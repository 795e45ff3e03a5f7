//! What the lint engine asks the rules for outside their own checks, so
//! that the engine (`crate::lint`) names no single rule: the gate before a
//! file is parsed, the rule that owns each problem the parser reports, the
//! finding for a comment, and the finding for a rewrite no rule explains.
//! A parser problem is mapped to its rule here, in one table.

use super::FixKind;
use super::diagnostic::Finding;
use super::files::not_canonical;
use super::yaml::{invalid_utf8, nesting_too_deep, too_many_documents};
use super::yaml::{yaml_alias, yaml_comment, yaml_syntax, yaml_tag};
use crate::parse::Problem;
use crate::source::Span;

/// A finding that keeps the file from being parsed at all (it would take
/// many times its size in memory, or holds a merge left unresolved),
/// found before anything is built.
pub(crate) fn before_parsing(text: &str) -> Option<Finding> {
    // A merge left unresolved: its markers, not the YAML error they make.
    if let Some(finding) = yaml_syntax::unresolved_merge(text) {
        return Some(finding);
    }
    // Each marker but the last takes four bytes at least (`---` and what
    // ends it): a shorter text cannot hold too many, and is not scanned.
    if text.len() < 4 * too_many_documents::MAX_DOCUMENTS + 3 {
        return None;
    }
    let markers = too_many_documents::markers(text);
    (markers > too_many_documents::MAX_DOCUMENTS)
        .then(|| too_many_documents::finding(text, markers))
}

/// The finding of a problem the parser reports in `text`: the rule that
/// owns it.
pub(crate) fn of_problem(text: &str, problem: &Problem) -> Finding {
    match problem {
        Problem::Syntax { span, message } => yaml_syntax::finding(text, span.clone(), message),
        Problem::Anchor { span, name } => yaml_alias::anchor(span.clone(), name.as_deref()),
        Problem::Alias { span } => yaml_alias::alias(span.clone()),
        Problem::Tag { span, tag } => yaml_tag::finding(span.clone(), tag),
        Problem::TooDeep { span } => nesting_too_deep::finding(span.clone()),
        Problem::Refused { span, refusal } => yaml_syntax::refused(span.clone(), refusal),
    }
}

/// The tabs PyYAML refuses in a text the parser read completely
/// (`yaml-syntax`).
pub(crate) fn refused_tabs(text: &str, tree: &crate::parse::Tree, out: &mut Vec<Finding>) {
    yaml_syntax::refused_tabs(text, &tree.documents, &tree.comments, out);
}

/// The finding for a comment the parser kept (the rule is off by default).
pub(crate) fn of_comment(span: Span) -> Finding {
    yaml_comment::finding(span)
}

/// `check` reports every file `fmt --check` would rewrite: when no finding
/// with a formatting fix says why `text` is not `canonical`, one that does.
pub(crate) fn explain_rewrite(findings: &mut Vec<Finding>, text: &str, canonical: &str) {
    // A finding whose fix is the rewrite itself (a fix without edits) says
    // why too: a tab PyYAML refuses.
    let explained = |f: &Finding| {
        f.rule.fix == FixKind::Format || f.fix.as_ref().is_some_and(|x| x.edits.is_empty())
    };
    if !findings.iter().any(explained) {
        findings.push(not_canonical::unexplained(text, canonical));
    }
}

/// Where a file's bytes are not UTF-8, its text holds U+FFFD, a character
/// the file does not hold. A finding there that quotes it, or advises
/// writing it (percent-encode it: `%EF%BF%BD`, which would corrupt the
/// URL), speaks of text the file does not hold, and is dropped: the rules
/// that read the bytes (`invalid-utf8`) say where they are, and the rest
/// speak of them once the file is UTF-8. Findings there that quote nothing
/// of it (a comment, a record without `_path`) stay (`docs/rules.md`,
/// `invalid-utf8`).
pub(crate) fn drop_findings_on_unread_bytes(findings: &mut Vec<Finding>, raw: &[u8]) {
    // Only a file `invalid-utf8` reports has unread bytes: every other file
    // (nearly all) is spared a second pass over its bytes.
    if !findings
        .iter()
        .any(|f| std::ptr::eq(f.rule, &invalid_utf8::RULE))
    {
        return;
    }
    // The lossy text has one U+FFFD (three bytes) for each bad sequence.
    let replacement = char::REPLACEMENT_CHARACTER.len_utf8();
    let mut unread: Vec<Span> = Vec::new();
    let mut at = 0;
    for chunk in raw.utf8_chunks() {
        at += chunk.valid().len();
        if !chunk.invalid().is_empty() {
            unread.push(at..at + replacement);
            at += replacement;
        }
    }
    if unread.is_empty() {
        return;
    }
    let on_unread = |f: &Finding| {
        let end = f.span.end.max(f.span.start + 1);
        unread.iter().any(|u| f.span.start < u.end && u.start < end)
    };
    findings.retain(|f| {
        matches!(f.rule.check, super::Check::Text(_)) || !on_unread(f) || !speaks_of_unread(f)
    });
}

/// The finding's words hold U+FFFD, or its UTF-8 bytes percent-encoded.
fn speaks_of_unread(f: &Finding) -> bool {
    let says = |s: &str| {
        s.contains(char::REPLACEMENT_CHARACTER) || s.to_ascii_uppercase().contains("%EF%BF%BD")
    };
    says(&f.message) || f.help.as_deref().is_some_and(says) || f.labels.iter().any(|(_, l)| says(l))
}
