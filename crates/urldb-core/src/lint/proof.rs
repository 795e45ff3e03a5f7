//! Records no rule speaks of, proven from their text: how a clean,
//! canonical file is checked without a tree.
//!
//! Nearly every record of a database is canonical and has nothing to
//! report. Building its tree only to find nothing costs many times more
//! than reading it, so before a piece of a file is parsed
//! (`lint::pieces`), this scanner tries to prove, line by line, that every
//! record in it is written exactly as `fmt` writes it and that no rule
//! would report anything in it. It knows the layout only:
//!
//! - `---` lines, `key: value` lines at the left margin, and `- item`
//!   lines under a `key:` line for the keys the format gives a list
//!   (`domain::field_kind`);
//! - keys in the renderer's order (records in the order of their
//!   `_path`), each written plain;
//! - every value on its line, plain or single-quoted, and what the
//!   renderer writes for it (`render::written_as_is`, the renderer's own
//!   decision).
//!
//! What no rule's finding may fall on, it asks the rules
//! (`rules::clean`): each value of a record key, each extra key, the keys
//! of each record. What the rules answer across records (two paths that
//! are one URL) the caller answers on the paths returned.
//!
//! The proof errs on one side only: anything it does not recognise —
//! another layout, a comment, a value the renderer would write otherwise,
//! a value a rule does not call clean — gives `None`, and the piece is
//! parsed and checked by the rules as before.
//! `tests/it/check/fast_path.rs` holds the two ways to the same results
//! with every rule selected, and every rule's own tests run both ways
//! (`rules::test_support`).

use std::ops::{Not, Range};

use std::sync::LazyLock;

use crate::model::domain::{self, FieldKind};
use crate::render::{read_whole, written_as_is, written_as_is_quiet};
use crate::rules::clean::{self, ASKED, Asked, Facts, RecordShape, Written};
use crate::source::Span;

/// Records proven clean.
pub(super) struct Silent {
    /// How many records.
    pub(super) documents: usize,
    /// How many of them, at the start, have no `_path` (canonical order
    /// puts those first).
    pub(super) pathless: usize,
    /// Each record's `_path` value, in file order, each at least the one
    /// before (plain: the value is the text in the span).
    pub(super) paths: Vec<Span>,
    /// Some `_path` is the same as the one before it.
    pub(super) repeated_path: bool,
    /// The places in `paths` of those holding a byte a rule across records
    /// looks at (`rules::clean::Paths::marked`).
    pub(super) marked: Vec<usize>,
}

/// What comes before a value on its line, as the `pyyaml` style's width
/// counts it.
const KEY_COLUMNS: [usize; 5] = [
    domain::PATH.len() + 2,
    domain::CATEGORIES.len() + 2,
    domain::CONTENT_LENGTH.len() + 2,
    domain::CONTENT_SHA256.len() + 2,
    domain::CONTENT_TYPE.len() + 2,
];
const ITEM_COLUMNS: usize = "- ".len();

