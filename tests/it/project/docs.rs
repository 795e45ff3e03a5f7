//! Generated documentation stays in step with the code.

use std::path::Path;

#[test]
fn rules_md_is_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules.md");
    let want = urldb_core::rules::docs::catalogue_markdown();
    if std::env::var_os("URLDB_UPDATE_DOCS").is_some() {
        std::fs::write(&path, &want).expect("write docs/rules.md");
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/rules.md is stale: run `URLDB_UPDATE_DOCS=1 cargo test rules_md_is_current` and commit it"
    );
    // The other pages' lists of rules (the gate, the rules that keep a
    // record from being requested) are read from the catalogue too, in
    // their generated regions.
    for (page, regions) in [
        ("docs/suppressions.md", &["gate-always", "gate-some"][..]),
        ("docs/security.md", &["blocking-rules"][..]),
        ("docs/verify.md", &["blocking-rules-or"][..]),
        ("docs/urls.md", &["blocking-rules", "blocking-rules"][..]),
    ] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(page);
        let have = std::fs::read_to_string(&path).expect("read");
        let (want, found) = urldb_core::rules::docs::fill_generated_lists(&have);
        assert_eq!(found, regions, "{page}: its generated regions");
        if std::env::var_os("URLDB_UPDATE_DOCS").is_some() {
            std::fs::write(&path, &want).expect("write");
            continue;
        }
        assert!(
            have == want,
            "{page} is stale: run `URLDB_UPDATE_DOCS=1 cargo test rules_md_is_current` and commit it"
        );
    }
}

/// A test function of the workspace and the modules it is in: for
/// `tests/it/hostile/io.rs` `["hostile", "io"]`, for a unit test in
/// `crates/urldb-store/src/read.rs` `["store", "read", "tests"]` (the
/// crate's short name first), for `src/` `["urldb", ...]`.
#[derive(Debug)]
struct TestFn {
    modules: Vec<String>,
    name: String,
}

/// Every `#[test]` function under `dir`, whose files' module paths start
/// with `prefix`.
fn test_fns(dir: &Path, prefix: &[String], out: &mut Vec<TestFn>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("read_dir")
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for path in entries {
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        if path.is_dir() {
            test_fns(&path, &[prefix, &[stem]].concat(), out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let mut modules = prefix.to_vec();
            if !matches!(stem.as_str(), "mod" | "lib" | "main") {
                modules.push(stem);
            }
            let text = std::fs::read_to_string(&path).expect("read");
            tests_in(&text, &modules, out);
        }
    }
}

/// The `#[test]` functions of one file, in the modules it declares inline
/// (`mod tests {`, closed by a `}` at its indentation: rustfmt's layout).
fn tests_in(text: &str, file_modules: &[String], out: &mut Vec<TestFn>) {
    let lines: Vec<&str> = text.lines().collect();
    let mut inline: Vec<(usize, String)> = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if trimmed == "}" && inline.last().is_some_and(|(i, _)| *i == indent) {
            inline.pop();
            continue;
        }
        let declared = trimmed
            .trim_start_matches("pub(crate) ")
            .trim_start_matches("pub ")
            .strip_prefix("mod ")
            .and_then(|rest| rest.strip_suffix(" {"));
        if let Some(name) = declared {
            inline.push((indent, name.to_string()));
            continue;
        }
        let Some(name) = trimmed
            .trim_start_matches("async ")
            .strip_prefix("fn ")
            .and_then(|rest| rest.split('(').next())
        else {
            continue;
        };
        // The attributes and comments above it, back to the item before.
        let is_test = lines[..at]
            .iter()
            .rev()
            .map(|l| l.trim())
            .take_while(|l| !l.is_empty() && !l.ends_with(['}', ';', '{']))
            .any(|l| l == "#[test]" || l.starts_with("#[tokio::test"));
        if is_test {
            out.push(TestFn {
                modules: [
                    file_modules,
                    &inline.iter().map(|(_, m)| m.clone()).collect::<Vec<_>>(),
                ]
                .concat(),
                name: name.to_string(),
            });
        }
    }
}

/// Every test function of the workspace: `tests/`, each crate's `src/`,
/// the binary's `src/`.
fn all_tests(root: &Path) -> Vec<TestFn> {
    let mut all = Vec::new();
    test_fns(&root.join("tests/it"), &[], &mut all);
    for entry in std::fs::read_dir(root.join("crates"))
        .expect("read_dir")
        .flatten()
    {
        let name = entry.file_name().to_string_lossy().into_owned();
        let short = name.strip_prefix("urldb-").unwrap_or(&name).to_string();
        test_fns(&entry.path().join("src"), &[short], &mut all);
    }
    test_fns(&root.join("src"), &["urldb".to_string()], &mut all);
    all
}

/// `modules` holds `want` as consecutive modules, ending at its end when
/// `at_end`.
fn holds(modules: &[String], want: &[&str], at_end: bool) -> bool {
    if want.len() > modules.len() {
        return false;
    }
    let same = |start: usize| {
        modules[start..start + want.len()]
            .iter()
            .zip(want)
            .all(|(m, w)| m == w)
    };
    if at_end {
        same(modules.len() - want.len())
    } else {
        (0..=modules.len() - want.len()).any(same)
    }
}

