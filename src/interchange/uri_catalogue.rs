//! The URI-Catalogue format (its specification is "SSD3"): a writer, and a strict
//! reader that follows the specification and skips invalid records with a
//! diagnostic naming the line, as the specification asks.
//!
//! Mapping (`docs/urls.md`): `URI` is the full URL; `NAME`, `DATE`,
//! `DESCRIPTION`, `RATING`, `LANGUAGE` and `ID` are the record extras of
//! those names (lowercase); `CATEGORY` the categories joined by `, `;
//! `TYPE` the content type. What the standard fields cannot hold goes into
//! `X-` extension fields, so that `export` then `import` loses nothing:
//! `X-CONTENT-TYPE` (a redirect marker, which is no media type),
//! `X-CONTENT-LENGTH`, `X-CONTENT-SHA256`, `X-URLDB-EXTRA-<key>` (a string
//! extra), `X-URLDB-PLAIN-<key>` (a plain YAML scalar such as a number),
//! and `X-URLDB-GENERATED` (the required fields the writer filled in —
//! `NAME` from the path, `DATE` from the clock — which the reader drops).

use std::collections::HashMap;

use super::LineProblem;
use crate::listing::UrlRecord;
use crate::model::media_type;
use crate::model::node::{Scalar, ScalarStyle, Value};
use crate::model::resolve::Implicit;
use crate::url::{Canonical, canonicalize_given};

const STANDARD: [&str; 9] = [
    "URI",
    "NAME",
    "DATE",
    "CATEGORY",
    "DESCRIPTION",
    "RATING",
    "LANGUAGE",
    "TYPE",
    "ID",
];
const GENERATED: &str = "X-URLDB-GENERATED";
const EXTRA: &str = "X-URLDB-EXTRA-";
const PLAIN: &str = "X-URLDB-PLAIN-";
const CONTENT_TYPE: &str = "X-CONTENT-TYPE";
const CONTENT_LENGTH: &str = "X-CONTENT-LENGTH";
const CONTENT_SHA256: &str = "X-CONTENT-SHA256";

/// Extras written as standard fields, and whether import makes them plain
/// scalars (numbers) rather than strings.
const EXTRA_FIELDS: [(&str, &str, bool); 6] = [
    ("name", "NAME", false),
    ("date", "DATE", false),
    ("description", "DESCRIPTION", false),
    ("rating", "RATING", true),
    ("language", "LANGUAGE", false),
    ("id", "ID", true),
];

// ---------------------------------------------------------------- writing

/// The catalogue text of `records`: CRLF line breaks, a blank line between
/// records. `now` is the `DATE` of records without a `date` extra. The
/// error names the record and what the format cannot hold.
pub fn write(records: &[UrlRecord], now: &str) -> Result<String, String> {
    let mut out = String::new();
    for (i, r) in records.iter().enumerate() {
        if i > 0 {
            out.push_str("\r\n");
        }
        for (name, value) in fields(r, now).map_err(|e| format!("{}: {e}", r.url()))? {
            out.push_str(&format!("{name}: {value}\r\n"));
        }
    }
    Ok(out)
}

