//! Code actions: a quick fix per fixable finding (one per code, line and
//! fix, for all the findings it fixes), "ignore `code` here" per code and
//! line (none for a gate finding, which nothing excuses), and "fix all"
//! (`docs/editors.md`, "Code actions").
//!
//! An action's edit is the whole buffer again (a fix rendered, or a
//! suppression comment checked against the whole buffer), so building
//! every edit of a request would cost a check of the buffer per finding.
//! The work per request is bounded instead: a client that can resolve an
//! action's `edit` (`codeAction/resolve`) gets the actions without edits,
//! each edit built when the client resolves that action ([`resolve`]);
//! any other client gets the actions of the first [`EAGER_EDITS`] edits,
//! in file order. Either list holds at most [`MAX_ACTIONS`] actions, and
//! one "ignore" per code and line. Between units of work the request's
//! cancellation is looked at ([`Interrupted`]).

use std::collections::HashMap;

use lsp_types::{CodeAction, CodeActionKind, CodeActionOrCommand, Uri, WorkspaceEdit};
use serde_json::{Value, json};

use crate::diagnostics::diagnostic;
use crate::position::{Positions, replace_all};
use urldb_core::lint::{self, Checked, Options};
use urldb_core::model::node::Document;
use urldb_core::rules::diagnostic::Finding;
use urldb_core::source::Source;

/// The code action kind of "fix all".
pub(crate) const FIX_ALL: &str = "source.fixAll.urldb";

/// Most actions one request lists (per finding; "fix all" besides): an
/// editor's menu, not the file's findings.
pub(crate) const MAX_ACTIONS: usize = 100;

/// Most edits one request builds for a client that cannot resolve them.
pub(crate) const EAGER_EDITS: usize = 8;

/// The request was cancelled while it was worked on.
#[derive(Debug)]
pub(crate) struct Interrupted;

/// Why an action cannot be resolved.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ResolveError {
    #[error("the code action carries no urldb data")]
    NoData,
    #[error("the document changed since the code action was offered")]
    Stale,
    #[error("the finding is no longer there")]
    Gone,
    #[error("{0}")]
    NoEdit(&'static str),
}

/// What one request works on: a buffer checked with its tree.
pub(crate) struct Request<'a> {
    pub checked: &'a Checked,
    pub options: &'a Options,
    pub uri: &'a Uri,
    pub pos: &'a Positions<'a>,
    /// The buffer's version, carried in a lazy action's data.
    pub version: i32,
    /// The client resolves edits (`codeAction/resolve`).
    pub lazy: bool,
    pub cancelled: &'a dyn Fn() -> bool,
}

impl Request<'_> {
    // `WorkspaceEdit::changes` is keyed by `Uri`, whose cache cell clippy
    // mistakes for a mutable key; the map holds one entry and is never
    // looked up.
    #[allow(clippy::mutable_key_type)]
    fn edit(&self, text: String) -> WorkspaceEdit {
        let mut changes = HashMap::new();
        changes.insert(self.uri.clone(), vec![replace_all(self.pos, text)]);
        WorkspaceEdit {
            changes: Some(changes),
            ..WorkspaceEdit::default()
        }
    }

    fn data(&self, action: &str, finding: Option<&Finding>) -> Value {
        json!({
            "urldb": action,
            "uri": self.uri.as_str(),
            "version": self.version,
            "code": finding.map(|f| f.rule.code),
            "at": finding.map(|f| f.span.start),
        })
    }

    fn interrupted(&self) -> Result<(), Interrupted> {
        if (self.cancelled)() {
            Err(Interrupted)
        } else {
            Ok(())
        }
    }
}

/// The actions for the findings overlapping `range` (bytes), filtered by
/// the kinds the client asked for (`only`).
pub(crate) fn list(
    req: &Request,
    range: std::ops::Range<usize>,
    only: Option<&[CodeActionKind]>,
) -> Result<Vec<CodeActionOrCommand>, Interrupted> {
    let wanted = |kind: &CodeActionKind| {
        only.is_none_or(|only| {
            only.iter().any(|o| {
                kind.as_str() == o.as_str()
                    || kind.as_str().starts_with(&format!("{}.", o.as_str()))
            })
        })
    };
    let checked = req.checked;
    let mut actions: Vec<CodeAction> = Vec::new();
    if wanted(&CodeActionKind::QUICKFIX) {
        per_finding(req, range, &mut actions)?;
    }
    let fix_all = CodeActionKind::from(FIX_ALL);
    if wanted(&fix_all) && checked.findings.iter().any(Finding::fixable) {
        req.interrupted()?;
        let mut action = CodeAction {
            title: "Fix all safely fixable urldb findings".to_string(),
            kind: Some(fix_all),
            ..CodeAction::default()
        };
        if req.lazy {
            action.data = Some(req.data("fix-all", None));
            actions.push(action);
        } else if let Some(text) = lint::fix(clone_checked(checked), req.options).text {
            action.edit = Some(req.edit(text));
            actions.push(action);
        }
    }
    Ok(actions
        .into_iter()
        .map(CodeActionOrCommand::CodeAction)
        .collect())
}

