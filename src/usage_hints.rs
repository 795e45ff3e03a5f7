//! Usage errors that a user of the reference tool (wwturldb) meets first:
//! its commands by their old names (`dump-urls`) and its `check`, which
//! fetched URLs (`check -c frontend`, `-d`, `--map`) where urldb's `check`
//! lints files. clap's own tip there ("to pass '-c' as a value, use '--
//! -c'") would lead them further astray: the tip names urldb's command
//! instead (`docs/coming-from-wwturldb.md`).

use std::ffi::OsString;

use clap::error::{ContextKind, ContextValue, ErrorKind};

/// The global options that take a value: the word after one is not the
/// command.
const TAKES_A_VALUE: [&str; 5] = ["--db", "--config", "--config-from", "--color", "--threads"];

/// wwturldb's commands that urldb names otherwise.
const RENAMED: [(&str, &str); 1] = [("dump-urls", "urldb ls")];

/// Options of wwturldb's `check` (fetching URLs), which is `urldb verify`.
const CHECKS_URLS: [&str; 5] = ["-c", "--category", "-d", "--domain", "--map"];

/// The tip for `error`, a usage error of the command line `args` (the
/// program's name first), when it is one of wwturldb's ways.
pub(crate) fn hint(error: &clap::Error, args: &[OsString]) -> Option<String> {
    let value = |kind| match error.get(kind) {
        Some(ContextValue::String(s)) => Some(s.as_str()),
        _ => None,
    };
    match error.kind() {
        ErrorKind::InvalidSubcommand => {
            let given = value(ContextKind::InvalidSubcommand)?;
            let (old, new) = RENAMED.iter().find(|(old, _)| *old == given)?;
            Some(format!("wwturldb's `{old}` is `{new}`"))
        }
        ErrorKind::UnknownArgument => {
            let given = value(ContextKind::InvalidArg)?;
            let option = given.split('=').next().unwrap_or(given);
            (command(args) == Some("check") && CHECKS_URLS.contains(&option))
                .then(|| format!("wwturldb's `check` is `urldb verify` (`urldb verify {option} …`); `urldb check` lints the files"))
        }
        _ => None,
    }
}

/// The command of `args`: the first word past the program's name that is
/// neither an option nor the value of a global option.
fn command(args: &[OsString]) -> Option<&str> {
    let mut words = args.iter().skip(1).map(|a| a.to_str().unwrap_or_default());
    while let Some(word) = words.next() {
        if TAKES_A_VALUE.contains(&word) {
            words.next();
        } else if !word.starts_with('-') {
            return Some(word);
        }
    }
    None
}

/// clap's rendering of an error with `tip` in place of clap's own tips,
/// or after its first line when it has none.
pub(crate) fn with_tip(rendered: &str, tip: &str) -> String {
    let line = format!("  tip: {tip}\n");
    let has_tips = rendered.lines().any(|l| l.trim_start().starts_with("tip:"));
    let mut out = String::new();
    let mut placed = false;
    for text in rendered.lines() {
        if text.trim_start().starts_with("tip:") {
            if !placed {
                out.push_str(&line);
                placed = true;
            }
            continue;
        }
        out.push_str(text);
        out.push('\n');
        if !has_tips && !placed && text.starts_with("error:") {
            out.push('\n');
            out.push_str(&line);
            placed = true;
        }
    }
    out
}