/// Prove the records in `range` of `text` clean, or `None`. The range
/// starts at a `---` line and ends after a line break.
pub(super) fn records(text: &str, range: Range<usize>, facts: &Facts) -> Option<Silent> {
    let piece = text.as_bytes().get(range.clone())?;
    // What the layout read here never holds, ruled out in one pass without
    // a branch per byte, so that it vectorizes: control characters, tabs,
    // CR, non-ASCII (outside ` `..`~`: `b - 0x20` wraps below it), but the
    // line break; and `#` (a comment, where it follows a space).
    let refused = |b: u8| {
        (u8::from(b.wrapping_sub(0x20) >= 0x5F) & u8::from(b != b'\n')) | u8::from(b == b'#')
    };
    if !piece.starts_with(b"---\n")
        || !piece.ends_with(b"\n")
        || !piece
            .chunks(64)
            .all(|chunk| chunk.iter().fold(0, |any, &b| any | refused(b)) == 0)
    {
        return None;
    }
    let mut prover = Prover {
        facts,
        silent: Silent {
            documents: 0,
            pathless: 0,
            paths: Vec::with_capacity(piece.len() / 96 + 1),
            repeated_path: false,
            marked: Vec::new(),
        },
        proven: Proven::default(),
        kinds: domain::RECORD_KEYS.map(domain::field_kind),
        clean_shape: None,
        previous_path: None,
    };
    let mut lines = Lines {
        text,
        base: range.start,
        start: range.start,
        breaks: memchr::memchr_iter(b'\n', piece),
    };
    let mut next = lines.next();
    while let Some((_, marker)) = next {
        if !is_marker(marker) {
            return None;
        }
        prover.silent.documents += 1;
        let mut keys = Keys::default();
        next = lines.next();
        while let Some((at, line)) = next.filter(|(_, line)| !is_marker(line)) {
            next = lines.next();
            // `key: value`, or `key:` and its items on the lines below.
            let (key, value) = split_key(line)?;
            let field = keys.next(key)?;
            match field {
                PATH => prover.path(at + key.len() + ": ".len(), value?)?,
                CATEGORIES if value.is_none() => {
                    next = prover.categories(next, &mut lines, &mut keys.shape)?;
                }
                CONTENT_TYPE => prover.media_type(value?)?,
                EXTRA => prover.extra(key, value?)?,
                CONTENT_LENGTH | CONTENT_SHA256 => prover.value(field, value?)?,
                _ => return None,
            }
        }
        prover.record(keys.shape)?;
    }
    Some(prover.silent)
}

/// The keys of one record so far: whether each comes in the renderer's
/// order, and the record's shape.
#[derive(Default)]
struct Keys<'a> {
    shape: RecordShape,
    /// The last key and its place (`None` before the first).
    last: Option<(&'a str, usize)>,
}

impl<'a> Keys<'a> {
    /// The place of `key`, the record's next key, or `None` when it is out
    /// of the renderer's order (which is the text's). The record keys, in
    /// that order, are compared by their place; the same key twice is for
    /// the rules to judge.
    #[inline(always)]
    fn next(&mut self, key: &'a str) -> Option<usize> {
        let field = field_of(key);
        if let Some((last_key, last_field)) = self.last {
            let order = if field == EXTRA || last_field == EXTRA {
                key.cmp(last_key)
            } else {
                field.cmp(&last_field)
            };
            match order {
                std::cmp::Ordering::Less => return None,
                std::cmp::Ordering::Equal => self.shape.repeated_key = true,
                std::cmp::Ordering::Greater => {}
            }
        }
        self.last = Some((key, field));
        if field == EXTRA {
            self.shape.extras = self.shape.extras.saturating_add(1);
        } else {
            self.shape.held |= 1 << field;
        }
        Some(field)
    }
}

/// What the proof of a piece has found so far, with one method for each
/// kind of line; each gives `None` for a line it cannot prove clean.
struct Prover<'a, 'f> {
    facts: &'f Facts<'f>,
    silent: Silent,
    proven: Proven<'a>,
    /// The kind of each record key's value.
    kinds: [FieldKind; 5],
    /// A record's keys answer the same for the same shape: the last one
    /// found clean is not asked again.
    clean_shape: Option<RecordShape>,
    previous_path: Option<&'a str>,
}

