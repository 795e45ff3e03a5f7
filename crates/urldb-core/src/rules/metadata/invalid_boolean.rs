//! ## What it checks
//! A metadata boolean (`https`, `case-sensitive-paths`) whose value is not
//! the plain scalar `true` or `false`: a YAML 1.1 spelling (`yes`, `No`,
//! `on`, `OFF`, `True`, `FALSE`), a quoted string (`'true'`), a number, an
//! empty value or a list.
//!
//! ## Why it matters
//! The reference tool loaded files with PyYAML (YAML 1.1), where `yes` and
//! `off` are booleans; YAML 1.2 tools read them as strings, and a string is
//! not a boolean. Worse, the reference tool used the value with Python
//! truthiness: a quoted `'false'` is a non-empty string, so it meant
//! *true* to it, while it plainly says false. Only `true` and `false` mean
//! the same to every reader.
//!
//! A value the reference tool reads otherwise than urldb is a gate
//! finding, which nothing excuses: `https: 1`, `https: x`, `https:
//! 'false'`, `https: [x]` (true to it, `false` to urldb),
//! `case-sensitive-paths: 0` and `case-sensitive-paths:` with no value
//! (false to it, or not known, where urldb reads the default `true`). So
//! no excused finding leaves `ls`, `export` or `verify` with another
//! scheme or another path rule than the reference tool's
//! (`docs/format.md`, "Metadata booleans").
//!
//! ## Example
//! ```yaml
//! ---
//! case-sensitive-paths: no
//! https: 'yes'
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! case-sensitive-paths: false
//! https: true
//! ```
//!
//! ## Fix
//! Safe, by `urldb check --fix`, for a plain YAML 1.1 spelling (`yes` →
//! `true`, `Off` → `false`): it loaded as that boolean, so the meaning is
//! kept. Shown but not applied where the meaning is clear but the spelling
//! was a string or a number: a quoted `'true'` / `'yes'` (the reference
//! tool read any non-empty string as true, as its text says), `1` and `0`.
//! None otherwise: a quoted `'false'` / `'no'` was *true* to the reference
//! tool, an empty value was false to it (urldb reads the default), and
//! anything else has no meaning as a boolean, so a person decides.

use crate::model::resolve::Implicit;
use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "invalid-boolean",
    summary: "metadata boolean is not `true` or `false`",
    severity: Severity::Error,
    fix: FixKind::Sometimes,
    blocks_rewrite: false,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::Some(
        "a value the reference tool, which took PyYAML's value with Python's truth, reads \
         otherwise than urldb (`https: 1`, `https: 'false'`, `case-sensitive-paths: 0`): the \
         URLs' scheme or the paths' case would differ",
    ),
    check: Check::File {
        check,
        clean: CleanText(CLEAN),
    },
};

/// Clean text: it reads the metadata document alone (`rules::clean`).
pub(crate) static CLEAN: &[Clean] = &[Clean::Metadata];

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    for (index, entry) in domain::metadata(ctx.documents).iter().enumerate() {
        let Some(key) = entry.key_str() else {
            continue;
        };
        if key != domain::HTTPS && key != domain::CASE_SENSITIVE_PATHS {
            continue;
        }
        let Some(verdict) = verdict(&entry.value) else {
            continue;
        };
        let span = if entry.value.span.is_empty() {
            entry.key.span.clone()
        } else {
            entry.value.span.clone()
        };
        let default = key == domain::CASE_SENSITIVE_PATHS;
        let otherwise = domain::bool_read_otherwise(ctx.documents, key, default);
        let message = match otherwise {
            Some(ours) => format!(
                "`{key}` {}; the reference tool reads it as `{}` (Python's truth of PyYAML's \
                 value), urldb as `{}`",
                verdict.message,
                word(!ours),
                word(ours)
            ),
            None => format!("`{key}` {}", verdict.message),
        };
        let mut finding = Finding::new(&RULE, span, message).help(verdict.help);
        if otherwise.is_some() {
            finding = finding.gate();
        }
        if let Some((value, safe)) = verdict.fix {
            let title = format!("write `{value}`");
            let edits = vec![Edit::SetScalar {
                at: NodePath::new(0, &[index]),
                value: Scalar::plain(value),
            }];
            finding = finding.fix(if safe {
                Fix::safe(title, edits)
            } else {
                Fix::unsafe_(title, edits)
            });
        }
        out.push(finding);
    }
}

struct Reading {
    message: String,
    help: String,
    /// The boolean to write, and whether that is safe.
    fix: Option<(&'static str, bool)>,
}

fn word(b: bool) -> &'static str {
    if b { "true" } else { "false" }
}

