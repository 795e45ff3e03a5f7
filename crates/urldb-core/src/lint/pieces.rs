//! A large canonical file, checked in pieces on every core.
//!
//! The tree of a file takes about ten times its text in memory, so a file of
//! 200,000 records held whole needs several hundred megabytes and one core.
//! Documents are independent of each other but for the metadata (which
//! every record reads: `case-sensitive-paths`, `https`) and for what is
//! asked across records: is the order canonical, and what the rules that
//! read records together ask of their paths (`rules::clean::Clean::Paths`:
//! a `_path` listed twice, two paths that are one URL). So the records are
//! cut at `---` lines into pieces of about [`PIECE_BYTES`]; each piece is
//! proven clean from its text (`super::proof`), or else read, checked
//! with the metadata document in front of it and dropped, keeping only its
//! findings, its records' paths and whether it is canonical. What is asked
//! across records is then answered on the paths.
//!
//! A piece that is not proven is read by the fast reader where it takes
//! the text, else by the general parser (a file with comments or quoted
//! values). This is only for a file whose findings need no tree
//! afterwards. Anything else — a piece the fast reader
//! refuses, a file that is not canonical (its layout findings compare the
//! whole canonical text), a finding with a fix (`check --fix` edits the
//! tree; the language server's diagnostics need no fix and keep the
//! pieces) — returns `None`, and the caller checks the file whole. The
//! results are the same either way: `tests/it/check/fast_path.rs` holds
//! them to it.

use std::path::Path;

use compact_str::CompactString;
use rayon::prelude::*;

use super::excuse::{self, Comments, Stage};
use super::{Checked, Documents, Options, proof, render_options, text_findings};
use crate::model::node::Document;
use crate::render::render;
use crate::rules::clean::{self, Facts, Paths};
use crate::rules::diagnostic::{Edit, Finding, NodePath};
use crate::rules::{self, Check, FileContext};
use crate::source::{Source, Span};

/// The size of a piece: small enough that a tree per core stays a few
/// megabytes, large enough that a piece's own cost (the metadata copied in
/// front, a task) is lost in it.
pub(crate) const PIECE_BYTES: usize = 1 << 19;

/// What a piece leaves behind when its tree is dropped.
struct Piece {
    findings: Vec<Finding>,
    /// How many documents it holds (the metadata in front not counted).
    documents: usize,
    /// Each record's `_path` value's span, in file order, and the value
    /// when it is not the text in the span (a quoted scalar): the paths of
    /// a file are not copied.
    paths: Vec<(Span, Option<CompactString>)>,
    /// The `_path` of its first and last record (as the canonical order
    /// compares them: a record without one sorts first).
    first: Option<Option<CompactString>>,
    last: Option<Option<CompactString>>,
    canonical: bool,
    /// A finding's fix would set a record's `_path`: the whole path weighs
    /// such fixes against every record (`fix::guard_path_fixes`), which a
    /// piece cannot.
    sets_a_path: bool,
    /// Proven clean from its text (`super::proof`): no rule ran on it, so
    /// it holds none of the metadata's findings either. Its paths are then
    /// in order.
    silent: bool,
    /// Proven, and no `_path` is the same as the one before it.
    strictly_ascending: bool,
    /// Proven: the places in `paths` of those a rule across records looks
    /// at (`rules::clean::Paths::marked`).
    marked: Option<Vec<usize>>,
}

