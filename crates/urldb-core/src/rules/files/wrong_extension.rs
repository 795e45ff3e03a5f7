//! ## What it checks
//! A domain file named `*.yml` instead of `*.yaml`. A `.yml` file below
//! the root of a database that `urldb.toml` (or `--db`) names is a domain
//! file like a `.yaml` one (`docs/files.md`, "Which files are in the
//! database"): it is checked, formatted and listed, and this rule asks for
//! its rename. Without `urldb.toml`, a `.yml` name is no domain file's.
//!
//! ## Why it matters
//! The database's domain files end in `.yaml`. urldb checks a `.yml` file
//! too, but the reference tool, scripts and editor settings that look for
//! `*.yaml` miss it, so its records silently drop out of everything else,
//! and `example.com.yml` next to `example.com.yaml` would be two files for
//! one domain.
//!
//! ## Example
//! ```toml
//! # urldb.toml
//! root = "database"
//! ```
//!
//! ```text
//! database/example.com.yml
//! ```
//!
//! Use instead:
//! ```text
//! database/example.com.yaml
//! ```
//!
//! ## Fix
//! None: urldb does not rename files. Run
//! `git mv example.com.yml example.com.yaml`.

use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "wrong-extension",
    summary: "domain file ends in `.yml`, not `.yaml`",
    severity: Severity::Warning,
    fix: FixKind::None,
    blocks_rewrite: false,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::No,
    check: Check::Text(check),
};

fn check(ctx: &TextContext, out: &mut Vec<Finding>) {
    let path = ctx.source.path();
    if path.extension().is_none_or(|e| e != "yml") {
        return;
    }
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let renamed = path.with_extension("yaml");
    let renamed = renamed
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    out.push(
        Finding::new(
            &RULE,
            0..0,
            format!("domain files end in `.yaml`; `{name}` is checked but tools that look for `*.yaml` miss it"),
        )
        .help(format!("rename it: `git mv {name} {renamed}`")),
    );
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{check_in, codes};

    #[test]
    fn flags_a_yml_file() {
        let text = "---\n---\n_path: /a\ncontent-type: text/html\n";
        assert_eq!(codes("example.com.yml", text), ["wrong-extension"]);
        let checked = check_in("db/example.com.yml", text);
        let f = &checked.findings[0];
        assert_eq!(f.span, 0..0);
        assert_eq!(
            f.message,
            "domain files end in `.yaml`; `example.com.yml` is checked but tools that look for `*.yaml` miss it"
        );
        assert_eq!(
            f.help.as_deref(),
            Some("rename it: `git mv example.com.yml example.com.yaml`")
        );
        assert_eq!(f.severity, crate::rules::diagnostic::Severity::Warning);
    }

    #[test]
    fn accepts_a_yaml_file() {
        assert!(!codes("example.com.yaml", "---\n").contains(&"wrong-extension"));
    }

    #[test]
    fn does_not_block_formatting() {
        let checked = check_in("example.com.yml", b"---\nhttps: yes\n");
        assert!(checked.blocked_by.is_none());
    }
}
