//! `urldb completions SHELL` and `urldb man`: generated from the clap
//! definitions, so they never drift from the real options.

use std::io::Write;

use crate::app::{CommandError, ExitStatus};

/// `command`: the whole command line, from `cli` (which knows it). The
/// script is made in memory and written once, so a failed write is an
/// error to report (clap_complete would panic on it).
pub(crate) fn completions(
    shell: clap_complete::Shell,
    mut command: clap::Command,
) -> Result<ExitStatus, CommandError> {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut command, "urldb", &mut out);
    write_all(&out)
}

/// `urldb man`: the page of urldb, which refers to one page per command
/// (`urldb-check(1)`, ...); `urldb man check` prints that page, and
/// `--dir DIR` writes them all there, as `urldb.1`, `urldb-check.1`, ...
pub(crate) fn man(
    command: clap::Command,
    page: Option<&str>,
    dir: Option<&std::path::Path>,
) -> Result<ExitStatus, CommandError> {
    // `help` is no command with a page (`urldb help X` is `urldb X --help`).
    let mut command = command.disable_help_subcommand(true);
    command.build();
    let pages = pages(&command);
    if let Some(dir) = dir {
        // The folder the user named is made (a fresh account has no
        // `~/.local/share/man/man1`); each page is made or replaced by the
        // one writer, never through a symbolic link it did not create
        // (`docs/security.md` §2).
        std::fs::create_dir_all(dir).map_err(|source| CommandError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        // Every page is made, and every target looked at, before the first
        // is written: a target that is a symbolic link refuses the whole
        // set, which is not left half replaced.
        let mut made = Vec::with_capacity(pages.len());
        for (name, page) in pages {
            made.push((dir.join(format!("{name}.1")), render(page)?));
        }
        for (path, _) in &made {
            if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
                return Err(urldb_store::write::WriteError::Symlink { path: path.clone() }.into());
            }
        }
        let mut out = urldb_output::gate::stdout(urldb_output::gate::Syntax::Text);
        for (path, bytes) in made {
            urldb_store::write::overwrite(&path, &bytes, &super::notes::write_note)?;
            writeln!(out, "{}", urldb_core::source::shown_path(&path))?;
        }
        out.finish()?;
        return Ok(ExitStatus::Success);
    }
    let wanted = format!("urldb-{}", page.unwrap_or_default());
    let found = pages
        .iter()
        .find(|(name, _)| page.map_or(name == "urldb", |_| *name == wanted));
    match found {
        Some((_, page)) => write_all(&render(page.clone())?),
        None => Err(CommandError::NoManPage {
            name: page.unwrap_or_default().to_string(),
            pages: pages
                .iter()
                .map(|(n, _)| n.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        }),
    }
}

/// One page in roff, its source line naming urldb and its version, its
/// SYNOPSIS with the values options take ([`synopsis`]).
fn render(page: clap::Command) -> Result<Vec<u8>, CommandError> {
    let mut out = Vec::new();
    let usage = synopsis(&page);
    clap_mangen::Man::new(page.override_usage(usage))
        .source(format!("urldb {}", env!("CARGO_PKG_VERSION")))
        .render(&mut out)?;
    Ok(out)
}

/// The pages `urldb man` makes: `urldb`, then `urldb-COMMAND` for each.
fn pages(command: &clap::Command) -> Vec<(String, clap::Command)> {
    std::iter::once(("urldb".to_string(), command.clone()))
        .chain(
            command
                .get_subcommands()
                .filter(|c| !c.is_hide_set())
                .map(|c| (format!("urldb-{}", c.get_name()), c.clone())),
        )
        .collect()
}

fn write_all(bytes: &[u8]) -> Result<ExitStatus, CommandError> {
    let mut stdout = urldb_output::gate::stdout(urldb_output::gate::Syntax::Text);
    stdout.write_all(bytes)?;
    stdout.finish()?;
    Ok(ExitStatus::Success)
}

/// The SYNOPSIS line of `page`, as `--help` names values: each option with
/// its value (`[-c|--category <CATEGORY>]...`), each positional with `...`
/// when it takes several (`<URL>...`). clap_mangen's own leaves the values
/// out, so `[--timeout]` read as a switch.
fn synopsis(page: &clap::Command) -> String {
    let mut line = page
        .get_bin_name()
        .unwrap_or_else(|| page.get_name())
        .to_string();
    let value = |arg: &clap::Arg| {
        arg.get_value_names()
            .map(|names| {
                names
                    .iter()
                    .map(|n| format!("<{n}>"))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .unwrap_or_else(|| format!("<{}>", arg.get_id().as_str().to_uppercase()))
    };
    let many = |arg: &clap::Arg| {
        matches!(
            arg.get_action(),
            clap::ArgAction::Append | clap::ArgAction::Count
        ) || arg.get_num_args().is_some_and(|n| n.max_values() > 1)
    };
    for arg in page
        .get_arguments()
        .filter(|a| !a.is_hide_set() && !a.is_positional())
    {
        let mut names = Vec::new();
        if let Some(short) = arg.get_short() {
            names.push(format!("-{short}"));
        }
        if let Some(long) = arg.get_long() {
            names.push(format!("--{long}"));
        }
        let mut text = names.join("|");
        if arg.get_num_args().is_some_and(|n| n.takes_values()) {
            text.push(' ');
            text.push_str(&value(arg));
        }
        let (open, close) = if arg.is_required_set() {
            ("", "")
        } else {
            ("[", "]")
        };
        line.push_str(&format!(
            " {open}{text}{close}{}",
            if many(arg) { "..." } else { "" }
        ));
    }
    for arg in page.get_positionals().filter(|a| !a.is_hide_set()) {
        let names = arg
            .get_value_names()
            .map(|n| n.join(" "))
            .unwrap_or_else(|| arg.get_id().as_str().to_uppercase());
        let (open, close) = if arg.is_required_set() {
            ("<", ">")
        } else {
            ("[", "]")
        };
        line.push_str(&format!(
            " {open}{names}{close}{}",
            if many(arg) { "..." } else { "" }
        ));
    }
    if page.has_subcommands() {
        line.push_str(" <COMMAND>");
    }
    line
}
