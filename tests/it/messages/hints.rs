//! Every `urldb COMMAND --option` that urldb's own messages, hooks and
//! documentation suggest exists: the command is one of urldb's, and each
//! long option it names is in that command's `--help`; and an option a
//! message offers on its own is one the command printing it accepts. A
//! hint to run something that is not there costs a newcomer more than no
//! hint.

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

/// The `--options` a text offers outside any `urldb …` command it
/// quotes: each is meant for the command that prints the text. Options
/// inside a quoted `urldb COMMAND …` are that command's, and checked by
/// [`every_command_a_message_suggests_exists`].
fn bare_options(text: &str) -> Vec<String> {
    let mut outside = String::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 1 && part.starts_with("urldb ") {
            continue;
        }
        outside.push_str(part);
        outside.push(' ');
    }
    let mut found = Vec::new();
    let bytes = outside.as_bytes();
    let mut at = 0;
    while let Some(i) = outside[at..].find("--") {
        let start = at + i;
        at = start + 2;
        // `---` (a YAML document marker) and `x--y` are no options.
        let before = start.checked_sub(1).map(|b| bytes[b]);
        if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'-') {
            continue;
        }
        let name: String = outside[at..]
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-')
            .collect();
        let name = name.trim_end_matches('-');
        if name.len() > 1 && name.starts_with(|c: char| c.is_ascii_lowercase()) {
            found.push(format!("--{name}"));
        }
    }
    found
}

/// The text of the string literals of a Rust file (outside comments).
fn string_literals(source: &str) -> String {
    let mut out = String::new();
    for line in source.lines() {
        let code = line.trim_start();
        if code.starts_with("//") || code.starts_with("#[") {
            continue;
        }
        for (i, part) in line.split('"').enumerate() {
            if i % 2 == 1 {
                out.push_str(part);
                out.push('\n');
            }
        }
    }
    out
}

/// Every message a way out, checked per subcommand: an option a message
/// offers is one the command that prints it accepts (`rm` once offered
/// `add`'s `--create-domain`, which `rm` refuses). Each command's own
/// module is read for the options its messages name; then the messages of
/// the code the commands share are met through the binary, command by
/// command, and every option in them is held to that command's `--help`.
#[test]
fn every_option_a_message_offers_is_taken_by_its_command() {
    let dir = tempfile::tempdir().expect("tempdir");
    let help = |command: &str| {
        let out = run_in(dir.path(), &[command, "--help"]);
        assert_eq!(out.status.code(), Some(0), "urldb {command} --help");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let takes = |help: &str, option: &str| {
        help.contains(&format!("{option} "))
            || help.contains(&format!("{option},"))
            || help.contains(&format!("{option}\n"))
            || help.contains(&format!("{option}="))
            || help.contains(&format!("{option} <"))
    };
    let mut wrong = BTreeSet::new();
    let commands = oracles::repo().join("src/commands");
    for (file, command) in [
        ("add.rs", "add"),
        ("check.rs", "check"),
        ("export.rs", "export"),
        ("fmt.rs", "fmt"),
        ("import.rs", "import"),
        ("init.rs", "init"),
        ("ls.rs", "ls"),
        ("report.rs", "report"),
        ("rm.rs", "rm"),
        ("verify.rs", "verify"),
    ] {
        let source = std::fs::read_to_string(commands.join(file)).expect("read");
        let help = help(command);
        for option in bare_options(&string_literals(&source)) {
            if !takes(&help, &option) {
                wrong.insert(format!(
                    "src/commands/{file}: `{option}` is not an option of `urldb {command}`"
                ));
            }
        }
    }

    // The shared code's messages, met as each command meets them.
    let db = dir.path().join("db");
    std::fs::create_dir(&db).expect("mkdir");
    std::fs::write(
        db.join("example.com.yaml"),
        "---\n---\n_path: /a\ncontent-type: text/html \n",
    )
    .expect("write");
    std::fs::write(db.join("list.txt"), "https://unknown.example/x\n").expect("write");
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).expect("mkdir");
    let cases: &[(&Path, &[&str])] = &[
        (&db, &["rm", "https://unknown.example/"]),
        (&db, &["rm", "https://exampel.com/"]),
        (&db, &["add", "https://unknown.example/"]),
        (
            &db,
            &[
                "add",
                "--map",
                "example.com=127.0.0.1:9",
                "https://example.com/b",
            ],
        ),
        (
            &db,
            &[
                "add",
                "--allow-private",
                "--timeout",
                "1s",
                "--map",
                "example.com=127.0.0.1:9",
                "https://example.com/b",
            ],
        ),
        (
            &db,
            &[
                "import",
                "--from",
                "urls",
                "list.txt",
                "--content-type",
                "text/html",
            ],
        ),
        (&db, &["import", "--from", "urls", "list.txt"]),
        (&db, &["check"]),
        (&db, &["check", "-"]),
        (&db, &["fmt", "-"]),
        (&db, &["check", "--since", "nosuchrev"]),
        (&db, &["ls", "-c", "nosuch"]),
        (&db, &["ls", "--path-prefix", "a"]),
        (&db, &["ls", "-d", "exampel.com"]),
        (&db, &["export", "--to", "json", "--match", "zzz"]),
        (&db, &["verify", "--path-prefix", "a"]),
        (&db, &["verify", "--map", "example.com=127.0.0.1:9"]),
        (&empty, &["check"]),
        (&empty, &["fmt"]),
        (&empty, &["ls"]),
        (&empty, &["export", "--to", "csv"]),
        (&empty, &["verify"]),
        (&db, &["check", "nosuch.yaml"]),
    ];
    let mut helps: BTreeMap<&str, String> = BTreeMap::new();
    for (at, args) in cases {
        let out = run_in(at, args);
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let command = args[0];
        let help = helps.entry(command).or_insert_with(|| help(command));
        for option in bare_options(&said) {
            if !takes(help, &option) {
                wrong.insert(format!(
                    "urldb {}: offers `{option}`, which `urldb {command}` refuses:\n{said}",
                    args.join(" ")
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{}",
        wrong.into_iter().collect::<Vec<_>>().join("\n")
    );
}
