//! A rule's documentation as Markdown, from the rule file's own `//!`
//! comment: what `urldb rule CODE` prints, what SARIF carries as the rule's
//! help, and `docs/rules.md`. Here, beside the rules, so that every layer
//! that shows a rule's documentation reads it from one place.

use crate::rules::{self, FixKind};

// `RULE_DOCS`: each rule's code and the `//!` comment of its file, read
// when urldb is built (`build.rs`), so the binary holds the documentation
// and not the rule sources.
include!(concat!(env!("OUT_DIR"), "/rule_docs.rs"));

/// One rule's documentation as Markdown (also used for `docs/rules.md`).
pub fn render(rule: &rules::Rule) -> String {
    use crate::render::TextStyle;
    let off = match (
        rule.on_by_default(TextStyle::Readable),
        rule.on_by_default(TextStyle::Pyyaml),
    ) {
        (true, _) => String::new(),
        (false, true) => format!(
            "\nOff by default, but on in `style = \"pyyaml\"`: enable it with `extend-select = [\"{}\"]` (or `select`).",
            rule.code
        ),
        (false, false) => format!(
            "\nOff by default: enable it with `extend-select = [\"{}\"]` (or `select`).",
            rule.code
        ),
    };
    let gate = rules::gate_findings::describe(rule)
        .map(|g| format!("\n{g}"))
        .unwrap_or_default();
    format!(
        "# {} ({})\n\n{}.\nDefault severity: {}. Fix: {}.{off}{gate}\n\n{}",
        rule.code,
        rule.severity.as_str(),
        capitalize(rule.summary),
        rule.severity.as_str(),
        rule.fix.describe(),
        rule.documentation()
    )
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// The whole catalogue as Markdown: `docs/rules.md`. A test fails when the
/// committed file is stale (`URLDB_UPDATE_DOCS=1 cargo test` rewrites it).
pub fn catalogue_markdown() -> String {
    let mut out = String::from(
        "# Rules\n\n<!-- Generated from the rule sources (crates/urldb-core/src/rules/<family>/*.rs) by `cargo test`; do not edit. -->\n\n\
         `[*]`: fixed automatically (by `urldb fmt` for layout, by `urldb check --fix` for values).\n\n\
         | code | severity | fix | what it finds |\n|---|---|---|---|\n",
    );
    for rule in rules::ALL {
        let fix = if rule.fix == FixKind::None { "" } else { "[*]" };
        out.push_str(&format!(
            "| [`{0}`](#{0}-{1}) | {1} | {2} | {3} |\n",
            rule.code,
            rule.severity.as_str(),
            fix,
            rule.summary.replace('|', "\\|")
        ));
    }
    for rule in rules::ALL {
        out.push('\n');
        // Demote the rule's own headings one level under its `##` title.
        let body = render(rule).replace("\n## ", "\n### ");
        out.push_str(&format!("#{}", body));
    }
    out
}

/// The lists of rules that pages of `docs/` other than `docs/rules.md`
/// hold, by the name of the generated region each stands in
/// (`<!-- generated: NAME -->` … `<!-- /generated -->`): read from the
/// catalogue, so that no page names a rule list by hand. The test that
/// writes `docs/rules.md` writes them too.
pub fn generated_lists() -> Vec<(&'static str, String)> {
    let blocking: Vec<String> = rules::ALL
        .iter()
        .filter(|r| r.blocks_request.is_some())
        .map(|r| format!("`{}`", r.code))
        .collect();
    let or = match blocking.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => blocking.join(", "),
    };
    let table = |head: &str, list: &[(&str, &str)]| {
        let mut out = format!("| rule | {head} |\n|---|---|\n");
        for (code, words) in list {
            out.push_str(&format!("| `{code}` | {} |\n", words.replace('|', "\\|")));
        }
        out
    };
    vec![
        ("blocking-rules", blocking.join(", ")),
        ("blocking-rules-or", or),
        (
            "gate-always",
            format!("\n\n{}\n", table("why", rules::gate_findings::ALWAYS)),
        ),
        (
            "gate-some",
            format!(
                "\n\n{}\n",
                table("which findings", rules::gate_findings::SOME)
            ),
        ),
    ]
}

/// `page` with the text of each generated region replaced by its list
/// ([`generated_lists`]), and the names of the regions it holds. A region
/// of an unknown name is left as it is.
pub fn fill_generated_lists(page: &str) -> (String, Vec<&'static str>) {
    const END: &str = "<!-- /generated -->";
    let lists = generated_lists();
    let mut out = String::with_capacity(page.len());
    let mut found = Vec::new();
    let mut rest = page;
    while let Some(at) = rest.find("<!-- generated: ") {
        let after = &rest[at..];
        let Some(close) = after.find(" -->") else {
            break;
        };
        let name = &after["<!-- generated: ".len()..close];
        let Some((known, list)) = lists.iter().find(|(n, _)| *n == name) else {
            out.push_str(&rest[..at + close]);
            rest = &rest[at + close..];
            continue;
        };
        let Some(end) = after.find(END) else {
            break;
        };
        out.push_str(&rest[..at + close + " -->".len()]);
        out.push_str(list);
        out.push_str(END);
        found.push(*known);
        rest = &after[end + END.len()..];
    }
    out.push_str(rest);
    (out, found)
}
