//! urldb reads exactly what the reference tool reads (`docs/format.md`,
//! "How urldb reads a file"): the property of `support::reader_oracle`,
//! searched by its generator with a fixed seed; every failure a longer
//! search saved (`tools/reader-differential`), replayed.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::support::reader_oracle::{Failure, PyYaml, Tally, generate, judge};
use crate::support::{Rng, oracles};

/// How many generated files the suite's run judges, and its seed.
const CASES: usize = 3000;
const SEED: u64 = 46;
/// Files per run of the binary.
const BATCH: usize = 250;

/// Where a longer search saves what it found, one file per failure.
fn saved() -> PathBuf {
    oracles::repo().join("tests/reader-regressions")
}

/// Judge `files`; print the tally and one failure of each kind.
fn search(batches: impl Iterator<Item = Vec<Vec<u8>>>) -> (Vec<Failure>, Tally) {
    let mut pyyaml = PyYaml::start();
    let mut tally = Tally::default();
    let mut failures = Vec::new();
    for batch in batches {
        let (found, t) = judge(&batch, tally.cases, &mut pyyaml);
        tally.add(&t);
        failures.extend(found);
    }
    eprintln!("{tally:#?}");
    // The first case of each kind of failure whole, then a line for each.
    let mut seen = std::collections::BTreeSet::new();
    for f in &failures {
        let kind: String = f.why.chars().take(40).collect();
        if seen.insert(kind) {
            eprintln!(
                "case {}: {:?}\n  {}\n",
                f.case,
                String::from_utf8_lossy(&f.bytes),
                f.why
            );
        }
    }
    for f in failures.iter().take(200) {
        let why = f.why.lines().next().unwrap_or_default();
        eprintln!(
            "failed: case {}: {why}: {:?}",
            f.case,
            String::from_utf8_lossy(&f.bytes)
        );
    }
    (failures, tally)
}

/// The generated files of `seed`, a batch at a time.
fn generated(seed: u64) -> impl Iterator<Item = Vec<Vec<u8>>> {
    let mut rng = Rng::new(seed);
    std::iter::repeat_with(move || (0..BATCH).map(|_| generate(&mut rng)).collect())
}

#[test]
fn urldb_reads_what_pyyaml_reads() {
    let (failures, tally) = search(generated(SEED).take(CASES / BATCH));
    assert!(
        failures.is_empty(),
        "{} of {} generated files break the property (the first of each kind above)",
        failures.len(),
        tally.cases
    );
    // The search reaches what it is for: files that pass with the
    // characters PyYAML treats specially in them, and `fmt` rewriting.
    // (A sixth: keys at the length limits and booleans the reference tool
    // reads otherwise are refused by design.)
    assert!(tally.agreed * 6 > tally.cases, "{tally:?}");
    assert!(tally.formatted * 2 > tally.agreed, "{tally:?}");
}

#[test]
fn saved_failures_stay_fixed() {
    let mut files: Vec<Vec<u8>> = std::fs::read_dir(saved())
        .expect("tests/reader-regressions")
        .map(|e| std::fs::read(e.expect("entry").path()).expect("read a saved failure"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let (failures, _) = search(files.chunks(BATCH).map(<[_]>::to_vec));
    assert!(
        failures.is_empty(),
        "{} saved failures fail again",
        failures.len()
    );
}

/// The long search (`tools/reader-differential`): `URLDB_READER_SECONDS`
/// of generated files from `URLDB_READER_SEED` (else one from the clock),
/// each failure saved under `tests/reader-regressions/` for the suite.
#[test]
#[ignore = "a long search: run by tools/reader-differential"]
fn search_for_a_while() {
    let seconds: u64 = std::env::var("URLDB_READER_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let seed: u64 = std::env::var("URLDB_READER_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        });
    eprintln!("seed {seed}, {seconds} s");
    let until = Instant::now() + Duration::from_secs(seconds);
    let (failures, tally) = search(generated(seed).take_while(|_| Instant::now() < until));
    for f in &failures {
        let name = format!("{:016x}.case", fnv(&f.bytes));
        std::fs::write(saved().join(&name), &f.bytes).expect("save a failure");
        eprintln!("saved tests/reader-regressions/{name}");
    }
    eprintln!(
        "reader-differential: seed {seed}: {} files in {seconds} s, {} property failures",
        tally.cases,
        failures.len()
    );
    assert!(failures.is_empty());
}

/// FNV-1a: a stable name for a saved file.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

// ---------------------------------------------------------------------
// The examples of the report that found the class, through the binary.

use std::process::Output;

/// A database of `files` with `config` as its `urldb.toml`.
fn db(config: &str, files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("urldb.toml"), config).expect("write urldb.toml");
    for (name, bytes) in files {
        std::fs::write(dir.path().join(name), bytes).expect("write");
    }
    dir
}

