//! Records no rule speaks of, proven from their text: how a clean,
//! canonical file is checked without a tree.
//!
//! Nearly every record of a database is canonical and has nothing to
//! report. Building its tree only to find nothing costs many times more
//! than reading it, so before a piece of a file is parsed
//! (`lint::pieces`), this scanner tries to prove, line by line, that every
//! record in it is written exactly as `fmt` writes it and that no rule
//! would report anything in it:
//!
//! - keys in canonical order, each once, at the left margin: the record
//!   keys `_path`, `categories`, `content-length`, `content-sha256`,
//!   `content-type` (with `_path` and `content-type` present and the two
//!   static fields together), and extras with a value on their line;
//! - every value on its line, plain (a category or an extra's value may be
//!   single-quoted), and what the renderer writes for it
//!   (`render::written_as_is`, the renderer's own decision);
//! - each value in the narrow form every rule on its field accepts: a path
//!   that starts with one `/`, holds only the characters a path may hold,
//!   escapes only what needs escaping with uppercase hex, has no `.` or
//!   `..` segment and, in a case-insensitive domain, no uppercase letter
//!   before its query; a valid lowercase media type or a redirect marker;
//!   sorted, distinct, known categories; a plain decimal length; a
//!   lowercase hex digest; an extra key that is no near miss of a record
//!   key.
//!
//! `ANSWERS` says, rule by rule, how the proof rules its findings out:
//! a rule added to the catalogue must be added there too (a test holds the
//! two lists together), and a rule that can speak of a record the proof
//! takes must make the proof refuse that record.
//!
//! The proof errs on one side only: anything it does not recognise —
//! another key, a comment, a quoted value, a lowercase escape — gives
//! `None`, and the piece is parsed and checked by the rules as before. What
//! the rules answer across records (order, duplicate and equivalent paths)
//! the caller answers on the paths returned. `tests/it/check/fast_path.rs`
//! holds the two ways to the same results with every rule selected.

use std::ops::Range;

use crate::model::domain::{self, FieldKind};
use crate::model::path::is_unreserved;
use crate::model::resolve::Implicit;
use crate::render::{TextStyle, written_as_is};
use crate::rules::path_invalid_char::{ALLOWED, allowed_byte};
use crate::source::Span;

