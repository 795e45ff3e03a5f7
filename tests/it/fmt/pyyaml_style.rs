//! `style = "pyyaml"` against the real PyYAML 6.0.3, and the `readable`
//! style against PyYAML with `allow_unicode=True` and an unbounded width,
//! in both directions:
//!
//! 1. PyYAML's own text is canonical to urldb (`fmt --check` passes) and
//!    reads back as the generated data;
//! 2. urldb's canonical text is PyYAML's bytes: for the model itself, and
//!    for a messy version of the same data (PyYAML's libyaml writer, with
//!    records, keys and categories shuffled, flow or block style, random
//!    quoting, width and `allow_unicode`).
//!
//! The records are generated here (seeded) to be hard for the folding
//! writers: long values of words and spaces, quotes, `: `, ` #`, edge
//! spaces, non-ASCII, emoji, NEL/LS/PS, control characters, words longer
//! than a line, and text that reads as a number, bool or null: 10,000
//! records in the `pyyaml` style, 5,000 in the `readable` one. PyYAML runs
//! once per style for the whole batch.

use crate::fmt::pyyaml_differential::{HARD, WORDS, documents};
use crate::support;

use std::path::Path;
use std::process::Command;

use serde_json::{Map, Value as Json, json};
use support::Rng;
use urldb_core::lint::{Options, check_bytes};
use urldb_core::model::normal::normal_form;
use urldb_core::render::{EmptyMetadata, RenderOptions, TextStyle, render};

/// Pieces beyond `HARD`: what makes the double-quoted writer escape, and
/// what PyYAML (YAML 1.1) treats as line breaks.
const EXOTIC: &[&str] = &[
    "Café",
    "naïve",
    "日本語",
    "😀",
    "\u{1F600}\u{1F601}",
    "\u{85}",
    "\u{2028}",
    "\u{2029}",
    "a\u{85}b",
    "\u{a0}",
    "\t",
    "\r",
    "\u{7}",
    "\u{0}",
    "\u{1b}",
    "\u{7f}",
    "\u{feff}",
    "\\",
    "\"quoted\"",
    "it's",
    "'",
    ": ",
    " #",
    "a: b",
    "#tag",
];

/// The Unicode line breaks: in the `readable` style urldb escapes them
/// where PyYAML with `allow_unicode=True` writes them raw
/// (`docs/format.md`), so that batch leaves them out.
fn unicode_break(s: &str) -> bool {
    s.contains(['\u{85}', '\u{2028}', '\u{2029}'])
}

fn piece(rng: &mut Rng, breaks: bool, ascii_words: bool) -> String {
    loop {
        let p = match rng.below(if ascii_words { 3 } else { 10 }) {
            0 | 1 => rng.pick(WORDS).to_string(),
            2 => "w".repeat(1 + rng.below(12)),
            3 | 4 => rng.pick(HARD).to_string(),
            5 | 6 => rng.pick(EXOTIC).to_string(),
            // A word longer than a line: PyYAML never breaks inside one.
            7 => "L".repeat(70 + rng.below(60)),
            _ => format!("{}{}", rng.pick(WORDS), rng.pick(EXOTIC)),
        };
        if breaks || !unicode_break(&p) {
            return p;
        }
    }
}

/// A string of pieces joined by runs of spaces, often longer than 80
/// columns. A third are ASCII words and spaces only (plain, folded).
fn long_hard_string(rng: &mut Rng, breaks: bool) -> String {
    let target = rng.pick(&[0, 5, 40, 70, 78, 80, 82, 90, 120, 170, 260]) + rng.below(6);
    let ascii_words = rng.chance(33);
    let mut s = String::new();
    if rng.chance(5) {
        s.push(' ');
    }
    while s.chars().count() < target {
        if !s.is_empty() {
            let sep = match rng.below(20) {
                0 => "  ",
                1 => "   ",
                2 => "",
                3 if !ascii_words => "\n",
                _ => " ",
            };
            s.push_str(sep);
        }
        s.push_str(&piece(rng, breaks, ascii_words));
    }
    if rng.chance(5) {
        s.push(' ');
    }
    s
}

