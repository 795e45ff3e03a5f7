//! Which findings a file's directives excuse, and the directives' own
//! findings (`unused-suppression`, with the fix that removes a code).

use std::collections::BTreeSet;

use crate::model::node::{Comments, Document, Node, Value};
use crate::rules::diagnostic::{Edit, Finding};
use crate::rules::files::unused_suppression;
use crate::rules::{self, Check, gate_findings};
use crate::selection::Selection;
use crate::source::Span;

use super::directive::{Code, Directive, Kind, parse_comment};

/// The directives of one file.
#[derive(Debug, Clone, Default)]
pub(crate) struct Directives {
    pub(crate) list: Vec<Directive>,
}

impl Directives {
    /// The directives among `comments` (spans in `text`), with the scopes
    /// the model `documents` gives them (none for a comment alone on its
    /// line when the file did not parse).
    pub(crate) fn new(text: &str, comments: &[Span], documents: Option<&[Document]>) -> Directives {
        let mut list = Vec::new();
        let mut owners: Option<Vec<(usize, Span)>> = None;
        for span in comments {
            let Some(comment) = text.get(span.clone()) else {
                continue;
            };
            let Some((at, parsed)) = parse_comment(comment) else {
                continue;
            };
            let line_start = text[..span.start].rfind(['\n', '\r']).map_or(0, |i| i + 1);
            let alone = text[line_start..span.start]
                .bytes()
                .all(|b| b == b' ' || b == b'\t');
            let note = comment[..at].to_string();
            let reason = match &parsed {
                Ok(_) => comment
                    .get(at..)
                    .and_then(|d| d.find(']').map(|i| d[i + 1..].to_string()))
                    .unwrap_or_default(),
                Err(_) => String::new(),
            };
            let (kind, codes, malformed) = match parsed {
                Ok((file, codes)) => {
                    let kind = if file {
                        Kind::File
                    } else if alone {
                        Kind::Owner
                    } else {
                        Kind::Line
                    };
                    let codes = codes
                        .into_iter()
                        .map(|(code, within)| Code {
                            rule: rules::by_code(&code),
                            text: code,
                            span: span.start + within.start..span.start + within.end,
                        })
                        .collect();
                    (kind, codes, None)
                }
                Err(why) => (Kind::Line, Vec::new(), Some(why)),
            };
            let scope = match kind {
                Kind::File => Some(0..text.len()),
                Kind::Line => Some(line_start..span.end),
                Kind::Owner => documents.and_then(|docs| {
                    let owners = owners.get_or_insert_with(|| owner_scopes(docs));
                    owners
                        .iter()
                        .find(|(start, _)| *start == span.start)
                        .map(|(_, scope)| span.start..scope.end.max(span.end))
                }),
            };
            list.push(Directive {
                comment: span.clone(),
                kind,
                codes,
                scope,
                malformed,
                note,
                reason,
            });
        }
        Directives { list }
    }

    /// The directives of a file's text, parsed again (for cross-file
    /// findings, whose files' trees are long gone).
    pub(crate) fn of_text(text: &str) -> Directives {
        if memchr::memchr(b'#', text.as_bytes()).is_none() {
            return Directives::default();
        }
        let tree = crate::parse::read_text(text);
        let docs = (!tree.incomplete).then_some(tree.documents.as_slice());
        Directives::new(text, &tree.comments, docs)
    }

    /// The directive and code that excuse `finding`, if any: none for a
    /// gate finding (`rules::gate_findings`).
    fn excuse(&self, finding: &Finding) -> Option<(usize, usize)> {
        if finding.gate {
            return None;
        }
        self.naming(finding)
    }

    /// The directive and code whose scope holds `finding` and that name
    /// its rule, whether or not they may excuse it.
    fn naming(&self, finding: &Finding) -> Option<(usize, usize)> {
        let at = finding.span.start;
        self.list.iter().enumerate().find_map(|(d, directive)| {
            let scope = directive.scope.as_ref()?;
            if at < scope.start || at > scope.end {
                return None;
            }
            let c = directive
                .codes
                .iter()
                .position(|c| c.rule.is_some_and(|r| std::ptr::eq(r, finding.rule)))?;
            Some((d, c))
        })
    }

    /// `finding` is excused by one of these directives.
    pub(crate) fn suppresses(&self, finding: &Finding) -> bool {
        self.excuse(finding).is_some()
    }

    /// Move the findings the directives excuse from `findings` to the
    /// returned list (none when `honour` is false: `check
    /// --no-suppressions`); then report what the directives themselves got
    /// wrong (`unused-suppression`) in `findings`: all of it when
    /// `report_unused` and `honour`, else only the gate findings they name
    /// (wrong whether or not the file parsed or they are honoured).
    pub(crate) fn apply(
        &self,
        findings: &mut Vec<Finding>,
        selection: &Selection,
        report_unused: bool,
        honour: bool,
    ) -> Vec<Finding> {
        if self.list.is_empty() {
            return Vec::new();
        }
        let mut used: BTreeSet<(usize, usize)> = BTreeSet::new();
        // Directives that name the rule of a gate finding in their scope.
        let mut gated: BTreeSet<(usize, usize)> = BTreeSet::new();
        let mut suppressed = Vec::new();
        let mut kept = Vec::with_capacity(findings.len());
        for finding in findings.drain(..) {
            match self.excuse(&finding).filter(|_| honour) {
                Some(hit) => {
                    used.insert(hit);
                    suppressed.push(finding);
                }
                None => {
                    if finding.gate
                        && let Some(hit) = self.naming(&finding)
                    {
                        gated.insert(hit);
                    }
                    kept.push(finding);
                }
            }
        }
        *findings = kept;
        if selection.is_enabled(unused_suppression::RULE.code) {
            let mut problems = Vec::new();
            let found = Found {
                used: &used,
                gated: &gated,
                only_gate: !(report_unused && honour),
            };
            for (d, directive) in self.list.iter().enumerate() {
                problems.extend(self.problems(d, directive, &found, selection));
            }
            // A directive may excuse `unused-suppression` itself.
            for problem in problems {
                if !honour || self.excuse(&problem).is_none() {
                    findings.push(problem);
                }
            }
        }
        suppressed
    }

