//! The rule catalogue: one rule per file, each with its documentation in
//! the file's `//!` comment (printed by `urldb rule CODE`, and the source of
//! `docs/rules.md`).
//!
//! Rules run at the stage where what they check exists:
//! - [`Check::Text`] on the raw bytes, before any YAML is read;
//! - [`Check::Parse`] reported while parsing (the rule file holds the docs
//!   and the finding's constructor, the parser calls it);
//! - [`Check::File`] on the model of one file;
//! - [`Check::Layout`] only when a file differs from its canonical text;
//! - [`Check::Database`] across all files (cross-file conflicts).

use std::path::Path;

use crate::model::node::Document;
use crate::rules::diagnostic::{Finding, Severity};
use crate::source::{Source, Span};

#[allow(unused_imports)]
mod prelude {
    pub(crate) use crate::model::domain::{self, Record, records};
    pub(crate) use crate::model::node::{Entry, Node, Scalar, ScalarStyle, Value};
    pub(crate) use crate::rules::clean::{Clean, Facts, LooksAt, Paths, RecordShape, Written};
    pub(crate) use crate::rules::diagnostic::{Edit, Finding, Fix, NodePath, Severity};
    pub(crate) use crate::rules::{
        Check, CleanText, DbContext, DbFinding, Enabled, FileContext, FixKind, Gate, LayoutContext,
        Rule, TextContext, entry_path, list_items, sub_span,
    };
    pub(crate) use crate::source::Span;
}

pub(crate) mod clean;
pub mod diagnostic;
pub mod docs;
pub(crate) mod settings;

// The rules, one file each, in folders by family (the headings of the
// catalogue below): a rule is named here only by its entry in `ALL`.
pub(crate) mod engine;
pub(crate) mod files;
pub mod gate_findings;
pub(crate) mod hosts;
pub(crate) mod metadata;
pub(crate) mod paths;
pub(crate) mod records;
pub(crate) mod structure;
pub mod unrequested;
pub(crate) mod yaml;

/// The human formats show at most this many findings of one rule in one
/// file, and a cross-file finding names at most this many other files
/// (`hosts::listed`); a count stands for the rest.
pub const SHOWN_PER_RULE: usize = 50;

/// Every rule, in catalogue order.
pub static ALL: &[&Rule] = &[
    // yaml/: encoding and YAML.
    &yaml::invalid_utf8::RULE,
    &yaml::bom::RULE,
    &yaml::yaml_syntax::RULE,
    &yaml::mixed_line_endings::RULE,
    &yaml::trailing_whitespace::RULE,
    &yaml::missing_final_newline::RULE,
    &yaml::yaml_alias::RULE,
    &yaml::yaml_tag::RULE,
    &yaml::yaml_comment::RULE,
    &yaml::duplicate_key::RULE,
    &yaml::non_string_key::RULE,
    &yaml::unloadable_value::RULE,
    &yaml::file_too_large::RULE,
    &yaml::nesting_too_deep::RULE,
    &yaml::too_many_documents::RULE,
    // structure/.
    &structure::empty_file::RULE,
    &structure::metadata_not_mapping::RULE,
    &structure::record_not_mapping::RULE,
    &structure::missing_path::RULE,
    &structure::missing_content_type::RULE,
    // metadata/.
    &metadata::invalid_domain_name::RULE,
    &metadata::invalid_boolean::RULE,
    &metadata::unknown_metadata_key::RULE,
    &metadata::invalid_cname::RULE,
    &metadata::unsorted_cnames::RULE,
    &metadata::duplicate_cname::RULE,
    &metadata::cname_is_primary::RULE,
    &metadata::cname_conflict::RULE,
    &metadata::domain_conflict::RULE,
    // records/: order and keys.
    &records::unsorted_records::RULE,
    &records::duplicate_path::RULE,
    &records::equivalent_paths::RULE,
    &records::unsorted_keys::RULE,
    // paths/.
    &paths::path_network_reference::RULE,
    &paths::path_not_absolute::RULE,
    &paths::path_fragment::RULE,
    &paths::path_invalid_char::RULE,
    &paths::path_bad_escape::RULE,
    &paths::path_escape_case::RULE,
    &paths::path_unneeded_escape::RULE,
    &paths::path_dot_segment::RULE,
    &paths::path_case::RULE,
    // records/: values.
    &records::invalid_content_type::RULE,
    &records::content_type_case::RULE,
    &records::invalid_categories::RULE,
    &records::unsorted_categories::RULE,
    &records::duplicate_category::RULE,
    &records::empty_category::RULE,
    &records::empty_categories::RULE,
    &records::invalid_content_length::RULE,
    &records::invalid_sha256::RULE,
    &records::sha256_case::RULE,
    &records::incomplete_static::RULE,
    &records::suspicious_key::RULE,
    &records::unknown_category::RULE,
    // files/.
    &files::wrong_extension::RULE,
    &files::windows_reserved_name::RULE,
    &files::not_canonical::RULE,
    &files::unused_suppression::RULE,
];

