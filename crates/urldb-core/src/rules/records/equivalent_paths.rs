//! ## What it checks
//! Two records whose `_path`s are written differently but name the same
//! URL: equal once every percent-escape is decoded except `%2F`
//! (`/%7ejoe` = `/~joe`, `/a%3Ab` = `/a:b`, `%3c` = `%3C`, but `/a%2Fb` is
//! not `/a/b`), as `ls --match` and robots.txt compare them
//! (`docs/urls.md`, "Path equivalence"), and, on a domain with
//! `case-sensitive-paths: false`, once the paths are lowercased.
//!
//! ## Why it matters
//! They are one URL listed twice, as `duplicate-path` would say if they
//! were spelled alike: `verify` fetches it twice and the two records can
//! disagree. The spellings hide the duplicate from a reader and from
//! sorting.
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! _path: /%7Ejoe
//! content-type: text/html
//! ---
//! _path: /~joe
//! content-type: text/html
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! ---
//! _path: /~joe
//! content-type: text/html
//! ```
//!
//! ## Fix
//! None: the records may differ, and only a person knows which one to keep.

use foldhash::{HashMap, HashSet};

use crate::model::path::equivalence_key;
use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "equivalent-paths",
    summary: "two records' paths are different spellings of one URL",
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
/// A path of ASCII holding neither `%` nor an uppercase letter is its own
/// equivalence key: only the others are looked at ([`Paths::marked`]).
pub(crate) static CLEAN: &[Clean] = &[Clean::Paths {
    looks_at: Some(|b| b == b'%' || b.is_ascii_uppercase() || !b.is_ascii()),
    find: across,
}];

/// [`find`], unless the paths, in strictly ascending order, are shown
/// distinct URLs without a table of every path ([`distinct`]).
fn across(paths: &Paths, out: &mut Vec<Finding>) {
    let case_sensitive = paths.case_sensitive;
    let distinct = paths.strictly_ascending
        && match paths.marked {
            Some(marked) => distinct(paths.all, marked.iter().copied(), case_sensitive),
            None => distinct(paths.all, 0..paths.all.len(), case_sensitive),
        };
    if !distinct {
        find(paths.all, case_sensitive, out);
    }
}

/// Case counts and no path holds an escape: every path is its own key, and
/// equal keys are equal texts, which are `duplicate-path`'s finding.
fn without_escapes(paths: &[(&str, &Span)], case_sensitive: bool) -> bool {
    case_sensitive
        && paths
            .iter()
            .all(|(p, _)| memchr::memchr(b'%', p.as_bytes()).is_none())
}

/// No two of these paths, all different texts in ascending order, name one
/// URL: `false` when unsure. `candidates` are the places of the paths that
/// may not be their own equivalence key (every path, or those the proof
/// marked); of them, those that are not are looked up, by their key.
fn distinct(
    paths: &[(&str, &Span)],
    candidates: impl Iterator<Item = usize>,
    case_sensitive: bool,
) -> bool {
    let mut keys = Vec::new();
    for i in candidates {
        let Some(&(path, _)) = paths.get(i) else {
            return false;
        };
        if is_own_key(path, case_sensitive) {
            continue;
        }
        let key = equivalence_key(path, case_sensitive);
        match paths.binary_search_by(|(p, _)| (*p).cmp(&*key)) {
            Ok(i) if paths[i].0 != path => return false,
            _ => keys.push(key),
        }
    }
    keys.sort_unstable();
    keys.windows(2).all(|w| w[0] != w[1])
}

/// A path without an escape is its own key where case counts, or where it
/// has no uppercase letter. Of a domain whose case counts, most marked
/// paths are marked for an uppercase letter only, and are their own key.
fn is_own_key(path: &str, case_sensitive: bool) -> bool {
    memchr::memchr(b'%', path.as_bytes()).is_none()
        && (case_sensitive
            || path
                .bytes()
                .all(|b| b.is_ascii() && !b.is_ascii_uppercase()))
}

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    let case_sensitive = domain::case_sensitive_paths(ctx.documents);
    // The common file has nothing to find (see `find`): nothing gathered.
    if case_sensitive && domain::paths(ctx.documents).all(|(_, _, p)| !p.contains('%')) {
        return;
    }
    let paths: Vec<(&str, &Span)> = domain::paths(ctx.documents)
        .map(|(_, entry, path)| (path, &entry.value.span))
        .collect();
    find(&paths, case_sensitive, out);
}

