//! A three-way merge of a domain file by records (`docs/git.md`,
//! "Merging"): the common ancestor, ours and theirs in, the canonical text
//! of the merge out, with conflict blocks around the records or keys both
//! sides changed differently.
//!
//! Records are matched by `_path` under the URL equivalence
//! ([`crate::model::path::equivalence_key`], with the merged metadata's
//! `case-sensitive-paths`), not by their text: `/a%7e` on one side is
//! `/a~` on the other. The versions are cut at their `---` lines
//! ([`split`]) and a record whose bytes are the same in all three is kept
//! as it is, unparsed; only the others are read. The result is written by
//! the one renderer ([`crate::render::render`]), record by record.

mod blocks;
mod keys;
mod split;

use foldhash::{HashMap, HashMapExt, HashSet};
use std::borrow::Cow;

use crate::model::domain::{self, CATEGORIES, CNAMES, PATH};
use crate::model::node::{Comment, Comments, Document, Entry, Node, Value};
use crate::model::path::equivalence_key;
use crate::render::{EmptyMetadata, RenderOptions, TextStyle, render};

pub use blocks::conflict_marker_line;

/// The names the conflict blocks give the three versions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Labels {
    pub base: String,
    pub ours: String,
    pub theirs: String,
}

impl Default for Labels {
    fn default() -> Self {
        Labels {
            base: "base".into(),
            ours: "ours".into(),
            theirs: "theirs".into(),
        }
    }
}

/// What the merge is asked for.
#[derive(Debug, Clone)]
pub struct MergeOptions {
    /// The style of the canonical text (the governing `urldb.toml`'s).
    pub style: TextStyle,
    /// How empty metadata is written when ours has none to keep.
    pub empty_metadata: EmptyMetadata,
    /// The length of the conflict markers (git's `%L`, 7 by default).
    pub marker_size: usize,
    pub labels: Labels,
}

impl Default for MergeOptions {
    fn default() -> Self {
        MergeOptions {
            style: TextStyle::default(),
            empty_metadata: EmptyMetadata::default(),
            marker_size: 7,
            labels: Labels::default(),
        }
    }
}

/// One of the three versions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Base,
    Ours,
    Theirs,
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Side::Base => "the common ancestor",
            Side::Ours => "ours",
            Side::Theirs => "theirs",
        })
    }
}

/// Why three versions are not merged by records: the caller merges them
/// line by line instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unmergeable {
    #[error("{0} holds conflict markers (line {1})")]
    Markers(Side, usize),
    #[error("{0} is not readable as a domain file")]
    Unreadable(Side),
    #[error("ours is not canonical text (`urldb fmt` writes it)")]
    NotCanonical,
}

/// What a conflict is about.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Part {
    /// The whole record (removed on one side and changed on the other,
    /// added on both differently, or two records that are one URL).
    Record,
    /// One key of the record (or of the metadata).
    Key(String),
    /// The comments of the document (above its `---` and after it).
    Comments,
    /// The comment lines at the end of the file.
    Footer,
}

/// A conflict: in the record of this `_path` (ours' spelling, else
/// theirs'), or in the metadata (`None`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Conflict {
    pub record: Option<String>,
    pub part: Part,
}

impl std::fmt::Display for Conflict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.record {
            Some(path) => write!(f, "record {path}")?,
            None => f.write_str("metadata")?,
        }
        match &self.part {
            Part::Record => Ok(()),
            Part::Key(key) => write!(f, ", key {key}"),
            Part::Comments => f.write_str(", comments"),
            Part::Footer => f.write_str(", comments at the end"),
        }
    }
}

/// The merge: the text, with a block for each conflict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merged {
    pub text: String,
    pub conflicts: Vec<Conflict>,
}

