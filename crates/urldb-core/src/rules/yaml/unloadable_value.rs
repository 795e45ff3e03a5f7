//! ## What it checks
//! A plain (unquoted) value that PyYAML's safe loader cannot build, at any
//! depth: `=` (YAML 1.1's value key), `<<` (the merge key) as a value, an
//! integer with no digits once its `_` are dropped (`0b_`, `0x_`), and a
//! timestamp that is no date or time (`2001-02-30`, `2001-13-01`,
//! `2001-01-01 24:00:00`, an offset of 24 hours or more).
//!
//! ## Why it matters
//! The database's contract is that PyYAML reads it: the reference tool and
//! many scripts load files with `yaml.safe_load_all`. YAML 1.1 types these
//! texts by their look (an integer, a date), and then the loader fails to
//! build the value and raises: not for that value, for the whole file.
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! _path: /a
//! content-type: text/html
//! mark: =
//! released: 2001-02-30
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! ---
//! _path: /a
//! content-type: text/html
//! mark: '='
//! released: '2001-02-30'
//! ```
//!
//! ## Fix
//! Safe, by `urldb fmt`: the canonical text quotes the value, which makes
//! it the string that every YAML reader able to load the file read. It is
//! the one value `fmt` changes, because PyYAML loads no value there at all.

use crate::model::resolve::unloadable;
use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "unloadable-value",
    summary: "plain value that PyYAML cannot load",
    severity: Severity::Error,
    fix: FixKind::Format,
    blocks_rewrite: false,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::Always("PyYAML refuses the file"),
    check: Check::File {
        check,
        clean: CleanText(CLEAN),
    },
};

/// Clean text: the renderer quotes a value PyYAML cannot load (it has no
/// value but its text), so canonical text holds none plain (`rules::clean`).
pub(crate) static CLEAN: &[Clean] = &[Clean::Layout];

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    for document in ctx.documents {
        if let Some(root) = &document.root {
            walk(root, out);
        }
    }
}

/// Every value below `node` (keys are `non-string-key`'s).
fn walk(node: &Node, out: &mut Vec<Finding>) {
    match &node.value {
        Value::Scalar(scalar) => {
            if scalar.style != ScalarStyle::Plain {
                return;
            }
            let Some(why) = unloadable(&scalar.value) else {
                return;
            };
            let quoted = format!("'{}'", scalar.value.replace('\'', "''"));
            out.push(
                Finding::new(
                    &RULE,
                    node.span.clone(),
                    format!("`{}` is {why}: PyYAML cannot load the file", scalar.value),
                )
                .help(format!("quote it to keep it as text: {quoted}"))
                .fix(Fix::format(format!("write {quoted}"))),
            );
        }
        Value::Seq(items) => {
            items.iter().for_each(|item| walk(item, out));
        }
        Value::Map(entries) => {
            entries.iter().for_each(|entry| walk(&entry.value, out));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::codes;

    const HEAD: &str = "---\n---\n_path: /a\ncontent-type: text/html\n";

    #[test]
    fn flags_what_pyyaml_cannot_build() {
        for value in [
            "=",
            "<<",
            "0b_",
            "-0x__",
            "2001-02-30",
            "2001-13-01",
            "0000-01-01",
            "2001-01-01 24:00:00",
            "2001-01-01T00:60:00",
            "2001-01-01 00:00:00 +24:00",
        ] {
            let text = format!("{HEAD}x: {value}\n");
            assert!(
                codes("example.com.yaml", &text).contains(&"unloadable-value"),
                "{value}"
            );
        }
        let nested = format!("{HEAD}x:\n  y:\n  - 2001-02-29\n");
        assert!(codes("example.com.yaml", &nested).contains(&"unloadable-value"));
    }

    #[test]
    fn accepts_what_pyyaml_builds() {
        for value in [
            "'='",
            "\"<<\"",
            "0b1_",
            "0x_F",
            "0_",
            "2000-02-29",
            "2001-12-31 23:59:59.999 -23:59",
            "a=b",
            "2001-02-30x",
        ] {
            let text = format!("{HEAD}x: {value}\n");
            assert!(
                !codes("example.com.yaml", &text).contains(&"unloadable-value"),
                "{value}"
            );
        }
    }
}
