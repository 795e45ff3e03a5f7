//! Two versions of one domain file compared record by record: a record is
//! known by its `_path` within its file, and a value by what urldb reads
//! in it (its text, whatever its quoting or layout; categories and cnames
//! as sets), so that `fmt` changes nothing here.

use std::collections::{BTreeMap, BTreeSet};

use urldb_core::model::domain::{self, Record};
use urldb_core::model::node::{Document, Node, Value as NodeValue};
use urldb_core::source::LineIndex;
use urldb_core::url::Origin;

use super::versions::Parsed;

/// A value as urldb reads it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Value {
    /// A scalar's text.
    Text(String),
    List(Vec<Value>),
    /// A mapping's entries (keys that are not scalars shown as empty text).
    Map(Vec<(String, Value)>),
}

impl Value {
    fn of(node: &Node) -> Value {
        match &node.value {
            NodeValue::Scalar(s) => Value::Text(s.value.to_string()),
            NodeValue::Seq(items) => Value::List(items.iter().map(Value::of).collect()),
            NodeValue::Map(entries) => Value::Map(
                entries
                    .iter()
                    .map(|e| {
                        (
                            e.key_str().unwrap_or_default().to_string(),
                            Value::of(&e.value),
                        )
                    })
                    .collect(),
            ),
        }
    }

    /// The value as a set, for a list whose order means nothing.
    fn as_set(&self) -> Option<BTreeSet<&Value>> {
        match self {
            Value::List(items) => Some(items.iter().collect()),
            _ => None,
        }
    }
}

/// One key whose value differs: `None` where a side does not have it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyChange {
    pub key: String,
    pub old: Option<Value>,
    pub new: Option<Value>,
}

impl KeyChange {
    /// A metadata key that changes every URL of its domain: its scheme
    /// (`https`), its other hosts (`cnames`), how its paths compare
    /// (`case-sensitive-paths`).
    pub fn changes_every_url(&self) -> bool {
        domain::METADATA_KEYS.contains(&self.key.as_str())
    }
}

/// What happened to a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordKind {
    Added,
    Removed,
    Changed,
}

/// One record added, removed or changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordChange {
    /// Its `_path` (`None`: a record without one that is a scalar).
    pub path: Option<String>,
    pub kind: RecordKind,
    /// The keys that changed (a changed record).
    pub keys: Vec<KeyChange>,
    /// The line of the record on each side that has it (1-based).
    pub old_line: Option<usize>,
    pub new_line: Option<usize>,
    /// Its URL on the new side (the old side's for a removed record),
    /// built from its parts; `None` when none can be.
    pub url: Option<String>,
}

impl RecordChange {
    /// A key `verify` reads changed: the record's URL needs to be
    /// requested again.
    pub fn changes_what_verify_reads(&self) -> bool {
        match self.kind {
            RecordKind::Added => true,
            RecordKind::Removed => false,
            RecordKind::Changed => self
                .keys
                .iter()
                .any(|k| domain::RECORD_KEYS.contains(&k.key.as_str())),
        }
    }
}

/// A record of one side, with what comparing it needs.
struct Side<'a> {
    record: Record<'a>,
    path: Option<&'a str>,
    line: usize,
}

fn records<'a>(parsed: &'a Parsed, lines: &LineIndex) -> Vec<Side<'a>> {
    domain::records(&parsed.documents)
        .map(|record| Side {
            path: record.path(),
            line: lines.line_of(record.node.span.start) + 1,
            record,
        })
        .collect()
}

/// The URL of `path` on a domain's side: its scheme by `https`.
struct Urls(Option<Origin>);

impl Urls {
    fn new(domain: &str, documents: &[Document]) -> Urls {
        let scheme = if domain::https(documents) {
            "https"
        } else {
            "http"
        };
        Urls(Origin::new(scheme, domain).ok())
    }

    fn of(&self, path: Option<&str>) -> Option<String> {
        self.0.as_ref()?.url_of(path?).ok()
    }
}

/// Every record of a file that is there on one side only, as `kind`
/// (added or removed).
pub(crate) fn all(parsed: &Parsed, domain: &str, kind: RecordKind) -> Vec<RecordChange> {
    let lines = LineIndex::new(&parsed.text);
    let urls = Urls::new(domain, &parsed.documents);
    let added = kind == RecordKind::Added;
    records(parsed, &lines)
        .into_iter()
        .map(|r| RecordChange {
            path: r.path.map(str::to_string),
            kind,
            keys: Vec::new(),
            old_line: (!added).then_some(r.line),
            new_line: added.then_some(r.line),
            url: urls.of(r.path),
        })
        .collect()
}

