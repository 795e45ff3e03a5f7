//! ## What it checks
//! A percent-escape in a `_path` of an unreserved character
//! (`A-Z a-z 0-9 - . _ ~`): `%7E` for `~`, `%41` for `A`, `%2D` for `-`.
//! Escapes of reserved characters (`%2F`, `%3F`, `%26`, ...) are kept: they
//! mean something else than the character itself.
//!
//! ## Why it matters
//! RFC 3986 makes `/%7Ejoe` and `/~joe` the same URL, and the canonical
//! spelling decodes the unreserved characters (as url-normalize does). With
//! one spelling, a reader, sorting and `duplicate-path` all see that two
//! records are one URL.
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! _path: /%7Ejoe/index.html
//! content-type: text/html
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! ---
//! _path: /~joe/index.html
//! content-type: text/html
//! ```
//!
//! ## Fix
//! Safe, by `urldb check --fix`: the escapes of unreserved characters are
//! decoded; the URL is the same. (Not while the path has a `%` that starts
//! no escape, `path-bad-escape`: decoding could make it start one.)
//! Not applied when the fixed path would be the URL of another record of
//! the file (it would become a `duplicate-path`): the finding stays, says
//! so, and a person keeps one of the two records.

use crate::model::path::{Escape, escapes, is_unreserved};
use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "path-unneeded-escape",
    summary: "`_path` percent-encodes an unreserved character",
    severity: Severity::Error,
    fix: FixKind::Safe,
    blocks_rewrite: false,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::No,
    check: Check::File {
        check,
        clean: CleanText(CLEAN),
    },
};

/// Clean text: a `_path` that escapes no unreserved character
/// (`rules::clean`).
pub(crate) static CLEAN: &[Clean] = &[Clean::Value {
    key: domain::PATH,
    looks_at: LooksAt::Bytes(|b| b == b'%'),
    clean: |path, _| {
        !escapes(path.value).any(|e| matches!(e, Escape::Valid { byte, .. } if is_unreserved(byte)))
    },
}];

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    for (record, entry, path) in domain::paths(ctx.documents) {
        // Most paths have no escape at all: found at memchr speed.
        if memchr::memchr(b'%', path.as_bytes()).is_none() {
            continue;
        }
        let unneeded = unneeded_escapes(path);
        if unneeded.is_empty() {
            continue;
        }
        let Some(at) = entry_path(record.doc, record.entries, domain::PATH) else {
            continue;
        };
        // A bad `%` next to a decoded hex digit could become an escape
        // (`%%34%31` → `%41`): such a path waits for `path-bad-escape`.
        let has_bad = escapes(path).any(|e| matches!(e, Escape::Bad { .. }));
        let fixed = decode_unreserved(path);
        for (i, byte) in unneeded {
            let text = &path[i..i + 3];
            let c = byte as char;
            let finding = Finding::new(
                &RULE,
                sub_span(ctx.source, &entry.value, i..i + 3),
                format!("`{text}` encodes `{c}`, which needs no escape"),
            );
            if has_bad {
                out.push(finding.help(format!(
                    "write `{c}` once every `%` of the path starts a valid escape (`path-bad-escape`)"
                )));
                continue;
            }
            out.push(
                finding
                    .help(format!(
                        "write `{c}`: unreserved characters are not percent-encoded"
                    ))
                    .fix(Fix::safe(
                        "decode the unreserved characters",
                        vec![Edit::SetScalar {
                            at: at.clone(),
                            value: Scalar::string(fixed.clone()),
                        }],
                    )),
            );
        }
    }
}

/// The offset and byte of every escape of an unreserved character.
fn unneeded_escapes(path: &str) -> Vec<(usize, u8)> {
    escapes(path)
        .filter_map(|e| match e {
            Escape::Valid { at, byte } if is_unreserved(byte) => Some((at, byte)),
            _ => None,
        })
        .collect()
}

/// The path with the escapes of unreserved characters decoded; every other
/// escape is kept as written.
fn decode_unreserved(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut rest = 0;
    for (at, byte) in unneeded_escapes(path) {
        out.push_str(&path[rest..at]);
        out.push(byte as char);
        rest = at + 3;
    }
    out.push_str(&path[rest..]);
    out
}

#[cfg(test)]
mod tests {
    use super::decode_unreserved;
    use crate::rules::test_support::{count, fixed, with_path};

    #[test]
    fn flags_escaped_unreserved_characters() {
        assert_eq!(count(&with_path("/%7Ejoe"), "path-unneeded-escape"), 1);
        assert_eq!(
            count(&with_path("/%41%62%30%2D%2E%5F"), "path-unneeded-escape"),
            6
        );
    }

    #[test]
    fn flags_lowercase_hex_too() {
        assert_eq!(count(&with_path("/%7ejoe"), "path-unneeded-escape"), 1);
    }

    #[test]
    fn accepts_reserved_escapes() {
        assert_eq!(
            count(
                &with_path("/a%2Fb%3F%26%25%20%C3%A9"),
                "path-unneeded-escape"
            ),
            0
        );
    }

    #[test]
    fn decodes_only_unreserved() {
        assert_eq!(decode_unreserved("/%7Ejoe%2F%41?q=%7e"), "/~joe%2FA?q=~");
        assert_eq!(decode_unreserved("/%%41"), "/%A");
        assert_eq!(decode_unreserved("/%2f"), "/%2f");
    }

    #[test]
    fn no_fix_next_to_a_bad_percent() {
        let text = with_path("/%%34%31");
        assert_eq!(fixed("example.com.yaml", &text), text);
        assert_eq!(count(&with_path("/%%34%31"), "path-unneeded-escape"), 2);
    }

    #[test]
    fn fix_decodes() {
        assert_eq!(
            fixed("example.com.yaml", &with_path("/%7Ejoe/index.html")),
            with_path("/~joe/index.html")
        );
    }
}
