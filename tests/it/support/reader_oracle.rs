//! The reader property and its oracle (`docs/format.md`, "How urldb
//! reads a file"): for every file, either `check` refuses it with a gate
//! finding, or the reference tool — PyYAML's `yaml.safe_load_all` on the
//! file opened in text mode — loads it and reads the same YAML as urldb
//! (documents, each mapping's keys in order, each sequence, each scalar's
//! resolved tag and text), and `fmt` leaves PyYAML's reading as it was.
//!
//! urldb's side is the binary (`check --format json` with `[lint] ignore
//! = ["ALL"]`, which leaves exactly the gate findings; `fmt` in both
//! styles) and the tree its one reader builds (`urldb_core::parse::read`,
//! the function every command reads a domain file through); PyYAML's
//! side is one long-lived Python process (`pyyaml_reader.py`). Files are
//! made by [`generate`]: domain files built from their structure, then
//! mutated a character at a time from an alphabet of everything PyYAML
//! treats specially. `tests/it/hostile/reader.rs` runs a fixed seed;
//! `tools/reader-differential` runs it for a chosen time.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{Value, json};

use super::Rng;

// ---------------------------------------------------------------------
// PyYAML's side.

/// PyYAML's answer about one file.
#[derive(Debug, Clone, serde::Deserialize)]
pub(crate) struct Answer {
    /// Text mode decoded the bytes.
    pub(crate) decoded: bool,
    /// `yaml.safe_load_all` loaded every document.
    pub(crate) loads: bool,
    /// `yaml.compose_all`'s tree, when it composed.
    pub(crate) tree: Option<Vec<Value>>,
    pub(crate) error: Option<String>,
}

/// The reference tool's reader, kept running for many files.
pub(crate) struct PyYaml {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl PyYaml {
    pub(crate) fn start() -> PyYaml {
        let script = super::oracles::repo().join("tests/it/support/pyyaml_reader.py");
        let mut child = Command::new(super::python())
            .arg(script)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start PyYAML's reader");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        PyYaml {
            child,
            stdin,
            stdout,
        }
    }

    /// PyYAML's answer about each of `files`, in order: one request, one
    /// answer, so that neither pipe fills.
    pub(crate) fn read_all(&mut self, files: &[&[u8]]) -> Vec<Answer> {
        files
            .iter()
            .map(|raw| {
                writeln!(self.stdin, "{}", json!({ "hex": hex(raw) }))
                    .and_then(|()| self.stdin.flush())
                    .expect("write to PyYAML");
                let mut line = String::new();
                let n = self.stdout.read_line(&mut line).expect("read PyYAML");
                assert!(n > 0, "PyYAML's reader ended early");
                serde_json::from_str(&line).expect("PyYAML's answer")
            })
            .collect()
    }
}

impl Drop for PyYaml {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn hex(raw: &[u8]) -> String {
    raw.iter().map(|b| format!("{b:02x}")).collect()
}

// ---------------------------------------------------------------------
// urldb's side.

/// The tag PyYAML's composer gives a scalar urldb reads as `implicit`.
fn tag(implicit: urldb_core::model::resolve::Implicit) -> &'static str {
    use urldb_core::model::resolve::Implicit;
    match implicit {
        Implicit::Str => "tag:yaml.org,2002:str",
        Implicit::Bool => "tag:yaml.org,2002:bool",
        Implicit::Float => "tag:yaml.org,2002:float",
        Implicit::Int => "tag:yaml.org,2002:int",
        Implicit::Merge => "tag:yaml.org,2002:merge",
        Implicit::Null => "tag:yaml.org,2002:null",
        Implicit::Timestamp => "tag:yaml.org,2002:timestamp",
        Implicit::Value => "tag:yaml.org,2002:value",
    }
}

fn node_json(node: &urldb_core::model::node::Node) -> Value {
    use urldb_core::model::node::Value as V;
    match &node.value {
        V::Scalar(s) => json!(["s", tag(s.implicit()), s.value.as_str()]),
        V::Seq(items) => json!(["q", items.iter().map(node_json).collect::<Vec<_>>()]),
        V::Map(entries) => json!([
            "m",
            entries
                .iter()
                .map(|e| json!([node_json(&e.key), node_json(&e.value)]))
                .collect::<Vec<_>>()
        ]),
    }
}

/// The YAML tree urldb reads from `raw`, as PyYAML's answer writes one;
/// `None` when urldb's reader refuses the file.
pub(crate) fn urldb_tree(raw: &[u8]) -> Option<Vec<Value>> {
    let read = urldb_core::parse::read(raw)?;
    Some(
        read.documents
            .iter()
            .map(|d| match &d.root {
                Some(root) => node_json(root),
                None => json!(["s", "tag:yaml.org,2002:null", ""]),
            })
            .collect(),
    )
}

// ---------------------------------------------------------------------
// The property, on a batch of files.

/// The rules that compare files with each other: a finding of theirs in a
/// batch may come from the other files, so a file refused only by them is
/// judged again alone.
const ACROSS_FILES: &[&str] = &["domain-conflict", "cname-conflict"];

