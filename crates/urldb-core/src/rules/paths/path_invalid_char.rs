//! ## What it checks
//! Characters in a `_path` that a URL cannot hold as they are: spaces,
//! control characters, non-ASCII characters, and ASCII characters outside
//! the URL syntax (`"`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`, `}`, `[`,
//! `]`). A path and its query may hold the unreserved characters
//! `A-Z a-z 0-9 - . _ ~`, the sub-delimiters `! $ & ' ( ) * + , ; =`, and
//! `: @ / ? %`. (A `#` is a fragment: `path-fragment`.)
//!
//! ## Why it matters
//! Such a path is not a URL until it is percent-encoded, and every client
//! encodes it its own way (or refuses it), so `verify` may test another URL
//! than the one the site serves. Browsers and url-normalize send the UTF-8
//! bytes, percent-encoded: writing that form keeps the database equal to
//! what goes on the wire, and two spellings of one URL from colliding.
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! _path: /my file/café.html
//! content-type: text/html
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! ---
//! _path: /my%20file/caf%C3%A9.html
//! content-type: text/html
//! ```
//!
//! ## Fix
//! Safe, by `urldb check --fix`: each such character is percent-encoded
//! (non-ASCII as its UTF-8 bytes, uppercase hex), which is what a browser
//! sends for it.
//! Not applied when the fixed path would be the URL of another record of
//! the file (it would become a `duplicate-path`): the finding stays, says
//! so, and a person keeps one of the two records.

use crate::model::path::is_unreserved;
use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "path-invalid-char",
    summary: "`_path` holds a character that must be percent-encoded",
    severity: Severity::Error,
    fix: FixKind::Safe,
    blocks_rewrite: false,
    blocks_request: Some(3),
    enabled: Enabled::On,
    gate: Gate::Always("clients rewrite the URL; `verify` does not request it"),
    check: Check::File {
        check,
        clean: CleanText(CLEAN),
    },
};

/// Clean text: a `_path` whose every character a path may hold as it is
/// (`rules::clean`).
pub(crate) static CLEAN: &[Clean] = &[Clean::Value {
    key: domain::PATH,
    looks_at: LooksAt::Bytes(|b| !ALLOWED[usize::from(b)]),
    // After a `#`, the characters are `path-fragment`'s.
    clean: |path, _| invalid_runs(path.value).is_empty(),
}];

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    for (record, entry, path) in domain::paths(ctx.documents) {
        // Nearly every path is all allowed bytes: one table lookup each.
        if path.bytes().all(|b| ALLOWED[usize::from(b)]) {
            continue;
        }
        let runs = invalid_runs(path);
        if runs.is_empty() {
            continue;
        }
        let Some(at) = entry_path(record.doc, record.entries, domain::PATH) else {
            continue;
        };
        let fixed = encode_invalid(path);
        for run in runs {
            let text = &path[run.clone()];
            out.push(
                Finding::new(
                    &RULE,
                    sub_span(ctx.source, &entry.value, run.clone()),
                    format!("`_path` contains {}", describe(text)),
                )
                .help(format!("percent-encode it: write `{}`", encode(text)))
                .fix(Fix::safe(
                    "percent-encode the characters",
                    vec![Edit::SetScalar {
                        at: at.clone(),
                        value: Scalar::string(fixed.clone()),
                    }],
                )),
            );
        }
    }
}

/// A character a path or query may hold as it is (`%` included: its
/// escapes are other rules' business).
fn allowed(c: char) -> bool {
    c.is_ascii() && allowed_byte(c as u8)
}

/// [`allowed`] for every byte (non-ASCII bytes are not allowed).
pub(crate) static ALLOWED: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 128 {
        table[b] = allowed_byte(b as u8);
        b += 1;
    }
    table
};

/// Unreserved, a sub-delimiter, or one of `:@/?%`.
pub(crate) const fn allowed_byte(b: u8) -> bool {
    is_unreserved(b)
        || matches!(
            b,
            b'!' | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'@'
                | b'/'
                | b'?'
                | b'%'
        )
}

/// The part of the path that is sent: before any `#` (`path-fragment`).
fn sent(path: &str) -> &str {
    path.split('#').next().unwrap_or(path)
}

