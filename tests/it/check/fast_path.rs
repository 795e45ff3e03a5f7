//! The fast path (a line scanner for canonical text) and the general path
//! (yaml-rust2) must give identical results: the same tree, spans included,
//! and the same findings, fixes and canonical text. Canonical files are
//! generated with values chosen to sit on every quoting boundary, then
//! mutated byte by byte and line by line, so that the fast path sees both
//! what it must accept and what it must refuse.

use crate::support;

use std::path::Path;

use support::Rng;
use urldb_core::lint::{Checked, Documents, Options, check_bytes};
use urldb_core::render::TextStyle;

/// Values on the edges of plain, single-quoted and double-quoted style, and
/// of what the rules look at.
const VALUES: &[&str] = &[
    "/a",
    "/index.html",
    "/a b",
    "/x:y",
    "/x: y",
    "/a#b",
    "/a #b",
    "/caf\u{e9}",
    "/a%2fb",
    "/a%2Fb",
    "/%41",
    "/a/../b",
    "/a?q=1&x=y",
    "/a?q=1,2",
    "/[x]",
    "/{x}",
    "it's",
    "-x",
    "- x",
    "?x",
    ":x",
    "x:",
    "a,b",
    "[a]",
    "yes",
    "No",
    "123",
    "0x1F",
    "1e3",
    "~",
    "null",
    "",
    "...",
    "---",
    "--- x",
    " lead",
    "trail ",
    "tab\there",
    "line\nbreak",
    "'quoted'",
    "\"dq\"",
    "back\\slash",
    "%percent",
    "@at",
    "`tick",
    "!bang",
    "&amp",
    "*star",
    "|pipe",
    ">gt",
    "text/html",
    "text/html; charset=utf-8",
    "X-301-Redirect",
    "TEXT/HTML",
    "0180b2ecbbdf946ed889802c74bd1fcab66ce31e6c6c34ec2f4f3d21a7b351c8",
    "0180B2ECBBDF946ED889802C74BD1FCAB66CE31E6C6C34EC2F4F3D21A7B351C8",
    "static",
    "deprecated",
    "redirect-ok",
    "2025",
    "Static",
    // What the path rules look at, where a clean record's scanner
    // (`lint::proof`) must refuse or take the path as the rules do.
    "/A",
    "/a/B?X=1",
    "/a?B",
    "//host/x",
    "/./a",
    "/a/.",
    "/a/..",
    "/a/..b",
    "/%3A",
    "/%3a",
    "/%7E",
    "/a:",
    "/a:b",
    "/a%3Ab",
    "/a%2Fb",
    "/a%20b",
    "/%zz",
    "/a;b=c",
    "/x?%41",
    "/x?a/../b",
    "X-301-Redirect",
    "X-301-redirect",
    "application/json",
];

const KEYS: &[&str] = &[
    "_path",
    "content-type",
    "categories",
    "content-length",
    "content-sha256",
    "name",
    "Content-Type",
    "x y",
    "a:b",
];