/// How the proof answers each rule, one line per rule of the catalogue: a
/// test holds the list to `rules::ALL`, so a new rule cannot be added
/// without saying how a clean record's text rules it out (or that the
/// caller runs it). Only that test reads it.
#[cfg(test)]
const ANSWERS: &[(&str, &str)] = &[
    (
        "invalid-utf8",
        "text rules run on the whole text before the proof",
    ),
    ("bom", "text rules run on the whole text"),
    (
        "yaml-syntax",
        "only `key: value`, `key:` and `- item` lines of plain or quoted text",
    ),
    ("mixed-line-endings", "text rules run on the whole text"),
    ("trailing-whitespace", "text rules run on the whole text"),
    ("missing-final-newline", "text rules run on the whole text"),
    (
        "yaml-alias",
        "a value starting with `&` or `*` is not written plain",
    ),
    ("yaml-tag", "a value starting with `!` is not written plain"),
    ("yaml-comment", "no `#` in the records"),
    ("duplicate-key", "keys strictly in canonical order"),
    ("non-string-key", "`extra_key_is_clean`: keys written plain"),
    (
        "unloadable-value",
        "every value written as the renderer writes it",
    ),
    ("file-too-large", "text rules run on the whole text"),
    (
        "nesting-too-deep",
        "no nested value: only categories take items",
    ),
    (
        "too-many-documents",
        "counted before parsing, by the caller",
    ),
    ("empty-file", "the metadata's findings, by the caller"),
    (
        "metadata-not-mapping",
        "the metadata's findings, by the caller",
    ),
    ("record-not-mapping", "each record a block mapping"),
    ("missing-path", "`_path` first in each record"),
    ("missing-content-type", "`content-type` last in each record"),
    (
        "invalid-domain-name",
        "the metadata's findings, by the caller",
    ),
    ("invalid-boolean", "the metadata's findings, by the caller"),
    (
        "unknown-metadata-key",
        "the metadata's findings, by the caller",
    ),
    ("invalid-cname", "the metadata's findings, by the caller"),
    ("unsorted-cnames", "the metadata's findings, by the caller"),
    ("duplicate-cname", "the metadata's findings, by the caller"),
    ("cname-is-primary", "the metadata's findings, by the caller"),
    ("cname-conflict", "the metadata's findings, by the caller"),
    ("domain-conflict", "the metadata's findings, by the caller"),
    ("unsorted-records", "paths in order"),
    ("duplicate-path", "on the paths, by the caller"),
    ("equivalent-paths", "on the paths, by the caller"),
    ("unsorted-keys", "keys strictly in canonical order"),
    ("path-network-reference", "`path_is_clean`"),
    ("path-not-absolute", "`path_is_clean`"),
    ("path-fragment", "no `#` in the records"),
    ("path-invalid-char", "`path_is_clean`"),
    ("path-bad-escape", "`path_is_clean`"),
    ("path-escape-case", "`path_is_clean`"),
    ("path-unneeded-escape", "`path_is_clean`"),
    ("path-dot-segment", "`path_is_clean`"),
    ("path-case", "`path_is_clean`"),
    ("invalid-content-type", "`media_type_is_clean`"),
    ("content-type-case", "`media_type_is_clean`"),
    ("invalid-categories", "`category_is_clean`"),
    ("unsorted-categories", "categories strictly in order"),
    ("duplicate-category", "categories strictly in order"),
    ("empty-category", "`category_is_clean`"),
    ("empty-categories", "at least one item under `categories:`"),
    ("invalid-content-length", "a plain decimal that fits"),
    ("invalid-sha256", "`digest_is_clean`"),
    ("sha256-case", "`digest_is_clean`"),
    (
        "incomplete-static",
        "`content-length` and `content-sha256` together",
    ),
    ("suspicious-key", "`extra_key_is_clean`"),
    ("unknown-category", "`category_is_clean`"),
    ("wrong-extension", "a rule across files, run by the caller"),
    ("windows-reserved-name", "text rules run on the whole text"),
    ("not-canonical", "written as `fmt` writes it"),
    ("unused-suppression", "no comment in the records"),
];

/// What the proof needs from outside the records: the metadata and the
/// settings that rules read.
pub(super) struct Facts<'a> {
    /// `case-sensitive-paths` of the file's metadata.
    pub(super) case_sensitive: bool,
    /// `categories` of `urldb.toml`, when it lists them.
    pub(super) categories: Option<&'a [String]>,
    pub(super) style: TextStyle,
}

/// Records proven clean.
pub(super) struct Silent {
    /// How many records.
    pub(super) documents: usize,
    /// Each record's `_path` value, in file order, each greater than the
    /// one before (plain: the value is the text in the span).
    pub(super) paths: Vec<Span>,
    /// Which of them hold an escape (indexes into `paths`).
    pub(super) escaped: Vec<usize>,
}

/// What comes before a value on its line, as the `pyyaml` style's width
/// counts it.
const PATH: &str = "_path: ";
const LENGTH: &str = "content-length: ";
const DIGEST: &str = "content-sha256: ";
const CONTENT_TYPE: &str = "content-type: ";