/// What clean text is for each rule that reads the model of a file
/// ([`Check::File`]), as its own file states it ([`clean::Clean`]): how the
/// proof of clean records (`crate::lint::proof`) asks the rules instead of
/// building a tree. In catalogue order, gathered from [`ALL`] once a run.
pub(crate) fn clean_text() -> &'static [(&'static Rule, &'static [clean::Clean])] {
    static GATHERED: std::sync::LazyLock<Vec<(&'static Rule, &'static [clean::Clean])>> =
        std::sync::LazyLock::new(|| {
            ALL.iter()
                .filter_map(|rule| match rule.check {
                    Check::File { clean, .. } => Some((*rule, clean.0)),
                    _ => None,
                })
                .collect()
        });
    &GATHERED
}

/// Where a rule's findings come among others at the same place, as
/// `crate::lint` checks a file: by stage (the text, the parser, the model,
/// the layout, across files), then in catalogue order. The parser reports
/// its problems in the order it meets them: one rank for the whole stage.
pub(crate) fn order(rule: &'static Rule) -> (u8, usize) {
    let place = || ALL.iter().position(|r| std::ptr::eq(*r, rule));
    match rule.check {
        Check::Text(_) => (0, place().unwrap_or(usize::MAX)),
        Check::Parse => (1, 0),
        Check::File { .. } => (2, place().unwrap_or(usize::MAX)),
        Check::Layout(_) => (3, place().unwrap_or(usize::MAX)),
        Check::Database(_) => (4, place().unwrap_or(usize::MAX)),
    }
}

/// The rule that keeps a file from being rewritten, of those these
/// findings name: the first to run ([`order`]).
pub(crate) fn first_blocking(findings: &[Finding]) -> Option<&'static Rule> {
    // A finding that carries a fix does not forbid the rewrite that is its
    // fix (a tab PyYAML refuses in a file that parsed: `fmt` writes spaces).
    findings
        .iter()
        .filter(|f| f.fix.is_none())
        .map(|f| f.rule)
        .filter(|r| r.blocks_rewrite)
        .min_by_key(|r| order(r))
}

// What other crates use of single rules: named here, so that the rule
// modules stay private (`docs/dev/architecture.md`, "Public surface").
pub use files::unused_suppression::RULE as UNUSED_SUPPRESSION;
pub use metadata::invalid_domain_name::hostname_problem;
pub use settings::LintSettings;
pub use yaml::file_too_large::finding as file_too_large;

/// Look a rule up by its code.
pub fn by_code(code: &str) -> Option<&'static Rule> {
    ALL.iter().copied().find(|r| r.code == code)
}

/// Whether and how a rule's findings can be repaired.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FixKind {
    /// No automatic fix: a person must decide.
    None,
    /// `fmt` repairs it (layout only).
    Format,
    /// `check --fix` repairs it (it changes a value's spelling, safely).
    Safe,
    /// `check --fix` repairs some cases; the others need a person.
    Sometimes,
}

impl FixKind {
    pub fn describe(self) -> &'static str {
        match self {
            FixKind::None => "no automatic fix",
            FixKind::Format => "fixed by `urldb fmt` (and `check --fix`)",
            FixKind::Safe => "fixed by `urldb check --fix`",
            FixKind::Sometimes => "sometimes fixed by `urldb check --fix`",
        }
    }
}

/// A rule: its code, default severity, fix, documentation and check.
pub struct Rule {
    pub code: &'static str,
    /// One line: what is wrong, for `urldb rules`.
    pub summary: &'static str,
    pub severity: Severity,
    pub fix: FixKind,
    /// A finding of this rule means the file cannot be rewritten safely
    /// (`fmt` and `check --fix` leave it untouched).
    pub blocks_rewrite: bool,
    /// A finding of this rule in a record's `_path` keeps `verify` from
    /// requesting the record, and `ls` and `export` from listing it
    /// ([`unrequested`], `docs/urls.md`): `Some(rank)`. When several of
    /// these rules find one path, the finding of the lowest rank is the
    /// reason given.
    pub blocks_request: Option<u8>,
    /// Whether the rule runs when the configuration selects nothing.
    pub enabled: Enabled,
    /// Which of its findings are gate findings ([`gate_findings`]), and why.
    pub gate: Gate,
    pub check: Check,
}

