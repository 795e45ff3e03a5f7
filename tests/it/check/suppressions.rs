//! Suppression comments and per-file ignores, through the binary: each
//! form (line, record, file, per-file glob), `unused-suppression` and its
//! fix, suppressions moving with their record when `fmt` sorts, SARIF's
//! `suppressions`, the results cache, and `check --add-suppressions`.

use crate::support;

use std::path::Path;
use std::process::{Output, Stdio};

/// Run urldb in `dir` with its own results cache (beside the database).
fn run(dir: &Path, args: &[&str]) -> Output {
    support::urldb()
        .current_dir(dir)
        .args(args)
        .env_remove("URLDB_FORMAT")
        .env("NO_COLOR", "1")
        .env("XDG_CACHE_HOME", dir.join(".cache"))
        .stdin(Stdio::null())
        .output()
        .expect("run urldb")
}

/// The `path:line:col: severity code` of each finding, from `--format
/// concise` (not its last line, which counts the excused findings).
fn findings(dir: &Path, extra: &[&str]) -> (Vec<String>, Option<i32>) {
    let mut args = vec!["check", "--format", "concise"];
    args.extend(extra);
    let out = run(dir, &args);
    let lines = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.contains(" excused by suppressions "))
        .map(|l| l.split(' ').take(3).collect::<Vec<_>>().join(" "))
        .collect();
    (lines, out.status.code())
}

fn db(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
    dir
}

/// Two records with a content type that is no media type (no fix).
const TWO_BAD: &str =
    "---\n---\n_path: /a\ncontent-type: text/nope/x\n---\n_path: /b\ncontent-type: text/nope/y\n";

#[test]
fn a_comment_ending_a_line_excuses_that_line() {
    let dir = db(&[("example.com.yaml", TWO_BAD)]);
    let (before, _) = findings(dir.path(), &[]);
    assert_eq!(
        before,
        [
            "example.com.yaml:4:15: error invalid-content-type",
            "example.com.yaml:7:15: error invalid-content-type"
        ]
    );
    let text = TWO_BAD.replace(
        "text/nope/x\n",
        "text/nope/x # urldb: ignore[invalid-content-type]\n",
    );
    std::fs::write(dir.path().join("example.com.yaml"), text).expect("write");
    let (after, status) = findings(dir.path(), &[]);
    assert_eq!(after, ["example.com.yaml:7:15: error invalid-content-type"]);
    assert_eq!(status, Some(1));
}

#[test]
fn a_comment_alone_before_a_record_excuses_the_record_and_moves_with_it() {
    // Unsorted: `fmt` puts /b before /z, and the directive must follow /z.
    let text = "---\n# urldb: ignore[invalid-content-type, missing-content-type]\n---\n_path: /z\ncontent-type: text/nope/x\n---\n_path: /b\ncontent-type: text/html\n";
    let dir = db(&[("example.com.yaml", text)]);
    let (before, _) = findings(dir.path(), &[]);
    assert!(
        !before.iter().any(|l| l.contains("invalid-content-type")),
        "{before:?}"
    );
    let fmt = run(dir.path(), &["fmt"]);
    assert_eq!(fmt.status.code(), Some(0));
    let sorted = std::fs::read_to_string(dir.path().join("example.com.yaml")).expect("read");
    assert_eq!(
        sorted,
        "---\n---\n_path: /b\ncontent-type: text/html\n# urldb: ignore[invalid-content-type, missing-content-type]\n---\n_path: /z\ncontent-type: text/nope/x\n"
    );
    // Still excused, and `missing-content-type` is reported: a gate
    // finding, which no suppression excuses.
    let (after, status) = findings(dir.path(), &[]);
    assert_eq!(after, ["example.com.yaml:5:1: warning unused-suppression"]);
    assert_eq!(status, Some(1));
}