fn fields(r: &UrlRecord, now: &str) -> Result<Vec<(String, String)>, String> {
    let mut standard: HashMap<&str, String> = HashMap::new();
    let mut extension: Vec<(String, String)> = Vec::new();
    for (key, node) in &r.extras {
        let Value::Scalar(scalar) = &node.value else {
            return Err(format!(
                "extra `{key}` is a {}: a URI-Catalogue field holds text only (use `--to json`)",
                node.kind_name()
            ));
        };
        let is_string = scalar.style != ScalarStyle::Plain || scalar.implicit() == Implicit::Str;
        let standard_field = EXTRA_FIELDS
            .iter()
            .find(|(k, _, plain)| k == key && (*plain != is_string));
        if let Some((_, field, _)) = standard_field {
            standard.insert(field, checked_value(key, &scalar.value)?);
            continue;
        }
        if !valid_name(key) {
            return Err(format!(
                "extra `{key}`: its name cannot be a URI-Catalogue field name \
                 (letters, digits, `-`, `_`)"
            ));
        }
        let name = if key.starts_with("X-") && is_string && !reserved_extension(key) {
            key.clone()
        } else if is_string {
            format!("{EXTRA}{key}")
        } else {
            format!("{PLAIN}{key}")
        };
        extension.push((name, checked_value(key, &scalar.value)?));
    }
    let mut generated = Vec::new();
    if !standard.contains_key("NAME") {
        standard.insert("NAME", r.path.clone());
        generated.push("NAME");
    }
    if !standard.contains_key("DATE") {
        standard.insert("DATE", now.to_string());
        generated.push("DATE");
    }
    if let Some(date) = standard.get("DATE")
        && let Err(e) = check_date(date)
    {
        return Err(format!("extra `date`: {e}"));
    }
    if !r.categories.is_empty() {
        for c in &r.categories {
            if c.contains(',') || c.trim() != c {
                return Err(format!(
                    "category `{c}`: a category in `CATEGORY` cannot hold a comma or \
                     start or end with a space"
                ));
            }
            checked_value("categories", c)?;
        }
        standard.insert("CATEGORY", r.categories.join(", "));
    }
    if let Some(ct) = &r.content_type {
        let ct = checked_value("content-type", ct)?;
        if check_media_type(&ct).is_ok() {
            standard.insert("TYPE", ct);
        } else {
            extension.push((CONTENT_TYPE.to_string(), ct));
        }
    }
    if let Some(n) = r.content_length {
        extension.push((CONTENT_LENGTH.to_string(), n.to_string()));
    }
    if let Some(sha) = &r.content_sha256 {
        extension.push((
            CONTENT_SHA256.to_string(),
            checked_value("content-sha256", sha)?,
        ));
    }
    if !generated.is_empty() {
        extension.push((GENERATED.to_string(), generated.join(", ")));
    }
    extension.sort();
    let mut out = vec![("URI".to_string(), r.url())];
    for field in &STANDARD[1..] {
        if let Some(value) = standard.remove(field) {
            out.push((field.to_string(), value));
        }
    }
    out.extend(extension);
    Ok(out)
}

fn reserved_extension(name: &str) -> bool {
    name.starts_with("X-URLDB-") || [CONTENT_TYPE, CONTENT_LENGTH, CONTENT_SHA256].contains(&name)
}

/// A value the format can hold: ASCII, no control character, not empty.
fn checked_value(key: &str, value: &str) -> Result<String, String> {
    if value.is_empty() {
        return Err(format!("`{key}` is empty: a URI-Catalogue value cannot be"));
    }
    if let Some(c) = value.chars().find(|c| !c.is_ascii()) {
        return Err(format!(
            "`{key}` holds the non-ASCII character `{c}`: URI-Catalogue is ASCII only \
             (use `--to json`)"
        ));
    }
    if let Some(c) = value.chars().find(|c| c.is_ascii_control()) {
        return Err(format!(
            "`{key}` holds the control character U+{:04X}, which URI-Catalogue forbids",
            c as u32
        ));
    }
    Ok(value.to_string())
}

/// `DD/MM/YYYY hh:mm:ss` for a time given in seconds since 1970 (UTC).
pub fn format_date(unix_seconds: u64) -> String {
    let days = (unix_seconds / 86_400) as i64;
    let secs = unix_seconds % 86_400;
    // Days to a civil date (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{day:02}/{month:02}/{year:04} {:02}:{:02}:{:02}",
        secs / 3600,
        secs % 3600 / 60,
        secs % 60
    )
}

// ---------------------------------------------------------------- reading

/// A valid catalogue record, as record fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The line of the record's first field.
    pub line: usize,
    pub url: Canonical,
    pub content_type: Option<String>,
    pub categories: Vec<String>,
    pub digest: Option<(u64, String)>,
    pub extras: Vec<(String, Scalar)>,
}

