//! Unified diffs of a file's text and its new text, in the form `git apply`
//! accepts (`a/` and `b/` prefixes, `\ No newline at end of file`).

use similar::TextDiff;

/// A git-style diff of `old` → `new` for the file at `path` (a relative
/// path with `/` separators). Empty when the texts are equal.
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
    out
}