/// Prove the records in `range` of `text` clean, or `None`. The range
/// starts at a `---` line and ends after a line break.
pub(super) fn records(text: &str, range: Range<usize>, facts: &Facts) -> Option<Silent> {
    let piece = text.as_bytes().get(range.clone())?;
    // What no clean record holds, ruled out in one pass without a branch
    // per byte, so that it vectorizes: control characters, tabs, CR,
    // non-ASCII (outside ` `..`~`: `b - 0x20` wraps below it), but the line
    // break; and `#` (a comment, or a fragment, which `path-fragment`
    // reports).
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
    let mut lines = Lines {
        text,
        base: range.start,
        start: range.start,
        breaks: memchr::memchr_iter(b'\n', piece),
    };
    let mut silent = Silent {
        documents: 0,
        paths: Vec::with_capacity(piece.len() / 96 + 1),
        escaped: Vec::new(),
    };
    let mut proven = Proven::default();
    let mut previous_path: &str = "";
    let mut next = lines.next();
    while let Some((_, marker)) = next {
        if !is_marker(marker) {
            return None;
        }
        silent.documents += 1;
        let mut record = Record::default();
        next = lines.next();
        while let Some((at, line)) = next.filter(|(_, line)| !is_marker(line)) {
            next = lines.next();
            // `key: value`, or `key:` and its items on the lines below.
            let (key, value) = split_key(line)?;
            let field = Field::of(key);
            // `duplicate-key`, `unsorted-keys`: the record keys by their
            // place, without comparing text.
            let after = match (field, record.last_field) {
                (Field::Extra, _) | (_, Some(Field::Extra)) => key > record.last_key,
                (_, last) => last.is_none_or(|last| last < field),
            };
            if !after {
                return None;
            }
            record.last_key = key;
            record.last_field = Some(field);
            let at = at + key.len() + ": ".len();
            match (field, value) {
                (Field::Path, Some(path)) => {
                    // A path listed twice is left to the rules (`duplicate-path`).
                    let escaped = path_is_clean(path, facts.case_sensitive)?;
                    if !path_written_plain(path, facts.style) || path <= previous_path {
                        return None;
                    }
                    if escaped {
                        silent.escaped.push(silent.paths.len());
                    }
                    silent.paths.push(at..at + path.len());
                    previous_path = path;
                    record.path = true;
                }
                (Field::Categories, None) => {
                    let mut previous: Option<&str> = None;
                    while let Some(written) = next.and_then(|(_, line)| line.strip_prefix("- ")) {
                        next = lines.next();
                        let (item, quoted) = unquoted(written)?;
                        if previous.is_some_and(|p| p >= item)
                            || !proven.category(written, || category_is_clean(item, quoted, facts))
                        {
                            return None;
                        }
                        previous = Some(item);
                    }
                    // `empty-categories`.
                    previous?;
                }
                (Field::Length, Some(length)) => {
                    if !length_is_clean(length, facts.style) {
                        return None;
                    }
                    record.length = true;
                }
                (Field::Digest, Some(digest)) => {
                    if !digest_is_clean(digest, facts.style) {
                        return None;
                    }
                    record.digest = true;
                }
                (Field::MediaType, Some(media_type)) => {
                    if !proven
                        .media_type(media_type, || media_type_is_clean(media_type, facts.style))
                    {
                        return None;
                    }
                    record.media_type = true;
                }
                (Field::Extra, Some(value)) => {
                    let (value, quoted) = unquoted(value)?;
                    let columns = key.len() + ": ".len();
                    if !proven.extra_key(key, || extra_key_is_clean(key, facts.style))
                        || !written_as_is(value, quoted, FieldKind::Any, columns, facts.style)
                    {
                        return None;
                    }
                }
                _ => return None,
            }
        }
        // `missing-path`, `missing-content-type`, `incomplete-static`.
        if !record.path || !record.media_type || record.length != record.digest {
            return None;
        }
    }
    Some(silent)
}

/// A document marker line, `---`.
fn is_marker(line: &str) -> bool {
    matches!(line.as_bytes(), [b'-', b'-', b'-'])
}

/// A record key, in canonical order; an extra sorts by its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Field {
    Path,
    Categories,
    Length,
    Digest,
    MediaType,
    Extra,
}

impl Field {
    /// Told apart by length and last byte, then compared once, byte by
    /// byte (inlined: these keys are a few bytes long).
    fn of(key: &str) -> Field {
        let (field, name) = match (key.len(), key.as_bytes().last()) {
            (5, Some(b'h')) => (Field::Path, domain::PATH),
            (10, Some(b's')) => (Field::Categories, domain::CATEGORIES),
            (14, Some(b'h')) => (Field::Length, domain::CONTENT_LENGTH),
            (14, Some(b'6')) => (Field::Digest, domain::CONTENT_SHA256),
            (12, Some(b'e')) => (Field::MediaType, domain::CONTENT_TYPE),
            _ => return Field::Extra,
        };
        let same = key.bytes().zip(name.bytes()).all(|(a, b)| a == b);
        if same { field } else { Field::Extra }
    }
}

