//! Property tests on mutated canonical files (the fuzz targets' `fmt`
//! properties, run on every `cargo test`): take canonical text, flip,
//! insert, delete and splice bytes, and check what `fmt` / `check --fix`
//! would do with the result.
//!
//! - no panic, and every finding's span is a valid slice of the text;
//! - a file with a blocking finding gets no canonical text and no fix;
//! - otherwise the canonical text is a fixed point, means what the input
//!   meant, and loses no `#` (a comment must block, never vanish);
//! - the parsed model reaches the end of the text: what follows the last
//!   node is only layout (so nothing after, say, a NUL byte is dropped);
//! - `check --fix` output is canonical.

use std::path::Path;

use proptest::prelude::*;

use crate::support::model_walk;
use urldb_core::lint::{Options, check_bytes, fix};
use urldb_core::model::normal::normal_form;

const SEEDS: &[&str] = &[
    "---\n---\n_path: /a\ncontent-type: text/html\n",
    "---\ncnames:\n- www.example.com\nhttps: true\n---\n_path: /favicon.ico\ncategories:\n- frontend\n- graphics\ncontent-length: 1406\ncontent-sha256: 0d5a5c3c6e4f1b2a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c\ncontent-type: image/x-icon\n",
    "---\n---\n_path: /a\ncontent-type: text/html\nnote: 'it''s # here'\n---\n_path: /b?x=1\ncontent-type: X-301-Redirect\nx:\n  deep:\n  - \"tab\\there\"\n  - ''\n",
    "--- {}\n---\n_path: /%7Ejoe\ncontent-type: text/plain; charset=utf-8\nn: |\n  lit\n  two\n",
];

/// Bytes that matter to YAML, weighted over random ones.
fn interesting_byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        3 => prop::sample::select(b"-:#'\"[]{},&*!|>?%@`\\ \t\n\r\0.~".to_vec()),
        1 => any::<u8>(),
    ]
}

#[derive(Debug, Clone)]
enum Mutation {
    Flip(usize, u8),
    Insert(usize, Vec<u8>),
    Delete(usize, usize),
    Truncate(usize),
    Duplicate(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), interesting_byte()).prop_map(|(i, b)| Mutation::Flip(i, b)),
        (
            any::<usize>(),
            prop::collection::vec(interesting_byte(), 1..4)
        )
            .prop_map(|(i, b)| Mutation::Insert(i, b)),
        (any::<usize>(), 1usize..8).prop_map(|(i, n)| Mutation::Delete(i, n)),
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), 1usize..40).prop_map(|(i, n)| Mutation::Duplicate(i, n)),
    ]
}

fn apply(mut bytes: Vec<u8>, mutations: &[Mutation]) -> Vec<u8> {
    for m in mutations {
        let len = bytes.len().max(1);
        match m {
            Mutation::Flip(i, b) => {
                if !bytes.is_empty() {
                    bytes[i % len] = *b;
                }
            }
            Mutation::Insert(i, b) => {
                let at = i % (bytes.len() + 1);
                bytes.splice(at..at, b.iter().copied());
            }
            Mutation::Delete(i, n) => {
                let at = i % len;
                let end = (at + n).min(bytes.len());
                bytes.drain(at.min(end)..end);
            }
            Mutation::Truncate(i) => bytes.truncate(i % len),
            Mutation::Duplicate(i, n) => {
                let at = i % len;
                let end = (at + n).min(bytes.len());
                let piece: Vec<u8> = bytes[at.min(end)..end].to_vec();
                bytes.splice(end..end, piece);
            }
        }
    }
    bytes
}

fn check_properties(bytes: &[u8]) -> Result<(), TestCaseError> {
    let options = Options::default();
    let path = Path::new("example.com.yaml");
    let checked = check_bytes(path, bytes, &options);
    let text = checked.source.text.clone();
    for f in &checked.findings {
        for span in std::iter::once(&f.span).chain(f.labels.iter().map(|(s, _)| s)) {
            prop_assert!(span.start <= span.end && span.end <= text.len(), "{span:?}");
            prop_assert!(text.is_char_boundary(span.start) && text.is_char_boundary(span.end));
        }
    }
    if checked.blocked_by.is_some() {
        prop_assert!(checked.canonical.is_none());
        prop_assert!(checked.findings.iter().all(|f| f.fix.is_none()));
        return Ok(());
    }
    let Some(canonical) = checked.canonical.clone() else {
        return Ok(());
    };
    let docs = checked.documents.clone().into_parsed().expect("documents");
    prop_assert_eq!(std::str::from_utf8(bytes).ok(), Some(text.as_str()));
    prop_assert!(
        model_walk::hashes(&docs) >= text.matches('#').count(),
        "a `#` would be lost: {text:?} -> {canonical:?}"
    );
    let tail = &text[model_walk::last_end(&docs).min(text.len())..];
    prop_assert!(
        model_walk::only_layout_and_comments(tail),
        "text after the last node would be dropped: {tail:?} in {text:?}"
    );
    let again = check_bytes(path, canonical.as_bytes(), &options);
    prop_assert_eq!(again.canonical.as_deref(), Some(canonical.as_str()));
    let docs2 = again
        .documents
        .into_parsed()
        .expect("canonical text parses");
    prop_assert_eq!(normal_form(&docs2), normal_form(&docs));

    let fixed = fix(checked, &options);
    if let Some(new) = fixed.text {
        let re = check_bytes(path, new.as_bytes(), &options);
        prop_assert!(re.blocked_by.is_none());
        prop_assert_eq!(re.canonical.as_deref(), Some(new.as_str()));
    }
    Ok(())
}

