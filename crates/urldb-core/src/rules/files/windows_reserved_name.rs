//! ## What it checks
//! A domain file whose name Windows reserves, so that it cannot be checked
//! out there: a device name before its first dot, or a dot or space at its
//! end.
//!
//! - The part of the name before its first dot (the domain's first label:
//!   `con` in `con.example.org.yaml`), spaces at its end aside, is a device
//!   name, in any case: `CON`, `PRN`, `AUX`, `NUL`, `COM0` to `COM9`,
//!   `COM¹`, `COM²`, `COM³`, `LPT0` to `LPT9`, `LPT¹`, `LPT²`, `LPT³`,
//!   `CONIN$` or `CONOUT$`.
//! - Or the whole name ends in a dot or a space (a file named on the
//!   command line; the files urldb finds end in `.yaml`).
//!
//! A device name is reserved whatever follows its first dot: Microsoft's
//! *Naming Files, Paths, and Namespaces* says "`NUL.txt` and `NUL.tar.gz`
//! are both equivalent to `NUL`", so every file of a domain whose first
//! label is `con` is reserved, and `icon.example.yaml`, `com10.example.yaml`
//! or `www.con.example.yaml` are not. A dot or space just before the
//! extension (`example.com..yaml`) is no trouble to Windows: only the end of
//! the whole name counts (`invalid-domain-name` reports the trailing dot of
//! the domain). Characters Windows forbids in names (`:`, `*`, `?`, ...)
//! are not letters, digits or hyphens, so `invalid-domain-name` reports
//! them already.
//!
//! ## Why it matters
//! Git for Windows refuses such a path (`error: invalid path
//! 'con.example.org.yaml'`, its `core.protectNTFS` check, on by default;
//! it lets `COM0` and the superscript forms through, which Windows reserves
//! all the same), and the checkout it was doing stops there: a clone, a pull or a branch
//! switch of the whole database fails for everyone on Windows, not only for
//! this file. Programs that do open the name reach the console, printer or
//! serial port instead of a file on Windows before Windows 11. A real host
//! may well be called `con.example.org` or `com1.example.net`, so this is a
//! warning, reported on every system: the team that keeps the database
//! decides whether anyone checks it out on Windows.
//!
//! ## Example
//! ```text
//! db/con.example.org.yaml
//! ```
//!
//! Use instead, when no one checks the database out on Windows, the file
//! excused where it is:
//! ```yaml
//! # con.example.org.yaml
//! # urldb: ignore-file[windows-reserved-name] no one checks this database out on Windows
//! ---
//! ---
//! _path: /
//! content-type: text/html
//! ```
//!
//! ## Fix
//! None: the file name is the domain, and no other name holds its records.
//! Excuse the file with `# urldb: ignore-file[windows-reserved-name]` or
//! `[lint.per-file-ignores]` (`docs/suppressions.md`) when no one checks
//! the database out on Windows. Do not set `core.protectNTFS=false` to get
//! a checkout through: it also turns off Git's protection against paths
//! that Windows reads as `.git`.

use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "windows-reserved-name",
    summary: "Windows reserves the file name: it cannot be checked out there",
    severity: Severity::Warning,
    fix: FixKind::None,
    blocks_rewrite: false,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::No,
    check: Check::Text(check),
};

/// The file name is all the rule reads: it runs before parsing, so a file
/// whose text is broken is reported too.
fn check(ctx: &TextContext, out: &mut Vec<Finding>) {
    let Some(name) = ctx.source.path().file_name() else {
        return;
    };
    let name = name.to_string_lossy();
    let Some(problem) = problem(&name) else {
        return;
    };
    let (message, help) = match problem {
        Reserved::Device(device) => (
            format!(
                "Windows reserves the file name `{name}`: `{device}` before its first dot is a \
                 device name there, so the file cannot be checked out on Windows"
            ),
            format!(
                "a host may really be called this; if no one checks the database out on \
                 Windows, excuse the file: `# urldb: ignore-file[{}]`",
                RULE.code
            ),
        ),
        Reserved::Ending(last) => (
            format!(
                "Windows drops the {last} at the end of the file name `{name}`, so the file \
                 cannot be checked out on Windows"
            ),
            format!("rename it: `{}`", name.trim_end_matches(['.', ' '])),
        ),
    };
    out.push(Finding::new(&RULE, 0..0, message).help(help));
}

/// Why Windows reserves a file name.
#[derive(Debug, PartialEq, Eq)]
enum Reserved<'a> {
    /// Its part before the first dot, as written, is a device name.
    Device(&'a str),
    /// It ends in a dot or a space (named).
    Ending(&'static str),
}

/// What Windows reserves in the file name `name`, if anything
/// (<https://learn.microsoft.com/en-us/windows/win32/fileio/naming-a-file>,
/// "Naming Conventions"; Git for Windows' `is_valid_win32_path` refuses the
/// same, but for `COM0` and the superscript digits).
fn problem(name: &str) -> Option<Reserved<'_>> {
    let base = name.split('.').next().unwrap_or(name);
    // Spaces after a device name do not make it another name
    // (`CON .txt` is `CON`), as Git for Windows also reads it.
    let base = base.trim_end_matches(' ');
    if is_device(base) {
        return Some(Reserved::Device(base));
    }
    match name.chars().last() {
        Some('.') => Some(Reserved::Ending("dot")),
        Some(' ') => Some(Reserved::Ending("space")),
        _ => None,
    }
}

