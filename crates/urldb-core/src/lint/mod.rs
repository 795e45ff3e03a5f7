//! Checking one file: text rules, parsing, model rules, the canonical text,
//! layout rules — and repairing it (`check --fix`).
//!
//! Everything here works on one file at a time and owns nothing global, so
//! the database layer can run it on every core; the cross-file rules run
//! once over every file's facts ([`across`]). Every set of findings is
//! finished in one place (`excuse.rs`: selection, per-file ignores,
//! suppression comments, blocked-by, order). A large file is checked in
//! pieces (`pieces.rs`), records proven clean from their text
//! (`proof.rs`); writing suppressions runs the linter and lives here too
//! ([`add_suppressions`], [`ignore_here`]).

use std::path::Path;

use crate::config::{LineEnding, LintSettings};
use crate::model::node::Document;
use crate::per_file_ignores::PerFileIgnores;
use crate::render::{EmptyMetadata, RenderOptions, render};
use crate::rules::diagnostic::{Applicability, Edit, Finding};
use crate::rules::{self, Check, FileContext, FileFacts, LayoutContext, Rule, TextContext};
use crate::selection::Selection;
use crate::source::Source;
use crate::suppress::Directives;

mod across;
mod add_suppressions;
mod excuse;
mod ignore_here;
mod pieces;
mod proof;
mod streamed;

pub use across::{Across, across};
pub use add_suppressions::{Added, add_suppressions};
use excuse::{Comments, Stage};
pub use excuse::{Excuse, Excused, Finished};
pub use ignore_here::ignore_here;

/// How files are checked and written: one value for a whole run.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub settings: LintSettings,
    pub selection: Selection,
    pub line_ending: LineEnding,
    pub empty_metadata: EmptyMetadata,
    /// `fmt --drop-comments`: the canonical text is written without the
    /// file's comments.
    pub drop_comments: bool,
    /// What only tests and fuzz targets turn: with the `testing` feature.
    #[cfg(any(test, feature = "testing"))]
    pub knobs: Knobs,
    /// `[lint.per-file-ignores]`.
    pub per_file_ignores: PerFileIgnores,
    /// `check --no-suppressions`: no suppression comment excuses anything
    /// (the caller also leaves `per_file_ignores` empty).
    pub no_suppressions: bool,
}

/// The fast path's knobs, for the tests that hold it to the general path
/// and for the fuzz targets (cargo feature `testing`; a build without it
/// has neither).
#[cfg(any(test, feature = "testing"))]
#[derive(Debug, Clone, Default)]
pub struct Knobs {
    /// Parse every file with the general YAML parser, never the fast path.
    pub general_path_only: bool,
    /// The size of a piece of a large file (`None`: 512 KiB); a file of
    /// two pieces or more is checked in pieces. Tests and the fuzzer make
    /// it small, so that small texts are cut many times.
    pub piece_bytes: Option<usize>,
}

#[cfg(any(test, feature = "testing"))]
impl Options {
    /// These options, with a large file cut in pieces of `piece_bytes`
    /// ([`Knobs::piece_bytes`]).
    pub fn in_pieces_of(&self, piece_bytes: Option<usize>) -> Options {
        Options {
            knobs: Knobs {
                piece_bytes,
                ..self.knobs.clone()
            },
            ..self.clone()
        }
    }
}

impl Options {
    /// [`Knobs::general_path_only`]; `false` without the knobs.
    pub(crate) fn general_path_only(&self) -> bool {
        #[cfg(any(test, feature = "testing"))]
        return self.knobs.general_path_only;
        #[cfg(not(any(test, feature = "testing")))]
        false
    }

    /// The size of a piece of a large file ([`Knobs::piece_bytes`]).
    pub(crate) fn piece_bytes(&self) -> usize {
        #[cfg(any(test, feature = "testing"))]
        return self.knobs.piece_bytes.unwrap_or(pieces::PIECE_BYTES);
        #[cfg(not(any(test, feature = "testing")))]
        pieces::PIECE_BYTES
    }
}

/// One file, checked.
#[derive(Debug)]
pub struct Checked {
    pub source: Source,
    /// Its tree, or why there is none.
    pub documents: Documents,
    /// Enabled findings, in file order.
    pub findings: Vec<Finding>,
    /// Enabled findings that a suppression comment or
    /// `[lint.per-file-ignores]` excuses: SARIF shows them as suppressed,
    /// the other formats count them.
    pub suppressed: Vec<Excused>,
    /// A finding (enabled or not) forbids rewriting the file.
    pub blocked_by: Option<&'static Rule>,
    /// The canonical text, when the file may be rewritten.
    pub canonical: Option<String>,
}

