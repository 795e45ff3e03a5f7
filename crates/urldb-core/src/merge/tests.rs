use super::*;

fn run(base: &str, ours: &str, theirs: &str) -> Merged {
    merge(base, ours, theirs, &MergeOptions::default()).expect("mergeable")
}

const BASE: &str = "---\n---\n_path: /a\n---\n_path: /c\n";

#[test]
fn neighbouring_additions_are_both_kept() {
    let ours = "---\n---\n_path: /a\n---\n_path: /b\n---\n_path: /c\n";
    let theirs = "---\n---\n_path: /a\n---\n_path: /bb\n---\n_path: /c\n";
    let merged = run(BASE, ours, theirs);
    assert_eq!(
        merged.text,
        "---\n---\n_path: /a\n---\n_path: /b\n---\n_path: /bb\n---\n_path: /c\n"
    );
    assert!(merged.conflicts.is_empty());
    assert_eq!(run(BASE, theirs, ours).text, merged.text);
}

#[test]
fn records_are_matched_by_the_url_equivalence() {
    let base = "---\n---\n_path: /a~\n";
    let ours = "---\n---\n_path: /a%7E\n";
    let theirs = "---\n---\n_path: /a~\ncontent-type: text/html\n";
    let merged = run(base, ours, theirs);
    assert_eq!(
        merged.text,
        "---\n---\n_path: /a%7E\ncontent-type: text/html\n"
    );
    assert!(merged.conflicts.is_empty());
}

#[test]
fn a_key_changed_on_both_sides_is_a_block_around_that_key() {
    let base = "---\n---\n_path: /a\ncontent-length: 1\ncontent-type: text/plain\n";
    let ours = "---\n---\n_path: /a\ncontent-length: 2\ncontent-type: text/html\n";
    let theirs = "---\n---\n_path: /a\ncontent-length: 1\ncontent-type: text/csv\n";
    let merged = run(base, ours, theirs);
    assert_eq!(
        merged.conflicts,
        [Conflict {
            record: Some("/a".into()),
            part: Part::Key("content-type".into())
        }]
    );
    assert_eq!(
        merged.text,
        "---\n---\n_path: /a\ncontent-length: 2\n\
         <<<<<<< ours (record /a, key content-type)\ncontent-type: text/html\n\
         ||||||| base\ncontent-type: text/plain\n=======\ncontent-type: text/csv\n\
         >>>>>>> theirs\n"
    );
    assert_eq!(conflict_marker_line(&merged.text), Some(5));
}

#[test]
fn categories_and_cnames_merge_as_sets() {
    let base = "---\ncnames:\n- a.org\n---\n_path: /a\ncategories:\n- x\n- y\n";
    let ours = "---\ncnames:\n- a.org\n- b.org\n---\n_path: /a\ncategories:\n- w\n- x\n";
    let theirs = "---\ncnames:\n- c.org\n---\n_path: /a\ncategories:\n- x\n- y\n- z\n";
    let merged = run(base, ours, theirs);
    assert!(merged.conflicts.is_empty(), "{:?}", merged.conflicts);
    assert_eq!(
        merged.text,
        "---\ncnames:\n- b.org\n- c.org\n---\n_path: /a\ncategories:\n- w\n- x\n- z\n"
    );
}

#[test]
fn removed_on_one_side_and_changed_on_the_other_is_a_conflict() {
    let ours = "---\n---\n_path: /c\n";
    let theirs = "---\n---\n_path: /a\ncontent-length: 3\n---\n_path: /c\n";
    let merged = run(BASE, ours, theirs);
    assert_eq!(
        merged.conflicts,
        [Conflict {
            record: Some("/a".into()),
            part: Part::Record
        }]
    );
    assert!(
        merged
            .text
            .starts_with("---\n<<<<<<< ours (record /a)\n||||||| base\n---\n_path: /a\n=======\n")
    );
}

#[test]
fn comments_stay_with_their_records() {
    let base = "# head\n---\n# of a\n---\n_path: /a\n# end\n";
    let ours = "# head\n---\n# of a\n---\n_path: /a\n# of b\n---\n_path: /b\n# end\n";
    let theirs = "# head\n---\n# of a, changed\n---\n_path: /a\n# end\n";
    let merged = run(base, ours, theirs);
    assert_eq!(
        merged.text,
        "# head\n---\n# of a, changed\n---\n_path: /a\n# of b\n---\n_path: /b\n# end\n"
    );
}

#[test]
fn what_is_no_domain_file_or_not_canonical_is_refused() {
    let o = MergeOptions::default();
    assert_eq!(
        merge(BASE, "---\n---\n_path: /a\nb: [1\n", BASE, &o),
        Err(Unmergeable::Unreadable(Side::Ours))
    );
    assert_eq!(
        merge(BASE, "---\n---\n{_path: /a}\n", BASE, &o),
        Err(Unmergeable::NotCanonical)
    );
    assert_eq!(
        merge("<<<<<<< a\n", BASE, BASE, &o),
        Err(Unmergeable::Markers(Side::Base, 1))
    );
}

#[test]
fn records_one_url_through_a_metadata_change_are_a_conflict() {
    let base = "---\n---\n_path: /a\n";
    let ours = "---\ncase-sensitive-paths: false\n---\n_path: /a\n";
    let theirs = "---\n---\n_path: /A\n---\n_path: /a\n";
    let merged = run(base, ours, theirs);
    assert_eq!(
        merged.conflicts,
        [Conflict {
            record: Some("/a".into()),
            part: Part::Record
        }]
    );
    assert!(
        merged
            .text
            .starts_with("---\ncase-sensitive-paths: false\n<<<<<<< ours")
    );
}

#[test]
fn one_url_added_on_both_sides_in_two_spellings_is_one_record() {
    let base = "---\n";
    let ours = "---\n---\n_path: /a~\n";
    let theirs = "---\n---\n_path: /a%7E\n";
    let merged = run(base, ours, theirs);
    assert!(merged.conflicts.is_empty());
    assert_eq!(merged.text, ours);
    let differing = "---\n---\n_path: /a%7E\ncontent-length: 1\n";
    assert_eq!(run(base, ours, differing).conflicts.len(), 1);
}

#[test]
fn crlf_and_the_pyyaml_style_are_kept() {
    let base = "---\r\n---\r\n_path: /a\r\n";
    let ours = "---\r\n---\r\n_path: /a\r\n---\r\n_path: /b\r\n";
    let theirs = "---\r\n---\r\n_path: /a\r\nx-note: \"caf\\xE9\"\r\n";
    let options = MergeOptions {
        style: crate::render::TextStyle::Pyyaml,
        ..Default::default()
    };
    let merged = merge(base, ours, theirs, &options).expect("mergeable");
    assert_eq!(
        merged.text,
        "---\r\n---\r\n_path: /a\r\nx-note: \"caf\\xE9\"\r\n---\r\n_path: /b\r\n"
    );
}