impl<'a> Prover<'a, '_> {
    /// A `_path` value at `at`: plain, so that its span is its value, which
    /// the rules across records read; in the renderer's order of records.
    #[inline(always)]
    fn path(&mut self, at: usize, value: &'a str) -> Option<()> {
        if value.starts_with('\'') || past_int_limit(value) {
            return None;
        }
        let written = Written {
            value,
            quoted: false,
        };
        let columns = KEY_COLUMNS[PATH];
        if clean_value(PATH, written, FieldKind::String, columns, self.facts)? != 0 {
            self.silent.marked.push(self.silent.paths.len());
        }
        match self.previous_path.map(|p| p.cmp(value)) {
            Some(std::cmp::Ordering::Greater) => return None,
            Some(std::cmp::Ordering::Equal) => self.silent.repeated_path = true,
            _ => {}
        }
        self.silent.paths.push(at..at + value.len());
        self.previous_path = Some(value);
        Some(())
    }

    /// The `- item` lines under `categories:`, from `next` on: the line
    /// after them is given back.
    #[inline(always)]
    fn categories(
        &mut self,
        mut next: Option<(usize, &'a str)>,
        lines: &mut Lines<'a>,
        shape: &mut RecordShape,
    ) -> Option<Option<(usize, &'a str)>> {
        let facts = self.facts;
        let mut previous: Option<&str> = None;
        while let Some(written) = next.and_then(|(_, line)| line.strip_prefix("- ")) {
            next = lines.next();
            let (item, quoted) = unquoted(written)?;
            // Items in the renderer's order; the same one twice is for the
            // rules to judge.
            match previous.map(|p| p.cmp(item)) {
                Some(std::cmp::Ordering::Greater) => return None,
                Some(std::cmp::Ordering::Equal) => shape.repeated_item = true,
                _ => {}
            }
            let item_written = Written {
                value: item,
                quoted,
            };
            if !self.proven.item(written, || {
                clean_value(
                    CATEGORIES,
                    item_written,
                    FieldKind::String,
                    ITEM_COLUMNS,
                    facts,
                )
                .is_some()
            }) {
                return None;
            }
            previous = Some(item);
        }
        // A list is read as its items, one at least.
        previous?;
        Some(next)
    }

    /// A `content-type` value: a file has a few media types, each proven
    /// once.
    #[inline(always)]
    fn media_type(&mut self, line_value: &'a str) -> Option<()> {
        let facts = self.facts;
        self.proven
            .media_type(line_value, || {
                unquoted(line_value).is_some_and(|(value, quoted)| {
                    let written = Written { value, quoted };
                    let columns = KEY_COLUMNS[CONTENT_TYPE];
                    clean_value(CONTENT_TYPE, written, FieldKind::String, columns, facts).is_some()
                })
            })
            .then_some(())
    }

    /// A key other than the record keys, written plain, with a value on its
    /// line.
    #[inline(always)]
    fn extra(&mut self, key: &'a str, value: &'a str) -> Option<()> {
        let (value, quoted) = unquoted(value)?;
        let columns = key.len() + ": ".len();
        let style = self.facts.settings.style;
        let asked: &Asked = &ASKED;
        (self.proven.extra_key(key, || {
            crate::render::key_written_as_is(key, style)
                && asked.extra_keys.iter().all(|clean| clean(key))
        }) && written_as_is(value, quoted, FieldKind::Any, columns, style))
        .then_some(())
    }

    /// `content-length`, `content-sha256`: a value on its line.
    #[inline(always)]
    fn value(&mut self, field: usize, value: &'a str) -> Option<()> {
        let (value, quoted) = unquoted(value)?;
        let written = Written { value, quoted };
        let columns = *KEY_COLUMNS.get(field)?;
        clean_value(field, written, *self.kinds.get(field)?, columns, self.facts).map(|_| ())
    }

    /// The end of a record of `shape`.
    #[inline(always)]
    fn record(&mut self, shape: RecordShape) -> Option<()> {
        // Records without a `_path` come first in the renderer's order.
        if shape.held & (1 << PATH) == 0 {
            if self.previous_path.is_some() {
                return None;
            }
            self.silent.pathless += 1;
        }
        if self.clean_shape != Some(shape) {
            let asked: &Asked = &ASKED;
            if !asked.records.iter().all(|clean| clean(&shape)) {
                return None;
            }
            self.clean_shape = Some(shape);
        }
        Some(())
    }
}

/// For each record key and each byte, who reads a value holding it whole:
/// the rules that look at the byte (bits, `rules::clean::ValueAnswers`),
/// the renderer ([`RENDERER`]) and, of a `_path`, the rules across
/// records ([`ACROSS`]). A value's bytes are read once for all of them.
static READERS: LazyLock<[[u32; 256]; 5]> = LazyLock::new(|| {
    let mut tables = [[0; 256]; 5];
    let across = clean::across_records_look_at();
    for (field, (table, answers)) in tables.iter_mut().zip(&ASKED.values).enumerate() {
        for ((b, entry), across) in (0..=u8::MAX).zip(table.iter_mut()).zip(across) {
            *entry = answers.looking_at(b);
            if read_whole(b) {
                *entry |= RENDERER;
            }
            if field == PATH && across {
                *entry |= ACROSS;
            }
        }
    }
    tables
});