/// A YAML double-quoted string holding `value` exactly.
fn quoted(value: &str) -> String {
    let mut out = String::from("\"");
    for ch in value.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Options for a style, on the general path only or not.
fn options(style: TextStyle, general_path_only: bool) -> Options {
    Options {
        settings: urldb_core::config::LintSettings {
            style,
            ..Default::default()
        },
        knobs: urldb_core::lint::Knobs {
            general_path_only,
            ..Default::default()
        },
        ..Options::default()
    }
}

/// A value for the `pyyaml` style: words and spaces whose line ends on
/// either side of PyYAML's 80 columns, sometimes with a quote or `: `.
fn long_value(rng: &mut Rng) -> String {
    let target = 60 + rng.below(30);
    let mut s = String::from("/");
    while s.len() < target {
        s.push_str(rng.pick(&["a", "word", "it's", "x: y", "caf\u{e9}", "--", "ab"]));
        s.push_str(rng.pick(&[" ", " ", " ", "  ", ""]));
    }
    s.trim_end().to_string()
}

/// A rough file (every value double-quoted), made canonical by the general
/// path's renderer.
fn generated(rng: &mut Rng) -> Option<String> {
    generated_in(rng, TextStyle::Readable, false)
}

/// `long`: half the values are [`long_value`]s.
fn generated_in(rng: &mut Rng, style: TextStyle, long: bool) -> Option<String> {
    let value = |rng: &mut Rng| {
        if long && rng.chance(50) {
            long_value(rng)
        } else {
            rng.pick(VALUES).to_string()
        }
    };
    let mut text = String::from("---\n");
    match rng.below(4) {
        0 => {}
        1 => text.push_str("https: true\n"),
        2 => text.push_str(&format!(
            "cnames:\n- {}\n- www.example.org\n",
            quoted(&value(rng))
        )),
        _ => text.push_str("case-sensitive-paths: false\nhttps: false\n"),
    }
    for _ in 0..rng.below(6) {
        text.push_str("---\n");
        text.push_str(&format!("_path: {}\n", quoted(&value(rng))));
        if rng.chance(80) {
            text.push_str(&format!("content-type: {}\n", quoted(&value(rng))));
        }
        if rng.chance(40) {
            text.push_str("categories:\n");
            for _ in 0..1 + rng.below(3) {
                text.push_str(&format!("- {}\n", quoted(&value(rng))));
            }
        }
        if rng.chance(20) {
            text.push_str(&format!(
                "content-length: {}\ncontent-sha256: {}\n",
                rng.below(100_000),
                quoted(&value(rng))
            ));
        }
        if rng.chance(20) {
            text.push_str(&format!(
                "{}: {}\n",
                quoted(rng.pick(KEYS)),
                quoted(&value(rng))
            ));
        }
    }
    check_bytes(
        Path::new("example.com.yaml"),
        text.as_bytes(),
        &options(style, true),
    )
    .canonical
}

const INSERTS: &[&str] = &[
    " ", ":", ": ", "#", " #", "'", "''", "\"", "-", "- ", "\n", "\r", "\r\n", "\t", "\u{e9}", "{",
    "}", "[", "]", ",", "%", "?", "...", "---", "\n---\n", "\0", "&a ", "*a", "!t ", "|", ">",
    "  ", "\n  x: y",
];

fn mutate(rng: &mut Rng, text: &str) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(bytes.len() + 1);
        match rng.below(5) {
            0 | 1 => {
                let insert = rng.pick(INSERTS).as_bytes();
                bytes.splice(at..at, insert.iter().copied());
            }
            2 if at < bytes.len() => {
                bytes.remove(at);
            }
            3 if at < bytes.len() => {
                bytes[at] = rng.pick(INSERTS).as_bytes()[0];
            }
            _ => {
                // Duplicate or drop a whole line.
                let lines: Vec<&[u8]> = bytes.split_inclusive(|&b| b == b'\n').collect();
                if lines.is_empty() {
                    continue;
                }
                let i = rng.below(lines.len());
                let mut out = Vec::new();
                for (j, line) in lines.iter().enumerate() {
                    if j == i && rng.chance(50) {
                        continue;
                    }
                    out.extend_from_slice(line);
                    if j == i {
                        out.extend_from_slice(line);
                    }
                }
                bytes = out;
            }
        }
    }
    bytes
}

/// Everything a user could see of a checked file.
fn observable(checked: &Checked) -> String {
    format!(
        "{:?}\n{:?}\n{:?}\n{:?}",
        checked.findings,
        checked.blocked_by,
        checked.canonical,
        checked.documents.parsed().map(|d| format!("{d:?}"))
    )
}

fn agree(name: &str, raw: &[u8]) -> bool {
    agree_in(name, raw, TextStyle::Readable)
}

fn agree_in(name: &str, raw: &[u8], style: TextStyle) -> bool {
    let path = Path::new(name);
    let slow = check_bytes(path, raw, &options(style, true));
    let fast = check_bytes(path, raw, &options(style, false));
    assert_eq!(
        observable(&fast),
        observable(&slow),
        "fast and general paths disagree on {:?}",
        String::from_utf8_lossy(raw)
    );
    // As a run checks it (`lint::check_file`: a clean file proven from
    // its text, or in pieces of a few records, the clean ones proven),
    // the same findings, blocking and canonical text (no tree is kept
    // there); with the default rules, every rule, and a category list.
    for settings in [options(style, false), every_rule(style)] {
        let whole = check_bytes(
            path,
            raw,
            &Options {
                knobs: urldb_core::lint::Knobs {
                    general_path_only: true,
                    ..Default::default()
                },
                ..settings.clone()
            },
        );
        for piece_bytes in [None, Some(48)] {
            let checked =
                urldb_core::lint::check_file(path, raw, &settings.in_pieces_of(piece_bytes));
            same_results(raw, &checked, &whole);
        }
    }
    // Whether the fast path took it, the trees must match where it did.
    let text = String::from_utf8_lossy(raw);
    match urldb_core::parse::testing::fast(&text) {
        Some(tree) => {
            let general = urldb_core::parse::testing::general(&text);
            assert_eq!(
                format!("{:?}\n{:?}", tree.documents, tree.scalar_spans),
                format!("{:?}\n{:?}", general.documents, general.scalar_spans),
                "tree differs for {text:?}"
            );
            assert!(general.problems.is_empty() && !general.incomplete);
            true
        }
        None => false,
    }
}

