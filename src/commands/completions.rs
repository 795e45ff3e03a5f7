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
            urldb_store::write::overwrite(&path, &bytes, &super::write_note)?;
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

/// One page in roff, its source line naming urldb and its version.
fn render(page: clap::Command) -> Result<Vec<u8>, CommandError> {
    let mut out = Vec::new();
    clap_mangen::Man::new(page)
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