/// Merge `ours` and `theirs`, two versions of a domain file, against their
/// common ancestor `base`.
pub fn merge(
    base: &str,
    ours: &str,
    theirs: &str,
    options: &MergeOptions,
) -> Result<Merged, Unmergeable> {
    let sides = [
        (Side::Base, base),
        (Side::Ours, ours),
        (Side::Theirs, theirs),
    ];
    for (side, text) in sides {
        if let Some(line) = conflict_marker_line(text) {
            return Err(Unmergeable::Markers(side, line));
        }
    }
    let newline = crate::lint::newline_of(ours);
    let cuts = [split::cut(base), split::cut(ours), split::cut(theirs)];
    if cuts[1].is_none() {
        return Err(Unmergeable::NotCanonical);
    }
    let mut render_options = RenderOptions {
        newline,
        empty_metadata: options.empty_metadata,
        style: options.style,
        sort: true,
        comments: true,
    };
    // The records no side changed: the same bytes in all three.
    let kept = match &cuts {
        [Some(b), Some(o), Some(t)] => common_records([&b.records, &o.records, &t.records]),
        _ => Default::default(),
    };
    let mut versions = Vec::with_capacity(3);
    for (((side, text), cut), kept) in sides.into_iter().zip(&cuts).zip(&kept) {
        versions.push(read(side, text, cut.as_ref(), kept, &render_options)?);
    }
    let [base, ours_v, theirs] =
        <[Version; 3]>::try_from(versions).map_err(|_| Unmergeable::Unreadable(Side::Base))?;
    if !ours_v.canonical {
        return Err(Unmergeable::NotCanonical);
    }
    // The records kept unread, as ours has them (the same in all three).
    let mut unread: Vec<Kept<'_>> = Vec::new();
    if let Some(cut) = &cuts[1] {
        for (piece, keep) in cut.records.iter().zip(&kept[1]) {
            if *keep {
                let path = match split::path_of(piece) {
                    Some(path) => path,
                    None => path_of_parsed(piece)
                        .ok_or(Unmergeable::Unreadable(Side::Ours))?
                        .map(Cow::Owned),
                };
                unread.push(Kept { text: piece, path });
            }
        }
    }
    // Ours keeps the form of its empty metadata (`---` or `--- {}`).
    render_options.empty_metadata = match ours_v.meta.root.as_ref() {
        Some(root) if root.flow && root.as_map().is_some_and(<[_]>::is_empty) => {
            EmptyMetadata::Braces
        }
        None => EmptyMetadata::Bare,
        _ => options.empty_metadata,
    };
    let mut merger = Merger {
        markers: blocks::Markers {
            size: options.marker_size,
            labels: &options.labels,
            newline,
        },
        render: render_options,
        conflicts: Vec::new(),
    };
    let (meta_text, meta) = merger.metadata(&base.meta, &ours_v.meta, &theirs.meta);
    let case_sensitive = domain::case_sensitive_paths(std::slice::from_ref(&meta));
    let footer = merger.footer([&base.footer, &ours_v.footer, &theirs.footer]);
    let records = merger.records([&base, &ours_v, &theirs], &unread, case_sensitive);
    let size = meta_text.len() + footer.len() + records.iter().map(|(_, t)| t.len()).sum::<usize>();
    let mut text = String::with_capacity(size);
    text.push_str(&meta_text);
    for (_, piece) in records {
        text.push_str(&piece);
    }
    text.push_str(&footer);
    Ok(Merged {
        text,
        conflicts: merger.conflicts,
    })
}