/// Read a catalogue: the valid records, and a problem for every skipped
/// record or dropped field.
pub fn read(bytes: &[u8]) -> (Vec<Entry>, Vec<LineProblem>) {
    let mut entries = Vec::new();
    let mut problems = Vec::new();
    let mut ids: HashMap<String, usize> = HashMap::new();
    for record in split_records(bytes) {
        match read_record(&record, &mut ids, &mut problems) {
            Ok(entry) => entries.push(entry),
            Err((line, message)) => problems.push(LineProblem {
                line,
                message: format!("record skipped: {message}"),
                skipped: true,
            }),
        }
    }
    (entries, problems)
}

/// Records: runs of non-empty lines, each line with its number.
fn split_records(bytes: &[u8]) -> Vec<Vec<(usize, &[u8])>> {
    let mut records = Vec::new();
    let mut current: Vec<(usize, &[u8])> = Vec::new();
    let mut lines: Vec<&[u8]> = bytes.split(|b| *b == b'\n').collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    for (i, line) in lines.into_iter().enumerate() {
        // CRLF as the specification says; a bare LF is accepted too.
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            if !current.is_empty() {
                records.push(std::mem::take(&mut current));
            }
        } else {
            current.push((i + 1, line));
        }
    }
    if !current.is_empty() {
        records.push(current);
    }
    records
}

type Problem = (usize, String);