/// What became of a batch.
#[derive(Debug, Default)]
pub(crate) struct Tally {
    pub(crate) cases: usize,
    /// Refused by `check` (a gate finding).
    pub(crate) refused: usize,
    /// Of those, files PyYAML loads (urldb refuses more: allowed).
    pub(crate) refused_pyyaml_loads: usize,
    /// Passed `check`; PyYAML read the same.
    pub(crate) agreed: usize,
    /// Of those, rewritten by `fmt` (in either style) and read the same.
    pub(crate) formatted: usize,
    /// How many passed with a character of each class in them.
    pub(crate) classes: BTreeMap<&'static str, usize>,
    /// How many were refused with a finding of each rule.
    pub(crate) refused_by: BTreeMap<String, usize>,
}

impl Tally {
    pub(crate) fn add(&mut self, other: &Tally) {
        self.cases += other.cases;
        self.refused += other.refused;
        self.refused_pyyaml_loads += other.refused_pyyaml_loads;
        self.agreed += other.agreed;
        self.formatted += other.formatted;
        for (k, v) in &other.classes {
            *self.classes.entry(k).or_default() += v;
        }
        for (k, v) in &other.refused_by {
            *self.refused_by.entry(k.clone()).or_default() += v;
        }
    }
}

/// A file for which the property does not hold, and why.
#[derive(Debug, Clone)]
pub(crate) struct Failure {
    /// Its place in the run (the first file is 0).
    pub(crate) case: usize,
    pub(crate) bytes: Vec<u8>,
    pub(crate) why: String,
}

/// `check`'s gate verdict on each file, run as one database (files
/// refused only by a rule across files are judged again alone).
fn gate_verdicts(files: &[Vec<u8>]) -> Vec<Option<String>> {
    let dir = tempfile::tempdir().expect("tempdir");
    let names = write_batch(dir.path(), files, "[lint]\nignore = [\"ALL\"]\n");
    let mut verdicts = check_json(dir.path(), &names);
    for (i, verdict) in verdicts.iter_mut().enumerate() {
        let only_across = verdict
            .as_deref()
            .is_some_and(|codes| codes.split(',').all(|c| ACROSS_FILES.contains(&c)));
        if only_across {
            let alone = tempfile::tempdir().expect("tempdir");
            let names = write_batch(
                alone.path(),
                std::slice::from_ref(&files[i]),
                "[lint]\nignore = [\"ALL\"]\n",
            );
            *verdict = check_json(alone.path(), &names).remove(0);
        }
    }
    verdicts
}

/// The name of the `i`th file of a batch: a host name of its own.
fn name(i: usize) -> String {
    format!("f{i}.example.org.yaml")
}

fn write_batch(dir: &Path, files: &[Vec<u8>], config: &str) -> Vec<String> {
    std::fs::write(dir.join("urldb.toml"), config).expect("write urldb.toml");
    files
        .iter()
        .enumerate()
        .map(|(i, raw)| {
            let n = name(i);
            std::fs::write(dir.join(&n), raw).expect("write a case");
            n
        })
        .collect()
}

/// `check --format json` over the files of `dir`: per file, the codes of
/// its findings (comma-separated), or `None`.
fn check_json(dir: &Path, names: &[String]) -> Vec<Option<String>> {
    let out = super::run_in(dir, &["--no-cache", "check", "--format", "json"]);
    let code = out.status.code();
    assert!(
        matches!(code, Some(0 | 1)),
        "check exited {code:?} on a batch: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let findings: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "check's JSON ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    });
    let mut codes: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for f in &findings {
        let path = f["path"].as_str().unwrap_or_default();
        let code = f["code"].as_str().unwrap_or_default().to_string();
        if let Some(n) = names.iter().find(|n| n.as_str() == path) {
            codes.entry(n).or_default().push(code);
        }
    }
    assert_eq!(
        code == Some(1),
        !codes.is_empty(),
        "check's exit code and its findings disagree"
    );
    names
        .iter()
        .map(|n| codes.get(n.as_str()).map(|c| c.join(",")))
        .collect()
}

/// `fmt` over `files` (those that passed) with `config`: each file's new
/// bytes, when `fmt` rewrote it.
fn formatted(files: &[Vec<u8>], config: &str) -> Vec<Option<Vec<u8>>> {
    let dir = tempfile::tempdir().expect("tempdir");
    let names = write_batch(dir.path(), files, config);
    let out = super::run_in(dir.path(), &["--no-cache", "fmt"]);
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "fmt exited {:?} on a batch: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    names
        .iter()
        .zip(files)
        .map(|(n, before)| {
            let after = std::fs::read(dir.path().join(n)).expect("read back");
            (after != *before).then_some(after)
        })
        .collect()
}

/// The classes of characters PyYAML treats specially that `raw` holds.
fn classes(raw: &[u8]) -> Vec<&'static str> {
    let text = String::from_utf8_lossy(raw);
    let mut out = Vec::new();
    let mut has = |name: &'static str, f: &dyn Fn(char) -> bool| {
        if text.chars().any(f) {
            out.push(name);
        }
    };
    has("C0 control", &|c| c < ' ' && !"\t\n\r".contains(c));
    has("DEL or C1", &|c| {
        c == '\u{7f}' || (('\u{80}'..='\u{9f}').contains(&c) && c != '\u{85}')
    });
    has("NEL, LS or PS", &|c| "\u{85}\u{2028}\u{2029}".contains(c));
    has("BOM", &|c| c == '\u{feff}');
    has("U+FFFE or U+FFFF", &|c| c == '\u{fffe}' || c == '\u{ffff}');
    has("tab", &|c| c == '\t');
    has("CR", &|c| c == '\r');
    has("beyond the BMP", &|c| c > '\u{ffff}');
    if text.lines().any(|l| l.starts_with('%')) {
        out.push("directive");
    }
    out
}

