//! The cross-file rules (`cname-conflict`, `domain-conflict`) for an open
//! document: over the facts of every domain file of its database, the
//! open buffers taking the place of their files on disk.
//!
//! The facts of the files on disk (domain and cnames, from the metadata
//! document alone, as `check` gathers them) are read once per database
//! root and kept until a file is saved or the client reports a change.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use urldb_core::lint::{self, Checked, Options};
use urldb_core::rules::FileFacts;

/// The facts of a database's files on disk, each with its resolved path
/// (to recognise the file of an open buffer however it is spelt).
pub(crate) type DiskFacts = Vec<(PathBuf, FileFacts)>;

/// Read the facts of every domain file under `root`: the files the
/// database walk finds, by the read policy (a link leading out of the root,
/// or a file over the size limit, is not read, and has no facts, as in
/// `check`).
pub(crate) fn disk_facts(members: &urldb_store::membership::Members, limit: u64) -> DiskFacts {
    let root: &Path = members.root();
    let files = urldb_store::find_files(members).files;
    files
        .par_iter()
        .filter(|path| urldb_store::is_inside(path, root))
        .filter_map(|path| match urldb_store::read_limited(path, limit, None) {
            Ok(bytes) => {
                let facts = lint::facts(path, &String::from_utf8_lossy(&bytes), false);
                Some((resolved(path), facts))
            }
            _ => None,
        })
        .collect()
}

/// A path with its directory resolved (its file name kept).
pub(crate) fn resolved(path: &Path) -> PathBuf {
    match (
        path.parent().and_then(|d| dunce::canonicalize(d).ok()),
        path.file_name(),
    ) {
        (Some(dir), Some(name)) => dir.join(name),
        _ => path.to_path_buf(),
    }
}

/// Give the document `checked` (at `path`) its cross-file findings, with
/// the other open buffers of the same database (`others`: path and text)
/// instead of their files on disk: found and finished by the runner
/// `check` uses (`urldb_core::lint::across`), so that a suppression
/// comment or a per-file ignore excuses in the editor what it excuses in
/// `check`.
pub(crate) fn add(
    path: &Path,
    checked: &mut Checked,
    others: &[(PathBuf, &str)],
    disk: &DiskFacts,
    options: &Options,
) {
    let this = resolved(path);
    let open: Vec<PathBuf> = others.iter().map(|(p, _)| resolved(p)).collect();
    let mut facts: Vec<FileFacts> = Vec::with_capacity(disk.len() + others.len() + 1);
    // The document first: the one file checked.
    facts.push(match checked.documents.parsed() {
        Some(docs) => lint::facts_of(path, docs, true),
        None => lint::facts(path, &checked.source.text, true),
    });
    for ((other, text), resolved) in others.iter().zip(&open) {
        if *resolved != this {
            facts.push(lint::facts(other, text, false));
        }
    }
    for (resolved, file) in disk {
        if *resolved != this && !open.contains(resolved) {
            facts.push(file.clone());
        }
    }
    let text = checked.source.text.as_str();
    let finished = lint::across(&facts).finish(&facts, options, |_| text);
    for (file, finished) in finished {
        if file == 0 {
            checked.add_across(finished);
        }
    }
}