#[test]
fn ignore_file_excuses_the_whole_file() {
    let text = format!("# urldb: ignore-file[invalid-content-type]\n{TWO_BAD}");
    let dir = db(&[("example.com.yaml", &text), ("example.org.yaml", TWO_BAD)]);
    let (found, status) = findings(dir.path(), &[]);
    assert_eq!(
        found,
        [
            "example.org.yaml:4:15: error invalid-content-type",
            "example.org.yaml:7:15: error invalid-content-type"
        ]
    );
    assert_eq!(status, Some(1));
}

#[test]
fn per_file_ignores_turn_rules_off_by_glob_relative_to_the_root() {
    let dir = db(&[
        (
            "urldb.toml",
            "root = \"db\"\n[lint.per-file-ignores]\n\"legacy/**\" = [\"invalid-content-type\"]\n",
        ),
        ("db/legacy/example.com.yaml", TWO_BAD),
        ("db/example.org.yaml", TWO_BAD),
    ]);
    let (found, status) = findings(dir.path(), &[]);
    assert_eq!(
        found,
        [
            "db/example.org.yaml:4:15: error invalid-content-type",
            "db/example.org.yaml:7:15: error invalid-content-type"
        ]
    );
    assert_eq!(status, Some(1));
    // A code no rule has is a configuration error with a suggestion.
    std::fs::write(
        dir.path().join("urldb.toml"),
        "[lint.per-file-ignores]\n\"*.yaml\" = [\"invalid-content-typo\"]\n",
    )
    .expect("write");
    let out = run(dir.path(), &["check"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unknown rule code `invalid-content-typo`") && err.contains("did you mean"),
        "{err}"
    );
}

#[test]
fn unused_suppressions_are_found_and_fixed() {
    let text = "---\n---\n_path: /a # note # urldb: ignore[path-case, invalid-content-type]\ncontent-type: text/nope/x # urldb: ignore[invalid-content-type, yaml-tag]\n";
    let dir = db(&[("example.com.yaml", text)]);
    let out = run(dir.path(), &["check", "--format", "concise"]);
    let report = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1));
    assert!(report.contains("example.com.yaml:3:11: warning unused-suppression [*] unused suppression: `path-case` (nothing to excuse), `invalid-content-type` (nothing to excuse)"), "{report}");
    assert!(report.contains("example.com.yaml:4:27: warning unused-suppression [*] `yaml-tag` cannot be suppressed: it is a gate finding"), "{report}");
    let fix = run(dir.path(), &["check", "--fix"]);
    assert_eq!(
        fix.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&fix.stdout)
    );
    let fixed = std::fs::read_to_string(dir.path().join("example.com.yaml")).expect("read");
    assert_eq!(
        fixed,
        "---\n---\n_path: /a # note\ncontent-type: text/nope/x # urldb: ignore[invalid-content-type]\n"
    );
}

