//! The URI-Catalogue format (its specification is "SSD3"): a writer, and a
//! strict reader that follows the specification (section 2.2): an invalid
//! optional field is dropped and the record kept, a record without a valid
//! `URI`, `NAME` and `DATE` is skipped, each with a diagnostic naming the
//! line. Both directions judge a field's value with the one
//! [`check_field`], so the writer never writes what the reader refuses.
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
use urldb_core::model::media_type;
use urldb_core::model::node::{Scalar, ScalarStyle, Value};
use urldb_core::model::resolve::Implicit;
use urldb_core::url::{Canonical, canonicalize_given};

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

// ---------------------------------------------------------------- fields

/// Why a value cannot be a field's value: a phrase that follows the
/// field's name in a problem or a note.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub(crate) struct FieldError(String);

/// Why `value` cannot be the value of the field `name`, or `Ok`. The one
/// check per field that both directions use, so that they cannot disagree:
/// the writer leaves out (or moves to an `X-URLDB-` field) what fails it,
/// the reader drops an optional field that fails it and skips a record
/// whose required field (`URI`, `NAME`, `DATE`) does.
pub(crate) fn check_field(name: &str, value: &str) -> Result<(), FieldError> {
    check_text(value)?;
    match name {
        "URI" => canonicalize_given(value)
            .map(|_| ())
            .map_err(|e| FieldError(e.to_string())),
        "DATE" => check_date(value),
        "RATING" => match value {
            "1" | "2" | "3" | "4" | "5" => Ok(()),
            _ => Err(FieldError("not an integer from 1 to 5".to_string())),
        },
        "LANGUAGE" if valid_language(value) => Ok(()),
        "LANGUAGE" => Err(FieldError(
            "not a language tag (RFC 3066, e.g. `en-gb`)".to_string(),
        )),
        "TYPE" => check_media_type(value),
        "ID" => id_key(value).map(|_| ()),
        CONTENT_LENGTH => value
            .parse::<u64>()
            .map(|_| ())
            .map_err(|_| FieldError("not a length (decimal digits)".to_string())),
        CONTENT_SHA256 if value.len() == 64 && value.bytes().all(|b| b.is_ascii_hexdigit()) => {
            Ok(())
        }
        CONTENT_SHA256 => Err(FieldError("not 64 hex digits".to_string())),
        _ => Ok(()),
    }
}

/// The fields a record cannot be without (URI-Catalogue specification,
/// 3.1 to 3.3); every other field is optional.
pub(crate) const REQUIRED: [&str; 3] = ["URI", "NAME", "DATE"];

/// A value the format can hold at all: ASCII, no control character, not
/// empty (specification 2.1.1, 2.2).
fn check_text(value: &str) -> Result<(), FieldError> {
    if value.is_empty() {
        return Err(FieldError(
            "empty, which a URI-Catalogue value cannot be".to_string(),
        ));
    }
    if let Some(c) = value.chars().find(|c| !c.is_ascii()) {
        return Err(FieldError(format!(
            "holds the non-ASCII character `{c}`: URI-Catalogue is ASCII only"
        )));
    }
    if let Some(c) = value.chars().find(|c| c.is_ascii_control()) {
        return Err(FieldError(format!(
            "holds the control character U+{:04X}, which URI-Catalogue forbids",
            c as u32
        )));
    }
    Ok(())
}

/// An `ID` as the number it is (`007` is `7`): what two records must not
/// share. A positive decimal integer of any length.
fn id_key(id: &str) -> Result<&str, FieldError> {
    let digits = id.trim_start_matches('0');
    if !id.bytes().all(|b| b.is_ascii_digit()) || digits.is_empty() {
        return Err(FieldError("not a positive decimal integer".to_string()));
    }
    Ok(digits)
}

// ---------------------------------------------------------------- writing

/// A catalogue's text, and what of the records it could not hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    pub text: String,
    /// (index of the record in the input, what was left out and why).
    pub left_out: Vec<(usize, String)>,
}

