//! The gate cannot be lowered from the data (`docs/suppressions.md`,
//! "Gate findings"; `docs/security.md`): a file PyYAML refuses, or that
//! `ls`, `export` or `verify`'s planning refuses, fails `check` whatever
//! its suppression comments, `[lint.per-file-ignores]`, `[lint]`
//! selection and severity, or `--select` and `--ignore` say; the owner's
//! `--no-suppressions` (or `URLDB_NO_SUPPRESSIONS`) honours no
//! suppression; every human format says how many findings were excused;
//! tabs are judged as PyYAML judges them. The oracles are the real PyYAML
//! and urldb's own readers (`urldb_store::listing`, `urldb_verify::plan`).

use crate::support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use proptest::prelude::*;
use urldb_core::rules::{self, gate_findings};

/// Run urldb in `dir` with `args` and the environment variables `env`
/// (`URLDB_NO_SUPPRESSIONS` only when given).
fn run(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = support::urldb();
    cmd.current_dir(dir)
        .args(args)
        .env_remove("URLDB_FORMAT")
        .env_remove("URLDB_NO_SUPPRESSIONS")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("run urldb")
}

/// A database of `files` (name, bytes), with an empty `urldb.toml` unless
/// one is given.
fn db(files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("urldb.toml"), "").expect("write");
    for (name, bytes) in files {
        std::fs::write(dir.path().join(name), bytes).expect("write");
    }
    dir
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `check --format json`'s findings: (file, code, severity).
fn json_findings(out: &Output) -> Vec<(String, String, String)> {
    let findings: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("check's JSON ({e}): {}", stdout(out)));
    findings
        .iter()
        .map(|f| {
            let s = |k: &str| f[k].as_str().unwrap_or_default().to_string();
            (s("path"), s("code"), s("severity"))
        })
        .collect()
}

/// PyYAML's verdict on each text: `yaml.safe_load_all` raises.
fn pyyaml_refuses(texts: &[Vec<u8>]) -> Vec<bool> {
    let script = "import json, sys, yaml\n\
        out = []\n\
        for t in json.load(sys.stdin):\n\
        \x20   try:\n\
        \x20       list(yaml.safe_load_all(bytes(t)))\n\
        \x20       out.append(False)\n\
        \x20   except Exception:\n\
        \x20       out.append(True)\n\
        print(json.dumps(out))\n";
    let input = serde_json::to_vec(texts).expect("JSON");
    let out = support::run_python(script, &[], &input);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).expect("PyYAML's verdicts")
}

/// The four attacks of the report: a comment in the data excused what
/// PyYAML (and for the first two `ls`, `export` and `verify`) refuse.
#[test]
fn suppression_comments_do_not_excuse_gate_findings() {
    let attacks: [(&str, Vec<u8>); 4] = [
        (
            "yaml-syntax",
            b"# urldb: ignore-file[yaml-syntax]\n---\n---\n_path: /a\n  content-type: text/html\n"
                .to_vec(),
        ),
        (
            "invalid-utf8",
            b"# urldb: ignore-file[invalid-utf8]\n---\n---\n_path: /a\ncontent-type: text/html\nnote: caf\xe9\n"
                .to_vec(),
        ),
        (
            "unloadable-value",
            b"---\n---\n_path: /a\ncontent-type: text/html\nnote: = # urldb: ignore[unloadable-value]\n"
                .to_vec(),
        ),
        (
            "yaml-tag",
            b"---\n---\n_path: /a\ncontent-type: !custom text/html # urldb: ignore[yaml-tag]\n"
                .to_vec(),
        ),
    ];
    let refused = pyyaml_refuses(&attacks.iter().map(|(_, t)| t.clone()).collect::<Vec<_>>());
    for ((code, text), refused) in attacks.iter().zip(refused) {
        assert!(refused, "{code}: PyYAML loads the attack");
        let dir = db(&[("example.org.yaml", text)]);
        let out = run(
            dir.path(),
            &["--no-cache", "check", "--format", "github"],
            &[],
        );
        assert_eq!(out.status.code(), Some(1), "{code}: {}", stdout(&out));
        let report = stdout(&out);
        assert!(
            report.contains("::error file=example.org.yaml,")
                && report.contains(&format!("title=urldb ({code})::")),
            "{code}: {report}"
        );
        // The directive itself is reported: it can never excuse the finding.
        assert!(
            report.contains(&format!(
                "`{code}` cannot be suppressed: it is a gate finding"
            )),
            "{code}: {report}"
        );
    }
}

