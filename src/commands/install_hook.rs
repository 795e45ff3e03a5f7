//! `urldb install-hook`: a git pre-commit hook that checks and
//! format-checks what is about to be committed (`--staged`).

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::app::{CommandError, Context, ExitStatus};

/// The line that marks a hook as urldb's own: it may be replaced, any
/// other hook is the user's and is kept unless `--force`.
pub(crate) const MARKER: &str = "# installed by `urldb install-hook`";

pub(crate) fn run(
    ctx: &Context,
    force: bool,
    global: &crate::app::GlobalArgs,
) -> Result<ExitStatus, CommandError> {
    let message = install(ctx, force, global)?;
    if !ctx.quiet {
        let mut out = urldb_output::gate::stdout(urldb_output::gate::Syntax::Text);
        writeln!(out, "{}", urldb_core::text::escape(&message))?;
        out.finish()?;
    }
    Ok(ExitStatus::Success)
}

/// The merge driver's command, as git runs it (`docs/git.md`, "Merging").
pub(crate) const DRIVER: &str = "urldb merge-driver %O %A %B %P --marker-size %L --labels %S %X %Y";

/// `install-hook --merge-driver`: the domain files of every database a run
/// here covers (`docs/files.md`, "What a run covers") merged by `urldb
/// merge-driver`: one line a database in the `.gitattributes` at the top of
/// the work tree, and the driver in the repository's own configuration.
pub(crate) fn merge_driver(ctx: &Context) -> Result<ExitStatus, CommandError> {
    let repo = urldb_store::Repository::discover(&ctx.root, "install-hook --merge-driver")?;
    let workdir = repo.workdir().to_path_buf();
    let covered = {
        let mut databases = ctx.databases.borrow_mut();
        let covered = databases.covered(&[]).map_err(|e| ctx.settings_error(e))?;
        covered
            .into_iter()
            .map(|i| databases.get(i).0.settings.root.to_path_buf())
            .collect::<Vec<_>>()
    };
    let mut lines = Vec::new();
    for root in covered {
        let root = dunce::canonicalize(&root).unwrap_or(root);
        let under = root
            .strip_prefix(&workdir)
            .map_err(|_| CommandError::OutsideWorkTree(workdir.clone()))?;
        let under = under.to_string_lossy().replace('\\', "/");
        // A pattern with a slash is anchored at the top; without, `*.yaml`
        // is every YAML file of the work tree (the others are merged line
        // by line by the driver all the same).
        let line = if under.is_empty() {
            "*.yaml merge=urldb".to_string()
        } else {
            format!("{}/**/*.yaml merge=urldb", attribute_escape(&under))
        };
        if !lines.contains(&line) {
            lines.push(line);
        }
    }
    let attributes = workdir.join(".gitattributes");
    let mut said = Vec::new();
    let old = match std::fs::symlink_metadata(&attributes) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(io(&attributes)(e)),
        Ok(_) => Some(
            urldb_store::read_limited(&attributes, 1 << 20, None)
                .map_err(|e| io(&attributes)(std::io::Error::other(e.to_string())))?,
        ),
    };
    let mut new = old.clone().unwrap_or_default();
    for line in &lines {
        let text = String::from_utf8_lossy(&new).into_owned();
        if text.lines().any(|l| l.trim() == line) {
            said.push(format!("{} has `{line}` already", attributes.display()));
            continue;
        }
        if !new.is_empty() && !new.ends_with(b"\n") {
            new.push(b'\n');
        }
        new.extend_from_slice(format!("{line}\n").as_bytes());
        said.push(format!("added `{line}` to {}", attributes.display()));
    }
    match &old {
        None => urldb_store::write::create(&attributes, &new, &super::notes::write_note)?,
        Some(old) if *old != new => {
            urldb_store::write::replace(&attributes, old, &new, &super::notes::write_note)?
        }
        Some(_) => {}
    }
    urldb_store::set_local_config(
        &workdir,
        "merge.urldb.name",
        "urldb: domain files merged by records",
    )?;
    urldb_store::set_local_config(&workdir, "merge.urldb.driver", DRIVER)?;
    said.push(format!(
        "set merge.urldb.driver in the repository's git configuration: `{DRIVER}`"
    ));
    if !ctx.quiet {
        let mut out = urldb_output::gate::stdout(urldb_output::gate::Syntax::Text);
        for line in said {
            writeln!(out, "{}", urldb_core::text::escape(&line))?;
        }
        out.finish()?;
    }
    Ok(ExitStatus::Success)
}

