//! Finding comments, which yaml-rust2's events do not report.
//!
//! A `#` starts a comment at the start of a line or after white space,
//! outside scalars. Scalar spans from the parser are skipped, so a `#` in a
//! quoted string or a block scalar is content, not a comment.

use crate::source::Span;

/// Spans of every comment (from `#` to the end of its line).
pub fn find_comments(text: &str, scalar_spans: &[Span]) -> Vec<Span> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    // Quick exit: most files have no `#` at all.
    if memchr::memchr(b'#', bytes).is_none() {
        return out;
    }
    let mut spans = scalar_spans.iter().peekable();
    let mut i = 0;
    while i < bytes.len() {
        while let Some(s) = spans.peek() {
            if s.end <= i {
                spans.next();
            } else {
                break;
            }
        }
        if let Some(s) = spans.peek()
            && s.start <= i
            && i < s.end
        {
            i = s.end;
            continue;
        }
        if bytes[i] == b'#' && (i == 0 || matches!(bytes[i - 1], b' ' | b'\t' | b'\n' | b'\r')) {
            let end = bytes[i..]
                .iter()
                .position(|&b| b == b'\n' || b == b'\r')
                .map_or(bytes.len(), |p| i + p);
            out.push(i..end);
            i = end;
            continue;
        }
        i += 1;
    }
    out
}
