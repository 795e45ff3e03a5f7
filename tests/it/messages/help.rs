//! `--help` and the manual pages: each command offers only the options that
//! act in it, the options several commands share stand under their own
//! headings (as cargo's and uv's do), and `urldb man` makes every page it
//! refers to.

use crate::support::{run_in, urldb};

use std::collections::BTreeSet;

/// The options several commands share, and their headings.
const SHARED: &[(&str, &str)] = &[
    ("--db", "Database options:"),
    ("--config", "Database options:"),
    ("--color", "Output options:"),
    ("--quiet", "Output options:"),
    ("--verbose", "Output options:"),
    ("--threads", "Run options:"),
    ("--no-cache", "Run options:"),
];

/// Which shared options act in each command: `--threads` where files are
/// read on every core, `--no-cache` where the results cache is used, `-v`
/// where a command can say more, `--db`/`--config`/`--color` where a
/// database and its configuration are read.
const ACTING: &[(&str, &[&str])] = &[
    (
        "check",
        &[
            "--db",
            "--config",
            "--color",
            "--quiet",
            "--verbose",
            "--threads",
            "--no-cache",
        ],
    ),
    (
        "fmt",
        &[
            "--db",
            "--config",
            "--color",
            "--quiet",
            "--verbose",
            "--threads",
            "--no-cache",
        ],
    ),
    ("add", &["--db", "--config", "--color", "--quiet"]),
    ("diff", &["--db", "--config", "--color", "--quiet"]),
    ("rm", &["--db", "--config", "--color", "--quiet"]),
    (
        "ls",
        &["--db", "--config", "--color", "--quiet", "--threads"],
    ),
    (
        "verify",
        &["--db", "--config", "--color", "--quiet", "--verbose"],
    ),
    ("merge", &[]),
    ("merge-driver", &[]),
    ("report", &["--quiet"]),
    ("moved", &["--db", "--config", "--color", "--quiet"]),
    ("import", &["--db", "--config", "--color", "--quiet"]),
    (
        "export",
        &["--db", "--config", "--color", "--quiet", "--threads"],
    ),
    ("rules", &[]),
    ("rule", &[]),
    ("init", &["--quiet"]),
    ("install-hook", &["--db", "--config", "--color", "--quiet"]),
    ("completions", &[]),
    ("man", &[]),
    ("server", &["--config"]),
];

fn help(args: &[&str]) -> String {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = run_in(dir.path(), args);
    assert_eq!(out.status.code(), Some(0), "{args:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The long options a help text offers.
fn offered(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let l = l
                .strip_prefix("-q, ")
                .or(l.strip_prefix("-v, "))
                .unwrap_or(l);
            l.starts_with("--").then(|| {
                l.split([' ', '=', '<'])
                    .next()
                    .unwrap_or_default()
                    .to_string()
            })
        })
        .collect()
}

/// The heading a help text puts `option` under.
fn heading_of(text: &str, option: &str) -> Option<String> {
    let mut heading = None;
    for line in text.lines() {
        if !line.starts_with(' ') && line.ends_with(':') {
            heading = Some(line.to_string());
        }
        let trimmed = line.trim_start();
        let named = trimmed
            .strip_prefix("-q, ")
            .or(trimmed.strip_prefix("-v, "))
            .unwrap_or(trimmed);
        if named == option || named.starts_with(&format!("{option} ")) {
            return heading;
        }
    }
    None
}

#[test]
fn each_command_offers_the_shared_options_that_act_in_it_under_their_headings() {
    // Every command of the tool is in the table.
    let top = help(&["--help"]);
    let commands: Vec<&str> = ACTING.iter().map(|(c, _)| *c).collect();
    for line in top.lines() {
        let Some(name) = line
            .strip_prefix("  ")
            .and_then(|l| l.split_whitespace().next())
        else {
            continue;
        };
        if line.starts_with("   ") || name.starts_with('-') || name == "help" {
            continue;
        }
        assert!(commands.contains(&name), "`{name}` is missing from ACTING");
    }
    for (command, acting) in ACTING {
        let text = help(&[command, "--help"]);
        let options = offered(&text);
        for (option, heading) in SHARED {
            let acts = acting.contains(option);
            assert_eq!(
                options.contains(*option),
                acts,
                "urldb {command} --help: {option} {}\n{text}",
                if acts {
                    "missing"
                } else {
                    "offered but does nothing there"
                }
            );
            if acts {
                assert_eq!(
                    heading_of(&text, option).as_deref(),
                    Some(*heading),
                    "urldb {command} --help: {option}\n{text}"
                );
            }
        }
    }
}

/// An option that does nothing in a command is refused there, as any
/// option the command does not know.
#[test]
fn an_option_that_does_nothing_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    for args in [
        &["init", "--threads", "2"][..],
        &["init", "--no-cache"],
        &["completions", "bash", "--no-cache"],
        &["man", "--threads", "2"],
        &["rules", "--db", "x"],
        &["add", "--no-cache", "https://example.com/"],
        &["verify", "--threads", "2"],
    ] {
        let out = run_in(dir.path(), args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("unexpected argument"), "{args:?}: {err}");
    }
}