/// What a check kept of a file's tree.
#[derive(Debug, Clone)]
pub enum Documents {
    /// The file parsed completely: its documents.
    Parsed(Vec<Document>),
    /// The file did not parse completely (a finding says why: the parser
    /// stopped, or the file was too large to read at all).
    NotParsed,
    /// Checked without a tree: every record proven clean from its text
    /// (`proof`), the metadata checked by the rules. It parses.
    Proven,
    /// A large file checked a piece at a time, each piece's tree dropped
    /// once checked (`pieces`). It parses.
    InPieces,
    /// A large file that is not canonical, checked a part at a time with
    /// the layout rules, each part's tree dropped once checked
    /// (`streamed`). It parses.
    InParts,
    /// The file parsed, and its tree was let go ([`Documents::let_go`]).
    Dropped,
}

impl Documents {
    /// The documents, when the tree is at hand.
    pub fn parsed(&self) -> Option<&[Document]> {
        match self {
            Documents::Parsed(documents) => Some(documents),
            _ => None,
        }
    }

    /// [`Documents::parsed`], taken.
    pub fn into_parsed(self) -> Option<Vec<Document>> {
        match self {
            Documents::Parsed(documents) => Some(documents),
            _ => None,
        }
    }

    /// The file parsed completely, whether its tree is at hand or not.
    pub fn parses(&self) -> bool {
        !matches!(self, Documents::NotParsed)
    }

    /// Drop the tree (it takes several times the text's size), keeping
    /// whether the file parses.
    pub fn let_go(&mut self) {
        if let Documents::Parsed(_) = self {
            *self = Documents::Dropped;
        }
    }
}

/// Check one file of a run without its tree where that is possible: a
/// clean canonical file from its text ([`Documents::Proven`]), a large
/// canonical file in pieces on every core ([`Documents::InPieces`]), any
/// other large file in parts ([`Documents::InParts`]); the rest whole, as
/// [`check_bytes`] does.
pub fn check_file(path: &Path, raw: &[u8], options: &Options) -> Checked {
    if !options.general_path_only() {
        let large = is_large(raw, options);
        if let Some(checked) = pieces::check(path, raw, options, true, !large) {
            return checked;
        }
        if large && let Some(checked) = streamed::check(path, raw, options, true) {
            return checked;
        }
    }
    check_bytes(path, raw, options)
}

/// Large enough to be checked in pieces however it reads.
fn is_large(raw: &[u8], options: &Options) -> bool {
    raw.len() >= 2 * options.piece_bytes()
}

/// [`check_file`] for the findings alone, with no fix (an editor's
/// diagnostics): a large canonical file stays in pieces even when a
/// finding could be fixed, since no fix is weighed.
pub fn check_findings(path: &Path, raw: &[u8], options: &Options) -> Checked {
    if !options.general_path_only() {
        let large = is_large(raw, options);
        if let Some(checked) = pieces::check(path, raw, options, false, !large) {
            return checked;
        }
        if large && let Some(checked) = streamed::check(path, raw, options, false) {
            return checked;
        }
    }
    let mut checked = check_bytes(path, raw, options);
    checked.findings.iter_mut().for_each(|f| f.fix = None);
    checked
}