/// `[lint] ignore`, `[lint] severity`, `[lint.per-file-ignores]`,
/// `--ignore` and `--select`: none turns a gate finding off or makes it a
/// warning, and naming one is said, in urldb.toml with its line.
#[test]
fn lint_settings_and_the_command_line_do_not_lower_the_gate() {
    let broken = b"---\n---\n_path: /a\n  content-type: text/html\n";
    let tagged = b"---\n---\n_path: /a\ncontent-type: !custom text/html\n";
    let config = "[lint]\n\
        select = [\"path-case\"]\n\
        ignore = [\"yaml-syntax\", \"yaml-tag\"]\n\
        severity = { yaml-syntax = \"warning\", path-case = \"warning\" }\n\
        \n\
        [lint.per-file-ignores]\n\
        \"*.yaml\" = [\"ALL\", \"yaml-tag\"]\n";
    let dir = db(&[
        ("a.example.org.yaml", broken),
        ("b.example.org.yaml", tagged),
    ]);
    std::fs::write(dir.path().join("urldb.toml"), config).expect("write");
    let out = run(
        dir.path(),
        &[
            "--no-cache",
            "check",
            "--format",
            "json",
            "--ignore",
            "yaml-syntax",
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let found = json_findings(&out);
    assert!(
        found.contains(&(
            "a.example.org.yaml".into(),
            "yaml-syntax".into(),
            "error".into()
        )),
        "{found:?}"
    );
    assert!(
        found.contains(&(
            "b.example.org.yaml".into(),
            "yaml-tag".into(),
            "error".into()
        )),
        "{found:?}"
    );
    let err = stderr(&out);
    for said in [
        "warning: urldb.toml:3: `[lint] ignore` names `yaml-syntax`, a gate finding",
        "warning: urldb.toml:3: `[lint] ignore` names `yaml-tag`, a gate finding",
        "warning: urldb.toml:4: `[lint] severity` cannot make `yaml-syntax` a warning",
        "warning: urldb.toml:7: `[lint.per-file-ignores]` cannot turn `yaml-tag` off for \"*.yaml\"",
        "warning: --ignore yaml-syntax: a gate finding is always checked",
    ] {
        assert!(err.contains(said), "not said: {said}\n{err}");
    }
    // What is not a gate finding is still turned off as asked.
    assert!(!err.contains("path-case"), "{err}");
}

/// `check --add-suppressions` on a file that does not parse writes
/// nothing, says why, and `check` still fails.
#[test]
fn add_suppressions_writes_nothing_for_a_gate_finding() {
    let broken = b"---\n---\n_path: [/a\n";
    let dir = db(&[("example.org.yaml", broken)]);
    let add = run(
        dir.path(),
        &["--no-cache", "check", "--add-suppressions"],
        &[],
    );
    assert_eq!(add.status.code(), Some(1), "{}", stderr(&add));
    let err = stderr(&add);
    assert!(
        err.contains("Added suppressions for 0 findings in 0 files.")
            && err.contains("1 gate finding cannot be suppressed: fix it"),
        "{err}"
    );
    let after = std::fs::read(dir.path().join("example.org.yaml")).expect("read");
    assert_eq!(after, broken);
    let check = run(dir.path(), &["--no-cache", "check"], &[]);
    assert_eq!(check.status.code(), Some(1));
    // Beside a finding it does excuse, a gate finding gets no directive.
    let mixed = b"---\n---\n_path: /a\n---\n_path: /b\ncontent-type: text/nope/b\n";
    let dir = db(&[("example.org.yaml", mixed)]);
    let add = run(
        dir.path(),
        &["--no-cache", "check", "--add-suppressions"],
        &[],
    );
    assert_eq!(add.status.code(), Some(1), "{}", stderr(&add));
    let written = std::fs::read_to_string(dir.path().join("example.org.yaml")).expect("read");
    assert_eq!(
        written,
        "---\n---\n_path: /a\n# urldb: ignore[invalid-content-type]\n---\n_path: /b\ncontent-type: text/nope/b\n"
    );
    assert!(
        stderr(&add).contains("1 gate finding cannot be suppressed"),
        "{}",
        stderr(&add)
    );
}

/// A `_path` from which no URL of the file's own host can be built fails
/// `check` whatever excuses it: the record is one `verify` refuses.
#[test]
fn paths_of_another_host_are_gate_findings() {
    for path in [
        ".attacker.example/x",
        "'@attacker.example/x'",
        ":8443/admin",
        "//evil.example/x",
    ] {
        let text = format!(
            "# urldb: ignore-file[path-not-absolute, path-network-reference, path-invalid-char]\n\
             ---\n---\n_path: {path} # urldb: ignore[path-not-absolute, path-network-reference]\n\
             content-type: text/html\n"
        );
        let dir = db(&[("example.org.yaml", text.as_bytes())]);
        std::fs::write(
            dir.path().join("urldb.toml"),
            "[lint]\nignore = [\"path-not-absolute\", \"path-network-reference\"]\n\
             [lint.per-file-ignores]\n\"*\" = [\"ALL\"]\n",
        )
        .expect("write");
        let out = run(
            dir.path(),
            &["--no-cache", "check", "--format", "json"],
            &[],
        );
        assert_eq!(out.status.code(), Some(1), "{path}");
        let codes: BTreeSet<String> = json_findings(&out)
            .into_iter()
            .filter(|(_, _, s)| s == "error")
            .map(|(_, c, _)| c)
            .collect();
        assert!(
            codes.contains("path-not-absolute") || codes.contains("path-network-reference"),
            "{path}: {codes:?}"
        );
        // And `verify` would not request it.
        let root = urldb_store::Root::new(dir.path()).expect("root");
        let plan = urldb_verify::plan::plan(
            &root,
            &[dir.path().join("example.org.yaml")],
            &urldb_verify::plan::PlanOptions::default(),
            u64::MAX,
        );
        assert!(
            plan.checks.iter().all(|c| c.not_checked.is_some()),
            "{path}: {:?}",
            plan.checks
        );
    }
}

/// Findings excused by a comment or a per-file ignore, in two files.
fn excused_db() -> tempfile::TempDir {
    let a = b"---\n---\n_path: /a\ncontent-type: text/nope/a # urldb: ignore[invalid-content-type]\n---\n_path: /b\ncontent-type: text/nope/b\n";
    let b = b"---\n---\n_path: /c\ncontent-type: text/nope/c\n";
    let dir = db(&[("a.example.org.yaml", a), ("legacy.example.org.yaml", b)]);
    std::fs::write(
        dir.path().join("urldb.toml"),
        "[lint.per-file-ignores]\n\"legacy.*\" = [\"invalid-content-type\"]\n",
    )
    .expect("write");
    dir
}

/// `--no-suppressions` and `URLDB_NO_SUPPRESSIONS`: no comment and no
/// per-file ignore excuses anything; an empty or false value leaves them.
#[test]
fn no_suppressions_honours_no_comment_and_no_per_file_ignore() {
    let dir = excused_db();
    let codes = |out: &Output| json_findings(out).len();
    let check = ["--no-cache", "check", "--format", "json"];
    let honoured = run(dir.path(), &check, &[]);
    assert_eq!(codes(&honoured), 1);
    let mut flag = check.to_vec();
    flag.push("--no-suppressions");
    assert_eq!(codes(&run(dir.path(), &flag, &[])), 3);
    for on in ["true", "1", "yes", "TRUE"] {
        let out = run(dir.path(), &check, &[("URLDB_NO_SUPPRESSIONS", on)]);
        assert_eq!(codes(&out), 3, "URLDB_NO_SUPPRESSIONS={on}");
    }
    for off in ["", "false", "0", "no"] {
        let out = run(dir.path(), &check, &[("URLDB_NO_SUPPRESSIONS", off)]);
        assert_eq!(codes(&out), 1, "URLDB_NO_SUPPRESSIONS={off:?}");
    }
    let bad = run(dir.path(), &check, &[("URLDB_NO_SUPPRESSIONS", "maybe")]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("expected true or false"),
        "{}",
        stderr(&bad)
    );
    // No unused-suppression for a directive that is merely not honoured.
    let concise = run(
        dir.path(),
        &[
            "--no-cache",
            "check",
            "--format",
            "concise",
            "--no-suppressions",
        ],
        &[],
    );
    assert!(
        !stdout(&concise).contains("unused-suppression"),
        "{}",
        stdout(&concise)
    );
    assert!(
        !stdout(&concise).contains("excused"),
        "{}",
        stdout(&concise)
    );
    // The results cache does not hide what the switch shows.
    let cached = run(dir.path(), &["check", "--format", "json"], &[]);
    assert_eq!(codes(&cached), 1);
    let cached = run(
        dir.path(),
        &["check", "--format", "json", "--no-suppressions"],
        &[],
    );
    assert_eq!(codes(&cached), 3);
}

/// full, concise and github say how many findings were excused; SARIF
/// lists them, in the source or outside it.
#[test]
fn every_format_says_how_many_findings_were_excused() {
    let dir = excused_db();
    let full = run(dir.path(), &["--no-cache", "check"], &[]);
    assert!(
        stdout(&full).ends_with(
            "Found 1 finding (1 error) in 1 file; 2 excused by suppressions (`--no-suppressions` shows them).\n"
        ),
        "{}",
        stdout(&full)
    );
    let concise = run(
        dir.path(),
        &["--no-cache", "check", "--format", "concise"],
        &[],
    );
    assert_eq!(
        stdout(&concise),
        "a.example.org.yaml:7:15: error invalid-content-type `text/nope/b` is not a media type: `/` is not allowed in the media type (parameters follow a `;`)\n\
         2 findings excused by suppressions (`--no-suppressions` shows them).\n"
    );
    let github = stdout(&run(
        dir.path(),
        &["--no-cache", "check", "--format", "github"],
        &[],
    ));
    let notices: Vec<&str> = github
        .lines()
        .filter(|l| l.starts_with("::notice"))
        .collect();
    assert_eq!(
        notices,
        [
            "::notice title=urldb::2 findings excused by suppressions (`--no-suppressions` shows them)."
        ]
    );
    let sarif = run(
        dir.path(),
        &["--no-cache", "check", "--format", "sarif"],
        &[],
    );
    let log: serde_json::Value = serde_json::from_slice(&sarif.stdout).expect("SARIF");
    let kinds: Vec<String> = log["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            r["suppressions"][0]["kind"]
                .as_str()
                .unwrap_or("-")
                .to_string()
        })
        .collect();
    let mut sorted = kinds.clone();
    sorted.sort();
    assert_eq!(sorted, ["-", "external", "inSource"], "{kinds:?}");
    // Nothing excused, nothing said.
    let quiet = run(
        dir.path(),
        &[
            "--no-cache",
            "check",
            "--format",
            "github",
            "--no-suppressions",
        ],
        &[],
    );
    assert!(!stdout(&quiet).contains("::notice"), "{}", stdout(&quiet));
    let all_passed = db(&[(
        "example.org.yaml",
        b"---\n---\n_path: /a\ncontent-type: text/nope/a # urldb: ignore[invalid-content-type]\n",
    )]);
    let full = run(all_passed.path(), &["--no-cache", "check"], &[]);
    assert_eq!(full.status.code(), Some(0));
    assert_eq!(
        stdout(&full),
        "All checks passed; 1 finding excused by suppressions (`--no-suppressions` shows it).\n"
    );
}

// ---------------------------------------------------------------------
// Tabs, judged against PyYAML.

/// A domain file both PyYAML and urldb read, with every construct a tab
/// can meet: block and flow collections, plain, quoted and block scalars
/// (quoted ones continued on a second line), comments.
const TAB_BASE: &str = "---\n\
cnames:\n\
- www.example.org\n\
---\n\
_path: /a\n\
categories:\n\
- x\n\
content-type: text/html\n\
flow: [a, b]\n\
map: {k: v}\n\
nested:\n  \
  key: value\n  \
  list:\n  \
  - item\n\
note: \"a long\n  value\"\n\
other: 'single\n  quoted'\n\
plain: a b c\n\
text: |\n  \
  line one\n  \
  line two\n\
# a comment\n\
---\n\
_path: /b\n\
content-type: text/html # trailing comment\n";

/// Tabs put into [`TAB_BASE`]: at a byte offset (before that byte), or
/// in place of the space there.
fn with_tabs(places: &[(usize, bool)]) -> Vec<u8> {
    let mut bytes = TAB_BASE.as_bytes().to_vec();
    let mut at: Vec<(usize, bool)> = places.to_vec();
    at.sort();
    // From the end, so earlier offsets still hold.
    for &(offset, replace) in at.iter().rev() {
        let offset = offset % (bytes.len() + 1);
        if replace && bytes.get(offset) == Some(&b' ') {
            bytes[offset] = b'\t';
        } else {
            bytes.insert(offset, b'\t');
        }
    }
    bytes
}

proptest! {
    #![proptest_config(crate::support::property_config(12))]

    /// Wherever tabs go, `check` reports `yaml-syntax` exactly when
    /// PyYAML refuses the file; and when every such finding is a tab in a
    /// file that parsed, `fmt` writes a file PyYAML loads.
    #[test]
    fn tab_placements_agree_with_pyyaml(
        files in prop::collection::vec(
            prop::collection::vec((0usize..2000, any::<bool>()), 1..3),
            16,
        ),
    ) {
        let texts: Vec<Vec<u8>> = files.iter().map(|p| with_tabs(p)).collect();
        let dir = db(&[]);
        for (i, text) in texts.iter().enumerate() {
            std::fs::write(dir.path().join(format!("t{i}.example.org.yaml")), text).expect("write");
        }
        let refused = pyyaml_refuses(&texts);
        let out = run(dir.path(), &["--no-cache", "check", "--format", "json"], &[]);
        let findings: Vec<serde_json::Value> =
            serde_json::from_slice(&out.stdout).expect("check's JSON");
        for (i, text) in texts.iter().enumerate() {
            let name = format!("t{i}.example.org.yaml");
            let syntax: Vec<&serde_json::Value> = findings
                .iter()
                .filter(|f| f["path"] == name.as_str() && f["code"] == "yaml-syntax")
                .collect();
            prop_assert_eq!(
                !syntax.is_empty(),
                refused[i],
                "PyYAML refuses: {}; check: {:?}\n{}",
                refused[i],
                syntax,
                String::from_utf8_lossy(text)
            );
        }
        // The tabs `fmt` may rewrite: what it writes, PyYAML loads.
        let fmt = run(dir.path(), &["--no-cache", "fmt"], &[]);
        prop_assert!(matches!(fmt.status.code(), Some(0 | 1)), "{}", stderr(&fmt));
        let after: Vec<Vec<u8>> = (0..texts.len())
            .map(|i| std::fs::read(dir.path().join(format!("t{i}.example.org.yaml"))).expect("read"))
            .collect();
        let refused_after = pyyaml_refuses(&after);
        for i in 0..texts.len() {
            if after[i] != texts[i] {
                prop_assert!(
                    !refused_after[i],
                    "fmt wrote what PyYAML refuses:\n{}",
                    String::from_utf8_lossy(&after[i])
                );
            }
        }
    }
}

/// The report's two tab cases, through the binary: before a comment and
/// in indentation PyYAML refuses (a gate finding, whatever `[lint]` says),
/// and a double-quoted value continued with a tab PyYAML loads (no
/// `yaml-syntax`).
#[test]
fn tabs_pyyaml_refuses_fail_check_and_one_it_reads_does_not() {
    let before_comment =
        b"---\n---\n_path: /a\t# the home page\ncontent-type: text/html\n".to_vec();
    let indented =
        b"---\n---\n_path: /a\ncontent-type: text/html\nnested:\n\tkey: value\n".to_vec();
    let continued =
        b"---\n---\n_path: /a\ncontent-type: text/html\nnote: \"a long\n\tvalue\"\n".to_vec();
    let verdicts = pyyaml_refuses(&[before_comment.clone(), indented.clone(), continued.clone()]);
    assert_eq!(verdicts, [true, true, false]);
    for text in [&before_comment, &indented] {
        let dir = db(&[("example.org.yaml", text)]);
        std::fs::write(
            dir.path().join("urldb.toml"),
            "[lint]\nignore = [\"not-canonical\", \"yaml-syntax\"]\n",
        )
        .expect("write");
        let out = run(
            dir.path(),
            &["--no-cache", "check", "--format", "concise"],
            &[],
        );
        assert_eq!(
            out.status.code(),
            Some(1),
            "{}",
            String::from_utf8_lossy(text)
        );
        assert!(
            stdout(&out).contains("error yaml-syntax"),
            "{}",
            stdout(&out)
        );
    }
    let out = run(
        db(&[("example.org.yaml", &before_comment)]).path(),
        &["--no-cache", "check", "--format", "concise"],
        &[],
    );
    assert!(
        stdout(&out)
            .contains("example.org.yaml:3:10: error yaml-syntax [*] PyYAML refuses a tab here"),
        "{}",
        stdout(&out)
    );
    // `fmt` writes spaces for a tab in a file that parsed.
    let dir = db(&[("example.org.yaml", &before_comment)]);
    assert_eq!(
        run(dir.path(), &["--no-cache", "fmt"], &[]).status.code(),
        Some(0)
    );
    assert_eq!(
        run(dir.path(), &["--no-cache", "check"], &[]).status.code(),
        Some(0)
    );
    let dir = db(&[("example.org.yaml", &continued)]);
    let out = run(
        dir.path(),
        &["--no-cache", "check", "--format", "json"],
        &[],
    );
    let codes: Vec<String> = json_findings(&out).into_iter().map(|(_, c, _)| c).collect();
    assert!(!codes.contains(&"yaml-syntax".to_string()), "{codes:?}");
}

// ---------------------------------------------------------------------
// The property: nothing in the data lowers the gate.

/// A record of a domain file that PyYAML or a later urldb command refuses,
/// one line at a time (a line may be decorated with a comment).
fn refused_record() -> impl Strategy<Value = (String, Vec<String>)> {
    let paths = prop::sample::select(vec![
        "_path: .attacker.example/x",
        "_path: '@attacker.example/x'",
        "_path: :8443/admin",
        "_path: //evil.example/x",
        "_path: /a#top",
        "_path: /a/../b",
        "_path: /a b",
        "_path: /%zz",
        "_path: [/a]",
        "_path:",
    ]);
    let path_case = paths.prop_map(|p| {
        (
            "example.org".to_string(),
            vec![p.to_string(), "content-type: text/html".to_string()],
        )
    });
    let values = prop::sample::select(vec![
        "content-type: [text/html]",
        "content-length: -1",
        "content-length: 0x1F",
        "content-sha256: abc",
        "note: =",
        "note: <<",
        "note: 2001-02-30",
        "note: !custom x",
        "note: &a x",
        "note: *a",
        "note: 'unclosed",
        "  note: x",
        "_path: /again",
        "? [a]\n: b",
        "note: a\tb",
        "note:\tb",
    ]);
    let value_case = values.prop_map(|v| {
        (
            "example.org".to_string(),
            vec![
                "_path: /a".to_string(),
                "content-type: text/html".to_string(),
                v.to_string(),
            ],
        )
    });
    let missing = prop::sample::select(vec!["_path: /a", "content-type: text/html"])
        .prop_map(|l| ("example.org".to_string(), vec![l.to_string()]));
    let hosts = prop::sample::select(vec![
        "my_site.example",
        "0x7f.1",
        "2130706433",
        "a..example",
        "-a.example",
        "xn--bcher-kva.b\u{fc}cher",
    ])
    .prop_map(|h| {
        (
            h.to_string(),
            vec![
                "_path: /a".to_string(),
                "content-type: text/html".to_string(),
            ],
        )
    });
    let long_label = Just((
        format!("{}.example", "a".repeat(64)),
        vec![
            "_path: /a".to_string(),
            "content-type: text/html".to_string(),
        ],
    ));
    prop_oneof![path_case, value_case, missing, hosts, long_label]
}

/// Some rule codes, gate codes among them now and then.
fn codes() -> impl Strategy<Value = Vec<String>> {
    let all: Vec<String> = rules::ALL.iter().map(|r| r.code.to_string()).collect();
    let gate: Vec<String> = gate_findings::ALWAYS
        .iter()
        .chain(gate_findings::SOME)
        .map(|(c, _)| c.to_string())
        .collect();
    (prop::sample::subsequence(all.clone(), 0..6), any::<bool>()).prop_map(
        move |(mut some, with_gate)| {
            if with_gate {
                some.extend(gate.iter().cloned());
            }
            some.sort();
            some.dedup();
            some
        },
    )
}

/// How a pull request could try to excuse it: comments, urldb.toml,
/// command-line selection.
#[derive(Debug, Clone)]
struct Excuses {
    file_directive: Option<Vec<String>>,
    line_directives: bool,
    record_directive: Option<Vec<String>>,
    codes_on_lines: Vec<String>,
    lint_select: Option<Vec<String>>,
    lint_ignore: Vec<String>,
    severity_warning: Vec<String>,
    per_file: Option<Vec<String>>,
    per_file_all: bool,
    cli_ignore: Vec<String>,
    cli_select: Option<Vec<String>>,
}

fn excuses() -> impl Strategy<Value = Excuses> {
    (
        (
            prop::option::of(codes()),
            any::<bool>(),
            prop::option::of(codes()),
            codes(),
            prop::option::of(codes()),
        ),
        (
            codes(),
            codes(),
            prop::option::of(codes()),
            any::<bool>(),
            codes(),
            prop::option::of(codes()),
        ),
    )
        .prop_map(
            |(
                (file_directive, line_directives, record_directive, codes_on_lines, lint_select),
                (lint_ignore, severity_warning, per_file, per_file_all, cli_ignore, cli_select),
            )| Excuses {
                file_directive,
                line_directives,
                record_directive,
                codes_on_lines,
                lint_select,
                lint_ignore,
                severity_warning,
                per_file,
                per_file_all,
                cli_ignore,
                cli_select,
            },
        )
}

fn toml_list(codes: &[String]) -> String {
    let quoted: Vec<String> = codes.iter().map(|c| format!("\"{c}\"")).collect();
    format!("[{}]", quoted.join(", "))
}

/// The domain file, decorated.
fn decorated(lines: &[String], e: &Excuses) -> String {
    let mut text = String::new();
    if let Some(codes) = &e.file_directive
        && !codes.is_empty()
    {
        text.push_str(&format!("# urldb: ignore-file[{}]\n", codes.join(", ")));
    }
    text.push_str("---\n");
    if let Some(codes) = &e.record_directive
        && !codes.is_empty()
    {
        text.push_str(&format!("# urldb: ignore[{}]\n", codes.join(", ")));
    }
    text.push_str("---\n");
    for line in lines {
        text.push_str(line);
        if e.line_directives && !e.codes_on_lines.is_empty() {
            text.push_str(&format!(
                " # urldb: ignore[{}]",
                e.codes_on_lines.join(", ")
            ));
        }
        text.push('\n');
    }
    text
}

fn config(e: &Excuses) -> String {
    let mut text = String::from("[lint]\n");
    if let Some(select) = &e.lint_select {
        text.push_str(&format!("select = {}\n", toml_list(select)));
    }
    text.push_str(&format!("ignore = {}\n", toml_list(&e.lint_ignore)));
    let severity: Vec<String> = e
        .severity_warning
        .iter()
        .map(|c| format!("{c} = \"warning\""))
        .collect();
    text.push_str(&format!("severity = {{ {} }}\n", severity.join(", ")));
    text.push_str("[lint.per-file-ignores]\n");
    if let Some(codes) = &e.per_file {
        text.push_str(&format!("\"*.yaml\" = {}\n", toml_list(codes)));
    }
    if e.per_file_all {
        text.push_str("\"**\" = [\"ALL\"]\n");
    }
    text
}

/// Whether PyYAML, `ls`/`export` (`urldb_store::listing`) or `verify`'s
/// planning (`urldb_verify::plan`) refuses the file.
fn refused_later(dir: &Path, file: &Path, text: &[u8]) -> bool {
    if pyyaml_refuses(&[text.to_vec()])[0] {
        return true;
    }
    let root = urldb_store::Root::new(dir).expect("root");
    let files = [file.to_path_buf()];
    let collected =
        urldb_store::collect_records(&root, &files, &urldb_store::Filter::default(), u64::MAX);
    if !collected.errors.is_empty() {
        return true;
    }
    let plan = urldb_verify::plan::plan(
        &root,
        &files,
        &urldb_verify::plan::PlanOptions {
            cnames: true,
            ..Default::default()
        },
        u64::MAX,
    );
    !plan.problems.is_empty() || plan.checks.iter().any(|c| c.not_checked.is_some())
}

proptest! {
    #![proptest_config(crate::support::property_config(24))]

    /// For a file PyYAML, `ls`, `export` or `verify`'s planning refuses,
    /// no combination of suppression comments, per-file ignores, `[lint]`
    /// selection and severity, `--select` and `--ignore` makes `check`
    /// pass: it reports an error in that file; and `--add-suppressions`
    /// does not make it pass either.
    #[test]
    fn nothing_in_the_data_lowers_the_gate(
        (host, lines) in refused_record(),
        e in excuses(),
    ) {
        let text = decorated(&lines, &e);
        let dir = tempfile::tempdir().expect("tempdir");
        let name = format!("{host}.yaml");
        let file: PathBuf = dir.path().join(&name);
        std::fs::write(&file, &text).expect("write");
        std::fs::write(dir.path().join("urldb.toml"), config(&e)).expect("write");
        prop_assume!(refused_later(dir.path(), &file, text.as_bytes()));

        let mut args: Vec<String> = ["--no-cache", "check", "--format", "json"]
            .iter().map(|s| s.to_string()).collect();
        if !e.cli_ignore.is_empty() {
            args.push("--ignore".into());
            args.push(e.cli_ignore.join(","));
        }
        if let Some(select) = &e.cli_select && !select.is_empty() {
            args.push("--select".into());
            args.push(select.join(","));
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run(dir.path(), &args, &[]);
        prop_assert_eq!(out.status.code(), Some(1), "{}\n{}\n{}", text, config(&e), stderr(&out));
        let errors: Vec<(String, String, String)> = json_findings(&out)
            .into_iter()
            .filter(|(path, _, severity)| *path == name && severity == "error")
            .collect();
        prop_assert!(!errors.is_empty(), "no error in {}:\n{}\n{}", name, text, config(&e));

        let add = run(dir.path(), &["--no-cache", "check", "--add-suppressions"], &[]);
        prop_assert!(matches!(add.status.code(), Some(1 | 2)), "{}", stderr(&add));
        let again = run(dir.path(), &["--no-cache", "check"], &[]);
        prop_assert_eq!(again.status.code(), Some(1), "after --add-suppressions:\n{}",
            String::from_utf8_lossy(&std::fs::read(&file).expect("read")));
    }
}

/// docs/suppressions.md lists the gate as the code does: each rule of
/// `gate_findings::ALWAYS` in its first table, of `SOME` in its second,
/// and no other.
#[test]
fn the_documented_gate_is_the_code_s() {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/suppressions.md"))
            .expect("read");
    let section = doc
        .split("## Gate findings")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("a Gate findings section");
    let tables: Vec<Vec<&str>> = section
        .split("\n\n")
        .filter(|block| block.trim_start().starts_with("| rule |"))
        .map(|table| {
            table
                .lines()
                .skip(2)
                .filter_map(|row| row.strip_prefix("| `")?.split('`').next())
                .collect()
        })
        .collect();
    fn codes(list: &[(&'static str, &'static str)]) -> Vec<&'static str> {
        list.iter().map(|(c, _)| *c).collect()
    }
    assert_eq!(tables.len(), 2, "{section}");
    assert_eq!(tables[0], codes(gate_findings::ALWAYS));
    assert_eq!(tables[1], codes(gate_findings::SOME));
}