/// Every rule selected (`yaml-comment` too), and a list of categories
/// (`unknown-category`).
fn every_rule(style: TextStyle) -> Options {
    let mut options = options(style, false);
    options.selection = urldb_core::selection::Selection::new(
        Some(&["ALL".to_string()]),
        &[],
        &[],
        &Default::default(),
        style,
    )
    .expect("ALL is a selection");
    options.settings.categories = Some(vec!["static".into(), "2025".into()]);
    options
}

/// `pieces` (checked without a tree) reports what `slow` (the general
/// path, whole) does.
fn same_results(raw: &[u8], pieces: &Checked, slow: &Checked) {
    let seen = |c: &Checked| {
        let findings: Vec<String> = c.findings.iter().map(|f| format!("{f:?}")).collect();
        format!(
            "{}\n{:?}\n{:?}",
            findings.join("\n"),
            c.blocked_by,
            c.canonical
        )
    };
    let (a, b) = (seen(pieces), seen(slow));
    let only = |x: &str, y: &str| -> Vec<String> {
        x.lines()
            .filter(|l| !y.lines().any(|m| m == *l))
            .map(String::from)
            .collect()
    };
    assert!(
        a == b,
        "pieces and the whole file disagree on {:?}\npieces only: {:?}\nwhole only: {:?}",
        String::from_utf8_lossy(raw),
        only(&a, &b),
        only(&b, &a)
    );
}

#[test]
fn generated_canonical_files_take_the_fast_path_with_the_same_results() {
    let mut rng = Rng::new(0xfa57);
    let mut taken = 0;
    let mut total = 0;
    for _ in 0..2_000 {
        let Some(text) = generated(&mut rng) else {
            continue;
        };
        total += 1;
        if agree("example.com.yaml", text.as_bytes()) {
            taken += 1;
        }
    }
    // The values above are chosen to be hard: many files hold one that
    // the fast path leaves to the general one (double quotes, non-ASCII).
    // Still, it must take a good share of them.
    assert!(total > 1_500, "{total}");
    assert!(taken * 4 > total, "fast path taken for {taken} of {total}");
}

#[test]
fn mutated_files_give_the_same_results_on_both_paths() {
    let mut rng = Rng::new(0x5eed);
    let mut taken = 0;
    for i in 0..6_000 {
        let Some(text) = generated(&mut rng) else {
            continue;
        };
        let raw = mutate(&mut rng, &text);
        let name = if i % 7 == 0 {
            "shop.example.net.yml"
        } else {
            "example.com.yaml"
        };
        if agree(name, &raw) {
            taken += 1;
        }
    }
    // Many mutations keep the text readable by the fast path (a changed
    // value, a duplicated line): those are the interesting ones.
    assert!(taken > 300, "only {taken} mutated files took the fast path");
}

/// A tab PyYAML refuses (after a plain value: it reads only spaces
/// there) in one record of a large file: the piece that holds it is read
/// by the general parser, which takes it; the pieces give the file to the
/// whole path, which reports it as `check` always has. (Two things send
/// it there today: the reader's tab question, `parse::read_range`, and
/// the piece's layout, which is not canonical either.)
#[test]
fn a_refused_tab_in_one_piece_is_reported_as_the_whole_file_reports_it() {
    use urldb_core::lint::check_file;
    let mut text = String::from("---\nhttps: true\n");
    for i in 0..2_000 {
        let tab = if i == 1_500 { "\t" } else { "" };
        text.push_str(&format!(
            "---\n_path: /p{i:06}\ncontent-type: text/html{tab}\n"
        ));
    }
    let path = Path::new("example.com.yaml");
    let options = Options::default();
    let whole = check_bytes(path, text.as_bytes(), &options);
    assert!(
        whole.findings.iter().any(|f| f.rule.code == "yaml-syntax"),
        "{:?}",
        whole.findings
    );
    for piece_bytes in [None, Some(48), Some(4_096)] {
        let pieces = check_file(path, text.as_bytes(), &options.in_pieces_of(piece_bytes));
        same_results(text.as_bytes(), &pieces, &whole);
    }
}