/// The property on each of `files`, the first of which is case `first`
/// of its run: the failures, and the tally.
pub(crate) fn judge(files: &[Vec<u8>], first: usize, pyyaml: &mut PyYaml) -> (Vec<Failure>, Tally) {
    let mut tally = Tally {
        cases: files.len(),
        ..Tally::default()
    };
    let mut failures = Vec::new();
    let verdicts = gate_verdicts(files);
    let answers = pyyaml.read_all(&files.iter().map(Vec::as_slice).collect::<Vec<_>>());
    let mut passed: Vec<(usize, Vec<Value>)> = Vec::new();
    for (i, (verdict, answer)) in verdicts.iter().zip(&answers).enumerate() {
        let raw = &files[i];
        if let Some(codes) = verdict {
            let mut codes: Vec<&str> = codes.split(',').collect();
            codes.dedup();
            for code in codes {
                *tally.refused_by.entry(code.to_string()).or_default() += 1;
            }
            tally.refused += 1;
            tally.refused_pyyaml_loads += usize::from(answer.loads);
            continue;
        }
        let fail = |why: String| Failure {
            case: first + i,
            bytes: raw.clone(),
            why,
        };
        if !answer.loads {
            failures.push(fail(format!(
                "`check` passes a file PyYAML refuses: {}",
                answer.error.as_deref().unwrap_or("?")
            )));
            continue;
        }
        let Some(ours) = urldb_tree(raw) else {
            failures.push(fail(
                "`check` passes a file urldb's own reader refuses".to_string(),
            ));
            continue;
        };
        let theirs = answer.tree.clone().unwrap_or_default();
        if ours != theirs {
            failures.push(fail(format!(
                "urldb and PyYAML read different YAML:\n  urldb:  {}\n  PyYAML: {}",
                Value::from(ours),
                Value::from(theirs)
            )));
            continue;
        }
        tally.agreed += 1;
        for class in classes(raw) {
            *tally.classes.entry(class).or_default() += 1;
        }
        passed.push((i, theirs));
    }
    // `fmt` never changes what PyYAML reads, in either style.
    let sources: Vec<Vec<u8>> = passed.iter().map(|(i, _)| files[*i].clone()).collect();
    let mut rewritten = vec![false; passed.len()];
    for config in ["", "style = \"pyyaml\"\n"] {
        let after = formatted(&sources, config);
        let changed: Vec<(usize, Vec<u8>)> = after
            .into_iter()
            .enumerate()
            .filter_map(|(k, a)| Some((k, a?)))
            .collect();
        let answers = pyyaml.read_all(
            &changed
                .iter()
                .map(|(_, a)| a.as_slice())
                .collect::<Vec<_>>(),
        );
        for ((k, text), answer) in changed.iter().zip(answers) {
            rewritten[*k] = true;
            let before = &passed[*k].1;
            let why = if !answer.loads {
                Some(format!(
                    "PyYAML refuses what `fmt` ({}) wrote: {}",
                    style_name(config),
                    answer.error.as_deref().unwrap_or("?")
                ))
            } else {
                let after = answer.tree.unwrap_or_default();
                (normal(before) != normal(&after)).then(|| {
                    format!(
                        "`fmt` ({}) changed what PyYAML reads:\n  before: {}\n  after:  {}\n  written: {:?}",
                        style_name(config),
                        Value::from(before.clone()),
                        Value::from(after),
                        String::from_utf8_lossy(text)
                    )
                })
            };
            if let Some(why) = why {
                failures.push(Failure {
                    case: first + passed[*k].0,
                    bytes: sources[*k].clone(),
                    why,
                });
            }
        }
    }
    tally.formatted = rewritten.iter().filter(|r| **r).count();
    (failures, tally)
}

fn style_name(config: &str) -> &'static str {
    if config.is_empty() {
        "style readable"
    } else {
        "style pyyaml"
    }
}

