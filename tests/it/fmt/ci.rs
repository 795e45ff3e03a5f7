//! `fmt --check` in CI: `--format github` (or `URLDB_FORMAT=github`, which
//! the Action sets for every command) annotates each file it would rewrite
//! and each file it cannot format; `check`'s other formats in
//! `URLDB_FORMAT` print as `full` (`docs/output.md`, "fmt's formats").

use crate::support::{self, runner};

use std::path::Path;
use std::process::Output;

const CLEAN: &str = "---\n---\n_path: /\ncontent-type: text/html\n";
const UNSORTED: &str = "---\n---\ncontent-type: text/html\n_path: /a\n";
const BROKEN: &str = "---\n---\n_path: [\n";

fn database() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, text) in [
        ("a.example.yaml", CLEAN),
        ("b.example.yaml", UNSORTED),
        ("c.example.yaml", BROKEN),
    ] {
        std::fs::write(dir.path().join(name), text).expect("write");
    }
    dir
}

fn fmt(dir: &Path, args: &[&str], format: Option<&str>) -> Output {
    let mut cmd = support::urldb();
    cmd.current_dir(dir)
        .args(["fmt", "--check"])
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("URLDB_FORMAT");
    if let Some(format) = format {
        cmd.env("URLDB_FORMAT", format);
    }
    cmd.output().expect("run")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn fmt_check_annotates_for_github() {
    let dir = database();
    let flag = fmt(dir.path(), &["--format", "github"], None);
    let env = fmt(dir.path(), &[], Some("github"));
    for out in [&flag, &env] {
        let text = stdout(out);
        assert_eq!(out.status.code(), Some(1), "{text}");
        // What a runner reads as commands: one per file, nothing else.
        let commands = runner::commands(&text);
        assert_eq!(commands.len(), 2, "{text}");
        assert!(
            commands[0].starts_with("::error file=b.example.yaml,title=urldb fmt::")
                && commands[0].contains("run `urldb fmt b.example.yaml`"),
            "{text}"
        );
        assert!(
            commands[1].starts_with("::error file=c.example.yaml,line=")
                && commands[1].contains("title=urldb fmt (yaml-syntax)::not formatted"),
            "{text}"
        );
        assert!(!text.contains("Would reformat"), "{text}");
        assert!(
            text.contains("1 file would be reformatted, 1 file left unchanged, 1 not formatted"),
            "{text}"
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join("b.example.yaml")).expect("read"),
            UNSORTED
        );
    }
    assert_eq!(flag.stdout, env.stdout);
    // --format beats the environment.
    let text = stdout(&fmt(dir.path(), &["--format", "full"], Some("github")));
    assert!(runner::commands(&text).is_empty(), "{text}");
    assert!(text.contains("Would reformat: b.example.yaml"), "{text}");
}

/// `URLDB_FORMAT` set for `check` (json, junit, sarif) never breaks `fmt`:
/// its output is a list of files, printed as `full`. On the command line
/// `fmt` takes only its own formats; a value that is no format is an error.
#[test]
fn fmt_takes_every_format_of_check_from_the_environment() {
    let dir = database();
    let full = stdout(&fmt(dir.path(), &[], None));
    for format in ["full", "concise", "json", "junit", "sarif"] {
        let out = fmt(dir.path(), &[], Some(format));
        assert_eq!(out.status.code(), Some(1), "{format}");
        assert_eq!(stdout(&out), full, "{format}");
    }
    let out = fmt(dir.path(), &[], Some("yaml"));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("URLDB_FORMAT: `yaml` is not a format"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = fmt(dir.path(), &["--format", "sarif"], None);
    assert_eq!(out.status.code(), Some(2));
}
