//! Which file removed on one side is which file added on the other: a
//! domain file renamed (a change of domain for every record in it) or
//! moved to another folder (the same domain), rather than every record
//! removed and unrelated records added.
//!
//! Git finds renames by the similarity of lines; a domain file's records
//! are what identify it, so urldb pairs files by their records' `_path`s:
//! the same blob, else the same domain, else at least half the records of
//! the larger of the two under the same `_path`.

use std::collections::{BTreeSet, HashMap};

use super::versions::Version;

/// A `_path` that this many added files share says nothing about which
/// file is which (`/`, `/robots.txt`): it is not counted.
const COMMON: usize = 8;

/// Pairs `(removed, added)` of indices into the two lists, each file in
/// at most one pair.
pub(crate) fn pair(removed: &[&Version], added: &[&Version]) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    let mut taken_removed = vec![false; removed.len()];
    let mut taken_added = vec![false; added.len()];
    let mut take = |r: usize, a: usize, pairs: &mut Vec<(usize, usize)>| {
        if !taken_removed[r] && !taken_added[a] {
            taken_removed[r] = true;
            taken_added[a] = true;
            pairs.push((r, a));
        }
    };
    // The same blob: the file renamed as it was.
    let by_blob: HashMap<gix::ObjectId, usize> = added
        .iter()
        .enumerate()
        .filter_map(|(i, v)| Some((v.blob?, i)))
        .collect();
    for (r, version) in removed.iter().enumerate() {
        if let Some(&a) = version.blob.and_then(|b| by_blob.get(&b)) {
            take(r, a, &mut pairs);
        }
    }
    // The same domain: moved to another folder.
    let mut by_domain: HashMap<&str, usize> = HashMap::new();
    for (a, version) in added.iter().enumerate() {
        by_domain.entry(version.domain.as_str()).or_insert(a);
    }
    for (r, old) in removed.iter().enumerate() {
        if let Some(&a) = by_domain.get(old.domain.as_str()) {
            take(r, a, &mut pairs);
        }
    }
    // Records in common.
    let paths = |v: &Version| -> BTreeSet<String> {
        match &v.content {
            Ok(parsed) => urldb_core::model::domain::records(&parsed.documents)
                .filter_map(|r| r.path().map(str::to_string))
                .collect(),
            Err(_) => BTreeSet::new(),
        }
    };
    let added_paths: Vec<BTreeSet<String>> = added.iter().map(|v| paths(v)).collect();
    let mut holders: HashMap<&str, Vec<usize>> = HashMap::new();
    for (a, set) in added_paths.iter().enumerate() {
        for path in set {
            holders.entry(path.as_str()).or_default().push(a);
        }
    }
    let mut candidates = Vec::new();
    for (r, version) in removed.iter().enumerate() {
        let old = paths(version);
        let mut common: HashMap<usize, usize> = HashMap::new();
        for path in &old {
            match holders.get(path.as_str()) {
                Some(files) if files.len() <= COMMON => {
                    for &a in files {
                        *common.entry(a).or_default() += 1;
                    }
                }
                _ => {}
            }
        }
        for (a, shared) in common {
            if 2 * shared >= old.len().max(added_paths[a].len()) {
                candidates.push((shared, r, a));
            }
        }
    }
    // The most records in common first; ties in the order of the files.
    candidates.sort_by(|x, y| y.0.cmp(&x.0).then((x.1, x.2).cmp(&(y.1, y.2))));
    for (_, r, a) in candidates {
        take(r, a, &mut pairs);
    }
    pairs.sort_unstable();
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::changes::versions::Parsed;

    fn version(name: &str, paths: &[&str]) -> Version {
        let mut text = String::from("---\n");
        for p in paths {
            text.push_str(&format!("---\n_path: {p}\ncontent-type: text/html\n"));
        }
        let tree = urldb_core::parse::read_text(&text);
        Version {
            path: format!("db/{name}.yaml").into(),
            domain: name.to_string(),
            blob: None,
            bytes: Some(text.clone().into_bytes()),
            content: Ok(Parsed {
                text,
                documents: tree.documents,
            }),
        }
    }

    fn pairs(removed: &[Version], added: &[Version]) -> Vec<(usize, usize)> {
        let r: Vec<&Version> = removed.iter().collect();
        let a: Vec<&Version> = added.iter().collect();
        pair(&r, &a)
    }

    #[test]
    fn half_the_records_of_the_larger_file_in_common_make_a_rename() {
        let old = [version("old.example", &["/a", "/b", "/c", "/d"])];
        assert_eq!(
            pairs(&old, &[version("new.example", &["/a", "/b", "/x", "/y"])]),
            [(0, 0)]
        );
        assert_eq!(
            pairs(&old, &[version("new.example", &["/a", "/x", "/y", "/z"])]),
            []
        );
        // Each file in one pair, the most records in common first.
        let added = [
            version("one.example", &["/a", "/b"]),
            version("two.example", &["/a", "/b", "/c", "/d"]),
        ];
        assert_eq!(pairs(&old, &added), [(0, 1)]);
    }

    #[test]
    fn the_same_domain_is_a_move_whatever_the_records() {
        let old = [version("example.com", &["/a"])];
        let added = [
            version("other.example", &["/a"]),
            version("example.com", &["/z"]),
        ];
        assert_eq!(pairs(&old, &added), [(0, 1)]);
    }

    /// A `_path` that many files have (`/`) says nothing of which is which.
    #[test]
    fn a_path_every_file_has_does_not_pair_files() {
        let old = [version("old.example", &["/"])];
        let added: Vec<Version> = (0..=COMMON)
            .map(|i| version(&format!("new{i}.example"), &["/"]))
            .collect();
        assert_eq!(pairs(&old, &added), []);
        assert_eq!(pairs(&old, &added[..1]), [(0, 0)]);
    }
}