/// The bits of [`READERS`] that stand for the renderer and for the rules
/// across records.
const RENDERER: u32 = 1 << 31;
const ACROSS: u32 = 1 << 30;

/// Whether the renderer writes `written`, a value of the record key
/// `field`, as it is and no rule reports it: `None`, or who else looks at
/// it ([`ACROSS`]). Inlined: it is asked of every value.
#[inline(always)]
fn clean_value(
    field: usize,
    written: Written,
    kind: FieldKind,
    columns: usize,
    facts: &Facts,
) -> Option<u32> {
    let answers = &ASKED.values[field];
    let table = &READERS[field];
    let bytes = written.value.as_bytes();
    let leading = answers.leading(written.value);
    // A key some rule asks of by pairs of bytes
    // (`rules::clean::LooksAt::Pair`) is read as its pairs, each byte but
    // the last as the first of a pair, and the last alone: who reads a
    // pair is who reads its first byte, and who the pair when its first
    // byte leads one (`firsts`) and its second ends one (`seconds`). Three
    // tables of 1 KiB stay in the first-level data cache, where one entry
    // for every pair (256 KiB a key) did not: on a million records that
    // was millions of cache misses more (`docs/dev/performance.md`).
    let readers = match answers.pairs() {
        Some((pair_firsts, pair_seconds)) => {
            let (firsts, last) = match bytes.split_last() {
                Some((&last, firsts)) => (firsts, table[usize::from(last)]),
                None => (bytes, 0),
            };
            firsts.iter().zip(bytes.iter().skip(1)).fold(
                leading | last,
                |readers, (&first, &second)| {
                    readers
                        | table[usize::from(first)]
                        | (pair_firsts[usize::from(first)] & pair_seconds[usize::from(second)])
                },
            )
        }
        None => bytes
            .iter()
            .fold(leading, |readers, &b| readers | table[usize::from(b)]),
    };
    let (value, quoted, style) = (written.value, written.quoted, facts.settings.style);
    let as_is = if readers & RENDERER == 0 {
        written_as_is_quiet(value, quoted, kind, columns, style)
    } else {
        written_as_is(value, quoted, kind, columns, style)
    };
    (as_is && answers.ask(readers & !(RENDERER | ACROSS), written, facts))
        .then_some(readers & ACROSS)
}

/// The places of the record keys in `domain::RECORD_KEYS`, and what
/// [`field_of`] gives another key (an extra).
const PATH: usize = 0;
const CATEGORIES: usize = 1;
const CONTENT_LENGTH: usize = 2;
const CONTENT_SHA256: usize = 3;
const CONTENT_TYPE: usize = 4;
const EXTRA: usize = 5;

/// A document marker line, `---`.
fn is_marker(line: &str) -> bool {
    matches!(line.as_bytes(), [b'-', b'-', b'-'])
}

/// The place of a record key in `domain::RECORD_KEYS` (which is in the
/// renderer's order), or [`EXTRA`] for another key.
fn field_of(key: &str) -> usize {
    // Each compared with a text of the length it has: a few loads, no call.
    match key.len() {
        5 if key == domain::PATH => PATH,
        10 if key == domain::CATEGORIES => CATEGORIES,
        14 if key == domain::CONTENT_LENGTH => CONTENT_LENGTH,
        14 if key == domain::CONTENT_SHA256 => CONTENT_SHA256,
        12 if key == domain::CONTENT_TYPE => CONTENT_TYPE,
        _ => EXTRA,
    }
}

/// Media types, list items and extra keys (as written) proven clean in
/// this piece, which are not proven again: a file has few of each.
#[derive(Default)]
struct Proven<'a> {
    media_types: Vec<&'a str>,
    items: Vec<&'a str>,
    extra_keys: Vec<&'a str>,
}

impl<'a> Proven<'a> {
    fn media_type(&mut self, text: &'a str, prove: impl FnOnce() -> bool) -> bool {
        Self::known(&mut self.media_types, text, prove)
    }

    fn item(&mut self, text: &'a str, prove: impl FnOnce() -> bool) -> bool {
        Self::known(&mut self.items, text, prove)
    }

    fn extra_key(&mut self, text: &'a str, prove: impl FnOnce() -> bool) -> bool {
        Self::known(&mut self.extra_keys, text, prove)
    }

