//! Checking one file: text rules, parsing, model rules, the canonical text,
//! layout rules — and repairing it (`check --fix`).
//!
//! Everything here works on one file at a time and owns nothing global, so
//! the database layer can run it on every core.

use std::path::Path;

use crate::config::{LineEnding, LintSettings};
use crate::model::node::{Document, Node, Value};
use crate::parse::{tree::Problem, tree::parse_tree};
use crate::render::{EmptyMetadata, RenderOptions, render};
use crate::rules::diagnostic::{Applicability, Edit, Finding, NodePath};
use crate::rules::{self, Check, FileContext, FileFacts, LayoutContext, Rule, TextContext};
use crate::selection::Selection;
use crate::source::Source;

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
    /// Parse every file with the general YAML parser, never the fast path
    /// (for tests that hold the two to the same findings).
    pub general_path_only: bool,
}

/// One file, checked.
#[derive(Debug)]
pub struct Checked {
    pub source: Source,
    /// The documents, when the file parsed completely.
    pub documents: Option<Vec<Document>>,
    /// Enabled findings, in file order.
    pub findings: Vec<Finding>,
    /// A finding (enabled or not) forbids rewriting the file.
    pub blocked_by: Option<&'static Rule>,
    /// The canonical text, when the file may be rewritten.
    pub canonical: Option<String>,
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
    let markers = rules::too_many_documents::markers(&source.text);
    if markers > rules::too_many_documents::MAX_DOCUMENTS {
        let finding = rules::too_many_documents::finding(&source.text, markers);
        return Checked {
            findings: options.selection.apply(vec![finding]),
            source,
            documents: None,
            blocked_by: Some(&rules::too_many_documents::RULE),
            canonical: None,
        };
    }
    let mut all: Vec<Finding> = Vec::new();

    for rule in rules::ALL {
        if let Check::Text(check) = rule.check {
            check(
                &TextContext {
                    raw,
                    source: &source,
                },
                &mut all,
            );
        }
    }

    let bom = if source.text.starts_with('\u{FEFF}') {
        3
    } else {
        0
    };
    // Canonical text takes the fast path, which builds the same tree.
    let fast = if bom == 0 && !options.general_path_only {
        crate::parse::fast::parse(&source.text)
    } else {
        None
    };
    let from_fast = fast.is_some();
    let mut tree = fast.unwrap_or_else(|| parse_tree(&source.text[bom..]));
    tree.shift(bom);
    for problem in &tree.problems {
        all.push(match problem {
            Problem::Syntax { span, message } => rules::yaml_syntax::finding(span.clone(), message),
            Problem::Anchor { span, name } => {
                rules::yaml_alias::anchor(span.clone(), name.as_deref())
            }
            Problem::Alias { span } => rules::yaml_alias::alias(span.clone()),
            Problem::Tag { span, tag } => rules::yaml_tag::finding(span.clone(), tag),
            Problem::TooDeep { span } => rules::nesting_too_deep::finding(span.clone()),
        });
    }
    // The parser has given every comment to its node; the rule (off by
    // default) reports where they are.
    for span in &tree.comments {
        all.push(rules::yaml_comment::finding(span.clone()));
    }

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
            if let Check::File(check) = rule.check {
                check(&ctx, &mut all);
            }
        }
        guard_path_fixes(docs, &mut all);
        if blocking(&all).is_none() {
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
                if !all.iter().any(|f| f.rule.fix == rules::FixKind::Format) {
                    all.push(rules::not_canonical::unexplained(&source.text, &text));
                }
            }
            canonical = Some(text);
        }
    }
    let blocked_by = blocking(&all);
    if blocked_by.is_some() {
        // Nothing in a file that cannot be rewritten gets fixed: say so.
        canonical = None;
        for finding in &mut all {
            finding.fix = None;
        }
    }
    let mut findings = options.selection.apply(all);
    findings.sort_by_key(|f| (f.span.start, f.span.end));
    Checked {
        source,
        documents,
        findings,
        blocked_by,
        canonical,
    }
}