/// A tree as `fmt` may rewrite it without changing a value
/// (`docs/format.md`): keys in any order, records in any order after the
/// metadata, categories and cnames in any order, an empty metadata
/// document written bare or as `{}`, a null spelled any way, and a string
/// field's value (`_path`, `content-type`, `content-sha256`, each category
/// and cname) read by its text, as urldb reads it and `fmt` writes it: a
/// string whatever YAML 1.1 would type it.
fn normal(docs: &[Value]) -> Vec<Value> {
    const NULL: &str = "tag:yaml.org,2002:null";
    const STR: &str = "tag:yaml.org,2002:str";
    fn as_text(v: &Value) -> Value {
        if v[0] == "s" {
            json!(["s", STR, v[2]])
        } else {
            norm(v, &[], &[])
        }
    }
    fn norm(v: &Value, strings: &[&str], string_lists: &[&str]) -> Value {
        if v[0] == "s" && v[1] == NULL {
            return json!(["s", NULL, ""]);
        }
        match v[0].as_str() {
            Some("q") => json!([
                "q",
                v[1].as_array()
                    .map(|items| items.iter().map(|i| norm(i, &[], &[])).collect::<Vec<_>>())
            ]),
            Some("m") => {
                let mut entries: Vec<Value> = v[1]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|e| {
                        let key = norm(&e[0], &[], &[]);
                        let named =
                            |names: &[&str]| key[0] == "s" && names.iter().any(|k| key[2] == *k);
                        let value = if named(strings) {
                            as_text(&e[1])
                        } else if named(string_lists) && e[1][0] == "q" {
                            let mut items: Vec<Value> = e[1][1]
                                .as_array()
                                .into_iter()
                                .flatten()
                                .map(as_text)
                                .collect();
                            items.sort_by_key(Value::to_string);
                            json!(["q", items])
                        } else {
                            norm(&e[1], &[], &[])
                        };
                        json!([key, value])
                    })
                    .collect();
                entries.sort_by_key(|e| e[0].to_string());
                json!(["m", entries])
            }
            _ => v.clone(),
        }
    }
    let mut out: Vec<Value> = Vec::new();
    for (d, doc) in docs.iter().enumerate() {
        if d == 0 {
            let empty_map = doc[0] == "m" && doc[1].as_array().is_some_and(Vec::is_empty);
            out.push(if empty_map {
                json!(["s", NULL, ""])
            } else {
                norm(doc, &[], &["cnames"])
            });
        } else {
            out.push(norm(
                doc,
                &["_path", "content-type", "content-sha256"],
                &["categories"],
            ));
        }
    }
    if out.len() > 1 {
        out[1..].sort_by_key(Value::to_string);
    }
    out
}

// ---------------------------------------------------------------------
// The generator.

/// One domain file: built from its structure, then mutated a character
/// at a time.
pub(crate) fn generate(rng: &mut Rng) -> Vec<u8> {
    let mut text = structured(rng);
    let mutations = match rng.below(20) {
        0..=6 => 0,
        7..=14 => 1,
        15..=17 => 2,
        _ => 3 + rng.below(4),
    };
    for _ in 0..mutations {
        mutate(rng, &mut text);
    }
    let mut raw = text.into_bytes();
    // Now and then a byte that is not UTF-8 (`invalid-utf8`).
    if rng.chance(2) && !raw.is_empty() {
        let at = rng.below(raw.len());
        raw.insert(at, rng.pick(&[0xFF, 0xC3, 0x80, 0xED]));
    }
    raw
}