/// The catalogue text of `records`: CRLF line breaks, a blank line between
/// records. `now` is the `DATE` of records without a `date` extra. Every
/// field written passes [`check_field`], so `read` takes every record
/// back: a value a standard field cannot hold (`RATING: 9`, a second
/// `ID: 7`) goes into its `X-URLDB-` field instead, a value no field can
/// hold (non-ASCII text, a mapping) is left out, and a record whose URL
/// the format cannot hold is left out whole; each is in `left_out`.
pub fn write_catalogue(records: &[UrlRecord], now: &str) -> Written {
    let mut text = String::new();
    let mut left_out = Vec::new();
    let mut ids: HashMap<String, usize> = HashMap::new();
    for (i, r) in records.iter().enumerate() {
        let mut notes = Vec::new();
        let Some(fields) = fields(i, r, now, &mut ids, records, &mut notes) else {
            left_out.extend(notes.into_iter().map(|n| (i, n)));
            continue;
        };
        left_out.extend(notes.into_iter().map(|n| (i, n)));
        if !text.is_empty() {
            text.push_str("\r\n");
        }
        for (name, value) in fields {
            text.push_str(&format!("{name}: {value}\r\n"));
        }
    }
    Written { text, left_out }
}

/// Where a record is, for a message: `file:line`.
fn place(r: &UrlRecord) -> String {
    format!("{}:{}", urldb_core::source::display_path(&r.file), r.line)
}

