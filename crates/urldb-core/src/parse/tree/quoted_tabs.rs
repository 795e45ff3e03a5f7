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
//! inside a quoted scalar of it too. One space for one tab: every span
//! holds for the text as written. At most two more passes, and only for
//! a text the first pass refused this way.

use super::{Problem, Tree, parse_once};
use crate::model::node::{Document, Node, ScalarStyle, Value};
use crate::source::Span;

/// yaml-rust2's words for the tab it refuses.
const REFUSED: &str = "tab cannot be used as indentation";

/// `tree` (the first pass over `text`), or the parse that reads the tabs
/// starting quoted scalars' continuation lines as PyYAML does.
pub(crate) fn as_pyyaml_reads(text: &str, tree: Tree) -> Tree {
    let bytes = text.as_bytes();
    let stuck = tree.problems.iter().any(|p| {
        matches!(p, Problem::Syntax { span, message }
            if message.starts_with(REFUSED) && bytes.get(span.start) == Some(&b'\t'))
    });
    if !stuck {
        return tree;
    }
    let (every, _) = leading_tabs_as_spaces(text, |_| true);
    let quoted = quoted_spans(&parse_once(&every).documents);
    let (targeted, turned) = leading_tabs_as_spaces(text, |at| inside(&quoted, at));
    if turned.is_empty() {
        return tree;
    }
    let again = parse_once(&targeted);
    let quoted = quoted_spans(&again.documents);
    if turned.iter().all(|&at| inside(&quoted, at)) {
        again
    } else {
        tree
    }
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

    #[test]
    fn a_tab_indenting_a_key_is_still_refused() {
        let tree = parse_tree("a:\n\tb: c\n");
        assert!(tree.incomplete);
    }
}
