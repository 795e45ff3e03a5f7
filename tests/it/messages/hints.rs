//! Every `urldb COMMAND --option` that urldb's own messages, hooks and
//! documentation suggest exists: the command is one of urldb's, and each
//! long option it names is in that command's `--help`. A hint to run
//! something that is not there costs a newcomer more than no hint.

use crate::support::{oracles, run_in};

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Every `*.rs` file below `dir`, and every `*.md` file.
fn sources(dir: &Path, out: &mut Vec<(String, String)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.expect("entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if path.is_dir() {
            if !name.starts_with('.') && name != "target" {
                sources(&path, out);
            }
        } else if name.ends_with(".rs") || name.ends_with(".md") {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            out.push((path.display().to_string(), text));
        }
    }
}

/// The `urldb …` commands written between backticks in `text`.
fn suggested(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter_map(|quoted| quoted.strip_prefix("urldb "))
        .map(str::to_string)
        .collect()
}

#[test]
fn every_command_a_message_suggests_exists() {
    let repo = oracles::repo();
    let mut files = Vec::new();
    for dir in ["src", "crates", "docs"] {
        sources(&repo.join(dir), &mut files);
    }
    files.push((
        "README.md".to_string(),
        std::fs::read_to_string(repo.join("README.md")).expect("README"),
    ));
    let dir = tempfile::tempdir().expect("tempdir");
    let help = |args: &[&str]| {
        let out = run_in(dir.path(), args);
        (out.status.code() == Some(0)).then(|| String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let top = help(&["--help"]).expect("urldb --help");
    let mut helps: BTreeMap<String, Option<String>> = BTreeMap::new();
    let mut wrong = BTreeSet::new();
    let mut seen = 0;
    for (file, text) in &files {
        for command in suggested(text) {
            // `urldb --db DIR check`: options before the command are urldb's
            // own; a shell's `$(…)` or `|` ends urldb's words.
            let words: Vec<&str> = command
                .split_whitespace()
                .take_while(|w| !w.starts_with("$(") && !w.starts_with('|') && *w != "//")
                .collect();
            let Some(at) = words.iter().position(|w| {
                w.chars().all(|c| c.is_ascii_lowercase() || c == '-') && !w.starts_with('-')
            }) else {
                continue;
            };
            let name = words[at];
            if words[..at]
                .iter()
                .any(|w| !w.starts_with('-') && !w.chars().all(|c| c.is_ascii_uppercase()))
            {
                continue;
            }
            seen += 1;
            // clap's own: `urldb help X` is `urldb X --help`.
            if name == "help" {
                continue;
            }
            let text = helps
                .entry(name.to_string())
                .or_insert_with(|| help(&[name, "--help"]))
                .clone();
            let Some(text) = text else {
                wrong.insert(format!("{file}: `urldb {command}`: no command `{name}`"));
                continue;
            };
            for (i, word) in words.iter().enumerate() {
                let Some(option) = word.strip_prefix("--") else {
                    continue;
                };
                let option = option.split('=').next().unwrap_or_default();
                let option = option.trim_end_matches(|c: char| !c.is_ascii_alphanumeric());
                if option.is_empty() {
                    continue;
                }
                let within = if i < at { &top } else { &text };
                if !within.contains(&format!("--{option}")) {
                    wrong.insert(format!("{file}: `urldb {command}`: no option `--{option}`"));
                }
            }
        }
    }
    assert!(seen > 50, "only {seen} suggested commands found");
    assert!(
        wrong.is_empty(),
        "{}",
        wrong.into_iter().collect::<Vec<_>>().join("\n")
    );
}