fn fields(
    index: usize,
    r: &UrlRecord,
    now: &str,
    ids: &mut HashMap<String, usize>,
    records: &[UrlRecord],
    notes: &mut Vec<String>,
) -> Option<Vec<(String, String)>> {
    let url = r.url.clone();
    if let Err(e) = check_field("URI", &url) {
        notes.push(format!("record left out: its URL cannot be a `URI`: {e}"));
        return None;
    }
    let mut standard: HashMap<&str, String> = HashMap::new();
    let mut extension: Vec<(String, String)> = Vec::new();
    for (key, node) in &r.extras {
        let Value::Scalar(scalar) = &node.value else {
            notes.push(format!(
                "extra `{key}` left out: it is a {}, and a URI-Catalogue field holds text \
                 only (`--to json` holds it)",
                node.kind_name()
            ));
            continue;
        };
        let value = scalar.value.as_ref();
        if let Err(e) = check_text(value) {
            notes.push(format!(
                "extra `{key}` left out: its value {e} (`--to json` holds it)"
            ));
            continue;
        }
        let is_string = scalar.style != ScalarStyle::Plain || scalar.implicit() == Implicit::Str;
        let standard_field = EXTRA_FIELDS
            .iter()
            .find(|(k, _, plain)| k == key && (*plain != is_string));
        if let Some((_, field, _)) = standard_field {
            // The reader takes a standard value with a leading zero for
            // text (`ID: 007` is no YAML octal), so a plain one would come
            // back a string.
            let leading_zero = (!is_string && value.starts_with('0'))
                .then(|| FieldError("it would read back as text, not a number".to_string()));
            let refused = check_field(field, value)
                .err()
                .or(leading_zero)
                .or_else(|| {
                    let id = id_key(value).ok().filter(|_| *field == "ID")?;
                    let first = *ids.entry(id.to_string()).or_insert(index);
                    (first != index).then(|| {
                        FieldError(format!(
                            "the record at {} has this ID, and IDs are unique",
                            place(&records[first])
                        ))
                    })
                });
            let Some(why) = refused else {
                standard.insert(field, value.to_string());
                continue;
            };
            let prefix = if is_string { EXTRA } else { PLAIN };
            notes.push(format!(
                "`{field}: {value}` not written: {why}; the value is in `{prefix}{key}` instead"
            ));
            extension.push((format!("{prefix}{key}"), value.to_string()));
            continue;
        }
        if !valid_name(key) {
            notes.push(format!(
                "extra `{key}` left out: its name cannot be a URI-Catalogue field name \
                 (letters, digits, `-`, `_`)"
            ));
            continue;
        }
        let name = if key.starts_with("X-") && is_string && !reserved_extension(key) {
            key.clone()
        } else if is_string {
            format!("{EXTRA}{key}")
        } else {
            format!("{PLAIN}{key}")
        };
        extension.push((name, value.to_string()));
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
    let mut categories = Vec::new();
    for c in &r.categories {
        let why = if c.contains(',') || c.trim() != c {
            Err(FieldError(
                "a category in `CATEGORY` cannot hold a comma or start or end with a space"
                    .to_string(),
            ))
        } else {
            check_text(c)
        };
        match why {
            Ok(()) => categories.push(c.as_str()),
            Err(e) => notes.push(format!("category `{c}` left out: {e}")),
        }
    }
    if !categories.is_empty() {
        standard.insert("CATEGORY", categories.join(", "));
    }
    if let Some(ct) = &r.content_type {
        if check_field("TYPE", ct).is_ok() {
            standard.insert("TYPE", ct.clone());
        } else if let Err(e) = check_field(CONTENT_TYPE, ct) {
            notes.push(format!("content type left out: it {e}"));
        } else {
            extension.push((CONTENT_TYPE.to_string(), ct.clone()));
        }
    }
    if let (Some(n), Some(sha)) = (r.content_length, &r.content_sha256) {
        match check_field(CONTENT_SHA256, sha) {
            Ok(()) => {
                extension.push((CONTENT_LENGTH.to_string(), n.to_string()));
                extension.push((CONTENT_SHA256.to_string(), sha.clone()));
            }
            Err(e) => notes.push(format!(
                "content-length and content-sha256 left out: content-sha256 is {e}"
            )),
        }
    } else if r.content_length.is_some() || r.content_sha256.is_some() {
        notes.push(
            "content-length and content-sha256 left out: the format carries both or neither"
                .to_string(),
        );
    }
    if !generated.is_empty() {
        extension.push((GENERATED.to_string(), generated.join(", ")));
    }
    extension.sort();
    let mut out = vec![("URI".to_string(), url)];
    for field in &STANDARD[1..] {
        if let Some(value) = standard.remove(field) {
            out.push((field.to_string(), value));
        }
    }
    out.extend(extension);
    Some(out)
}

fn reserved_extension(name: &str) -> bool {
    name.starts_with("X-URLDB-") || [CONTENT_TYPE, CONTENT_LENGTH, CONTENT_SHA256].contains(&name)
}

/// `DD/MM/YYYY hh:mm:ss` for a time given in seconds since 1970 (UTC).
pub fn catalogue_date(unix_seconds: u64) -> String {
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
pub struct CatalogueEntry {
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
pub fn read_catalogue(bytes: &[u8]) -> (Vec<CatalogueEntry>, Vec<LineProblem>) {
    let mut entries = Vec::new();
    let mut problems = Vec::new();
    let mut ids: HashMap<String, usize> = HashMap::new();
    for record in split_records(bytes) {
        let mut dropped = Vec::new();
        match read_record(&record, &mut ids, &mut dropped) {
            Ok(entry) => {
                entries.push(entry);
                problems.extend(dropped);
            }
            Err(Skipped { line, why }) => problems.push(LineProblem {
                line,
                message: format!("record skipped: {why}"),
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

/// Why a record is skipped whole, at `line`.
#[derive(Debug)]
struct Skipped {
    line: usize,
    why: SkipReason,
}

/// What makes a record ambiguous or incomplete (specification 2.2).
#[derive(Debug, thiserror::Error)]
enum SkipReason {
    #[error("`{0}` is not a field (`NAME: value`)")]
    NotAField(String),
    #[error("`{0}` is not a field name (letters, digits, `-`, `_`)")]
    NotAName(String),
    #[error("`{0}:` must be followed by one space")]
    NoSpace(String),
    #[error("second `{name}` field (first on line {first})")]
    Twice { name: String, first: usize },
    #[error("no `{0}` field (it is required)")]
    Missing(&'static str),
    #[error("URI `{uri}`: {error}")]
    NotAUrl {
        uri: String,
        error: urldb_core::url::UrlError,
    },
    /// A required field whose value cannot be its value (`value` is
    /// `None` when the line itself holds a forbidden byte).
    #[error("{name}{}: {error}", .value.as_ref().map(|v| format!(" `{v}`")).unwrap_or_default())]
    Invalid {
        name: String,
        value: Option<String>,
        error: FieldError,
    },
}

fn read_record(
    lines: &[(usize, &[u8])],
    ids: &mut HashMap<String, usize>,
    dropped: &mut Vec<LineProblem>,
) -> Result<CatalogueEntry, Skipped> {
    let first = lines.first().map_or(0, |(n, _)| *n);
    let mut fields = Fields::read(lines, first)?;
    // Specification 2.2: an invalid field is discarded, unless the record
    // cannot be without it.
    let mut drop = |line: usize, message: String| {
        dropped.push(LineProblem {
            line,
            message,
            skipped: false,
        });
    };
    for name in fields.order.clone() {
        let Some((value, n)) = fields.values.get(&name) else {
            continue;
        };
        let (value, n) = (value.clone(), *n);
        let why = match value {
            Ok(v) => check_field(&name, &v)
                .err()
                .map(|error| SkipReason::Invalid {
                    name: name.clone(),
                    value: Some(v),
                    error,
                }),
            Err(error) => Some(SkipReason::Invalid {
                name: name.clone(),
                value: None,
                error,
            }),
        };
        let Some(why) = why else { continue };
        if REQUIRED.contains(&name.as_str()) {
            return Err(Skipped { line: n, why });
        }
        drop(n, format!("{why}; field dropped"));
        fields.values.remove(&name);
    }
    if let Some((id, n)) = fields.get("ID") {
        let key = id_key(id).unwrap_or(id).to_string();
        if let Some(at) = ids.get(&key) {
            drop(
                n,
                format!("ID {id} is already the ID of the record on line {at}; field dropped"),
            );
            fields.values.remove("ID");
        }
    }
    let (uri, uri_line) = fields.get("URI").unwrap_or_default();
    let url = canonicalize_given(uri).map_err(|error| Skipped {
        line: uri_line,
        why: SkipReason::NotAUrl {
            uri: uri.to_string(),
            error,
        },
    })?;
    let digest = match (fields.get(CONTENT_LENGTH), fields.get(CONTENT_SHA256)) {
        (Some((len, _)), Some((sha, _))) => len
            .parse::<u64>()
            .ok()
            .map(|length| (length, sha.to_ascii_lowercase())),
        (None, None) => None,
        (Some((_, n)), None) | (None, Some((_, n))) => {
            drop(
                n,
                format!(
                    "{CONTENT_LENGTH} and {CONTENT_SHA256} go together; the one given is dropped"
                ),
            );
            None
        }
    };
    if let Some((id, n)) = fields.get("ID") {
        ids.insert(id_key(id).unwrap_or(id).to_string(), n);
    }
    // `TYPE` wins over the redirect marker the writer puts in its place.
    if let (Some((given, _)), Some((marker, n))) = (fields.get("TYPE"), fields.get(CONTENT_TYPE))
        && given != marker
    {
        drop(
            n,
            format!(
                "{CONTENT_TYPE} `{}` dropped: `TYPE` gives the content type",
                urldb_core::text::escape(marker)
            ),
        );
    }
    let extras = extras(&fields, dropped);
    Ok(CatalogueEntry {
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

/// One record's fields: name -> (value, or why the line's value is no
/// text the format allows; line), and the order they came in.
struct Fields {
    values: HashMap<String, (Result<String, FieldError>, usize)>,
    order: Vec<String>,
}

impl Fields {
    /// The `NAME: value` lines of a record (`first`: its first line), each
    /// name once, with the required `URI`, `NAME` and `DATE`. A line that
    /// is not a field, or a field given twice, leaves the record
    /// ambiguous: it is skipped. A value with a forbidden character is
    /// kept as the reason, for [`read_record`] to judge.
    fn read(lines: &[(usize, &[u8])], first: usize) -> Result<Fields, Skipped> {
        let mut values: HashMap<String, (Result<String, FieldError>, usize)> = HashMap::new();
        let mut order: Vec<String> = Vec::new();
        for (n, raw) in lines {
            let Some(colon) = raw.iter().position(|b| *b == b':') else {
                return Err(Skipped {
                    line: *n,
                    why: SkipReason::NotAField(String::from_utf8_lossy(raw).into_owned()),
                });
            };
            let (name, value) = (&raw[..colon], &raw[colon + 1..]);
            // A valid name is ASCII, so it is UTF-8.
            let name = match std::str::from_utf8(name) {
                Ok(name) if valid_name(name) => name,
                _ => {
                    return Err(Skipped {
                        line: *n,
                        why: SkipReason::NotAName(String::from_utf8_lossy(name).into_owned()),
                    });
                }
            };
            let Some(value) = value.strip_prefix(b" ") else {
                return Err(Skipped {
                    line: *n,
                    why: SkipReason::NoSpace(name.to_string()),
                });
            };
            let value = if value.is_empty() {
                Err(FieldError("an empty value".to_string()))
            } else if let Some(b) = value.iter().find(|b| forbidden(**b)) {
                Err(FieldError(describe_forbidden(*b)))
            } else {
                // Only ASCII bytes remain.
                Ok(String::from_utf8_lossy(value).into_owned())
            };
            if let Some((_, at)) = values.get(name) {
                return Err(Skipped {
                    line: *n,
                    why: SkipReason::Twice {
                        name: name.to_string(),
                        first: *at,
                    },
                });
            }
            values.insert(name.to_string(), (value, *n));
            order.push(name.to_string());
        }
        for required in REQUIRED {
            if !values.contains_key(required) {
                return Err(Skipped {
                    line: first,
                    why: SkipReason::Missing(required),
                });
            }
        }
        Ok(Fields { values, order })
    }

    /// A field's valid value and its line.
    fn get(&self, name: &str) -> Option<(&str, usize)> {
        match self.values.get(name) {
            Some((Ok(v), n)) => Some((v.as_str(), *n)),
            _ => None,
        }
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
        let Some((value, n)) = fields.get(name) else {
            continue;
        };
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
        } else if let Some(key) = name.strip_prefix(EXTRA).filter(|k| !k.is_empty()) {
            extras.push((key.to_string(), Scalar::string(value)));
        } else if let Some(key) = name.strip_prefix(PLAIN).filter(|k| !k.is_empty()) {
            extras.push((key.to_string(), Scalar::plain(value)));
        } else if STANDARD.contains(&name.as_str())
            || [GENERATED, CONTENT_TYPE, CONTENT_LENGTH, CONTENT_SHA256].contains(&name.as_str())
        {
            // Read by read_record.
        } else if name.starts_with("X-URLDB-") {
            problems.push(LineProblem {
                line: n,
                message: format!("`{name}` is no field urldb writes; dropped"),
                skipped: false,
            });
        } else if name.starts_with("X-") {
            extras.push((name.clone(), Scalar::string(value)));
        } else {
            problems.push(LineProblem {
                line: n,
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
fn check_date(text: &str) -> Result<(), FieldError> {
    let b = text.as_bytes();
    let shape_ok = b.len() == 19
        && b.iter().enumerate().all(|(i, c)| match i {
            2 | 5 => *c == b'/',
            10 => *c == b' ',
            13 | 16 => *c == b':',
            _ => c.is_ascii_digit(),
        });
    if !shape_ok {
        return Err(FieldError("not `DD/MM/YYYY hh:mm:ss`".to_string()));
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
        _ => return Err(FieldError(format!("there is no month {month}"))),
    };
    if day == 0 || day > days {
        return Err(FieldError(format!(
            "there is no day {day} in month {month} of {year}"
        )));
    }
    if hour > 23 || minute > 59 || second > 59 {
        return Err(FieldError(format!(
            "{hour:02}:{minute:02}:{second:02} is not a time of day"
        )));
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
fn check_media_type(text: &str) -> Result<(), FieldError> {
    media_type::parse_media_type(text)
        .map(|_| ())
        .map_err(|e| FieldError(format!("not a media type: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(catalogue_date(0), "01/01/1970 00:00:00");
        assert_eq!(catalogue_date(1_193_857_414), "31/10/2007 19:03:34");
        assert_eq!(catalogue_date(951_782_400), "29/02/2000 00:00:00");
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

    #[test]
    fn one_check_per_field() {
        for (name, good, bad) in [
            ("RATING", "5", "9"),
            ("RATING", "1", "01"),
            ("ID", "007", "0"),
            ("ID", "12345678901234567890123", "-1"),
            ("LANGUAGE", "en-gb", "not a tag!"),
            ("TYPE", "text/html", "X-301-Redirect"),
            ("DATE", "29/02/2000 00:00:00", "2000-02-29"),
            ("URI", "http://example.com/", "ftp://example.com/"),
            (CONTENT_LENGTH, "0", "-1"),
            (CONTENT_SHA256, &"aB".repeat(32), "ab"),
            ("DESCRIPTION", "any text", "caf\u{e9}"),
            ("X-Note", "x", ""),
            ("NAME", "x", "a\tb"),
        ] {
            assert!(check_field(name, good).is_ok(), "{name}: {good}");
            assert!(check_field(name, bad).is_err(), "{name}: {bad}");
        }
        assert_eq!(id_key("007"), Ok("7"));
    }
}