fn extra_value(rng: &mut Rng, depth: usize, breaks: bool) -> Json {
    match rng.below(if depth > 1 { 5 } else { 8 }) {
        0 => json!(rng.below(100_000)),
        1 => json!(rng.chance(50)),
        2 => Json::Null,
        3 | 4 => json!(long_hard_string(rng, breaks)),
        5 => Json::Array(
            (0..rng.below(4))
                .map(|_| extra_value(rng, depth + 1, breaks))
                .collect(),
        ),
        _ => {
            let mut m = Map::new();
            for _ in 0..rng.below(4) {
                m.insert(
                    long_hard_string(rng, breaks),
                    extra_value(rng, depth + 1, breaks),
                );
            }
            Json::Object(m)
        }
    }
}

fn record(rng: &mut Rng, i: usize, breaks: bool) -> Json {
    let mut m = Map::new();
    let path = if rng.chance(30) {
        long_hard_string(rng, breaks)
    } else {
        String::new()
    };
    m.insert("_path".into(), json!(format!("/{i:05}{path}")));
    m.insert("content-type".into(), json!(long_hard_string(rng, breaks)));
    if rng.chance(50) {
        let mut cats: Vec<String> = (0..1 + rng.below(4))
            .map(|_| long_hard_string(rng, breaks))
            .collect();
        cats.sort();
        cats.dedup();
        m.insert("categories".into(), json!(cats));
    }
    for _ in 0..rng.below(4) {
        m.insert(long_hard_string(rng, breaks), extra_value(rng, 0, breaks));
    }
    Json::Object(m)
}

/// `count` files of 100 records each.
fn files(seed: u64, count: usize, breaks: bool) -> Json {
    let mut rng = Rng::new(seed);
    const PER_FILE: usize = 100;
    let mut files = Vec::new();
    for f in 0..count {
        let mut docs = vec![if f % 3 == 0 {
            json!({"cnames": ["www.example.com"], "https": true, "x": long_hard_string(&mut rng, breaks)})
        } else {
            json!({})
        }];
        docs.extend((0..PER_FILE).map(|i| record(&mut rng, f * PER_FILE + i, breaks)));
        files.push(Json::Array(docs));
    }
    Json::Array(files)
}

/// For each file: PyYAML's canonical text, and a messy text of the same
/// data. Also which canonical texts PyYAML itself does not load back as
/// the data it dumped.
const DUMP: &str = r#"
import json, random, re, sys, yaml
request = json.load(sys.stdin)
options = request["options"]
rng = random.Random(request["seed"])

# libyaml's emitter (PyYAML's C binding) for the messy files: another
# writer's layout, and many times faster than the Python one.
class Messy(yaml.CDumper):
    pass

def messy_str(dumper, data):
    style = rng.choice([None, None, "'", '"'])
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)

Messy.add_representer(str, messy_str)

def shuffled(value, key=None):
    if isinstance(value, dict):
        items = list(value.items())
        rng.shuffle(items)
        return {k: shuffled(v, k) for k, v in items}
    if isinstance(value, list):
        items = [shuffled(v) for v in value]
        if key == "categories":
            rng.shuffle(items)
        return items
    return value

