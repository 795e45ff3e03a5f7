//! The property the merge promises (`docs/git.md`, "Merging"): for a
//! random domain file and two random edit sets applied to it (records
//! added, removed, respelled as an equivalent URL, keys set and removed
//! with their comments, categories and cnames added and removed, record
//! comments, `https`), in both styles, the merge is what a model of the
//! file merged atom by atom says: when the sets touch disjoint records or
//! keys, the canonical text of the base with both sets applied, the same
//! bytes with ours and theirs swapped; a side merged with the base is that
//! side; and when they conflict, the conflicts are exactly the records or
//! keys both changed differently, and taking either side of every block
//! gives the merge with that side's version of each.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use urldb_core::merge::{Conflict, MergeOptions, Part, merge};
use urldb_core::model::node::{Comment, Comments, Document, Entry, Node, Scalar, Value};
use urldb_core::render::{RenderOptions, TextStyle, render};

/// Values keys are set to: strings the two styles write differently
/// (non-ASCII, a line PyYAML folds), numbers, text that needs quotes.
const VALUES: [&str; 7] = [
    "text/html",
    "text/plain",
    "12",
    "caf\u{e9}",
    "yes",
    "a long value of many words that the pyyaml style folds at eighty columns, so that it \
     takes two lines",
    "x: y",
];
const KEYS: [&str; 3] = ["content-type", "content-length", "x-note"];
const CATEGORIES: [&str; 4] = ["api", "blog", "docs", "redirect-ok"];
const CNAMES: [&str; 3] = ["a.example.org", "b.example.org", "c.example.org"];
/// How a record's `_path` is spelled: three spellings of one URL.
const SPELLINGS: [&str; 3] = ["~", "%7E", "%7e"];