/// What is wrong with a boolean's value; `None` for `true` / `false`.
fn verdict(node: &Node) -> Option<Reading> {
    let Some(scalar) = node.as_scalar() else {
        return Some(Reading {
            message: format!("is a {}, not a boolean", node.kind_name()),
            help: "write `true` or `false`".to_string(),
            fix: None,
        });
    };
    let text = scalar.value.as_str();
    let parsed = domain::parse_bool(text);
    if scalar.style == ScalarStyle::Plain {
        if text == "true" || text == "false" {
            return None;
        }
        if let Some(b) = parsed {
            return Some(Reading {
                message: format!("is `{text}`, a YAML 1.1 spelling of `{}`", word(b)),
                help: format!(
                    "write `{}`: YAML 1.2 tools read `{text}` as a string",
                    word(b)
                ),
                fix: Some((word(b), true)),
            });
        }
        return Some(match (scalar.implicit(), text) {
            (Implicit::Null, _) => Reading {
                message: "has no value".to_string(),
                help: "write `true` or `false`, or remove the key to get the default".to_string(),
                fix: None,
            },
            (Implicit::Int, "0" | "1") => {
                let b = text == "1";
                Reading {
                    message: format!("is the number `{text}`, not a boolean"),
                    help: format!("write `{}`", word(b)),
                    fix: Some((word(b), false)),
                }
            }
            _ => Reading {
                message: format!("is `{text}`, not a boolean"),
                help: "write `true` or `false`".to_string(),
                fix: None,
            },
        });
    }
    Some(match parsed {
        Some(true) => Reading {
            message: format!("is the string `{text}`, not a boolean"),
            help: "write `true` without quotes".to_string(),
            fix: Some(("true", false)),
        },
        Some(false) => Reading {
            message: format!("is the string `{text}`, not a boolean"),
            help: "write `false` without quotes if that is what is meant: the reference tool read \
                   any non-empty string as true"
                .to_string(),
            fix: None,
        },
        None => Reading {
            message: format!("is the string `{text}`, not a boolean"),
            help: "write `true` or `false` without quotes".to_string(),
            fix: None,
        },
    })
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{codes, findings, fixed, with_metadata};

    fn fix_of(meta: &str) -> Option<(crate::rules::diagnostic::Applicability, String)> {
        let found = findings(with_metadata(meta), "invalid-boolean");
        let fix = found.first()?.fix.as_ref()?;
        Some((fix.applicability, fix.title.clone()))
    }

    #[test]
    fn flags_yaml_1_1_spellings() {
        for v in ["yes", "No", "on", "OFF", "True", "FALSE"] {
            assert!(
                codes("example.com.yaml", &with_metadata(&format!("https: {v}\n")))
                    .contains(&"invalid-boolean"),
                "{v}"
            );
        }
    }

    #[test]
    fn flags_strings_numbers_lists_and_empty() {
        for v in ["'true'", "\"false\"", "1", "2", "y", "[true]", "", "~"] {
            let text = with_metadata(&format!("case-sensitive-paths: {v}\n"));
            assert!(
                codes("example.com.yaml", &text).contains(&"invalid-boolean"),
                "{v}"
            );
        }
    }

    #[test]
    fn accepts_true_and_false() {
        let text = with_metadata("case-sensitive-paths: false\nhttps: true\n");
        assert!(!codes("example.com.yaml", &text).contains(&"invalid-boolean"));
    }

    #[test]
    fn ignores_other_keys() {
        assert!(
            !codes("example.com.yaml", &with_metadata("cnames:\n- 'yes'\n"))
                .contains(&"invalid-boolean")
        );
    }

    #[test]
    fn fix_yaml_1_1_spellings() {
        assert_eq!(
            fixed(
                "example.com.yaml",
                &with_metadata("case-sensitive-paths: Off\nhttps: yes\n")
            ),
            with_metadata("case-sensitive-paths: false\nhttps: true\n")
        );
    }

    #[test]
    fn fix_safety() {
        use crate::rules::diagnostic::Applicability::{Safe, Unsafe};
        assert_eq!(fix_of("https: ON\n").map(|f| f.0), Some(Safe));
        assert_eq!(fix_of("https: 'true'\n").map(|f| f.0), Some(Unsafe));
        assert_eq!(fix_of("https: 1\n").map(|f| f.0), Some(Unsafe));
        assert_eq!(fix_of("https: 'false'\n"), None);
        assert_eq!(fix_of("https:\n"), None);
        // Shown-only fixes are not applied.
        let text = with_metadata("https: 'yes'\n");
        assert_eq!(fixed("example.com.yaml", &text), text);
    }
}