/// The metadata keys and the records that differ between two versions of
/// a domain file (`new_domain` names the new side's URLs: a renamed file
/// changes it).
pub(crate) fn compare(
    old: &Parsed,
    new: &Parsed,
    new_domain: &str,
) -> (Vec<KeyChange>, Vec<RecordChange>) {
    let metadata = metadata(&old.documents, &new.documents);
    let old_lines = LineIndex::new(&old.text);
    let new_lines = LineIndex::new(&new.text);
    let urls = Urls::new(new_domain, &new.documents);
    let old_urls = Urls::new(new_domain, &old.documents);
    // Records by `_path`, each path's records in file order: the k-th
    // record of a path on one side is the k-th on the other.
    let mut by_path: BTreeMap<Option<&str>, (Vec<Side<'_>>, Vec<Side<'_>>)> = BTreeMap::new();
    for r in records(old, &old_lines) {
        by_path.entry(r.path).or_default().0.push(r);
    }
    for r in records(new, &new_lines) {
        by_path.entry(r.path).or_default().1.push(r);
    }
    let mut changes = Vec::new();
    for (path, (olds, news)) in by_path {
        let mut olds = olds.into_iter();
        let mut news = news.into_iter();
        loop {
            let change = match (olds.next(), news.next()) {
                (None, None) => break,
                (Some(o), None) => RecordChange {
                    path: path.map(str::to_string),
                    kind: RecordKind::Removed,
                    keys: Vec::new(),
                    old_line: Some(o.line),
                    new_line: None,
                    url: old_urls.of(path),
                },
                (None, Some(n)) => RecordChange {
                    path: path.map(str::to_string),
                    kind: RecordKind::Added,
                    keys: Vec::new(),
                    old_line: None,
                    new_line: Some(n.line),
                    url: urls.of(path),
                },
                (Some(o), Some(n)) => {
                    let keys = keys(&o.record, &n.record);
                    if keys.is_empty() {
                        continue;
                    }
                    RecordChange {
                        path: path.map(str::to_string),
                        kind: RecordKind::Changed,
                        keys,
                        old_line: Some(o.line),
                        new_line: Some(n.line),
                        url: urls.of(path),
                    }
                }
            };
            changes.push(change);
        }
    }
    // The new file's order, then what it no longer has in the old's.
    changes.sort_by_key(|c| (c.new_line.is_none(), c.new_line.or(c.old_line)));
    (metadata, changes)
}

/// The keys of a record whose values differ, in the new record's order,
/// then those only the old one has.
fn keys(old: &Record<'_>, new: &Record<'_>) -> Vec<KeyChange> {
    let value = |r: &Record<'_>, key: &str| r.get(key).map(|e| Value::of(&e.value));
    let mut names: Vec<&str> = new.entries.iter().filter_map(|e| e.key_str()).collect();
    names.extend(old.entries.iter().filter_map(|e| e.key_str()));
    let mut seen = BTreeSet::new();
    names
        .into_iter()
        .filter(|k| seen.insert(*k))
        .filter_map(|key| {
            let (a, b) = (value(old, key), value(new, key));
            let unordered = key == domain::CATEGORIES;
            (!same(a.as_ref(), b.as_ref(), unordered)).then(|| KeyChange {
                key: key.to_string(),
                old: a,
                new: b,
            })
        })
        .collect()
}

/// Two values mean the same; `unordered`: lists as sets.
fn same(a: Option<&Value>, b: Option<&Value>, unordered: bool) -> bool {
    match (a, b) {
        (Some(a), Some(b)) if unordered => match (a.as_set(), b.as_set()) {
            (Some(x), Some(y)) => x == y,
            _ => a == b,
        },
        (a, b) => a == b,
    }
}