/// The tests `docs/security.md` names (`module::test_name`, a module path
/// as short as it is unambiguous, or `module::*` for every test of a
/// module), as opposed to the items it names (`urldb_core::…`, `std::…`).
fn named_tests(doc: &str) -> Vec<&str> {
    doc.split('`')
        .skip(1)
        .step_by(2)
        .filter(|span| {
            span.contains("::")
                && !span.starts_with("urldb_")
                && !span.starts_with("std::")
                && span.split("::").all(|part| {
                    part == "*"
                        || (!part.is_empty()
                            && part
                                .bytes()
                                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'))
                })
        })
        .collect()
}

/// docs/security.md points each promise at its test: `io::a_fifo_…` is a
/// `#[test]` function named so in a module whose path ends with `io`
/// (`tests/it/hostile/io.rs`), not only a function of that name somewhere;
/// `gate::*` names at least one test in a module `gate`. A renamed,
/// moved or deleted test cannot leave a promise pointing at nothing, nor
/// at the wrong place.
#[test]
fn tests_named_in_security_md_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/security.md")).expect("read");
    let tests = all_tests(root);
    assert!(tests.len() > 500, "{} tests found", tests.len());
    let named = named_tests(&doc);
    assert!(named.len() > 20, "{named:?}");
    assert!(named.iter().any(|n| n.ends_with("::*")), "{named:?}");
    let missing: Vec<&&str> = named
        .iter()
        .filter(|reference| {
            let parts: Vec<&str> = reference.split("::").collect();
            let (name, modules) = parts.split_last().expect("a part");
            if *name == "*" {
                !tests.iter().any(|t| holds(&t.modules, modules, false))
            } else {
                !tests
                    .iter()
                    .any(|t| t.name == *name && holds(&t.modules, modules, true))
            }
        })
        .collect();
    assert!(
        missing.is_empty(),
        "docs/security.md names tests that are not in the module it says: {missing:?}"
    );
}

/// The check above tells a test in its module from one elsewhere, and a
/// wildcard that matches nothing from one that matches.
#[test]
fn the_security_md_check_sees_module_paths() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tests = all_tests(root);
    let found = |reference: &str| {
        let parts: Vec<&str> = reference.split("::").collect();
        let (name, modules) = parts.split_last().expect("a part");
        tests.iter().any(|t| {
            if *name == "*" {
                holds(&t.modules, modules, false)
            } else {
                t.name == *name && holds(&t.modules, modules, true)
            }
        })
    };
    for there in [
        "io::a_fifo_is_refused_without_waiting",
        "hostile::io::a_fifo_is_refused_without_waiting",
        "read::tests::refuses_a_fifo_without_waiting",
        "store::read::tests::refuses_a_fifo_without_waiting",
        "verify::plan::tests::urls_are_built_from_their_parts",
        "outcomes::without_allow_private_every_url_is_refused_and_no_connection_made",
        "gate::*",
        "urls::builder::*",
    ] {
        assert!(found(there), "{there}");
    }
    for not_there in [
        // The right name in the wrong module.
        "gate::a_fifo_is_refused_without_waiting",
        "verify::without_allow_private_every_url_is_refused_and_no_connection_made",
        "read::refuses_a_fifo_without_waiting",
        // A function that is no test.
        "source::shown_path",
        // A wildcard over no module's tests.
        "no_such_module::*",
        "urls::no_such_file::*",
    ] {
        assert!(!found(not_there), "{not_there}");
    }
    let spans =
        named_tests("`a::b` `urldb_core::x::y` `std::io::stdout` `gate::*` `A::b` `x::y()`");
    assert_eq!(spans, ["a::b", "gate::*"]);
}

/// docs/suppressions.md's examples, run in their order: each
/// `<!-- file: NAME -->` block is written, each `<!-- run: ARGS -->` block
/// is urldb's exact standard output for those arguments, and each
/// `<!-- file-now: NAME -->` block is the file's text at that point.
#[test]
fn suppressions_md_examples_run() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/suppressions.md")).expect("read");
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("urldb.toml"), "").expect("write");
    let mut steps = 0;
    let mut rest = doc.as_str();
    while let Some(at) = rest.find("<!-- ") {
        rest = &rest[at + 5..];
        let Some(end) = rest.find(" -->") else { break };
        let (what, arg) = rest[..end].split_once(": ").unwrap_or(("", ""));
        let after = &rest[end..];
        let Some(open) = after.find("```") else { break };
        let body_start = open + after[open..].find('\n').expect("fence line") + 1;
        let body_end = body_start + after[body_start..].find("```").expect("closing fence");
        let body = &after[body_start..body_end];
        match what {
            "file" => std::fs::write(dir.path().join(arg), body).expect("write"),
            "file-now" => {
                let now = std::fs::read_to_string(dir.path().join(arg)).expect("read");
                assert_eq!(now, body, "docs/suppressions.md: {arg} at this point");
            }
            "run" => {
                let args: Vec<&str> = arg.split(' ').collect();
                let out = crate::support::run_in(dir.path(), &args);
                assert_eq!(
                    String::from_utf8_lossy(&out.stdout),
                    body,
                    "docs/suppressions.md: urldb {arg}"
                );
            }
            _ => continue,
        }
        steps += 1;
    }
    assert_eq!(steps, 8, "every example of docs/suppressions.md ran");
}
