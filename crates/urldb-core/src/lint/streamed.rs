//! A large file the pieces decline, checked a part at a time on every
//! core: the general path within its memory bound.
//!
//! `pieces.rs` takes a large file only when it is canonical and no
//! finding has a fix; any other file (the first `fmt` of an adopted
//! database, a file written by hand) was checked whole, its tree held at
//! about ten times its text, on one core. Here such a file is cut into
//! parts as the pieces are (at `---` lines, about `PIECE_BYTES` each, the
//! metadata document in front of each), and each part is read, checked by
//! the rules on records and by the layout rules that look at one document
//! at a time, written as canonical text and in place, and dropped, a few
//! parts per core at a time. What crosses parts is answered after:
//!
//! - the rules across records (`rules::clean::Paths`) and
//!   `unsorted-records` on every record's `_path`;
//! - the canonical text is the metadata's, then each part's records as
//!   `render` sorts them, one part after the other: the same text as the
//!   whole file's when no record of a part sorts before one of the part
//!   before (else the file is checked whole);
//! - `not-canonical` names the first line that differs from the text in
//!   place: the first part whose lines differ has it, when every part
//!   before has as many lines as its text in place (else the whole file
//!   answers).
//!
//! The layout findings are found for every part and kept only when the
//! file turns out not canonical and nothing forbids rewriting it, as the
//! whole path runs those rules. No tree is kept: `check --fix` checks the
//! file again whole (`lint::fix`). Anything this path does not take — no
//! `---` line to cut at, a parser problem or a suppression comment in a
//! part (`pieces::read`), a byte order mark, CR line breaks, a tab, a fix
//! that sets a `_path` — returns `None`, and the caller checks the file
//! whole. The results are the same either way: `tests/it/check/fast_path.rs`
//! checks every generated and mutated file in parts of 48 bytes against
//! the whole path.

use std::ops::Range;
use std::path::Path;

use compact_str::CompactString;
use rayon::prelude::*;

use super::excuse::{self, Comments, Stage};
use super::{Checked, Documents, Options, pieces, render_options, text_findings};
use crate::model::node::Document;
use crate::render::render;
use crate::rules::clean::{self, Paths};
use crate::rules::diagnostic::Finding;
use crate::rules::files::not_canonical;
use crate::rules::records::unsorted_records;
use crate::rules::{self, Check, FileContext, LayoutContext};
use crate::source::{Source, Span};

/// Parts read at once, per thread: the memory a check holds beyond the
/// text, its canonical text and its findings is this many trees of a part
/// per core, whatever the file's size.
const PARTS_PER_THREAD: usize = 4;

/// A part is a quarter of a piece of `pieces.rs`: with
/// [`PARTS_PER_THREAD`], the text read at once per thread is one piece.
const PARTS_PER_PIECE: usize = 4;

/// What a part leaves behind when its tree is dropped.
struct Part {
    /// The findings of the rules on documents (the metadata's only in the
    /// first part).
    findings: Vec<Finding>,
    /// The findings of the layout rules on documents, kept when the file
    /// is not canonical.
    layout: Vec<Finding>,
    /// How many documents it holds (the metadata in front not counted).
    documents: usize,
    /// Each record's `_path` value's span, in file order.
    paths: Vec<Span>,
    /// The values of those that are not the text in their span (a quoted
    /// `_path`), by their place in `paths`: few, so not a field of each.
    copies: Vec<(usize, CompactString)>,
    /// The least and the greatest of its records as `render` orders them
    /// (by `_path`; a record without one first).
    least: Option<CompactString>,
    greatest: Option<CompactString>,
    /// Its records' canonical text, `None` when it is the part's text.
    canonical: Option<String>,
    /// `not-canonical` on the part's lines (`not_canonical::in_part`).
    in_place: Result<Option<Finding>, ()>,
    /// A finding's fix would set a record's `_path`, which only the whole
    /// file can weigh (`fix::guard_path_fixes`).
    sets_a_path: bool,
}

