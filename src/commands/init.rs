//! `urldb init [DIR]`: `urldb.toml` for the database that is there, or a
//! new database that passes `urldb check` as it is. What it finds and where
//! it writes is decided in `urldb_store::adopt`; `docs/guide.md` says it
//! for users.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use crate::app::{CommandError, ExitStatus};
use urldb_core::source::shown_path;
use urldb_store::{InitDatabase, InitPlan};

#[derive(Debug, Args)]
pub(crate) struct InitArgs {
    /// Where to look for the database, or to make a new one (created if
    /// needed; default: the current directory).
    pub dir: Option<PathBuf>,
    /// The database's folder, when more than one could be: adopted when it
    /// holds domain files, else a new database made in it.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Make a database here although databases lie below (each keeps its
    /// own files; this one's walk stops at their folders).
    #[arg(long)]
    pub another: bool,
    #[command(flatten)]
    pub quiet: crate::app::QuietArg,
}

/// The configuration `init` writes: every key, commented with its default,
/// and where each is explained: the guide of this version at the published
/// repository (Cargo.toml's `repository`), which a user of the wheel, who
/// has no `docs/`, can open.
pub(crate) const CONFIG: &str = concat!(
    "# urldb configuration; every key is explained in\n# ",
    env!("CARGO_PKG_REPOSITORY"),
    "/blob/v",
    env!("CARGO_PKG_VERSION"),
    "/docs/guide.md#configuration-urldbtoml\n",
    r#"root = "."                  # the database directory, relative to this file
# line-ending = "auto"      # auto (keep each file's; new files LF) | lf | crlf | native
# empty-metadata = "bare"   # bare (`---`) | braces (`--- {}`)
# style = "readable"        # readable (UTF-8, one line a value) | pyyaml (PyYAML's default output)
# max-file-size = "64 MiB"
# exclude = ["drafts/**"]

[lint]
# select = ["ALL"]          # default: every rule but yaml-comment (off by default)
# extend-select = ["yaml-comment"]
# ignore = ["suspicious-key"]
# severity = { suspicious-key = "error" }
# categories = ["coreapp", "frontend", "deprecated"]   # a closed vocabulary

[verify]
# concurrency = 32
# timeout = "30s"
# retries = 2
"#
);

/// The pre-commit hooks `init` offers (the README's, `repo: local`: they
/// run the urldb that made the database). No `files:` filter: pre-commit
/// skips a hook whose filter matches no staged file without starting it,
/// so a filter that misses the database (`^database/` in a repository
/// that keeps it in `wwt_url_database/db/`) lets every bad commit
/// through, while urldb itself leaves out each file that is not in the
/// database (`docs/files.md`).
pub(crate) const PRE_COMMIT: &str = r#"repos:
  - repo: local
    hooks:
      - id: urldb-fmt
        name: urldb fmt
        entry: urldb fmt
        language: system
        types_or: [yaml]
        exclude: '(^|/)\.'
      - id: urldb-check
        name: urldb check
        entry: urldb check
        language: system
        types_or: [yaml]
        exclude: '(^|/)\.'
        require_serial: true
"#;

/// The example domain file: canonical, and clean for every rule.
pub(crate) const EXAMPLE: &str =
    "---\n---\n_path: /\ncategories:\n- frontend\ncontent-type: text/html\n";