/// The metadata keys that differ. `https` and `case-sensitive-paths` are
/// compared as the values every reader takes (`true`, `yes`; a key left
/// out is its default), `cnames` as a set, any other key as written.
fn metadata(old: &[Document], new: &[Document]) -> Vec<KeyChange> {
    let mut out = Vec::new();
    let flag = |docs: &[Document], key: &str| {
        let on = if key == domain::HTTPS {
            domain::https(docs)
        } else {
            domain::case_sensitive_paths(docs)
        };
        Value::Text(on.to_string())
    };
    for key in [domain::HTTPS, domain::CASE_SENSITIVE_PATHS] {
        let (a, b) = (flag(old, key), flag(new, key));
        if a != b {
            out.push(KeyChange {
                key: key.to_string(),
                old: Some(a),
                new: Some(b),
            });
        }
    }
    let cnames = |docs: &[Document]| {
        Value::List(
            domain::cnames(docs)
                .into_iter()
                .map(|c| Value::Text(c.to_string()))
                .collect(),
        )
    };
    let (a, b) = (cnames(old), cnames(new));
    if !same(Some(&a), Some(&b), true) {
        out.push(KeyChange {
            key: domain::CNAMES.to_string(),
            old: Some(a),
            new: Some(b),
        });
    }
    let entries = |docs| domain::metadata(docs);
    let (old_entries, new_entries) = (entries(old), entries(new));
    let mut seen = BTreeSet::new();
    for key in new_entries
        .iter()
        .chain(old_entries)
        .filter_map(|e| e.key_str())
    {
        if domain::METADATA_KEYS.contains(&key) || !seen.insert(key) {
            continue;
        }
        let value =
            |entries| urldb_core::model::node::get(entries, key).map(|e| Value::of(&e.value));
        let (a, b) = (value(old_entries), value(new_entries));
        if a != b {
            out.push(KeyChange {
                key: key.to_string(),
                old: a,
                new: b,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> Parsed {
        let tree = urldb_core::parse::read_text(text);
        assert!(!tree.incomplete, "{text}");
        Parsed {
            text: text.to_string(),
            documents: tree.documents,
        }
    }

    fn diff(old: &str, new: &str) -> (Vec<KeyChange>, Vec<RecordChange>) {
        compare(&parsed(old), &parsed(new), "example.com")
    }

    #[test]
    fn layout_alone_is_no_change() {
        let old = "---\n---\n_path: /a\ncategories:\n- x\n- y\ncontent-type: text/html\n";
        let new = "--- {}\n---\n{content-type: \"text/html\", _path: '/a', categories: [y, x]}\n";
        assert_eq!(diff(old, new), (Vec::new(), Vec::new()));
    }

    #[test]
    fn records_are_matched_by_path_whatever_their_order() {
        let old = "---\n---\n_path: /a\ncontent-type: text/html\n---\n_path: /b\ncontent-type: text/html\n";
        let new = "---\n---\n_path: /c\ncontent-type: text/html\n---\n_path: /a\ncontent-type: text/plain\n";
        let (meta, records) = diff(old, new);
        assert!(meta.is_empty());
        let seen: Vec<(Option<&str>, RecordKind)> = records
            .iter()
            .map(|r| (r.path.as_deref(), r.kind))
            .collect();
        assert_eq!(
            seen,
            [
                (Some("/c"), RecordKind::Added),
                (Some("/a"), RecordKind::Changed),
                (Some("/b"), RecordKind::Removed),
            ]
        );
        assert_eq!(
            records[1].keys,
            [KeyChange {
                key: "content-type".into(),
                old: Some(Value::Text("text/html".into())),
                new: Some(Value::Text("text/plain".into())),
            }]
        );
        assert_eq!(records[0].url.as_deref(), Some("http://example.com/c"));
        assert!(records[1].changes_what_verify_reads());
    }

    #[test]
    fn a_key_verify_does_not_read_is_a_change_verify_skips() {
        let old = "---\n---\n_path: /a\ncontent-type: text/html\n";
        let new = "---\n---\n_path: /a\ncontent-type: text/html\ntitle: Home\n";
        let (_, records) = diff(old, new);
        assert_eq!(records.len(), 1);
        assert_eq!(records[0].keys[0].old, None);
        assert!(!records[0].changes_what_verify_reads());
    }

    #[test]
    fn metadata_is_compared_as_it_is_read() {
        let same = diff(
            "---\nhttps: yes\ncnames: [b.com, a.com]\n",
            "---\nhttps: true\ncnames: [a.com, b.com]\n",
        );
        assert_eq!(same, (Vec::new(), Vec::new()));
        let (meta, _) = diff(
            "---\n",
            "---\nhttps: true\ncase-sensitive-paths: false\nowner: me\n",
        );
        let keys: Vec<&str> = meta.iter().map(|k| k.key.as_str()).collect();
        assert_eq!(keys, ["https", "case-sensitive-paths", "owner"]);
        assert!(meta[0].changes_every_url() && meta[1].changes_every_url());
        assert!(!meta[2].changes_every_url());
    }

    #[test]
    fn duplicate_paths_pair_in_file_order() {
        let old = "---\n---\n_path: /a\ncontent-type: text/html\n---\n_path: /a\ncontent-type: text/css\n";
        let new = "---\n---\n_path: /a\ncontent-type: text/html\n";
        let (_, records) = diff(old, new);
        assert_eq!(records.len(), 1);
        assert_eq!(records[0].kind, RecordKind::Removed);
        assert_eq!(records[0].old_line, Some(6));
    }
}