/// Whether a rule runs when the configuration selects nothing
/// ([`Rule::on_by_default`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Enabled {
    On,
    /// Only when selected: by code or `ALL` in `select`, or in
    /// `extend-select`. A finding of the rule is a matter of house style,
    /// not an error in the data (`yaml-comment`: `fmt` keeps comments).
    Off,
    /// Off, but on by default in `style = "pyyaml"`: a team whose files
    /// the reference tool still writes loses every comment on its next
    /// write (`docs/format.md`, "Two styles").
    OnInPyyamlStyle,
}

/// Which findings of a rule are gate findings: always checked and an
/// error whatever the data, `urldb.toml` or the command line say
/// ([`gate_findings`], `docs/suppressions.md`, "Gate findings").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gate {
    /// None of them.
    No,
    /// Every one, for the reason given.
    Always(&'static str),
    /// Those the rule marks with [`Finding::gate`], which the words say.
    Some(&'static str),
}

impl std::fmt::Debug for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code)
    }
}

impl Rule {
    /// Whether the rule runs when the configuration selects nothing, for
    /// files written in `style`.
    pub fn on_by_default(&self, style: crate::render::TextStyle) -> bool {
        match self.enabled {
            Enabled::On => true,
            Enabled::Off => false,
            Enabled::OnInPyyamlStyle => style == crate::render::TextStyle::Pyyaml,
        }
    }

    /// The rule's documentation (Markdown): the `//!` comment of its
    /// source file, extracted when urldb is built (`build.rs`).
    pub fn documentation(&self) -> String {
        docs::RULE_DOCS
            .iter()
            .find(|(code, _)| *code == self.code)
            .map(|(_, doc)| (*doc).to_string())
            .unwrap_or_default()
    }
}

pub enum Check {
    Text(fn(&TextContext, &mut Vec<Finding>)),
    /// Found by the parser or the file engine; the rule file has the docs
    /// and the constructor of the finding.
    Parse,
    /// On the model of one file; `clean` is what clean text is for the
    /// rule, which the proof of clean records asks instead of `check`
    /// (`clean::Clean`; the rule's own tests hold the two to each other,
    /// `test_support::both_ways`).
    File {
        check: fn(&FileContext, &mut Vec<Finding>),
        clean: CleanText,
    },

    Layout(fn(&LayoutContext, &mut Vec<Finding>)),
    Database(fn(&DbContext, &mut Vec<DbFinding>)),
}

/// What clean text is for a rule on the model of a file (a list of
/// [`clean::Clean`] answers), which only this crate reads.
#[derive(Clone, Copy)]
pub struct CleanText(pub(crate) &'static [clean::Clean]);

/// What text rules see: the bytes as read and the text made of them.
pub struct TextContext<'a> {
    pub raw: &'a [u8],
    pub source: &'a Source,
}

/// What file rules see.
pub struct FileContext<'a> {
    pub source: &'a Source,
    pub documents: &'a [Document],
    /// The domain named by the file name (its stem).
    pub domain: &'a str,
    pub settings: &'a settings::LintSettings,
}

/// What layout rules see: the file and its canonical text.
pub struct LayoutContext<'a> {
    pub file: &'a FileContext<'a>,
    pub canonical: &'a str,
}

/// The facts of one file that cross-file rules need.
#[derive(Debug, Clone)]
pub struct FileFacts {
    pub path: std::path::PathBuf,
    pub domain: String,
    /// Each cname and its span in this file.
    pub cnames: Vec<(String, Span)>,
    /// The file is being checked (cross-file findings are reported only in
    /// checked files, though every file is seen).
    pub checked: bool,
}

pub struct DbContext<'a> {
    pub files: &'a [FileFacts],
}

/// A cross-file finding and the file (index into `DbContext::files`) it is in.
pub struct DbFinding {
    pub file: usize,
    pub finding: Finding,
}

/// The file's stem if it names a domain file (`example.com.yaml`), as
/// written: what a finding shows. Rules that compare it with another name
/// compare the hosts they name ([`hosts::host_form`]).
pub fn domain_of(path: &Path) -> String {
    path.file_name()
        .and_then(|n| n.to_str())
        .map(|n| {
            n.strip_suffix(".yaml")
                .or_else(|| n.strip_suffix(".yml"))
                .unwrap_or(n)
        })
        .unwrap_or_default()
        .to_string()
}