/// For each version, which of its records are kept unread: as many of
/// each text as all three versions hold. Ours' texts are hashed once, the
/// others' looked up in them; the counts are then kept by index.
fn common_records<'t>(versions: [&Vec<&'t str>; 3]) -> [Vec<bool>; 3] {
    let [base, ours, theirs] = versions;
    let mut index: HashMap<&'t str, u32> = HashMap::with_capacity(ours.len());
    let mut ids: [Vec<Option<u32>>; 3] = Default::default();
    ids[1] = ours
        .iter()
        .map(|record| {
            let next = index.len() as u32;
            Some(*index.entry(record).or_insert(next))
        })
        .collect();
    ids[0] = base.iter().map(|r| index.get(r).copied()).collect();
    ids[2] = theirs.iter().map(|r| index.get(r).copied()).collect();
    let mut counts: Vec<[u32; 3]> = vec![[0; 3]; index.len()];
    for (v, list) in ids.iter().enumerate() {
        for id in list.iter().flatten() {
            counts[*id as usize][v] += 1;
        }
    }
    let mut left: Vec<u32> = counts
        .iter()
        .map(|c| c.iter().copied().min().unwrap_or(0))
        .collect();
    let mut kept: [Vec<bool>; 3] = Default::default();
    for (v, list) in ids.iter().enumerate() {
        let mut quota = left.clone();
        kept[v] = list
            .iter()
            .map(|id| match id {
                Some(id) if quota[*id as usize] > 0 => {
                    quota[*id as usize] -= 1;
                    true
                }
                _ => false,
            })
            .collect();
    }
    left.clear();
    kept
}

/// One version, read: its metadata, the records not kept unread, and its
/// footer.
struct Version<'t> {
    meta: Document,
    records: Vec<Record<'t>>,
    footer: Vec<Comment>,
    /// Its text is canonical (but for the records kept unread).
    canonical: bool,
}

/// A record of one version.
struct Record<'t> {
    /// Its `_path` (as the renderer orders records: none first).
    path: Option<Cow<'t, str>>,
    /// Its canonical text (a record kept unread: its text as it is).
    text: Cow<'t, str>,
    /// Its tree (`None`: kept unread, the same in all three versions).
    doc: Option<Document>,
}

/// A record the same in all three versions, kept unread.
struct Kept<'t> {
    text: &'t str,
    path: Option<Cow<'t, str>>,
}

/// Read one version: the records `kept` marks are left out (they are
/// kept unread), the rest parsed together with the metadata and footer.
fn read<'t>(
    side: Side,
    text: &'t str,
    cut: Option<&split::Cut<'t>>,
    kept: &[bool],
    options: &RenderOptions,
) -> Result<Version<'t>, Unmergeable> {
    let unreadable = || Unmergeable::Unreadable(side);
    let mut reduced = String::new();
    let mut read_pieces: Vec<&'t str> = Vec::new();
    let source = match cut {
        Some(cut) => {
            reduced.push_str(cut.head);
            for (i, piece) in cut.records.iter().enumerate() {
                if !kept.get(i).copied().unwrap_or(false) {
                    reduced.push_str(piece);
                    read_pieces.push(piece);
                }
            }
            reduced.push_str(cut.footer);
            reduced.as_str()
        }
        None => text,
    };
    let tree = crate::parse::read_text(source);
    if tree.incomplete || !tree.problems.is_empty() {
        return Err(unreadable());
    }
    let mut documents = tree.documents;
    if documents.is_empty() || (cut.is_some() && documents.len() != read_pieces.len() + 1) {
        return Err(unreadable());
    }
    let canonical = render(&documents, &canonical_options(&documents, options)) == source;
    let footer: Vec<Comment> = documents
        .iter_mut()
        .flat_map(|d| std::mem::take(&mut d.footer))
        .collect();
    let records = documents.split_off(1);
    let meta = documents.pop().unwrap_or_default();
    let mut out: Vec<Record<'t>> = Vec::with_capacity(records.len());
    for (i, doc) in records.into_iter().enumerate() {
        let text = match read_pieces.get(i) {
            Some(piece) if canonical => Cow::Borrowed(*piece),
            _ => Cow::Owned(render_record(&doc, options)),
        };
        out.push(Record {
            path: record_path(&doc).map(Cow::Owned),
            text,
            doc: Some(doc),
        });
    }
    Ok(Version {
        meta,
        records: out,
        footer,
        canonical,
    })
}