/// A path in a `.gitattributes` pattern: the characters a pattern reads
/// (`*?[\\` and white space, which ends it) escaped with a backslash.
fn attribute_escape(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        if matches!(c, '*' | '?' | '[' | '\\' | ' ' | '\t' | '"') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn install(
    ctx: &Context,
    force: bool,
    global: &crate::app::GlobalArgs,
) -> Result<String, CommandError> {
    let repo = urldb_store::Repository::discover(&ctx.root, "install-hook")?;
    let hooks = repo.hooks_dir();
    let hook = hooks.join("pre-commit");
    let cwd = std::env::current_dir().map_err(CommandError::CurrentDir)?;
    let text = script(repo.workdir(), &cwd, global)?;

    match std::fs::symlink_metadata(&hook) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(&hooks).map_err(io(&hooks))?;
            urldb_store::write::create(&hook, text.as_bytes(), &super::notes::write_note)?;
            make_executable(&hook)?;
            Ok(format!("installed {}", hook.display()))
        }
        Err(e) => Err(io(&hook)(e)),
        Ok(meta) => {
            let old = urldb_store::read_limited(&hook, 1 << 20, None).unwrap_or_default();
            let ours =
                !meta.file_type().is_symlink() && String::from_utf8_lossy(&old).contains(MARKER);
            if ours {
                if old == text.as_bytes() {
                    return Ok(format!("{} is up to date", hook.display()));
                }
                urldb_store::write::replace(
                    &hook,
                    &old,
                    text.as_bytes(),
                    &super::notes::write_note,
                )?;
                make_executable(&hook)?;
                return Ok(format!("updated {}", hook.display()));
            }
            if !force {
                return Err(CommandError::ForeignHook(hook));
            }
            // Never lose the user's hook: keep it beside, under a free name.
            let backup = free_name(&hook);
            std::fs::rename(&hook, &backup).map_err(io(&hook))?;
            urldb_store::write::create(&hook, text.as_bytes(), &super::notes::write_note)?;
            make_executable(&hook)?;
            Ok(format!(
                "installed {} (the previous hook is kept as {})",
                hook.display(),
                backup.display()
            ))
        }
    }
}

/// The hook: run from the directory `install-hook` was run in (relative to
/// the work tree, so the repository may move), with the same `--db` and
/// `--config`, and `urldb` from `PATH`.
fn script(
    workdir: &Path,
    cwd: &Path,
    global: &crate::app::GlobalArgs,
) -> Result<String, CommandError> {
    let cwd = dunce::canonicalize(cwd).unwrap_or_else(|_| cwd.to_path_buf());
    let from_top = cwd
        .strip_prefix(workdir)
        .map_err(|_| CommandError::OutsideWorkTree(workdir.to_path_buf()))?;
    let mut args = String::new();
    for (flag, value) in [("--db", &global.db), ("--config", &global.config)] {
        if let Some(value) = value {
            args.push_str(&format!(" {flag} {}", quote(&value.to_string_lossy())));
        }
    }
    let dir = from_top.to_string_lossy().replace('\\', "/");
    let cd = if dir.is_empty() {
        String::new()
    } else {
        format!("cd {} || exit 2\n", quote(&dir))
    };
    Ok(format!(
        "#!/bin/sh\n\
         {MARKER}\n\
         # Checks and format-checks the staged domain files; `urldb install-hook`\n\
         # rewrites this file, so keep your own additions in another hook.\n\
         cd \"$(git rev-parse --show-toplevel)\" || exit 2\n\
         {cd}\
         if ! command -v urldb >/dev/null 2>&1; then\n\
         \x20   echo 'urldb pre-commit hook: urldb is not on PATH; install it with pipx install urldb-cli (from the first release), or with cargo install --locked --path . in a clone of urldb (its docs/install.md has every way)' >&2\n\
         \x20   exit 2\n\
         fi\n\
         urldb{args} check --staged --format concise\n\
         status=$?\n\
         if [ \"$status\" -eq 1 ]; then\n\
         \x20   echo 'urldb pre-commit hook: the commit is stopped by the findings above ([*]: fixable). `urldb check --fix --staged` fixes those in the index and the work tree together; `urldb check --staged` shows each finding in full.' >&2\n\
         \x20   exit 1\n\
         elif [ \"$status\" -ne 0 ]; then\n\
         \x20   echo 'urldb pre-commit hook: the staged files could not be checked (see the error above); the commit is stopped.' >&2\n\
         \x20   exit \"$status\"\n\
         fi\n\
         urldb{args} fmt --check --staged\n\
         status=$?\n\
         if [ \"$status\" -eq 1 ]; then\n\
         \x20   echo 'urldb pre-commit hook: the commit is stopped: the files above are not formatted. `urldb fmt --staged` formats them in the index and the work tree together.' >&2\n\
         fi\n\
         exit \"$status\"\n"
    ))
}

/// A failure of the file system at `path`.
fn io(path: &Path) -> impl Fn(std::io::Error) -> CommandError + '_ {
    move |source| CommandError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Single-quote a word for sh.
fn quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

fn free_name(hook: &Path) -> PathBuf {
    let mut n = 0;
    loop {
        let name = if n == 0 {
            "pre-commit.before-urldb".to_string()
        } else {
            format!("pre-commit.before-urldb.{n}")
        };
        let candidate = hook.with_file_name(name);
        if std::fs::symlink_metadata(&candidate).is_err() {
            return candidate;
        }
        n += 1;
    }
}

#[cfg(unix)]
fn make_executable(path: &Path) -> Result<(), CommandError> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).map_err(io(path))
}

#[cfg(not(unix))]
fn make_executable(_path: &Path) -> Result<(), CommandError> {
    Ok(())
}
