//! Unified diffs of a file's text and its new text, in the form `git apply`
//! accepts (`a/` and `b/` prefixes, `\ No newline at end of file`).

use similar::TextDiff;

/// A git-style diff of `old` → `new` for the file at `path` (a relative
/// path with `/` separators). Empty when the texts are equal. Control
/// characters other than line breaks and tabs are escaped (see
/// [`escape_controls`]).
pub fn unified(path: &str, old: &str, new: &str) -> String {
    if old == new {
        return String::new();
    }
    let diff = TextDiff::from_lines(old, new);
    let mut out = format!("diff --git a/{path} b/{path}\n");
    out.push_str(
        &diff
            .unified_diff()
            .context_radius(3)
            .missing_newline_hint(true)
            .header(&format!("a/{path}"), &format!("b/{path}"))
            .to_string(),
    );
    escape_controls(out)
}

/// The diff with control characters that a terminal or log reader would
/// act on written as visible escapes ([`crate::text::push_escaped`]): all
/// of them but the line feed, the tab, and a carriage return before a line
/// feed (so the diff of an ordinary file, CRLF included, still applies).
/// A hunk holding an escaped character no longer applies: `git apply`
/// refuses it rather than writing other bytes.
fn escape_controls(diff: String) -> String {
    let needs = |c: char| crate::text::needs_escape(c) && c != '\n' && c != '\t';
    if !diff.chars().any(needs) {
        return diff;
    }
    let mut out = String::with_capacity(diff.len() + 16);
    let mut chars = diff.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' && chars.peek() == Some(&'\n') {
            out.push(c);
        } else if needs(c) {
            crate::text::push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn control_characters_are_escaped_but_line_breaks_and_tabs_kept() {
        let diff = super::unified("a.yaml", "x: \u{1b}[2J\r\ny:\tz\n", "x: 1\r\ny:\tz\n");
        assert!(diff.contains("-x: \\x1b[2J\r\n"), "{diff:?}");
        assert!(diff.contains("+x: 1\r\n"), "{diff:?}");
        assert!(diff.contains(" y:\tz\n"), "{diff:?}");
        let lone = super::unified("a.yaml", "a\rb\n", "a\nb\n");
        assert!(!lone.contains('\r'), "{lone:?}");
    }
}