/// A fix that rewrites a record's `_path` into the URL of another record
/// (`/ABC` lowercased beside an existing `/abc`, `/docs#x` beside `/docs`,
/// `/%7Ejoe` beside `/~joe`) would turn its finding into a
/// `duplicate-path`: such a fix is removed, the finding stays (unfixable,
/// saying why), and both records are left as they are for a person to
/// choose. Fixes are weighed in order, so two fixes that would meet are
/// caught too.
fn guard_path_fixes(docs: &[Document], findings: &mut [Finding]) {
    use crate::model::domain;
    use crate::model::path::equivalence_key;
    use std::collections::HashMap;
    // Most files have no fix that sets a value: nothing to weigh.
    let sets_a_value = |f: &Finding| {
        f.fix.as_ref().is_some_and(|fix| {
            fix.edits
                .iter()
                .any(|e| matches!(e, Edit::SetScalar { .. }))
        })
    };
    if !findings.iter().any(sets_a_value) {
        return;
    }
    let case_sensitive = domain::case_sensitive_paths(docs);
    // Each record's `_path` value (span, text) and the key of the URL it
    // will have once the kept fixes are applied; where each `_path` is;
    // how many records each key has.
    let mut records: Vec<(std::ops::Range<usize>, String, String)> = Vec::new();
    let mut by_place: HashMap<NodePath, usize> = HashMap::new();
    let mut by_key: HashMap<String, Vec<usize>> = HashMap::new();
    for record in domain::records(docs) {
        let Some((entry, path)) = record.path_field() else {
            continue;
        };
        let Some(at) = rules::entry_path(record.doc, record.entries, domain::PATH) else {
            continue;
        };
        let key = equivalence_key(path, case_sensitive).into_owned();
        by_place.insert(at, records.len());
        by_key.entry(key.clone()).or_default().push(records.len());
        records.push((entry.value.span.clone(), path.to_string(), key));
    }
    if records.len() < 2 {
        return;
    }
    for finding in findings.iter_mut() {
        let Some(fix) = &finding.fix else { continue };
        let new_path = fix.edits.iter().rev().find_map(|edit| match edit {
            Edit::SetScalar { at, value } => {
                by_place.get(at).map(|&i| (i, value.value.to_string()))
            }
            Edit::Remove { .. } => None,
        });
        let Some((mine, new_path)) = new_path else {
            continue;
        };
        let key = equivalence_key(&new_path, case_sensitive).into_owned();
        let other = by_key
            .get(&key)
            .and_then(|holders| holders.iter().find(|&&i| i != mine))
            .copied();
        match other {
            Some(other) => {
                let (span, other_path, _) = &records[other];
                let note = format!(
                    "not fixed by `--fix`: `{new_path}` would be the same URL as the record `{other_path}`; keep one of the two records"
                );
                finding.help = Some(match finding.help.take() {
                    Some(help) => format!("{help}; {note}"),
                    None => note,
                });
                finding
                    .labels
                    .push((span.clone(), "already this URL".to_string()));
                finding.fix = None;
            }
            None => {
                let old = std::mem::replace(&mut records[mine].2, key.clone());
                if let Some(holders) = by_key.get_mut(&old) {
                    holders.retain(|&i| i != mine);
                }
                by_key.entry(key).or_default().push(mine);
            }
        }
    }
}