fn read_record(
    lines: &[(usize, &[u8])],
    ids: &mut HashMap<String, usize>,
    problems: &mut Vec<LineProblem>,
) -> Result<Entry, Problem> {
    let first = lines.first().map_or(0, |(n, _)| *n);
    let fields = Fields::read(lines, first)?;
    let (uri, uri_line) = fields.get("URI").unwrap_or_default();
    let url = canonicalize_given(uri).map_err(|e| (uri_line, format!("URI `{uri}`: {e}")))?;
    let id_key = check_values(&fields, ids)?;
    let digest = digest(&fields)?;
    let extras = extras(&fields, problems);
    if let Some((id, n)) = id_key {
        ids.insert(id, n);
    }
    Ok(Entry {
        line: first,
        url,
        content_type: fields
            .get("TYPE")
            .or_else(|| fields.get(CONTENT_TYPE))
            .map(|(v, _)| v.to_string()),
        categories: fields
            .get("CATEGORY")
            .map(|(v, _)| {
                v.split(',')
                    .map(str::trim)
                    .filter(|c| !c.is_empty())
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default(),
        digest,
        extras,
    })
}

/// One record's fields: name -> (value, line), and the order they came in.
struct Fields {
    values: HashMap<String, (String, usize)>,
    order: Vec<String>,
}

impl Fields {
    /// The `NAME: value` lines of a record (`first`: its first line), each
    /// name once, with the required `URI`, `NAME` and `DATE`.
    fn read(lines: &[(usize, &[u8])], first: usize) -> Result<Fields, Problem> {
        let mut values: HashMap<String, (String, usize)> = HashMap::new();
        let mut order: Vec<String> = Vec::new();
        for (n, raw) in lines {
            if let Some(b) = raw.iter().find(|b| forbidden(**b)) {
                return Err((*n, describe_forbidden(*b)));
            }
            // Only ASCII bytes remain: the line is valid UTF-8.
            let text = String::from_utf8_lossy(raw);
            let Some((name, value)) = text.split_once(':') else {
                return Err((*n, format!("`{text}` is not a field (`NAME: value`)")));
            };
            if !valid_name(name) {
                return Err((
                    *n,
                    format!("`{name}` is not a field name (letters, digits, `-`, `_`)"),
                ));
            }
            let Some(value) = value.strip_prefix(' ') else {
                return Err((*n, format!("`{name}:` must be followed by one space")));
            };
            if value.is_empty() {
                return Err((*n, format!("`{name}` has an empty value")));
            }
            if let Some((_, at)) = values.get(name) {
                return Err((*n, format!("second `{name}` field (first on line {at})")));
            }
            values.insert(name.to_string(), (value.to_string(), *n));
            order.push(name.to_string());
        }
        for required in ["URI", "NAME", "DATE"] {
            if !values.contains_key(required) {
                return Err((first, format!("no `{required}` field (it is required)")));
            }
        }
        Ok(Fields { values, order })
    }

    fn get(&self, name: &str) -> Option<(&str, usize)> {
        self.values.get(name).map(|(v, n)| (v.as_str(), *n))
    }
}

/// The standard fields' values (`DATE`, `RATING`, `LANGUAGE`, `TYPE`,
/// `ID`); the record's ID (its digits, and its line) when it has one that
/// no earlier record has.
fn check_values(
    fields: &Fields,
    ids: &HashMap<String, usize>,
) -> Result<Option<(String, usize)>, Problem> {
    if let Some((date, n)) = fields.get("DATE") {
        check_date(date).map_err(|e| (n, format!("DATE `{date}`: {e}")))?;
    }
    if let Some((rating, n)) = fields.get("RATING")
        && !matches!(rating, "1" | "2" | "3" | "4" | "5")
    {
        return Err((
            n,
            format!("RATING `{rating}` is not an integer from 1 to 5"),
        ));
    }
    if let Some((language, n)) = fields.get("LANGUAGE")
        && !valid_language(language)
    {
        return Err((
            n,
            format!("LANGUAGE `{language}` is not a language tag (RFC 3066, e.g. `en-gb`)"),
        ));
    }
    if let Some((ty, n)) = fields.get("TYPE") {
        check_media_type(ty).map_err(|e| (n, format!("TYPE `{ty}`: {e}")))?;
    }
    let Some((id, n)) = fields.get("ID") else {
        return Ok(None);
    };
    let digits = id.trim_start_matches('0');
    if !id.bytes().all(|b| b.is_ascii_digit()) || digits.is_empty() {
        return Err((n, format!("ID `{id}` is not a positive decimal integer")));
    }
    if let Some(at) = ids.get(digits) {
        return Err((
            n,
            format!("ID {id} is already the ID of the record on line {at}"),
        ));
    }
    Ok(Some((digits.to_string(), n)))
}

/// The static-content pair: both fields or neither.
fn digest(fields: &Fields) -> Result<Option<(u64, String)>, Problem> {
    match (fields.get(CONTENT_LENGTH), fields.get(CONTENT_SHA256)) {
        (None, None) => Ok(None),
        (Some((len, n)), Some((sha, m))) => {
            let length = len
                .parse::<u64>()
                .map_err(|_| (n, format!("{CONTENT_LENGTH} `{len}` is not a length")))?;
            if sha.len() != 64 || !sha.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err((m, format!("{CONTENT_SHA256} `{sha}` is not 64 hex digits")));
            }
            Ok(Some((length, sha.to_ascii_lowercase())))
        }
        (Some((_, n)), None) | (None, Some((_, n))) => Err((
            n,
            format!("{CONTENT_LENGTH} and {CONTENT_SHA256} go together"),
        )),
    }
}

/// The record keys the fields carry beyond the standard ones, in their
/// order; an unknown field is dropped with a warning.
fn extras(fields: &Fields, problems: &mut Vec<LineProblem>) -> Vec<(String, Scalar)> {
    let generated: Vec<&str> = fields
        .get(GENERATED)
        .map(|(v, _)| v.split(',').map(str::trim).collect())
        .unwrap_or_default();
    let mut extras = Vec::new();
    for name in &fields.order {
        let (value, n) = &fields.values[name];
        if let Some((key, _, plain)) = EXTRA_FIELDS.iter().find(|(_, f, _)| f == name) {
            if generated.contains(&name.as_str()) {
                continue;
            }
            let scalar = if *plain && !value.starts_with('0') {
                Scalar::plain(value)
            } else {
                Scalar::string(value)
            };
            extras.push((key.to_string(), scalar));
        } else if let Some(key) = name.strip_prefix(EXTRA) {
            extras.push((key.to_string(), Scalar::string(value)));
        } else if let Some(key) = name.strip_prefix(PLAIN) {
            extras.push((key.to_string(), Scalar::plain(value)));
        } else if STANDARD.contains(&name.as_str()) || reserved_extension(name) {
            // Read by check_values, digest and read_record.
        } else if name.starts_with("X-") {
            extras.push((name.clone(), Scalar::string(value)));
        } else {
            problems.push(LineProblem {
                line: *n,
                message: format!(
                    "unknown field `{name}` dropped (extension fields start with `X-`)"
                ),
                skipped: false,
            });
        }
    }
    extras
}

/// URI-Catalogue specification, 2.1.1: ASCII only, and not 0-9, 11-12, 14-31 or 127 (so no
/// tab). CR and LF only as line breaks.
fn forbidden(b: u8) -> bool {
    !b.is_ascii() || (b < 32 && b != b'\r') || b == 127
}

fn describe_forbidden(b: u8) -> String {
    match b {
        b'\t' => "a tab character, which URI-Catalogue forbids".to_string(),
        b'\r' => "a carriage return inside a line".to_string(),
        b if !b.is_ascii() => {
            format!("the non-ASCII byte 0x{b:02X}: URI-Catalogue is ASCII only")
        }
        b => format!("the control character 0x{b:02X}, which URI-Catalogue forbids"),
    }
}

/// URI-Catalogue specification, 2.1.3: characters 45, 48-57, 65-90, 95, 97-122.
fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// `DD/MM/YYYY hh:mm:ss`, a real date and time.
fn check_date(text: &str) -> Result<(), String> {
    let b = text.as_bytes();
    let shape_ok = b.len() == 19
        && b.iter().enumerate().all(|(i, c)| match i {
            2 | 5 => *c == b'/',
            10 => *c == b' ',
            13 | 16 => *c == b':',
            _ => c.is_ascii_digit(),
        });
    if !shape_ok {
        return Err("not `DD/MM/YYYY hh:mm:ss`".to_string());
    }
    let num = |r: std::ops::Range<usize>| text[r].parse::<u32>().unwrap_or(u32::MAX);
    let (day, month, year) = (num(0..2), num(3..5), num(6..10));
    let (hour, minute, second) = (num(11..13), num(14..16), num(17..19));
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return Err(format!("there is no month {month}")),
    };
    if day == 0 || day > days {
        return Err(format!("there is no day {day} in month {month} of {year}"));
    }
    if hour > 23 || minute > 59 || second > 59 {
        return Err(format!(
            "{hour:02}:{minute:02}:{second:02} is not a time of day"
        ));
    }
    Ok(())
}