/// The findings for `paths` (each record's `_path` and the span of its
/// value, in file order) on a domain whose paths are `case_sensitive` or
/// not: also run on a large file's paths gathered from its pieces
/// (`lint::pieces`).
pub(crate) fn find(paths: &[(&str, &Span)], case_sensitive: bool, out: &mut Vec<Finding>) {
    if without_escapes(paths, case_sensitive) {
        return;
    }
    let mut seen_text: HashSet<&str> = HashSet::default();
    let mut first_by_key: HashMap<std::borrow::Cow<str>, (&str, &Span)> = HashMap::default();
    for &(path, span) in paths {
        // The same text again is `duplicate-path`'s finding.
        if !seen_text.insert(path) {
            continue;
        }
        let key = equivalence_key(path, case_sensitive);
        let Some(&(first, first_span)) = first_by_key.get(&key) else {
            first_by_key.insert(key, (path, span));
            continue;
        };
        let why = if equivalence_key(path, true) == equivalence_key(first, true) {
            "percent-escapes (except `%2F`, which is not `/`) and the case of their hex digits do not change a URL"
        } else {
            "this domain has `case-sensitive-paths: false`, so letter case does not change a URL"
        };
        out.push(
            Finding::new(
                &RULE,
                span.clone(),
                format!("`{path}` is the same URL as `{first}`"),
            )
            .label(first_span.clone(), "first defined here")
            .help(format!("{why}; keep one of the two records")),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::CLEAN;
    use crate::model::path::equivalence_key;
    use crate::rules::clean::Clean;
    use crate::rules::test_support::{codes, count, finding, record};

    /// A path holding none of the bytes this rule looks at is its own
    /// equivalence key, on either kind of domain: the proof may leave it
    /// unread (`Paths::marked`).
    #[test]
    fn a_path_without_the_bytes_looked_at_is_its_own_key() {
        let Some(Clean::Paths {
            looks_at: Some(looks_at),
            ..
        }) = CLEAN.first()
        else {
            panic!("equivalent-paths looks at bytes of paths");
        };
        let alphabet: Vec<u8> = (0..=u8::MAX).filter(|b| !looks_at(*b)).collect();
        let mut seed = 0x0e9_u64;
        for _ in 0..50_000 {
            let mut bytes = vec![b'/'];
            for _ in 0..1 + (seed % 12) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                bytes.push(alphabet[(seed % alphabet.len() as u64) as usize]);
            }
            let path = String::from_utf8(bytes).expect("ASCII");
            for case_sensitive in [true, false] {
                assert_eq!(equivalence_key(&path, case_sensitive), path, "{path:?}");
            }
        }
    }

    fn two(a: &str, b: &str) -> String {
        record(&format!(
            "_path: {a}\ncontent-type: text/html\n---\n_path: {b}\ncontent-type: text/html\n"
        ))
    }

    #[test]
    fn flags_the_data_txt_draft_equivalences() {
        for (a, b) in [
            ("/%7Ejoe/index.html", "/~joe/index.html"),
            ("/%7ejoe", "/~joe"),
            ("/a%3cd.html", "/a%3Cd.html"),
            ("/%41", "/A"),
            ("/a%3Ab", "/a:b"),
            ("/a%zz", "/a%25zz"),
        ] {
            assert_eq!(count(&two(a, b), "equivalent-paths"), 1, "{a} = {b}");
        }
    }

    #[test]
    fn accepts_encoded_slash() {
        assert_eq!(
            count(&two("/a%2Fb.html", "/a/b.html"), "equivalent-paths"),
            0
        );
        assert_eq!(
            count(&two("/a%2fb.html", "/a/b.html"), "equivalent-paths"),
            0
        );
    }

    #[test]
    fn case_matters_by_default() {
        assert_eq!(count(&two("/A", "/a"), "equivalent-paths"), 0);
    }

    #[test]
    fn case_does_not_matter_on_case_insensitive_domains() {
        let text = format!("---\ncase-sensitive-paths: false{}", &two("/A", "/a")[3..]);
        assert_eq!(count(&text, "equivalent-paths"), 1);
    }

    #[test]
    fn query_case_always_matters() {
        let text = format!(
            "---\ncase-sensitive-paths: false{}",
            &two("/a?Q=1", "/a?q=1")[3..]
        );
        assert_eq!(count(&text, "equivalent-paths"), 0);
    }

    #[test]
    fn leaves_identical_text_to_duplicate_path() {
        let text = format!(
            "{}---\n_path: /~joe\ncontent-type: text/html\n",
            two("/%7Ejoe", "/~joe")
        );
        assert_eq!(count(&text, "equivalent-paths"), 1);
        assert!(codes("example.com.yaml", &text).contains(&"duplicate-path"));
        assert_eq!(count(&two("/a", "/a"), "equivalent-paths"), 0);
    }

    #[test]
    fn labels_the_first_spelling() {
        let text = two("/%7Ejoe", "/~joe");
        let finding = finding(&text, "equivalent-paths");
        assert_eq!(&text[finding.span.clone()], "/~joe");
        assert_eq!(&text[finding.labels[0].0.clone()], "/%7Ejoe");
    }
}