proptest! {
    #![proptest_config(crate::support::property_config(1500))]

    #[test]
    fn fmt_on_mutated_canonical_text(
        seed in prop::sample::select(SEEDS.to_vec()),
        mutations in prop::collection::vec(mutation(), 1..6),
    ) {
        let bytes = apply(seed.as_bytes().to_vec(), &mutations);
        check_properties(&bytes)?;
    }

    #[test]
    fn fmt_on_spliced_canonical_files(
        a in prop::sample::select(SEEDS.to_vec()),
        b in prop::sample::select(SEEDS.to_vec()),
        cut_a in any::<usize>(),
        cut_b in any::<usize>(),
    ) {
        let mut bytes = a.as_bytes()[..cut_a % (a.len() + 1)].to_vec();
        bytes.extend_from_slice(&b.as_bytes()[cut_b % (b.len() + 1)..]);
        check_properties(&bytes)?;
    }
}

/// Regressions the fuzzers and these properties found.
#[test]
fn a_nul_byte_blocks_the_rewrite_instead_of_ending_the_file() {
    // yaml-rust2 takes NUL for the end of the input: fmt used to write the
    // file back without everything after it. PyYAML refuses the character
    // (the reader, `parse::reader`), so the file is not read at all.
    let text = b"---\n---\n_path: /a\x00b\ncontent-type: text/html\n---\n_path: /z\ncontent-type: text/html\n";
    let checked = check_bytes(Path::new("example.com.yaml"), text, &Options::default());
    assert!(checked.canonical.is_none());
    assert_eq!(checked.blocked_by.map(|r| r.code), Some("yaml-syntax"));
    let nul = checked
        .findings
        .iter()
        .find(|f| f.rule.code == "yaml-syntax")
        .expect("yaml-syntax");
    assert_eq!(nul.span, 17..18);
    assert!(nul.message.contains("U+0000"), "{}", nul.message);
}

/// `# important` in `text` is found as a comment (`yaml-comment`, when
/// selected), and the canonical text keeps it, once.
fn assert_comment_found_and_kept(text: &str) {
    let options = Options {
        selection: urldb_core::selection::Selection::new(
            None,
            &["yaml-comment".to_string()],
            &[],
            &Default::default(),
            urldb_core::render::TextStyle::Readable,
        )
        .expect("selection"),
        ..Options::default()
    };
    let checked = check_bytes(Path::new("example.com.yaml"), text.as_bytes(), &options);
    let comment = checked
        .findings
        .iter()
        .find(|f| f.rule.code == "yaml-comment")
        .unwrap_or_else(|| panic!("no yaml-comment for {text:?}"));
    assert_eq!(&text[comment.span.clone()], "# important", "{text:?}");
    let canonical = checked.canonical.expect("comments do not block fmt");
    assert_eq!(canonical.matches("# important").count(), 1, "{canonical:?}");
}

#[test]
fn a_comment_after_a_multi_line_plain_scalar_is_found_and_kept() {
    // The scalar's span used to run to the next event, over the comment,
    // so the comment scanner skipped it and fmt dropped it.
    for text in [
        "---\n---\n_path: /a\ncontent-type: text/html\nx: a\n  b\n# important\n",
        "---\n---\n_path: /a\ncontent-type: text/html\nx: a\n  b # important\n",
        "---\n---\n_path: /a\ncontent-type: text/html\nx: [a\n  b # important\n  ]\n",
    ] {
        assert_comment_found_and_kept(text);
    }
}