/// Check `raw` in pieces, or `None` when it must be checked whole. With
/// `fixes`, a finding with a fix sends the file to the whole path (fixes
/// are weighed against every record's path, `fix::guard_path_fixes`);
/// without, the findings keep no fix. With `silent_only`, only pieces
/// proven clean from their text are taken (a small file, which the whole
/// path checks as fast as its pieces).
pub(crate) fn check(
    path: &Path,
    raw: &[u8],
    options: &Options,
    fixes: bool,
    silent_only: bool,
) -> Option<Checked> {
    let text = std::str::from_utf8(raw).ok()?;
    if crate::parse::has_bom(text) {
        return None;
    }
    // Comments above the metadata (a header a team keeps) are the
    // metadata's own lead-in, read with it by the general parser.
    let metadata_end = lead_in(text, next_document(text, first_document(text)?)?);
    let bounds = cut(text, metadata_end, options.piece_bytes());
    if rules::engine::before_parsing(text).is_some() {
        return None;
    }
    let metadata = read(text, 0..metadata_end)?;
    let metadata_comments = metadata.comments;
    let [metadata] = <[Document; 1]>::try_from(metadata.documents).ok()?;
    let domain = rules::domain_of(path);
    // The metadata's canonical text: what every piece's rendering starts
    // with, and what the file must start with.
    let alone = std::slice::from_ref(&metadata);
    let metadata_text = render(alone, &render_options(text, alone, options));
    if text.get(..metadata_end) != Some(metadata_text.as_str()) {
        return None;
    }
    let case_sensitive = crate::model::domain::case_sensitive_paths(alone);
    let facts = Facts {
        case_sensitive,
        settings: &options.settings,
    };
    // The proofs first: a file taken only when proven is given up before
    // its text is copied. A rule that only the tree can answer, while it
    // counts, leaves nothing to prove.
    let needs_tree = clean::needs_tree(|rule| options.selection.is_enabled(rule.code));
    let proofs: Vec<Option<proof::Silent>> = bounds
        .par_windows(2)
        .map(|w| (!needs_tree).then(|| proof::records(text, w[0]..w[1], &facts))?)
        .collect();
    if silent_only && proofs.iter().any(Option::is_none) {
        return None;
    }
    let source = Source::new(path, text.to_string());
    let pieces: Vec<Option<Piece>> = proofs
        .into_par_iter()
        .zip(bounds.par_windows(2))
        .map(|(proof, w)| match proof {
            Some(silent) => Some(Piece::silent(text, silent)),
            None => piece(
                &source,
                &metadata,
                &metadata_text,
                w[0]..w[1],
                &domain,
                options,
            ),
        })
        .collect();
    let mut pieces: Vec<Piece> = pieces.into_iter().collect::<Option<_>>()?;

    let mut all = text_findings(raw, &source);
    all.extend(metadata_comments.into_iter().map(rules::engine::of_comment));
    if pieces.first().is_some_and(|p| p.silent) {
        // The metadata's findings, which a piece's rules would have given.
        all.extend(metadata_findings(&source, &metadata, &domain, options));
    }
    // The metadata's own findings come from the first piece only: every
    // piece checks it again for what its records read of it. A fix names
    // its document by its place in the piece: moved to the file's.
    let mut first_document = 1;
    for (i, piece) in pieces.iter_mut().enumerate() {
        for mut finding in std::mem::take(&mut piece.findings) {
            if i > 0 && finding.span.start < metadata_end {
                continue;
            }
            renumber(&mut finding, first_document);
            all.push(finding);
        }
        first_document += piece.documents;
    }
    let paths: Vec<(&str, &Span)> = pieces
        .iter()
        .flat_map(|p| p.paths.iter())
        .map(|(span, value)| match value {
            Some(value) => (value.as_str(), span),
            None => (&text[span.clone()], span),
        })
        .collect();
    // Each piece's first and last path, for the order across cuts.
    let ends: Vec<_> = pieces
        .iter()
        .filter_map(|p| Some((p.first.as_ref()?, p.last.as_ref()?)))
        .collect();
    let sorted = ends.windows(2).all(|w| w[0].1 <= w[1].0);
    // The rules across records, on every record's path.
    let mut offset = 0;
    let marked: Option<Vec<usize>> = pieces
        .iter()
        .map(|p| {
            let at = offset;
            offset += p.paths.len();
            Some(p.marked.as_ref()?.iter().map(move |i| at + i))
        })
        .collect::<Option<Vec<_>>>()
        .map(|each| each.into_iter().flatten().collect());
    let paths = Paths {
        all: &paths,
        strictly_ascending: pieces.iter().all(|p| p.strictly_ascending)
            && ends.windows(2).all(|w| w[0].1 < w[1].0),
        case_sensitive,
        marked: marked.as_deref(),
    };
    for (_, find) in clean::across_records() {
        find(&paths, &mut all);
    }
    if pieces.iter().any(|p| p.sets_a_path) {
        return None;
    }
    let canonical = sorted && pieces.iter().all(|p| p.canonical);
    // What the whole path does past this point needs the tree: layout
    // findings of a file that is not canonical, and fixes.
    if !canonical || (fixes && all.iter().any(Finding::fixable)) {
        return None;
    }
    if !fixes {
        all.iter_mut().for_each(|f| f.fix = None);
    }
    // Finished as the whole path finishes them; the text holds no
    // suppression comment (`read` gives up on one).
    let finished = excuse::finish(path, all, Comments::None, Stage::File, options);
    Some(Checked {
        canonical: finished.blocked_by.is_none().then(|| source.text.clone()),
        source,
        documents: if pieces.iter().all(|p| p.silent) {
            Documents::Proven
        } else {
            Documents::InPieces
        },
        findings: finished.findings,
        suppressed: finished.suppressed,
        blocked_by: finished.blocked_by,
    })
}

