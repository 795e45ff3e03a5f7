//! `urldb server` driven end to end by a real LSP client (pygls's
//! `LanguageClient`, `tests/it/server/client.py`): initialize, diagnostics
//! on open and on change, a quick fix and "fix all" applied, formatting,
//! hover, completion, document symbols, a configuration reloaded, hostile
//! buffers, shutdown and exit. Every answer the command line can give is
//! compared with the command line's.

use std::path::Path;
use std::process::Command;

use crate::support;

mod bounded;
mod cross_file;

fn write(dir: &Path, name: &str, text: &str) {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("mkdir");
    }
    std::fs::write(path, text).expect("write");
}

/// `urldb server` started in `dir`, its three streams piped.
fn spawn_server(dir: impl AsRef<std::path::Path>) -> std::process::Child {
    support::urldb()
        .current_dir(dir)
        .arg("server")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start urldb server")
}

/// `urldb server` run in `dir` on the framed messages `input` (which end
/// with `exit`), and what it did.
fn server_on(input: &[u8], dir: impl AsRef<std::path::Path>) -> std::process::Output {
    let mut child = spawn_server(dir);
    let mut stdin = child.stdin.take().expect("stdin");
    std::io::Write::write_all(&mut stdin, input).expect("write the messages");
    drop(stdin);
    child.wait_with_output().expect("urldb server")
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
    // A configuration that cannot be used: mistakes of core's keys (one
    // with a near name) and one of `[verify]`, which the binary hands the
    // server to check.
    write(
        work,
        "badcfg/urldb.toml",
        "colour = \"blue\"\nroots = \"db\"\n[verify]\nretries = 99\n",
    );

    run_client("client.py", work, &[]);
}

/// Run the pygls client `tests/it/server/SCRIPT` on the built binary and
/// the database `work`, with `args` after them; it must print `ok`.
fn run_client(script: &str, work: &Path, args: &[&str]) {
    let out = Command::new(support::python())
        .arg(
            support::oracles::repo()
                .join("tests/it/server")
                .join(script),
        )
        .arg(support::binary())
        .arg(work)
        .args(args)
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
        "{script} failed ({:?}):\n{stdout}\n{stderr}",
        out.status
    );
}

/// A second real client: Neovim, headless, receives the diagnostics and
/// formats through the server. It needs Neovim installed (the Debian
/// package `neovim`, 0.7 or later), so it is left out of a plain
/// `cargo test`: `cargo test --test it server -- --ignored` runs it.
#[test]
#[ignore = "needs Neovim (Debian package `neovim`); run with --ignored"]
fn neovim_shows_diagnostics_and_formats() {
    let dir = tempfile::tempdir().expect("tempdir");
    let work = dir.path();
    let text =
        "---\n---\ncontent-type: text/html\n_path: /b\n---\n_path: /a\ncontent-type: text/html\n";
    write(work, "urldb.toml", "");
    write(work, "example.com.yaml", text);
    let out_file = work.join("neovim-result.json");
    let status = Command::new("nvim")
        .args(["--headless", "--clean", "-u", "NONE", "-c"])
        .arg(format!(
            "luafile {}",
            support::oracles::repo()
                .join("tests/it/server/neovim.lua")
                .display()
        ))
        .env("URLDB", env!("CARGO_BIN_EXE_urldb"))
        .env("WORK", work)
        .env("OUT", &out_file)
        .env(
            "XDG_CACHE_HOME",
            support::oracles::target_tmp().join("xdg-cache"),
        )
        .stdin(std::process::Stdio::null())
        .status()
        .expect("run nvim (is the Debian package `neovim` installed?)");
    assert!(status.success(), "nvim: {status:?}");
    let result: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out_file).expect("Neovim's result"))
            .expect("JSON");

    // The diagnostics `urldb check` reports, at the same places (ASCII
    // text: a column in characters is one in UTF-16 code units).
    let report = support::urldb()
        .current_dir(work)
        .args(["check", "--format", "json", "example.com.yaml"])
        .output()
        .expect("urldb check");
    let report: Vec<serde_json::Value> = serde_json::from_slice(&report.stdout).expect("JSON");
    let mut want: Vec<(String, u64, u64)> = report
        .iter()
        .map(|f| {
            (
                f["code"].as_str().unwrap_or_default().to_string(),
                f["line"].as_u64().unwrap_or_default() - 1,
                f["column"].as_u64().unwrap_or_default() - 1,
            )
        })
        .collect();
    let mut got: Vec<(String, u64, u64)> = result["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            assert_eq!(d["source"], "urldb");
            (
                d["code"].as_str().unwrap_or_default().to_string(),
                d["line"].as_u64().unwrap_or_default(),
                d["col"].as_u64().unwrap_or_default(),
            )
        })
        .collect();
    want.sort();
    got.sort();
    assert!(!want.is_empty());
    assert_eq!(got, want);

    // Formatting through the server is `urldb fmt`.
    let fmt = support::urldb()
        .current_dir(work)
        .args(["fmt", "--stdin-filename", "example.com.yaml"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child
                .stdin
                .take()
                .expect("stdin")
                .write_all(text.as_bytes())?;
            child.wait_with_output()
        })
        .expect("urldb fmt");
    assert_eq!(
        result["formatted"].as_str(),
        Some(String::from_utf8_lossy(&fmt.stdout).as_ref())
    );
    assert_eq!(
        result["cleared"], true,
        "diagnostics cleared after formatting"
    );
}

