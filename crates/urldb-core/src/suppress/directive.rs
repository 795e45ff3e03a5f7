//! Reading a suppression comment: `# urldb: ignore[code, …]` and
//! `# urldb: ignore-file[code]`, after an optional note.

use crate::rules::Rule;
use crate::source::Span;

/// The marker every directive starts with, after `#` and spaces.
pub(super) const MARKER: &str = "urldb:";

/// What a directive excuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `ignore` at the end of a line: that line.
    Line,
    /// `ignore` alone on its line: the entry, item or record after it.
    Owner,
    /// `ignore-file`: the whole file.
    File,
}

/// One code named in a directive, and where its text is in the file.
#[derive(Debug, Clone)]
pub(crate) struct Code {
    pub(crate) text: String,
    pub(crate) span: Span,
    pub(crate) rule: Option<&'static Rule>,
}

/// One suppression comment.
#[derive(Debug, Clone)]
pub(crate) struct Directive {
    /// The whole comment (`#` to the end of its line).
    pub(crate) comment: Span,
    pub(crate) kind: Kind,
    pub(crate) codes: Vec<Code>,
    /// The bytes it excuses (a finding starting here, inclusive of the
    /// end); `None` when it stands before nothing.
    pub(crate) scope: Option<Span>,
    /// Why it is not a directive urldb can read, if so.
    pub(crate) malformed: Option<Malformed>,
    /// The comment's text before the directive (a note, or empty) and
    /// after its `]` (a reason): kept when the directive is rewritten.
    pub(crate) note: String,
    pub(crate) reason: String,
}

/// Why a comment that starts like a directive is not one urldb can read;
/// the word is `ignore` or `ignore-file`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Malformed {
    #[error("`# urldb: {0}` must name the rules it excuses: `# urldb: {0}[rule-code]`")]
    NoList(&'static str),
    #[error("`# urldb: {0}[` has no closing `]`")]
    Unclosed(&'static str),
    #[error("`# urldb: {0}[]` names no rule: write `# urldb: {0}[rule-code]`")]
    Empty(&'static str),
}

/// A comment's directive, parsed: `Ok((file, codes with their offsets in
/// the comment))`, or why it is malformed. `None`: not a directive.
#[allow(clippy::type_complexity)]
pub(crate) fn parse_comment(
    comment: &str,
) -> Option<(usize, Result<(bool, Vec<(String, Span)>), Malformed>)> {
    // The directive may start the comment or follow a note after another `#`.
    let mut search = 0;
    let (hash, rest) = loop {
        let hash = search + comment[search..].find('#')?;
        let after = &comment[hash + 1..];
        let trimmed = after.trim_start_matches([' ', '\t']);
        if let Some(rest) = trimmed.strip_prefix(MARKER) {
            let word = rest.trim_start_matches([' ', '\t']);
            if word.starts_with("ignore") {
                break (hash, word);
            }
        }
        search = hash + 1;
    };
    let base = comment.len() - rest.len();
    let (file, after_word) = if let Some(r) = rest.strip_prefix("ignore-file") {
        (true, r)
    } else if let Some(r) = rest.strip_prefix("ignore") {
        (false, r)
    } else {
        return None;
    };
    let word = if file { "ignore-file" } else { "ignore" };
    let Some(inside) = after_word.strip_prefix('[') else {
        return Some((hash, Err(Malformed::NoList(word))));
    };
    let Some(close) = inside.find(']') else {
        return Some((hash, Err(Malformed::Unclosed(word))));
    };
    let list_start = base + word.len() + 1;
    let mut codes = Vec::new();
    let mut offset = list_start;
    for part in inside[..close].split(',') {
        let lead = part.len() - part.trim_start().len();
        let code = part.trim();
        if !code.is_empty() {
            let start = offset + lead;
            codes.push((code.to_string(), start..start + code.len()));
        }
        offset += part.len() + 1;
    }
    if codes.is_empty() {
        return Some((hash, Err(Malformed::Empty(word))));
    }
    Some((hash, Ok((file, codes))))
}

/// The comment's text is a suppression directive (well formed or not):
/// `yaml-comment` does not report it.
pub(crate) fn is_directive(comment: &str) -> bool {
    parse_comment(comment).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_spelling() {
        let (at, parsed) =
            parse_comment("# urldb: ignore[path-case, yaml-tag]").expect("directive");
        assert_eq!(at, 0);
        let (file, codes) = parsed.expect("well formed");
        assert!(!file);
        let names: Vec<&str> = codes.iter().map(|(c, _)| c.as_str()).collect();
        assert_eq!(names, ["path-case", "yaml-tag"]);
        let text = "# urldb: ignore[path-case, yaml-tag]";
        assert_eq!(&text[codes[1].1.clone()], "yaml-tag");
        let (_, parsed) = parse_comment("# urldb: ignore-file[path-case]").expect("directive");
        assert!(parsed.expect("well formed").0);
        let (at, _) =
            parse_comment("# kept for 2019 # urldb: ignore[path-case]").expect("after a note");
        assert_eq!(at, 16);
        assert!(
            parse_comment("# urldb: ignore")
                .expect("directive")
                .1
                .is_err()
        );
        assert!(
            parse_comment("# urldb: ignore[]")
                .expect("directive")
                .1
                .is_err()
        );
        assert!(parse_comment("# urldb is great").is_none());
        assert!(parse_comment("# a note").is_none());
    }
}
