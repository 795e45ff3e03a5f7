//! ## What it checks
//! A suppression comment (`# urldb: ignore[rule-code]`,
//! `# urldb: ignore-file[rule-code]`) that excuses nothing: a code whose
//! rule finds nothing where the comment applies, a rule that is not
//! enabled, a code named twice, a code no rule has (with the nearest one),
//! a directive urldb cannot read (`# urldb: ignore` without codes), or a
//! gate finding's code, which no suppression excuses (`docs/suppressions.md`,
//! "Gate findings"; said even in a file that does not parse). Like ruff's
//! `RUF100`.
//!
//! ## Why it matters
//! A suppression outlives the finding it was written for: the record gets
//! fixed, the comment stays, and the next real problem on that line is
//! silenced without anyone deciding so. A mistyped code silences nothing
//! while looking as if it did. Suppressions for cross-file rules
//! (`cname-conflict`, `domain-conflict`) are not judged here.
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! _path: /docs # urldb: ignore[path-case]
//! content-type: text/html
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! ---
//! _path: /docs
//! content-type: text/html
//! ```
//!
//! ## Fix
//! Sometimes, by `urldb check --fix`: codes that excuse nothing (gate
//! findings' among them) are removed (the whole comment when none is left; a note before the
//! directive is kept). An unknown code or a malformed directive needs a
//! person: the finding says the nearest code.

use crate::rules::prelude::*;

pub static RULE: Rule = Rule {
    code: "unused-suppression",
    summary: "suppression comment that excuses nothing, or names an unknown rule",
    severity: Severity::Warning,
    fix: FixKind::Sometimes,
    blocks_rewrite: false,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::No,
    check: Check::Parse,
};

/// Codes of a directive that excuse nothing; `edit` removes them.
pub(crate) fn unused(span: Span, names: &str, edit: Edit) -> Finding {
    Finding::new(&RULE, span, format!("unused suppression: {names}"))
        .help("remove the code from the comment, or the comment")
        .fix(Fix::safe(
            "remove what the suppression does not use",
            vec![edit],
        ))
}

/// Codes of a directive that name gate findings, which no suppression
/// excuses (`rules::gate_findings`); `edit` removes them.
pub(crate) fn gate(span: Span, names: &[String], edit: Edit) -> Finding {
    let what = if names.len() == 1 {
        "it is a gate finding"
    } else {
        "they are gate findings"
    };
    Finding::new(
        &RULE,
        span,
        format!("{} cannot be suppressed: {what}", names.join(", ")),
    )
    .help("fix what it reports; a gate finding is always checked (see `docs/suppressions.md`)")
    .fix(Fix::safe(
        "remove what the suppression cannot excuse",
        vec![edit],
    ))
}

/// A code no rule has.
pub(crate) fn unknown(span: Span, code: &str) -> Finding {
    let help = match crate::suggest::closest(code, crate::rules::ALL.iter().map(|r| r.code)) {
        Some(best) => format!("did you mean `{best}`?"),
        None => "`urldb rules` lists the rule codes".to_string(),
    };
    Finding::new(
        &RULE,
        span,
        format!("suppression names an unknown rule code `{code}`"),
    )
    .help(help)
}

/// A directive urldb cannot read.
pub(crate) fn malformed(span: Span, why: &str) -> Finding {
    Finding::new(&RULE, span, format!("malformed suppression: {why}"))
}