#[derive(Debug, Clone, PartialEq, Eq)]
struct Key {
    value: &'static str,
    comment: Option<u8>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Rec {
    spelling: usize,
    keys: BTreeMap<&'static str, Key>,
    categories: BTreeSet<&'static str>,
    comment: Option<u8>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct File {
    https: Option<bool>,
    cnames: BTreeSet<&'static str>,
    records: BTreeMap<u8, Rec>,
}

fn path(id: u8, spelling: usize) -> String {
    format!("/r{id}/a{}b", SPELLINGS[spelling])
}

/// One edit: what it does, to which record (of those there are, or a new
/// one), with which value.
#[derive(Debug, Clone, Copy)]
struct Edit {
    op: u8,
    target: u8,
    pick: u8,
}

fn edit() -> impl Strategy<Value = Edit> {
    (0u8..9, 0u8..6, any::<u8>()).prop_map(|(op, target, pick)| Edit { op, target, pick })
}

fn pick<T: Copy>(list: &[T], n: u8) -> T {
    list[n as usize % list.len()]
}

fn apply(file: &mut File, edit: Edit) {
    let existing: Vec<u8> = file.records.keys().copied().collect();
    let id = if existing.is_empty() {
        None
    } else {
        Some(existing[edit.target as usize % existing.len()])
    };
    let key = |n: u8| Key {
        value: pick(&VALUES, n),
        comment: n.is_multiple_of(3).then_some(n % 5),
    };
    match (edit.op, id) {
        (0, _) => {
            let mut rec = Rec {
                spelling: edit.pick as usize % 3,
                keys: BTreeMap::new(),
                categories: BTreeSet::new(),
                comment: None,
            };
            if edit.pick.is_multiple_of(2) {
                rec.keys
                    .insert(pick(&KEYS, edit.pick / 3), key(edit.pick / 7));
            }
            file.records.entry(edit.target).or_insert(rec);
        }
        (1, Some(id)) => {
            file.records.remove(&id);
        }
        (2, Some(id)) => {
            if let Some(r) = file.records.get_mut(&id) {
                r.spelling = (r.spelling + 1 + edit.pick as usize % 2) % 3;
            }
        }
        (3 | 4, Some(id)) => {
            if let Some(r) = file.records.get_mut(&id) {
                let k = pick(&KEYS, edit.pick);
                if edit.pick % 4 == 3 {
                    r.keys.remove(k);
                } else {
                    r.keys.insert(k, key(edit.pick / 4));
                }
            }
        }
        (5, Some(id)) => {
            if let Some(r) = file.records.get_mut(&id) {
                let c = pick(&CATEGORIES, edit.pick);
                if !r.categories.remove(c) {
                    r.categories.insert(c);
                }
            }
        }
        (6, Some(id)) => {
            if let Some(r) = file.records.get_mut(&id) {
                r.comment = (!edit.pick.is_multiple_of(4)).then_some(edit.pick % 7);
            }
        }
        (7, _) => file.https = [None, Some(true), Some(false)][edit.pick as usize % 3],
        (8, _) => {
            let c = pick(&CNAMES, edit.pick);
            if !file.cnames.remove(c) {
                file.cnames.insert(c);
            }
        }
        _ => {}
    }
}

fn comment(text: String) -> Comments {
    Comments {
        before: vec![Comment { text, span: 0..0 }],
        ..Default::default()
    }
}

fn scalar(value: &str) -> Node {
    Node::new(Value::Scalar(Scalar::string(value)), 0..0)
}

fn entry(key: &str, value: Node, note: Option<u8>) -> Entry {
    let mut key = scalar(key);
    key.comments = note.map(|n| Box::new(comment(format!("# note {n}"))));
    Entry { key, value }
}

fn list(items: &BTreeSet<&'static str>) -> Node {
    Node::new(Value::Seq(items.iter().map(|c| scalar(c)).collect()), 0..0)
}

fn documents(file: &File) -> Vec<Document> {
    let mut meta = Vec::new();
    if let Some(https) = file.https {
        meta.push(entry(
            "https",
            Node::new(Value::Scalar(Scalar::plain(https.to_string())), 0..0),
            None,
        ));
    }
    if !file.cnames.is_empty() {
        meta.push(entry("cnames", list(&file.cnames), None));
    }
    let mut docs = vec![Document {
        root: (!meta.is_empty()).then(|| Node::new(Value::Map(meta), 0..0)),
        comments: comment("# header".into()),
        ..Default::default()
    }];
    for (id, rec) in &file.records {
        let mut entries = vec![entry("_path", scalar(&path(*id, rec.spelling)), None)];
        for (k, v) in &rec.keys {
            let value = if *k == "content-length" {
                Node::new(
                    Value::Scalar(Scalar::plain(v.value.len().to_string())),
                    0..0,
                )
            } else {
                scalar(v.value)
            };
            entries.push(entry(k, value, v.comment));
        }
        if !rec.categories.is_empty() {
            entries.push(entry("categories", list(&rec.categories), None));
        }
        docs.push(Document {
            root: Some(Node::new(Value::Map(entries), 0..0)),
            comments: rec
                .comment
                .map(|n| comment(format!("# record {n}")))
                .unwrap_or_default(),
            ..Default::default()
        });
    }
    docs
}

fn text(file: &File, style: TextStyle) -> String {
    render(
        &documents(file),
        &RenderOptions {
            style,
            ..Default::default()
        },
    )
}

/// Three-way on one atom: the merged value, or `None` for a conflict.
fn three<T: PartialEq + Clone>(b: &T, o: &T, t: &T) -> Option<T> {
    if o == t || b == t {
        Some(o.clone())
    } else if b == o {
        Some(t.clone())
    } else {
        None
    }
}

fn set<T: Ord + Clone>(b: &BTreeSet<T>, o: &BTreeSet<T>, t: &BTreeSet<T>) -> BTreeSet<T> {
    o.union(t)
        .filter(|x| (o.contains(x) && t.contains(x)) || !b.contains(x))
        .cloned()
        .collect()
}

/// The model's merge: the file with ours' side of each conflict, the one
/// with theirs', and the conflicts.
fn model_merge(b: &File, o: &File, t: &File) -> (File, File, BTreeSet<Conflict>) {
    let mut conflicts = BTreeSet::new();
    let mut ours = File {
        https: o.https,
        cnames: set(&b.cnames, &o.cnames, &t.cnames),
        records: BTreeMap::new(),
    };
    let mut theirs = ours.clone();
    match three(&b.https, &o.https, &t.https) {
        Some(h) => (ours.https, theirs.https) = (h, h),
        None => {
            theirs.https = t.https;
            conflicts.insert(Conflict {
                record: None,
                part: Part::Key("https".into()),
            });
        }
    }
    let ids: BTreeSet<u8> = [b, o, t]
        .iter()
        .flat_map(|f| f.records.keys().copied())
        .collect();
    for id in ids {
        let (rb, ro, rt) = (b.records.get(&id), o.records.get(&id), t.records.get(&id));
        let name = |r: &Rec| Some(path(id, r.spelling));
        let mut whole = |ours: &mut File, theirs: &mut File| {
            conflicts.insert(Conflict {
                record: ro.or(rt).and_then(name),
                part: Part::Record,
            });
            ours.records.extend(ro.map(|r| (id, r.clone())));
            theirs.records.extend(rt.map(|r| (id, r.clone())));
        };
        if let Some(r) = three(&rb, &ro, &rt) {
            if let Some(r) = r {
                ours.records.insert(id, r.clone());
                theirs.records.insert(id, r.clone());
            }
            continue;
        }
        match (rb, ro, rt) {
            (Some(rb), Some(ro), Some(rt)) => {
                let mut mo = ro.clone();
                let mut mt = ro.clone();
                let mut parts = Vec::new();
                match three(&rb.spelling, &ro.spelling, &rt.spelling) {
                    Some(s) => (mo.spelling, mt.spelling) = (s, s),
                    None => {
                        mt.spelling = rt.spelling;
                        parts.push(Part::Key("_path".into()));
                    }
                }
                for k in KEYS {
                    let (kb, ko, kt) = (rb.keys.get(k), ro.keys.get(k), rt.keys.get(k));
                    let (so, st) = match three(&kb, &ko, &kt) {
                        Some(v) => (v, v),
                        None => {
                            parts.push(Part::Key(k.into()));
                            (ko, kt)
                        }
                    };
                    mo.keys.remove(k);
                    mt.keys.remove(k);
                    mo.keys.extend(so.map(|v| (k, v.clone())));
                    mt.keys.extend(st.map(|v| (k, v.clone())));
                }
                let c = set(&rb.categories, &ro.categories, &rt.categories);
                (mo.categories, mt.categories) = (c.clone(), c);
                match three(&rb.comment, &ro.comment, &rt.comment) {
                    Some(c) => (mo.comment, mt.comment) = (c, c),
                    None => {
                        mt.comment = rt.comment;
                        parts.push(Part::Comments);
                    }
                }
                for part in parts {
                    conflicts.insert(Conflict {
                        record: Some(path(id, mo.spelling)),
                        part,
                    });
                }
                ours.records.insert(id, mo);
                theirs.records.insert(id, mt);
            }
            (None, Some(ro), Some(rt))
                if Rec {
                    spelling: 0,
                    ..ro.clone()
                } == Rec {
                    spelling: 0,
                    ..rt.clone()
                } =>
            {
                ours.records.insert(id, ro.clone());
                theirs.records.insert(id, ro.clone());
            }
            _ => whole(&mut ours, &mut theirs),
        }
    }
    (ours, theirs, conflicts)
}

/// The text with every conflict block resolved as ours (`ours`) or theirs.
fn resolve(text: &str, ours: bool) -> String {
    let mut out = String::new();
    let mut section = 0; // 0: outside, 1: ours, 2: base, 3: theirs
    for line in text.split_inclusive('\n') {
        section = match (section, line.get(..7)) {
            (0, Some("<<<<<<<")) => 1,
            (1, Some("|||||||")) => 2,
            (2, Some("=======")) => 3,
            (3, Some(">>>>>>>")) => 0,
            _ => {
                if section == 0 || (section == 1 && ours) || (section == 3 && !ours) {
                    out.push_str(line);
                }
                continue;
            }
        };
    }
    out
}

/// A file of up to six records, then edited at random.
fn file() -> impl Strategy<Value = File> {
    (
        prop::collection::vec(any::<u8>(), 0..6),
        prop::collection::vec(edit(), 0..12),
    )
        .prop_map(|(added, edits)| {
            let mut f = File::default();
            for (target, pick) in added.into_iter().enumerate() {
                let target = target as u8;
                apply(
                    &mut f,
                    Edit {
                        op: 0,
                        target,
                        pick,
                    },
                );
            }
            for e in edits {
                apply(&mut f, e);
            }
            f
        })
}

proptest! {
    #![proptest_config(crate::support::property_config(256))]

    #[test]
    fn the_merge_is_the_models(
        base in file(),
        ours_edits in prop::collection::vec(edit(), 0..8),
        theirs_edits in prop::collection::vec(edit(), 0..8),
        pyyaml in any::<bool>(),
    ) {
        let style = if pyyaml { TextStyle::Pyyaml } else { TextStyle::Readable };
        let (mut ours, mut theirs) = (base.clone(), base.clone());
        ours_edits.iter().for_each(|e| apply(&mut ours, *e));
        theirs_edits.iter().for_each(|e| apply(&mut theirs, *e));
        let (tb, to, tt) = (text(&base, style), text(&ours, style), text(&theirs, style));
        let options = MergeOptions { style, ..Default::default() };
        let merged = merge(&tb, &to, &tt, &options).expect("mergeable");
        let (as_ours, as_theirs, conflicts) = model_merge(&base, &ours, &theirs);
        let found: BTreeSet<Conflict> = merged.conflicts.iter().cloned().collect();
        prop_assert_eq!(&found, &conflicts, "{}", merged.text);
        prop_assert_eq!(merged.conflicts.len(), conflicts.len());
        prop_assert_eq!(resolve(&merged.text, true), text(&as_ours, style), "{}", merged.text);
        prop_assert_eq!(resolve(&merged.text, false), text(&as_theirs, style), "{}", merged.text);
        let added_on_both = ours.records.keys().any(|id| {
            !base.records.contains_key(id) && theirs.records.contains_key(id)
        });
        if conflicts.is_empty() {
            prop_assert_eq!(&merged.text, &text(&as_ours, style));
            if !added_on_both {
                let swapped = merge(&tb, &tt, &to, &options).expect("mergeable");
                prop_assert_eq!(&swapped.text, &merged.text);
            }
        }
        for side in [&to, &tt] {
            let with_base = merge(&tb, side, &tb, &options).expect("mergeable");
            prop_assert_eq!(&with_base.text, side);
            let from_base = merge(&tb, &tb, side, &options).expect("mergeable");
            prop_assert_eq!(&from_base.text, side);
        }
    }
}
