//! A quoted value continued on a line that starts with a tab.
//!
//! yaml-rust2 refuses a tab in the white space that starts a line
//! continuing a quoted scalar when the line is not indented past its
//! mapping ("tab cannot be used as indentation"); PyYAML, the reference
//! tool, reads the file, and the value is the same with a space there:
//! the white space that starts a continuation line is folded away (YAML
//! 1.2, 7.3.1 and 7.3.2). `yaml-syntax` must not report what PyYAML reads
//! (`docs/format.md`), so such tabs are read as spaces: the text is
//! parsed again with every tab that starts a line read as a space, only
//! to find where its quoted scalars are, then with only the tabs inside
//! them read so, and that parse is kept when every one of those tabs is
//! inside a quoted scalar of it too. When reading every such tab as a
//! space changes the text's structure elsewhere (a block scalar's first
//! line starting `  \t`), the refused tabs are read as spaces one at a
//! time instead. One space for one tab: every span holds for the text as
//! written. Only a text the first pass refused this way is parsed again:
//! twice more, then, in a text of at most [`ONE_BY_ONE_BYTES`], at most
//! [`ONE_BY_ONE`] times. So no text costs more than three parses of it
//! (the language server reads a document on every change; a 64 MiB file
//! took about a minute when every text could cost nineteen), and a larger
//! text that needs the tabs taken one at a time is refused, saying so
//! (`docs/security.md` §8).

use super::{Problem, Tree, parse_once};
use crate::model::node::{Document, Node, ScalarStyle, Value};
use crate::source::Span;

/// yaml-rust2's words for the tab it refuses.
const REFUSED: &str = "tab cannot be used as indentation";

/// How many refused tabs [`one_by_one`] turns, a parse each: a text that
/// needs more stays refused, so no text costs more than this many parses
/// besides the first three.
const ONE_BY_ONE: usize = 16;

/// The largest text whose tabs [`one_by_one`] takes: its parses then cost
/// what three parses of a text of 1 MiB do, at most.
pub(crate) const ONE_BY_ONE_BYTES: usize = 64 * 1024;

/// `tree` (the first pass over `text`), or the parse that reads the tabs
/// starting quoted scalars' continuation lines as PyYAML does.
pub(crate) fn as_pyyaml_reads(text: &str, tree: Tree) -> Tree {
    let Some(first) = refused_tab(text, &tree) else {
        return tree;
    };
    if let Some(read) = all_at_once(text) {
        return read;
    }
    if text.len() <= ONE_BY_ONE_BYTES {
        return one_by_one(text, first).unwrap_or(tree);
    }
    too_large_to_take_one_by_one(tree)
}

/// `tree`, its refused tab saying why it was not read: the text is larger
/// than [`ONE_BY_ONE_BYTES`].
fn too_large_to_take_one_by_one(mut tree: Tree) -> Tree {
    for problem in &mut tree.problems {
        if let Problem::Syntax { message, .. } = problem
            && message.starts_with(REFUSED)
        {
            *message = format!(
                "{REFUSED}: a tab that starts a line continuing a quoted value is read as \
                 PyYAML reads it, but in a file where reading every such tab as a space changes \
                 something else, the tabs are read one at a time only in a file of at most \
                 {} KiB; write spaces there",
                ONE_BY_ONE_BYTES / 1024
            );
            break;
        }
    }
    tree
}

/// Where the first tab yaml-rust2 refused as indentation is.
fn refused_tab(text: &str, tree: &Tree) -> Option<usize> {
    tree.problems.iter().find_map(|p| match p {
        Problem::Syntax { span, message }
            if message.starts_with(REFUSED) && text.as_bytes().get(span.start) == Some(&b'\t') =>
        {
            Some(span.start)
        }
        _ => None,
    })
}