/// Lines a team keeps above a file's first `---`: comments and blank
/// lines (which the pieces take as the metadata's lead-in), and what only
/// the whole file can answer (a suppression comment, a directive, an
/// implicit first document, a comment after text).
const LEAD_INS: &[&str] = &[
    "# The example.com URLs we keep working\n",
    "#\n",
    "\n",
    "   # indented: still a comment line\n",
    "#no space: a comment too\n",
    "# urldb: ignore-file[duplicate-path]\n",
    "# urldb: ignore[unknown-metadata-key]\n",
    "%YAML 1.1\n",
    "owner: x\n",
    "\t# after a tab\n",
    "# caf\u{e9} \u{1F600}\n",
];

/// A file with comments on top is checked in pieces (the general parser
/// for the metadata and its lead-in, the fast path for the records) with
/// the same results as the whole path; what only the whole file can
/// answer goes there.
#[test]
fn a_header_comment_keeps_the_pieces_with_the_same_results() {
    let mut rng = Rng::new(0x1ead);
    let (mut total, mut in_pieces) = (0, 0);
    for _ in 0..1_500 {
        let Some(text) = generated(&mut rng) else {
            continue;
        };
        let mut lead_in = String::new();
        for _ in 0..1 + rng.below(3) {
            // Mostly comments and blanks: those are the case to keep.
            let i = if rng.chance(75) {
                rng.below(5)
            } else {
                rng.below(LEAD_INS.len())
            };
            lead_in.push_str(LEAD_INS[i]);
        }
        let raw = format!("{lead_in}{text}");
        agree("example.com.yaml", raw.as_bytes());
        total += 1;
        let path = Path::new("example.com.yaml");
        let small_pieces = options(TextStyle::Readable, false).in_pieces_of(Some(48));
        let taken = |raw: &[u8]| {
            matches!(
                urldb_core::lint::check_file(path, raw, &small_pieces).documents,
                Documents::InPieces | Documents::Proven
            )
        };
        // Comment lines only, each as `fmt` keeps it.
        let comments_only = lead_in
            .lines()
            .all(|l| l.starts_with('#') && !l.contains("urldb:"));
        if taken(raw.as_bytes()) {
            in_pieces += 1;
            assert!(
                lead_in.lines().all(|l| l.trim().is_empty()
                    || (l.trim_start().starts_with('#') && !l.contains("urldb:"))),
                "taken in pieces: {raw:?}"
            );
        } else if comments_only && taken(text.as_bytes()) {
            // Without its header the file was taken in pieces: with it, it
            // must be too.
            panic!("a header sent the file to the whole path: {raw:?}");
        }
    }
    assert!(total > 1_000, "{total}");
    assert!(in_pieces > 50, "in pieces: {in_pieces} of {total}");
}

/// In the `pyyaml` style the fast path proves canonical only lines that
/// fit in 80 columns; values around that width, folded (written in the
/// `pyyaml` style) or not (written in the `readable` style, as a file does
/// before its first `fmt` in the new style), and their mutations must give
/// the same results on both paths.
#[test]
fn pyyaml_style_gives_the_same_results_on_both_paths() {
    let mut rng = Rng::new(0x9a11);
    let mut taken = 0;
    for i in 0..3_000 {
        let written_in = if i % 3 == 0 {
            TextStyle::Readable
        } else {
            TextStyle::Pyyaml
        };
        let Some(text) = generated_in(&mut rng, written_in, true) else {
            continue;
        };
        let raw = if i % 2 == 0 {
            text.into_bytes()
        } else {
            mutate(&mut rng, &text)
        };
        if agree_in("example.com.yaml", &raw, TextStyle::Pyyaml) {
            taken += 1;
        }
    }
    assert!(taken > 300, "only {taken} files took the fast path");
}