#[test]
fn an_unknown_code_in_a_suppression_says_the_nearest_one() {
    let text =
        "---\n---\n_path: /a\ncontent-type: text/nope/x # urldb: ignore[invalid-content-typo]\n";
    let dir = db(&[("example.com.yaml", text)]);
    let out = run(dir.path(), &["check", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let codes: Vec<&str> = json
        .as_array()
        .expect("array")
        .iter()
        .map(|f| f["code"].as_str().expect("code"))
        .collect();
    assert_eq!(codes, ["invalid-content-type", "unused-suppression"]);
    let unknown = &json[1];
    assert_eq!(unknown["help"], "did you mean `invalid-content-type`?");
    assert_eq!(unknown["fixable"], false);
}

#[test]
fn yaml_comment_does_not_report_suppression_comments() {
    let text = "---\n---\n# a note\n_path: /a\ncontent-type: text/nope/x # urldb: ignore[invalid-content-type]\n";
    let dir = db(&[("example.com.yaml", text)]);
    let (found, _) = findings(dir.path(), &["--extend-select", "yaml-comment"]);
    assert_eq!(found, ["example.com.yaml:3:1: error yaml-comment"]);
}

#[test]
fn sarif_shows_suppressed_findings_as_suppressed_also_from_the_cache() {
    let text = TWO_BAD.replace(
        "text/nope/x\n",
        "text/nope/x # urldb: ignore[invalid-content-type]\n",
    );
    let dir = db(&[("example.com.yaml", &text)]);
    for round in 0..2 {
        // The second run may use the cache: it must say the same.
        let out = run(dir.path(), &["check", "--format", "sarif"]);
        assert_eq!(out.status.code(), Some(1));
        let log: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        let results = log["runs"][0]["results"].as_array().expect("results");
        assert_eq!(results.len(), 2, "round {round}");
        let line = |r: &serde_json::Value| {
            r["locations"][0]["physicalLocation"]["region"]["startLine"].clone()
        };
        assert_eq!(line(&results[0]), 4);
        assert_eq!(results[0]["suppressions"][0]["kind"], "inSource");
        assert_eq!(line(&results[1]), 7);
        assert!(results[1].get("suppressions").is_none());
        // Other formats do not show it, and count it.
        let (found, _) = findings(dir.path(), &[]);
        assert_eq!(found, ["example.com.yaml:7:15: error invalid-content-type"]);
        let concise = run(dir.path(), &["check", "--format", "concise"]);
        assert!(
            String::from_utf8_lossy(&concise.stdout)
                .ends_with("\n1 finding excused by suppressions (`--no-suppressions` shows it).\n"),
            "{}",
            String::from_utf8_lossy(&concise.stdout)
        );
    }
}

#[test]
fn add_suppressions_then_check_passes_and_fmt_keeps_them() {
    // (A cname of another file, `cname-conflict`, is a gate finding:
    // `gate::add_suppressions_writes_nothing_for_a_gate_finding`.)
    let metadata = "---\ncnames: [shop.example.com]\n";
    let records = "---\n_path: /z\ncontent-type: text/nope/z\n---\n_path: /a\ncontent-type: text/nope/x\n---\n_path: /m\ncontent-type: text/html\n";
    let dir = db(&[
        ("example.com.yaml", &format!("{metadata}{records}")),
        (
            "b.example.com.yaml",
            "---\n---\n_path: /q\ncontent-type: text/html\n",
        ),
    ]);
    let (before, status) = findings(dir.path(), &[]);
    assert_eq!(status, Some(1));
    assert!(before.len() >= 4, "{before:?}");
    let add = run(dir.path(), &["check", "--add-suppressions"]);
    let err = String::from_utf8_lossy(&add.stderr);
    assert!(err.contains("Added suppressions for"), "{err}");
    // The fixable findings (unsorted records) are left to `--fix`.
    let (left, _) = findings(dir.path(), &[]);
    assert!(
        left.iter()
            .all(|l| l.contains("unsorted-records") || l.contains("not-canonical")),
        "{left:?}"
    );
    let fix = run(dir.path(), &["check", "--fix"]);
    assert_eq!(
        fix.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&fix.stdout)
    );
    let check = run(dir.path(), &["check"]);
    assert_eq!(
        check.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    let written = std::fs::read_to_string(dir.path().join("example.com.yaml")).expect("read");
    assert_eq!(
        written,
        "---\ncnames:\n- shop.example.com\n# urldb: ignore[invalid-content-type]\n---\n_path: /a\ncontent-type: text/nope/x\n---\n_path: /m\ncontent-type: text/html\n# urldb: ignore[invalid-content-type]\n---\n_path: /z\ncontent-type: text/nope/z\n"
    );
    // `fmt` leaves them where they are.
    let fmt = run(
        dir.path(),
        &["fmt", "--check", "example.com.yaml", "b.example.com.yaml"],
    );
    assert_eq!(fmt.status.code(), Some(0));
}
