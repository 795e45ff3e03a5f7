//! Every command in a database whose path has spaces and non-ASCII
//! letters (`Bases de données/Ünï côté`): `init`, `add` (asking a server on
//! 127.0.0.1), `ls`, `export`, `rm`, `import`, `fmt`, `check --fix`,
//! `check`, `verify` against that server, `report`, and the language
//! server's `initialize` and diagnostics for a `file:` URI of a file there.
//! On Windows such a path is UTF-16 to the system and UTF-8 in urldb's
//! output; under Wine the URIs name the `Z:` drive.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{ChildStdin, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use super::{file_uri, read, run, run_with_input, stderr, stdout, write};
use crate::support;

/// The database's directory and its parent, both named with spaces and
/// letters outside ASCII.
struct Database {
    _top: tempfile::TempDir,
    parent: PathBuf,
    db: PathBuf,
}

const NAME: &str = "Ünï côté";

fn database() -> Database {
    let top = tempfile::tempdir().expect("tempdir");
    let parent = top.path().join("Bases de données");
    std::fs::create_dir(&parent).expect("mkdir");
    let out = run(&parent, &["init", NAME]);
    assert_eq!(out.status.code(), Some(0), "init: {}", stderr(&out));
    let said = stdout(&out) + &stderr(&out);
    assert!(
        said.contains("Ünï côté/urldb.toml") && said.contains("Ünï côté/example.com.yaml"),
        "init: {said}"
    );
    let db = parent.join(NAME);
    Database {
        _top: top,
        parent,
        db,
    }
}

/// A server on 127.0.0.1 where every path is an HTML page.
fn server() -> String {
    let listening = support::http::listen(|mut stream: TcpStream, _target: &str| {
        let body = "<html></html>";
        let _ = stream.write_all(
            format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\
                 Connection: close\r\n\r\n{body}",
                body.len()
            )
            .as_bytes(),
        );
    });
    format!("127.0.0.1:{}", listening.port)
}

