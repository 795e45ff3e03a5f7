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

use super::Rule;

/// Rules every finding of which is a gate finding, and why.
pub static ALWAYS: &[(&str, &str)] = &[
    (
        "invalid-utf8",
        "PyYAML and every urldb command refuse the file",
    ),
    (
        "yaml-syntax",
        "PyYAML and every urldb command refuse the file, or PyYAML would read it otherwise (a tab, a control character, NEL, LS or PS, a directive)",
    ),
    (
        "yaml-alias",
        "urldb reads an alias as an empty value, PyYAML as the value it names",
    ),
    (
        "yaml-tag",
        "urldb reads the value without its tag, PyYAML with it (or refuses the file)",
    ),
    (
        "duplicate-key",
        "urldb reads the first value of the key, PyYAML the last",
    ),
    (
        "non-string-key",
        "PyYAML reads the key as another type, or refuses the file",
    ),
    ("unloadable-value", "PyYAML refuses the file"),
    ("file-too-large", "`check` did not read the file"),
    (
        "nesting-too-deep",
        "`check` stopped reading the file there; `ls`, `export` and `verify` refuse it",
    ),
    ("too-many-documents", "`check` did not read the file"),
    (
        "metadata-not-mapping",
        "no command reads the metadata (`https`, `cnames`)",
    ),
    ("record-not-mapping", "no command reads the record"),
    ("missing-path", "the record has no URL; `verify` refuses it"),
    ("missing-content-type", "`verify` refuses the record"),
    (
        "path-network-reference",
        "the URL would be one of another host; `verify` does not request it",
    ),
    (
        "path-not-absolute",
        "the URL would be one of another host or port; `verify` does not request it",
    ),
    (
        "path-fragment",
        "the URL is not the one requested; `verify` does not request it",
    ),
    (
        "path-invalid-char",
        "clients rewrite the URL; `verify` does not request it",
    ),
    (
        "path-bad-escape",
        "clients rewrite the URL; `verify` does not request it",
    ),
    (
        "path-dot-segment",
        "clients rewrite the URL; `verify` does not request it",
    ),
    (
        "cname-conflict",
        "one host's URLs are in two files (`Example.com` and `example.com` are one host); \
         `ls`, `export` and `verify` list them twice, `add` cannot tell which file to write",
    ),
    (
        "domain-conflict",
        "one host has two files (`Example.com.yaml` and `example.com.yaml`, which a \
         case-insensitive checkout writes into one); `ls` and `export` list both",
    ),
];

/// Rules some findings of which are gate findings (the rule marks them
/// with [`Finding::gate`]), and which.
pub static SOME: &[(&str, &str)] = &[
    (
        "invalid-boolean",
        "a value the reference tool, which took PyYAML's value with Python's truth, reads \
         otherwise than urldb (`https: 1`, `https: 'false'`, `case-sensitive-paths: 0`): the \
         URLs' scheme or the paths' case would differ",
    ),
    (
        "invalid-domain-name",
        "a file name that is no host name in any letter case (`verify` cannot use it); \
         uppercase letters and a trailing dot alone can be excused",
    ),
    (
        "invalid-cname",
        "a cname that is no host name in any letter case (`verify --cnames` cannot use it)",
    ),
    (
        "invalid-content-type",
        "a `content-type` that is not a single value (`verify` refuses the record)",
    ),
    (
        "invalid-content-length",
        "a value `verify` cannot read as a byte count (`verify` refuses the record)",
    ),
    (
        "invalid-sha256",
        "a value `verify` cannot read as a SHA-256 digest (`verify` refuses the record)",
    ),
];

/// Every finding of the rule `code` is a gate finding.
pub fn always(code: &str) -> bool {
    ALWAYS.iter().any(|(c, _)| *c == code)
}

/// Some findings of the rule `code` may be gate findings.
pub fn sometimes(code: &str) -> bool {
    SOME.iter().any(|(c, _)| *c == code)
}

/// What of `rule` is a gate finding, as a sentence for its documentation;
/// `None` for a rule none of whose findings is.
pub fn describe(rule: &Rule) -> Option<String> {
    let why = |list: &[(&str, &'static str)]| {
        list.iter()
            .find(|(c, _)| *c == rule.code)
            .map(|(_, why)| *why)
    };
    if let Some(why) = why(ALWAYS) {
        return Some(format!(
            "A gate finding, always checked and an error whatever `--select`, `--ignore`, \
             `[lint]`, per-file ignores or suppression comments say: {why}."
        ));
    }
    why(SOME).map(|which| {
        format!(
            "Partly a gate finding, always checked and an error whatever `--select`, \
             `--ignore`, `[lint]`, per-file ignores or suppression comments say: {which}."
        )
    })
}

#[cfg(test)]
mod tests {
    use super::{ALWAYS, SOME};

    /// Every code named is a rule's, once.
    #[test]
    fn the_lists_name_rules() {
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
