//! A version of a domain file cut at its `---` lines, without parsing:
//! the metadata document (with the file's header comments), one piece of
//! text per record (with the comment lines just above its `---`, which
//! are its own: `docs/format.md`, "Comments"), and the comment lines at
//! the end of the file. A record whose bytes are the same in all three
//! versions is then kept as it is and never parsed.
//!
//! A line that starts with `---` and a space or its end is a document's
//! start wherever it is (a quoted scalar cannot hold one, PyYAML refuses
//! it; a block scalar's lines are indented), so the cut is sound for any
//! text without a document end (`...`) or a directive (`%`), which the
//! cut refuses. A text it refuses is read whole.

use std::borrow::Cow;

/// One version, cut.
#[derive(Debug)]
pub(crate) struct Cut<'t> {
    /// The metadata document, from the start of the text (its header
    /// comments) to the first record.
    pub head: &'t str,
    /// Each record, in file order.
    pub records: Vec<&'t str>,
    /// The comment (and blank) lines after the last document.
    pub footer: &'t str,
}

/// Cut `text`, or `None` when the cut would not be sound (see the module's
/// comment) or there is no `---` at all.
pub(crate) fn cut(text: &str) -> Option<Cut<'_>> {
    if crate::parse::has_bom(text) {
        return None;
    }
    let bytes = text.as_bytes();
    // Each document's start.
    let mut starts: Vec<usize> = Vec::with_capacity(bytes.len() / 64);
    // Where the lines of comments (or blanks) that run up to here began:
    // the start of the next document when a `---` follows.
    let mut run: Option<usize> = None;
    let mut end_of_content = 0;
    let mut at = 0;
    while at < bytes.len() {
        let next = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |n| at + n + 1);
        let line = &bytes[at..next];
        // Most lines start with a key's letter or a list's `-`: only a
        // few first bytes need a second look.
        let aside = match line.first() {
            Some(b'#' | b'\n' | b'\r' | b' ' | b'\t') => {
                line[0] == b'#' || line.iter().all(u8::is_ascii_whitespace)
            }
            Some(b'.' | b'%') if line.starts_with(b"...") || line[0] == b'%' => return None,
            Some(b'-') if line.starts_with(b"---") => {
                if matches!(line.get(3), None | Some(b'\n' | b'\r' | b' ' | b'\t')) {
                    starts.push(run.unwrap_or(at));
                    run = None;
                    end_of_content = next;
                    at = next;
                    continue;
                }
                false
            }
            _ => false,
        };
        if aside {
            run.get_or_insert(at);
        } else if starts.is_empty() {
            // The metadata document starts without `---`: the first
            // marker would be a record's.
            return None;
        } else {
            run = None;
            end_of_content = next;
        }
        at = next;
    }
    // The header's comments belong to the metadata: its piece starts at 0.
    let (_, rest) = starts.split_first()?;
    let mut bounds: Vec<usize> = Vec::with_capacity(starts.len() + 1);
    bounds.push(0);
    bounds.extend(rest.iter().copied());
    let end = end_of_content.max(*bounds.last().unwrap_or(&0));
    bounds.push(end);
    let pieces: Vec<&str> = bounds.windows(2).map(|w| &text[w[0]..w[1]]).collect();
    let (head, records) = pieces.split_first()?;
    Some(Cut {
        head,
        records: records.to_vec(),
        footer: &text[end..],
    })
}

/// The `_path` of a record's piece read from its text, when it is written
/// as the canonical text writes a one-line path: `_path: ` and a plain
/// value, or a single-quoted one. `None` when it is written otherwise (the
/// caller parses the piece); `Some(None)` when the record has no `_path`
/// line at the left margin, the order the renderer gives such a record.
pub(crate) fn path_of(piece: &str) -> Option<Option<Cow<'_, str>>> {
    // The canonical record: `---`, then `_path` first, plain.
    if let Some(rest) = piece.strip_prefix("---\n_path: /") {
        let end = memchr::memchr(b'\n', rest.as_bytes()).unwrap_or(rest.len());
        let value = &piece["---\n_path: ".len().."---\n_path: /".len() + end];
        let after = &rest.as_bytes()[end..];
        if !after.starts_with(b"\n ")
            && !value.contains(" #")
            && !value.contains(": ")
            && !value.ends_with([' ', '\r', '\t'])
            && !value.contains('\t')
        {
            return Some(Some(Cow::Borrowed(value)));
        }
    }
    let mut lines = piece.split_inclusive('\n');
    let mut found = None;
    for line in lines.by_ref() {
        if let Some(rest) = line.strip_prefix("_path:") {
            found = Some(rest.trim_end_matches(['\n', '\r']));
            break;
        }
    }
    let Some(value) = found else {
        // No line at the margin starts with `_path:`: the parser would
        // find none either, unless the key is quoted or in flow style.
        return (!piece.contains("_path")).then_some(None);
    };
    // A value that goes on to the next line is not read here.
    if lines.next().is_some_and(|next| next.starts_with(' ')) {
        return None;
    }
    let value = value.strip_prefix(' ')?;
    if value.contains(" #") || value.ends_with(' ') {
        return None;
    }
    if let Some(quoted) = value.strip_prefix('\'') {
        let inner = quoted.strip_suffix('\'')?;
        // Inside single quotes a quote is written twice, and only so.
        if inner.replace("''", "").contains('\'') {
            return None;
        }
        return Some(Some(Cow::Owned(inner.replace("''", "'"))));
    }
    // A plain path as the canonical text writes one: it starts with `/`
    // and holds nothing a plain scalar would end or be cut at.
    if !value.starts_with('/') || value.contains(": ") || value.contains('\t') {
        return None;
    }
    Some(Some(Cow::Borrowed(value)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_take_the_comments_above_their_dashes() {
        let text = "# header\n---\nhttps: true\n# of a\n---\n_path: /a\n---\n_path: /b\n# end\n";
        let cut = cut(text).unwrap();
        assert_eq!(cut.head, "# header\n---\nhttps: true\n");
        assert_eq!(
            cut.records,
            ["# of a\n---\n_path: /a\n", "---\n_path: /b\n"]
        );
        assert_eq!(cut.footer, "# end\n");
    }

    #[test]
    fn a_document_end_or_a_directive_is_not_cut() {
        assert!(cut("---\n...\n---\n_path: /a\n").is_none());
        assert!(cut("%YAML 1.1\n---\n").is_none());
        assert!(cut("_path: /a\n").is_none());
    }

    #[test]
    fn paths_written_on_one_line_are_read() {
        assert_eq!(path_of("---\n_path: /a\n"), Some(Some("/a".into())));
        assert_eq!(path_of("---\n_path: '/a''b'\n"), Some(Some("/a'b".into())));
        assert_eq!(path_of("---\n_path: '/a'b'\n"), None);
        assert_eq!(path_of("---\nx: 1\n"), Some(None));
        assert_eq!(path_of("---\n_path: \"/a\"\n"), None);
        assert_eq!(path_of("---\n_path: /a\n  b\n"), None);
        assert_eq!(path_of("--- {_path: /a}\n"), None);
    }
}
