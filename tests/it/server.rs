//! `urldb server` driven end to end by a real LSP client (pygls's
//! `LanguageClient`, `tests/it/server/client.py`): initialize, diagnostics
//! on open and on change, a quick fix and "fix all" applied, formatting,
//! hover, completion, document symbols, a configuration reloaded, hostile
//! buffers, shutdown and exit. Every answer the command line can give is
//! compared with the command line's.

use std::path::Path;
use std::process::Command;

use crate::support;

fn write(dir: &Path, name: &str, text: &str) {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("mkdir");
    }
    std::fs::write(path, text).expect("write");
}

#[test]
fn server_answers_a_real_lsp_client() {
    let dir = tempfile::tempdir().expect("tempdir");
    let work = dir.path();
    write(
        work,
        "urldb.toml",
        "exclude = [\"vendor\"]\n\n[lint]\ncategories = [\"docs\", \"news\"]\nignore = []\n\
         severity = { unsorted-keys = \"warning\" }\n",
    );
    // On disk the file is clean: the server must check the buffer.
    write(
        work,
        "example.com.yaml",
        "---\n---\n_path: /\ncontent-type: text/html\n",
    );
    // Categories and content types completion finds in the database.
    write(
        work,
        "other.org.yaml",
        "---\n---\n_path: /r\ncategories:\n- archive\ncontent-type: application/pdf\n",
    );
    write(
        work,
        "vendor/kept.org.yaml",
        "---\n---\n_path: /v\ncontent-type: text/html\n",
    );
    // A database of its own whose files may be 1 kB at most.
    write(work, "big/urldb.toml", "max-file-size = \"1 kB\"\n");
    // A configuration that cannot be used.
    write(work, "badcfg/urldb.toml", "colour = \"blue\"\n");

    let out = Command::new(support::python())
        .arg(support::oracles::repo().join("tests/it/server/client.py"))
        .arg(env!("CARGO_BIN_EXE_urldb"))
        .arg(work)
        .env(
            "XDG_CACHE_HOME",
            support::oracles::target_tmp().join("xdg-cache"),
        )
        .output()
        .expect("run the LSP client with the tests' Python");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.trim_end().ends_with("ok"),
        "client failed ({:?}):\n{stdout}\n{stderr}",
        out.status
    );
}