/// A domain file as someone might write it: metadata and records, every
/// key kind, plain, quoted, block and flow values, comments, directives,
/// document markers, blank lines, CRLF. Most pass `check`; a few hold
/// what a gate finding refuses.
fn structured(rng: &mut Rng) -> String {
    let mut lines: Vec<String> = Vec::new();
    let bom = rng.chance(5);
    if rng.chance(20) {
        lines.push(rng.pick(COMMENT_LINES).to_string());
    }
    let directives = rng.chance(10);
    if directives {
        for _ in 0..1 + rng.below(2) {
            lines.push(rng.pick(DIRECTIVES).to_string());
        }
    }
    // The metadata document.
    let implicit = !directives && !bom && rng.chance(6);
    if !implicit {
        lines.push(match rng.below(12) {
            0 => "--- {}".to_string(),
            1 => "--- # metadata".to_string(),
            _ => "---".to_string(),
        });
    }
    if !lines.last().is_some_and(|l| l.starts_with("--- {")) {
        let mut keys = vec!["https", "cnames", "case-sensitive-paths", "owner"];
        shuffle(rng, &mut keys);
        keys.truncate(rng.below(5));
        for key in keys {
            match key {
                "cnames" => lines.extend(list(rng, "cnames", CNAMES, 0)),
                "owner" => lines.extend(entry(rng, "owner", 0)),
                _ => lines.push(format!("{key}: {}", rng.pick(BOOLEANS))),
            }
            maybe_comment(rng, &mut lines);
        }
    }
    if rng.chance(6) {
        lines.push("...".to_string());
    }
    // The records.
    for _ in 0..rng.below(4) {
        // Now and then a document after `...` without its `---`, which
        // PyYAML refuses ("expected '<document start>'").
        let bare = lines.last().is_some_and(|l| l == "...") && rng.chance(20);
        if !bare {
            lines.push(
                if rng.chance(10) {
                    "--- # record"
                } else {
                    "---"
                }
                .to_string(),
            );
        }
        if rng.chance(4) {
            // A first key written explicitly: the mapping's column is the
            // `?`'s, from which a block scalar's indentation is measured.
            // Sometimes with node properties between the `?` and the key
            // (a tag, an anchor, the key on the next line: the YAML test
            // suite's L94M), which PyYAML reads as an explicit key too.
            let key = extra_key(rng);
            let properties = ["", "!!str ", "&k ", "!!str &k ", "!!str\n  "];
            let before = rng.pick(&properties);
            lines.push(format!("? {before}{key}"));
            lines.push(format!(": {}", word(rng)));
        }
        let mut keys: Vec<&str> = vec!["_path", "content-type"];
        if rng.chance(50) {
            keys.push("categories");
        }
        if rng.chance(25) {
            keys.extend(["content-length", "content-sha256"]);
        }
        for _ in 0..rng.below(3) {
            let key = extra_key(rng);
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
        if rng.chance(30) {
            shuffle(rng, &mut keys);
        }
        for key in keys {
            match key {
                "_path" => {
                    let paths = if rng.chance(90) { PATHS } else { ODD_PATHS };
                    lines.push(string_entry(rng, key, paths));
                }
                "content-type" => lines.push(string_entry(rng, key, MEDIA_TYPES)),
                "categories" => lines.extend(list(rng, key, CATEGORIES, 0)),
                "content-length" => lines.push(format!("{key}: {}", rng.pick(LENGTHS))),
                "content-sha256" => lines.push(string_entry(rng, key, DIGESTS)),
                _ => lines.extend(entry(rng, key, 0)),
            }
            maybe_comment(rng, &mut lines);
        }
        if rng.chance(5) {
            lines.push("...".to_string());
        }
    }
    // Blank lines here and there.
    for _ in 0..rng.below(3) {
        let at = rng.below(lines.len() + 1);
        lines.insert(at, rng.pick(&["", "  ", "# a note"]).to_string());
    }
    let newline = match rng.below(12) {
        0 => "\r\n",
        1 => "\r",
        _ => "\n",
    };
    let mut text = lines.join(newline);
    if !rng.chance(10) {
        text.push_str(newline);
    }
    if bom {
        text.insert(0, '\u{feff}');
    }
    text
}

fn shuffle<T>(rng: &mut Rng, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.below(i + 1));
    }
}

/// `key: value` (or a nested collection under `key:`) at `indent`: an
/// extra key, whose value may be anything.
fn entry(rng: &mut Rng, key: &str, indent: usize) -> Vec<String> {
    let pad = " ".repeat(indent);
    match rng.below(12) {
        0 if indent < 4 => {
            let mut out = vec![format!("{pad}{key}:")];
            let first = extra_key(rng);
            out.extend(entry(rng, first, indent + 2));
            let second = extra_key(rng);
            if rng.chance(50) && second != first {
                out.extend(entry(rng, second, indent + 2));
            }
            out
        }
        1 => list(rng, key, WORDS, indent),
        2 | 7 => vec![format!("{pad}{key}: {}", flow(rng, 0))],
        3 | 4 => block_scalar(rng, key, indent),
        5 => vec![format!("{pad}{key}:")],
        6 => {
            // A plain or quoted value over two lines.
            let (open, close) = rng.pick(&[("", ""), ("'", "'"), ("\"", "\"")]);
            vec![
                format!("{pad}{key}: {open}{}", word(rng)),
                format!("{pad}  {}{close}", word(rng)),
            ]
        }
        _ => {
            let value = word(rng);
            vec![format!("{pad}{key}: {}", scalar(rng, value))]
        }
    }
}

/// `key: value` for a key whose value is a string (`_path`,
/// `content-type`, `content-sha256`).
fn string_entry(rng: &mut Rng, key: &str, values: &[&str]) -> String {
    let value = rng.pick(values);
    format!("{key}: {}", scalar(rng, value))
}

/// `value` as a scalar: plain, single- or double-quoted.
fn scalar(rng: &mut Rng, value: &str) -> String {
    match rng.below(20) {
        0..=2 => single_quoted(rng, value),
        3..=5 => double_quoted(rng, value),
        _ => value.to_string(),
    }
}

/// A word of an extra value: now and then one YAML reads as something
/// else than text, or that ends the value early, or one at a length limit.
fn word(rng: &mut Rng) -> &'static str {
    if rng.chance(3) {
        let ints = &at_the_limits().ints;
        ints[rng.below(ints.len())].as_str()
    } else if rng.chance(10) {
        rng.pick(ODD_WORDS)
    } else {
        rng.pick(WORDS)
    }
}

