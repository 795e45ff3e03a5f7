//! A large file that is not canonical is checked a part at a time
//! (`crates/urldb-core/src/lint/streamed.rs`): the same findings, the same
//! canonical text and the same fixes as checking it whole, with what
//! crosses parts in it (records out of order, the first line that differs
//! from the canonical text, a duplicated `_path`, metadata findings).

use std::path::Path;

use urldb_core::lint::{
    Checked, Documents, Knobs, Options, check_bytes, check_file, check_findings,
};

/// Pieces of 4 KiB, so parts of 1 KiB: a few records each, and records
/// swapped with their neighbour mostly within one part.
const PIECE: usize = 4096;

fn whole() -> Options {
    Options {
        knobs: Knobs {
            general_path_only: true,
            ..Default::default()
        },
        ..Options::default()
    }
}

/// What can go wrong with a record, by its number.
#[derive(Clone, Copy)]
enum Variant {
    /// Keys reversed, values quoted, categories unsorted, a content type
    /// in capitals (a fix that sets a value), a `_path` twice, neighbours
    /// swapped, a comment on top and metadata keys out of order.
    Everything,
    /// Only keys reversed: every record has a finding, records in order.
    ReversedKeys,
    /// The last record written first: out of order across parts.
    LastFirst,
    /// A record with a key that is not a string: no rewrite.
    Blocked,
}

fn file(records: usize, variant: Variant) -> String {
    let mut text = String::from("# kept by hand\n---\nhttps: true\ncnames:\n- www.example.com\n");
    let mut order: Vec<usize> = (0..records).collect();
    match variant {
        Variant::Everything => {
            for i in (3..records - 1).step_by(7) {
                order.swap(i, i + 1);
            }
        }
        Variant::LastFirst => order.rotate_right(1),
        Variant::ReversedKeys | Variant::Blocked => {}
    }
    for (n, &i) in order.iter().enumerate() {
        let every = matches!(variant, Variant::Everything);
        let mut fields = vec![format!(
            "_path: /p{:05}.html\n",
            i - usize::from(every && i % 97 == 1)
        )];
        if i % 13 == 0 {
            let items = if every {
                "- news\n- blog\n"
            } else {
                "- blog\n- news\n"
            };
            fields.push(format!("categories:\n{items}"));
        }
        fields.push(match i {
            _ if every && i % 5 == 0 => "content-type: \"text/html\"\n".to_string(),
            _ if every && i % 11 == 0 => "content-type: text/HTML\n".to_string(),
            _ => "content-type: text/html\n".to_string(),
        });
        if matches!(variant, Variant::Blocked) && n == records / 2 {
            fields.push("? [a]\n: b\n".to_string());
        }
        if every && i % 2 == 0 || matches!(variant, Variant::ReversedKeys) {
            fields.reverse();
        }
        text.push_str("---\n");
        fields.iter().for_each(|f| text.push_str(f));
    }
    text
}

/// Everything a run reports of a check.
fn seen(checked: &Checked) -> String {
    format!(
        "{:#?}\n{:?}\n{:?}\n{:?}",
        checked.findings, checked.suppressed, checked.blocked_by, checked.canonical
    )
}

#[test]
fn files_not_canonical_checked_in_parts_give_the_same_results() {
    let path = Path::new("example.com.yaml");
    let parts = Options::default().in_pieces_of(Some(PIECE));
    for (variant, in_parts) in [
        (Variant::Everything, true),
        (Variant::ReversedKeys, true),
        (Variant::LastFirst, false),
        (Variant::Blocked, true),
    ] {
        let text = file(600, variant);
        let raw = text.as_bytes();
        let checked = check_file(path, raw, &parts);
        let alone = check_bytes(path, raw, &whole());
        assert_eq!(seen(&checked), seen(&alone), "check of {text}");
        // Checked in parts where the records allow it (no tree kept), and
        // never silently: the file has findings of every kind it holds.
        assert_eq!(
            matches!(checked.documents, Documents::InParts),
            in_parts,
            "{text}"
        );
        assert!(!checked.findings.is_empty());
        // An editor's diagnostics: the same, without fixes.
        let mut diagnostics = check_findings(path, raw, &parts);
        let mut expected = alone;
        expected.findings.iter_mut().for_each(|f| f.fix = None);
        diagnostics.findings.iter_mut().for_each(|f| f.fix = None);
        assert_eq!(seen(&diagnostics), seen(&expected));
        // `check --fix` checks a file kept without its tree again whole.
        let fixed = urldb_core::lint::fix(checked, &parts);
        let fixed_alone = urldb_core::lint::fix(check_bytes(path, raw, &whole()), &whole());
        assert_eq!(fixed.text, fixed_alone.text);
        assert_eq!(fixed.fixed, fixed_alone.fixed);
    }
    // Each kind of finding that crosses parts is there.
    let checked = check_file(path, file(600, Variant::Everything).as_bytes(), &parts);
    let codes: Vec<&str> = checked.findings.iter().map(|f| f.rule.code).collect();
    for code in [
        "unsorted-records",
        "unsorted-keys",
        "unsorted-categories",
        "not-canonical",
        "duplicate-path",
        "content-type-case",
    ] {
        assert!(codes.contains(&code), "{code} missing: {codes:?}");
    }
}