/// The options a version's own text is canonical under: its own form of
/// empty metadata.
fn canonical_options(documents: &[Document], options: &RenderOptions) -> RenderOptions {
    let empty_metadata = match documents.first().and_then(|d| d.root.as_ref()) {
        Some(root) if root.flow && root.as_map().is_some_and(<[_]>::is_empty) => {
            EmptyMetadata::Braces
        }
        _ => EmptyMetadata::Bare,
    };
    RenderOptions {
        empty_metadata,
        ..*options
    }
}

/// What records are matched by: the URL of their `_path` under the
/// equivalence, or for a record without one its text.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Key<'t> {
    Url(Cow<'t, str>),
    Text(&'t str),
}

/// The `_path` of one record's piece, parsed (a path not written on one
/// plain or single-quoted line).
fn path_of_parsed(piece: &str) -> Option<Option<String>> {
    let tree = crate::parse::read_text(piece);
    if tree.incomplete {
        return None;
    }
    Some(tree.documents.first().and_then(record_path))
}

/// The `_path` a record is ordered by, as the renderer orders records.
fn record_path(doc: &Document) -> Option<String> {
    let entries = doc.root.as_ref()?.as_map()?;
    let entry = crate::model::node::get(entries, PATH)?;
    Some(entry.value.as_scalar()?.value.to_string())
}

/// One record's canonical text: the renderer's, for a file of this one
/// record (less the empty metadata's `---` line).
fn render_record(doc: &Document, options: &RenderOptions) -> String {
    let pair = [Document::default(), doc.clone()];
    let options = RenderOptions {
        empty_metadata: EmptyMetadata::Bare,
        ..*options
    };
    let text = render(&pair, &options);
    text.split_once('\n')
        .map(|(_, rest)| rest.to_string())
        .unwrap_or_default()
}

/// The comments' texts of a document (its own, not its keys').
fn comment_texts(c: &Comments) -> Vec<&str> {
    c.lines().collect()
}

/// The merge in progress: how blocks and records are written, and the
/// conflicts found.
struct Merger<'a> {
    markers: blocks::Markers<'a>,
    render: RenderOptions,
    conflicts: Vec<Conflict>,
}

/// What one document merges to: the merged document, and the conflicting
/// parts with each side's document for each (ours' is the merged one).
struct DocMerge {
    doc: Document,
    /// Each conflict, with the document as the base and as theirs have
    /// that part.
    parts: Vec<(Part, Document, Document)>,
}