/// One LSP frame.
fn frame(body: &str) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body.as_bytes());
    out
}

/// The JSON bodies of the frames in `out`.
fn bodies(mut out: &[u8]) -> Vec<serde_json::Value> {
    let mut found = Vec::new();
    while let Some(at) = out.windows(4).position(|w| w == b"\r\n\r\n") {
        let header = String::from_utf8_lossy(&out[..at]).to_string();
        let length: usize = header
            .trim()
            .strip_prefix("Content-Length: ")
            .and_then(|n| n.parse().ok())
            .expect("a Content-Length header");
        let body = &out[at + 4..at + 4 + length];
        found.push(serde_json::from_slice(body).expect("a JSON body"));
        out = &out[at + 4 + length..];
    }
    found
}

/// A body that is not JSON-RPC is skipped, not the end of the session:
/// the requests after it are answered, and `shutdown` then `exit` still
/// end the server with 0.
#[test]
fn server_skips_a_malformed_message_and_goes_on() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut input = Vec::new();
    for body in [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#,
        r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#,
        "{this is not JSON",
        r#"{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///nowhere/x.org.yaml"},"position":{"line":0,"character":0}}}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"no/such/method","params":null}"#,
        r#"{"jsonrpc":"2.0","id":4,"method":"shutdown","params":null}"#,
        r#"{"jsonrpc":"2.0","method":"exit","params":null}"#,
    ] {
        input.extend(frame(body));
    }
    let out = server_on(&input, dir.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("not JSON-RPC was skipped"), "{stderr}");
    let answers = bodies(&out.stdout);
    let answer = |id: u64| {
        answers
            .iter()
            .find(|a| a["id"] == id)
            .unwrap_or_else(|| panic!("no answer to request {id}: {answers:?}"))
    };
    assert!(answer(1)["result"]["capabilities"].is_object());
    assert_eq!(answer(2)["result"], serde_json::Value::Null);
    assert_eq!(answer(3)["error"]["code"], -32601);
    assert_eq!(answer(4)["result"], serde_json::Value::Null);
}

/// `urldb server` in the workspace `work`: open `file` with `text`, ask
/// to format it (answered at once; diagnostics may wait for a pause),
/// shut down. The server exits with 0 and answers the formatting with no
/// edit; every message it sent.
fn open_and_format(work: &Path, file: &Path, text: &str) -> Vec<serde_json::Value> {
    let uri = format!("file://{}", file.display());
    let messages = [
        serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"capabilities": {}, "rootUri": format!("file://{}", work.display())}}),
        serde_json::json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
        serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}}),
        serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "textDocument/formatting",
            "params": {"textDocument": {"uri": uri},
                       "options": {"tabSize": 2, "insertSpaces": true}}}),
        serde_json::json!({"jsonrpc": "2.0", "id": 3, "method": "shutdown", "params": null}),
        serde_json::json!({"jsonrpc": "2.0", "method": "exit", "params": null}),
    ];
    let mut input = Vec::new();
    for m in &messages {
        input.extend(frame(&m.to_string()));
    }
    let out = server_on(&input, work);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answers = bodies(&out.stdout);
    let formatted = answers.iter().find(|a| a["id"] == 2).expect("an answer");
    assert!(
        formatted["result"].is_null() || formatted["result"] == serde_json::json!([]),
        "{formatted}"
    );
    answers
}