/// Every tab that starts a line read as a space, only to find where the
/// quoted scalars are; then only the tabs inside them. Three parses
/// whatever the number of tabs, but the first reads every such tab as a
/// space, which can change what follows it (a block scalar whose first
/// line starts `  \t` is then indented by three): `None` when the quoted
/// scalars so found do not hold every tab that needs it.
fn all_at_once(text: &str) -> Option<Tree> {
    let (every, _) = leading_tabs_as_spaces(text, |_| true);
    let quoted = quoted_spans(&parse_once(&every).documents);
    let (targeted, turned) = leading_tabs_as_spaces(text, |at| inside(&quoted, at));
    if turned.is_empty() {
        return None;
    }
    let again = parse_once(&targeted);
    if refused_tab(&targeted, &again).is_some() {
        return None;
    }
    inside_quotes(again, &turned)
}

/// The tabs yaml-rust2 refuses, one at a time: each read as a space and
/// the text parsed again, until none is refused. Exact (no other tab is
/// touched), and at most [`ONE_BY_ONE`] parses.
fn one_by_one(text: &str, first: usize) -> Option<Tree> {
    let mut bytes = text.as_bytes().to_vec();
    let mut turned = Vec::new();
    let mut at = first;
    for _ in 0..ONE_BY_ONE {
        bytes[at] = b' ';
        turned.push(at);
        // An ASCII tab became an ASCII space: still UTF-8.
        let now = std::str::from_utf8(&bytes).ok()?;
        let tree = parse_once(now);
        match refused_tab(now, &tree) {
            Some(next) => at = next,
            None => return inside_quotes(tree, &turned),
        }
    }
    None
}

/// `tree`, when every tab at `turned` lies inside one of its quoted
/// scalars, where PyYAML folds it away as it would a space.
fn inside_quotes(tree: Tree, turned: &[usize]) -> Option<Tree> {
    let quoted = quoted_spans(&tree.documents);
    turned.iter().all(|&at| inside(&quoted, at)).then_some(tree)
}

/// `text` with each tab in the white space that starts a line, and that
/// `turn` accepts, read as a space; and where those tabs are.
fn leading_tabs_as_spaces(text: &str, mut turn: impl FnMut(usize) -> bool) -> (String, Vec<usize>) {
    let mut out = text.as_bytes().to_vec();
    let mut turned = Vec::new();
    let mut line_start = true;
    for (at, byte) in out.iter_mut().enumerate() {
        match *byte {
            b'\n' | b'\r' => line_start = true,
            b' ' => {}
            b'\t' if line_start => {
                if turn(at) {
                    *byte = b' ';
                    turned.push(at);
                }
            }
            _ => line_start = false,
        }
    }
    // Only ASCII tabs became ASCII spaces: still UTF-8.
    let text = String::from_utf8(out)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    (text, turned)
}

/// Every quoted scalar's span (keys too), in text order.
fn quoted_spans(documents: &[Document]) -> Vec<Span> {
    fn walk(node: &Node, out: &mut Vec<Span>) {
        match &node.value {
            Value::Scalar(s) => {
                if matches!(
                    s.style,
                    ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted
                ) {
                    out.push(node.span.clone());
                }
            }
            Value::Seq(items) => items.iter().for_each(|n| walk(n, out)),
            Value::Map(entries) => {
                for e in entries {
                    walk(&e.key, out);
                    walk(&e.value, out);
                }
            }
        }
    }
    let mut out = Vec::new();
    for doc in documents {
        if let Some(root) = &doc.root {
            walk(root, &mut out);
        }
    }
    out.sort_by_key(|s| s.start);
    out
}

/// `at` lies inside one of `spans` (sorted, disjoint), between its quotes.
fn inside(spans: &[Span], at: usize) -> bool {
    let after = spans.partition_point(|s| s.start < at);
    after > 0 && at + 1 < spans[after - 1].end
}

#[cfg(test)]
mod tests {
    use super::super::parse_tree;