#[test]
fn the_example_database_takes_the_fast_path() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/database");
    for entry in std::fs::read_dir(dir).expect("examples") {
        let path = entry.expect("entry").path();
        // Domain files only (a run of urldb leaves its `.urldb_cache` here).
        if path.extension().is_none_or(|e| e != "yaml") {
            continue;
        }
        let raw = std::fs::read(&path).expect("read");
        let name = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        assert!(agree(&name, &raw), "{name} did not take the fast path");
    }
}

/// A file large enough to be checked in pieces on every core
/// (`lint::check_file`) gives what checking it whole gives: the same
/// findings in the same order, the same verdicts. Its records hold what
/// crosses the cuts between pieces: the same `_path` twice (adjacent, as
/// sorted, a few of them at a cut), a finding in the metadata (reported
/// once, not once per piece), record findings. Paths that are one URL in
/// different pieces (upper and lower case on a case-insensitive domain)
/// and mutations send it back to the whole path, with the same results.
#[test]
fn large_files_checked_in_pieces_give_the_same_results() {
    use urldb_core::lint::check_file;
    let mut rng = Rng::new(0x9135);
    let build = |upper: bool| {
        let mut text = String::from("---\ncase-sensitive-paths: false\nhttps: true\nowner: x\n");
        let mut paths: Vec<String> = (0..25_000)
            .map(|i| format!("/p{i:06}/index.html"))
            .collect();
        paths.extend(
            (0..25_000)
                .step_by(97)
                .map(|i| format!("/p{i:06}/index.html")),
        );
        if upper {
            paths.extend(
                (0..25_000)
                    .step_by(1_499)
                    .map(|i| format!("/P{i:06}/INDEX.html")),
            );
        }
        paths.sort();
        for (n, path) in paths.iter().enumerate() {
            text.push_str(&format!("---\n_path: {path}\n"));
            if n % 1_234 == 0 {
                text.push_str("categories:\n- Blog\n- news\n");
            }
            let content_type = if n % 2_345 == 0 { "text" } else { "text/html" };
            text.push_str(&format!("content-type: {content_type}\n"));
        }
        text
    };
    let path = Path::new("example.com.yaml");
    let options = Options::default();
    let same = |raw: &[u8]| {
        let pieces = check_file(path, raw, &options);
        let whole = check_bytes(path, raw, &options);
        let seen = |c: &Checked| format!("{:?}\n{:?}\n{:?}", c.findings, c.blocked_by, c.canonical);
        assert_eq!(seen(&pieces), seen(&whole), "pieces and whole disagree");
        pieces
    };
    let text = build(false);
    assert!(
        text.len() > 1 << 20,
        "{} bytes: too small for pieces",
        text.len()
    );
    let checked = same(text.as_bytes());
    // It was checked in pieces (no tree kept), and each kind is there.
    assert!(matches!(checked.documents, Documents::InPieces));
    let codes: Vec<&str> = checked.findings.iter().map(|f| f.rule.code).collect();
    for code in [
        "duplicate-path",
        "unknown-metadata-key",
        "invalid-content-type",
    ] {
        assert!(codes.contains(&code), "{code} missing");
    }
    assert_eq!(
        codes
            .iter()
            .filter(|c| **c == "unknown-metadata-key")
            .count(),
        1
    );
    assert_eq!(
        codes.iter().filter(|c| **c == "duplicate-path").count(),
        258
    );

    let upper = build(true);
    let checked = same(upper.as_bytes());
    assert!(
        checked
            .findings
            .iter()
            .any(|f| f.rule.code == "equivalent-paths")
    );
    for _ in 0..4 {
        same(&mutate(&mut rng, &text));
    }
}

/// Found by the `pieces` fuzz target: two rules that forbid a rewrite in
/// different pieces (`missing-path` in the first record, `duplicate-key` in
/// the second). The whole path names the rule that runs first, whatever
/// the record; so do the pieces.
#[test]
fn pieces_name_the_blocking_rule_the_whole_path_names() {
    let text = "---\ncnames:\n- www.example.comtph\nts: true\n---\n_palh: /\ncategories:\n\
                - coreapp\n- frontend\ncontent-type: text/html\n---\n_path: /about/\n\
                categories:\n- frontend\ncontent-type: text7<dfef\ncontent-type: text/plain\n";
    agree("example.com.yaml", text.as_bytes());
}

