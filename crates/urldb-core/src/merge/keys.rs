//! The merge of one mapping that both sides changed (a record, or the
//! metadata), key by key: a key changed on one side takes that side's
//! entry, with its comments; a key changed on both to different entries is
//! a conflict, but for the one list that is a set (`categories` of a
//! record, `cnames` of the metadata), whose items are merged as a set.

use crate::model::node::{Entry, Node, Value};

/// The mapping merged: ours' entry for each conflicting key (none when
/// ours has no such key), and the conflicting keys in ours' order, then
/// theirs'.
pub(super) struct Keys {
    pub entries: Vec<Entry>,
    pub conflicts: Vec<String>,
}

/// Merge `ours` and `theirs` against `base`, `same` saying whether two
/// entries of a key are the same (as written in canonical text, comments
/// included). `None` when a mapping has a key that is no string, or the
/// same key twice: it is not merged key by key.
pub(super) fn merge(
    base: &[Entry],
    ours: &[Entry],
    theirs: &[Entry],
    set_key: &str,
    same: impl Fn(&Entry, &Entry) -> bool,
) -> Option<Keys> {
    let (b, o, t) = (names(base)?, names(ours)?, names(theirs)?);
    let mut keys: Vec<&str> = o.clone();
    keys.extend(t.iter().filter(|k| !o.contains(k)));
    keys.extend(b.iter().filter(|k| !o.contains(k) && !t.contains(k)));
    let find = |entries: &'_ [Entry], key: &str| -> Option<Entry> {
        entries.iter().find(|e| e.key_str() == Some(key)).cloned()
    };
    let equal = |a: &Option<Entry>, b: &Option<Entry>| match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => same(a, b),
        _ => false,
    };
    let mut out = Keys {
        entries: Vec::new(),
        conflicts: Vec::new(),
    };
    for key in keys {
        let (eb, eo, et) = (find(base, key), find(ours, key), find(theirs, key));
        let taken = if equal(&eo, &et) || equal(&eb, &et) {
            eo
        } else if equal(&eb, &eo) {
            et
        } else if key == set_key
            && let Some(merged) = as_set(eb.as_ref(), eo.as_ref(), et.as_ref())
        {
            merged
        } else {
            out.conflicts.push(key.to_string());
            eo
        };
        out.entries.extend(taken);
    }
    Some(out)
}

/// The keys of a mapping, or `None` when one is no string or repeats.
fn names(entries: &[Entry]) -> Option<Vec<&str>> {
    let mut names: Vec<&str> = Vec::with_capacity(entries.len());
    for entry in entries {
        let key = entry.key_str()?;
        if names.contains(&key) {
            return None;
        }
        names.push(key);
    }
    Some(names)
}

/// A list of strings changed on both sides, merged as a set: an item
/// either side added is in, one either side removed is out; a side
/// without the key has none (the key is left out when none is left).
/// `None` when a value is not a list of strings.
fn as_set(
    base: Option<&Entry>,
    ours: Option<&Entry>,
    theirs: Option<&Entry>,
) -> Option<Option<Entry>> {
    let items = |e: Option<&Entry>| -> Option<Vec<(String, Node)>> {
        let Some(e) = e else {
            return Some(Vec::new());
        };
        let list = e.value.as_seq()?;
        list.iter()
            .map(|n| Some((n.as_scalar()?.value.to_string(), n.clone())))
            .collect()
    };
    let b = items(base)?;
    let (o, t) = (items(ours)?, items(theirs)?);
    let has = |list: &[(String, Node)], v: &str| list.iter().any(|(x, _)| x == v);
    let mut merged: Vec<Node> = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for (value, node) in o.iter().chain(&t) {
        if seen.contains(&value.as_str()) {
            continue;
        }
        let in_both = has(&o, value) && has(&t, value);
        let added = !has(&b, value);
        if in_both || added {
            seen.push(value);
            merged.push(node.clone());
        }
    }
    if merged.is_empty() {
        return Some(None);
    }
    let mut entry = ours.or(theirs)?.clone();
    entry.value.value = Value::Seq(merged);
    Some(Some(entry))
}
