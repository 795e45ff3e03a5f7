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
//! - the record keys `_path`, `categories`, `content-length`,
//!   `content-sha256`, `content-type` in canonical order, each once, at the
//!   left margin, with `_path` and `content-type` present and the two
//!   static fields together;
//! - every value on its line, plain (a category may be single-quoted), and
//!   what the renderer writes for it (`render::written_as_is`, the
//!   renderer's own decision);
//! - each value in the narrow form every rule on its field accepts: a path
//!   that starts with one `/`, holds only the characters a path may hold,
//!   escapes only what needs escaping with uppercase hex, has no `.` or
//!   `..` segment and, in a case-insensitive domain, no uppercase letter
//!   before its query; a valid lowercase media type; sorted, distinct,
//!   known categories; a plain decimal length; a lowercase hex digest.
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
use crate::rules::path_invalid_char::ALLOWED;
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
    ("non-string-key", "only the five record keys"),
    (
        "unloadable-value",
        "every value written as the renderer writes it",
    ),
    ("file-too-large", "text rules run on the whole text"),
    ("nesting-too-deep", "no nested value"),
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
    ("suspicious-key", "only the five record keys"),
    ("unknown-category", "`category_is_clean`"),
    ("wrong-extension", "a rule across files, run by the caller"),
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
    /// Each record's `_path` value, in file order (plain: the value is the
    /// text in the span).
    pub(super) paths: Vec<Span>,
}

const PATH: &str = "_path: ";
const CATEGORIES: &str = "categories:";
const LENGTH: &str = "content-length: ";
const DIGEST: &str = "content-sha256: ";
const CONTENT_TYPE: &str = "content-type: ";

/// Prove the records in `range` of `text` clean, or `None`. The range
/// starts at a `---` line and ends after a line break.
pub(super) fn records(text: &str, range: Range<usize>, facts: &Facts) -> Option<Silent> {
    let piece = text.as_bytes().get(range.clone())?;
    // What no clean record holds, ruled out in one pass that vectorizes:
    // control characters, tabs, CR, non-ASCII, and `#` (a comment, or a
    // fragment, which `path-fragment` reports).
    let plain = |b: u8| ((0x20..0x7F).contains(&b) && b != b'#') | (b == b'\n');
    if !piece.starts_with(b"---\n")
        || !piece.ends_with(b"\n")
        || !piece
            .chunks(64)
            .all(|chunk| chunk.iter().fold(true, |ok, &b| ok & plain(b)))
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
    };
    // A media type or a category (as written) once proven is not proven
    // again: a file has few.
    let mut proven_types: Vec<&str> = Vec::new();
    let mut proven_categories: Vec<&str> = Vec::new();
    let mut previous_path: &str = "";
    let mut line = lines.next()?;
    loop {
        if line.1 != "---" {
            return None;
        }
        silent.documents += 1;

        let (at, path) = value(lines.next()?, PATH)?;
        if !path_is_clean(path, facts.case_sensitive)
            || !path_written_plain(path, facts.style)
            || path < previous_path
        {
            return None;
        }
        silent.paths.push(at..at + path.len());
        previous_path = path;

        line = lines.next()?;
        if line.1 == CATEGORIES {
            let mut previous: Option<&str> = None;
            line = lines.next()?;
            while let Some(written) = line.1.strip_prefix("- ") {
                let (item, quoted) = match written.strip_prefix('\'') {
                    Some(quoted) => (quoted.strip_suffix('\'')?, true),
                    None => (written, false),
                };
                if previous.is_some_and(|p| p >= item) {
                    return None;
                }
                if !proven_categories.contains(&written) {
                    if !category_is_clean(item, quoted, facts) {
                        return None;
                    }
                    if proven_categories.len() < 64 {
                        proven_categories.push(written);
                    }
                }
                previous = Some(item);
                line = lines.next()?;
            }
            previous?;
        }
        if let Some((_, length)) = value(line, LENGTH) {
            let (_, digest) = value(lines.next()?, DIGEST)?;
            if domain::content_length(length).is_none()
                || !written_as_is(length, false, FieldKind::Any, LENGTH.len(), facts.style)
                || !digest_is_clean(digest, facts.style)
            {
                return None;
            }
            line = lines.next()?;
        }
        let (_, media_type) = value(line, CONTENT_TYPE)?;
        if !proven_types.contains(&media_type) {
            if !media_type_is_clean(media_type, facts.style) {
                return None;
            }
            if proven_types.len() < 64 {
                proven_types.push(media_type);
            }
        }
        match lines.next() {
            Some(next) => line = next,
            None => return Some(silent),
        }
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

/// The value of a `key: value` line, and where it starts.
fn value<'a>((at, line): (usize, &'a str), key: &str) -> Option<(usize, &'a str)> {
    let rest = line.strip_prefix(key)?;
    (!rest.is_empty()).then_some((at + key.len(), rest))
}

/// A `_path` no path rule reports.
fn path_is_clean(path: &str, case_sensitive: bool) -> bool {
    let bytes = path.as_bytes();
    // `path-not-absolute`, `path-network-reference`.
    if bytes.first() != Some(&b'/') || bytes.get(1) == Some(&b'/') {
        return false;
    }
    let mut in_query = false;
    let mut segment_start = 1;
    let mut i = 1;
    while let Some(&b) = bytes.get(i) {
        // `path-invalid-char`.
        if !ALLOWED[usize::from(b)] {
            return false;
        }
        match b {
            b'%' => {
                // `path-bad-escape`, `path-escape-case`, `path-unneeded-escape`.
                let (Some(high), Some(low)) =
                    (upper_hex(bytes.get(i + 1)), upper_hex(bytes.get(i + 2)))
                else {
                    return false;
                };
                if is_unreserved(high << 4 | low) {
                    return false;
                }
                i += 3;
                continue;
            }
            b'/' | b'?' if !in_query => {
                // `path-dot-segment`, before the query.
                if matches!(&bytes[segment_start..i], b"." | b"..") {
                    return false;
                }
                segment_start = i + 1;
                in_query = b == b'?';
            }
            // `path-case`, before the query.
            b'A'..=b'Z' if !in_query && !case_sensitive => return false,
            _ => {}
        }
        i += 1;
    }
    in_query || !matches!(&bytes[segment_start.min(bytes.len())..], b"." | b"..")
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
    digest.len() == 64
        && digest
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        && match style {
            TextStyle::Readable => Implicit::of(digest) == Implicit::Str,
            TextStyle::Pyyaml => {
                written_as_is(digest, false, FieldKind::String, DIGEST.len(), style)
            }
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
                if !path_is_clean(&path, case_sensitive) {
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

    /// The same for digests: of decimal digits only (an integer to YAML)
    /// and of every hex digit.
    #[test]
    fn digest_written_plain() {
        let mut rng = Rng(0xd16e57);
        let mut quoted = 0;
        for i in 0..20_000 {
            let digits: &[u8] = if i % 2 == 0 {
                b"0123456789"
            } else {
                b"0123456789abcdef"
            };
            let digest: String = (0..64)
                .map(|_| char::from(digits[rng.below(digits.len())]))
                .collect();
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