/// The span of bytes `range` of a scalar's value. Exact when the scalar is
/// written as its value (plain or quoted without escapes, on one line);
/// otherwise the whole node, which is still the right place to look.
pub(crate) fn sub_span(
    source: &Source,
    node: &crate::model::node::Node,
    range: std::ops::Range<usize>,
) -> Span {
    let Some(s) = node.as_scalar() else {
        return node.span.clone();
    };
    let start = node.span.start
        + match s.style {
            crate::model::node::ScalarStyle::SingleQuoted
            | crate::model::node::ScalarStyle::DoubleQuoted => 1,
            _ => 0,
        };
    let fits = source
        .text
        .get(start..start + s.value.len())
        .is_some_and(|t| t == s.value);
    if fits && range.end <= s.value.len() {
        start + range.start..start + range.end
    } else {
        node.span.clone()
    }
}

/// A scalar item of a string list (`cnames`, `categories`) and where it is.
pub(crate) struct ListItem<'a> {
    pub node: &'a crate::model::node::Node,
    pub text: &'a str,
    doc: usize,
    entry: usize,
    item: usize,
}

impl ListItem<'_> {
    /// The item's place in the tree, for `Edit::Remove` / `Edit::SetScalar`.
    pub(crate) fn path(&self) -> crate::rules::diagnostic::NodePath {
        crate::rules::diagnostic::NodePath::new(self.doc, &[self.entry, self.item])
    }
}

/// The scalar items of the list under `key` in a document's root mapping
/// (document `doc`); nothing when the key is missing or not a list, which
/// other rules report.
pub(crate) fn list_items<'a>(
    doc: usize,
    entries: &'a [crate::model::node::Entry],
    key: &str,
) -> impl Iterator<Item = ListItem<'a>> {
    let list = entries
        .iter()
        .position(|e| e.key_str() == Some(key))
        .and_then(|entry| Some((entry, entries[entry].value.as_seq()?)));
    list.into_iter().flat_map(move |(entry, items)| {
        items.iter().enumerate().filter_map(move |(item, node)| {
            Some(ListItem {
                node,
                text: node.as_scalar()?.value.as_str(),
                doc,
                entry,
                item,
            })
        })
    })
}

/// The place of `key`'s value in a document's root mapping.
pub(crate) fn entry_path(
    doc: usize,
    entries: &[crate::model::node::Entry],
    key: &str,
) -> Option<crate::rules::diagnostic::NodePath> {
    let index = entries.iter().position(|e| e.key_str() == Some(key))?;
    Some(crate::rules::diagnostic::NodePath::new(doc, &[index]))
}

/// Helpers for the unit tests in rule files. Every text they check is
/// checked both ways, as [`both_ways`] says: a rule's own tests hold its
/// clean text (`clean`) to its check.
#[cfg(test)]
pub mod test_support {
    use crate::lint::{Checked, Documents, Options, check_bytes, check_file};
    use crate::rules::clean::answers_record_by_record;
    use crate::rules::diagnostic::Finding;

    /// The file name the helpers without a `name` check a text as.
    const NAME: &str = "example.com.yaml";