/// Check `raw` a part at a time, or `None` when it must be checked whole.
/// Without `fixes`, the findings keep no fix (an editor's diagnostics).
pub(crate) fn check(path: &Path, raw: &[u8], options: &Options, fixes: bool) -> Option<Checked> {
    let text = std::str::from_utf8(raw).ok()?;
    // The layout is compared line by line on `\n` alone, and tabs are
    // asked of the whole tree (`rules::engine::refused_tabs`): such files
    // are rare among large ones, and checked whole.
    if crate::parse::has_bom(text)
        || memchr::memchr2(b'\r', b'\t', raw).is_some()
        || !text.ends_with('\n')
        || rules::engine::before_parsing(text).is_some()
    {
        return None;
    }
    let bounds = cut(text, options.piece_bytes() / PARTS_PER_PIECE)?;
    let metadata_end = bounds[0];
    let metadata = pieces::read(text, 0..metadata_end)?;
    let metadata_comments = metadata.comments;
    let [metadata] = <[Document; 1]>::try_from(metadata.documents).ok()?;
    let alone = std::slice::from_ref(&metadata);
    let metadata_text = render(alone, &render_options(text, alone, options));
    let metadata_in_place = not_canonical::in_place(alone, options.settings.style);
    let domain = rules::domain_of(path);
    let source = Source::new(path, text.to_string());
    let shared = Shared {
        source: &source,
        metadata: &metadata,
        metadata_text: &metadata_text,
        metadata_in_place: &metadata_in_place,
        metadata_end,
        domain: &domain,
        options,
    };

    // The rules on the text run beside the parts (a finding's place in
    // the list does not matter: they are sorted by place and rule).
    let (on_text, joined) =
        rayon::join(|| text_findings(raw, &source), || joined(&shared, &bounds));
    let Joined {
        findings: mut all,
        paths,
        copies,
        canonical,
        in_place,
    } = joined?;
    all.extend(on_text);
    all.extend(metadata_comments.into_iter().map(rules::engine::of_comment));
    let mut copies = copies.iter().peekable();
    let paths: Vec<(&str, &Span)> = paths
        .iter()
        .enumerate()
        .map(|(i, span)| match copies.next_if(|(at, _)| *at == i) {
            Some((_, value)) => (value.as_str(), span),
            None => (&text[span.clone()], span),
        })
        .collect();
    let across = Paths {
        all: &paths,
        strictly_ascending: false,
        case_sensitive: crate::model::domain::case_sensitive_paths(alone),
        marked: None,
    };
    for (_, find) in clean::across_records() {
        find(&across, &mut all);
    }
    let is_layout = |f: &Finding| matches!(f.rule.check, Check::Layout(_));
    let canonical = if rules::first_blocking(&all).is_some() {
        all.retain(|f| !is_layout(f));
        None
    } else {
        let canonical = canonical.unwrap_or_else(|| text.to_string());
        if canonical == text {
            all.retain(|f| !is_layout(f));
        } else {
            // The layout rules, as the whole path runs them: those on
            // documents found by the parts, those across them here.
            unsorted_records::over_paths(paths.iter().copied(), &mut all);
            let metadata_lines =
                not_canonical::in_part(&text[..metadata_end], 0, &metadata_in_place, &all);
            match (metadata_lines, in_place) {
                (Ok(Some(finding)), _) | (Ok(None), Some(Ok(finding))) => all.push(finding),
                (Ok(None), None) => {}
                (Err(()), _) | (Ok(None), Some(Err(()))) => return None,
            }
            rules::engine::explain_rewrite(&mut all, text, &canonical);
        }
        Some(canonical)
    };
    // Finished as the whole path finishes them; the text holds no
    // suppression comment (`pieces::read` gives up on one).
    let mut finished = excuse::finish(path, all, Comments::None, Stage::File, options);
    if !fixes {
        finished.findings.iter_mut().for_each(|f| f.fix = None);
    }
    Some(Checked {
        canonical: canonical.filter(|_| finished.blocked_by.is_none()),
        source,
        documents: Documents::InParts,
        findings: finished.findings,
        suppressed: finished.suppressed,
        blocked_by: finished.blocked_by,
    })
}

/// What the parts leave, joined in file order.
struct Joined {
    findings: Vec<Finding>,
    paths: Vec<Span>,
    copies: Vec<(usize, CompactString)>,
    /// The canonical text, when it differs from the text.
    canonical: Option<String>,
    /// `not-canonical` of the first part whose lines differ.
    in_place: Option<Result<Finding, ()>>,
}