/// What one record has shown so far.
#[derive(Default)]
struct Record<'a> {
    last_key: &'a str,
    last_field: Option<Field>,
    path: bool,
    media_type: bool,
    length: bool,
    digest: bool,
}

/// Media types, categories (as written) and extra keys proven clean in
/// this piece, which are not proven again: a file has few of each.
#[derive(Default)]
struct Proven<'a> {
    media_types: Vec<&'a str>,
    categories: Vec<&'a str>,
    extra_keys: Vec<&'a str>,
}

impl<'a> Proven<'a> {
    fn media_type(&mut self, text: &'a str, prove: impl FnOnce() -> bool) -> bool {
        Self::known(&mut self.media_types, text, prove)
    }

    fn category(&mut self, text: &'a str, prove: impl FnOnce() -> bool) -> bool {
        Self::known(&mut self.categories, text, prove)
    }

    fn extra_key(&mut self, text: &'a str, prove: impl FnOnce() -> bool) -> bool {
        Self::known(&mut self.extra_keys, text, prove)
    }

    fn known(seen: &mut Vec<&'a str>, text: &'a str, prove: impl FnOnce() -> bool) -> bool {
        // The last one found is looked at first: neighbours repeat.
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
        None => Some((written, false)),
    }
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

/// A `_path` no path rule reports: `Some`, and whether it holds an
/// escape.
fn path_is_clean(path: &str, case_sensitive: bool) -> Option<bool> {
    let bytes = path.as_bytes();
    // `path-not-absolute`, `path-network-reference`.
    if bytes.first() != Some(&b'/') || bytes.get(1) == Some(&b'/') {
        return None;
    }
    // Most paths hold only characters no rule looks at twice, and no `/.`
    // (where a dot segment would start): clean, without an escape.
    let plain = if case_sensitive { &PLAIN } else { &PLAIN_LOWER };
    if bytes.iter().fold(true, |ok, &b| ok & plain[usize::from(b)])
        && !bytes.windows(2).any(|w| w == b"/.")
    {
        return Some(false);
    }
    let mut escaped = false;
    let mut in_query = false;
    let mut segment_start = 1;
    let mut i = 1;
    while let Some(&b) = bytes.get(i) {
        // `path-invalid-char`.
        if !ALLOWED[usize::from(b)] {
            return None;
        }
        match b {
            b'%' => {
                // `path-bad-escape`, `path-escape-case`, `path-unneeded-escape`.
                let (Some(high), Some(low)) =
                    (upper_hex(bytes.get(i + 1)), upper_hex(bytes.get(i + 2)))
                else {
                    return None;
                };
                if is_unreserved(high << 4 | low) {
                    return None;
                }
                escaped = true;
                i += 3;
                continue;
            }
            b'/' | b'?' if !in_query => {
                // `path-dot-segment`, before the query.
                if matches!(&bytes[segment_start..i], b"." | b"..") {
                    return None;
                }
                segment_start = i + 1;
                in_query = b == b'?';
            }
            // `path-case`, before the query.
            b'A'..=b'Z' if !in_query && !case_sensitive => return None,
            _ => {}
        }
        i += 1;
    }
    let last = &bytes[segment_start.min(bytes.len())..];
    (in_query || !matches!(last, b"." | b"..")).then_some(escaped)
}

/// The characters a path may hold (`path-invalid-char`) but `%`, which
/// starts an escape; `PLAIN_LOWER` has no uppercase letter either.
static PLAIN: [bool; 256] = plain_bytes(true);
static PLAIN_LOWER: [bool; 256] = plain_bytes(false);

const fn plain_bytes(uppercase: bool) -> [bool; 256] {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 128 {
        let byte = b as u8;
        table[b] = allowed_byte(byte) && byte != b'%' && (uppercase || !byte.is_ascii_uppercase());
        b += 1;
    }
    table
}

fn upper_hex(b: Option<&u8>) -> Option<u8> {
    match *b? {
        d @ b'0'..=b'9' => Some(d - b'0'),
        h @ b'A'..=b'F' => Some(h - b'A' + 10),
        _ => None,
    }
}

/// A clean path (see [`path_is_clean`]) is written plain exactly when it
/// does not end with `:`: it starts with `/`, which starts no YAML value
/// but a string, and holds no space, `#`, quote-worthy or non-printable
/// character, so the one thing the emitter quotes it for is a final `:`,
/// which would end a key. The `pyyaml` style's width is left to the
/// renderer. A test asks [`written_as_is`] the same of every clean path.
fn path_written_plain(path: &str, style: TextStyle) -> bool {
    match style {
        TextStyle::Readable => !path.ends_with(':'),
        TextStyle::Pyyaml => written_as_is(path, false, FieldKind::String, PATH.len(), style),
    }
}

/// A key other than the record keys (an extra, which the format allows)
/// that no rule reports: written as the renderer writes it (plain, so a
/// string: `non-string-key`) and not a near miss of a record key
/// (`suspicious-key`).
fn extra_key_is_clean(key: &str, style: TextStyle) -> bool {
    crate::render::key_written_as_is(key, style)
        && crate::rules::suspicious_key::near_miss(key).is_none()
}

/// A category no rule reports: not empty, written as the renderer writes
/// it (plain, or quoted where YAML would read it as something else than a
/// string: `'2025'`), and known when `urldb.toml` lists them.
fn category_is_clean(item: &str, quoted: bool, facts: &Facts) -> bool {
    !item.trim().is_empty()
        && written_as_is(item, quoted, FieldKind::String, "- ".len(), facts.style)
        && facts.categories.is_none_or(|known| {
            known.iter().any(|c| c == item) || domain::VERIFY_CATEGORIES.contains(&item)
        })
}

/// 64 lowercase hex digits (`invalid-sha256`, `sha256-case`), written
/// plain: letters and digits are quoted only where YAML would read them as
/// something else than a string (`digest_written_plain` of the tests asks
/// [`written_as_is`] the same).
fn digest_is_clean(digest: &str, style: TextStyle) -> bool {
    // Counted without a branch per byte, so that it vectorizes.
    let (not_hex, letters) = digest.bytes().fold((0u8, 0u8), |(not_hex, letters), b| {
        let digit = b.is_ascii_digit();
        let letter = b.wrapping_sub(b'a') < 6;
        (
            not_hex | u8::from(!digit & !letter),
            letters | u8::from(letter),
        )
    });
    digest.len() == 64
        && not_hex == 0
        && match style {
            // A letter makes it a string, unless it is the `b` of `0b`
            // (a binary integer); only then is YAML's resolver asked.
            TextStyle::Readable => {
                (letters != 0 && !digest.starts_with("0b")) || Implicit::of(digest) == Implicit::Str
            }
            TextStyle::Pyyaml => {
                written_as_is(digest, false, FieldKind::String, DIGEST.len(), style)
            }
        }
}

/// A plain decimal that fits (`invalid-content-length`), which YAML reads
/// as an integer, so the renderer keeps it as written (in the `pyyaml`
/// style, within its width: the renderer is asked). A test asks
/// [`written_as_is`] the same.
fn length_is_clean(length: &str, style: TextStyle) -> bool {
    domain::content_length(length).is_some()
        && match style {
            TextStyle::Readable => true,
            TextStyle::Pyyaml => written_as_is(length, false, FieldKind::Any, LENGTH.len(), style),
        }
}

/// A media type (`invalid-content-type`) with no uppercase letter
/// (`content-type-case`), or a redirect marker (`X-301-Redirect`).
fn media_type_is_clean(media_type: &str, style: TextStyle) -> bool {
    use crate::model::media_type::{parse, redirect_marker};
    (redirect_marker(media_type).is_some() || !media_type.bytes().any(|b| b.is_ascii_uppercase()))
        && parse(media_type).is_ok()
        && written_as_is(
            media_type,
            false,
            FieldKind::String,
            CONTENT_TYPE.len(),
            style,
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic stream of numbers (xorshift), so that a failure
    /// can be replayed.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    /// A new rule must say how the proof answers it (`ANSWERS`).
    #[test]
    fn every_rule_is_answered_once() {
        let codes: Vec<&str> = crate::rules::ALL.iter().map(|r| r.code).collect();
        let answered: Vec<&str> = ANSWERS.iter().map(|(code, _)| *code).collect();
        assert_eq!(
            answered, codes,
            "ANSWERS must follow rules::ALL, one line per rule"
        );
    }

    /// Every path `path_is_clean` takes gets from `path_written_plain` the
    /// emitter's own answer.
    #[test]
    fn clean_paths_are_written_plain_as_the_emitter_says() {
        let alphabet: Vec<u8> = (0x20u8..0x7F)
            .filter(|&b| ALLOWED[usize::from(b)])
            .collect();
        let mut rng = Rng(0x5eed);
        let mut clean = 0;
        let mut quoted = 0;
        for _ in 0..200_000 {
            let len = 1 + rng.below(12);
            let mut path = String::from("/");
            for _ in 0..len {
                let pick = rng.below(alphabet.len() + 6);
                match alphabet.get(pick) {
                    Some(&b) => path.push(char::from(b)),
                    None => {
                        path.push_str(["%3A", "%2F", ":", "?", "/", "-"][pick - alphabet.len()])
                    }
                }
            }
            for case_sensitive in [true, false] {
                if path_is_clean(&path, case_sensitive).is_none() {
                    continue;
                }
                clean += 1;
                let emitter = written_as_is(
                    &path,
                    false,
                    FieldKind::String,
                    PATH.len(),
                    TextStyle::Readable,
                );
                quoted += usize::from(!emitter);
                assert_eq!(
                    path_written_plain(&path, TextStyle::Readable),
                    emitter,
                    "{path:?}"
                );
            }
        }
        assert!(
            clean > 10_000 && quoted > 100,
            "{clean} clean, {quoted} quoted"
        );
    }

    /// The same for lengths, in both styles.
    #[test]
    fn clean_lengths_are_written_as_the_emitter_says() {
        let mut rng = Rng(0x1e57);
        for i in 0..20_000 {
            let digits = 1 + rng.below(25);
            let length: String = (0..digits)
                .map(|_| char::from(b'0' + rng.below(10) as u8))
                .collect();
            let length = if i % 10 == 0 { "0".to_string() } else { length };
            for style in [TextStyle::Readable, TextStyle::Pyyaml] {
                let plain = domain::content_length(&length).is_some()
                    && written_as_is(&length, false, FieldKind::Any, LENGTH.len(), style);
                assert_eq!(length_is_clean(&length, style), plain, "{length:?}");
            }
        }
    }

    /// The same for digests: of decimal digits only (an integer to YAML)
    /// and of every hex digit.
    #[test]
    fn digest_written_plain() {
        let mut rng = Rng(0xd16e57);
        let mut quoted = 0;
        for i in 0..20_000 {
            let digits: &[u8] = match i % 3 {
                0 => b"0123456789",
                1 => b"01",
                _ => b"0123456789abcdef",
            };
            let mut digest: String = (0..64)
                .map(|_| char::from(digits[rng.below(digits.len())]))
                .collect();
            if i % 6 == 1 {
                // A binary integer to YAML 1.1, or a string.
                digest.replace_range(..2, "0b");
            }
            let emitter = written_as_is(
                &digest,
                false,
                FieldKind::String,
                DIGEST.len(),
                TextStyle::Readable,
            );
            quoted += usize::from(!emitter);
            assert_eq!(
                digest_is_clean(&digest, TextStyle::Readable),
                emitter,
                "{digest:?}"
            );
        }
        assert!(quoted > 1_000, "{quoted}");
    }
}