out = []
not_round_trip = []
dash_in_flow = 0
for i, docs in enumerate(request["files"]):
    canonical = yaml.dump_all(docs, explicit_start=True, sort_keys=True, **options)
    # libyaml's loader (PyYAML's C binding) reads as PyYAML's Python one
    # does here, many times faster.
    if list(yaml.load_all(canonical, Loader=yaml.CSafeLoader)) != docs:
        not_round_trip.append(i)
    records = [shuffled(d) for d in docs[1:]]
    rng.shuffle(records)
    raw_breaks = any(c in json.dumps(docs, ensure_ascii=False) for c in "\x85\u2028\u2029")
    mess = dict(
        Dumper=Messy,
        explicit_start=True,
        sort_keys=False,
        default_flow_style=rng.choice([True, False, None]),
        # Raw NEL, LS and PS read differently in YAML 1.1 and 1.2
        # (docs/format.md): a messy file with them keeps them escaped.
        allow_unicode=not raw_breaks and rng.random() < 0.5,
        width=rng.choice([20, 80, 10**9]),
    )
    messy_docs = [shuffled(docs[0])] + records
    messy = yaml.dump_all(messy_docs, **mess)
    # A plain word `-` right before a flow indicator (`a -,`) inside a flow
    # collection is valid YAML that yaml-rust2 rejects ("plain scalar cannot
    # start with '-' followed by ,[]{}"): such a file is written in block
    # style instead, and counted.
    if mess["default_flow_style"] is not False and re.search(r"(?<=\s)-[,\[\]{}]", messy):
        dash_in_flow += 1
        mess["default_flow_style"] = False
        messy = yaml.dump_all(messy_docs, **mess)
    out.append([canonical, messy])
json.dump({"files": out, "not_round_trip": not_round_trip, "dash_in_flow": dash_in_flow}, sys.stdout)
"#;

struct Dumped {
    canonical: Vec<String>,
    messy: Vec<String>,
    not_round_trip: Vec<usize>,
    /// Messy files written in block style instead of flow style.
    dash_in_flow: u64,
}