/// RFC 3066: `1*8ALPHA *("-" 1*8(ALPHA / DIGIT))`.
fn valid_language(tag: &str) -> bool {
    let mut parts = tag.split('-');
    let primary = parts.next().unwrap_or_default();
    let ok = |s: &str, f: fn(&u8) -> bool| (1..=8).contains(&s.len()) && s.bytes().all(|b| f(&b));
    ok(primary, u8::is_ascii_alphabetic) && parts.all(|p| ok(p, u8::is_ascii_alphanumeric))
}

/// A media type (RFC 9110 section 8.3.1, as `check` reads `content-type`):
/// `type/subtype` (tokens), then optional `; name=value` parameters whose
/// value may be a quoted string.
fn check_media_type(text: &str) -> Result<(), String> {
    media_type::parse_media_type(text)
        .map(|_| ())
        .map_err(|e| format!("not a media type: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(format_date(0), "01/01/1970 00:00:00");
        assert_eq!(format_date(1_193_857_414), "31/10/2007 19:03:34");
        assert_eq!(format_date(951_782_400), "29/02/2000 00:00:00");
        assert!(check_date("31/10/2007 19:03:34").is_ok());
        assert!(check_date("29/02/2000 00:00:00").is_ok());
        for bad in [
            "29/02/1900 00:00:00",
            "31/04/2007 10:00:00",
            "2007-10-31 19:03:34",
            "31/10/2007 24:00:00",
            "00/10/2007 10:00:00",
        ] {
            assert!(check_date(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn languages_and_types() {
        assert!(valid_language("en-us"));
        assert!(valid_language("i-klingon"));
        assert!(!valid_language("ninechars-us"));
        assert!(!valid_language("en_us"));
        assert!(check_media_type("text/html; charset=utf-8").is_ok());
        assert!(check_media_type("X-301-Redirect").is_err());
        assert!(check_media_type("text/").is_err());
        assert!(check_media_type("text/html; charset=\"a;b\"").is_ok());
        assert!(check_media_type("text/html; charset=\"a").is_err());
    }
}
