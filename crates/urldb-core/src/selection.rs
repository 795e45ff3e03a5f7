//! Which rules are on, and at which severity: `--select`, `--ignore`,
//! `--extend-select` and the `[lint]` table, resolved once per run.

use std::collections::{BTreeMap, BTreeSet};

use crate::render::TextStyle;
use crate::rules;
use crate::rules::diagnostic::{Finding, Severity};

/// The rules on when nothing is selected.
fn default_codes(style: TextStyle) -> impl Iterator<Item = &'static str> {
    rules::ALL
        .iter()
        .filter(move |r| r.on_by_default(style))
        .map(|r| r.code)
}

#[derive(Debug, Clone)]
pub struct Selection {
    enabled: BTreeSet<&'static str>,
    severity: BTreeMap<&'static str, Severity>,
}

impl Default for Selection {
    fn default() -> Self {
        Selection {
            enabled: default_codes(TextStyle::Readable).collect(),
            severity: BTreeMap::new(),
        }
    }
}

/// The rule codes a list names: codes, or `ALL` for every rule. An unknown
/// code is an error with a suggestion.
pub(crate) fn codes(list: &[String]) -> Result<Vec<&'static str>, UnknownRule> {
    let mut out = Vec::new();
    for code in list {
        if code == "ALL" {
            out.extend(rules::ALL.iter().map(|r| r.code));
        } else {
            let rule = rules::by_code(code).ok_or_else(|| UnknownRule::new(code))?;
            out.push(rule.code);
        }
    }
    Ok(out)
}

impl Selection {
    /// `select` (default: every rule on by default in `style`, see
    /// [`rules::Rule::enabled`]), plus `extend_select`, minus `ignore`.
    /// Codes are checked; an unknown one is an error with a suggestion.
    pub fn new(
        select: Option<&[String]>,
        extend_select: &[String],
        ignore: &[String],
        severity: &BTreeMap<String, Severity>,
        style: TextStyle,
    ) -> Result<Selection, UnknownRule> {
        let mut enabled: BTreeSet<&'static str> = match select {
            Some(list) => codes(list)?.into_iter().collect(),
            None => default_codes(style).collect(),
        };
        enabled.extend(codes(extend_select)?);
        for code in codes(ignore)? {
            enabled.remove(code);
        }
        let mut sev = BTreeMap::new();
        for (code, s) in severity {
            let rule = rules::by_code(code).ok_or_else(|| UnknownRule::new(code))?;
            sev.insert(rule.code, *s);
        }
        Ok(Selection {
            enabled,
            severity: sev,
        })
    }

    pub fn is_enabled(&self, code: &str) -> bool {
        self.enabled.contains(code)
    }

    /// Keep the enabled findings, with their configured severity. A gate
    /// finding is kept whatever the selection, and stays an error
    /// (`crate::rules::gate_findings`).
    pub(crate) fn apply(&self, findings: Vec<Finding>) -> Vec<Finding> {
        findings
            .into_iter()
            .filter(|f| f.gate || self.is_enabled(f.rule.code))
            .map(|mut f| {
                if f.gate {
                    f.severity = Severity::Error;
                } else if let Some(s) = self.severity.get(f.rule.code) {
                    f.severity = *s;
                }
                f
            })
            .collect()
    }
}

/// A rule code that no rule has (in `--select`, `urldb.toml`, a
/// suppression comment...); it says the nearest code there is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", unknown_rule_message(.code))]
pub struct UnknownRule {
    pub code: String,
}

impl UnknownRule {
    pub fn new(code: &str) -> UnknownRule {
        UnknownRule {
            code: code.to_string(),
        }
    }
}

fn unknown_rule_message(code: &str) -> String {
    let codes = rules::ALL.iter().map(|r| r.code);
    match crate::suggest::closest(code, codes) {
        Some(best) => format!("unknown rule code `{code}` (did you mean `{best}`?)"),
        None => format!("unknown rule code `{code}` (`urldb rules` lists them)"),
    }
}
