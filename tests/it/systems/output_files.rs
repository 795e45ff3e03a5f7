//! Output to a regular file is the exact data (`docs/output.md`): CSV and
//! the URI-Catalogue keep a runner's command form (`##[`) as it is when
//! stdout is a file (`> out.csv`), since no runner reads that file, and
//! break it when stdout is a pipe. Windows has no `/dev/stdout` to ask, so
//! there urldb asks its own handle.

use std::process::Stdio;

use super::{read, write};
use crate::support;

#[test]
fn export_to_a_file_is_exact_and_to_a_pipe_is_gated() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path();
    write(&db.join("urldb.toml"), "");
    write(
        &db.join("a.org.yaml"),
        "---\n---\n_path: /a\ncontent-type: text/html\nnote: \"##[error]x\"\n",
    );
    for (format, exact) in [
        ("csv", r###""{""note"":""##[error]x""}""###),
        ("uri-catalogue", "X-URLDB-EXTRA-note: ##[error]x"),
    ] {
        let file = db.join(format!("export.{format}"));
        let status = support::urldb()
            .current_dir(db)
            .args(["export", "--to", format])
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(&file).expect("create"))
            .status()
            .expect("run urldb");
        assert_eq!(status.code(), Some(0), "{format}");
        let written = read(&file);
        assert!(written.contains(exact), "{format} to a file: {written}");

        let piped = support::run_in(db, &["export", "--to", format]);
        let piped = String::from_utf8_lossy(&piped.stdout);
        assert!(
            !piped.contains("##[") && piped.contains("##\\x5b"),
            "{format} through a pipe: {piped}"
        );
    }
}