/// For each finding overlapping `range`, in file order: its quick fix, when
/// it has a safe one, and "ignore `code` here" (`docs/suppressions.md`),
/// one per code and line, which excuses each finding of that code on the
/// line. Stops at [`MAX_ACTIONS`], or at [`EAGER_EDITS`] edits built.
fn per_finding(
    req: &Request,
    range: std::ops::Range<usize>,
    actions: &mut Vec<CodeAction>,
) -> Result<(), Interrupted> {
    let checked = req.checked;
    let mut eager_left = EAGER_EDITS;
    // The buffer checked alone, at most once for the request: `checked`
    // holds the cross-file findings too, which no directive's re-check
    // finds.
    let mut alone = None;
    let mut ignores: HashMap<(&str, usize), usize> = HashMap::new();
    // One quick fix per code, line and title: two findings of one rule on
    // one line (two escapes of one `_path`) are one action that fixes both.
    let mut fixes: HashMap<(&str, usize, &str), usize> = HashMap::new();
    let touching = checked
        .findings
        .iter()
        .filter(|f| f.span.start <= range.end && range.start <= f.span.end);
    for f in touching {
        let (line, _) = req.pos.line_of(f.span.start);
        let fixable = f
            .fix
            .as_ref()
            .filter(|_| f.fixable())
            .zip(checked.documents.parsed());
        let same = fixable.and_then(|(fix, _)| fixes.get(&(f.rule.code, line, fix.title.as_str())));
        if let Some(&i) = same {
            // That action's edit holds this fix too ([`fixes_like`]).
            if let Some(list) = &mut actions[i].diagnostics {
                list.push(diagnostic(f, req.uri, req.pos));
            }
        } else if let Some((fix, docs)) = fixable {
            if full(req, actions, eager_left) {
                break;
            }
            req.interrupted()?;
            let mut action = CodeAction {
                title: format!("{} ({})", capitalize(&fix.title), f.rule.code),
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![diagnostic(f, req.uri, req.pos)]),
                is_preferred: Some(true),
                ..CodeAction::default()
            };
            let built = if req.lazy {
                action.data = Some(req.data("fix", Some(f)));
                true
            } else {
                eager_left -= 1;
                fixed_one(checked, docs, &fixes_like(req, f), req.options)
                    .map(|text| action.edit = Some(req.edit(text)))
                    .is_some()
            };
            if built {
                fixes.insert((f.rule.code, line, fix.title.as_str()), actions.len());
                actions.push(action);
            }
        }
        // Nothing excuses a gate finding (`docs/suppressions.md`): no
        // "ignore" is offered that could only fail.
        if f.rule.code == urldb_core::rules::UNUSED_SUPPRESSION.code || f.gate {
            continue;
        }
        if let Some(&i) = ignores.get(&(f.rule.code, line)) {
            if let Some(list) = &mut actions[i].diagnostics {
                list.push(diagnostic(f, req.uri, req.pos));
            }
            continue;
        }
        if full(req, actions, eager_left) {
            break;
        }
        req.interrupted()?;
        let mut action = CodeAction {
            title: format!("Ignore `{}` here", f.rule.code),
            kind: Some(CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![diagnostic(f, req.uri, req.pos)]),
            ..CodeAction::default()
        };
        if req.lazy {
            action.data = Some(req.data("ignore", Some(f)));
        } else {
            eager_left -= 1;
            let before = alone.get_or_insert_with(|| alone_check(checked, req.options));
            req.interrupted()?;
            let Some(text) =
                urldb_core::lint::ignore_here(before, f.span.start, f.rule.code, req.options)
            else {
                continue;
            };
            action.edit = Some(req.edit(text));
        }
        ignores.insert((f.rule.code, line), actions.len());
        actions.push(action);
    }
    Ok(())
}