impl Piece {
    /// Records [`proof::records`] proved clean: canonical, no finding
    /// (but across records, which the paths answer).
    fn silent(text: &str, silent: proof::Silent) -> Piece {
        let value = |span: Option<&Span>| span.and_then(|s| text.get(s.clone())).map(Into::into);
        // Records without a `_path` come first.
        let first = match silent.pathless {
            0 => value(silent.paths.first()),
            _ => None,
        };
        Piece {
            findings: Vec::new(),
            documents: silent.documents,
            first: Some(first),
            last: Some(value(silent.paths.last())),
            paths: silent.paths.into_iter().map(|span| (span, None)).collect(),
            canonical: true,
            sets_a_path: false,
            silent: true,
            strictly_ascending: !silent.repeated_path,
            marked: Some(silent.marked),
        }
    }
}

/// The findings of the metadata document alone (every rule on records
/// finds nothing without them).
fn metadata_findings(
    source: &Source,
    metadata: &Document,
    domain: &str,
    options: &Options,
) -> Vec<Finding> {
    let ctx = FileContext {
        source,
        documents: std::slice::from_ref(metadata),
        domain,
        settings: &options.settings,
    };
    let mut findings = Vec::new();
    for rule in rules::ALL {
        if let Check::File { check, .. } = rule.check {
            check(&ctx, &mut findings);
        }
    }
    findings
}

/// Check the records in `range`, the metadata document in front of them.
fn piece(
    source: &Source,
    metadata: &Document,
    metadata_text: &str,
    range: std::ops::Range<usize>,
    domain: &str,
    options: &Options,
) -> Option<Piece> {
    let ReadPiece {
        documents,
        findings,
        from_fast,
    } = read_and_check(source, metadata, range.clone(), domain, options)?;
    let sets_a_path = sets_a_path(&documents, &findings);
    let render_options = render_options(&source.text, &documents, options);
    let canonical = if from_fast {
        crate::render::is_canonical(&documents, &render_options)
    } else {
        let rendered = render(&documents, &render_options);
        rendered.strip_prefix(metadata_text) == source.text.get(range)
    };
    let paths = crate::model::domain::paths(&documents)
        .map(|(_, entry, path)| {
            let span = entry.value.span.clone();
            let copy = (source.text.get(span.clone()) != Some(path)).then(|| path.into());
            (span, copy)
        })
        .collect();
    Some(Piece {
        sets_a_path,
        documents: documents.len() - 1,
        findings,
        paths,
        first: documents.get(1).map(record_path),
        last: documents
            .last()
            .filter(|_| documents.len() > 1)
            .map(record_path),
        canonical,
        silent: false,
        strictly_ascending: false,
        marked: None,
    })
}