impl Merger<'_> {
    fn metadata(
        &mut self,
        base: &Document,
        ours: &Document,
        theirs: &Document,
    ) -> (String, Document) {
        let text = |m: &Merger, d: &Document| render(std::slice::from_ref(d), &m.render);
        let (tb, to, tt) = (text(self, base), text(self, ours), text(self, theirs));
        if to == tt || tb == tt {
            return (to, ours.clone());
        }
        if tb == to {
            return (tt, theirs.clone());
        }
        match self.merge_document(base, ours, theirs, CNAMES, true) {
            Some(merged) => {
                let ours_text = text(self, &merged.doc);
                let written = self.with_blocks(None, &ours_text, &merged, |m, d| text(m, d));
                (written, merged.doc)
            }
            None => {
                self.conflicts.push(Conflict {
                    record: None,
                    part: Part::Record,
                });
                let block = self.markers.block("metadata", &to, &tb, &tt);
                (block, ours.clone())
            }
        }
    }

    /// `ours_text` with a block for each conflicting part of `merged`.
    fn with_blocks(
        &mut self,
        record: Option<&str>,
        ours_text: &str,
        merged: &DocMerge,
        text: impl Fn(&Merger, &Document) -> String,
    ) -> String {
        let subject = |part: &Part| {
            Conflict {
                record: record.map(str::to_string),
                part: part.clone(),
            }
            .to_string()
        };
        let variants: Vec<(String, String, String)> = merged
            .parts
            .iter()
            .map(|(part, b, t)| (subject(part), text(self, b), text(self, t)))
            .collect();
        for (part, _, _) in &merged.parts {
            self.conflicts.push(Conflict {
                record: record.map(str::to_string),
                part: part.clone(),
            });
        }
        if let Some(spliced) = self.markers.splice(ours_text, &variants) {
            return spliced;
        }
        // Parts too close to be told apart: one block for all of them.
        let mut base = merged.doc.clone();
        let mut theirs = merged.doc.clone();
        for (part, b, t) in &merged.parts {
            take_part(&mut base, b, part);
            take_part(&mut theirs, t, part);
        }
        let names: Vec<String> = merged.parts.iter().map(|(p, _, _)| subject(p)).collect();
        let all = (names.join("; "), text(self, &base), text(self, &theirs));
        self.markers
            .splice(ours_text, std::slice::from_ref(&all))
            .unwrap_or_else(|| self.markers.block(&all.0, ours_text, &all.1, &all.2))
    }

    /// Merge a document both sides changed, part by part; `None` when it
    /// is not a mapping of string keys on every side.
    fn merge_document(
        &self,
        base: &Document,
        ours: &Document,
        theirs: &Document,
        set_key: &str,
        metadata: bool,
    ) -> Option<DocMerge> {
        let entries = |d: &Document| -> Option<Vec<Entry>> {
            match &d.root {
                None => Some(Vec::new()),
                Some(root) if root.is_null() => Some(Vec::new()),
                Some(root) => root.as_map().map(<[Entry]>::to_vec),
            }
        };
        let (eb, eo, et) = (entries(base)?, entries(ours)?, entries(theirs)?);
        let same =
            |a: &Entry, b: &Entry| self.entry_text(a, metadata) == self.entry_text(b, metadata);
        let keys = keys::merge(&eb, &eo, &et, set_key, same)?;
        let (cb, co, ct) = (
            comment_texts(&base.comments),
            comment_texts(&ours.comments),
            comment_texts(&theirs.comments),
        );
        let mut doc = ours.clone();
        let mut comments_conflict = false;
        if co != ct && cb == co {
            doc.comments = theirs.comments.clone();
        } else if co != ct && cb != ct {
            comments_conflict = true;
        }
        let was_flow = ours.root.as_ref().is_some_and(|r| r.flow);
        doc.root = if keys.entries.is_empty() && ours.root.is_none() {
            None
        } else {
            let mut root = Node::new(Value::Map(keys.entries), Default::default());
            root.flow = was_flow && metadata;
            Some(root)
        };
        let mut parts = Vec::new();
        for key in keys.conflicts {
            let side = |from: &[Entry]| {
                let mut d = doc.clone();
                set_entry(
                    &mut d,
                    &key,
                    from.iter().find(|e| e.key_str() == Some(&key)),
                );
                d
            };
            parts.push((Part::Key(key.clone()), side(&eb), side(&et)));
        }
        if comments_conflict {
            let side = |from: &Document| {
                let mut d = doc.clone();
                d.comments = from.comments.clone();
                d
            };
            parts.push((Part::Comments, side(base), side(theirs)));
        }
        Some(DocMerge { doc, parts })
    }

    /// An entry as the canonical text writes it, comments included: what
    /// two versions of a key are compared by.
    fn entry_text(&self, entry: &Entry, metadata: bool) -> String {
        let doc = Document {
            root: Some(Node::new(
                Value::Map(vec![entry.clone()]),
                Default::default(),
            )),
            ..Default::default()
        };
        if metadata {
            render(std::slice::from_ref(&doc), &self.render)
        } else {
            render_record(&doc, &self.render)
        }
    }

    /// The records merged, in the renderer's order: each one's `_path`
    /// and text (or conflict block). A record kept unread is looked at
    /// only when a record read has its URL.
    fn records<'t>(
        &mut self,
        versions: [&'t Version<'t>; 3],
        unread: &'t [Kept<'t>],
        case_sensitive: bool,
    ) -> Vec<(Option<Cow<'t, str>>, Cow<'t, str>)> {
        let key = |record_path: Option<&'t str>, text: &'t str| match record_path {
            Some(path) => Key::Url(equivalence_key(path, case_sensitive)),
            None => Key::Text(text),
        };
        let read_keys: HashSet<Key<'t>> = versions
            .iter()
            .flat_map(|v| &v.records)
            .map(|r| key(r.path.as_deref(), &r.text))
            .collect();
        // Each URL's records in each version (a record without a `_path`
        // is matched by its text).
        let mut by_key: HashMap<Key<'t>, [Vec<Record<'t>>; 3]> = HashMap::new();
        let mut order: Vec<Key<'t>> = Vec::new();
        let mut out: Vec<(Option<Cow<'t, str>>, Cow<'t, str>)> =
            Vec::with_capacity(unread.len() + read_keys.len());
        let mut slot = |k: Key<'t>, by_key: &mut HashMap<Key<'t>, [Vec<Record<'t>>; 3]>| {
            by_key.entry(k.clone()).or_insert_with(|| {
                order.push(k);
                Default::default()
            });
        };
        for kept in unread {
            let k = key(kept.path.as_deref(), kept.text);
            if !read_keys.contains(&k) {
                out.push((kept.path.clone(), Cow::Borrowed(kept.text)));
                continue;
            }
            slot(k.clone(), &mut by_key);
            if let Some(group) = by_key.get_mut(&k) {
                for side in group.iter_mut() {
                    side.push(Record {
                        path: kept.path.clone(),
                        text: Cow::Borrowed(kept.text),
                        doc: None,
                    });
                }
            }
        }
        for (v, version) in versions.iter().enumerate() {
            for record in &version.records {
                let k = key(record.path.as_deref(), &record.text);
                slot(k.clone(), &mut by_key);
                if let Some(group) = by_key.get_mut(&k) {
                    group[v].push(Record {
                        path: record.path.as_deref().map(Cow::Borrowed),
                        text: Cow::Borrowed(&record.text),
                        doc: record.doc.clone(),
                    });
                }
            }
        }
        for k in &order {
            let Some([b, o, t]) = by_key.get(k) else {
                continue;
            };
            if let Some(piece) = self.record(b, o, t) {
                out.push(piece);
            }
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }

    /// One URL's record merged, or `None` when it is removed.
    fn record<'t>(
        &mut self,
        b: &[Record<'t>],
        o: &[Record<'t>],
        t: &[Record<'t>],
    ) -> Option<(Option<Cow<'t, str>>, Cow<'t, str>)> {
        let path = o
            .first()
            .or(t.first())
            .or(b.first())
            .and_then(|r| r.path.clone());
        let texts = |rs: &[Record<'t>]| rs.iter().map(|r| r.text.as_ref()).collect::<String>();
        let (tb, to, tt) = (texts(b), texts(o), texts(t));
        if b.len() > 1 || o.len() > 1 || t.len() > 1 {
            // Two records of one URL: which is which is not for the merge
            // to guess.
            if to == tt || tb == tt {
                return (!to.is_empty()).then_some((path, Cow::Owned(to)));
            }
            return Some(self.whole(path, &to, &tb, &tt));
        }
        let (b, o, t) = (b.first(), o.first(), t.first());
        if to == tt || tb == tt {
            return o.map(|r| (r.path.clone(), r.text.clone()));
        }
        if tb == to {
            return t.map(|r| (r.path.clone(), r.text.clone()));
        }
        match (b, o, t) {
            (Some(b), Some(o), Some(t)) => {
                let (Some(db), Some(dob), Some(dt)) = (&b.doc, &o.doc, &t.doc) else {
                    return Some(self.whole(path, &to, &tb, &tt));
                };
                let Some(merged) = self.merge_document(db, dob, dt, CATEGORIES, false) else {
                    return Some(self.whole(path, &to, &tb, &tt));
                };
                let path = record_path(&merged.doc).map(Cow::Owned).or(path);
                let ours_text = render_record(&merged.doc, &self.render);
                if merged.parts.is_empty() {
                    return Some((path, Cow::Owned(ours_text)));
                }
                let text = self.with_blocks(path.as_deref(), &ours_text, &merged, |m, d| {
                    render_record(d, &m.render)
                });
                Some((path, Cow::Owned(text)))
            }
            (None, Some(o), Some(t)) if self.same_but_spelling(o, t) => {
                Some((o.path.clone(), o.text.clone()))
            }
            _ => Some(self.whole(path, &to, &tb, &tt)),
        }
    }

    /// Two records added on both sides are one when they differ only in
    /// how their `_path` is spelled (they are one URL).
    fn same_but_spelling(&self, o: &Record<'_>, t: &Record<'_>) -> bool {
        let (Some(a), Some(b)) = (&o.doc, &t.doc) else {
            return false;
        };
        let without_path = |d: &Document| {
            let mut d = d.clone();
            if let Some(Value::Map(entries)) = d.root.as_mut().map(|r| &mut r.value) {
                entries.retain(|e| e.key_str() != Some(PATH));
            }
            render_record(&d, &self.render)
        };
        without_path(a) == without_path(b)
    }

    /// A whole record in conflict.
    fn whole<'t>(
        &mut self,
        path: Option<Cow<'t, str>>,
        ours: &str,
        base: &str,
        theirs: &str,
    ) -> (Option<Cow<'t, str>>, Cow<'t, str>) {
        let conflict = Conflict {
            record: path.as_deref().map(str::to_string),
            part: Part::Record,
        };
        let block = self
            .markers
            .block(&conflict.to_string(), ours, base, theirs);
        self.conflicts.push(conflict);
        (path, Cow::Owned(block))
    }

    /// The comment lines at the end of the file, merged as one part.
    fn footer(&mut self, [b, o, t]: [&Vec<Comment>; 3]) -> String {
        let text = |m: &Merger, c: &Vec<Comment>| {
            let doc = Document {
                footer: c.clone(),
                ..Default::default()
            };
            let options = RenderOptions {
                empty_metadata: EmptyMetadata::Bare,
                ..m.render
            };
            render(&[doc], &options)
                .split_once('\n')
                .map(|(_, rest)| rest.to_string())
                .unwrap_or_default()
        };
        let (tb, to, tt) = (text(self, b), text(self, o), text(self, t));
        if to == tt || tb == tt {
            return to;
        }
        if tb == to {
            return tt;
        }
        let conflict = Conflict {
            record: None,
            part: Part::Footer,
        };
        let block = self.markers.block(&conflict.to_string(), &to, &tb, &tt);
        self.conflicts.push(conflict);
        block
    }
}

/// Set `key` of a document's mapping to `entry` (remove it for `None`).
fn set_entry(doc: &mut Document, key: &str, entry: Option<&Entry>) {
    // A document with nothing (`---` alone) is an empty mapping here.
    if doc.root.as_ref().is_none_or(Node::is_null) && entry.is_some() {
        doc.root = Some(Node::new(Value::Map(Vec::new()), Default::default()));
    }
    let Some(Value::Map(entries)) = doc.root.as_mut().map(|r| &mut r.value) else {
        return;
    };
    entries.retain(|e| e.key_str() != Some(key));
    entries.extend(entry.cloned());
}

/// Give `doc` the part `part` as `from` has it.
fn take_part(doc: &mut Document, from: &Document, part: &Part) {
    match part {
        Part::Key(key) => {
            let entry = from
                .root
                .as_ref()
                .and_then(Node::as_map)
                .and_then(|e| e.iter().find(|e| e.key_str() == Some(key)));
            set_entry(doc, key, entry);
        }
        Part::Comments => doc.comments = from.comments.clone(),
        Part::Record | Part::Footer => {}
    }
}

#[cfg(test)]
mod tests;
