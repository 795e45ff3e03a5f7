//! Each crate's modules import only from the layers below them: no
//! import circle beyond a module and its own children
//! (`tools/import_cycles.py`, which prints any circle it finds). Between
//! crates, Cargo itself refuses a circle.

use crate::support::oracles;

#[test]
fn no_import_circle_between_modules() {
    let repo = oracles::repo();
    let mut sources = vec![repo.join("src")];
    for entry in std::fs::read_dir(repo.join("crates")).expect("crates/") {
        sources.push(entry.expect("crate").path().join("src"));
    }
    assert!(sources.len() >= 5, "{sources:?}");
    for src in sources {
        let out = std::process::Command::new(oracles::python())
            .arg(repo.join("tools/import_cycles.py"))
            .arg(&src)
            .output()
            .expect("run tools/import_cycles.py");
        let report = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{}: {report}", src.display());
        assert!(
            report.contains(" 0 circle(s)"),
            "{}: {report}",
            src.display()
        );
    }
}

/// The cycle tool reads a whole file: an import after a test module
/// counts, an import inside one does not.
#[test]
fn the_cycle_tool_sees_code_after_a_test_module() {
    let tool = |files: &[(&str, &str)]| {
        let dir = tempfile::tempdir().expect("tempdir");
        for (name, text) in files {
            std::fs::write(dir.path().join(name), text).expect("write");
        }
        let out = std::process::Command::new(oracles::python())
            .arg(oracles::repo().join("tools/import_cycles.py"))
            .arg(dir.path())
            .output()
            .expect("run tools/import_cycles.py");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let a = "use crate::b::Thing;\npub struct Other;\n";
    let after = "pub struct Thing;\n\n#[cfg(test)]\nmod tests {\n    fn f() { let _ = \"}\"; }\n}\n\nuse crate::a::Other;\n";
    let report = tool(&[("a.rs", a), ("b.rs", after)]);
    assert!(report.contains("circle of 2 modules: a, b"), "{report}");
    let inside = "pub struct Thing;\n\n#[cfg(test)]\nmod tests {\n    use crate::a::Other;\n}\n";
    let report = tool(&[("a.rs", a), ("b.rs", inside)]);
    assert!(report.contains(" 0 circle(s)"), "{report}");
}

/// Only the binary and the language server print: `urldb-core`,
/// `urldb-store` and `urldb-verify` hand back what they have to say
/// (findings, notes, errors) and write to no stream of their own
/// (`docs/dev/architecture.md`). Their code outside tests and comments
/// names no printing macro and opens neither standard stream.
#[test]
fn library_crates_print_nothing() {
    let repo = oracles::repo();
    let mut files = 0;
    let mut found = Vec::new();
    for krate in ["urldb-core", "urldb-store", "urldb-verify"] {
        for file in rust_files(&repo.join("crates").join(krate).join("src")) {
            let text = std::fs::read_to_string(&file).expect("read");
            files += 1;
            for (n, line) in non_test_code(&text).lines().enumerate() {
                if let Some(what) = printing(line) {
                    found.push(format!("{}:{}: {what}", file.display(), n + 1));
                }
            }
        }
    }
    assert!(files > 100, "only {files} files read");
    assert!(
        found.is_empty(),
        "library code that prints:\n{}",
        found.join("\n")
    );
}

/// `urldb-core` is text in, findings and canonical text out: its code
/// outside tests reads no environment variable, and `[verify]` is
/// `urldb-verify`'s (`crates/urldb-verify/src/config.rs`): core names the
/// table only so that the file's keys are checked whole, and knows the
/// categories of the format that `verify` reads (`skip-verify` among
/// them). Nor does it draw for the
/// terminal: miette is the binary's.
#[test]
fn core_reads_no_environment_and_owns_no_verify_table() {
    let repo = oracles::repo();
    let core = repo.join("crates/urldb-core");
    let mut files = 0;
    let mut found = Vec::new();
    for file in rust_files(&core.join("src")) {
        let text = std::fs::read_to_string(&file).expect("read");
        files += 1;
        for (n, line) in non_test_code(&text).lines().enumerate() {
            let at = || format!("{}:{}", file.display(), n + 1);
            for environment in ["env::var", "env::vars", "var_os(", "option_env!"] {
                if line.contains(environment) {
                    found.push(format!("{}: reads the environment ({environment})", at()));
                }
            }
            for word in line.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
                let named = word.to_ascii_lowercase().contains("verify");
                if named && !["_verify", "SKIP_VERIFY", "VERIFY_CATEGORIES"].contains(&word) {
                    found.push(format!("{}: `{word}` is verify's", at()));
                }
            }
        }
    }
    assert!(files > 50, "only {files} files read");
    let manifest = std::fs::read_to_string(core.join("Cargo.toml")).expect("Cargo.toml");
    for crate_name in ["miette", "ureq", "gix", "clap", "lsp-server"] {
        if manifest
            .lines()
            .any(|l| l.starts_with(&format!("{crate_name} ")))
        {
            found.push(format!(
                "crates/urldb-core/Cargo.toml: depends on {crate_name}"
            ));
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// Each library crate's public surface is a short list in its `lib.rs`:
/// at most a quarter of its modules are `pub mod` (the rest are reached
/// through `pub use`, or not at all), so that `unreachable_pub` and
/// `dead_code` speak (`docs/dev/architecture.md`, "Public surface").
/// Test modules do not count.
#[test]
fn at_most_a_quarter_of_each_library_crates_modules_are_public() {
    let repo = oracles::repo();
    let mut report = Vec::new();
    let mut over = Vec::new();
    for krate in [
        "urldb-core",
        "urldb-store",
        "urldb-verify",
        "urldb-server",
        "urldb-output",
    ] {
        let (mut public, mut all) = (0, 0);
        for file in rust_files(&repo.join("crates").join(krate).join("src")) {
            let text = std::fs::read_to_string(&file).expect("read");
            for line in non_test_code(&text).lines() {
                let line = line.trim_start();
                let declared = |prefix: &str| {
                    line.strip_prefix(prefix).is_some_and(|rest| {
                        rest.trim_end().ends_with(';') || rest.trim_end().ends_with('{')
                    })
                };
                if declared("pub mod ") {
                    public += 1;
                    all += 1;
                } else if declared("mod ")
                    || declared("pub(crate) mod ")
                    || declared("pub(super) mod ")
                {
                    all += 1;
                }
            }
        }
        report.push(format!("{krate}: {public} of {all} modules public"));
        assert!(all > 0, "{krate}: no module found");
        if public * 4 > all {
            over.push(format!("{krate}: {public} of {all}"));
        }
    }
    assert!(
        over.is_empty(),
        "more than a quarter public: {over:?}\n{}",
        report.join("\n")
    );
}

/// The two jobs of `urldb-core` are layers: the format (the model, the
/// parsers, the canonical text, URLs) imports nothing of the linter (the
/// rules, the engine, fixes, suppressions, selection, `urldb.toml`), so
/// that the format could be a crate of its own (`docs/dev/architecture.md`,
/// "Why core is one crate").
#[test]
fn the_format_layer_imports_nothing_of_the_linter() {
    const FORMAT: [&str; 7] = ["model", "parse", "render", "url", "source", "text", "diff"];
    const LINTER: [&str; 8] = [
        "config",
        "fix",
        "lint",
        "per_file_ignores",
        "rules",
        "selection",
        "suppress",
        "suggest",
    ];
    let src = oracles::repo().join("crates/urldb-core/src");
    let mut files = Vec::new();
    for name in FORMAT {
        let dir = src.join(name);
        if dir.is_dir() {
            files.extend(rust_files(&dir));
        }
        let file = src.join(format!("{name}.rs"));
        if file.is_file() {
            files.push(file);
        }
    }
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("read");
        for (n, line) in non_test_code(&text).lines().enumerate() {
            let grouped = line.contains("crate::{");
            for module in LINTER {
                if line.contains(&format!("crate::{module}")) || (grouped && line.contains(module))
                {
                    found.push(format!("{}:{}: {module}", file.display(), n + 1));
                }
            }
        }
    }
    assert!(files.len() > 20, "only {} files read", files.len());
    assert!(
        found.is_empty(),
        "the format imports the linter:\n{}",
        found.join("\n")
    );
}

/// One place for each decision (`docs/dev/architecture.md`, "How data
/// flows"): findings are excused by one function,
/// `urldb-core/src/lint/excuse.rs` (`finish`: selection, per-file
/// ignores, directives, blocked-by, order), and the cross-file rules run
/// in one, `lint/across.rs`, which the store and the language server both
/// call. The calls that filter findings are crate-private to core, so no
/// other crate can make them; inside core no other line makes them, and no
/// other line anywhere builds the context the cross-file rules run on.
#[test]
fn findings_are_excused_in_one_place_and_cross_file_rules_run_in_one() {
    let repo = oracles::repo();
    let core = repo.join("crates/urldb-core/src");
    let excuse = core.join("lint/excuse.rs");
    let across = core.join("lint/across.rs");
    // What filters findings by the selection, the per-file ignores or a
    // file's directives, and what runs the cross-file rules.
    const FILTERS: [&str; 4] = [
        ".apply(",
        ".suppresses(",
        "per_file_ignores.take(",
        "Directives::of_text(",
    ];
    const RUNS_ACROSS: &str = "DbContext {";
    let mut sources = vec![repo.join("src")];
    for entry in std::fs::read_dir(repo.join("crates")).expect("crates/") {
        sources.push(entry.expect("crate").path().join("src"));
    }
    let (mut files, mut found, mut runners) = (0, Vec::new(), Vec::new());
    for file in sources.iter().flat_map(|dir| rust_files(dir)) {
        let text = std::fs::read_to_string(&file).expect("read");
        files += 1;
        let in_core = file.starts_with(&core);
        for (n, line) in non_test_code(&text).lines().enumerate() {
            let at = format!("{}:{}", file.display(), n + 1);
            if line.contains(RUNS_ACROSS) {
                runners.push(at.clone());
            }
            for filter in FILTERS {
                // Outside core, `.apply(` is anything's (clap's argument
                // groups); core's filters cannot be called there at all.
                let filters = if in_core {
                    line.contains(filter)
                } else {
                    filter != ".apply(" && line.contains(filter)
                };
                if filters && file != excuse {
                    // Only "ignore here" reads the directives of a line.
                    if filter == "Directives::of_text(" && file.ends_with("lint/ignore_here.rs") {
                        continue;
                    }
                    found.push(format!("{at}: {filter}"));
                }
            }
        }
    }
    assert!(files > 150, "only {files} files read");
    assert!(
        found.is_empty(),
        "findings filtered outside lint/excuse.rs:\n{}",
        found.join("\n")
    );
    assert_eq!(runners.len(), 1, "cross-file rules run in: {runners:?}");
    assert!(
        runners[0].starts_with(&across.display().to_string()),
        "{runners:?}"
    );
    // One function in excuse.rs; the filters it calls stay core's.
    let code = non_test_code(&std::fs::read_to_string(&excuse).expect("read"));
    let functions: Vec<&str> = code.lines().filter(|l| l.contains("fn ")).collect();
    assert_eq!(functions.len(), 1, "{functions:?}");
    assert!(functions[0].contains("fn finish("), "{functions:?}");
    for (file, definition) in [
        ("selection.rs", "pub(crate) fn apply("),
        ("per_file_ignores.rs", "pub(crate) fn take("),
        ("suppress/apply.rs", "pub(crate) fn apply("),
        ("suppress/apply.rs", "pub(crate) fn suppresses("),
        ("suppress/apply.rs", "pub(crate) fn of_text("),
    ] {
        let text = std::fs::read_to_string(core.join(file)).expect("read");
        assert!(text.contains(definition), "{file}: {definition}");
    }
    // Who finishes findings, and who runs the cross-file rules.
    for (file, call) in [
        ("crates/urldb-core/src/lint/mod.rs", "excuse::finish("),
        ("crates/urldb-core/src/lint/pieces.rs", "excuse::finish("),
        ("crates/urldb-core/src/lint/across.rs", "excuse::finish("),
        ("crates/urldb-store/src/database.rs", "lint::across("),
        ("crates/urldb-server/src/cross_file.rs", "lint::across("),
    ] {
        let text = std::fs::read_to_string(repo.join(file)).expect("read");
        assert!(non_test_code(&text).contains(call), "{file}: {call}");
    }
}

/// Entry files are lists (`docs/dev/architecture.md`, "Public
/// surface"): each crate's `lib.rs`, the binary's `main.rs`, `app.rs` and
/// `commands/mod.rs` name their modules and what they export, and hold no
/// work of their own. At most 200 lines each, tests included; the
/// commands' list declares no item at all (what commands share has a
/// module of its own).
#[test]
fn entry_files_are_lists() {
    let repo = oracles::repo();
    let commands = repo.join("src/commands/mod.rs");
    let text = std::fs::read_to_string(&commands).expect("read");
    let items: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .filter(|l| {
            ["fn ", "struct ", "enum ", "impl ", "const "]
                .iter()
                .any(|k| l.contains(k))
        })
        .collect();
    assert!(
        items.is_empty(),
        "src/commands/mod.rs holds items: {items:?}"
    );
    let mut entries = vec![repo.join("src/main.rs"), repo.join("src/app.rs"), commands];
    for entry in std::fs::read_dir(repo.join("crates")).expect("crates/") {
        entries.push(entry.expect("crate").path().join("src/lib.rs"));
    }
    assert!(entries.len() >= 7, "{entries:?}");
    let long: Vec<String> = entries
        .iter()
        .filter_map(|file| {
            let lines = std::fs::read_to_string(file).expect("read").lines().count();
            (lines > 200).then(|| format!("{}: {lines} lines", file.display()))
        })
        .collect();
    assert!(long.is_empty(), "entry files that hold work: {long:?}");
}

/// One escape per format (`docs/dev/architecture.md`, "How data flows"):
/// text in HTML and XML is escaped by `urldb-output` alone
/// (`urldb_output::html`, `urldb_output::xml`), for every command and
/// crate that writes them; no other code writes `&lt;` itself, tests
/// aside.
#[test]
fn markup_is_escaped_in_one_place() {
    let repo = oracles::repo();
    let mut dirs = vec![repo.join("src")];
    for entry in std::fs::read_dir(repo.join("crates")).expect("crates/") {
        dirs.push(entry.expect("crate").path().join("src"));
    }
    let owners = [
        "crates/urldb-output/src/html.rs",
        "crates/urldb-output/src/xml.rs",
    ];
    let mut found = Vec::new();
    let mut files = 0;
    for file in dirs.iter().flat_map(|dir| rust_files(dir)) {
        files += 1;
        let shown = file
            .strip_prefix(repo)
            .unwrap_or(&file)
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(&file).expect("read");
        let code = non_test_code(&text);
        for (n, (line, code)) in text.lines().zip(code.lines()).enumerate() {
            // A test's line is blank in `code`; an escape's is not.
            if line.contains("\"&lt;\"") && !code.trim().is_empty() {
                found.push(format!("{shown}:{}", n + 1));
            }
        }
    }
    assert!(files > 150, "only {files} files read");
    let mut escapes: Vec<&str> = found
        .iter()
        .map(|f| f.split(':').next().unwrap_or(""))
        .collect();
    escapes.sort_unstable();
    assert_eq!(
        escapes, owners,
        "markup escaped outside urldb-output: {found:?}"
    );
}

/// A rule is one value (`docs/dev/adding-a-rule.md`): what is true of a
/// rule (its gate, whether it blocks a request, whether it is on by
/// default, its clean text) is a field of its `Rule`, in its own file,
/// and the lists of rules are read from the catalogue (`rules::ALL`). No
/// table names rules by their code: no `static` or `const` item outside a
/// rule's own `code:` field, and no `match` arm, holds a rule's code as a
/// string literal, and no `static` or `const` item pairs a rule's `RULE`
/// with a fact (`(&path_case::RULE, …)`), tests aside.
#[test]
fn no_table_is_keyed_by_a_rules_code() {
    let repo = oracles::repo();
    let codes: Vec<&str> = urldb_core::rules::ALL.iter().map(|r| r.code).collect();
    let mut sources = vec![repo.join("src")];
    for entry in std::fs::read_dir(repo.join("crates")).expect("crates/") {
        sources.push(entry.expect("crate").path().join("src"));
    }
    let (mut files, mut found) = (0, Vec::new());
    for file in sources.iter().flat_map(|dir| rust_files(dir)) {
        let text = std::fs::read_to_string(&file).expect("read");
        files += 1;
        for (n, line) in keyed_by_code(&text, &codes) {
            found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
        }
    }
    assert!(files > 150, "only {files} files read");
    assert!(
        found.is_empty(),
        "tables keyed by a rule's code (make it a field of `Rule`):\n{}",
        found.join("\n")
    );
}

/// The lines (index, text) of `text` that name one of `codes` as a string
/// literal in a `static` or `const` item (but a `code:` field) or in a
/// `match` arm, outside tests.
fn keyed_by_code<'a>(text: &'a str, codes: &[&str]) -> Vec<(usize, &'a str)> {
    let code = non_test_code(text);
    let mut out = Vec::new();
    // The depth of brackets in the `static`/`const` item being read, if any.
    let mut item: Option<i32> = None;
    for (n, (line, original)) in code.lines().zip(text.lines()).enumerate() {
        let bare = line.trim_start();
        let bare = ["pub(crate) ", "pub(super) ", "pub "]
            .iter()
            .find_map(|v| bare.strip_prefix(v))
            .unwrap_or(bare);
        if item.is_none()
            && (bare.starts_with("static ")
                || (bare.starts_with("const ") && !bare.starts_with("const fn")))
        {
            item = Some(0);
        }
        let names_a_code =
            line.contains('"') && codes.iter().any(|c| original.contains(&format!("\"{c}\"")));
        let arm = names_a_code
            && codes.iter().any(|c| {
                original.contains(&format!("\"{c}\" =>"))
                    || original.contains(&format!("\"{c}\" |"))
            });
        // A table keyed by the rules themselves: `(&path_case::RULE, …)`.
        let keyed_by_rule = line.contains("(&") && line.contains("::RULE,");
        if let Some(depth) = item.as_mut() {
            if (names_a_code && !bare.starts_with("code: ")) || keyed_by_rule {
                out.push((n, original));
            }
            for c in line.chars() {
                match c {
                    '(' | '[' | '{' => *depth += 1,
                    ')' | ']' | '}' => *depth -= 1,
                    _ => {}
                }
            }
            if *depth <= 0 && (line.trim_end().ends_with(';') || line.trim_end().ends_with('}')) {
                item = None;
            }
        } else if arm {
            out.push((n, original));
        }
    }
    out
}

#[test]
fn the_code_table_scan_sees_tables_and_arms_only() {
    let codes = ["yaml-comment", "path-case"];
    let text = "pub(crate) static OFF: &[&str] = &[\"yaml-comment\"];\n\
                static RULE: Rule = Rule {\n    code: \"path-case\",\n    summary: \"x\",\n};\n\
                fn f(code: &str) -> u8 {\n    match code {\n        \"path-case\" => 1,\n        _ => 0,\n    }\n}\n\
                fn g() { blocked(\"path-case\"); }\n\
                const TABLE: [(&str, u8); 1] = [\n    (\"path-case\", 1),\n];\n\
                static CLEAN: &[(&Rule, u8)] = &[\n    (&path_case::RULE, 1),\n];\n\
                #[cfg(test)]\nmod tests { static T: &[&str] = &[\"path-case\"]; }\n";
    let found: Vec<usize> = keyed_by_code(text, &codes)
        .into_iter()
        .map(|(n, _)| n + 1)
        .collect();
    assert_eq!(found, [1, 8, 14, 17], "{text}");
}

/// A per-file error keeps its cause, typed, until it is shown: the types
/// that carry one file's (or record's) problem across crates hold no
/// `message: String` and no reason as an `Option<String>`
/// (`docs/dev/architecture.md`, "How data flows").
#[test]
fn per_file_errors_keep_their_cause() {
    let repo = oracles::repo();
    let types = [
        ("crates/urldb-store/src/database.rs", "pub struct FileError"),
        ("crates/urldb-store/src/database.rs", "pub enum FileProblem"),
        ("crates/urldb-store/src/discover.rs", "pub struct WalkError"),
        ("crates/urldb-store/src/discover.rs", "pub enum WalkProblem"),
        ("crates/urldb-store/src/by_url.rs", "pub struct HostIndex"),
        (
            "crates/urldb-store/src/listing.rs",
            "pub enum LeftOutReason",
        ),
        ("crates/urldb-verify/src/plan.rs", "pub struct Problem"),
        ("crates/urldb-verify/src/plan.rs", "pub enum Unverifiable"),
        ("crates/urldb-verify/src/plan.rs", "pub enum NotChecked"),
        ("crates/urldb-verify/src/plan.rs", "pub struct UrlCheck"),
    ];
    let mut found = Vec::new();
    for (file, head) in types {
        let text = non_test_code(&std::fs::read_to_string(repo.join(file)).expect("read"));
        let at = text
            .find(&format!("{head} {{"))
            .unwrap_or_else(|| panic!("{file}: no `{head}`"));
        let chars: Vec<char> = text[at..].chars().collect();
        let open = chars.iter().position(|c| *c == '{').expect("a body");
        let body: String = chars[open..matching(&chars, open, '{', '}')]
            .iter()
            .collect();
        let squeezed: String = body.split_whitespace().collect::<Vec<_>>().join(" ");
        if squeezed.contains("message: String") || squeezed.contains("Option<String>") {
            found.push(format!("{file}: {head}"));
        }
    }
    assert!(found.is_empty(), "per-file errors as strings: {found:?}");
}

/// One door to a domain file's text (`docs/dev/architecture.md`, "How
/// data flows"): a byte order mark is taken off by `urldb_core::parse`
/// (`without_bom`, `read_bytes`), and the parsers are called through it
/// (`read_bytes`, `read_text`, `read_range`), never directly: the fast
/// reader and the tree parser are private to that folder (the compiler
/// holds that; this test holds the BOM, and the testing door). Only the
/// `bom` rule, which reports a BOM, and `robots.txt`, which is no domain
/// file (`urldb-verify/src/robots.rs`, RFC 9309), name one.
#[test]
fn a_domain_file_is_read_through_one_door() {
    let repo = oracles::repo();
    const OPENING: [&str; 7] = [
        "strip_prefix('\\u{feff}'",
        "starts_with('\\u{feff}'",
        "\\xef\\xbb\\xbf",
        "[0xef, 0xbb, 0xbf]",
        "parse::tree::",
        "parse::fast::",
        "parse::testing::",
    ];
    const ALLOWED: [&str; 3] = [
        "crates/urldb-core/src/parse/",
        "crates/urldb-core/src/rules/yaml/bom.rs",
        "crates/urldb-verify/src/robots.rs",
    ];
    let mut sources = vec![repo.join("src")];
    for entry in std::fs::read_dir(repo.join("crates")).expect("crates/") {
        sources.push(entry.expect("crate").path().join("src"));
    }
    let (mut files, mut found) = (0, Vec::new());
    for file in sources.iter().flat_map(|dir| rust_files(dir)) {
        let shown = file
            .strip_prefix(repo)
            .unwrap_or(&file)
            .to_string_lossy()
            .replace('\\', "/");
        files += 1;
        if ALLOWED.iter().any(|a| shown.starts_with(a)) {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("read");
        // Tests aside, literals kept: a BOM is spelt in one.
        let code = non_test_code(&text);
        for (n, (line, original)) in code.lines().zip(text.lines()).enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let lower = original.to_ascii_lowercase();
            for opening in OPENING {
                if lower.contains(opening) {
                    found.push(format!("{shown}:{}: {opening}", n + 1));
                }
            }
        }
    }
    assert!(files > 150, "only {files} files read");
    assert!(
        found.is_empty(),
        "a domain file read around `urldb_core::parse`:\n{}",
        found.join("\n")
    );
}

/// What a line of code uses to print, if anything.
fn printing(line: &str) -> Option<&'static str> {
    const PRINTING: [&str; 10] = [
        "say!",
        "println!",
        "eprintln!",
        "print!",
        "eprint!",
        "dbg!",
        "stdout(",
        "stderr(",
        "io::stdout",
        "io::stderr",
    ];
    PRINTING.into_iter().find(|pattern| {
        line.match_indices(pattern).any(|(at, _)| {
            // A whole name: `eprint!` is not `print!`, `my_stdout(` not `stdout(`.
            !line[..at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
    })
}

fn rust_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    crate::support::files_with_extension(dir, "rs")
}

/// `text` with comments, the contents of string and character literals,
/// and every `#[cfg(test)]` (or `#[cfg(all(test, …))]`) item blanked out;
/// line breaks are kept, so line numbers stay.
fn non_test_code(text: &str) -> String {
    let code = blank_comments_and_literals(text);
    let mut out: Vec<char> = code.chars().collect();
    let mut from = 0;
    while let Some(at) = find(&out, from, "#[cfg(") {
        let close = matching(&out, at + 1, '[', ']');
        let condition: String = out[at + 6..close - 2].iter().collect();
        let condition: String = condition.split_whitespace().collect();
        let test_only = condition == "test"
            || (condition.starts_with("all(")
                && condition[4..condition.len() - 1]
                    .split(',')
                    .any(|c| c == "test"));
        from = close + 1;
        if !test_only {
            continue;
        }
        // The item the attribute is on: up to its `;`, or its braces.
        let mut end = close + 1;
        while end < out.len() && out[end] != ';' && out[end] != '{' {
            end += 1;
        }
        if end < out.len() && out[end] == '{' {
            end = matching(&out, end, '{', '}');
        }
        for c in &mut out[at..end] {
            if *c != '\n' {
                *c = ' ';
            }
        }
        from = end;
    }
    out.into_iter().collect()
}

fn find(chars: &[char], from: usize, pattern: &str) -> Option<usize> {
    let pattern: Vec<char> = pattern.chars().collect();
    (from..chars.len().saturating_sub(pattern.len() - 1))
        .find(|&i| chars[i..i + pattern.len()] == pattern[..])
}

/// The index after the bracket that closes the one at `open`.
fn matching(chars: &[char], open: usize, left: char, right: char) -> usize {
    let mut depth = 0;
    for (i, &c) in chars.iter().enumerate().skip(open) {
        if c == left {
            depth += 1;
        } else if c == right {
            depth -= 1;
            if depth == 0 {
                return i + 1;
            }
        }
    }
    chars.len()
}

/// Comments and the insides of literals as spaces (line breaks kept), so
/// that neither a `}` nor a `say!` in them counts.
fn blank_comments_and_literals(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |out: &mut String, c: char| out.push(if c == '\n' { '\n' } else { ' ' });
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                blank(&mut out, chars[i]);
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, chars[i]);
                    i += 1;
                }
            }
        } else if c == 'r' && matches!(next, Some('"' | '#')) && starts_a_literal(&chars[..i]) {
            // A raw string: r"…", r#"…"#, br"…".
            let hashes = chars[i + 1..].iter().take_while(|&&h| h == '#').count();
            if chars.get(i + 1 + hashes) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            let end: String = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            out.push('"');
            i += 2 + hashes;
            while i < chars.len() && !chars[i..].starts_with(&end.chars().collect::<Vec<_>>()) {
                blank(&mut out, chars[i]);
                i += 1;
            }
            out.push('"');
            i += end.chars().count();
        } else if c == '"' {
            out.push('"');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if let Some(&c) = chars.get(i) {
                    blank(&mut out, c);
                }
                i += 1;
            }
            out.push('"');
            i += 1;
        } else if c == '\'' && (next == Some('\\') || chars.get(i + 2) == Some(&'\'')) {
            // A character literal ('}', '\n', '\u{7f}'), not a lifetime.
            out.push('\'');
            i += 1;
            while i < chars.len() && chars[i] != '\'' {
                if chars[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                out.push(' ');
                i += 1;
            }
            out.push('\'');
            i += 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Whether an `r` after `before` starts a raw string rather than ends a
/// name (`br` starts one too).
fn starts_a_literal(before: &[char]) -> bool {
    let name = |c: Option<&char>| c.is_some_and(|c| c.is_alphanumeric() || *c == '_');
    match before {
        [.., p, 'b'] => !name(Some(p)),
        [.., p] => !name(Some(p)),
        [] => true,
    }
}

#[test]
fn the_print_scan_skips_tests_comments_and_literals_only() {
    let text = "fn a() { let _ = \"say!(\\\"}\\\")\"; let _ = '}'; }\n\
                // println!(\"x\")\n\
                #[cfg(test)]\nmod tests { fn t() { let _ = '{'; println!(\"t\"); } }\n\
                #[cfg(all(test, unix))]\nfn u() { dbg!(1); }\n\
                #[cfg(not(test))]\nfn v() { eprintln!(\"v\"); }\n\
                fn w() { urldb_output::say!(\"w\"); let _ = (r#\"stdout()\"#, br\"dbg!\"); }\n";
    let code = non_test_code(text);
    let found: Vec<_> = code.lines().filter_map(printing).collect();
    assert_eq!(found, ["eprintln!", "say!"], "{code}");
}
