//! YAML 1.1 implicit typing of plain scalars, exactly as PyYAML's
//! `Resolver` does it.
//!
//! The reference tool loaded and dumped files with PyYAML, so two questions
//! are answered with PyYAML's regular expressions: "would this plain scalar
//! load as something other than a string?" (a key like `yes:` is a boolean,
//! not a string) and "must this string be quoted to stay a string?" (the
//! renderer quotes `'1.0'`, `'yes'`, `'2001-12-14'`). The expressions are
//! small, and hand-written matchers keep the formatter's hot path free of a
//! regex engine; the differential test against PyYAML checks every branch.

/// The type PyYAML's resolver gives a plain scalar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Implicit {
    Str,
    Bool,
    Float,
    Int,
    /// `<<`, the merge key.
    Merge,
    Null,
    Timestamp,
    /// `=`, the "value" key.
    Value,
}

impl Implicit {
    /// A decimal without a sign or a leading zero (a length): an integer,
    /// and no other resolver takes digits alone.
    pub(crate) fn is_plain_decimal(v: &[u8]) -> bool {
        matches!(v.first(), Some(b'1'..=b'9')) && v.iter().all(u8::is_ascii_digit)
    }

    /// Some resolver is registered for a plain scalar starting with
    /// `first`: only then can it be read as anything but a string.
    pub(crate) fn may_lead(first: u8) -> bool {
        matches!(
            first,
            b'y' | b'Y'
                | b'n'
                | b'N'
                | b't'
                | b'T'
                | b'f'
                | b'F'
                | b'o'
                | b'O'
                | b'-'
                | b'+'
                | b'.'
                | b'0'..=b'9' | b'<' | b'~' | b'='
        )
    }

    /// Resolve `value` as PyYAML resolves a plain scalar: the resolvers
    /// registered for its first character, in registration order.
    pub fn of(value: &str) -> Implicit {
        // Python's `$` also matches before one final newline.
        let v = value.strip_suffix('\n').unwrap_or(value).as_bytes();
        let Some(&first) = v.first() else {
            // Only the null resolver is registered for the empty string;
            // `value` may still be "\n", which no resolver takes.
            return if value.is_empty() {
                Implicit::Null
            } else {
                Implicit::Str
            };
        };
        // Most strings (paths, media types) start with a character no
        // resolver is registered for.
        if !Implicit::may_lead(first) {
            return Implicit::Str;
        }
        if first.is_ascii_digit() {
            if Implicit::is_plain_decimal(v) {
                return Implicit::Int;
            }
            // After a leading digit, only an integer's `0b` or `0x` (and
            // its hex digits), a float's exponent and a timestamp's `T`,
            // `t` and `Z` are letters: any other letter (a digest's) makes
            // a string.
            if !matches!(v.get(1), Some(b'b' | b'x'))
                && v.iter().any(|&b| {
                    b.is_ascii_alphabetic() && !matches!(b, b'e' | b'E' | b'T' | b't' | b'Z')
                })
            {
                return Implicit::Str;
            }
        }
        if b"yYnNtTfFoO".contains(&first) && is_bool(v) {
            return Implicit::Bool;
        }
        if b"-+0123456789.".contains(&first) && is_float(v) {
            return Implicit::Float;
        }
        if b"-+0123456789".contains(&first) && is_int(v) {
            return Implicit::Int;
        }
        if v == b"<<" {
            return Implicit::Merge;
        }
        if is_null_text(v) {
            return Implicit::Null;
        }
        if first.is_ascii_digit() && is_timestamp(v) {
            return Implicit::Timestamp;
        }
        if v == b"=" {
            return Implicit::Value;
        }
        Implicit::Str
    }

    /// A value [`Implicit::is_null`] is true of is empty or starts with
    /// one of these.
    pub(crate) fn may_lead_null(first: u8) -> bool {
        matches!(first, b'~' | b'n' | b'N' | b'\n')
    }