pub(crate) fn run(args: &InitArgs, quiet: bool) -> Result<ExitStatus, CommandError> {
    let dir = args.dir.as_deref().unwrap_or(Path::new("."));
    // A database below is the one a run here covers (`docs/files.md`,
    // "What a run covers"): a second one above it is made only when asked.
    if !args.another && !dir.join(urldb_core::config::FILE_NAME).exists() && dir.is_dir() {
        let below = urldb_store::configs_below(dir)
            .map_err(|e| CommandError::Settings(urldb_store::SettingsError::TooManyDatabases(e)))?;
        if !below.is_empty() {
            return Err(CommandError::DatabaseBelow(below));
        }
    }
    let plan = urldb_store::plan_init(dir, args.root.as_deref())?;
    let example = plan.root.join("example.com.yaml");
    let new = matches!(plan.database, InitDatabase::New);
    // Nothing is written through a symbolic link urldb did not make (a
    // checkout can hold any): neither the folders it writes in nor the
    // files it makes. Looked at before anything is written, so a refusal
    // leaves nothing half done.
    let config_dir = plan.config.parent().unwrap_or(Path::new(""));
    for folder in [dir, config_dir, &plan.root] {
        if is_link(folder) {
            return Err(urldb_store::write::WriteError::Symlink {
                path: folder.to_path_buf(),
            }
            .into());
        }
    }
    for file in std::iter::once(&plan.config).chain(new.then_some(&example)) {
        if let Ok(meta) = std::fs::symlink_metadata(file) {
            let path = file.clone();
            return Err(if meta.file_type().is_symlink() {
                urldb_store::write::WriteError::Symlink { path }
            } else {
                urldb_store::write::WriteError::Exists { path }
            }
            .into());
        }
    }
    if new {
        std::fs::create_dir_all(&plan.root).map_err(|source| CommandError::Io {
            path: plan.root.clone(),
            source,
        })?;
    }
    // The style the adopted files were written in: the reference tool's
    // (PyYAML's defaults) is kept, so that `urldb fmt` and `wwturldb add`
    // do not rewrite each other's files.
    let styles = match &plan.database {
        InitDatabase::Existing { .. } => {
            urldb_store::count_written_styles(&plan.root, &plan.exclude())
        }
        InitDatabase::New => urldb_store::StyleCount::default(),
    };
    write_new(
        &plan.config,
        &with_style(config_text(&plan), styles.style()),
    )?;
    if new {
        write_new(&example, EXAMPLE)?;
    }
    if quiet {
        return Ok(ExitStatus::Success);
    }
    let mut out = urldb_output::gate::stdout(urldb_output::gate::Syntax::Text);
    let root = urldb_core::text::escape(&plan.root_value).into_owned();
    match &plan.database {
        InitDatabase::New => {
            writeln!(
                out,
                "Created {} and {}.",
                shown_path(&plan.config),
                shown_path(&example)
            )?;
            writeln!(
                out,
                "{} is an example (one record, http://example.com/): delete it once the database \
                 has a domain file of its own.",
                shown_path(&example)
            )?;
            writeln!(
                out,
                "Next: add records (one file per domain, `<domain>.yaml`), then run `urldb check` and `urldb fmt`."
            )?;
        }
        InitDatabase::Existing {
            files,
            left_out,
            found,
        } => {
            writeln!(
                out,
                "{} {files} domain file{} in `{}`.",
                if *found { "Found" } else { "Adopted" },
                if *files == 1 { "" } else { "s" },
                shown_path(&plan.root)
            )?;
            writeln!(
                out,
                "Created {} with root = \"{root}\"; no domain file was added or changed.",
                shown_path(&plan.config)
            )?;
            say_style(&mut out, styles, &plan.config)?;
            if !left_out.is_empty() {
                writeln!(
                    out,
                    "Left out {} YAML file{} whose names are no domain names (`exclude` in {}): {}.",
                    left_out.len(),
                    if left_out.len() == 1 { "" } else { "s" },
                    shown_path(&plan.config),
                    urldb_store::listed_names(left_out)
                )?;
            }
            writeln!(
                out,
                "Next: `urldb check` (urldb finds {} from every directory below it), then \
                 `urldb check --fix`.",
                shown_path(&plan.config)
            )?;
        }
    }
    writeln!(
        out,
        "For pre-commit, in .pre-commit-config.yaml at the repository's top (no `files:` \
         filter: urldb leaves out every file that is not in the database):"
    )?;
    out.write_all(PRE_COMMIT.as_bytes())?;
    out.finish()?;
    Ok(ExitStatus::Success)
}

/// The commented `style` line of [`CONFIG`], and the line that sets
/// `pyyaml`.
const STYLE_LINE: &str = "# style = \"readable\"        #";
const PYYAML_LINE: &str = "style = \"pyyaml\"            #";

