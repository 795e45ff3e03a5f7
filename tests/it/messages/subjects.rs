//! One context per error: a failing command names what it is about (a URL,
//! a file, a revision) once on its line, however many layers the error
//! passed through (typed errors with their sources, each adding its own
//! context: `src/app/errors.rs`, `CommandError`).

use crate::support;

use std::path::Path;

const CLEAN: &str = "---\n---\n_path: /\ncontent-type: text/html\n";
const UNSORTED: &str =
    "---\n---\n_path: /b\ncontent-type: text/html\n---\n_path: /a\ncontent-type: text/html\n";

/// A failing command, the words it is about, and the exit it must give.
struct Case {
    args: &'static [&'static str],
    subjects: &'static [&'static str],
    exit: i32,
}

const CASES: &[Case] = &[
    // The server cannot be asked (nothing listens on port 9).
    Case {
        args: &[
            "add",
            "--timeout",
            "2s",
            "--map",
            "example.com=127.0.0.1:9",
            "https://example.com/x.html",
        ],
        subjects: &["https://example.com/x.html", "127.0.0.1:9"],
        exit: 1,
    },
    Case {
        args: &["add", "http://"],
        subjects: &["http://"],
        exit: 2,
    },
    Case {
        args: &["add", "--create-domain", "https://bad_host.example/x"],
        subjects: &["https://bad_host.example/x"],
        exit: 1,
    },
    Case {
        args: &["rm", "https://example.com/nothing-here"],
        subjects: &["https://example.com/nothing-here"],
        exit: 1,
    },
    Case {
        args: &["rm", "https://unknown.example/"],
        subjects: &["https://unknown.example/"],
        exit: 1,
    },
    // Read-only files (urldb refuses to replace one, root too): the write
    // error names the file, and so does the line.
    Case {
        args: &["fmt", "readonly.example.yaml"],
        subjects: &["readonly.example.yaml"],
        exit: 2,
    },
    Case {
        args: &["check", "--fix", "readonly.example.yaml"],
        subjects: &["readonly.example.yaml"],
        exit: 2,
    },
    Case {
        args: &[
            "add",
            "--content-type",
            "text/html",
            "https://readonly.example/new",
        ],
        subjects: &["readonly.example.yaml"],
        exit: 2,
    },
    Case {
        args: &["check", "--since", "nosuchrev"],
        subjects: &["nosuchrev"],
        exit: 2,
    },
    Case {
        args: &["--db", "example.com.yaml", "check"],
        subjects: &["example.com.yaml"],
        exit: 2,
    },
    Case {
        args: &["--config", "missing.toml", "check"],
        subjects: &["missing.toml"],
        exit: 2,
    },
    Case {
        args: &["ls", "--domain", "http://"],
        subjects: &["http://"],
        exit: 2,
    },
    Case {
        args: &["ls", "--domain", "nosuch.example"],
        subjects: &["nosuch.example"],
        exit: 2,
    },
    Case {
        args: &["report", "missing.json"],
        subjects: &["missing.json"],
        exit: 2,
    },
    Case {
        args: &["import", "--from", "urls", "missing.txt"],
        subjects: &["missing.txt"],
        exit: 2,
    },
    Case {
        args: &["verify", "--history", "history-link.jsonl"],
        subjects: &["history-link.jsonl"],
        exit: 2,
    },
    Case {
        args: &["rule", "no-such-rule"],
        subjects: &["no-such-rule"],
        exit: 2,
    },
];

fn database(dir: &Path) {
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).expect("write");
    write("example.com.yaml", CLEAN);
    write("readonly.example.yaml", UNSORTED);
    write("elsewhere.txt", "");
    std::os::unix::fs::symlink(dir.join("elsewhere.txt"), dir.join("history-link.jsonl"))
        .expect("symlink");
    let readonly = dir.join("readonly.example.yaml");
    let mut permissions = std::fs::metadata(&readonly).expect("meta").permissions();
    permissions.set_readonly(true);
    std::fs::set_permissions(&readonly, permissions).expect("chmod");
    support::git(dir, &["init", "-q"]);
}

#[test]
#[cfg(unix)]
fn no_error_message_repeats_its_subject() {
    let dir = tempfile::tempdir().expect("tempdir");
    database(dir.path());
    let mut failures = Vec::new();
    for case in CASES {
        let out = support::run_in(dir.path(), case.args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if out.status.code() != Some(case.exit) {
            failures.push(format!(
                "{:?}: exit {:?}\n{stderr}",
                case.args,
                out.status.code()
            ));
            continue;
        }
        for subject in case.subjects {
            if !stderr.contains(subject) {
                failures.push(format!(
                    "{:?}: `{subject}` never named\n{stderr}",
                    case.args
                ));
            }
            for line in stderr.lines() {
                if line.matches(subject).count() > 1 {
                    failures.push(format!("{:?}: `{subject}` twice in: {line}", case.args));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
