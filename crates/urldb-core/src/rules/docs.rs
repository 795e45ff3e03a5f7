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
        "# Rules\n\n<!-- Generated from the rule sources (crates/urldb-core/src/rules/*.rs) by `cargo test`; do not edit. -->\n\n\
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