/// Values a clean record may hold, and values one step away from clean
/// that some rule reports (or that the renderer writes otherwise).
const CLEAN_PATHS: &[&str] = &[
    "/",
    "/a",
    "/a/b",
    "/a/b/",
    "/about/team",
    "/x/y.html",
    "/a?q=1&x=y",
    "/x?A=B",
    "/a%20b",
    "/a%3Ab",
    "/a:b",
    "/b;c=d",
    "/c!d",
    "/d'e",
    "/a%2Fb",
    "/%E2%82%AC",
    "/Index.html",
    "/a/..b",
    "/.well-known/x",
    "/x?a/../b",
    "/a@b",
    "/a*b",
    "/a,b",
];
const NEAR_PATHS: &[&str] = &[
    "/A", "/a/./b", "/a/..", "/a/.", "/%7e", "/%7E", "/a%2f", "/a%3a", "//x", "/a:", "/a b",
    "/%zz", "/a%", "/\u{fc}", "a", "/a#b", "/a%41",
];
const CLEAN_TYPES: &[&str] = &[
    "text/html",
    "text/html; charset=utf-8",
    "application/json",
    "X-301-Redirect",
    "image/png",
];
const NEAR_TYPES: &[&str] = &[
    "TEXT/html",
    "text",
    "X-301-redirect",
    "X-200-Redirect",
    "text/html;",
    "text/html; charset=UTF-8",
    "",
];
const CLEAN_CATEGORIES: &[&str] = &["api", "deprecated", "redirect-ok", "static", "2025", "yes"];
const NEAR_CATEGORIES: &[&str] = &[
    "",
    " ",
    "null",
    "API",
    "Static",
    "unknown",
    "a b",
    "caf\u{e9}",
];
const CLEAN_EXTRAS: &[&str] = &["z-note", "owner", "a-note", "zz", "last-seen"];
const NEAR_EXTRAS: &[&str] = &[
    "content_type",
    "category",
    "Content-Type",
    "_paths",
    "sha256",
    "1",
    "yes",
    "x y",
    "a:b",
    "",
    "Note",
    "-x",
    "?x",
    "https",
];
const DIGEST: &str = "0180b2ecbbdf946ed889802c74bd1fcab66ce31e6c6c34ec2f4f3d21a7b351c8";
const NEAR_DIGESTS: &[&str] = &[
    "0180B2ECBBDF946ED889802C74BD1FCAB66CE31E6C6C34EC2F4F3D21A7B351C8",
    "0180b2ecbbdf946ed889802c74bd1fcab66ce31e6c6c34ec2f4f3d21a7b351c",
    "sha256:0180b2ecbbdf946ed889802c74bd1fcab66ce31e6c6c34ec2f4f3d21a7b351c8",
    "1234567890123456789012345678901234567890123456789012345678901234",
];