/// Keys and words around the length limits PyYAML holds
/// (`docs/format.md`, "Length limits"), built once.
struct AtTheLimits {
    keys: Vec<String>,
    words: Vec<String>,
    ints: Vec<String>,
}

/// Keys of 1,021 to 1,025 characters (the scanner's simple-key limit is
/// 1,024 from the key's start to its `:`; a quote counts), of one-, two-,
/// three- and four-byte characters, since the limit counts characters;
/// words as long, pairs `k…: v` of such keys (a pair in `[…]`), and plain
/// integers of 4,299 to 4,302 digits (Python's `int()` converts 4,300).
fn at_the_limits() -> &'static AtTheLimits {
    static MADE: std::sync::OnceLock<AtTheLimits> = std::sync::OnceLock::new();
    MADE.get_or_init(|| {
        let of = |n: usize, fill: char| -> String {
            std::iter::once('k')
                .chain(std::iter::repeat_n(fill, n - 1))
                .collect()
        };
        let mut keys = Vec::new();
        let mut words = Vec::new();
        let mut ints = Vec::new();
        for fill in ['k', 'é', '日', '😀'] {
            for n in 1021..=1025 {
                keys.push(of(n, fill));
            }
            for n in 1023..=1025 {
                words.push(of(n, fill));
                words.push(format!("{}: v", of(n, fill)));
            }
        }
        for n in 4299..=4302 {
            ints.push(format!("1{}", "2".repeat(n - 1)));
        }
        ints.push(format!("-1_{}", "0".repeat(4300)));
        ints.push(format!("1{}:30", "0".repeat(4300)));
        AtTheLimits { keys, words, ints }
    })
}

fn single_quoted(rng: &mut Rng, value: &str) -> String {
    let extra = if rng.chance(30) {
        rng.pick(&["''", " a''b", "\\", "\"", "#x", " # y", ": z"])
    } else {
        ""
    };
    format!("'{value}{extra}'")
}

fn double_quoted(rng: &mut Rng, value: &str) -> String {
    let extra = if rng.chance(50) {
        rng.pick(ESCAPES)
    } else {
        ""
    };
    format!("\"{value}{extra}\"")
}

/// `key: |` and its lines.
fn block_scalar(rng: &mut Rng, key: &str, indent: usize) -> Vec<String> {
    let pad = " ".repeat(indent);
    let header = rng.pick(&["|", ">", "|-", ">-", "|+", ">+", "|2", ">1", "| # note"]);
    let mut out = vec![format!("{pad}{key}: {header}")];
    // Now and then no content line at all.
    let lines = if rng.chance(20) { 0 } else { 1 + rng.below(3) };
    for _ in 0..lines {
        let more = if rng.chance(20) { "  " } else { "" };
        out.push(match rng.below(8) {
            0 => String::new(),
            1 => format!("{pad} \t"),
            _ => format!("{pad}  {more}{}", rng.pick(WORDS)),
        });
    }
    out
}

/// `key:` and a block list (or a flow one) of `items`.
fn list(rng: &mut Rng, key: &str, items: &[&str], indent: usize) -> Vec<String> {
    let pad = " ".repeat(indent);
    let n = rng.below(4);
    match rng.below(6) {
        0 => {
            let chosen: Vec<&str> = (0..n).map(|_| rng.pick(items)).collect();
            vec![format!("{pad}{key}: [{}]", chosen.join(", "))]
        }
        1 if n == 0 => vec![format!("{pad}{key}: []")],
        _ => {
            let mut out = vec![format!("{pad}{key}:")];
            let inner = if rng.chance(20) { "  " } else { "" };
            for _ in 0..n.max(1) {
                let item = rng.pick(items);
                let item = scalar(rng, item);
                out.push(format!("{pad}{inner}- {item}"));
                maybe_comment(rng, &mut out);
            }
            out
        }
    }
}

/// A flow collection.
fn flow(rng: &mut Rng, depth: usize) -> String {
    let n = rng.below(3);
    let item = |rng: &mut Rng| {
        if depth < 2 && rng.chance(20) {
            flow(rng, depth + 1)
        } else if rng.chance(15) {
            // A word at the length limits, or a pair of a key there.
            let words = &at_the_limits().words;
            words[rng.below(words.len())].clone()
        } else {
            let value = word(rng);
            scalar(rng, value)
        }
    };
    if rng.chance(50) {
        let items: Vec<String> = (0..n).map(|_| item(rng)).collect();
        format!("[{}]", items.join(", "))
    } else {
        let items: Vec<String> = (0..n)
            .map(|_| {
                // Now and then a key at the length limits.
                let k = if rng.chance(25) {
                    let keys = &at_the_limits().keys;
                    keys[rng.below(keys.len())].as_str()
                } else {
                    extra_key(rng)
                };
                // Now and then quoted: the quotes count towards the
                // simple-key limit.
                let k = match rng.below(10) {
                    0 => single_quoted(rng, k),
                    1 => double_quoted(rng, k),
                    _ => k.to_string(),
                };
                if rng.chance(15) {
                    k
                } else if rng.chance(5) {
                    // A key whose ':' is on the next line, which PyYAML
                    // refuses (a simple key is one line).
                    format!("{k}\n      : {}", item(rng))
                } else {
                    format!("{k}: {}", item(rng))
                }
            })
            .collect();
        format!("{{{}}}", items.join(", "))
    }
}

