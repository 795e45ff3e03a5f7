//! The data.txt draft's path matcher (crate::url::matches) on any pattern and path.
//!
//! Asserts: no panic; agreement with an independent model (decode both to
//! a list of tokens, `%2F` kept apart from `/`, then a prefix test);
//! reflexivity; the empty pattern matches everything; a pattern matches
//! itself followed by anything; hex case of escapes never matters;
//! transitivity (p matches q and q matches r ⇒ p matches r).
#![no_main]

use libfuzzer_sys::fuzz_target;
use urldb_core::url::matches;

/// Tokens of a path: decoded octets, and `None` for an encoded slash.
fn model(text: &str) -> Vec<Option<u8>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            let hex = std::str::from_utf8(&b[i + 1..i + 3])
                .ok()
                .filter(|h| h.bytes().all(|c| c.is_ascii_hexdigit()))
                .and_then(|h| u8::from_str_radix(h, 16).ok());
            if let Some(v) = hex {
                out.push(if v == b'/' { None } else { Some(v) });
                i += 3;
                continue;
            }
        }
        out.push(Some(b[i]));
        i += 1;
    }
    out
}

fn swap_hex_case(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && i + 2 < b.len()
            && b[i + 1].is_ascii_hexdigit()
            && b[i + 2].is_ascii_hexdigit()
        {
            out.push(b'%');
            for c in &b[i + 1..i + 3] {
                out.push(if c.is_ascii_lowercase() {
                    c.to_ascii_uppercase()
                } else {
                    c.to_ascii_lowercase()
                });
            }
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).expect("only ASCII hex digits changed")
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // Three strings separated by NUL: pattern, path, a third path.
    let mut parts = text.splitn(3, '\0');
    let p = parts.next().unwrap_or("");
    let q = parts.next().unwrap_or("");
    let r = parts.next().unwrap_or("");

    let m = matches(p, q);
    assert_eq!(
        m,
        model(q).starts_with(&model(p)),
        "model disagrees: {p:?} {q:?}"
    );
    assert!(matches(p, p));
    assert!(matches("", q));
    assert_eq!(matches(&swap_hex_case(p), q), m);
    assert_eq!(matches(p, &swap_hex_case(q)), m);
    // A pattern that ends in a complete token matches itself plus more.
    if !p.ends_with('%') && !(p.len() >= 2 && p.as_bytes()[p.len() - 2] == b'%') {
        assert!(matches(p, &format!("{p}/{q}")), "{p:?} vs {p:?}/{q:?}");
    }
    if m && matches(q, r) {
        assert!(matches(p, r), "not transitive: {p:?} {q:?} {r:?}");
    }
});