/// The shared options may come before the command, as scripts and the
/// documentation write them (`urldb --db DIR check`), or after it; after
/// it wins.
#[test]
fn shared_options_before_or_after_the_command() {
    let dir = tempfile::tempdir().expect("tempdir");
    for sub in ["a", "b"] {
        std::fs::create_dir(dir.path().join(sub)).expect("mkdir");
    }
    std::fs::write(
        dir.path().join("a/example.org.yaml"),
        "---\n---\n_path: /\ncontent-type: text/html\n",
    )
    .expect("write");
    std::fs::write(
        dir.path().join("b/example.com.yaml"),
        "---\n---\n_path: /caf%c3%a9\ncontent-type: text/html\n",
    )
    .expect("write");
    let exit = |args: &[&str]| run_in(dir.path(), args).status.code();
    assert_eq!(exit(&["--db", "b", "check"]), Some(1));
    assert_eq!(exit(&["check", "--db", "b"]), Some(1));
    assert_eq!(exit(&["--db", "b", "check", "--db", "a"]), Some(0));
    assert_eq!(
        exit(&["--no-cache", "fmt", "--check", "--db", "a"]),
        Some(0)
    );
    // Before the command as after it, an option it does not take is refused.
    assert_eq!(exit(&["--no-cache", "verify", "--db", "a"]), Some(2));
    let out = run_in(dir.path(), &["-q", "check", "-v", "--db", "a"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--quiet and --verbose"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `urldb man` refers to a page per command (`urldb-check(1)`), and every
/// page it refers to is made: printed by `urldb man COMMAND`, or written
/// with the others by `urldb man --dir DIR`.
#[test]
fn man_makes_every_page_it_refers_to() {
    let top = help(&["man"]);
    assert!(top.contains(".TH urldb 1"), "{top}");
    let referred: BTreeSet<String> = top
        .split("urldb\\-")
        .skip(1)
        .filter_map(|rest| {
            rest.split_once("(1)")
                .map(|(name, _)| name.replace("\\-", "-"))
        })
        .collect();
    let commands: BTreeSet<String> = ACTING.iter().map(|(c, _)| c.to_string()).collect();
    assert_eq!(referred, commands, "{top}");
    for name in &referred {
        let page = help(&["man", name]);
        assert!(
            page.starts_with(".ie") && page.contains(&format!(".TH urldb-{name} 1")),
            "urldb man {name}:\n{page}"
        );
        // The page documents the command's own options.
        assert!(
            page.contains(".SH OPTIONS") || page.contains(".SH NAME"),
            "{page}"
        );
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let out = urldb()
        .args(["man", "--dir"])
        .arg(dir.path())
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0));
    let mut written: Vec<String> = std::fs::read_dir(dir.path())
        .expect("dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    let mut wanted: Vec<String> = referred.iter().map(|n| format!("urldb-{n}.1")).collect();
    wanted.push("urldb.1".to_string());
    wanted.sort();
    assert_eq!(written, wanted);
    let check = std::fs::read_to_string(dir.path().join("urldb-check.1")).expect("page");
    assert_eq!(check.as_bytes(), help(&["man", "check"]).as_bytes());
    // A page that is not there is an error that lists those that are.
    let none = tempfile::tempdir().expect("tempdir");
    let out = run_in(none.path(), &["man", "nosuch"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("urldb-check"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Each manual page's SYNOPSIS names what its options take, as `--help`
/// does (`--timeout <DURATION>`, not a bare `--timeout` that reads as a
/// switch), and a positional that takes several with `...` (`<URL>...`).
#[test]
fn man_synopsis_keeps_the_values_options_take() {
    for (command, _) in ACTING {
        let text = help(&[command, "--help"]);
        let page = help(&["man", command]);
        let synopsis = page
            .split(".SH SYNOPSIS\n")
            .nth(1)
            .and_then(|rest| rest.split("\n.SH").next())
            .unwrap_or_else(|| panic!("urldb-{command}: no SYNOPSIS\n{page}"))
            .replace("\\-", "-");
        for line in text.lines() {
            let line = line.trim_start();
            let line = line
                .strip_prefix("-q, ")
                .or(line.strip_prefix("-v, "))
                .unwrap_or(line);
            let Some(option) = line.strip_prefix("--") else {
                continue;
            };
            let mut words = option.split_whitespace();
            let (Some(name), Some(value)) = (words.next(), words.next()) else {
                continue;
            };
            if value.starts_with('<') {
                let wanted = format!("--{name} {value}");
                assert!(
                    synopsis.contains(&wanted),
                    "urldb-{command}: `{wanted}` not in the SYNOPSIS:\n{synopsis}"
                );
            }
        }
    }
    let add = help(&["man", "add"]);
    assert!(add.contains(" <URL>...\n"), "{add}");
}
