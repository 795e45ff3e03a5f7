//! ## What it checks
//! Two records of one file with the same `_path` text.
//!
//! ## Why it matters
//! A URL is listed once. With two records, `verify` checks it twice, `ls`
//! prints it twice, and the records may disagree (two content types, two
//! digests) so nobody knows which one is the truth. It usually comes from
//! two people adding the same URL on two branches.
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! _path: /a
//! content-type: text/html
//! ---
//! _path: /a
//! content-type: text/plain
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! ---
//! _path: /a
//! content-type: text/html
//! ```
//!
//! ## Fix
//! None: the records may differ, and only a person knows which one is
//! right. Merge them by hand.

use foldhash::HashMap;

use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "duplicate-path",
    summary: "two records have the same `_path`",
    severity: Severity::Error,
    fix: FixKind::None,
    blocks_rewrite: false,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::No,
    check: Check::File {
        check,
        clean: CleanText(CLEAN),
    },
};

/// Clean text: answered on the paths of the whole file (`rules::clean`).
pub(crate) static CLEAN: &[Clean] = &[Clean::Paths {
    looks_at: None,
    find: across,
}];

/// [`find`], unless the paths are known to be in strictly ascending order
/// (then no two are the same).
fn across(paths: &Paths, out: &mut Vec<Finding>) {
    if !paths.strictly_ascending {
        find(paths.all, out);
    }
}

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    let paths: Vec<(&str, &Span)> = domain::paths(ctx.documents)
        .map(|(_, entry, path)| (path, &entry.value.span))
        .collect();
    find(&paths, out);
}

/// The findings for `paths` (each record's `_path` and the span of its
/// value, in file order): also run on a large file's paths gathered from
/// its pieces (`lint::pieces`).
pub(crate) fn find(paths: &[(&str, &Span)], out: &mut Vec<Finding>) {
    let mut first: HashMap<&str, &Span> = HashMap::default();
    for &(path, span) in paths {
        let Some(earlier) = first.get(path) else {
            first.insert(path, span);
            continue;
        };
        out.push(
            Finding::new(&RULE, span.clone(), format!("`{path}` is listed twice"))
                .label((*earlier).clone(), "first defined here")
                .help("keep one record for each URL: merge the two by hand"),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{codes, count, finding};

    const TWICE: &str =
        "---\n---\n_path: /a\ncontent-type: text/html\n---\n_path: /a\ncontent-type: text/plain\n";

    #[test]
    fn flags_the_same_path_twice() {
        assert_eq!(count(TWICE, "duplicate-path"), 1);
    }

    #[test]
    fn flags_every_later_copy() {
        let text = format!("{TWICE}---\n_path: /a\ncontent-type: text/css\n");
        assert_eq!(count(&text, "duplicate-path"), 2);
    }

    #[test]
    fn labels_the_first_record() {
        let finding = finding(TWICE, "duplicate-path");
        assert_eq!(&TWICE[finding.span.clone()], "/a");
        assert!(finding.span.start > TWICE.find("/a").unwrap_or(0));
        assert_eq!(finding.labels.len(), 1);
        assert_eq!(
            finding.labels[0].0.start,
            TWICE.find("/a").unwrap_or(usize::MAX)
        );
        assert_eq!(finding.labels[0].1, "first defined here");
    }

    #[test]
    fn same_text_however_quoted() {
        let text = "---\n---\n_path: /a\ncontent-type: text/html\n---\n_path: '/a'\ncontent-type: text/html\n";
        assert!(codes("example.com.yaml", text).contains(&"duplicate-path"));
    }

    #[test]
    fn accepts_distinct_paths() {
        let text = "---\n---\n_path: /a\ncontent-type: text/html\n---\n_path: /b\ncontent-type: text/html\n";
        assert!(!codes("example.com.yaml", text).contains(&"duplicate-path"));
    }

    #[test]
    fn equivalent_paths_are_not_duplicates() {
        let text = "---\n---\n_path: /%7Ejoe\ncontent-type: text/html\n---\n_path: /~joe\ncontent-type: text/html\n";
        assert!(!codes("example.com.yaml", text).contains(&"duplicate-path"));
    }
}