/// The records in `range` read, the metadata document in front of them,
/// and the findings of the rules on a file's documents but those across
/// records (answered on the paths of the whole file), after the comments'
/// (`yaml-comment`, off by default, where the whole path reports them:
/// after the parser's problems, of which a piece has none). `None` for
/// what only the whole file can answer ([`read`]).
pub(super) fn read_and_check(
    source: &Source,
    metadata: &Document,
    range: std::ops::Range<usize>,
    domain: &str,
    options: &Options,
) -> Option<ReadPiece> {
    let read = read(&source.text, range)?;
    let mut documents = Vec::with_capacity(read.documents.len() + 1);
    documents.push(metadata.clone());
    documents.extend(read.documents);
    let ctx = FileContext {
        source,
        documents: &documents,
        domain,
        settings: &options.settings,
    };
    let mut findings: Vec<Finding> = read
        .comments
        .into_iter()
        .map(rules::engine::of_comment)
        .collect();
    let across: Vec<&'static rules::Rule> = clean::across_records().map(|(r, _)| r).collect();
    for rule in rules::ALL {
        if let Check::File { check, .. } = rule.check
            && !across.iter().any(|r| std::ptr::eq(*r, *rule))
        {
            check(&ctx, &mut findings);
        }
    }
    Some(ReadPiece {
        documents,
        findings,
        from_fast: read.from_fast,
    })
}

/// What [`read_and_check`] gives: the documents (the metadata first), the
/// findings, and whether the fast reader read them.
pub(super) struct ReadPiece {
    pub(super) documents: Vec<Document>,
    pub(super) findings: Vec<Finding>,
    pub(super) from_fast: bool,
}

/// A finding's fix sets the `_path` of a record of `documents`.
pub(super) fn sets_a_path(documents: &[Document], findings: &[Finding]) -> bool {
    let sets: Vec<&NodePath> = findings
        .iter()
        .filter_map(|f| f.fix.as_ref())
        .flat_map(|fix| &fix.edits)
        .filter_map(|e| match e {
            Edit::SetScalar { at, .. } => Some(at),
            _ => None,
        })
        .collect();
    !sets.is_empty() && {
        let path_places: std::collections::HashSet<NodePath> =
            crate::model::domain::records(documents)
                .filter_map(|r| rules::entry_path(r.doc, r.entries, crate::model::domain::PATH))
                .collect();
        sets.iter().any(|at| path_places.contains(*at))
    }
}

/// A record's place in the canonical order (`render` sorts by it).
pub(super) fn record_path(document: &Document) -> Option<CompactString> {
    let entries = document.root.as_ref()?.as_map()?;
    let entry = crate::model::node::get(entries, crate::model::domain::PATH)?;
    Some(entry.value.as_scalar()?.value.clone())
}

/// A fix in a part names its document by its place there (the metadata
/// 0, its first record 1): its place in the file, whose first record of
/// the part is `first_document`.
pub(super) fn renumber(finding: &mut Finding, first_document: usize) {
    let Some(fix) = &mut finding.fix else {
        return;
    };
    for edit in &mut fix.edits {
        if let Edit::SetScalar { at, .. } | Edit::Remove { at } = edit
            && at.doc > 0
        {
            at.doc += first_document - 1;
        }
    }
}