/// Byte ranges of the runs of characters that must be encoded.
fn invalid_runs(path: &str) -> Vec<std::ops::Range<usize>> {
    let mut runs: Vec<std::ops::Range<usize>> = Vec::new();
    for (i, c) in sent(path).char_indices() {
        if allowed(c) {
            continue;
        }
        let end = i + c.len_utf8();
        match runs.last_mut() {
            Some(run) if run.end == i => run.end = end,
            _ => runs.push(i..end),
        }
    }
    runs
}

/// Percent-encode every byte of `text` (uppercase hex).
fn encode(text: &str) -> String {
    text.bytes().map(|b| format!("%{b:02X}")).collect()
}

/// The path with every character that must be encoded percent-encoded.
/// A fragment is left as it is (`path-fragment` removes it).
fn encode_invalid(path: &str) -> String {
    let head = sent(path);
    let mut out = String::with_capacity(path.len() + 8);
    for c in head.chars() {
        if allowed(c) {
            out.push(c);
        } else {
            out.push_str(&encode(c.encode_utf8(&mut [0; 4])));
        }
    }
    out.push_str(&path[head.len()..]);
    out
}

/// "a space", "`<`", "the non-ASCII character `é`", ... for a run.
fn describe(run: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    for c in run.chars() {
        let part = match c {
            ' ' => "a space".to_string(),
            c if c.is_control() => format!("the control character U+{:04X}", c as u32),
            c if !c.is_ascii() => format!("the non-ASCII character `{c}`"),
            c => format!("`{c}`"),
        };
        if !parts.contains(&part) {
            parts.push(part);
        }
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::{ALLOWED, allowed, encode_invalid, invalid_runs};
    use crate::rules::test_support::{count, finding, fixed, with_path};

    #[test]
    fn the_byte_table_is_the_character_test() {
        for b in 0..=255u8 {
            assert_eq!(
                ALLOWED[usize::from(b)],
                b < 128 && allowed(char::from(b)),
                "{b}"
            );
        }
    }

    #[test]
    fn flags_spaces_and_non_ascii() {
        assert_eq!(count(&with_path("/my file"), "path-invalid-char"), 1);
        assert_eq!(count(&with_path("/café"), "path-invalid-char"), 1);
        assert_eq!(count(&with_path("'/a b/c d'"), "path-invalid-char"), 2);
    }

    #[test]
    fn flags_characters_outside_the_url_syntax() {
        for c in ["<", ">", "\\\\", "^", "`", "{", "|", "}", "[", "]", "\\\""] {
            assert_eq!(
                count(&with_path(&format!("\"/a{c}b\"")), "path-invalid-char"),
                1,
                "{c}"
            );
        }
    }

    #[test]
    fn flags_control_characters() {
        assert_eq!(count(&with_path("\"/a\\tb\""), "path-invalid-char"), 1);
        assert_eq!(count(&with_path("\"/a\\x01b\""), "path-invalid-char"), 1);
    }

    #[test]
    fn accepts_the_url_syntax() {
        assert_eq!(
            count(
                &with_path("\"/AZaz09-._~!$&'()*+,;=:@/?%20\""),
                "path-invalid-char"
            ),
            0
        );
    }

    #[test]
    fn leaves_the_fragment_to_path_fragment() {
        assert_eq!(count(&with_path("/a#b"), "path-invalid-char"), 0);
        assert_eq!(count(&with_path("'/a#b c'"), "path-invalid-char"), 0);
    }

    #[test]
    fn one_finding_per_run() {
        assert_eq!(invalid_runs("/a  b<>c"), vec![2..4, 5..7]);
        assert_eq!(invalid_runs("/é"), vec![1..3]);
    }

    #[test]
    fn encodes_utf8_bytes_in_uppercase_hex() {
        assert_eq!(
            encode_invalid("/my file/café.html"),
            "/my%20file/caf%C3%A9.html"
        );
        assert_eq!(encode_invalid("/a|b?q={x}"), "/a%7Cb?q=%7Bx%7D");
        assert_eq!(encode_invalid("/a b#c d"), "/a%20b#c d");
    }

    #[test]
    fn fix_percent_encodes() {
        assert_eq!(
            fixed("example.com.yaml", &with_path("/my file/café.html")),
            with_path("/my%20file/caf%C3%A9.html")
        );
    }

    #[test]
    fn span_is_the_run() {
        let text = with_path("/my  file");
        let finding = finding(&text, "path-invalid-char");
        assert_eq!(&text[finding.span.clone()], "  ");
    }
}