    /// [`Implicit::of`] is [`Implicit::Null`], asked without resolving the
    /// other types: no other resolver takes these texts.
    pub(crate) fn is_null(value: &str) -> bool {
        value.is_empty() || is_null_text(value.strip_suffix('\n').unwrap_or(value).as_bytes())
    }

    pub fn name(self) -> &'static str {
        match self {
            Implicit::Str => "string",
            Implicit::Bool => "boolean",
            Implicit::Float => "float",
            Implicit::Int => "integer",
            Implicit::Merge => "merge key",
            Implicit::Null => "null",
            Implicit::Timestamp => "timestamp",
            Implicit::Value => "value key",
        }
    }
}

/// `~|null|Null|NULL` (the null resolver also takes the empty string).
fn is_null_text(v: &[u8]) -> bool {
    matches!(v, b"~" | b"null" | b"Null" | b"NULL")
}

/// `yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF`
pub(crate) fn is_bool(v: &[u8]) -> bool {
    matches!(
        v,
        b"yes"
            | b"Yes"
            | b"YES"
            | b"no"
            | b"No"
            | b"NO"
            | b"true"
            | b"True"
            | b"TRUE"
            | b"false"
            | b"False"
            | b"FALSE"
            | b"on"
            | b"On"
            | b"ON"
            | b"off"
            | b"Off"
            | b"OFF"
    )
}

/// A tiny cursor for writing the resolver's regular expressions by hand.
struct Cur<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> Cur<'a> {
    fn new(s: &'a [u8]) -> Self {
        Cur { s, i: 0 }
    }
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }
    fn eat(&mut self, pred: impl Fn(u8) -> bool) -> bool {
        match self.peek() {
            Some(c) if pred(c) => {
                self.i += 1;
                true
            }
            _ => false,
        }
    }
    fn eat_byte(&mut self, b: u8) -> bool {
        self.eat(|c| c == b)
    }
    fn eat_str(&mut self, lit: &[u8]) -> bool {
        if self.s[self.i..].starts_with(lit) {
            self.i += lit.len();
            true
        } else {
            false
        }
    }
    /// Eat as many as match; returns how many.
    fn eat_many(&mut self, pred: impl Fn(u8) -> bool) -> usize {
        let start = self.i;
        while self.eat(&pred) {}
        self.i - start
    }
    fn sign(&mut self) {
        self.eat(|c| c == b'-' || c == b'+');
    }
    fn done(&self) -> bool {
        self.i == self.s.len()
    }
}

fn digit(c: u8) -> bool {
    c.is_ascii_digit()
}
fn digit_(c: u8) -> bool {
    c.is_ascii_digit() || c == b'_'
}

/// `[eE][-+][0-9]+` (optional)
fn exponent_then_end(mut c: Cur) -> bool {
    if c.eat(|b| b == b'e' || b == b'E') {
        if !c.eat(|b| b == b'-' || b == b'+') {
            return false;
        }
        if c.eat_many(digit) == 0 {
            return false;
        }
    }
    c.done()
}

/// `(?::[0-5]?[0-9])+` — at least one sexagesimal group. Regex
/// backtracking never matters here: `[0-5]?[0-9]` followed by `:` or the
/// end is taken greedily, and a greedy one-or-two-digit group is always
/// right for the alternatives below.
fn sexagesimal_groups(c: &mut Cur) -> bool {
    let mut groups = 0;
    loop {
        let save = c.i;
        if !c.eat_byte(b':') {
            break;
        }
        let a = c.peek();
        let b = c.s.get(c.i + 1).copied();
        match (a, b) {
            (Some(b'0'..=b'5'), Some(y)) if digit(y) => c.i += 2,
            (Some(x), _) if digit(x) => c.i += 1,
            _ => {
                c.i = save;
                break;
            }
        }
        groups += 1;
    }
    groups > 0
}