    #[test]
    fn a_tab_starting_a_quoted_continuation_line_is_folded_away() {
        for (text, want) in [
            ("a: \"b\n\tc\"\n", "b c"),
            ("a: 'b\n\tc'\n", "b c"),
            ("a: \"b\n\t\tc\"\n", "b c"),
            ("a: \"b\n\n\tc\"\n", "b\nc"),
        ] {
            let tree = parse_tree(text);
            assert!(tree.problems.is_empty(), "{text:?}: {:?}", tree.problems);
            let root = tree.documents[0].root.as_ref().expect("a root");
            let value = root.as_map().expect("a mapping")[0]
                .value
                .as_scalar()
                .expect("a scalar")
                .value
                .to_string();
            assert_eq!(value, want, "{text:?}");
        }
    }

    /// Reading every tab that starts a line as a space would indent the
    /// block scalar by three and end it a line early: the tabs are then
    /// taken one at a time, and the block scalar keeps its tab.
    #[test]
    fn a_block_scalar_starting_with_a_tab_does_not_stop_the_fold() {
        let text = "note: \"a long\n\t  value\"\ntext: |\n  \tline one\n  line two\n";
        let tree = parse_tree(text);
        assert!(tree.problems.is_empty(), "{:?}", tree.problems);
        let root = tree.documents[0].root.as_ref().expect("a root");
        let values: Vec<String> = root
            .as_map()
            .expect("a mapping")
            .iter()
            .map(|e| e.value.as_scalar().expect("a scalar").value.to_string())
            .collect();
        assert_eq!(values, ["a long value", "\tline one\nline two\n"]);
    }

    /// One parse per refused tab, at most `ONE_BY_ONE`: a text that needs
    /// more is refused as the first pass refused it, whatever its size
    /// (`docs/format.md` says urldb refuses more there).
    #[test]
    fn tabs_one_at_a_time_stop_at_the_limit() {
        let text = |tabs: usize| {
            format!(
                "note: \"x\n{}  c\"\ntext: |\n  \tz\n  y\n",
                "\tb\n".repeat(tabs)
            )
        };
        let read = parse_tree(&text(super::ONE_BY_ONE));
        assert!(read.problems.is_empty(), "{:?}", read.problems);
        let refused = parse_tree(&text(super::ONE_BY_ONE + 1));
        assert!(refused.incomplete, "{:?}", refused.problems);
    }

    /// Past that limit, a text whose tabs all lie in quoted values is
    /// still read, by the pass that turns them all at once.
    #[test]
    fn many_tabs_in_quoted_values_are_read_at_once() {
        let tabs = 4 * super::ONE_BY_ONE;
        let text = format!("note: \"x\n{}  c\"\n", "\tb\n".repeat(tabs));
        let tree = parse_tree(&text);
        assert!(tree.problems.is_empty(), "{:?}", tree.problems);
        let root = tree.documents[0].root.as_ref().expect("a root");
        let value = root.as_map().expect("a mapping")[0]
            .value
            .as_scalar()
            .expect("a scalar")
            .value
            .to_string();
        assert_eq!(value, format!("x{} c", " b".repeat(tabs)));
    }

    /// Past [`super::ONE_BY_ONE_BYTES`], what needs the tabs taken one at
    /// a time is refused, and the finding says why.
    #[test]
    fn a_large_text_is_not_taken_one_by_one() {
        let text = |fill: usize| {
            format!(
                "fill: |\n{}note: \"x\n\tb\n  c\"\ntext: |\n  \tz\n  y\n",
                "  line\n".repeat(fill)
            )
        };
        let small = text(10);
        assert!(parse_tree(&small).problems.is_empty());
        let large = text(super::ONE_BY_ONE_BYTES / 7 + 1);
        let tree = parse_tree(&large);
        assert!(tree.incomplete);
        assert!(
            tree.problems.iter().any(|p| matches!(p,
                super::Problem::Syntax { message, .. } if message.contains("at most 64 KiB"))),
            "{:?}",
            tree.problems
        );
    }

    #[test]
    fn a_tab_indenting_a_key_is_still_refused() {
        let tree = parse_tree("a:\n\tb: c\n");
        assert!(tree.incomplete);
    }
}