/// No more actions for this request.
fn full(req: &Request, actions: &[CodeAction], eager_left: usize) -> bool {
    actions.len() >= MAX_ACTIONS || (!req.lazy && eager_left == 0)
}

/// What a lazy action's data names: the document and its version.
pub(crate) fn target(action: &CodeAction) -> Option<(Uri, i32)> {
    let data = action.data.as_ref()?;
    let uri = data.get("uri")?.as_str()?.parse().ok()?;
    let version = i32::try_from(data.get("version")?.as_i64()?).ok()?;
    Some((uri, version))
}

/// `action` with its edit, built on the buffer `req` holds (whose version
/// [`target`] named).
pub(crate) fn resolve(req: &Request, mut action: CodeAction) -> Result<CodeAction, ResolveError> {
    let data = action.data.as_ref().ok_or(ResolveError::NoData)?;
    let what = data
        .get("urldb")
        .and_then(Value::as_str)
        .ok_or(ResolveError::NoData)?;
    if target(&action).is_none_or(|(_, version)| version != req.version) {
        return Err(ResolveError::Stale);
    }
    let checked = req.checked;
    let finding = || {
        let code = data.get("code").and_then(Value::as_str);
        let at = data
            .get("at")
            .and_then(Value::as_u64)
            .and_then(|n| usize::try_from(n).ok());
        checked
            .findings
            .iter()
            .find(|f| Some(f.rule.code) == code && Some(f.span.start) == at)
            .ok_or(ResolveError::Gone)
    };
    let text = match what {
        "fix" => {
            let f = finding()?;
            if f.fix.is_none() {
                return Err(ResolveError::Gone);
            }
            let docs = checked.documents.parsed().ok_or(ResolveError::Gone)?;
            fixed_one(checked, docs, &fixes_like(req, f), req.options)
                .ok_or(ResolveError::NoEdit("the fix changes nothing"))?
        }
        "ignore" => {
            let f = finding()?;
            let before = alone_check(checked, req.options);
            urldb_core::lint::ignore_here(&before, f.span.start, f.rule.code, req.options).ok_or(
                ResolveError::NoEdit("no suppression comment here would excuse the finding"),
            )?
        }
        "fix-all" => lint::fix(clone_checked(checked), req.options)
            .text
            .ok_or(ResolveError::NoEdit("nothing to fix"))?,
        _ => return Err(ResolveError::NoData),
    };
    action.edit = Some(req.edit(text));
    Ok(action)
}

/// The buffer checked alone, without the cross-file findings.
fn alone_check(checked: &Checked, options: &Options) -> Checked {
    lint::check_bytes(
        &checked.source.path,
        checked.source.text.as_bytes(),
        options,
    )
}

/// The fixes one action applies: `f`'s, and those of the other fixable
/// findings of its code on its line with the same title (the action
/// stands for them all).
fn fixes_like<'c>(
    req: &Request<'c>,
    f: &'c Finding,
) -> Vec<&'c urldb_core::rules::diagnostic::Fix> {
    let (line, _) = req.pos.line_of(f.span.start);
    let title = f.fix.as_ref().map(|fix| fix.title.as_str());
    req.checked
        .findings
        .iter()
        .filter(|g| g.rule.code == f.rule.code && g.fixable())
        .filter(|g| req.pos.line_of(g.span.start).0 == line)
        .filter_map(|g| g.fix.as_ref())
        .filter(|fix| Some(fix.title.as_str()) == title)
        .collect()
}

/// The text after an action's fixes: their edits applied to the tree,
/// then the canonical text rendered (a fix without edits is a layout fix,
/// which the rendering itself makes).
fn fixed_one(
    checked: &Checked,
    docs: &[Document],
    fixes: &[&urldb_core::rules::diagnostic::Fix],
    options: &Options,
) -> Option<String> {
    let edits = fixes
        .iter()
        .flat_map(|fix| fix.edits.iter().cloned())
        .collect();
    let docs = urldb_core::fix::apply_edits(docs.to_vec(), edits);
    let text = urldb_core::render::render(
        &docs,
        &lint::render_options(&checked.source.text, &docs, options),
    );
    (text != checked.source.text).then_some(text)
}

fn clone_checked(checked: &Checked) -> Checked {
    Checked {
        source: Source::new(&checked.source.path, checked.source.text.clone()),
        documents: checked.documents.clone(),
        findings: checked.findings.clone(),
        suppressed: checked.suppressed.clone(),
        blocked_by: checked.blocked_by,
        canonical: checked.canonical.clone(),
    }
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
