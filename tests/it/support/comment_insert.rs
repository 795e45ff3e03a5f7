//! Comments put at random legal places into a domain file, and the
//! properties `fmt` must keep for them (`docs/format.md`, "Comments"):
//! shared by `tests/it/fmt/comments.rs` (proptest) and the `comments` fuzz
//! target (`fuzz/fuzz_targets/comments.rs`).

use std::path::Path;
use urldb_core::lint::{Options, check_bytes};
use urldb_core::model::normal::normal_form;

/// Where a comment can go in `text` without changing what it means: the
/// start of a line where a node or a document starts (a comment line
/// before it), and the end of a line that ends a scalar, a key's `:`, a
/// `-` or a `---` (a comment after it). Lines inside a multi-line quoted
/// scalar are neither.
pub(super) fn legal_places(text: &str) -> (Vec<usize>, Vec<usize>) {
    let tree = urldb_core::parse::testing::general(text);
    let line_start = |at: usize| text[..at].rfind('\n').map_or(0, |i| i + 1);
    let mut starts: Vec<usize> = tree
        .documents
        .iter()
        .map(|d| line_start(d.span.start))
        .collect();
    starts.extend(tree.scalar_spans.iter().map(|s| line_start(s.start)));
    starts.push(text.len());
    let mut ends = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let body = line.strip_suffix('\n').unwrap_or(line);
        let end = offset + body.len();
        let trimmed = body.trim_start();
        // Only a node starts on a line that is also the line a scalar or
        // document starts on: a continuation line of a quoted scalar is not.
        let node_line = starts.contains(&offset);
        let ends_scalar = tree
            .scalar_spans
            .iter()
            .any(|s| s.end == end && !s.is_empty());
        let indicator = trimmed == "---" || trimmed == "-" || trimmed.ends_with(':');
        if node_line && !body.is_empty() && (ends_scalar || indicator) {
            ends.push(end);
        }
        offset += line.len();
    }
    starts.sort_unstable();
    starts.dedup();
    (starts, ends)
}

/// The marker of comment `i`: unique, and no marker holds another.
pub(super) fn marker(i: usize) -> String {
    format!("n{i:03}x")
}

/// `text` with comments: each choice is (own line?, which place, indent,
/// tail). Returns the text and the markers of the comments that went in.
pub(super) fn insert(text: &str, choices: &[(bool, usize, u8, String)]) -> (String, Vec<String>) {
    let (starts, ends) = legal_places(text);
    let mut inserts: Vec<(usize, String)> = Vec::new();
    let mut markers = Vec::new();
    for (i, (own_line, pick, indent, tail)) in choices.iter().enumerate() {
        let comment = format!("# {}{tail}", marker(i));
        if *own_line || ends.is_empty() {
            let at = starts[pick % starts.len()];
            let pad = " ".repeat(usize::from(indent % 5));
            let line = if at == text.len() && !text.is_empty() && !text.ends_with('\n') {
                format!("\n{pad}{comment}")
            } else {
                format!("{pad}{comment}\n")
            };
            inserts.push((at, line));
            markers.push(marker(i));
        } else {
            let at = ends[pick % ends.len()];
            // One comment at the end of a line at most.
            if inserts.iter().any(|(a, l)| *a == at && !l.ends_with('\n')) {
                continue;
            }
            inserts.push((at, format!(" {comment}")));
            markers.push(marker(i));
        }
    }
    // From the end, so that offsets stay valid; at one offset, in order.
    inserts.sort_by_key(|(at, _)| *at);
    let mut out = text.to_string();
    for (at, line) in inserts.iter().rev() {
        out.insert_str(*at, line);
    }
    (out, markers)
}

/// The properties of `fmt` on `with` (a text with the comments of
/// `markers` put in by [`insert`]) and `without` (the same text without
/// them).
pub(super) fn check(without: &str, with: &str, markers: &[String]) -> Result<(), String> {
    let path = Path::new("example.com.yaml");
    let options = Options::default();
    let plain = check_bytes(path, without.as_bytes(), &options);
    let Some(plain_fmt) = plain.canonical.as_deref() else {
        return Ok(()); // A file fmt refuses without comments is not ours.
    };
    let checked = check_bytes(path, with.as_bytes(), &options);
    let Some(out) = checked.canonical.as_deref() else {
        return Err(format!(
            "comments blocked fmt: {with:?}: {:?}",
            checked.findings
        ));
    };
    // Every comment, exactly once.
    for m in markers {
        if out.matches(m.as_str()).count() != 1 {
            return Err(format!("comment {m} not once: {with:?} -> {out:?}"));
        }
    }
    // The same data as fmt without comments.
    let again = check_bytes(path, out.as_bytes(), &options);
    let docs = again
        .documents
        .parsed()
        .ok_or("fmt output does not parse")?;
    let plain_docs = check_bytes(path, plain_fmt.as_bytes(), &options)
        .documents
        .into_parsed();
    if plain_docs.as_deref().map(normal_form) != Some(normal_form(docs)) {
        return Err(format!("comments changed the data: {with:?} -> {out:?}"));
    }
    // Idempotent.
    if again.canonical.as_deref() != Some(out) {
        return Err(format!(
            "fmt is not idempotent: {with:?} -> {out:?} -> {:?}",
            again.canonical
        ));
    }
    // check passes as it does without comments: nothing new to report.
    let codes = |c: &urldb_core::lint::Checked| {
        let mut v: Vec<&str> = c.findings.iter().map(|f| f.rule.code).collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let plain_again = check_bytes(path, plain_fmt.as_bytes(), &options);
    if codes(&again) != codes(&plain_again) {
        return Err(format!(
            "check differs with comments: {:?} vs {:?} on {out:?}",
            codes(&again),
            codes(&plain_again)
        ));
    }
    Ok(())
}