/// Now and then a comment: at the end of the last line, or on a line of
/// its own (a suppression comment among them).
fn maybe_comment(rng: &mut Rng, lines: &mut Vec<String>) {
    if !rng.chance(20) {
        return;
    }
    let comment = rng.pick(COMMENTS);
    match (rng.chance(50), lines.last_mut()) {
        (true, Some(last)) if !last.trim_end().ends_with(['|', '>']) => {
            last.push(' ');
            last.push_str(comment);
        }
        _ => lines.push(comment.to_string()),
    }
}

/// One character-level change: an insertion or replacement from
/// [`ALPHABET`], a deletion, a line break turned into another, a line
/// start given a marker, a line repeated.
fn mutate(rng: &mut Rng, text: &mut String) {
    let boundaries: Vec<usize> = text
        .char_indices()
        .map(|(i, _)| i)
        .chain([text.len()])
        .collect();
    let at = boundaries[rng.below(boundaries.len())];
    let next = text[at..].chars().next().map_or(at, |c| at + c.len_utf8());
    match rng.below(12) {
        0..=3 => text.insert_str(at, rng.pick(ALPHABET)),
        4 | 5 => text.replace_range(at..next, rng.pick(ALPHABET)),
        6 => text.replace_range(at..next, ""),
        7 | 8 => {
            // A line break read as one by PyYAML alone, or the other way.
            let breaks: Vec<usize> = text.match_indices('\n').map(|(i, _)| i).collect();
            if !breaks.is_empty() {
                let b = breaks[rng.below(breaks.len())];
                text.replace_range(b..b + 1, rng.pick(LINE_BREAKS));
            }
        }
        9 | 10 => {
            let starts: Vec<usize> = std::iter::once(0)
                .chain(text.match_indices('\n').map(|(i, _)| i + 1))
                .collect();
            let s = starts[rng.below(starts.len())];
            text.insert_str(s, rng.pick(LINE_STARTS));
        }
        _ => {
            let lines: Vec<&str> = text.split_inclusive('\n').collect();
            if !lines.is_empty() {
                let i = rng.below(lines.len());
                let copy = lines[i].to_string();
                let at: usize = lines[..i].iter().map(|l| l.len()).sum();
                text.insert_str(at, &copy);
            }
        }
    }
}

/// What a mutation inserts: every class of character PyYAML treats
/// specially, and the strings YAML gives a meaning.
const ALPHABET: &[&str] = &[
    // C0 controls, DEL and C1 controls (NEL among them).
    "\u{0}",
    "\u{1}",
    "\u{7}",
    "\u{8}",
    "\u{b}",
    "\u{c}",
    "\u{e}",
    "\u{1b}",
    "\u{1f}",
    "\u{7f}",
    "\u{80}",
    "\u{84}",
    "\u{85}",
    "\u{86}",
    "\u{9b}",
    "\u{9f}",
    // PyYAML's other line breaks, alone and next to spaces.
    "\u{2028}",
    "\u{2029}",
    " \u{2028} ",
    " \u{85}",
    "\u{2029} ",
    "\u{85}\u{85}",
    // A byte order mark mid-file, the non-characters, the edges of the
    // printable ranges, non-breaking space, beyond the BMP.
    "\u{feff}",
    "\u{fffe}",
    "\u{ffff}",
    "\u{fffd}",
    "\u{d7ff}",
    "\u{e000}",
    "\u{a0}",
    "\u{1f600}",
    "\u{10ffff}",
    "é",
    // Tabs, line breaks, spaces.
    "\t",
    " \t",
    "\t ",
    "\n",
    "\r",
    "\r\n",
    " ",
    "  ",
    // Indicators.
    "#",
    " #",
    ":",
    ": ",
    "-",
    "- ",
    "'",
    "\"",
    "\\",
    "%",
    "@",
    "`",
    "!",
    "&",
    "*",
    "|",
    ">",
    "?",
    "? ",
    "[",
    "]",
    "{",
    "}",
    ",",
    ", ",
    // Document markers, at a line's start or not.
    "\n---\n",
    "\n...\n",
    "---",
    "...",
    "\n--- ",
    "\n%YAML 2.0\n---\n",
];

const LINE_BREAKS: &[&str] = &["\u{85}", "\u{2028}", "\u{2029}", "\r", "\r\n", "\u{2028}\n"];

const LINE_STARTS: &[&str] = &[
    "---\n",
    "...\n",
    "--- ",
    "%YAML 2.0\n",
    "%YAML 1.1\n",
    "%TAG !e! tag:example.com,2000:\n",
    "%FOO bar\n",
    "  ",
    "\t",
    "# c\n",
    "- ",
    "? ",
    ": ",
    "\u{feff}",
];

