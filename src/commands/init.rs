//! `urldb init [DIR]`: a new database that passes `urldb check` as it is.

use std::path::Path;

use crate::app::ExitStatus;

/// The configuration `init` writes: every key, commented with its default.
pub const CONFIG: &str = r#"# urldb configuration (see docs/guide.md for every key)
root = "."                  # the database directory, relative to this file
# line-ending = "auto"      # auto (keep each file's; new files LF) | lf | crlf | native
# empty-metadata = "bare"   # bare (`---`) | braces (`--- {}`)
# max-file-size = "64 MiB"
# exclude = ["drafts/**"]

[lint]
# select = ["ALL"]
# ignore = ["yaml-comment"]
# severity = { suspicious-key = "error" }
# categories = ["coreapp", "frontend", "deprecated"]   # a closed vocabulary

[verify]
# concurrency = 32
# timeout = "30s"
# retries = 2
"#;

/// The example domain file: canonical, and clean for every rule.
pub const EXAMPLE: &str = "---\n---\n_path: /\ncategories:\n- frontend\ncontent-type: text/html\n";

pub fn run(dir: &Path) -> ExitStatus {
    let config = dir.join(crate::config::FILE_NAME);
    let example = dir.join("example.com.yaml");
    for path in [&config, &example] {
        if path.exists() {
            eprintln!(
                "error: {} already exists; init writes only new files",
                path.display()
            );
            return ExitStatus::Error;
        }
    }
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("error: cannot create {}: {e}", dir.display());
        return ExitStatus::Error;
    }
    for (path, text) in [(&config, CONFIG), (&example, EXAMPLE)] {
        if let Err(e) = crate::write::create(path, text.as_bytes()) {
            eprintln!("error: {e}");
            return ExitStatus::Error;
        }
    }
    println!("Created {} and {}.", config.display(), example.display());
    println!(
        "Next: add records (one file per domain, `<domain>.yaml`), then run `urldb check` and `urldb fmt`."
    );
    ExitStatus::Success
}
