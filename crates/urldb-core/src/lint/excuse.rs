//! The one finishing step every set of findings passes before anything is
//! reported, cached or fixed: a file checked whole ([`super::check_bytes`]),
//! in pieces (`super::pieces`) or not read at all ([`super::too_large`]),
//! and the cross-file findings of a database ([`super::across`]), for the
//! command line and the language server alike. What excuses a finding is
//! decided here and nowhere else (`docs/suppressions.md`):
//!
//! 1. the run's selection keeps the enabled findings, with their
//!    configured severity (and every gate finding, as an error);
//! 2. `[lint.per-file-ignores]` excuses the codes it turns off in the file;
//! 3. the file's suppression comments excuse what they name
//!    (`crate::suppress`), unless `check --no-suppressions`, and say what
//!    they got wrong (`unused-suppression`), which the per-file ignores
//!    may excuse in turn;
//! 4. in a file a finding forbids rewriting, no finding keeps its fix;
//! 5. the findings are in file order, those at one place in the order the
//!    rules ran (`rules::order`).
//!
//! No gate finding is excused (`rules::gate_findings`).

use std::path::Path;

use super::Options;
use crate::rules::diagnostic::Finding;
use crate::rules::{self, Rule};
use crate::suppress::Directives;

/// A finding a suppression excused, and which kind of suppression.
#[derive(Debug, Clone)]
pub struct Excused {
    pub finding: Finding,
    pub by: Excuse,
}

/// What excused a finding, as SARIF tells them apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Excuse {
    /// A suppression comment names it in its scope (even when the per-file
    /// ignores took it first: the reason is then written in the source).
    Comment,
    /// `[lint.per-file-ignores]`, and no comment.
    PerFileIgnores,
}

/// Where a file's suppression comments come from.
pub(crate) enum Comments<'a> {
    /// The file cannot hold one: it was read without comments (the pieces
    /// of a large file refuse a directive), or not read at all.
    None,
    /// The directives read with the file's tree. Their own findings are
    /// reported: all of them when the file parsed, else only the gate
    /// findings they name.
    Read {
        directives: Directives,
        parsed: bool,
    },
    /// The file's text, its directives read only when a finding is left
    /// for them to excuse. Their own findings are not reported: the file's
    /// check reported them (the findings of the cross-file rules).
    Text(&'a str),
}

/// Which findings these are: whether one may forbid rewriting the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stage {
    /// The file's own findings: the first rule that forbids a rewrite
    /// blocks it (`rules::first_blocking`), and then no fix is kept.
    File,
    /// Cross-file findings, found after the file's check: they block
    /// nothing (the file's own findings decided that).
    Across,
}

/// Findings, finished.
#[derive(Debug, Default)]
pub struct Finished {
    /// What is reported, in file order.
    pub findings: Vec<Finding>,
    /// What a suppression excused: counted, and shown by SARIF.
    pub suppressed: Vec<Excused>,
    /// The rule that forbids rewriting the file (a file's own findings only).
    pub blocked_by: Option<&'static Rule>,
}

/// Finish the findings `all` of the file at `path` (as shown: per-file
/// ignores match it) with the run's `options`.
pub(crate) fn finish(
    path: &Path,
    mut all: Vec<Finding>,
    comments: Comments<'_>,
    stage: Stage,
    options: &Options,
) -> Finished {
    let blocked_by = match stage {
        Stage::File => rules::first_blocking(&all),
        Stage::Across => None,
    };
    // In the order the rules ran, which the pieces of a large file give
    // too; by place at the end.
    all.sort_by_cached_key(|f| (f.span.start, f.span.end, rules::order(f.rule)));
    let mut findings = options.selection.apply(all);
    let mut taken = options.per_file_ignores.take(path, &mut findings);
    let honour = !options.no_suppressions;
    let directives = match comments {
        Comments::None => None,
        Comments::Read { directives, parsed } => {
            taken.extend(directives.apply(&mut findings, &options.selection, parsed, honour));
            // The directives' own findings, when the table turns them off.
            taken.extend(options.per_file_ignores.take(path, &mut findings));
            Some(directives)
        }
        Comments::Text(text) if !findings.is_empty() || !taken.is_empty() => {
            let directives = Directives::of_text(text);
            if honour {
                let (excused, kept) = std::mem::take(&mut findings)
                    .into_iter()
                    .partition(|f| directives.suppresses(f));
                findings = kept;
                taken.extend::<Vec<Finding>>(excused);
            }
            Some(directives)
        }
        Comments::Text(_) => None,
    };
    if blocked_by.is_some() {
        // Nothing in a file that cannot be rewritten gets fixed: say so.
        for finding in &mut findings {
            finding.fix = None;
        }
    }
    findings.sort_by_key(|f| (f.span.start, f.span.end));
    let suppressed = taken
        .into_iter()
        .map(|finding| Excused {
            by: match &directives {
                Some(d) if d.suppresses(&finding) => Excuse::Comment,
                _ => Excuse::PerFileIgnores,
            },
            finding,
        })
        .collect();
    Finished {
        findings,
        suppressed,
        blocked_by,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::per_file_ignores::PerFileIgnores;
    use crate::source::Span;

    /// A finding of a rule suppressions may excuse, at `span`.
    fn excusable(code: &str, span: Span) -> Finding {
        let rule = rules::by_code(code).expect("a rule");
        let finding = Finding::new(rule, span, "found");
        assert!(!finding.gate, "{code} is a gate rule");
        finding
    }

    fn options(per_file: &[(&str, &[&str])]) -> Options {
        let table: Vec<(String, Vec<String>)> = per_file
            .iter()
            .map(|(glob, codes)| {
                let codes = codes.iter().map(|c| c.to_string()).collect();
                (glob.to_string(), codes)
            })
            .collect();
        Options {
            per_file_ignores: PerFileIgnores::new(table.iter().map(|(g, c)| (g, c)))
                .expect("compiles"),
            ..Options::default()
        }
    }

    /// The same findings, whichever stage hands them over, are excused
    /// alike by a comment and by the table: what a cross-file finding gets
    /// is what a file's own finding gets.
    #[test]
    fn comments_and_the_table_excuse_findings_of_either_stage() {
        let text = "# urldb: ignore-file[path-case]\n---\n---\n_path: /A\n";
        let path = Path::new("legacy/example.com.yaml");
        let at = text.find("/A").unwrap_or_default();
        let found = || {
            vec![
                excusable("path-case", at..at + 2),
                excusable("unsorted-keys", at..at + 2),
            ]
        };
        let options = options(&[("legacy/*.yaml", &["unsorted-keys"])]);
        for stage in [Stage::File, Stage::Across] {
            let done = finish(path, found(), Comments::Text(text), stage, &options);
            assert!(done.findings.is_empty(), "{stage:?}: {:?}", done.findings);
            let by: Vec<(&str, Excuse)> = done
                .suppressed
                .iter()
                .map(|e| (e.finding.rule.code, e.by))
                .collect();
            assert_eq!(
                by,
                [
                    ("unsorted-keys", Excuse::PerFileIgnores),
                    ("path-case", Excuse::Comment)
                ],
                "{stage:?}"
            );
        }
        let mut honest = options.clone();
        honest.no_suppressions = true;
        honest.per_file_ignores = PerFileIgnores::default();
        let done = finish(path, found(), Comments::Text(text), Stage::Across, &honest);
        assert_eq!(done.findings.len(), 2);
        assert!(done.suppressed.is_empty());
    }
}