/// Check one file's bytes. `path` is shown to the user and gives the domain.
pub fn check_bytes(path: &Path, raw: &[u8], options: &Options) -> Checked {
    let text = match std::str::from_utf8(raw) {
        Ok(t) => t.to_string(),
        Err(_) => String::from_utf8_lossy(raw).into_owned(),
    };
    let source = Source::new(path, text);
    // Counted before anything is built: past the limit, the file is not
    // read (its documents would take many times its size in memory).
    if let Some(finding) = rules::engine::before_parsing(&source.text) {
        let finished = excuse::finish(path, vec![finding], Comments::None, Stage::File, options);
        return Checked::unread(source, finished);
    }
    let mut all = text_findings(raw, &source);

    // Canonical text takes the fast path, which builds the same tree;
    // any other text is read as the reference tool reads it.
    let (tree, from_fast) = crate::parse::read_text_with(&source.text, options.general_path_only());
    all.extend(
        tree.problems
            .iter()
            .map(|p| rules::engine::of_problem(&source.text, p)),
    );
    // Tabs PyYAML refuses where YAML 1.2 and the parser take them.
    if !tree.incomplete && !from_fast {
        rules::engine::refused_tabs(&source.text, &tree, &mut all);
    }
    // The parser has given every comment to its node; a rule (off by
    // default) reports where they are, but for suppression comments.
    all.extend(
        tree.comments
            .iter()
            .filter(|span| {
                !source
                    .text
                    .get((*span).clone())
                    .is_some_and(crate::suppress::is_directive)
            })
            .cloned()
            .map(rules::engine::of_comment),
    );

    let domain = rules::domain_of(path);
    let documents = (!tree.incomplete).then_some(tree.documents);
    let mut canonical = None;
    if let Some(docs) = &documents {
        let ctx = FileContext {
            source: &source,
            documents: docs,
            domain: &domain,
            settings: &options.settings,
        };
        for rule in rules::ALL {
            if let Check::File { check, .. } = rule.check {
                check(&ctx, &mut all);
            }
        }
        crate::fix::guard_path_fixes(docs, &mut all);
        if rules::first_blocking(&all).is_none() {
            let render_options = render_options(&source.text, docs, options);
            // Text the fast reader read is most often canonical already:
            // proving it is much cheaper than writing it again.
            let text = if from_fast && crate::render::is_canonical(docs, &render_options) {
                source.text.clone()
            } else {
                render(docs, &render_options)
            };
            if text != source.text {
                let layout = LayoutContext {
                    file: &ctx,
                    canonical: &text,
                };
                for rule in rules::ALL {
                    if let Check::Layout(check) = rule.check {
                        check(&layout, &mut all);
                    }
                }
                // `check` reports every file `fmt --check` would rewrite,
                // even when no rule above says why.
                rules::engine::explain_rewrite(&mut all, &source.text, &text);
            }
            canonical = Some(text);
        }
    }
    rules::engine::drop_findings_on_unread_bytes(&mut all, raw);
    // After every rule, before anything is reported, cached or fixed.
    let comments = Comments::Read {
        directives: Directives::new(&source.text, &tree.comments, documents.as_deref()),
        parsed: documents.is_some(),
    };
    let finished = excuse::finish(path, all, comments, Stage::File, options);
    if finished.blocked_by.is_some() {
        // A file that cannot be rewritten has no canonical text.
        canonical = None;
    }
    Checked {
        source,
        documents: match documents {
            Some(documents) => Documents::Parsed(documents),
            None => Documents::NotParsed,
        },
        findings: finished.findings,
        suppressed: finished.suppressed,
        blocked_by: finished.blocked_by,
        canonical,
    }
}

/// The check of a file over `max-file-size`, which is not read: its one
/// `file-too-large` finding.
pub fn too_large(path: &Path, size: u64, options: &Options) -> Checked {
    let finding = rules::file_too_large(size, options.settings.max_file_size);
    let finished = excuse::finish(path, vec![finding], Comments::None, Stage::File, options);
    Checked::unread(Source::new(path, String::new()), finished)
}

impl Checked {
    /// A file not parsed, with its findings.
    fn unread(source: Source, finished: Finished) -> Checked {
        Checked {
            source,
            documents: Documents::NotParsed,
            findings: finished.findings,
            suppressed: finished.suppressed,
            blocked_by: finished.blocked_by,
            canonical: None,
        }
    }

    /// Take in the file's cross-file findings ([`Across::finish`]), found
    /// after its check: its findings in file order again.
    pub fn add_across(&mut self, finished: Finished) {
        if finished.findings.is_empty() && finished.suppressed.is_empty() {
            return;
        }
        self.findings.extend(finished.findings);
        self.suppressed.extend(finished.suppressed);
        self.findings.sort_by_key(|f| (f.span.start, f.span.end));
    }
}

/// The findings of the rules that read the text before it is parsed.
fn text_findings(raw: &[u8], source: &Source) -> Vec<Finding> {
    let mut all = Vec::new();
    for rule in rules::ALL {
        if let Check::Text(check) = rule.check {
            check(&TextContext { raw, source }, &mut all);
        }
    }
    all
}

/// The line break and empty-metadata form a file's canonical text uses.
pub fn render_options(text: &str, docs: &[Document], options: &Options) -> RenderOptions {
    let newline = match options.line_ending {
        LineEnding::Lf => "\n",
        LineEnding::Crlf => "\r\n",
        LineEnding::Native => {
            if cfg!(windows) {
                "\r\n"
            } else {
                "\n"
            }
        }
        LineEnding::Auto => newline_of(text),
    };
    // Both `---` and `--- {}` are canonical for empty metadata; a file keeps
    // the one it has, and the configuration picks for the others.
    let empty_metadata = match docs.first().and_then(|d| d.root.as_ref()) {
        Some(root) if root.flow && root.as_map().is_some_and(<[_]>::is_empty) => {
            EmptyMetadata::Braces
        }
        None => EmptyMetadata::Bare,
        _ => options.empty_metadata,
    };
    RenderOptions {
        newline,
        empty_metadata,
        style: options.settings.style,
        sort: true,
        comments: !options.drop_comments,
    }
}

/// The line break a text uses: its first one (`\n` when it has none).
pub(crate) fn newline_of(text: &str) -> &'static str {
    match text.find(['\n', '\r']) {
        Some(i) if text[i..].starts_with("\r\n") => "\r\n",
        _ => "\n",
    }
}