fn pyyaml(files: &Json, options: Json, seed: u64) -> Dumped {
    let input = json!({"files": files, "options": options, "seed": seed});
    let input = serde_json::to_vec(&input).expect("json");
    let out = support::run_python(DUMP, &[], &input);
    assert!(
        out.status.success(),
        "PyYAML failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Json = serde_json::from_slice(&out.stdout).expect("PyYAML output");
    let pairs = v["files"].as_array().expect("files");
    let text = |p: &Json, i: usize| p[i].as_str().expect("text").to_string();
    Dumped {
        canonical: pairs.iter().map(|p| text(p, 0)).collect(),
        messy: pairs.iter().map(|p| text(p, 1)).collect(),
        not_round_trip: v["not_round_trip"]
            .as_array()
            .expect("list")
            .iter()
            .filter_map(Json::as_u64)
            .map(|i| i as usize)
            .collect(),
        dash_in_flow: v["dash_in_flow"].as_u64().unwrap_or(0),
    }
}

/// The first line where two texts differ, for a readable failure.
fn first_difference(got: &str, want: &str) -> String {
    let line = got
        .split('\n')
        .zip(want.split('\n'))
        .position(|(a, b)| a != b)
        .unwrap_or(0);
    format!(
        "line {}:\n  urldb:  {:?}\n  PyYAML: {:?}",
        line + 1,
        got.split('\n').nth(line),
        want.split('\n').nth(line)
    )
}

fn agree_with_pyyaml(style: TextStyle, seed: u64, count: usize) {
    let breaks = style == TextStyle::Pyyaml;
    let files = files(seed, count, breaks);
    let options = match style {
        TextStyle::Pyyaml => json!({}),
        TextStyle::Readable => json!({"allow_unicode": true, "width": 1_000_000_000u64}),
    };
    let dumped = pyyaml(&files, options, seed);
    eprintln!(
        "{style:?}: {} messy files written in block style (a `-` before a flow indicator)",
        dumped.dash_in_flow
    );
    // PyYAML's own text loads back as what it dumped: the comparisons
    // below are against the data, not against a PyYAML misreading.
    assert!(
        dumped.not_round_trip.is_empty(),
        "PyYAML does not load its own text back for files {:?}",
        dumped.not_round_trip
    );
    let models = documents(&files);
    let lint = Options {
        settings: urldb_core::config::LintSettings {
            style,
            ..Default::default()
        },
        ..Options::default()
    };
    let render_options = RenderOptions {
        empty_metadata: EmptyMetadata::Braces,
        style,
        ..RenderOptions::default()
    };
    let mut failures = Vec::new();
    for (i, docs) in models.iter().enumerate() {
        let want = &dumped.canonical[i];
        // 2a: the model, rendered.
        let got = render(docs, &render_options);
        if &got != want {
            failures.push(format!(
                "file {i}: render differs, {}",
                first_difference(&got, want)
            ));
            continue;
        }
        // 1: PyYAML's text is canonical and means the generated data.
        let path = Path::new("example.com.yaml");
        let checked = check_bytes(path, want.as_bytes(), &lint);
        match checked.documents.parsed() {
            None => failures.push(format!("file {i}: PyYAML's text did not parse")),
            Some(parsed) if normal_form(parsed) != normal_form(docs) => {
                failures.push(format!("file {i}: PyYAML's text reads as other data"));
            }
            Some(_) if checked.canonical.as_deref() != Some(want.as_str()) => {
                failures.push(format!(
                    "file {i}: fmt would change PyYAML's text: {}",
                    first_difference(checked.canonical.as_deref().unwrap_or(""), want)
                ));
            }
            Some(_) => {}
        }
        // 2b: a messy text of the same data becomes PyYAML's bytes.
        let messy = check_bytes(path, dumped.messy[i].as_bytes(), &lint);
        if messy.canonical.as_deref() != Some(want.as_str()) {
            failures.push(format!(
                "file {i}: the messy text does not format to PyYAML's: {}\n{:?}",
                first_difference(messy.canonical.as_deref().unwrap_or(""), want),
                messy.blocked_by.map(|r| r.code)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} checks failed ({style:?}):\n{}",
        failures.len(),
        models.len() * 3,
        failures[..failures.len().min(8)].join("\n")
    );
}

#[test]
fn pyyaml_style_is_pyyaml_defaults_byte_for_byte() {
    agree_with_pyyaml(TextStyle::Pyyaml, 20261123, 100);
}

/// Half the records: `pyyaml_differential.rs` already holds the readable
/// style to PyYAML on 10,000 records in direction 1; this adds the long
/// values and the messy files.
#[test]
fn readable_style_is_pyyaml_with_unicode_and_no_width() {
    agree_with_pyyaml(TextStyle::Readable, 20261124, 50);
}

/// Domain files the reference tool writes (`dump_all(explicit_start=True,
/// sort_keys=True)`, PyYAML's defaults) from records with long spaced
/// values and non-ASCII text, and flow-style, shuffled versions of them.
const END_TO_END: &str = r#"
import os, random, sys, yaml
out = sys.argv[1]
ADDED_CATEGORY = os.environ["ADDED_CATEGORY"]
rng = random.Random(7)
long = "a long value with many words that PyYAML folds once its line is past eighty columns"
files = {
    "example.com": [{"https": True}] + [
        {"_path": "/page%d" % i, "content-type": "text/html",
         "categories": sorted(["frontend", "caf\u00e9 cr\u00e8me " + long]),
         "title": "Caf\u00e9 \u65e5\u672c \U0001F600 " * (i + 1) + long,
         "note": long + " 'quoted': yes, #" + str(i)}
        for i in range(6)],
    "example.org": [{}] + [
        {"_path": "/doc/%d.pdf" % i, "content-type": "application/pdf",
         "content-length": 1000 + i, "content-sha256": "%064x" % i,
         "summary": (long + " ") * (i % 3 + 1) + "\u2028end\u0085"}
        for i in range(4)],
}
def shuffled(d):
    items = list(d.items())
    rng.shuffle(items)
    return dict(items)
for name, docs in files.items():
    with open(os.path.join(out, "pyyaml", name + ".yaml"), "w", encoding="utf-8", newline="") as f:
        f.write(yaml.dump_all(docs, explicit_start=True, sort_keys=True))
    records = [shuffled(d) for d in docs[1:]]
    rng.shuffle(records)
    with open(os.path.join(out, "messy", name + ".yaml"), "w", encoding="utf-8", newline="") as f:
        f.write(yaml.dump_all([docs[0]] + records, explicit_start=True, sort_keys=False,
                              default_flow_style=True, allow_unicode=True, width=10**9))
    without_first = [docs[0]] + docs[2:]
    with open(os.path.join(out, "rm", name + ".yaml"), "w", encoding="utf-8", newline="") as f:
        f.write(yaml.dump_all(without_first, explicit_start=True, sort_keys=True))
    added = {"_path": "/zz", "categories": [ADDED_CATEGORY], "content-type": "text/html"}
    with open(os.path.join(out, "add", name + ".yaml"), "w", encoding="utf-8", newline="") as f:
        f.write(yaml.dump_all(without_first + [added], explicit_start=True, sort_keys=True))
"#;

/// A category `add` writes: non-ASCII, and long enough to be folded.
const ADDED_CATEGORY: &str =
    "Crème brûlée, and a category long enough to be folded by PyYAML at eighty columns";

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).expect("read")
}

#[test]
fn pyyaml_style_end_to_end() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    for sub in ["db", "pyyaml", "messy", "rm", "add"] {
        std::fs::create_dir(root.join(sub)).expect("mkdir");
    }
    let status = Command::new(support::python())
        .args(["-c", END_TO_END])
        .arg(root)
        .env("ADDED_CATEGORY", ADDED_CATEGORY)
        .status()
        .expect("python3 with PyYAML");
    assert!(status.success());
    let db = root.join("db");
    let names = ["example.com.yaml", "example.org.yaml"];
    let copy = |from: &str| {
        for name in names {
            std::fs::copy(root.join(from).join(name), db.join(name)).expect("copy");
        }
    };
    let code = |args: &[&str]| support::run_in(&db, args).status.code();
    let set_style = |style: &str| {
        std::fs::write(db.join("urldb.toml"), format!("style = \"{style}\"\n")).expect("write")
    };
    let pyyaml = |name: &str| read(&root.join("pyyaml").join(name));
    set_style("pyyaml");

    // What PyYAML wrote is canonical as it is.
    copy("pyyaml");
    assert!(pyyaml("example.com.yaml").contains("\\xE9"));
    assert!(pyyaml("example.com.yaml").contains("\\\n  \\ "));
    assert_eq!(code(&["fmt", "--check"]), Some(0));
    assert_eq!(code(&["check"]), Some(0));
    // The readable style would rewrite it, and the cache does not mix the
    // two verdicts up.
    set_style("readable");
    assert_eq!(code(&["fmt", "--check"]), Some(1));
    set_style("pyyaml");
    assert_eq!(code(&["fmt", "--check"]), Some(0));

    // Flow style, shuffled records and keys, UTF-8: `fmt` writes PyYAML's
    // bytes, and so does `check --fix`; `--diff` shows PyYAML's text.
    copy("messy");
    assert_eq!(code(&["fmt", "--check"]), Some(1));
    assert_eq!(code(&["check"]), Some(1));
    let diff = support::run_in(&db, &["fmt", "--diff"]);
    let first_line = pyyaml("example.com.yaml")
        .lines()
        .find(|l| l.starts_with("note: "))
        .expect("a note line")
        .to_string();
    assert!(
        String::from_utf8_lossy(&diff.stdout).contains(&format!("+{first_line}")),
        "{}",
        String::from_utf8_lossy(&diff.stdout)
    );
    assert_eq!(code(&["fmt"]), Some(0));
    for name in names {
        assert_eq!(read(&db.join(name)), pyyaml(name), "fmt: {name}");
    }
    copy("messy");
    assert_eq!(code(&["check", "--fix"]), Some(0));
    for name in names {
        assert_eq!(read(&db.join(name)), pyyaml(name), "check --fix: {name}");
    }

    // `rm` and `add` write the file as PyYAML would.
    assert_eq!(code(&["rm", "https://example.com/page0"]), Some(0));
    assert_eq!(
        read(&db.join("example.com.yaml")),
        read(&root.join("rm").join("example.com.yaml"))
    );
    let add = [
        "add",
        "--content-type",
        "text/html",
        "--category",
        ADDED_CATEGORY,
        "https://example.com/zz",
    ];
    assert_eq!(code(&add), Some(0));
    assert_eq!(
        read(&db.join("example.com.yaml")),
        read(&root.join("add").join("example.com.yaml"))
    );
}