const DIRECTIVES: &[&str] = &[
    "%YAML 1.1",
    "%YAML 1.2",
    "%YAML 1.3",
    "%YAML 2.0",
    "%YAML 0.9",
    "%YAML 1.1.1",
    "%TAG !e! tag:example.com,2000:",
    "%TAG !e! tag:example.com,2000:\n%TAG !e! tag:example.net,2000:",
    "%TAG ! tag:example.com,2000:",
    "%FOO bar baz",
    "%YAML 1.1 # a comment",
    // Directives PyYAML's scanner refuses.
    "%YAML 1",
    "%YAML 1.1x",
    "%TAG !e tag:example.com,2000:",
    "%TAG !e!tag:example.com,2000:",
];

const COMMENT_LINES: &[&str] = &[
    "# owner: web team",
    "# yaml-language-server: $schema=./domain.schema.json",
    "# urldb: ignore-file[not-canonical]",
];

const COMMENTS: &[&str] = &[
    "# reviewed",
    "# checked",
    "# urldb: ignore[not-canonical]",
    "# urldb: ignore[invalid-boolean, unknown-metadata-key]",
    "# urldb: ignore-file[yaml-syntax]",
    "#",
    "# a: b",
    "# ---",
];

const BOOLEANS: &[&str] = &[
    "true", "false", "yes", "no", "True", "FALSE", "on", "off", "y", "1", "~", "",
];

const CNAMES: &[&str] = &[
    "www.example.com",
    "WWW.example.com",
    "cdn.example.net",
    "example.com.",
    "xn--bcher-kva.example",
];

const PATHS: &[&str] = &[
    "/",
    "/a",
    "/guide/caf%C3%A9.html",
    "/index.html?foo=bar",
    "/%7Ejoe",
    "/a:b",
    "/-",
    "/a;p=1?q=2&r",
];

/// Paths a gate finding refuses (`verify` would not request them).
const ODD_PATHS: &[&str] = &["/a b", "/a#top", "/x/../y", "/é", "a", "//h/x"];

const MEDIA_TYPES: &[&str] = &[
    "text/html",
    "text/plain; charset=utf-8",
    "image/x-icon",
    "X-301-Redirect",
    "Text/HTML",
];

const CATEGORIES: &[&str] = &[
    "frontend",
    "deprecated",
    "graphics",
    "redirect-ok",
    "yes",
    "1",
    "a b",
    "café",
];

const LENGTHS: &[&str] = &["1650240", "0", "17", "1650240", "0x1F", "01"];

const DIGESTS: &[&str] = &[
    "fd3589aa8a72beb48939de884e3ee5324b510c145003f375c77cd4ecb1a79672",
    "fd3589aa8a72beb48939de884e3ee5324b510c145003f375c77cd4ecb1a79672",
    "FD3589AA8A72BEB48939DE884E3EE5324B510C145003F375C77CD4ECB1A79672",
    "1234567890123456789012345678901234567890123456789012345678901234",
];

/// An extra key: now and then one YAML 1.1 types as no string.
fn extra_key(rng: &mut Rng) -> &'static str {
    if rng.chance(6) {
        rng.pick(&["yes", "1", "~", "<<", "1.5"])
    } else {
        rng.pick(EXTRA_KEYS)
    }
}

const EXTRA_KEYS: &[&str] = &[
    "title", "note", "name", "date", "k", "a b", "é", "x", "owner-id", "日本",
];

const WORDS: &[&str] = &[
    "a",
    "x y",
    "Café des amis",
    "yes",
    "no",
    "~",
    "null",
    "0x1F",
    "0o17",
    "017",
    "1_000",
    "12:30",
    "190:20:30",
    "2001-12-14",
    "2001-12-14t21:59:43.10-05:00",
    ".inf",
    "-.Inf",
    ".NaN",
    "1.0",
    "1e5",
    "1.5e+3",
    "0123",
    "+1",
    "a:b",
    "a#b",
    "-a",
    "?a",
    "😀",
    "日本",
    "x\\y",
    "http://example.com/?q",
];

/// Words that YAML reads otherwise, or that end the value early.
const ODD_WORDS: &[&str] = &[
    "=",
    "<<",
    "a: b",
    "a #b",
    "- a",
    "[x",
    "&x",
    "*x",
    "!x",
    "%x",
    "@x",
    "`x",
    "2001-02-30",
    "? x",
    ":x",
    "x?",
];

const ESCAPES: &[&str] = &[
    "\\N",
    "\\L",
    "\\P",
    "\\x7F",
    "\\x85",
    "\\t",
    "\\u2028",
    "\\/",
    "\\e",
    "\\ ",
    "\\_",
    "\\0",
    "\\U0001F600",
    "\\\"",
    "\\\\",
    "\\a",
    "\\v",
    "\\uFEFF",
    "\\x",
    "\\q",
    "\\uD800",
    "\\UFFFFFFFF",
    "\\U00110000",
    "\\\t",
    "\\x0",
    "\\ud83d\\ude00",
];
