//! `--format sarif`: SARIF 2.1.0, the format code-scanning services (GitHub
//! code scanning among them) import. Every rule is described in the tool's
//! `driver.rules` from its own documentation; each finding is a `result`
//! pointing at its region (lines and columns in Unicode code points).

use std::io::{self, Write};

use serde_json::{Value, json};

use urldb_core::lint::Excuse;
use urldb_core::rules;
use urldb_core::rules::diagnostic::{Applicability, Severity};
use urldb_store::database::FileResult;

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

pub(crate) fn write(out: &mut dyn Write, files: &[FileResult]) -> io::Result<()> {
    urldb_output::write_json_pretty(&mut *out, &log(files))?;
    writeln!(out)
}

/// The whole SARIF log.
pub(crate) fn log(files: &[FileResult]) -> Value {
    let rules: Vec<Value> = rules::ALL.iter().map(|r| rule(r)).collect();
    // Findings a suppression excused are results too, marked as
    // suppressed: in the source by a comment, or outside it by
    // `[lint.per-file-ignores]` (`docs/suppressions.md`).
    let located = files.iter().flat_map(|file| {
        let suppressed = &file.checked.suppressed;
        let mut all: Vec<(Option<Excuse>, super::Located<'_>)> = super::locate(file)
            .into_iter()
            .map(|f| (None, f))
            .chain(
                super::locate_in(file, suppressed.iter().map(|e| &e.finding))
                    .into_iter()
                    .zip(suppressed)
                    .map(|(f, excused)| (Some(excused.by), f)),
            )
            .collect();
        all.sort_by_key(|(_, f)| (f.line, f.column));
        all
    });
    let results: Vec<Value> = located
        .map(|(suppressed, f)| {
            let index = rules::ALL.iter().position(|r| r.code == f.code);
            let mut message = f.message.to_string();
            if let Some(help) = f.help {
                message.push_str("\nhelp: ");
                message.push_str(help);
            }
            let mut result = json!({
                "ruleId": f.code,
                "level": level(f.severity),
                "message": { "text": message },
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": { "uri": uri(&f.path), "uriBaseId": "%SRCROOT%" },
                        "region": {
                            "startLine": f.line,
                            "startColumn": f.column,
                            "endLine": f.end_line,
                            "endColumn": f.end_column,
                        }
                    }
                }],
            });
            if let Some(index) = index {
                result["ruleIndex"] = json!(index);
            }
            match suppressed {
                Some(Excuse::Comment) => {
                    result["suppressions"] = json!([{
                        "kind": "inSource",
                        "justification": "a `# urldb: ignore[...]` comment",
                    }]);
                }
                Some(Excuse::PerFileIgnores) => {
                    result["suppressions"] = json!([{
                        "kind": "external",
                        "justification": "`[lint.per-file-ignores]` in urldb.toml",
                    }]);
                }
                None => {}
            }
            if let Some(fix) = &f.finding.fix {
                // The edits are tree edits, not text replacements: the fix is
                // described, and `urldb check --fix` applies it.
                let safe = fix.applicability == Applicability::Safe;
                result["properties"] = json!({
                    "fix": fix.title,
                    "fixApplicability": if safe { "safe" } else { "unsafe" },
                });
            }
            result
        })
        .collect();
    // The `file:` URI of the directory the paths are relative to: `url`
    // spells a Windows directory as `file:///C:/…` (or `file://server/share/…`),
    // which text put after `file://` would not.
    let root = std::env::current_dir()
        .ok()
        .and_then(|cwd| url::Url::from_directory_path(cwd).ok())
        .map(String::from);
    let mut run = json!({
        "tool": {
            "driver": {
                "name": "urldb",
                "version": env!("CARGO_PKG_VERSION"),
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }
        },
        "columnKind": "unicodeCodePoints",
        "results": results,
    });
    if let Some(root) = root {
        run["originalUriBaseIds"] = json!({ "%SRCROOT%": { "uri": root } });
    }
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [run],
    })
}

fn rule(rule: &rules::Rule) -> Value {
    let documentation = rule.documentation();
    json!({
        "id": rule.code,
        "name": rule.code,
        "shortDescription": { "text": rule.summary },
        "fullDescription": { "text": first_paragraph(&documentation) },
        "help": {
            "text": documentation,
            "markdown": urldb_core::rules::docs::render(rule),
        },
        "defaultConfiguration": { "level": level(rule.severity) },
        "properties": { "fix": rule.fix.describe() },
    })
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// The first paragraph of prose (the start of "What it checks").
fn first_paragraph(markdown: &str) -> String {
    markdown
        .split("\n\n")
        .map(|p| {
            p.lines()
                .filter(|l| !l.starts_with('#'))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .find(|p| !p.trim().is_empty())
        .unwrap_or_default()
}

/// A path as a URI reference: `/`-separated (as urldb spells every path,
/// `docs/output.md`), everything but unreserved characters and `/`
/// percent-encoded. A Windows path with a drive (`C:/…`, named outside the
/// current directory) becomes the absolute-path reference `/C:/…`.
fn uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len() + 1);
    if let [letter, b':', b'/', ..] = path.as_bytes()
        && letter.is_ascii_alphabetic()
        && cfg!(windows)
    {
        out.push('/');
        out.push(*letter as char);
        out.push(':');
        return out + &uri(&path[2..]);
    }
    for b in path.bytes() {
        if urldb_core::model::path::is_unreserved(b) || b == b'/' {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