fn run(dir: &std::path::Path, args: &[&str]) -> Output {
    crate::support::run_in(dir, args)
}

fn text(out: &[u8]) -> String {
    String::from_utf8_lossy(out).into_owned()
}

/// `check --format github` with every rule that can be turned off turned
/// off fails on each file, with a `yaml-syntax` line saying `says`; and
/// PyYAML reads each file otherwise than urldb did before (refuses it, or
/// reads more documents or other values).
fn refused_with(files: &[(&str, Vec<u8>)], says: &[&str]) {
    let config = "[lint]\nignore = [\"ALL\"]\n";
    for ((name, bytes), says) in files.iter().zip(says) {
        let dir = db(config, &[(name, bytes)]);
        let out = run(dir.path(), &["--no-cache", "check", "--format", "github"]);
        let report = text(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{name}: {report}");
        assert!(
            report.contains(&format!("::error file={name},"))
                && report.contains("title=urldb (yaml-syntax)::")
                && report.contains(says),
            "{name}: expected `{says}` in\n{report}"
        );
        // What is printed names the character; it never prints it.
        assert!(
            !report.contains(['\u{2028}', '\u{2029}', '\u{85}', '\u{7f}']),
            "{report}"
        );
    }
}

/// Item 1: PyYAML ends a line at NEL, LS and PS, in a comment too; urldb
/// refuses such a file rather than read a record PyYAML does not, or miss
/// one it does. `ls` and `export` refuse it as well.
#[test]
fn a_line_break_only_pyyaml_reads_in_a_comment_is_refused() {
    let hidden = "---\n---\n_path: /a\ncontent-type: text/html # reviewed\u{2028}---\u{2028}_path: '@attacker.invalid/x'\u{2028}content-type: text/html\n";
    let flipped =
        "---\n# owner: web team\u{2029}https: true\n---\n_path: /a\ncontent-type: text/html\n";
    let deprecated =
        "---\n---\n_path: /a\ncontent-type: text/html\n# checked\u{85}categories: [deprecated]\n";
    let files = [
        ("a.example.org.yaml", hidden.as_bytes().to_vec()),
        ("b.example.org.yaml", flipped.as_bytes().to_vec()),
        ("c.example.org.yaml", deprecated.as_bytes().to_vec()),
    ];
    refused_with(
        &files,
        &[
            "PyYAML reads a line break here (U+2028)",
            "PyYAML reads a line break here (U+2029)",
            "PyYAML reads a line break here (U+0085)",
        ],
    );
    // The reference tool reads three documents where urldb read two.
    let mut pyyaml = PyYaml::start();
    let answers = pyyaml.read_all(&[hidden.as_bytes()]);
    assert_eq!(
        answers[0].tree.as_ref().map(Vec::len),
        Some(3),
        "{answers:?}"
    );
    // `ls` and `export` list no URL of a file PyYAML reads otherwise.
    let dir = db("", &[("a.example.org.yaml", hidden.as_bytes())]);
    for args in [&["ls"][..], &["export", "--to", "urls"]] {
        let out = run(dir.path(), args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stdout)
        );
        assert!(!text(&out.stdout).contains("http"), "{args:?}");
        assert!(
            text(&out.stderr).contains("run `urldb check`"),
            "{}",
            text(&out.stderr)
        );
    }
}