/// An editor open on a stranger's checkout does not use the stranger's
/// budget: a `max-file-size` over the 1 GiB cap makes the configuration
/// unusable (the editor is told why), and no file under it is read or
/// checked (`docs/security.md` §8).
#[test]
fn a_file_size_over_the_cap_checks_nothing_and_says_why() {
    let dir = tempfile::tempdir().expect("tempdir");
    let work = dunce::canonicalize(dir.path()).expect("canonical");
    write(&work, "urldb.toml", "max-file-size = \"16 GiB\"\n");
    let text = "--- {cnames: [y.org]}\n--- {_path: /a, content-type: text/html}\n";
    write(&work, "x.org.yaml", text);
    let answers = open_and_format(&work, &work.join("x.org.yaml"), text);
    let said: Vec<&str> = answers
        .iter()
        .filter(|b| b["method"] == "window/showMessage")
        .filter_map(|b| b["params"]["message"].as_str())
        .collect();
    assert!(
        said.iter()
            .any(|m| m.contains("max-file-size: `16 GiB` is too large")),
        "{said:?} {answers:?}"
    );
    for body in &answers {
        if body["method"] == "textDocument/publishDiagnostics" {
            assert_eq!(
                body["params"]["diagnostics"],
                serde_json::json!([]),
                "{body}"
            );
        }
    }
}

/// Formatting in a database with `style = "pyyaml"` gives PyYAML's bytes:
/// the server reads the style from `urldb.toml` as the command line does.
#[test]
fn server_formats_in_the_configured_style() {
    let dir = tempfile::tempdir().expect("tempdir");
    let work = dunce::canonicalize(dir.path()).expect("canonical");
    write(&work, "urldb.toml", "style = \"pyyaml\"\n");
    let title =
        "Café des amis — the menu, the opening hours and the way to the terrace by the river";
    let messy =
        format!("--- {{}}\n--- {{title: \"{title}\", content-type: text/html, _path: /menu}}\n");
    write(&work, "example.com.yaml", &messy);
    let pyyaml = Command::new(support::python())
        .args([
            "-c",
            "import sys, yaml; sys.stdout.write(yaml.dump_all([{}, {'_path': '/menu', \
             'content-type': 'text/html', 'title': sys.argv[1]}], explicit_start=True, \
             sort_keys=True))",
            title,
        ])
        .output()
        .expect("python3 with PyYAML");
    let want = String::from_utf8(pyyaml.stdout).expect("UTF-8");
    assert!(
        want.contains("\\xE9") && want.contains("terrace\\\n  \\ by"),
        "{want}"
    );

    let uri = format!("file://{}", work.join("example.com.yaml").display());
    let messages = [
        serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"capabilities": {}, "rootUri": format!("file://{}", work.display())}}),
        serde_json::json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
        serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": messy}}}),
        serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "textDocument/formatting",
            "params": {"textDocument": {"uri": uri},
                       "options": {"tabSize": 2, "insertSpaces": true}}}),
        serde_json::json!({"jsonrpc": "2.0", "id": 3, "method": "shutdown", "params": null}),
        serde_json::json!({"jsonrpc": "2.0", "method": "exit", "params": null}),
    ];
    let mut input = Vec::new();
    for m in &messages {
        input.extend(frame(&m.to_string()));
    }
    let out = server_on(&input, &work);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answers = bodies(&out.stdout);
    let formatted = answers
        .iter()
        .find(|a| a["id"] == 2)
        .expect("an answer to formatting");
    let edits = formatted["result"].as_array().expect("edits");
    assert_eq!(edits.len(), 1, "{formatted}");
    assert_eq!(edits[0]["newText"].as_str(), Some(want.as_str()));
}