/// PyYAML's float expression:
/// ```text
/// [-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?
/// |\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?
/// |[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*
/// |[-+]?\.(?:inf|Inf|INF)
/// |\.(?:nan|NaN|NAN)
/// ```
pub(crate) fn is_float(v: &[u8]) -> bool {
    // 1: digits '.' digits exponent?
    {
        let mut c = Cur::new(v);
        c.sign();
        if c.eat(digit) {
            c.eat_many(digit_);
            if c.eat_byte(b'.') {
                c.eat_many(digit_);
                if exponent_then_end(Cur { s: c.s, i: c.i }) {
                    return true;
                }
            }
        }
    }
    // 2: '.' digit [0-9_]* exponent?
    {
        let mut c = Cur::new(v);
        if c.eat_byte(b'.') && c.eat(digit) {
            c.eat_many(digit_);
            if exponent_then_end(c) {
                return true;
            }
        }
    }
    // 3: sexagesimal float
    {
        let mut c = Cur::new(v);
        c.sign();
        if c.eat(digit) {
            c.eat_many(digit_);
            if sexagesimal_groups(&mut c) && c.eat_byte(b'.') {
                c.eat_many(digit_);
                if c.done() {
                    return true;
                }
            }
        }
    }
    // 4: [-+]?\.(inf|Inf|INF)
    {
        let mut c = Cur::new(v);
        c.sign();
        if c.eat_byte(b'.')
            && (c.eat_str(b"inf") || c.eat_str(b"Inf") || c.eat_str(b"INF"))
            && c.done()
        {
            return true;
        }
    }
    // 5: \.(nan|NaN|NAN)
    matches!(v, b".nan" | b".NaN" | b".NAN")
}

/// PyYAML's int expression:
/// ```text
/// [-+]?0b[0-1_]+
/// |[-+]?0[0-7_]+
/// |[-+]?(?:0|[1-9][0-9_]*)
/// |[-+]?0x[0-9a-fA-F_]+
/// |[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+
/// ```
pub(crate) fn is_int(v: &[u8]) -> bool {
    let mut c = Cur::new(v);
    c.sign();
    let body = Cur { s: c.s, i: c.i };
    let rest = &v[c.i..];
    if let Some(bits) = rest.strip_prefix(b"0b")
        && !bits.is_empty()
        && bits.iter().all(|&b| b == b'0' || b == b'1' || b == b'_')
    {
        return true;
    }
    if let Some(oct) = rest.strip_prefix(b"0")
        && !oct.is_empty()
        && oct.iter().all(|&b| (b'0'..=b'7').contains(&b) || b == b'_')
    {
        return true;
    }
    if rest == b"0" {
        return true;
    }
    if let Some((&first, tail)) = rest.split_first()
        && (b'1'..=b'9').contains(&first)
        && tail.iter().all(|&b| digit_(b))
    {
        return true;
    }
    if let Some(hex) = rest.strip_prefix(b"0x")
        && !hex.is_empty()
        && hex.iter().all(|&b| b.is_ascii_hexdigit() || b == b'_')
    {
        return true;
    }
    let mut c = body;
    if c.eat(|b| (b'1'..=b'9').contains(&b)) {
        c.eat_many(digit_);
        if sexagesimal_groups(&mut c) && c.done() {
            return true;
        }
    }
    false
}