    /// The `unused-suppression` findings of one directive.
    fn problems(
        &self,
        d: usize,
        directive: &Directive,
        found: &Found<'_>,
        selection: &Selection,
    ) -> Vec<Finding> {
        let mut out = Vec::new();
        if let Some(why) = &directive.malformed {
            if found.only_gate {
                return out;
            }
            out.push(unused_suppression::malformed(
                directive.comment.clone(),
                &why.to_string(),
            ));
            return out;
        }
        let mut unused = Vec::new();
        let mut seen = BTreeSet::new();
        for (c, code) in directive.codes.iter().enumerate() {
            let Some(rule) = code.rule else {
                if !found.only_gate {
                    out.push(unused_suppression::unknown(code.span.clone(), &code.text));
                }
                continue;
            };
            if !seen.insert(rule.code) {
                if !found.only_gate {
                    unused.push((c, "named twice"));
                }
                continue;
            }
            // A gate finding is never excused (`rules::gate_findings`).
            if gate_findings::always(rule.code)
                || (found.gated.contains(&(d, c)) && !found.used.contains(&(d, c)))
            {
                unused.push((c, GATE));
                continue;
            }
            // Whether the rest would excuse anything is moot, or unknown.
            if found.only_gate {
                continue;
            }
            // A cross-file rule's findings come later (`urldb-store`):
            // whether its suppression is used is not known here.
            if matches!(rule.check, Check::Database(_)) {
                continue;
            }
            if rule.code == unused_suppression::RULE.code {
                continue;
            }
            if !selection.is_enabled(rule.code) {
                unused.push((c, "not enabled"));
            } else if directive.scope.is_none() {
                unused.push((c, "stands before nothing"));
            } else if !found.used.contains(&(d, c)) {
                unused.push((c, "nothing to excuse"));
            }
        }
        if unused.is_empty() {
            return out;
        }
        let all_gate = unused.iter().all(|(_, why)| *why == GATE);
        let names: Vec<String> = unused
            .iter()
            .map(|(c, why)| {
                if all_gate {
                    format!("`{}`", directive.codes[*c].text)
                } else {
                    format!("`{}` ({why})", directive.codes[*c].text)
                }
            })
            .collect();
        let drop: BTreeSet<usize> = unused.iter().map(|(c, _)| *c).collect();
        let rest: Vec<&str> = directive
            .codes
            .iter()
            .enumerate()
            .filter(|(c, _)| !drop.contains(c))
            .map(|(_, code)| code.text.as_str())
            .collect();
        let edit = Edit::Comment {
            span: directive.comment.clone(),
            text: rewritten(directive, &rest),
        };
        let finding = if all_gate {
            unused_suppression::gate(directive.comment.clone(), &names, edit)
        } else {
            unused_suppression::unused(directive.comment.clone(), &names.join(", "), edit)
        };
        out.push(finding);
        out
    }
}

/// Why a code of a directive excuses nothing: it names a gate finding.
pub(super) const GATE: &str = "a gate finding: it cannot be suppressed";

/// What [`Directives::apply`] found, for the directives' own findings.
struct Found<'a> {
    /// The directive and code that excused a finding.
    used: &'a BTreeSet<(usize, usize)>,
    /// The directive and code that name a gate finding in their scope.
    gated: &'a BTreeSet<(usize, usize)>,
    /// Report only the gate findings named: the file did not parse, or
    /// suppressions are not honoured (`check --no-suppressions`).
    only_gate: bool,
}

/// The text a directive's comment is rewritten to: the directive with
/// only the codes in `rest` (its note and reason kept), or, when none is
/// left, the note alone, or no comment at all (`None`).
pub(crate) fn rewritten(directive: &Directive, rest: &[&str]) -> Option<String> {
    let word = if directive.kind == Kind::File {
        "ignore-file"
    } else {
        "ignore"
    };
    if rest.is_empty() {
        let note = directive.note.trim_end();
        return (!note.is_empty()).then(|| note.to_string());
    }
    Some(format!(
        "{}# urldb: {word}[{}]{}",
        directive.note,
        rest.join(", "),
        directive.reason
    ))
}

/// Where every comment alone on its line belongs: the start of the
/// comment and the span of its owner (an entry from its key to the end of
/// its value, an item, a document).
fn owner_scopes(documents: &[Document]) -> Vec<(usize, Span)> {
    fn before(comments: &Comments, scope: &Span, out: &mut Vec<(usize, Span)>) {
        for c in &comments.before {
            out.push((c.span.start, scope.clone()));
        }
    }
    fn node(n: &Node, out: &mut Vec<(usize, Span)>) {
        match &n.value {
            Value::Scalar(_) => {}
            Value::Seq(items) => {
                for item in items {
                    if let Some(c) = &item.comments {
                        before(c, &item.span, out);
                    }
                    node(item, out);
                }
            }
            Value::Map(entries) => {
                for e in entries {
                    if let Some(c) = &e.key.comments {
                        before(c, &(e.key.span.start..e.value.span.end), out);
                    }
                    node(&e.value, out);
                }
            }
        }
    }
    let mut out = Vec::new();
    for doc in documents {
        before(&doc.comments, &doc.span, &mut out);
        if let Some(root) = &doc.root {
            node(root, &mut out);
        }
    }
    out
}