/// A document outside the workspace folder, with no `urldb.toml` above
/// it, belongs to no database: no diagnostics and no edits for it (though
/// it is not canonical), and the file beside it, which would make a
/// `cname-conflict`, is not read.
#[test]
fn a_document_outside_the_workspace_is_left_alone() {
    let dir = tempfile::tempdir().expect("tempdir");
    let top = dunce::canonicalize(dir.path()).expect("canonical");
    let (work, outside) = (top.join("work"), top.join("outside"));
    std::fs::create_dir(&work).expect("mkdir");
    std::fs::create_dir(&outside).expect("mkdir");
    let text = "--- {cnames: [y.org]}\n--- {_path: /a, content-type: text/html}\n";
    write(&outside, "x.org.yaml", text);
    write(&outside, "z.org.yaml", "---\ncnames:\n- y.org\n---\n");
    let answers = open_and_format(&work, &outside.join("x.org.yaml"), text);
    for body in answers {
        if body["method"] == "textDocument/publishDiagnostics" {
            assert_eq!(
                body["params"]["diagnostics"],
                serde_json::json!([]),
                "{body}"
            );
        }
    }
}

/// The language server follows the one membership rule: in a repository
/// like the reference one, the repository's own YAML files opened in the
/// editor get no urldb diagnostics and no edits (without urldb.toml they
/// are outside the one folder of domain files; with one, outside its
/// root), while a domain file of the database gets its findings.
#[test]
fn files_that_are_not_in_the_database_get_no_diagnostics() {
    use crate::support::reference_repo::{self, EXAMPLE_CONFIG, NOT_CANONICAL};
    let session = |work: &Path, names: &[&str]| {
        let mut messages = vec![
            serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"capabilities": {}, "rootUri": format!("file://{}", work.display())}}),
            serde_json::json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
        ];
        for (i, name) in names.iter().enumerate() {
            let uri = format!("file://{}", work.join(name).display());
            let text = std::fs::read_to_string(work.join(name)).expect("read");
            messages.push(
                serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                "params": {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1,
                                            "text": text}}}),
            );
            messages.push(serde_json::json!({"jsonrpc": "2.0", "id": 10 + i,
                "method": "textDocument/formatting",
                "params": {"textDocument": {"uri": uri},
                           "options": {"tabSize": 2, "insertSpaces": true}}}));
        }
        let send = |stdin: &mut std::process::ChildStdin, messages: &[serde_json::Value]| {
            for m in messages {
                std::io::Write::write_all(stdin, &frame(&m.to_string())).expect("write");
            }
        };
        let mut child = spawn_server(work);
        let mut stdin = child.stdin.take().expect("stdin");
        send(&mut stdin, &messages);
        // Every document's diagnostics are published after the messages
        // are handled: wait for them before ending the session.
        let rx = answers_as_they_come(&mut child);
        let mut answers = Vec::new();
        let mut waiting = names.len();
        while let Ok(answer) = rx.recv_timeout(std::time::Duration::from_secs(60)) {
            waiting -= usize::from(answer["method"] == "textDocument/publishDiagnostics");
            answers.push(answer);
            if waiting == 0 {
                break;
            }
        }
        send(
            &mut stdin,
            &[
                serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": null}),
                serde_json::json!({"jsonrpc": "2.0", "method": "exit", "params": null}),
            ],
        );
        drop(stdin);
        assert_eq!(child.wait().expect("urldb server").code(), Some(0));
        answers.extend(rx.iter());
        // Per document: its diagnostics' codes, and whether formatting
        // offered an edit.
        names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let uri = format!("file://{}", work.join(name).display());
                let codes: Vec<String> = answers
                    .iter()
                    .filter(|a| {
                        a["method"] == "textDocument/publishDiagnostics"
                            && a["params"]["uri"] == uri.as_str()
                    })
                    .flat_map(|a| {
                        a["params"]["diagnostics"]
                            .as_array()
                            .cloned()
                            .unwrap_or_default()
                    })
                    .map(|d| d["code"].as_str().unwrap_or_default().to_string())
                    .collect();
                let formatted = answers
                    .iter()
                    .find(|a| a["id"] == 10 + i)
                    .map(|a| a["result"].as_array().is_some_and(|e| !e.is_empty()))
                    .expect("an answer to formatting");
                (name.to_string(), codes, formatted)
            })
            .collect::<Vec<_>>()
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let work = dunce::canonicalize(dir.path()).expect("canonical");
    reference_repo::write(&work, false);
    let outside = ["readthedocs.yml", "mkdocs.yml", "ci/templates/build.yaml"];
    let mut names = outside.to_vec();
    names.push(NOT_CANONICAL);
    let seen = session(&work, &names);
    for (name, codes, formatted) in &seen[..outside.len()] {
        assert!(
            codes.is_empty() && !formatted,
            "{name}: {codes:?}, {formatted}"
        );
    }
    let (_, codes, formatted) = &seen[outside.len()];
    assert!(
        codes.contains(&"unsorted-records".to_string()) && *formatted,
        "{seen:?}"
    );

    // With urldb.toml naming the database, a file outside its root that
    // is named like a domain file is left alone too.
    reference_repo::write(&work, true);
    std::fs::write(work.join("urldb.toml"), "root = \"wwt_url_database/db\"\n").expect("write");
    let seen = session(&work, &[EXAMPLE_CONFIG, "readthedocs.yml", NOT_CANONICAL]);
    assert!(seen[0].1.is_empty() && !seen[0].2, "{seen:?}");
    assert!(seen[1].1.is_empty() && !seen[1].2, "{seen:?}");
    assert!(!seen[2].1.is_empty() && seen[2].2, "{seen:?}");
}

