//! Gate findings: what `check` reports whatever the data, `urldb.toml` or
//! the command line say (`docs/suppressions.md`, "Gate findings"). Not to
//! be confused with the output gate (`urldb_output::gate`), which every
//! printed byte passes.
//!
//! `check` passing is the promise the rest of urldb builds on: PyYAML
//! loads every file and reads it as urldb does, `ls`, `export` and
//! `verify` take every file and every record, and every URL they print,
//! export or request is one of the file's own host. A finding that breaks
//! that promise is a gate finding: it always runs, it is always an error,
//! and no suppression comment, `[lint.per-file-ignores]`, `[lint]`
//! selection or severity, `--select` or `--ignore` excuses it (as ruff
//! never lets `noqa` hide a syntax error). Naming one of them there is
//! itself reported.
//!
//! The lists say why; `docs/suppressions.md` prints them.

//! Each rule states its own ([`Rule::gate`]); the lists here are read
//! from the catalogue.

use super::{ALL, Gate, Rule};

/// Rules every finding of which is a gate finding, and why, in catalogue
/// order.
pub static ALWAYS: &[(&str, &str)] = &gathered::<{ count(true) }>(true);

/// Rules some findings of which are gate findings (the rule marks them
/// with [`Finding::gate`](super::diagnostic::Finding::gate)), and which,
/// in catalogue order.
pub static SOME: &[(&str, &str)] = &gathered::<{ count(false) }>(false);

/// How many rules state [`Gate::Always`] (`always`) or [`Gate::Some`].
const fn count(always: bool) -> usize {
    let (mut i, mut n) = (0, 0);
    while i < ALL.len() {
        match ALL[i].gate {
            Gate::Always(_) if always => n += 1,
            Gate::Some(_) if !always => n += 1,
            _ => {}
        }
        i += 1;
    }
    n
}

/// The `N` rules [`count`] counts, with their words.
const fn gathered<const N: usize>(always: bool) -> [(&'static str, &'static str); N] {
    let mut out = [("", ""); N];
    let (mut i, mut n) = (0, 0);
    while i < ALL.len() {
        match ALL[i].gate {
            Gate::Always(why) if always => {
                out[n] = (ALL[i].code, why);
                n += 1;
            }
            Gate::Some(which) if !always => {
                out[n] = (ALL[i].code, which);
                n += 1;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// Every finding of the rule `code` is a gate finding.
pub fn always(code: &str) -> bool {
    super::by_code(code).is_some_and(|r| matches!(r.gate, Gate::Always(_)))
}

/// Some findings of the rule `code` may be gate findings.
pub fn sometimes(code: &str) -> bool {
    super::by_code(code).is_some_and(|r| matches!(r.gate, Gate::Some(_)))
}

/// What of `rule` is a gate finding, as a sentence for its documentation;
/// `None` for a rule none of whose findings is.
pub fn describe(rule: &Rule) -> Option<String> {
    match rule.gate {
        Gate::No => None,
        Gate::Always(why) => Some(format!(
            "A gate finding, always checked and an error whatever `--select`, `--ignore`, \
             `[lint]`, per-file ignores or suppression comments say: {why}."
        )),
        Gate::Some(which) => Some(format!(
            "Partly a gate finding, always checked and an error whatever `--select`, \
             `--ignore`, `[lint]`, per-file ignores or suppression comments say: {which}."
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::{ALWAYS, SOME};

    /// Every code named is a rule's, once, and every rule that states a
    /// gate is named.
    #[test]
    fn the_lists_name_rules() {
        let stating = crate::rules::ALL
            .iter()
            .filter(|r| r.gate != super::Gate::No)
            .count();
        assert_eq!(ALWAYS.len() + SOME.len(), stating);
        let mut seen = std::collections::BTreeSet::new();
        for (code, why) in ALWAYS.iter().chain(SOME) {
            assert!(crate::rules::by_code(code).is_some(), "{code}");
            assert!(seen.insert(*code), "{code} named twice");
            assert!(!why.is_empty());
        }
    }

    /// A gate finding stays an error: no gate rule is a warning to begin with.
    #[test]
    fn gate_rules_are_errors() {
        for (code, _) in ALWAYS.iter().chain(SOME) {
            let rule = crate::rules::by_code(code).expect("a rule");
            assert_eq!(
                rule.severity,
                crate::rules::diagnostic::Severity::Error,
                "{code}"
            );
        }
    }
}
