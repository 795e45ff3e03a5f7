//! `urldb init [DIR]`: a new database that passes `urldb check` as it is.

use std::io::Write;
use std::path::Path;

use crate::app::{CommandError, ExitStatus};

/// The configuration `init` writes: every key, commented with its default.
pub(crate) const CONFIG: &str = r#"# urldb configuration (see docs/guide.md for every key)
root = "."                  # the database directory, relative to this file
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
"#;

/// The example domain file: canonical, and clean for every rule.
pub(crate) const EXAMPLE: &str =
    "---\n---\n_path: /\ncategories:\n- frontend\ncontent-type: text/html\n";

pub(crate) fn run(dir: &Path) -> Result<ExitStatus, CommandError> {
    let config = dir.join(urldb_core::config::FILE_NAME);
    let example = dir.join("example.com.yaml");
    for path in [&config, &example] {
        if path.exists() {
            return Err(CommandError::Exists(path.to_path_buf()));
        }
    }
    std::fs::create_dir_all(dir).map_err(|source| CommandError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    for (path, text) in [(&config, CONFIG), (&example, EXAMPLE)] {
        urldb_store::write::create(path, text.as_bytes())?;
    }
    let mut out = urldb_core::gate::stdout(urldb_core::gate::Syntax::Text);
    writeln!(
        out,
        "Created {} and {}.",
        urldb_core::source::shown_path(&config),
        urldb_core::source::shown_path(&example)
    )?;
    writeln!(
        out,
        "Next: add records (one file per domain, `<domain>.yaml`), then run `urldb check` and `urldb fmt`."
    )?;
    Ok(ExitStatus::Success)
}