/// The server's messages, read from its stdout by a thread as they come.
fn answers_as_they_come(
    child: &mut std::process::Child,
) -> std::sync::mpsc::Receiver<serde_json::Value> {
    let mut stdout = std::io::BufReader::new(child.stdout.take().expect("stdout"));
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        loop {
            let mut length = 0;
            loop {
                let mut line = String::new();
                if stdout.read_line(&mut line).unwrap_or(0) == 0 {
                    return;
                }
                if let Some(n) = line.trim().strip_prefix("Content-Length: ") {
                    length = n.parse().unwrap_or(0);
                }
                if line == "\r\n" {
                    break;
                }
            }
            let mut body = vec![0; length];
            if std::io::Read::read_exact(&mut stdout, &mut body).is_err() {
                return;
            }
            let value: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
            if tx.send(value).is_err() {
                return;
            }
        }
    });
    rx
}

/// Work made stale while the server was busy is not done: edits that a
/// newer one supersedes are not checked (diagnostics come for the last
/// version only), and a request cancelled by `$/cancelRequest` is answered
/// `RequestCancelled` (-32800) without being worked on, while one not
/// cancelled is answered. The server is kept busy by checking a large
/// document (some megabytes, checked in pieces, and with a comment in each
/// record, so that no piece is proven clean from its text and each is
/// parsed) when the later messages arrive, so they wait as one batch.
#[test]
fn stale_edits_and_cancelled_requests_are_not_worked_on() {
    use std::io::Write;
    let dir = tempfile::tempdir().expect("tempdir");
    let work = dunce::canonicalize(dir.path()).expect("canonical");
    write(&work, "urldb.toml", "");
    let mut big = String::from("---\n");
    for i in 0..60_000 {
        big.push_str(&format!(
            "---\n_path: /page/{i:07}\ncontent-type: text/html\n# reviewed\n"
        ));
    }
    let uri = format!("file://{}", work.join("example.com.yaml").display());
    let mut child = spawn_server(&work);
    let mut stdin = child.stdin.take().expect("stdin");
    let send = |stdin: &mut std::process::ChildStdin, messages: &[serde_json::Value]| {
        for m in messages {
            stdin.write_all(&frame(&m.to_string())).expect("write");
        }
        stdin.flush().expect("flush");
    };
    send(
        &mut stdin,
        &[
            serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"capabilities": {}, "rootUri": format!("file://{}", work.display())}}),
            serde_json::json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
            serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": big}}}),
        ],
    );
    // While version 1 is checked: two edits, a request and its cancel,
    // and a request that stays.
    std::thread::sleep(std::time::Duration::from_millis(150));
    let edit = |version: i32, text: &str| {
        serde_json::json!({"jsonrpc": "2.0",
        "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": {"line": 3, "character": 19},
                "end": {"line": 3, "character": 23}}, "text": text}]}})
    };
    let hover = |id: i32| {
        serde_json::json!({"jsonrpc": "2.0", "id": id,
        "method": "textDocument/hover", "params": {"textDocument": {"uri": uri},
            "position": {"line": 3, "character": 2}}})
    };
    send(
        &mut stdin,
        &[
            edit(2, "HTML"),
            edit(3, "html"),
            hover(7),
            serde_json::json!({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 7}}),
            hover(8),
        ],
    );
    // Read the answers as they come, until version 3's diagnostics.
    let rx = answers_as_they_come(&mut child);
    let mut answers = Vec::new();
    while let Ok(answer) = rx.recv_timeout(std::time::Duration::from_secs(60)) {
        let last = answer["params"]["version"] == 3;
        answers.push(answer);
        if last {
            break;
        }
    }
    send(
        &mut stdin,
        &[
            serde_json::json!({"jsonrpc": "2.0", "id": 9, "method": "shutdown", "params": null}),
            serde_json::json!({"jsonrpc": "2.0", "method": "exit", "params": null}),
        ],
    );
    drop(stdin);
    let status = child.wait().expect("urldb server");
    answers.extend(rx.iter());
    assert_eq!(status.code(), Some(0));
    let answer = |id: i32| {
        answers
            .iter()
            .find(|a| a["id"] == id)
            .cloned()
            .unwrap_or_default()
    };
    assert_eq!(answer(7)["error"]["code"], -32800, "{:?}", answer(7));
    assert!(answer(8).get("result").is_some(), "{:?}", answer(8));
    let versions: Vec<i64> = answers
        .iter()
        .filter(|a| a["method"] == "textDocument/publishDiagnostics")
        .filter_map(|a| a["params"]["version"].as_i64())
        .collect();
    // Version 1 is checked when the server read it before the edits came
    // (150 ms is a guess, and a loaded machine may read all of them as one
    // batch); version 2 is superseded either way.
    assert!(
        versions == [1, 3] || versions == [3],
        "version 2 was superseded before it was checked: {versions:?}"
    );
}