/// The result of `check --fix` on one file.
#[derive(Debug)]
pub struct Fixed {
    /// The new text, when it differs from the old one.
    pub text: Option<String>,
    /// How many findings the fixes repaired.
    pub fixed: usize,
    /// The check of the final text (what remains to report).
    pub after: Checked,
}

/// Apply every safe fix and render canonical text, repeating (at most ten
/// times) while fixes uncover more fixes.
pub fn fix(checked: Checked, options: &Options) -> Fixed {
    let original = checked.source.text.clone();
    let path = checked.source.path.clone();
    // A large file checked a part at a time kept no tree: the fixes edit
    // one, so it is checked again whole.
    let mut current = match checked.documents {
        Documents::InParts if checked.findings.iter().any(Finding::fixable) => {
            check_bytes(&path, original.as_bytes(), options)
        }
        _ => checked,
    };
    let mut fixed = 0;
    for _ in 0..10 {
        if current.blocked_by.is_some() {
            break;
        }
        let Some(docs) = current.documents.parsed().map(<[_]>::to_vec) else {
            break;
        };
        let fixable: Vec<&Finding> = current.findings.iter().filter(|f| f.fixable()).collect();
        if fixable.is_empty() {
            break;
        }
        let edits: Vec<Edit> = fixable
            .iter()
            .filter_map(|f| f.fix.as_ref())
            .filter(|f| f.applicability == Applicability::Safe)
            .flat_map(|f| f.edits.iter().cloned())
            .collect();
        let docs = crate::fix::apply_edits(docs, edits);
        let text = render(&docs, &render_options(&current.source.text, &docs, options));
        if text == current.source.text {
            break;
        }
        fixed += fixable.len();
        current = check_bytes(&path, text.as_bytes(), options);
    }
    let text = (current.source.text != original).then(|| current.source.text.clone());
    Fixed {
        text,
        fixed,
        after: current,
    }
}

/// The cross-file facts of a file: its domain and cnames. Only the
/// metadata document is parsed.
pub fn facts(path: &Path, text: &str, checked: bool) -> FileFacts {
    let bom = text.len() - crate::parse::without_bom(text).len();
    let metadata = &text[..bom + second_document_start(&text[bom..])];
    let tree = crate::parse::read_text(metadata);
    facts_of(path, &tree.documents, checked)
}

/// The cross-file facts of a file whose documents are already parsed.
pub fn facts_of(path: &Path, documents: &[Document], checked: bool) -> FileFacts {
    let metadata = crate::model::domain::metadata(documents);
    FileFacts {
        path: path.to_path_buf(),
        domain: rules::domain_of(path),
        cnames: rules::list_items(0, metadata, crate::model::domain::CNAMES)
            .map(|item| (item.text.to_string(), item.node.span.clone()))
            .collect(),
        checked,
    }
}

/// Where the second `---` line starts, or where the first `...` line ends
/// (the end of the metadata document): never further, however large the
/// rest of the file.
fn second_document_start(text: &str) -> usize {
    // Comments and blank lines before the first `---` open no document
    // (`# urldb: ignore-file[…]` is written there); anything else opens
    // an implicit one.
    let mut seen = 0;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.starts_with("---") && line[3..].chars().next().is_none_or(|c| c.is_whitespace()) {
            seen += 1;
            if seen == 2 {
                return offset;
            }
        } else if seen == 0 {
            let body = line.trim_start_matches([' ', '\t', '\r', '\n']);
            seen = usize::from(!body.is_empty() && !body.starts_with('#'));
        }
        if line.starts_with("...") && line[3..].chars().next().is_none_or(|c| c.is_whitespace()) {
            return offset + line.len();
        }
        offset += line.len();
    }
    text.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cnames of a file are found whatever comes before its first
    /// `---`: a suppression comment, blank lines, or nothing (an implicit
    /// metadata document).
    #[test]
    fn facts_read_the_metadata_after_leading_comments() {
        let cnames = |text: &str| -> Vec<String> {
            facts(Path::new("a.org.yaml"), text, false)
                .cnames
                .into_iter()
                .map(|(name, _)| name)
                .collect()
        };
        let rest = "cnames:\n- www.a.org\n---\n_path: /\ncontent-type: text/html\n";
        for lead in [
            "---\n",
            "# urldb: ignore-file[cname-conflict]\n---\n",
            "\n  # a note\n\n---\n",
            "\u{FEFF}# note\r\n---\n",
            "",
        ] {
            assert_eq!(cnames(&format!("{lead}{rest}")), ["www.a.org"], "{lead:?}");
        }
        // The second document is never read for them.
        assert!(cnames("---\n---\ncnames:\n- www.b.org\n").is_empty());
        assert!(cnames("# note\n---\n---\ncnames:\n- www.b.org\n").is_empty());
    }
}
