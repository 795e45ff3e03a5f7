//! What a run says on standard error beside its results: the files left
//! out and why, a selection that holds nothing, a writer's notes, the
//! files that could not be read. All of it escaped
//! ([`urldb_core::text::escape`]).

use urldb_store::database::FileError;

/// Files whose extension is `.yaml` in another case (`.YAML`) are no
/// domain files, as in ruff and yamllint, but were most likely meant to
/// be: each is said, with the name that makes it one, even with `-q`
/// (the run's results lack it, as `ls` says of a record left out).
pub(crate) fn warn_miscased<'a>(miscased: impl Iterator<Item = &'a std::path::PathBuf>) {
    use urldb_core::source::shown_path;
    for path in miscased {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default();
        let split = name.rfind('.').unwrap_or(name.len());
        let (stem, extension) = name.split_at(split);
        let renamed = format!("{stem}{}", extension.to_lowercase());
        urldb_output::say!(
            "warning: {}: not in the database: a domain file's name ends in `.yaml` (or \
             `.yml`) in lowercase; rename it `{}` to check it",
            shown_path(path),
            urldb_core::text::escape(&renamed)
        );
    }
}

/// A run that selected nothing by `--since`, `--staged` or `--shard` is
/// no mistake (a pull request that changed no record, an empty shard):
/// said in one note, unless `-q`.
pub(crate) fn note_nothing_selected(ctx: &crate::app::Context, by: &str) {
    if !ctx.quiet {
        urldb_output::say!("note: {by}; nothing to do");
    }
}

/// Say that named paths were skipped as not in the database: the path and
/// the reason when one was named (or with `-v`, each), else one line for
/// all (a pre-commit hook names every YAML file of the repository);
/// nothing with `-q`.
pub(crate) fn note_skipped(
    ctx: &crate::app::Context,
    skipped: &[(std::path::PathBuf, urldb_store::membership::Skip)],
) {
    use urldb_core::source::shown_path;
    use urldb_core::text::escape;
    if ctx.quiet || skipped.is_empty() {
        return;
    }
    if skipped.len() == 1 || ctx.verbose {
        for (path, skip) in skipped {
            urldb_output::say!(
                "note: {}: not in the database ({}); skipped",
                shown_path(path),
                escape(&skip.to_string())
            );
        }
    } else {
        urldb_output::say!(
            "note: skipped {} files that are not in the database `{}` \
             (`urldb check --show-files PATH...` says why)",
            skipped.len(),
            escape(&urldb_store::membership::shown_dir(&ctx.root))
        );
    }
}

/// On a bare run (no `urldb.toml`, no `--db`): which folder was taken as
/// the database, and which YAML files are no domain files.
pub(crate) fn bare_run(ctx: &crate::app::Context, targets: &urldb_store::database::Targets) {
    use urldb_core::source::display_path;
    use urldb_core::text::escape;
    use urldb_store::Origin;
    if ctx.quiet {
        return;
    }
    let root = escape(&urldb_store::membership::shown_dir(&ctx.root)).into_owned();
    let listed = |list: Vec<String>| {
        let more = if list.len() > 5 { ", ..." } else { "" };
        let shown: Vec<&str> = list.iter().take(5).map(String::as_str).collect();
        format!("{}{more}", shown.join(", "))
    };
    if ctx.origin == Origin::Found && (root != "." || !targets.misnamed.is_empty()) {
        // Said when it was a guess: a folder below, or files left out; the
        // current directory holding only domain files is plainly the
        // database.
        let n = targets.all.len();
        urldb_output::say!(
            "note: no urldb.toml: taking `{root}` as the database, the one folder with domain \
             files ({n} domain file{}); `urldb init` writes a urldb.toml that says so",
            if n == 1 { "" } else { "s" },
        );
    }
    if !targets.misnamed.is_empty() {
        // Each with its own reason: `example.net.yml` is left out for its
        // extension, `localhost.yaml` for its single label.
        let names = targets
            .misnamed
            .iter()
            .map(|p| {
                let why = urldb_store::membership::name_shape(p)
                    .map_or("", urldb_store::membership::NameShape::short);
                format!("`{}` ({why})", escape(&display_path(p)))
            })
            .collect();
        urldb_output::say!(
            "note: not domain files (a domain file is `<domain>.yaml`): {}",
            listed(names)
        );
    }
}

/// What a writer has to say while it works (a stale lock removed, a file
/// open in another program), printed as it happens: the store only tells.
pub(crate) fn write_note(note: &urldb_store::write::WriteNote) {
    urldb_output::say!("note: {note}");
}

/// Print file errors (I/O problems) to stderr, file names and messages
/// escaped ([`urldb_core::text`]).
pub(crate) fn print_errors(errors: &[FileError]) {
    for e in errors {
        urldb_output::say!(
            "error: {}: {}",
            urldb_core::source::shown_path(&e.path),
            urldb_core::text::escape(&e.message())
        );
    }
}