/// The editor refuses a file whose only problem is a tab PyYAML refuses
/// as `check` does (`hostile::tab_outside_check`): a `yaml-syntax` error
/// on its line.
#[test]
fn a_tab_pyyaml_refuses_is_a_yaml_syntax_error_in_the_editor() {
    let work = tempfile::tempdir().expect("tempdir");
    let file = work.path().join("tab.org.yaml");
    let text = "---\n---\n_path: /a\ncategories:\n-\tfrontend\ncontent-type: text/html\n";
    write(work.path(), "tab.org.yaml", text);
    let uri = format!("file://{}", file.display());
    let send = |stdin: &mut std::process::ChildStdin, messages: &[serde_json::Value]| {
        for m in messages {
            std::io::Write::write_all(stdin, &frame(&m.to_string())).expect("write");
        }
    };
    let mut child = spawn_server(work.path());
    let mut stdin = child.stdin.take().expect("stdin");
    send(
        &mut stdin,
        &[
            serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"capabilities": {},
                           "rootUri": format!("file://{}", work.path().display())}}),
            serde_json::json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
            serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
                "textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}}),
        ],
    );
    let rx = answers_as_they_come(&mut child);
    let mut diagnostics = None;
    while let Ok(answer) = rx.recv_timeout(std::time::Duration::from_secs(60)) {
        if answer["method"] == "textDocument/publishDiagnostics" {
            diagnostics = Some(answer["params"]["diagnostics"].clone());
            break;
        }
    }
    send(
        &mut stdin,
        &[
            serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": null}),
            serde_json::json!({"jsonrpc": "2.0", "method": "exit", "params": null}),
        ],
    );
    drop(stdin);
    assert_eq!(child.wait().expect("urldb server").code(), Some(0));
    let diagnostics = diagnostics.expect("diagnostics published");
    let tab = diagnostics
        .as_array()
        .into_iter()
        .flatten()
        .find(|d| d["code"] == "yaml-syntax")
        .unwrap_or_else(|| panic!("no yaml-syntax diagnostic: {diagnostics}"));
    assert_eq!(tab["severity"], 1, "{tab}");
    assert_eq!(tab["range"]["start"]["line"], 4, "{tab}");
    assert!(
        tab["message"]
            .as_str()
            .is_some_and(|m| m.contains("PyYAML refuses a tab here")),
        "{tab}"
    );
}