#[test]
fn a_comment_after_an_empty_block_scalar_is_found_and_kept() {
    // Found by the `fmt` fuzz target: an empty `|` scalar's content
    // indentation was taken as 0, so the comment line after it became
    // part of the scalar's span and fmt dropped it.
    for text in [
        "---\n---\n_path: |\n# important\n_pat: |\n  ent-ty\n",
        "---\n---\n_path: /a\ncontent-type: text/html\nx:\n  n: |\n  # important\n",
        "---\n---\n_path: /a\ncontent-type: text/html\nx:\n- >\n# important\n",
    ] {
        assert_comment_found_and_kept(text);
    }
    // A document's root block scalar may hold a line at column 0.
    let root = "--- |\n# text, not a comment\n";
    let checked = check_bytes(
        Path::new("example.com.yaml"),
        root.as_bytes(),
        &Options::default(),
    );
    assert!(
        !checked
            .findings
            .iter()
            .any(|f| f.rule.code == "yaml-comment"),
        "{:?}",
        checked.findings
    );
}

#[test]
fn a_host_that_idna_maps_to_nothing_is_no_host() {
    // Found by the `url` fuzz target: U+034F (combining grapheme joiner)
    // is mapped to nothing by IDNA, which gave the URL `http:///`, a URL
    // canonicalize itself refuses.
    for input in [
        "\0\0\0\0\0\0.\u{34f}",
        "http://.\u{34f}/a",
        "http://\u{34f}./",
        "http://\u{34f}/a",
    ] {
        let err = urldb_core::url::canonicalize(input).expect_err(input);
        assert!(
            err.to_string().contains("has no host") || err.to_string().contains("empty host"),
            "{input:?}: {err}"
        );
    }
    assert_eq!(
        urldb_core::url::canonicalize("http://ex\u{34f}ample.com/")
            .expect("a host with content left")
            .host,
        "example.com"
    );
}

#[test]
fn catalogue_export_then_import_keeps_a_plain_extra_that_reads_as_a_string() {
    // Found by the `uri_catalogue` fuzz target (a property too strict, not
    // a product bug): `X-URLDB-PLAIN-n: 1x` is a plain scalar that YAML
    // reads as a string, so export writes it as `X-URLDB-EXTRA-n` and the
    // style changes — the value and its type do not.
    use urldb_core::model::node::{Node, ScalarStyle, Value};
    use urldb_core::model::resolve::Implicit;
    use urldb_store::interchange::{read_catalogue, write_catalogue};
    let text = "URI: https://example.org/?q=1\r\nNAME: x\r\nDATE: 02/02/2002 10:00:00\r\nX-URLDB-PLAIN-n: 1x\r\nX-URLDB-PLAIN-m: 12\r\n";
    let (entries, problems) = read_catalogue(text.as_bytes());
    assert!(problems.is_empty(), "{problems:?}");
    let e = &entries[0];
    let record = urldb_store::UrlRecord {
        file: "example.org.yaml".into(),
        line: 4,
        domain: e.url.host.clone(),
        https: true,
        path: e.url.path_and_query.clone(),
        url: e.url.to_string(),
        content_type: e.content_type.clone(),
        categories: e.categories.clone(),
        content_length: None,
        content_sha256: None,
        extras: e
            .extras
            .iter()
            .map(|(k, s)| (k.clone(), Node::new(Value::Scalar(s.clone()), 0..0)))
            .collect(),
    };
    let out = write_catalogue(&[record], "01/01/2000 00:00:00");
    assert!(out.left_out.is_empty(), "{:?}", out.left_out);
    let out = out.text;
    let (back, problems) = read_catalogue(out.as_bytes());
    assert!(problems.is_empty(), "{problems:?}");
    let typed = |entry: &urldb_store::interchange::CatalogueEntry| {
        entry
            .extras
            .iter()
            .map(|(k, s)| {
                let string = s.style != ScalarStyle::Plain || s.implicit() == Implicit::Str;
                (k.clone(), s.value.to_string(), string)
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(typed(&back[0]), typed(e));
    assert!(typed(e).contains(&("n".to_string(), "1x".to_string(), true)));
    assert!(typed(e).contains(&("m".to_string(), "12".to_string(), false)));
}

#[test]
fn a_host_that_ends_in_dots_after_idna_is_read_again() {
    // Found by the `url` fuzz target: `0..` + U+034F maps to `0..`, whose
    // dots were cut after IPv4 detection, giving the host `0` — which
    // canonicalize then reads as 0.0.0.0: not idempotent.
    let first = urldb_core::url::canonicalize("0..\u{34f}").expect("a URL");
    assert_eq!(first.to_string(), "http://0.0.0.0/");
    let again = urldb_core::url::canonicalize(&first.to_string()).expect("again");
    assert_eq!(again.to_string(), first.to_string());
}