/// Check the parts between `bounds`, a few per core at a time, and join
/// what they leave; `None` when the file must be checked whole.
fn joined(shared: &Shared, bounds: &[usize]) -> Option<Joined> {
    let text = &shared.source.text;
    let mut all = Vec::new();
    let mut paths: Vec<Span> = Vec::new();
    let mut copies: Vec<(usize, CompactString)> = Vec::new();
    // The canonical text, once it differs from the text: a file whose
    // parts are canonical (a finding with a fix sent it here) copies its text
    // once, at the end, when no part's tree is held any more.
    let mut canonical: Option<String> = (text.get(..shared.metadata_end)
        != Some(shared.metadata_text))
    .then(|| String::with_capacity(text.len()) + shared.metadata_text);
    let mut greatest: Option<Option<CompactString>> = None;
    let mut in_place: Option<Result<Finding, ()>> = None;
    let mut first_document = 1;
    let ranges: Vec<Range<usize>> = bounds.windows(2).map(|w| w[0]..w[1]).collect();
    let at_once = rayon::current_num_threads().max(1) * PARTS_PER_THREAD;
    for (batch, ranges) in ranges.chunks(at_once).enumerate() {
        let parts: Vec<Option<Part>> = ranges
            .par_iter()
            .enumerate()
            .map(|(i, range)| part(shared, range.clone(), batch == 0 && i == 0))
            .collect();
        for (part, range) in parts.into_iter().zip(ranges) {
            let mut part = part?;
            if part.sets_a_path
                || greatest
                    .as_ref()
                    .is_some_and(|g| part.least.as_ref() < g.as_ref())
            {
                return None;
            }
            greatest = Some(part.greatest.take());
            // A fix names its document by its place in the part: moved
            // to the file's.
            for finding in part.findings.iter_mut().chain(&mut part.layout) {
                pieces::renumber(finding, first_document);
            }
            first_document += part.documents;
            // The layout findings too, in the same list: no layout rule
            // forbids a rewrite, and they are taken out again when the
            // file is canonical or may not be rewritten.
            all.append(&mut part.findings);
            all.append(&mut part.layout);
            let before = paths.len();
            copies.extend(part.copies.drain(..).map(|(i, value)| (before + i, value)));
            paths.append(&mut part.paths);
            match (&mut canonical, &part.canonical) {
                (None, None) => {}
                (None, Some(records)) => {
                    let mut differs = String::with_capacity(text.len());
                    differs.push_str(&text[..range.start]);
                    differs.push_str(records);
                    canonical = Some(differs);
                }
                (Some(so_far), Some(records)) => so_far.push_str(records),
                (Some(so_far), None) => so_far.push_str(&text[range.clone()]),
            }
            if in_place.is_none() {
                in_place = part.in_place.transpose();
            }
        }
    }

    Some(Joined {
        findings: all,
        paths,
        copies,
        canonical,
        in_place,
    })
}

/// What every part reads beside its own text.
struct Shared<'a> {
    source: &'a Source,
    metadata: &'a Document,
    /// The metadata's canonical text and its text in place: what each
    /// part's rendering starts with.
    metadata_text: &'a str,
    metadata_in_place: &'a str,
    metadata_end: usize,
    domain: &'a str,
    options: &'a Options,
}