/// Item 2: inside values, plain, quoted and in lists.
#[test]
fn a_line_break_only_pyyaml_reads_in_a_value_is_refused() {
    let record = "---\n---\n_path: /a\ncontent-type: text/html\n";
    let files = [
        (
            "a.example.org.yaml",
            "---\nhttps: true\u{2028}\n---\n_path: /a\ncontent-type: text/html\n".to_string(),
        ),
        (
            "b.example.org.yaml",
            format!("{record}categories:\n- deprecated\u{2028}\n"),
        ),
        ("c.example.org.yaml", format!("{record}k: \"a\u{85}b\"\n")),
        (
            "d.example.org.yaml",
            format!("{record}k: \"a \u{2028} b\"\n"),
        ),
        (
            "e.example.org.yaml",
            format!("{record}k: |\n  a\u{2029}b\n"),
        ),
    ];
    let files: Vec<(&str, Vec<u8>)> = files
        .iter()
        .map(|(n, t)| (*n, t.as_bytes().to_vec()))
        .collect();
    refused_with(
        &files,
        &["(U+2028)", "(U+2028)", "(U+0085)", "(U+2028)", "(U+2029)"],
    );
}

/// Item 3: PyYAML with `allow_unicode=True` writes a value holding LS
/// raw in single quotes; urldb refuses to read that file, so `fmt` leaves
/// it as it is (it used to write `"x\L  y"`, another value for PyYAML).
#[test]
fn fmt_leaves_a_file_pyyaml_reads_otherwise_as_it_is() {
    let script = "import sys, yaml\n\
        sys.stdout.buffer.write(yaml.dump_all([None, {'_path': '/a', 'content-type': 'text/html', \
        'k': 'x\\u2028y'}], explicit_start=True, sort_keys=True, allow_unicode=True).encode())\n";
    let out = crate::support::run_python(script, &[], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let written = out.stdout;
    assert!(
        text(&written).contains("'x\u{2028}  y'"),
        "{}",
        text(&written)
    );
    let dir = db("", &[("example.org.yaml", &written)]);
    let fmt = run(dir.path(), &["--no-cache", "fmt"]);
    assert_ne!(fmt.status.code(), Some(0), "{}", text(&fmt.stderr));
    let after = std::fs::read(dir.path().join("example.org.yaml")).expect("read back");
    assert_eq!(after, written, "fmt rewrote a file PyYAML reads otherwise");
    let check = run(dir.path(), &["--no-cache", "check", "--format", "concise"]);
    assert_eq!(check.status.code(), Some(1));
    assert!(
        text(&check.stdout).contains("yaml-syntax PyYAML reads a line break here (U+2028)"),
        "{}",
        text(&check.stdout)
    );
}

/// Item 4: every character PyYAML's reader refuses, inside a comment.
#[test]
fn characters_pyyaml_refuses_are_refused_in_comments() {
    let refused: Vec<char> = (0x01..=0x08)
        .chain([0x0B, 0x0C])
        .chain(0x0E..=0x1F)
        .chain([0x7F])
        .chain(0x80..=0x84)
        .chain(0x86..=0x9F)
        .chain([0xFFFE, 0xFFFF])
        .filter_map(char::from_u32)
        .collect();
    let files: Vec<(String, Vec<u8>)> = refused
        .iter()
        .map(|c| {
            (
                format!("u{:04x}.example.org.yaml", *c as u32),
                format!("---\n---\n_path: /a # note {c}\ncontent-type: text/html\n").into_bytes(),
            )
        })
        .collect();
    let mut pyyaml = PyYaml::start();
    let answers = pyyaml.read_all(&files.iter().map(|(_, b)| b.as_slice()).collect::<Vec<_>>());
    assert!(answers.iter().all(|a| !a.loads), "PyYAML loads one of them");
    let says: Vec<String> = refused
        .iter()
        .map(|c| format!("PyYAML refuses the character U+{:04X}", *c as u32))
        .collect();
    let files: Vec<(&str, Vec<u8>)> = files.iter().map(|(n, b)| (n.as_str(), b.clone())).collect();
    refused_with(&files, &says.iter().map(String::as_str).collect::<Vec<_>>());
}

/// Item 5: files PyYAML refuses whose only finding was `not-canonical`,
/// refused whatever excuses `not-canonical`.
#[test]
fn files_pyyaml_refuses_fail_whatever_excuses_not_canonical() {
    let record = "---\n_path: /a\ncontent-type: text/html\n";
    let files: Vec<(&str, String)> = vec![
        (
            "del.example.org.yaml",
            format!("---\n{record}k: \"a\u{7f}b\"\n"),
        ),
        (
            "c1.example.org.yaml",
            format!("---\n{record}k: 'a\u{9b}b'\n"),
        ),
        (
            "fffe.example.org.yaml",
            format!("---\n{record}k: \"a\u{fffe}\"\n"),
        ),
        (
            "version.example.org.yaml",
            format!("%YAML 2.0\n---\n{record}"),
        ),
        (
            "tag.example.org.yaml",
            format!(
                "%TAG !e! tag:example.com,2000:\n%TAG !e! tag:example.net,2000:\n---\n{record}"
            ),
        ),
    ];
    let mut pyyaml = PyYaml::start();
    let answers = pyyaml.read_all(&files.iter().map(|(_, t)| t.as_bytes()).collect::<Vec<_>>());
    assert!(answers.iter().all(|a| !a.loads), "{answers:?}");
    for config in [
        "[lint]\nignore = [\"not-canonical\"]\n",
        "[lint.per-file-ignores]\n\"*.yaml\" = [\"ALL\"]\n",
    ] {
        for (name, text_) in &files {
            for excuse in ["", "# urldb: ignore-file[not-canonical]\n"] {
                let bytes = format!("{excuse}{text_}");
                let dir = db(config, &[(name, bytes.as_bytes())]);
                let out = run(dir.path(), &["--no-cache", "check", "--format", "concise"]);
                assert_eq!(
                    out.status.code(),
                    Some(1),
                    "{name} {config}: {}",
                    text(&out.stdout)
                );
                assert!(
                    text(&out.stdout).contains("yaml-syntax PyYAML refuses"),
                    "{}",
                    text(&out.stdout)
                );
            }
        }
    }
}

/// Item 7: the YAML test suite's Y79Y/001 (a block scalar line holding a
/// space, then a TAB): PyYAML and the suite load `{foo: "\t\n", bar: 1}`,
/// and so does urldb, with no `yaml-syntax` finding.
#[test]
fn a_tab_pyyaml_takes_in_a_block_scalar_is_no_finding() {
    let text_ = b"foo: |\n \t\nbar: 1\n";
    let mut pyyaml = PyYaml::start();
    let answer = &pyyaml.read_all(&[text_])[0];
    assert!(answer.loads, "{answer:?}");
    assert_eq!(
        crate::support::reader_oracle::urldb_tree(text_),
        answer.tree,
        "urldb reads Y79Y/001 otherwise"
    );
    let dir = db("", &[("example.org.yaml", text_)]);
    let out = run(
        dir.path(),
        &["--no-cache", "check", "--format", "json", "--exit-zero"],
    );
    assert!(
        !text(&out.stdout).contains("yaml-syntax"),
        "{}",
        text(&out.stdout)
    );
}

/// PyYAML's length limits (`docs/format.md`, "Length limits"): a key
/// without `?` whose `:` is more than 1,024 characters from its start, in
/// flow context too (`{…}`, a pair in `[…]`, a quoted key, the metadata
/// written in flow form; multi-byte characters count as one), and a plain
/// integer of more than 4,300 digits. PyYAML refuses each; `check` fails on
/// each whatever excuses `not-canonical`, and `ls` lists none of their
/// URLs. One character fewer, PyYAML loads the file and so does urldb.
#[test]
fn keys_and_integers_past_pyyamls_length_limits_fail_whatever_excuses() {
    let record = "---\n_path: /a\ncontent-type: text/html\n";
    let k = |n: usize, c: char| -> String { std::iter::repeat_n(c, n).collect() };
    let cases = |n: usize, digits: usize| -> Vec<(&'static str, String)> {
        vec![
            (
                "flow.example.org.yaml",
                format!("---\n{record}note: {{{}: v}}\n", k(n, 'k')),
            ),
            (
                "pair.example.org.yaml",
                format!("---\n{record}note: [{}: v]\n", k(n, 'k')),
            ),
            (
                "quoted.example.org.yaml",
                format!("---\n{record}note: {{'{}': v}}\n", k(n - 2, 'k')),
            ),
            (
                "meta.example.org.yaml",
                format!("--- {{{}: v}}\n{record}", k(n, 'k')),
            ),
            (
                "wide.example.org.yaml",
                format!("---\n{record}note: {{{}: v}}\n", k(n, 'é')),
            ),
            (
                "astral.example.org.yaml",
                format!("---\n{record}note: [{}: v]\n", k(n, '😀')),
            ),
            (
                "int.example.org.yaml",
                format!("---\n{record}note:   1{}\n", k(digits - 1, '0')),
            ),
        ]
    };
    let over = cases(1025, 4301);
    let at = cases(1024, 4300);
    let mut pyyaml = PyYaml::start();
    let read = |pyyaml: &mut PyYaml, files: &[(&str, String)]| {
        pyyaml.read_all(&files.iter().map(|(_, t)| t.as_bytes()).collect::<Vec<_>>())
    };
    let answers = read(&mut pyyaml, &over);
    assert!(answers.iter().all(|a| !a.loads), "{answers:?}");
    let answers = read(&mut pyyaml, &at);
    assert!(answers.iter().all(|a| a.loads), "{answers:?}");
    let excuses = [
        (
            "[lint]\nignore = [\"not-canonical\", \"unknown-metadata-key\"]\n",
            "",
        ),
        (
            "[lint]\nignore = [\"unknown-metadata-key\"]\n",
            "# urldb: ignore-file[not-canonical]\n",
        ),
    ];
    for (files, refused) in [(&over, true), (&at, false)] {
        for (name, text_) in files {
            for (config, excuse) in excuses {
                let bytes = format!("{excuse}{text_}");
                let dir = db(config, &[(name, bytes.as_bytes())]);
                let out = run(dir.path(), &["--no-cache", "check", "--format", "concise"]);
                let report = text(&out.stdout);
                let ls = run(dir.path(), &["ls"]);
                if refused {
                    assert_eq!(out.status.code(), Some(1), "{name}: {report}");
                    let says = if name.starts_with("int") {
                        "yaml-syntax PyYAML reads this plain value as an integer of 4301 digits"
                    } else {
                        "yaml-syntax PyYAML refuses a key without `?` whose `:` comes 1025 \
                         characters after its start"
                    };
                    assert!(report.contains(says), "{name}: {report}");
                    assert!(
                        !text(&ls.stdout).contains("/a"),
                        "{name}: {}",
                        text(&ls.stdout)
                    );
                } else {
                    assert_eq!(out.status.code(), Some(0), "{name}: {report}");
                    assert!(
                        text(&ls.stdout).contains(&format!("{}/a", name.trim_end_matches(".yaml"))),
                        "{name}: {}",
                        text(&ls.stdout)
                    );
                }
            }
        }
    }
}

/// The quoted-tab re-reads within a budget (`docs/security.md` §8): in a
/// file where reading every tab that starts a line as a space changes
/// something else (a block scalar whose first line starts `  <TAB>`),
/// urldb reads the tabs of a quoted value's continuation lines one at a
/// time, a parse each, only in a file of at most 64 KiB; a larger one is
/// refused, saying why, so that no file costs more than three parses.
#[test]
fn quoted_tabs_are_read_one_at_a_time_only_in_a_small_file() {
    let file = |fill: usize| {
        format!(
            "---\n---\n_path: /a\ncontent-type: text/html\nfill: |\n{}note: \"x\n\tb\n\tb\n  c\"\ntext: |\n  \tz\n  y\n",
            "  some text to fill the record\n".repeat(fill)
        )
    };
    let small = file(100);
    let large = file(3000);
    assert!(small.len() < 64 * 1024 && large.len() > 64 * 1024);
    let mut pyyaml = PyYaml::start();
    let answers = pyyaml.read_all(&[small.as_bytes(), large.as_bytes()]);
    assert!(answers.iter().all(|a| a.loads), "{answers:?}");
    let config = "[lint]\nignore = [\"not-canonical\"]\n";
    let dir = db(config, &[("small.example.org.yaml", small.as_bytes())]);
    let out = run(dir.path(), &["--no-cache", "check", "--format", "concise"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let dir = db(config, &[("large.example.org.yaml", large.as_bytes())]);
    let out = run(dir.path(), &["--no-cache", "check", "--format", "concise"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("yaml-syntax")
            && text(&out.stdout).contains("read one at a time only in a file of at most 64 KiB"),
        "{}",
        text(&out.stdout)
    );
}

/// The YAML test suite's 8KB6 and 9BXH: a flow mapping's key over two
/// lines with no `:` after it (its value null) is no simple key to PyYAML,
/// which loads it; urldb reads it the same, with no `yaml-syntax`
/// finding. With a `:` after it, PyYAML refuses it, and so does urldb.
/// 5WE3: a block scalar written as an explicit key (`? |`) is read too,
/// and L94M: a tag or an anchor between the `?` and the key.
#[test]
fn a_flow_key_over_lines_without_a_value_is_read_as_pyyaml_reads_it() {
    let mut pyyaml = PyYaml::start();
    for text_ in [
        &b"- { single line, a: b}\n- { multi\n  line, a: b}\n"[..],
        b"- { \"single line\", a: b}\n- { \"multi\n  line\", a: b}\n",
        b"{ multi\n  line }\n",
        // 5WE3: a block scalar as an explicit key.
        b"? explicit key # Empty value\n? |\n  block key\n: - one # Explicit compact\n  - two # block value\n",
        // L94M: node properties between the `?` and the key.
        b"? !!str a\n: !!int 47\n? c\n: !!str d\n",
        b"? &k a\n: 1\n? !!str\n  b\n: 2\n",
    ] {
        let answer = &pyyaml.read_all(&[text_])[0];
        assert!(answer.loads, "{answer:?}");
        assert_eq!(
            crate::support::reader_oracle::urldb_tree(text_),
            answer.tree,
            "{}",
            String::from_utf8_lossy(text_)
        );
    }
    let record = "---\n---\n_path: /a\ncontent-type: text/html\n";
    let config = "[lint]\nignore = [\"not-canonical\"]\n";
    // L94M through the binary: the explicit keys with a tag or an anchor
    // get their own findings (`yaml-tag`, `yaml-alias`), no `yaml-syntax`.
    for text_ in [
        "? !!str a\n: !!int 47\n? c\n: !!str d\n",
        "? &k a\n: 1\n? !!str\n  b\n: 2\n",
    ] {
        let dir = db(config, &[("example.org.yaml", text_.as_bytes())]);
        let out = run(dir.path(), &["--no-cache", "check", "--format", "concise"]);
        let found = text(&out.stdout);
        assert!(!found.contains("yaml-syntax"), "{text_}: {found}");
        assert!(
            found.contains("yaml-tag") || found.contains("yaml-alias"),
            "{text_}: {found}"
        );
    }
    let read = format!("{record}note: {{ a: b, multi\n  line}}\n");
    let refused = format!("{record}note: {{ multi\n  line: b}}\n");
    let answers = pyyaml.read_all(&[read.as_bytes(), refused.as_bytes()]);
    assert!(answers[0].loads && !answers[1].loads, "{answers:?}");
    let dir = db(config, &[("example.org.yaml", read.as_bytes())]);
    let out = run(dir.path(), &["--no-cache", "check", "--format", "concise"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let dir = db(config, &[("example.org.yaml", refused.as_bytes())]);
    let out = run(dir.path(), &["--no-cache", "check", "--format", "concise"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("yaml-syntax"),
        "{}",
        text(&out.stdout)
    );
}
