//! The property `urldb diff` promises: for any database and any edits of
//! its records and metadata, written in any layout, the change set is
//! exactly the edits made — each record added, removed or changed (with
//! the keys that changed), each metadata key changed — and a change of
//! layout alone (order of records, keys, categories; quoting; flow or
//! block style) is none. Random databases and edits from a seeded
//! generator, checked through the binary against a real repository.

use std::collections::{BTreeMap, BTreeSet};

use super::{Repo, diff_json};
use crate::support::Rng;

const TYPES: [&str; 4] = ["text/html", "text/plain", "application/pdf", "image/png"];
const CATEGORIES: [&str; 4] = ["docs", "api", "redirect-ok", "blog"];

#[derive(Debug, Clone, PartialEq)]
struct Record {
    content_type: &'static str,
    categories: BTreeSet<&'static str>,
    title: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
struct File {
    https: bool,
    records: BTreeMap<String, Record>,
}

fn random_record(rng: &mut Rng) -> Record {
    let mut categories = BTreeSet::new();
    for _ in 0..rng.below(3) {
        categories.insert(rng.pick(&CATEGORIES));
    }
    Record {
        content_type: rng.pick(&TYPES),
        categories,
        title: rng.chance(30).then(|| format!("title {}", rng.below(5))),
    }
}

/// A domain file's text in one of several layouts, all read the same.
fn render(file: &File, rng: &mut Rng) -> String {
    let mut text = match (file.https, rng.below(3)) {
        (false, 0) => "---\n",
        (false, 1) => "--- {}\n",
        (false, _) => "---\nhttps: false\n",
        (true, 0) => "---\nhttps: true\n",
        (true, 1) => "--- {https: yes}\n",
        (true, _) => "---\nhttps: True\n",
    }
    .to_string();
    let mut records: Vec<(&String, &Record)> = file.records.iter().collect();
    if rng.chance(50) {
        records.reverse();
    }
    for (path, record) in records {
        let mut categories: Vec<&str> = record.categories.iter().copied().collect();
        if rng.chance(50) {
            categories.reverse();
        }
        let title = record.title.as_deref();
        if rng.chance(50) {
            // Block style, keys in canonical order, plain scalars.
            text.push_str(&format!("---\n_path: {path}\n"));
            if !categories.is_empty() {
                text.push_str("categories:\n");
                for c in &categories {
                    text.push_str(&format!("- {c}\n"));
                }
            }
            text.push_str(&format!("content-type: {}\n", record.content_type));
            if let Some(t) = title {
                text.push_str(&format!("title: {t}\n"));
            }
        } else {
            // Flow style, keys out of order, quoted scalars.
            let mut parts = vec![format!("content-type: \"{}\"", record.content_type)];
            if let Some(t) = title {
                parts.push(format!("title: '{t}'"));
            }
            parts.push(format!("_path: '{path}'"));
            if !categories.is_empty() {
                parts.push(format!("categories: [{}]", categories.join(", ")));
            }
            text.push_str(&format!("---\n{{{}}}\n", parts.join(", ")));
        }
    }
    text
}

/// What `urldb diff` says of one record: `(file, _path, status, keys)`.
type Change = (String, String, String, BTreeSet<String>);

/// Edit `files` at random; the record changes and metadata changes made.
fn edit(
    files: &mut BTreeMap<String, File>,
    rng: &mut Rng,
) -> (BTreeSet<Change>, BTreeSet<(String, String)>) {
    let mut changes: BTreeMap<(String, String), (String, BTreeSet<String>)> = BTreeMap::new();
    let mut metadata = BTreeSet::new();
    let names: Vec<String> = files.keys().cloned().collect();
    for _ in 0..rng.below(6) {
        let name = names[rng.below(names.len())].clone();
        let file = files.get_mut(&name).expect("file");
        let shown = format!("db/{name}.yaml");
        match rng.below(6) {
            0 => {
                let path = format!("/new-{}", rng.below(1000));
                if file.records.contains_key(&path) {
                    continue;
                }
                file.records.insert(path.clone(), random_record(rng));
                changes.insert((shown, path), ("added".into(), BTreeSet::new()));
            }
            1 => {
                let Some(path) = file.records.keys().next().cloned() else {
                    continue;
                };
                file.records.remove(&path);
                let key = (shown, path);
                // Removed after being added or changed in this run:
                match changes.remove(&key) {
                    Some((status, _)) if status == "added" => {}
                    _ => {
                        changes.insert(key, ("removed".into(), BTreeSet::new()));
                    }
                }
            }
            2..=4 => {
                let Some(path) = file
                    .records
                    .keys()
                    .nth(rng.below(file.records.len().max(1)))
                    .cloned()
                else {
                    continue;
                };
                let record = file.records.get_mut(&path).expect("record");
                let key = match rng.below(3) {
                    0 => {
                        record.content_type = rng.pick(&TYPES);
                        "content-type"
                    }
                    1 => {
                        let c = rng.pick(&CATEGORIES);
                        if !record.categories.remove(c) {
                            record.categories.insert(c);
                        }
                        "categories"
                    }
                    _ => {
                        record.title = Some(format!("title {}", rng.below(50)));
                        "title"
                    }
                };
                let entry = changes
                    .entry((shown, path))
                    .or_insert(("changed".into(), BTreeSet::new()));
                if entry.0 == "changed" {
                    entry.1.insert(key.to_string());
                }
            }
            _ => {
                file.https = !file.https;
                if !metadata.remove(&(shown.clone(), "https".to_string())) {
                    metadata.insert((shown, "https".to_string()));
                }
            }
        }
    }
    let records = changes
        .into_iter()
        .map(|((file, path), (status, keys))| (file, path, status, keys))
        .collect();
    (records, metadata)
}

#[test]
fn the_change_set_is_the_edits_made_whatever_the_layout() {
    for seed in 0..24 {
        let mut rng = Rng::new(seed);
        let mut files = BTreeMap::new();
        for i in 0..1 + rng.below(3) {
            let mut records = BTreeMap::new();
            for _ in 0..rng.below(6) {
                records.insert(format!("/p{}", rng.below(40)), random_record(&mut rng));
            }
            files.insert(
                format!("site{i}.example"),
                File {
                    https: rng.chance(50),
                    records,
                },
            );
        }
        let repo = Repo::new();
        for (name, file) in &files {
            repo.write(&format!("{name}.yaml"), &render(file, &mut rng));
        }
        let base = repo.commit("base");
        let before = files.clone();
        let (mut expected, expected_metadata) = edit(&mut files, &mut rng);
        // A record changed back to what it was is no change.
        expected.retain(|(file, path, status, _)| {
            status != "changed" || {
                let name = file.trim_start_matches("db/").trim_end_matches(".yaml");
                before[name].records.get(path) != files[name].records.get(path)
            }
        });
        let expected: BTreeSet<Change> = expected
            .into_iter()
            .map(|(file, path, status, keys)| {
                let name = file
                    .trim_start_matches("db/")
                    .trim_end_matches(".yaml")
                    .to_string();
                let keys = if status == "changed" {
                    let (old, new) = (&before[&name].records[&path], &files[&name].records[&path]);
                    let mut keys = BTreeSet::new();
                    if old.content_type != new.content_type {
                        keys.insert("content-type".to_string());
                    }
                    if old.categories != new.categories {
                        keys.insert("categories".to_string());
                    }
                    if old.title != new.title {
                        keys.insert("title".to_string());
                    }
                    keys
                } else {
                    keys
                };
                (file, path, status, keys)
            })
            .collect();
        for (name, file) in &files {
            repo.write(&format!("{name}.yaml"), &render(file, &mut rng));
        }
        let json = diff_json(&repo, &[&base]);
        let mut got = BTreeSet::new();
        let mut got_metadata = BTreeSet::new();
        for file in json["files"].as_array().expect("files") {
            let path = file["path"].as_str().expect("path").to_string();
            assert_eq!(file["status"], "modified", "seed {seed}: {json:#}");
            for key in file["metadata"].as_array().expect("metadata") {
                got_metadata.insert((path.clone(), key["key"].as_str().expect("key").to_string()));
            }
            for r in file["records"].as_array().expect("records") {
                got.insert((
                    path.clone(),
                    r["path"].as_str().expect("_path").to_string(),
                    r["status"].as_str().expect("status").to_string(),
                    r["keys"]
                        .as_array()
                        .expect("keys")
                        .iter()
                        .map(|k| k["key"].as_str().expect("key").to_string())
                        .collect(),
                ));
            }
        }
        assert_eq!(got, expected, "seed {seed}: {json:#}");
        assert_eq!(got_metadata, expected_metadata, "seed {seed}: {json:#}");
    }
}