#[test]
fn add_ls_export_rm_import_in_a_path_with_spaces_and_accents() {
    let Database { db, .. } = &database();
    let addr = server();
    let map = format!("example.com={addr}");
    let out = run(
        db,
        &[
            "add",
            "--allow-private",
            "--map",
            &map,
            "http://example.com/page",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "add: {}", stderr(&out));
    let file = db.join("example.com.yaml");
    assert!(read(&file).contains("_path: /page\ncontent-type: text/html\n"));

    let out = run(db, &["ls"]);
    assert_eq!(out.status.code(), Some(0), "ls: {}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "http://example.com/\nhttp://example.com/page\n"
    );

    let out = run(db, &["export", "--to", "uri-catalogue"]);
    assert_eq!(out.status.code(), Some(0), "export: {}", stderr(&out));
    let catalogue = db.join("liste exportée.txt");
    std::fs::write(&catalogue, &out.stdout).expect("write");

    let out = run(db, &["rm", "http://example.com/page"]);
    assert_eq!(out.status.code(), Some(0), "rm: {}", stderr(&out));
    assert!(!read(&file).contains("/page"));

    let out = run(
        db,
        &["import", "--from", "uri-catalogue", "liste exportée.txt"],
    );
    assert_eq!(out.status.code(), Some(0), "import: {}", stderr(&out));
    assert!(read(&file).contains("_path: /page\ncontent-type: text/html\n"));
    let out = run(db, &["check"]);
    assert_eq!(out.status.code(), Some(0), "check: {}", stdout(&out));
}

#[test]
fn fmt_and_check_fix_in_a_path_with_spaces_and_accents() {
    let Database { parent, db, .. } = &database();
    let unsorted = db.join("pages à trier/b.org.yaml");
    write(&unsorted, "---\n---\ncontent-type: text/html\n_path: /a\n");
    let escaped = db.join("pages à trier/c.org.yaml");
    write(&escaped, "---\n---\n_path: /%7e\ncontent-type: text/html\n");

    // Named from outside the database, by its relative path.
    let out = run(parent, &["check", "--format", "concise", NAME]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let found = stdout(&out);
    assert!(
        found.contains("Ünï côté/pages à trier/b.org.yaml:4:1: error unsorted-keys")
            && found.contains("Ünï côté/pages à trier/c.org.yaml:3:9: error path-unneeded-escape"),
        "{found}"
    );

    let out = run(db, &["fmt", "pages à trier/b.org.yaml"]);
    assert_eq!(out.status.code(), Some(0), "fmt: {}", stderr(&out));
    assert_eq!(
        read(&unsorted),
        "---\n---\n_path: /a\ncontent-type: text/html\n"
    );
    let out = run(db, &["check", "--fix"]);
    assert_eq!(out.status.code(), Some(0), "check --fix: {}", stdout(&out));
    assert_eq!(
        read(&escaped),
        "---\n---\n_path: /~\ncontent-type: text/html\n"
    );
    let out = run(db, &["check", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(stdout(&out).trim(), "[]");
}

#[test]
fn verify_and_report_in_a_path_with_spaces_and_accents() {
    let Database { db, .. } = &database();
    write(
        &db.join("pages à trier/b.org.yaml"),
        "---\n---\n_path: /a\ncontent-type: text/html\n",
    );
    let addr = server();
    let (m1, m2) = (format!("example.com={addr}"), format!("b.org={addr}"));
    let out = run(
        db,
        &[
            "verify",
            "--allow-private",
            "--map",
            &m1,
            "--map",
            &m2,
            "--format",
            "json",
            "--history",
            "historique des vérifications.jsonl",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "verify: {}", stderr(&out));
    let results: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let mut files: Vec<&str> = results["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            assert_eq!(r["outcome"], "ok", "{r}");
            r["file"].as_str().expect("file")
        })
        .collect();
    files.sort_unstable();
    assert_eq!(files, ["example.com.yaml", "pages à trier/b.org.yaml"]);
    let history = read(&db.join("historique des vérifications.jsonl"));
    assert_eq!(history.lines().count(), 3, "{history}");
    assert!(history.contains("\"recent\":\"o\""), "{history}");

    std::fs::write(db.join("résultats.json"), &out.stdout).expect("write");
    let out = run(db, &["report", "résultats.json"]);
    assert_eq!(out.status.code(), Some(0), "report: {}", stderr(&out));
    assert!(
        stdout(&out).contains("All 2 URLs passed"),
        "{}",
        stdout(&out)
    );
}

/// One message of the language server's stdout, or `None` at its end.
fn read_message(from: &mut impl BufRead) -> Option<serde_json::Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if from.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length: ") {
            length = n.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    from.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

fn send(to: &mut ChildStdin, message: &serde_json::Value) {
    let body = message.to_string();
    write!(to, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("send");
    to.flush().expect("flush");
}

#[test]
fn the_language_server_checks_a_file_uri_in_a_path_with_spaces_and_accents() {
    use serde_json::json;
    let Database { db, .. } = &database();
    let path = db.join("pages à trier").join("c.org.yaml");
    let text = "---\n---\n_path: /%7e\ncontent-type: text/html\n";
    write(&path, "---\n---\n_path: /\ncontent-type: text/html\n");
    let uri = file_uri(&path);

    let mut child = support::urldb()
        .current_dir(db)
        .arg("server")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start urldb server");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut reader = BufReader::new(child.stdout.take().expect("stdout"));
    let (tx, messages) = mpsc::channel();
    let reading = std::thread::spawn(move || {
        while let Some(message) = read_message(&mut reader) {
            if tx.send(message).is_err() {
                break;
            }
        }
    });
    let wait_for = |what: &dyn Fn(&serde_json::Value) -> bool| -> serde_json::Value {
        loop {
            let message = messages
                .recv_timeout(Duration::from_secs(120))
                .expect("an answer from the server");
            if what(&message) {
                return message;
            }
        }
    };

    send(
        &mut stdin,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "processId": null,
            "rootUri": file_uri(db),
            "capabilities": {},
        }}),
    );
    let initialized = wait_for(&|m| m["id"] == 1);
    assert_eq!(
        initialized["result"]["serverInfo"]["name"], "urldb",
        "{initialized}"
    );
    send(
        &mut stdin,
        &json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
    );
    send(
        &mut stdin,
        &json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text},
        }}),
    );
    let published = wait_for(&|m| m["method"] == "textDocument/publishDiagnostics");
    assert_eq!(published["params"]["uri"], uri.as_str(), "{published}");
    let mut got: Vec<String> = published["params"]["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| d["code"].as_str().unwrap_or_default().to_string())
        .collect();
    got.sort();
    // What `check` says of the same text.
    let out = run_with_input(
        db,
        &[
            "check",
            "--format",
            "json",
            "--exit-zero",
            "--stdin-filename",
            "pages à trier/c.org.yaml",
        ],
        text.as_bytes(),
    );
    let report: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).expect("JSON");
    let mut want: Vec<String> = report
        .iter()
        .map(|f| f["code"].as_str().unwrap_or_default().to_string())
        .collect();
    want.sort();
    assert_eq!(got, want);
    assert_eq!(want, ["path-unneeded-escape"]);

    send(
        &mut stdin,
        &json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": null}),
    );
    wait_for(&|m| m["id"] == 2);
    send(&mut stdin, &json!({"jsonrpc": "2.0", "method": "exit"}));
    drop(stdin);
    let status = child.wait().expect("urldb server");
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = e.read_to_string(&mut err);
    }
    assert_eq!(status.code(), Some(0), "{err}");
    let _ = reading.join();
}