    /// The codes of the findings for `text` as the file `name`, in order.
    pub fn codes(name: &str, text: &str) -> Vec<&'static str> {
        codes_with(name, text, &Options::default())
    }

    pub fn codes_with(name: &str, text: &str, options: &Options) -> Vec<&'static str> {
        both_ways(name, text.as_bytes(), options)
            .findings
            .iter()
            .map(|f| f.rule.code)
            .collect()
    }

    /// The text after `check --fix`.
    pub fn fixed(name: &str, text: &str) -> String {
        let options = Options::default();
        let checked = both_ways(name, text.as_bytes(), &options);
        let fixed = crate::lint::fix(checked, &options);
        fixed.text.unwrap_or_else(|| text.to_string())
    }

    /// `raw` checked as the file `name` with the tree ([`check_bytes`]),
    /// after asserting that a run, which proves clean records from their
    /// text and checks a large file in pieces ([`check_file`], whole and
    /// in pieces of a few records), reports the same; that a text a run
    /// took without its tree has no finding of a rule that answers record
    /// by record (the proof called clean what that rule reports); and that
    /// a canonical text nothing is reported in, of the layout the proof
    /// reads, is proven (a rule's answer too strict costs every run).
    pub fn both_ways(name: &str, raw: &[u8], options: &Options) -> Checked {
        let path = std::path::Path::new(name);
        let whole = check_bytes(path, raw, options);
        let seen =
            |c: &Checked| format!("{:#?}\n{:?}\n{:?}", c.findings, c.blocked_by, c.canonical);
        let shown: String = String::from_utf8_lossy(raw).chars().take(400).collect();
        for piece_bytes in [None, Some(48)] {
            let run = check_file(path, raw, &options.in_pieces_of(piece_bytes));
            assert_eq!(
                seen(&run),
                seen(&whole),
                "a run without the tree and the rules disagree on {shown:?}"
            );
            if matches!(run.documents, Documents::Proven) {
                for finding in &run.findings {
                    assert!(
                        !answers_record_by_record(finding.rule),
                        "`{}` reports a text proven clean: {shown:?}",
                        finding.rule.code
                    );
                }
            }
        }
        let canonical = whole.canonical.as_deref().map(str::as_bytes) == Some(raw);
        if canonical
            && whole.findings.is_empty()
            && whole.suppressed.is_empty()
            && in_the_proofs_layout(raw)
            && !options.knobs.general_path_only
        {
            let run = check_file(path, raw, options);
            assert!(
                matches!(run.documents, Documents::Proven),
                "canonical text no rule reports is not proven (is a rule's clean \
                 text too strict?): {shown:?}"
            );
        }
        whole
    }

    /// Text the proof reads: records after a metadata document, lines of
    /// printable ASCII at the left margin, no comment, no double-quoted
    /// value, every `_path` plain.
    fn in_the_proofs_layout(raw: &[u8]) -> bool {
        let Ok(text) = std::str::from_utf8(raw) else {
            return false;
        };
        text.starts_with("---\n")
            && text.contains("\n---\n")
            && raw
                .iter()
                .all(|&b| b == b'\n' || ((b' '..=b'~').contains(&b) && b != b'#'))
            && !text.contains("\n ")
            && !text.contains('"')
            && !text.contains("\n_path: '")
    }

    /// `raw` checked as the file `example.com.yaml` with the default options.
    pub fn check(raw: impl AsRef<[u8]>) -> Checked {
        check_in(NAME, raw)
    }

    /// `raw` checked as the file `name` with the default options.
    pub fn check_in(name: &str, raw: impl AsRef<[u8]>) -> Checked {
        both_ways(name, raw.as_ref(), &Options::default())
    }

    /// The findings of `code` for `raw` as the file `example.com.yaml`, in order.
    pub fn findings(raw: impl AsRef<[u8]>, code: &str) -> Vec<Finding> {
        check(raw)
            .findings
            .into_iter()
            .filter(|f| f.code() == code)
            .collect()
    }

    /// The first finding of `code` for `raw` as the file `example.com.yaml`;
    /// panics when there is none.
    pub fn finding(raw: impl AsRef<[u8]>, code: &str) -> Finding {
        findings(raw, code)
            .into_iter()
            .next()
            .unwrap_or_else(|| panic!("no `{code}` finding"))
    }

    /// How many findings of `code` there are for `text` as the file
    /// `example.com.yaml`.
    pub fn count(text: &str, code: &str) -> usize {
        count_in(NAME, text, code)
    }

    /// How many findings of `code` there are for `text` as the file `name`.
    pub fn count_in(name: &str, text: &str, code: &str) -> usize {
        codes(name, text).iter().filter(|c| **c == code).count()
    }

    /// A file with empty metadata and one record, `body` (lines ending in
    /// `\n`; it may hold further `---` documents).
    pub fn record(body: &str) -> String {
        format!("---\n---\n{body}")
    }

    /// A file with one record: `_path: {path}` and `content-type: text/html`.
    pub fn with_path(path: &str) -> String {
        record(&format!("_path: {path}\ncontent-type: text/html\n"))
    }

    /// A file with one record at `/a` whose block `categories:` list is
    /// `items` (lines ending in `\n`), then `content-type: text/html`.
    pub fn with_categories(items: &str) -> String {
        record(&format!(
            "_path: /a\ncategories:\n{items}content-type: text/html\n"
        ))
    }

    /// A file whose metadata is `meta` (lines ending in `\n`), with one
    /// record at `/`.
    pub fn with_metadata(meta: &str) -> String {
        format!("---\n{meta}---\n_path: /\ncontent-type: text/html\n")
    }
}

#[cfg(test)]
mod documentation_tests {
    use super::{ALL, docs::RULE_DOCS};

    /// Every rule has its file's documentation, and every rule file is a
    /// rule: the build-time table and the catalogue name the same rules.
    #[test]
    fn every_rule_has_its_documentation() {
        for rule in ALL {
            let doc = rule.documentation();
            assert!(
                doc.starts_with("## What it checks\n"),
                "{}: {doc:?}",
                rule.code
            );
        }
        for (code, _) in RULE_DOCS {
            assert!(ALL.iter().any(|r| r.code == *code), "{code} is no rule");
        }
        assert_eq!(RULE_DOCS.len(), ALL.len());
    }
}
