//! Fixes as edits on the tree: applying a set of edits to the documents
//! ([`apply_edits`]), and the guard that keeps a fix from turning one
//! record's `_path` into another's ([`guard_path_fixes`]). The loop that
//! applies safe fixes and checks again until nothing changes is
//! [`crate::lint::fix`]; the edits themselves are made by the rules
//! (`rules::diagnostic::Edit`).

use crate::model::node::{Document, Node, Value};
use crate::rules;
use crate::rules::diagnostic::{Edit, Finding, NodePath};

/// A fix that rewrites a record's `_path` into the URL of another record
/// (`/ABC` lowercased beside an existing `/abc`, `/docs#x` beside `/docs`,
/// `/%7Ejoe` beside `/~joe`) would turn its finding into a
/// `duplicate-path`: such a fix is removed, the finding stays (unfixable,
/// saying why), and both records are left as they are for a person to
/// choose. Fixes are weighed in order, so two fixes that would meet are
/// caught too.
pub(crate) fn guard_path_fixes(docs: &[Document], findings: &mut [Finding]) {
    use crate::model::domain;
    use crate::model::path::equivalence_key;
    use std::collections::HashMap;
    // Most files have no fix that sets a value: nothing to weigh.
    let sets_a_value = |f: &Finding| {
        f.fix.as_ref().is_some_and(|fix| {
            fix.edits
                .iter()
                .any(|e| matches!(e, Edit::SetScalar { .. }))
        })
    };
    if !findings.iter().any(sets_a_value) {
        return;
    }
    let case_sensitive = domain::case_sensitive_paths(docs);
    // Each record's `_path` value (span, text) and the key of the URL it
    // will have once the kept fixes are applied; where each `_path` is;
    // how many records each key has.
    let mut records: Vec<(std::ops::Range<usize>, String, String)> = Vec::new();
    let mut by_place: HashMap<NodePath, usize> = HashMap::new();
    let mut by_key: HashMap<String, Vec<usize>> = HashMap::new();
    for record in domain::records(docs) {
        let Some((entry, path)) = record.path_field() else {
            continue;
        };
        let Some(at) = rules::entry_path(record.doc, record.entries, domain::PATH) else {
            continue;
        };
        let key = equivalence_key(path, case_sensitive).into_owned();
        by_place.insert(at, records.len());
        by_key.entry(key.clone()).or_default().push(records.len());
        records.push((entry.value.span.clone(), path.to_string(), key));
    }
    if records.len() < 2 {
        return;
    }
    for finding in findings.iter_mut() {
        let Some(fix) = &finding.fix else { continue };
        let new_path = fix.edits.iter().rev().find_map(|edit| match edit {
            Edit::SetScalar { at, value } => {
                by_place.get(at).map(|&i| (i, value.value.to_string()))
            }
            Edit::Remove { .. } | Edit::Comment { .. } => None,
        });
        let Some((mine, new_path)) = new_path else {
            continue;
        };
        let key = equivalence_key(&new_path, case_sensitive).into_owned();
        let other = by_key
            .get(&key)
            .and_then(|holders| holders.iter().find(|&&i| i != mine))
            .copied();
        match other {
            Some(other) => {
                let (span, other_path, _) = &records[other];
                let note = format!(
                    "not fixed by `--fix`: `{new_path}` would be the same URL as the record `{other_path}`; keep one of the two records"
                );
                finding.help = Some(match finding.help.take() {
                    Some(help) => format!("{help}; {note}"),
                    None => note,
                });
                finding
                    .labels
                    .push((span.clone(), "already this URL".to_string()));
                finding.fix = None;
            }
            None => {
                let old = std::mem::replace(&mut records[mine].2, key.clone());
                if let Some(holders) = by_key.get_mut(&old) {
                    holders.retain(|&i| i != mine);
                }
                by_key.entry(key).or_default().push(mine);
            }
        }
    }
}

/// Apply edits to the documents: comments and scalar replacements first,
/// then removals from the last to the first so that indexes stay valid.
pub fn apply_edits(mut docs: Vec<Document>, mut edits: Vec<Edit>) -> Vec<Document> {
    let rank = |e: &Edit| match e {
        Edit::Comment { .. } => 0,
        Edit::SetScalar { .. } => 1,
        Edit::Remove { .. } => 2,
    };
    edits.sort_by(|a, b| match (a, b) {
        (Edit::Remove { at: x }, Edit::Remove { at: y }) => y.cmp(x),
        _ => rank(a).cmp(&rank(b)),
    });
    edits.dedup_by(
        |a, b| matches!((a, b), (Edit::Remove { at: x }, Edit::Remove { at: y }) if x == y),
    );
    for edit in edits {
        match edit {
            Edit::Comment { span, text } => {
                crate::model::node::rewrite_comment(&mut docs, &span, text);
            }
            Edit::SetScalar { at, value } => {
                if let Some(node) = node_mut(&mut docs, &at) {
                    node.value = Value::Scalar(value);
                }
            }
            Edit::Remove { at } => {
                let Some((&last, parent_steps)) = at.steps.split_last() else {
                    continue;
                };
                let parent = NodePath::new(at.doc, parent_steps);
                let mut orphans = Vec::new();
                if let Some(node) = node_mut(&mut docs, &parent) {
                    orphans = remove_child(node, last);
                }
                // The comments of what was removed are not lost: they go
                // to the entry or item that held it, written after it.
                if !orphans.is_empty() {
                    match crate::model::node::comments_at_mut(&mut docs, parent.doc, &parent.steps)
                    {
                        Some(comments) => comments.after.extend(orphans),
                        None => {
                            if let Some(first) = docs.first_mut() {
                                first.footer.extend(orphans);
                            }
                        }
                    }
                }
            }
        }
    }
    docs
}

/// Remove the entry or item `index` of `node`. Its comments go to the one
/// after it (before it), else the one before it (after it); those that
/// have neither are returned.
fn remove_child(node: &mut Node, index: usize) -> Vec<crate::model::node::Comment> {
    let lines = match &mut node.value {
        Value::Seq(items) if index < items.len() => items.remove(index).take_all_comments(),
        Value::Map(entries) if index < entries.len() => {
            let mut entry = entries.remove(index);
            let mut lines = entry.key.take_all_comments();
            lines.extend(entry.value.take_all_comments());
            lines
        }
        _ => Vec::new(),
    };
    if lines.is_empty() {
        return Vec::new();
    }
    let (next, previous) = match &mut node.value {
        Value::Seq(items) => {
            let len = items.len();
            let (before, after) = items.split_at_mut(index.min(len));
            (after.first_mut(), before.last_mut())
        }
        Value::Map(entries) => {
            let len = entries.len();
            let (before, after) = entries.split_at_mut(index.min(len));
            (
                after.first_mut().map(|e| &mut e.key),
                before.last_mut().map(|e| &mut e.key),
            )
        }
        Value::Scalar(_) => (None, None),
    };
    match (next, previous) {
        (Some(next), _) => {
            let comments = next.comments_mut();
            let mut moved = lines;
            moved.append(&mut comments.before);
            comments.before = moved;
            Vec::new()
        }
        (None, Some(previous)) => {
            previous.comments_mut().after.extend(lines);
            Vec::new()
        }
        (None, None) => lines,
    }
}

fn node_mut<'a>(docs: &'a mut [Document], at: &NodePath) -> Option<&'a mut Node> {
    crate::model::node::node_at_mut(docs, at.doc, &at.steps)
}