fn blocking(findings: &[Finding]) -> Option<&'static Rule> {
    findings.iter().map(|f| f.rule).find(|r| r.blocks_rewrite)
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
        LineEnding::Auto => match text.find(['\n', '\r']) {
            Some(i) if text[i..].starts_with("\r\n") => "\r\n",
            _ => "\n",
        },
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
    let mut current = checked;
    let mut fixed = 0;
    for _ in 0..10 {
        if current.blocked_by.is_some() {
            break;
        }
        let Some(docs) = current.documents.clone() else {
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
        let docs = apply_edits(docs, edits);
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

/// Apply edits to the documents: scalar replacements first, then removals
/// from the last to the first so that indexes stay valid.
pub fn apply_edits(mut docs: Vec<Document>, mut edits: Vec<Edit>) -> Vec<Document> {
    edits.sort_by(|a, b| match (a, b) {
        (Edit::SetScalar { .. }, Edit::Remove { .. }) => std::cmp::Ordering::Less,
        (Edit::Remove { .. }, Edit::SetScalar { .. }) => std::cmp::Ordering::Greater,
        (Edit::Remove { at: x }, Edit::Remove { at: y }) => y.cmp(x),
        _ => std::cmp::Ordering::Equal,
    });
    edits.dedup_by(
        |a, b| matches!((a, b), (Edit::Remove { at: x }, Edit::Remove { at: y }) if x == y),
    );
    for edit in edits {
        match edit {
            Edit::SetScalar { at, value } => {
                if let Some(node) = node_mut(&mut docs, &at) {
                    node.value = Value::Scalar(value);
                }
            }
            Edit::Remove { at } => {
                let Some((&last, parent_steps)) = at.steps.split_last() else {
                    continue;
                };
                let parent = NodePath::new(at.doc, parent_steps);
                let mut orphans = Vec::new();
                if let Some(node) = node_mut(&mut docs, &parent) {
                    orphans = remove_child(node, last);
                }
                // The comments of what was removed are not lost: they go
                // to the entry or item that held it, written after it.
                if !orphans.is_empty() {
                    match crate::model::node::comments_at_mut(&mut docs, parent.doc, &parent.steps)
                    {
                        Some(comments) => comments.after.extend(orphans),
                        None => {
                            if let Some(first) = docs.first_mut() {
                                first.footer.extend(orphans);
                            }
                        }
                    }
                }
            }
        }
    }
    docs
}

/// Remove the entry or item `index` of `node`. Its comments go to the one
/// after it (before it), else the one before it (after it); those that
/// have neither are returned.
fn remove_child(node: &mut Node, index: usize) -> Vec<crate::model::node::Comment> {
    let lines = match &mut node.value {
        Value::Seq(items) if index < items.len() => items.remove(index).take_all_comments(),
        Value::Map(entries) if index < entries.len() => {
            let mut entry = entries.remove(index);
            let mut lines = entry.key.take_all_comments();
            lines.extend(entry.value.take_all_comments());
            lines
        }
        _ => Vec::new(),
    };
    if lines.is_empty() {
        return Vec::new();
    }
    let (next, previous) = match &mut node.value {
        Value::Seq(items) => {
            let len = items.len();
            let (before, after) = items.split_at_mut(index.min(len));
            (after.first_mut(), before.last_mut())
        }
        Value::Map(entries) => {
            let len = entries.len();
            let (before, after) = entries.split_at_mut(index.min(len));
            (
                after.first_mut().map(|e| &mut e.key),
                before.last_mut().map(|e| &mut e.key),
            )
        }
        Value::Scalar(_) => (None, None),
    };
    match (next, previous) {
        (Some(next), _) => {
            let comments = next.comments_mut();
            let mut moved = lines;
            moved.append(&mut comments.before);
            comments.before = moved;
            Vec::new()
        }
        (None, Some(previous)) => {
            previous.comments_mut().after.extend(lines);
            Vec::new()
        }
        (None, None) => lines,
    }
}

fn node_mut<'a>(docs: &'a mut [Document], at: &NodePath) -> Option<&'a mut Node> {
    crate::model::node::node_at_mut(docs, at.doc, &at.steps)
}

/// The cross-file facts of a file: its domain and cnames. Only the
/// metadata document is parsed.
pub fn facts(path: &Path, text: &str, checked: bool) -> FileFacts {
    let bom = if text.starts_with('\u{FEFF}') { 3 } else { 0 };
    let text = &text[bom..];
    let first_doc_end = second_document_start(text);
    let mut tree = parse_tree(&text[..first_doc_end]);
    tree.shift(bom);
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
    // An implicit first document (no leading `---`) is already open.
    let mut seen = usize::from(!text.starts_with("---"));
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.starts_with("---") && line[3..].chars().next().is_none_or(|c| c.is_whitespace()) {
            seen += 1;
            if seen == 2 {
                return offset;
            }
        }
        if line.starts_with("...") && line[3..].chars().next().is_none_or(|c| c.is_whitespace()) {
            return offset + line.len();
        }
        offset += line.len();
    }
    text.len()
}
