//! `check --add-suppressions`: a directive for every finding `--fix`
//! cannot repair, written through the renderer.

use std::path::Path;

use crate::model::node::Document;
use crate::rules::diagnostic::Finding;
use crate::rules::files::unused_suppression;

use crate::suppress::parse_comment;

/// What `check --add-suppressions` made of one file.
#[derive(Debug, Default)]
pub struct Added {
    /// The new text, when it differs.
    pub text: Option<String>,
    /// How many findings the new suppressions excuse.
    pub suppressed: usize,
}

/// `check --add-suppressions` on one file: a suppression for every
/// finding that `check --fix` cannot repair (`cross_file`: the file's
/// cross-file findings, found elsewhere). Each goes before the record
/// that holds the finding, anything else in an `ignore-file` directive at
/// the top; the text is written by the renderer, so `fmt` leaves it as it
/// is. A file that cannot be rewritten gets the `ignore-file` line only,
/// put before its first byte (after a byte order mark).
pub fn add_suppressions(
    path: &Path,
    raw: &[u8],
    options: &super::Options,
    cross_file: &[Finding],
) -> Added {
    let checked = super::check_bytes(path, raw, options);
    // What a directive is written for: what `check --fix` cannot repair,
    // and no gate finding, which no directive excuses.
    let wanted =
        |f: &&Finding| !f.fixable() && !f.gate && f.rule.code != unused_suppression::RULE.code;
    let todo: Vec<(usize, &'static str)> = checked
        .findings
        .iter()
        .chain(cross_file)
        .filter(wanted)
        .map(|f| (f.span.start, f.rule.code))
        .collect();
    // Text that is not UTF-8 is never rewritten: its bytes would change.
    if todo.is_empty() || std::str::from_utf8(raw).is_err() {
        return Added::default();
    }
    let (Some(mut docs), None) = (
        checked.documents.parsed().map(<[_]>::to_vec),
        checked.blocked_by,
    ) else {
        return Added {
            text: Some(prepended(&checked.source.text, &todo)),
            suppressed: todo.len(),
        };
    };
    let mut file_codes: Vec<&'static str> = Vec::new();
    for &(at, code) in &todo {
        let doc = docs
            .iter()
            .rposition(|d| d.span.start <= at && at <= d.span.end);
        match doc {
            Some(d) => {
                let start = docs[d].span.start;
                add_code(&mut docs[d].comments.before, code, false, start);
            }
            None => file_codes.push(code),
        }
    }
    let render = |docs: &[Document]| {
        crate::render::render(
            docs,
            &super::render_options(&checked.source.text, docs, options),
        )
    };
    let mut text = render(&docs);
    // What a record's directive could not reach (a finding the renderer
    // moves out of its record) goes to the file's directive: once more.
    for _ in 0..2 {
        // A file checked alone finds no cross-file finding: what is left
        // is its own.
        let again = super::check_bytes(path, text.as_bytes(), options);
        let left: Vec<&'static str> = again
            .findings
            .iter()
            .filter(wanted)
            .map(|f| f.rule.code)
            .collect();
        if left.is_empty() && file_codes.is_empty() {
            break;
        }
        file_codes.extend(left);
        if let Some(first) = docs.first_mut() {
            let at = first.span.start;
            for code in file_codes.drain(..) {
                add_code(&mut first.comments.before, code, true, at);
            }
        }
        text = render(&docs);
    }
    Added {
        suppressed: todo.len(),
        text: (text != checked.source.text).then_some(text),
    }
}

/// Add `code` to the directive (`ignore`, or `ignore-file` when `file`)
/// among `comments`, or a new one after them.
fn add_code(comments: &mut Vec<crate::model::node::Comment>, code: &str, file: bool, at: usize) {
    let word = if file { "ignore-file" } else { "ignore" };
    for comment in comments.iter_mut() {
        let Some((0, Ok((is_file, codes)))) = parse_comment(&comment.text) else {
            continue;
        };
        if is_file != file {
            continue;
        }
        let mut names: Vec<String> = codes.into_iter().map(|(c, _)| c).collect();
        if !names.iter().any(|c| c == code) {
            names.push(code.to_string());
        }
        comment.text = format!("# urldb: {word}[{}]", names.join(", "));
        return;
    }
    let new = crate::model::node::Comment {
        text: format!("# urldb: {word}[{code}]"),
        span: at..at,
    };
    if file {
        comments.insert(0, new);
    } else {
        comments.push(new);
    }
}

/// `text` with an `ignore-file` line for `todo`'s codes before it.
fn prepended(text: &str, todo: &[(usize, &'static str)]) -> String {
    let mut codes: Vec<&str> = todo.iter().map(|(_, c)| *c).collect();
    codes.sort_unstable();
    codes.dedup();
    let newline = super::newline_of(text);
    let bom = text.len() - crate::parse::without_bom(text).len();
    format!(
        "{}# urldb: ignore-file[{}]{newline}{}",
        &text[..bom],
        codes.join(", "),
        &text[bom..]
    )
}