/// A DOS device name, in any case: `CON`, `PRN`, `AUX`, `NUL`, the console's
/// `CONIN$` and `CONOUT$`, and `COM`/`LPT` with one digit, where Windows
/// reads the superscripts `¹`, `²` and `³` as digits too.
fn is_device(base: &str) -> bool {
    let lower = base.to_ascii_lowercase();
    if ["con", "prn", "aux", "nul", "conin$", "conout$"].contains(&lower.as_str()) {
        return true;
    }
    let Some(number) = lower
        .strip_prefix("com")
        .or_else(|| lower.strip_prefix("lpt"))
    else {
        return false;
    };
    let mut chars = number.chars();
    matches!(
        (chars.next(), chars.next()),
        (Some('0'..='9' | '¹' | '²' | '³'), None)
    )
}

#[cfg(test)]
mod tests {
    use super::{Reserved, problem};
    use crate::rules::test_support::{check_in, codes};

    const MINIMAL: &str = "---\n---\n_path: /\ncontent-type: text/html\n";

    #[test]
    fn every_device_name_in_any_case_and_after_any_extension() {
        let mut names: Vec<String> = ["con", "prn", "aux", "nul", "conin$", "conout$"]
            .iter()
            .map(|s| (*s).to_string())
            .collect();
        for prefix in ["com", "lpt"] {
            for digit in "0123456789¹²³".chars() {
                names.push(format!("{prefix}{digit}"));
            }
        }
        assert_eq!(names.len(), 32);
        for base in &names {
            for name in [
                format!("{base}.yaml"),
                format!("{base}.example.org.yaml"),
                format!("{}.example.yaml", base.to_uppercase()),
                format!("{base} .example.yaml"),
                base.clone(),
            ] {
                let device = name.split('.').next().unwrap_or_default().trim_end();
                assert_eq!(problem(&name), Some(Reserved::Device(device)), "{name}");
            }
        }
    }

    #[test]
    fn names_that_only_look_reserved() {
        for name in [
            "example.com.yaml",
            "icon.example.yaml",
            "console.example.yaml",
            "com10.example.yaml",
            "lpt.example.yaml",
            "com.example.yaml",
            "www.con.example.yaml",
            "example.con.yaml",
            "nul-1.example.yaml",
            "con-tent.example.yaml",
            "com⁴.example.yaml",
            "com1x.example.yaml",
            // Only the end of the whole name counts.
            "example.com..yaml",
            "example.com .yaml",
            ".example.yaml",
        ] {
            assert_eq!(problem(name), None, "{name}");
        }
    }

    #[test]
    fn a_name_ending_in_a_dot_or_a_space() {
        assert_eq!(problem("example.com.yaml."), Some(Reserved::Ending("dot")));
        assert_eq!(
            problem("example.com.yaml "),
            Some(Reserved::Ending("space"))
        );
        assert_eq!(
            problem("example.com.yaml. ."),
            Some(Reserved::Ending("dot"))
        );
    }

    #[test]
    fn the_finding_says_why_and_how_to_excuse_it() {
        let checked = check_in("db/con.example.org.yaml", MINIMAL);
        let codes: Vec<&str> = checked.findings.iter().map(|f| f.code()).collect();
        assert_eq!(codes, ["windows-reserved-name"]);
        let f = &checked.findings[0];
        assert_eq!(f.span, 0..0);
        assert_eq!(f.severity, crate::rules::diagnostic::Severity::Warning);
        assert_eq!(
            f.message,
            "Windows reserves the file name `con.example.org.yaml`: `con` before its first dot \
             is a device name there, so the file cannot be checked out on Windows"
        );
        assert_eq!(
            f.help.as_deref(),
            Some(
                "a host may really be called this; if no one checks the database out on \
                 Windows, excuse the file: `# urldb: ignore-file[windows-reserved-name]`"
            )
        );
        assert!(checked.blocked_by.is_none());
        assert!(checked.canonical.is_some());
    }

    #[test]
    fn a_trailing_dot_names_the_name_to_use() {
        let checked = check_in("example.com.yaml.", MINIMAL);
        let f = checked
            .findings
            .iter()
            .find(|f| f.code() == "windows-reserved-name")
            .expect("finding");
        assert_eq!(
            f.message,
            "Windows drops the dot at the end of the file name `example.com.yaml.`, so the \
             file cannot be checked out on Windows"
        );
        assert_eq!(f.help.as_deref(), Some("rename it: `example.com.yaml`"));
    }

    #[test]
    fn reported_on_a_file_that_does_not_parse() {
        assert!(codes("aux.example.yaml", "---\n- [\n").contains(&"windows-reserved-name"));
    }

    #[test]
    fn excused_by_ignore_file() {
        let text = "# urldb: ignore-file[windows-reserved-name]\n---\n---\n_path: /\ncontent-type: text/html\n";
        let checked = check_in("nul.example.yaml", text);
        assert!(checked.findings.is_empty(), "{:?}", checked.findings);
        assert_eq!(checked.suppressed.len(), 1);
    }
}