    #[inline]
    fn known(seen: &mut Vec<&'a str>, text: &'a str, prove: impl FnOnce() -> bool) -> bool {
        // The last one found is looked at first, without a call: neighbours
        // repeat.
        if seen.first().is_some_and(|s| *s == text) {
            return true;
        }
        Self::seen_or_proven(seen, text, prove)
    }

    /// `text` is among the others seen (then looked at first next time), or
    /// `prove` says it is clean now (then kept, up to 64).
    fn seen_or_proven(
        seen: &mut Vec<&'a str>,
        text: &'a str,
        prove: impl FnOnce() -> bool,
    ) -> bool {
        if let Some(i) = seen.iter().position(|s| *s == text) {
            seen.swap(0, i);
            return true;
        }
        let clean = prove();
        if clean && seen.len() < 64 {
            seen.push(text);
        }
        clean
    }
}

/// A line's key and the value after `: `, or `None` for the value of a
/// `key:` line (items follow). The key ends at the first `: ` (a `:` in a
/// plain key is followed by something else), as YAML reads it.
fn split_key(line: &str) -> Option<(&str, Option<&str>)> {
    let bytes = line.as_bytes();
    // Keys are short: a plain loop finds the colon sooner than a search
    // that first sets itself up.
    let mut from = 0;
    loop {
        let colon = from + bytes.get(from..)?.iter().position(|&b| b == b':')?;
        match bytes.get(colon + 1) {
            Some(b' ') => return Some((line.get(..colon)?, line.get(colon + 2..))),
            None => return Some((line.get(..colon)?, None)),
            Some(_) => from = colon + 1,
        }
    }
}

/// A value as written: plain, or in single quotes with no quote inside.
fn unquoted(written: &str) -> Option<(&str, bool)> {
    match written.strip_prefix('\'') {
        Some(quoted) => Some((quoted.strip_suffix('\'')?, true)),
        None => past_int_limit(written).not().then_some((written, false)),
    }
}

/// A plain value long enough that PyYAML may refuse it as an integer
/// (`parse::reader`, "length limits"): the reader in front of the parser
/// judges it, so the proof leaves it to the tree.
fn past_int_limit(plain: &str) -> bool {
    plain.len() > crate::parse::INT_DIGITS_LIMIT
}

/// The lines of a range, each with the offset where it starts: the line
/// breaks are found by one search over the range, not one per line.
struct Lines<'a> {
    text: &'a str,
    /// Where the range starts: the breaks are found in it.
    base: usize,
    /// Where the next line starts.
    start: usize,
    breaks: memchr::Memchr<'a>,
}

impl<'a> Iterator for Lines<'a> {
    type Item = (usize, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        let start = self.start;
        let end = self.base + self.breaks.next()?;
        self.start = end + 1;
        Some((start, self.text.get(start..end)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The proof reads the record keys by their place and knows the kind
    /// of three of them: each place is the format's, with its kind.
    #[test]
    fn the_record_keys_are_where_the_proof_reads_them() {
        let place = |key| domain::RECORD_KEYS.iter().position(|k| *k == key);
        assert_eq!(place(domain::PATH), Some(PATH));
        assert_eq!(place(domain::CATEGORIES), Some(CATEGORIES));
        assert_eq!(place(domain::CONTENT_TYPE), Some(CONTENT_TYPE));
        assert_eq!(domain::RECORD_KEYS.len(), EXTRA);
        assert_eq!(domain::field_kind(domain::PATH), FieldKind::String);
        assert_eq!(
            domain::field_kind(domain::CATEGORIES),
            FieldKind::StringList
        );
        assert_eq!(domain::field_kind(domain::CONTENT_TYPE), FieldKind::String);
        for (field, key) in domain::RECORD_KEYS.iter().enumerate() {
            assert_eq!(field_of(key), field, "{key}");
            assert_eq!(KEY_COLUMNS[field], key.len() + ": ".len(), "{key}");
            let near = format!("{}x", &key[..key.len() - 1]);
            assert_eq!(field_of(&near), EXTRA, "{near}");
        }
        assert_eq!(field_of("owner"), EXTRA);
    }
}