/// PyYAML's timestamp expression:
/// ```text
/// [0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]
/// |[0-9][0-9][0-9][0-9] -[0-9][0-9]? -[0-9][0-9]?
///  (?:[Tt]|[ \t]+)[0-9][0-9]?
///  :[0-9][0-9] :[0-9][0-9] (?:\.[0-9]*)?
///  (?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?
/// ```
pub(crate) fn is_timestamp(v: &[u8]) -> bool {
    let is_date = v.len() == 10
        && v[..4].iter().all(|&b| digit(b))
        && v[4] == b'-'
        && v[5..7].iter().all(|&b| digit(b))
        && v[7] == b'-'
        && v[8..].iter().all(|&b| digit(b));
    if is_date {
        return true;
    }
    let mut c = Cur::new(v);
    let one_or_two = |c: &mut Cur| {
        c.eat(digit) && {
            c.eat(digit);
            true
        }
    };
    if c.eat_many(digit) != 4 || !c.eat_byte(b'-') || !one_or_two(&mut c) {
        return false;
    }
    if !c.eat_byte(b'-') || !one_or_two(&mut c) {
        return false;
    }
    if !(c.eat(|b| b == b'T' || b == b't') || c.eat_many(|b| b == b' ' || b == b'\t') > 0) {
        return false;
    }
    if !one_or_two(&mut c) || !c.eat_byte(b':') || c.eat_many(digit) != 2 {
        return false;
    }
    if !c.eat_byte(b':') || c.eat_many(digit) != 2 {
        return false;
    }
    if c.eat_byte(b'.') {
        c.eat_many(digit);
    }
    // `[ \t]*` then `Z` or an offset, all optional.
    let save = c.i;
    c.eat_many(|b| b == b' ' || b == b'\t');
    if c.eat_byte(b'Z') {
        return c.done();
    }
    if c.eat(|b| b == b'-' || b == b'+') {
        if !one_or_two(&mut c) {
            return false;
        }
        if c.eat_byte(b':') && c.eat_many(digit) != 2 {
            return false;
        }
        return c.done();
    }
    c.i = save;
    c.done()
}

/// Why PyYAML's safe loader fails on this plain scalar, if it does. Its
/// resolver types the text by regular expression and a constructor then
/// builds the value, and some texts pass the first and fail the second:
/// `=` and `<<` have no constructor as values, `0b_` and `0x_` are integers
/// with no digits once `_` is dropped, and `2001-02-30` or `2001-01-01
/// 24:00:00` are timestamps that Python's `datetime` refuses. One such
/// value makes `yaml.safe_load_all` raise for the whole file.
pub fn unloadable(value: &str) -> Option<&'static str> {
    unloadable_as(value, Implicit::of(value))
}

/// [`unloadable`] for a value already resolved as `implicit`.
pub(crate) fn unloadable_as(value: &str, implicit: Implicit) -> Option<&'static str> {
    let v = value.strip_suffix('\n').unwrap_or(value).as_bytes();
    match implicit {
        Implicit::Value => Some("YAML 1.1's value key, which has no value to load"),
        Implicit::Merge => Some("YAML 1.1's merge key, which is no value"),
        Implicit::Int if !int_has_digits(v) => Some("an integer with no digits"),
        Implicit::Timestamp => timestamp_fault(v),
        _ => None,
    }
}

/// PyYAML's `construct_yaml_int` drops every `_`, then reads the digits
/// after `0b` or `0x`: none is an error.
fn int_has_digits(v: &[u8]) -> bool {
    let rest = v
        .strip_prefix(b"-")
        .or_else(|| v.strip_prefix(b"+"))
        .unwrap_or(v);
    match rest
        .strip_prefix(b"0b")
        .or_else(|| rest.strip_prefix(b"0x"))
    {
        Some(digits) => digits.iter().any(|&b| b != b'_'),
        None => true,
    }
}