/// Read and check the records in `range`, the metadata in front of them;
/// the metadata's own findings are kept in the `first` part only.
fn part(shared: &Shared, range: Range<usize>, first: bool) -> Option<Part> {
    let Shared {
        source, options, ..
    } = *shared;
    let text = &source.text;
    let pieces::ReadPiece {
        documents,
        mut findings,
        from_fast,
    } = pieces::read_and_check(
        source,
        shared.metadata,
        range.clone(),
        shared.domain,
        options,
    )?;
    let ctx = FileContext {
        source,
        documents: &documents,
        domain: shared.domain,
        settings: &options.settings,
    };
    // The layout rules that look at one document at a time; what looks
    // across records (`unsorted-records`, the rules across records) and
    // at the whole canonical text (`not-canonical`) is answered on the
    // whole file.
    let across: Vec<&'static rules::Rule> = clean::across_records().map(|(r, _)| r).collect();
    let whole_file = |rule: &rules::Rule| {
        across.iter().any(|r| std::ptr::eq(*r, rule))
            || std::ptr::eq(rule, &unsorted_records::RULE)
            || std::ptr::eq(rule, &not_canonical::RULE)
    };
    // No rule on a part reads the canonical text: what does
    // (`not-canonical`, the finding that explains a rewrite) is answered
    // on the whole file.
    let layout_ctx = LayoutContext {
        file: &ctx,
        canonical: "",
    };
    let mut layout = Vec::new();
    for rule in rules::ALL {
        if let Check::Layout(check) = rule.check
            && !whole_file(rule)
        {
            check(&layout_ctx, &mut layout);
        }
    }
    if !first {
        findings.retain(|f| f.span.start >= shared.metadata_end);
        layout.retain(|f| f.span.start >= shared.metadata_end);
    }
    let sets_a_path = pieces::sets_a_path(&documents, &findings);
    let render_options = render_options(text, &documents, options);
    let own = text.get(range.clone())?;
    let canonical = if from_fast && crate::render::is_canonical(&documents, &render_options) {
        None
    } else {
        let mut rendered = render(&documents, &render_options);
        if !rendered.starts_with(shared.metadata_text) {
            return None;
        }
        rendered.drain(..shared.metadata_text.len());
        Some(rendered).filter(|records| records.as_str() != own)
    };
    let in_place = match canonical {
        None => Ok(None),
        Some(_) => {
            let mut in_place = not_canonical::in_place(&documents, options.settings.style);
            if !in_place.starts_with(shared.metadata_in_place) {
                return None;
            }
            in_place.drain(..shared.metadata_in_place.len());
            not_canonical::in_part(own, range.start, &in_place, &findings)
        }
    };
    let mut paths = Vec::new();
    let mut copies = Vec::new();
    for (_, entry, path) in crate::model::domain::paths(&documents) {
        let span = entry.value.span.clone();
        if text.get(span.clone()) != Some(path) {
            copies.push((paths.len(), path.into()));
        }
        paths.push(span);
    }
    let mut keys = documents[1..].iter().map(pieces::record_path);
    let first_key = keys.next()?;
    let (least, greatest) = keys.fold((first_key.clone(), first_key), |(l, g), k| {
        (l.min(k.clone()), g.max(k))
    });
    Some(Part {
        findings,
        layout,
        documents: documents.len() - 1,
        paths,
        copies,
        least,
        greatest,
        canonical,
        in_place,
        sets_a_path,
    })
}

/// The bounds of the parts: where the metadata ends (the second
/// document's `---` line), then about every `piece` bytes a `---` line,
/// then the end of the text. A cut is made only under a line that is no
/// comment and not blank: such lines above a `---` belong to the document
/// below, and a blank line may belong to a block scalar above (`|+`).
fn cut(text: &str, piece: usize) -> Option<Vec<usize>> {
    let bytes = text.as_bytes();
    let under_content = |at: usize| {
        let line = memchr::memrchr(b'\n', &bytes[..at - 1]).map_or(0, |i| i + 1);
        let above = text[line..at - 1].trim_start();
        !above.is_empty() && !above.starts_with('#')
    };
    // The first `---` line after a line that opens the metadata document
    // (its own `---`, or its content): comments and blank lines before
    // it open none.
    let mut at = 0;
    let mut opened = false;
    let metadata_end = loop {
        let line_end = memchr::memchr(b'\n', &bytes[at..]).map(|i| at + i + 1)?;
        let line = &text[at..line_end];
        if opened && line == "---\n" {
            break at;
        }
        let body = line.trim_start();
        opened |= !body.is_empty() && !body.starts_with('#');
        at = line_end;
    };
    if !under_content(metadata_end) {
        return None;
    }
    let mut bounds = vec![metadata_end];
    let mut at = metadata_end;
    'parts: while text.len() - at > piece {
        let mut from = at + piece;
        at = loop {
            let Some(found) = memchr::memmem::find(&bytes[from..], b"\n---\n") else {
                break 'parts;
            };
            let next = from + found + 1;
            if under_content(next) {
                break next;
            }
            from = next;
        };
        bounds.push(at);
    }
    bounds.push(text.len());
    Some(bounds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_start_at_documents_under_content() {
        let text = "# head\n---\nhttps: true\n---\n_path: /a\n---\n_path: /b\n# c\n---\n_path: /c\n\n---\n_path: /d\n";
        let bounds = cut(text, 4).expect("cut");
        assert!(text[bounds[0]..].starts_with("---\n_path: /a\n"));
        assert!(text[bounds[1]..].starts_with("---\n_path: /b\n"));
        // Not under a comment or a blank line.
        assert_eq!(bounds.len(), 3);
        assert_eq!(bounds[2], text.len());
        // No second document: nothing to cut.
        assert!(cut("---\nhttps: true\n", 4).is_none());
    }
}