/// A canonical file of clean records, most with one value one step away
/// from clean, and some with two lines swapped or one repeated (unsorted
/// or duplicate records, keys and categories, which `fmt` would never
/// write).
fn near_clean(rng: &mut Rng) -> Option<String> {
    let mut text = String::from(rng.pick(&[
        "---\n",
        "---\ncase-sensitive-paths: false\n",
        "---\nhttps: true\n",
        "---\ncnames:\n- www.example.com\n",
    ]));
    let near = rng.chance(70);
    let records = 1 + rng.below(5);
    let odd_one = rng.below(records);
    for r in 0..records {
        let odd = near && r == odd_one;
        let field = if odd { rng.below(8) } else { usize::MAX };
        let path = if field == 0 {
            rng.pick(NEAR_PATHS)
        } else {
            rng.pick(CLEAN_PATHS)
        };
        text.push_str(&format!("---\n_path: {}\n", quoted(path)));
        if rng.chance(50) || field == 1 {
            text.push_str("categories:\n");
            let n = 1 + rng.below(3);
            for i in 0..n {
                let category = if field == 1 && i == 0 {
                    rng.pick(NEAR_CATEGORIES)
                } else {
                    rng.pick(CLEAN_CATEGORIES)
                };
                text.push_str(&format!("- {}\n", quoted(category)));
            }
        }
        match field {
            2 => text.push_str(&format!(
                "content-length: {}\ncontent-sha256: {DIGEST}\n",
                rng.pick(&["012", "-1", "1.5", "x", "0x1F", "99999999999999999999999"])
            )),
            6 => text.push_str(&format!("content-length: {}\n", rng.below(100))),
            3 => text.push_str(&format!(
                "content-length: 5\ncontent-sha256: {}\n",
                quoted(rng.pick(NEAR_DIGESTS))
            )),
            _ if rng.chance(30) => text.push_str(&format!(
                "content-length: {}\ncontent-sha256: {}\n",
                rng.below(10_000),
                quoted(DIGEST)
            )),
            _ => {}
        }
        // Extras: keys the format allows, and keys rules report.
        if rng.chance(20) || field == 7 {
            let key = if field == 7 {
                rng.pick(NEAR_EXTRAS)
            } else {
                rng.pick(CLEAN_EXTRAS)
            };
            let value = rng.pick(&[
                "x",
                "long text here",
                "yes",
                "12",
                "~",
                "=",
                "a: b",
                "it's",
                "2001-02-30",
                "",
            ]);
            text.push_str(&format!("{}: {}\n", quoted(key), quoted(value)));
        }
        match field {
            4 => text.push_str(&format!("content-type: {}\n", quoted(rng.pick(NEAR_TYPES)))),
            5 => {}
            _ => text.push_str(&format!(
                "content-type: {}\n",
                quoted(rng.pick(CLEAN_TYPES))
            )),
        }
    }
    let canonical = check_bytes(
        Path::new("example.com.yaml"),
        text.as_bytes(),
        &options(TextStyle::Readable, true),
    )
    .canonical?;
    // A digest of decimal digits is an integer to YAML, so `fmt` quotes it:
    // unquoted, the file is not canonical.
    let digits = NEAR_DIGESTS[3];
    let canonical = if rng.chance(50) {
        canonical.replace(&format!("'{digits}'"), digits)
    } else {
        canonical
    };
    // So is a key YAML would read as something else than a string.
    let canonical = if rng.chance(50) {
        canonical
            .replace("\n'1': ", "\n1: ")
            .replace("\n'yes': ", "\nyes: ")
    } else {
        canonical
    };
    if !rng.chance(25) {
        return Some(canonical);
    }
    // Swap two neighbouring records or lines, repeat or drop a line, or
    // unquote one.
    let mut records: Vec<String> = canonical
        .split("---\n")
        .map(|r| format!("---\n{r}"))
        .collect();
    if rng.chance(40) && records.len() > 3 {
        let i = 2 + rng.below(records.len() - 3);
        records.swap(i, i + 1);
        return Some(records[1..].concat());
    }
    let mut lines: Vec<&str> = canonical.split_inclusive('\n').collect();
    let i = rng.below(lines.len());
    let unquoted = lines[i].replace('\'', "");
    match rng.below(4) {
        0 if i + 1 < lines.len() => lines.swap(i, i + 1),
        1 => {
            lines.remove(i);
        }
        2 => lines[i] = &unquoted,
        _ => lines.insert(i, lines[i]),
    }
    Some(lines.concat())
}

/// Files of clean records with one value, line or order one step away
/// give the same results whether their records are proven clean from
/// their text (`lint::proof`) or checked by the rules, with the default
/// rules and with every rule; both ways are taken often.
#[test]
fn near_clean_files_give_the_same_results_proven_or_checked() {
    let mut rng = Rng::new(0xc1ea2);
    let (mut proven, mut not) = (0, 0);
    for _ in 0..6_000 {
        let Some(text) = near_clean(&mut rng) else {
            continue;
        };
        for settings in [
            options(TextStyle::Readable, false),
            every_rule(TextStyle::Readable),
        ] {
            let path = Path::new("example.com.yaml");
            let whole = check_bytes(
                path,
                text.as_bytes(),
                &Options {
                    knobs: urldb_core::lint::Knobs {
                        general_path_only: true,
                        ..Default::default()
                    },
                    ..settings.clone()
                },
            );
            let checked = urldb_core::lint::check_file(path, text.as_bytes(), &settings);
            same_results(text.as_bytes(), &checked, &whole);
            // A small file that parses is checked without its tree only
            // when proven clean.
            if matches!(checked.documents, Documents::Proven) {
                proven += 1;
                // (Its paths may still be listed twice: those findings
                // come from the paths, after the proof.)
            } else {
                not += 1;
            }
            let pieces = urldb_core::lint::check_file(
                path,
                text.as_bytes(),
                &settings.in_pieces_of(Some(48)),
            );
            same_results(text.as_bytes(), &pieces, &whole);
        }
    }
    assert!(proven > 1_000 && not > 2_000, "{proven} proven, {not} not");
}