/// `text` with `style = "pyyaml"` set when that is the files' style.
fn with_style(text: String, style: urldb_core::render::TextStyle) -> String {
    match style {
        urldb_core::render::TextStyle::Pyyaml => text.replacen(STYLE_LINE, PYYAML_LINE, 1),
        urldb_core::render::TextStyle::Readable => text,
    }
}

/// Say which style `init` wrote, when the files chose it, and what `urldb
/// fmt` will rewrite in the files of the other style.
fn say_style(
    out: &mut dyn Write,
    styles: urldb_store::StyleCount,
    config: &Path,
) -> std::io::Result<()> {
    let files = |n: usize| format!("{n} domain file{}", if n == 1 { "" } else { "s" });
    match styles.style() {
        urldb_core::render::TextStyle::Pyyaml => {
            writeln!(
                out,
                "Set style = \"pyyaml\" in {}: {} {} in PyYAML's default output (the reference \
                 tool's: non-ASCII escaped, long values folded at 80 columns), which `urldb fmt` \
                 then keeps as it is.",
                shown_path(config),
                files(styles.pyyaml_only),
                if styles.pyyaml_only == 1 { "is" } else { "are" }
            )?;
            if styles.readable_only > 0 {
                writeln!(
                    out,
                    "{} in the readable style; `urldb fmt` writes {} as PyYAML would.",
                    files(styles.readable_only),
                    if styles.readable_only == 1 {
                        "is"
                    } else {
                        "are"
                    }
                )?;
            }
        }
        urldb_core::render::TextStyle::Readable if styles.pyyaml_only > 0 => writeln!(
            out,
            "{} {} in PyYAML's default output, more in the readable style (the default); \
             `urldb fmt` rewrites {} (`style = \"pyyaml\"` in {} would keep {} instead).",
            files(styles.pyyaml_only),
            if styles.pyyaml_only == 1 { "is" } else { "are" },
            if styles.pyyaml_only == 1 {
                "it"
            } else {
                "them"
            },
            shown_path(config),
            if styles.pyyaml_only == 1 {
                "it"
            } else {
                "them"
            },
        )?,
        // No file is canonical in one style alone (short ASCII values read
        // the same in both): the choice matters only for what the reference
        // tool writes next.
        urldb_core::render::TextStyle::Readable if styles.readable_only == 0 => writeln!(
            out,
            "No domain file is in one style alone; if the reference tool (wwturldb) still \
             writes them, set style = \"pyyaml\" in {}: it keeps the bytes wwturldb writes \
             (non-ASCII escaped, long values folded), which `urldb fmt` would rewrite in the \
             readable style (the default).",
            shown_path(config)
        )?,
        urldb_core::render::TextStyle::Readable => {}
    }
    Ok(())
}

/// `path` names a symbolic link (not what it leads to).
fn is_link(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// A new file, never over an existing one.
fn write_new(path: &Path, text: &str) -> Result<(), CommandError> {
    Ok(urldb_store::write::create(
        path,
        text.as_bytes(),
        &super::notes::write_note,
    )?)
}

/// The configuration for `plan`: [`CONFIG`] with its `root`, and the
/// files left out as `exclude` globs (each name escaped as a glob, then as
/// a TOML string).
fn config_text(plan: &InitPlan) -> String {
    let toml = urldb_core::config::toml_string;
    let mut text = CONFIG.replacen(
        "root = \".\"                  #",
        &format!("root = {}  #", toml(&plan.root_value)),
        1,
    );
    let exclude = plan.exclude();
    if !exclude.is_empty() {
        let globs: String = exclude
            .iter()
            .map(|glob| format!("  {},\n", toml(glob)))
            .collect();
        text = text.replacen(
            "# exclude = [\"drafts/**\"]\n",
            &format!(
                "# YAML files that were there and are no domain files (urldb init left them out):\n\
                 exclude = [\n{globs}]\n"
            ),
            1,
        );
    }
    text
}