/// A piece's documents as either reader gives them, spans in the whole
/// text: the fast reader where it takes the text, else the general parser.
/// `None` for what only the whole file can answer: a parser problem, a
/// suppression comment (`crate::suppress` reads them over the whole file),
/// or comments after the piece's last node (the whole file gives those to
/// its first document).
pub(super) fn read(text: &str, range: std::ops::Range<usize>) -> Option<Read> {
    let (tree, from_fast) = crate::parse::read_range(text, range)?;
    if from_fast {
        return Some(Read {
            documents: tree.documents,
            comments: Vec::new(),
            from_fast: true,
        });
    }
    if tree.incomplete || !tree.problems.is_empty() {
        return None;
    }
    let directive = |span: &Span| {
        text.get(span.clone())
            .is_some_and(crate::suppress::is_directive)
    };
    if tree.comments.iter().any(directive) || tree.documents.iter().any(|d| !d.footer.is_empty()) {
        return None;
    }
    Some(Read {
        documents: tree.documents,
        comments: tree.comments,
        from_fast: false,
    })
}

/// What [`read`] gives.
pub(super) struct Read {
    pub(super) documents: Vec<Document>,
    pub(super) comments: Vec<Span>,
    pub(super) from_fast: bool,
}

/// Where the lines before `at` that belong to the document starting there
/// begin: whole-line comments and blank lines just above its `---` are its
/// own (`Document::comments`), so a cut goes above them.
fn lead_in(text: &str, at: usize) -> usize {
    let mut start = at;
    for line in text[..at].split_inclusive('\n').rev() {
        let body = line.trim_start();
        if body.starts_with('#') || body.trim().is_empty() {
            start -= line.len();
        } else {
            break;
        }
    }
    start
}

/// A line that starts a document: `---` or `--- {}` (canonical text has no
/// other document start).
fn starts_a_document(line: &str) -> bool {
    line == "---\n" || line == "--- {}\n"
}

/// Where the first document starts, when only whole-line comments and
/// blank lines come before it; `None` for anything else before it (an
/// implicit first document, a directive), which the whole path reads.
fn first_document(text: &str) -> Option<usize> {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if starts_a_document(line) {
            return Some(at);
        }
        let body = line.trim_start_matches([' ', '\t']);
        if !(body.starts_with('#') || body.trim_end().is_empty()) {
            return None;
        }
        at += line.len();
    }
    None
}

/// Where the document after the one starting at `first` starts.
fn next_document(text: &str, first: usize) -> Option<usize> {
    let mut at = first;
    for line in text.get(first..)?.split_inclusive('\n') {
        if at > first && starts_a_document(line) {
            return Some(at);
        }
        at += line.len();
    }
    None
}

/// The starts of the pieces after the metadata, each about `piece` bytes
/// and at a document start, then the end of the text.
fn cut(text: &str, metadata_end: usize, piece: usize) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut bounds = vec![metadata_end];
    let mut at = metadata_end;
    while text.len() - at > piece {
        // The first `\n---\n` after the next piece's worth of bytes.
        let from = at + piece;
        let Some(found) = memchr::memmem::find(&bytes[from..], b"\n---\n") else {
            break;
        };
        at = from + found + 1;
        let start = lead_in(text, at);
        if start > *bounds.last().unwrap_or(&0) {
            bounds.push(start);
        }
    }
    bounds.push(text.len());
    bounds
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_start_at_documents_and_cover_the_text() {
        let mut text = String::from("---\nhttps: true\n");
        for i in 0..30_000 {
            text.push_str(&format!("---\n_path: /p{i:06}\ncontent-type: text/html\n"));
        }
        let metadata_end = next_document(&text, 0).unwrap_or_default();
        assert_eq!(&text[..metadata_end], "---\nhttps: true\n");
        let bounds = cut(&text, metadata_end, PIECE_BYTES);
        assert!(bounds.len() > 3, "{bounds:?}");
        assert_eq!(bounds.last(), Some(&text.len()));
        for w in bounds.windows(2) {
            assert!(text[w[0]..].starts_with("---\n_path: "), "{}", w[0]);
            assert!(w[1] - w[0] < PIECE_BYTES + 64, "{w:?}");
        }
    }
}