/// What `datetime.date` / `datetime.datetime` / `datetime.timezone` refuse
/// in a text [`is_timestamp`] accepted.
fn timestamp_fault(v: &[u8]) -> Option<&'static str> {
    let mut c = Cur::new(v);
    let number = |c: &mut Cur, most: usize| -> u32 {
        let start = c.i;
        while c.i - start < most && c.eat(digit) {}
        c.s[start..c.i]
            .iter()
            .fold(0, |n, &b| n * 10 + u32::from(b - b'0'))
    };
    let year = number(&mut c, 4);
    c.eat_byte(b'-');
    let month = number(&mut c, 2);
    c.eat_byte(b'-');
    let day = number(&mut c, 2);
    if year == 0 {
        return Some("a date in year 0, which no calendar date has");
    }
    if !(1..=12).contains(&month) {
        return Some("a date whose month is not 1 to 12");
    }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    if !(1..=days).contains(&day) {
        return Some("a date whose day is not in its month");
    }
    if c.done() {
        return None;
    }
    c.eat_many(|b| matches!(b, b'T' | b't' | b' ' | b'\t'));
    let hour = number(&mut c, 2);
    c.eat_byte(b':');
    let minute = number(&mut c, 2);
    c.eat_byte(b':');
    let second = number(&mut c, 2);
    if hour > 23 || minute > 59 || second > 59 {
        return Some("a time of day past 23:59:59");
    }
    if c.eat_byte(b'.') {
        c.eat_many(digit);
    }
    c.eat_many(|b| b == b' ' || b == b'\t');
    if c.eat(|b| b == b'-' || b == b'+') {
        let hours = number(&mut c, 2);
        let minutes = if c.eat_byte(b':') {
            number(&mut c, 2)
        } else {
            0
        };
        if hours * 60 + minutes >= 24 * 60 {
            return Some("a time zone offset of 24 hours or more");
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::Implicit::{self, *};

    /// The shortcut to null is the resolver's answer.
    #[test]
    fn is_null_is_the_resolvers_null() {
        for text in [
            "", "~", "null", "Null", "NULL", "nULL", "~\n", "null\n", "\n", "~~", " ~", "nul",
            "none", "0", "/", "-", "no",
        ] {
            assert_eq!(
                Implicit::is_null(text),
                Implicit::of(text) == Null,
                "{text:?}"
            );
            if let Some(&first) = text.as_bytes().first()
                && Implicit::is_null(text)
            {
                assert!(Implicit::may_lead_null(first), "{text:?}");
            }
        }
    }

    #[test]
    fn pyyaml_examples() {
        let cases: &[(&str, Implicit)] = &[
            ("", Null),
            ("~", Null),
            ("null", Null),
            ("nULL", Str),
            ("yes", Bool),
            ("On", Bool),
            ("y", Str),
            ("1.0", Float),
            ("1.", Float),
            (".5", Float),
            ("1e5", Str),
            ("1.0e+5", Float),
            ("1.0e5", Str),
            ("190:20:30.15", Float),
            (".inf", Float),
            ("-.Inf", Float),
            (".NaN", Float),
            ("-.nan", Str),
            ("0", Int),
            ("0123", Int),
            ("0128", Str),
            ("0x1F", Int),
            ("0b101", Int),
            ("1_000", Int),
            ("12:30", Int),
            ("012:30", Str),
            ("1:60", Str),
            ("1:5:9", Int),
            ("<<", Merge),
            ("=", Value),
            ("2001-12-14", Timestamp),
            ("2001-12-14t21:59:43.10-05:00", Timestamp),
            ("2001-12-14 21:59:43.10 -5", Timestamp),
            ("2001-12-14 21:59:43.10 Z", Timestamp),
            ("2001-1-4", Str),
            ("/a/b", Str),
            ("text/html", Str),
            ("+", Str),
            ("-", Str),
            (".", Str),
            ("._", Str),
            ("1_", Int),
            ("0_", Int),
            // Digits alone, and a leading digit with a letter (the
            // shortcuts for lengths and digests).
            ("1406", Int),
            ("18446744073709551616", Int),
            ("1406\n", Int),
            ("fd3589aa", Str),
            ("3589aa8a", Str),
            ("0f", Str),
            ("0b2", Str),
            ("0xfg", Str),
            ("12a", Str),
            ("1.5e+3", Float),
            ("1.5E+3", Float),
            ("2001-12-14t21:59:43.10Z", Timestamp),
        ];
        for (text, want) in cases {
            assert_eq!(Implicit::of(text), *want, "{text:?}");
        }
    }
}
