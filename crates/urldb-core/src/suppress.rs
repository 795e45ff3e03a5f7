//! Exceptions where they belong: suppression comments
//! (`# urldb: ignore[rule-code, …]`, `# urldb: ignore-file[rule-code]`) and
//! `[lint.per-file-ignores]`. `docs/suppressions.md` is the user's page.
//!
//! Suppression is applied in one place, [`crate::lint::check_bytes`],
//! after every rule has run and the selection has kept the enabled
//! findings, before anything is reported, cached or fixed: a suppressed
//! finding is moved to [`crate::lint::Checked::suppressed`] (SARIF shows
//! it as suppressed; no other format counts it). Cross-file findings are
//! matched against the same directives by `urldb-store`
//! ([`Directives::of_text`]).
//!
//! Where a directive applies comes from the model, so that it moves with
//! what it excuses when `fmt` sorts:
//!
//! - at the end of a line (a trailing comment), the findings that start on
//!   that line;
//! - alone on its line(s), the whole entry, list item or record (document)
//!   the parser gave the comment to: the one that follows it;
//! - `ignore-file`, anywhere, the whole file.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

use globset::{Glob, GlobMatcher};

use crate::model::node::{Comments, Document, Node, Value};
use crate::rules::diagnostic::{Edit, Finding};
use crate::rules::{self, Check, Rule, unused_suppression};
use crate::selection::Selection;
use crate::source::Span;

/// The marker every directive starts with, after `#` and spaces.
const MARKER: &str = "urldb:";

/// What a directive excuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `ignore` at the end of a line: that line.
    Line,
    /// `ignore` alone on its line: the entry, item or record after it.
    Owner,
    /// `ignore-file`: the whole file.
    File,
}

/// One code named in a directive, and where its text is in the file.
#[derive(Debug, Clone)]
pub struct Code {
    pub text: String,
    pub span: Span,
    pub rule: Option<&'static Rule>,
}

/// One suppression comment.
#[derive(Debug, Clone)]
pub struct Directive {
    /// The whole comment (`#` to the end of its line).
    pub comment: Span,
    pub kind: Kind,
    pub codes: Vec<Code>,
    /// The bytes it excuses (a finding starting here, inclusive of the
    /// end); `None` when it stands before nothing.
    pub scope: Option<Span>,
    /// Why it is not a directive urldb can read, if so.
    pub malformed: Option<String>,
    /// The comment's text before the directive (a note, or empty) and
    /// after its `]` (a reason): kept when the directive is rewritten.
    pub note: String,
    pub reason: String,
}

/// A comment's directive, parsed: `Ok((file, codes with their offsets in
/// the comment))`, or why it is malformed. `None`: not a directive.
#[allow(clippy::type_complexity)]
pub fn parse_comment(
    comment: &str,
) -> Option<(usize, Result<(bool, Vec<(String, Span)>), String>)> {
    // The directive may start the comment or follow a note after another `#`.
    let mut search = 0;
    let (hash, rest) = loop {
        let hash = search + comment[search..].find('#')?;
        let after = &comment[hash + 1..];
        let trimmed = after.trim_start_matches([' ', '\t']);
        if let Some(rest) = trimmed.strip_prefix(MARKER) {
            let word = rest.trim_start_matches([' ', '\t']);
            if word.starts_with("ignore") {
                break (hash, word);
            }
        }
        search = hash + 1;
    };
    let base = comment.len() - rest.len();
    let (file, after_word) = if let Some(r) = rest.strip_prefix("ignore-file") {
        (true, r)
    } else if let Some(r) = rest.strip_prefix("ignore") {
        (false, r)
    } else {
        return None;
    };
    let word = if file { "ignore-file" } else { "ignore" };
    let Some(inside) = after_word.strip_prefix('[') else {
        return Some((
            hash,
            Err(format!(
                "`# urldb: {word}` must name the rules it excuses: `# urldb: {word}[rule-code]`"
            )),
        ));
    };
    let Some(close) = inside.find(']') else {
        return Some((hash, Err(format!("`# urldb: {word}[` has no closing `]`"))));
    };
    let list_start = base + word.len() + 1;
    let mut codes = Vec::new();
    let mut offset = list_start;
    for part in inside[..close].split(',') {
        let lead = part.len() - part.trim_start().len();
        let code = part.trim();
        if !code.is_empty() {
            let start = offset + lead;
            codes.push((code.to_string(), start..start + code.len()));
        }
        offset += part.len() + 1;
    }
    if codes.is_empty() {
        return Some((
            hash,
            Err(format!(
                "`# urldb: {word}[]` names no rule: write `# urldb: {word}[rule-code]`"
            )),
        ));
    }
    Some((hash, Ok((file, codes))))
}

/// The comment's text is a suppression directive (well formed or not):
/// `yaml-comment` does not report it.
pub fn is_directive(comment: &str) -> bool {
    parse_comment(comment).is_some()
}

/// The directives of one file.
#[derive(Debug, Clone, Default)]
pub struct Directives {
    pub list: Vec<Directive>,
}

impl Directives {
    /// The directives among `comments` (spans in `text`), with the scopes
    /// the model `documents` gives them (none for a comment alone on its
    /// line when the file did not parse).
    pub fn new(text: &str, comments: &[Span], documents: Option<&[Document]>) -> Directives {
        let mut list = Vec::new();
        let mut owners: Option<Vec<(usize, Span)>> = None;
        for span in comments {
            let Some(comment) = text.get(span.clone()) else {
                continue;
            };
            let Some((at, parsed)) = parse_comment(comment) else {
                continue;
            };
            let line_start = text[..span.start].rfind(['\n', '\r']).map_or(0, |i| i + 1);
            let alone = text[line_start..span.start]
                .bytes()
                .all(|b| b == b' ' || b == b'\t');
            let note = comment[..at].to_string();
            let reason = match &parsed {
                Ok(_) => comment
                    .get(at..)
                    .and_then(|d| d.find(']').map(|i| d[i + 1..].to_string()))
                    .unwrap_or_default(),
                Err(_) => String::new(),
            };
            let (kind, codes, malformed) = match parsed {
                Ok((file, codes)) => {
                    let kind = if file {
                        Kind::File
                    } else if alone {
                        Kind::Owner
                    } else {
                        Kind::Line
                    };
                    let codes = codes
                        .into_iter()
                        .map(|(code, within)| Code {
                            rule: rules::by_code(&code),
                            text: code,
                            span: span.start + within.start..span.start + within.end,
                        })
                        .collect();
                    (kind, codes, None)
                }
                Err(why) => (Kind::Line, Vec::new(), Some(why)),
            };
            let scope = match kind {
                Kind::File => Some(0..text.len()),
                Kind::Line => Some(line_start..span.end),
                Kind::Owner => documents.and_then(|docs| {
                    let owners = owners.get_or_insert_with(|| owner_scopes(docs));
                    owners
                        .iter()
                        .find(|(start, _)| *start == span.start)
                        .map(|(_, scope)| span.start..scope.end.max(span.end))
                }),
            };
            list.push(Directive {
                comment: span.clone(),
                kind,
                codes,
                scope,
                malformed,
                note,
                reason,
            });
        }
        Directives { list }
    }

    /// The directives of a file's text, parsed again (for cross-file
    /// findings, whose files' trees are long gone).
    pub fn of_text(text: &str) -> Directives {
        if memchr::memchr(b'#', text.as_bytes()).is_none() {
            return Directives::default();
        }
        let bom = if text.starts_with('\u{FEFF}') { 3 } else { 0 };
        let mut tree = crate::parse::tree::parse_tree(&text[bom..]);
        tree.shift(bom);
        let docs = (!tree.incomplete).then_some(tree.documents.as_slice());
        Directives::new(text, &tree.comments, docs)
    }

    /// The directive and code that excuse `finding`, if any.
    fn excuse(&self, finding: &Finding) -> Option<(usize, usize)> {
        let at = finding.span.start;
        self.list.iter().enumerate().find_map(|(d, directive)| {
            let scope = directive.scope.as_ref()?;
            if at < scope.start || at > scope.end {
                return None;
            }
            let c = directive
                .codes
                .iter()
                .position(|c| c.rule.is_some_and(|r| std::ptr::eq(r, finding.rule)))?;
            Some((d, c))
        })
    }

    /// `finding` is excused by one of these directives.
    pub fn suppresses(&self, finding: &Finding) -> bool {
        self.excuse(finding).is_some()
    }

    /// Move the findings the directives excuse from `findings` to the
    /// returned list; then report what the directives themselves got
    /// wrong (`unused-suppression`) in `findings`, when `report_unused`.
    pub fn apply(
        &self,
        findings: &mut Vec<Finding>,
        selection: &Selection,
        report_unused: bool,
    ) -> Vec<Finding> {
        if self.list.is_empty() {
            return Vec::new();
        }
        let mut used: BTreeSet<(usize, usize)> = BTreeSet::new();
        let mut suppressed = Vec::new();
        let mut kept = Vec::with_capacity(findings.len());
        for finding in findings.drain(..) {
            match self.excuse(&finding) {
                Some(hit) => {
                    used.insert(hit);
                    suppressed.push(finding);
                }
                None => kept.push(finding),
            }
        }
        *findings = kept;
        if report_unused && selection.is_enabled(unused_suppression::RULE.code) {
            let mut problems = Vec::new();
            for (d, directive) in self.list.iter().enumerate() {
                problems.extend(self.problems(d, directive, &used, selection));
            }
            // A directive may excuse `unused-suppression` itself.
            for problem in problems {
                if self.excuse(&problem).is_none() {
                    findings.push(problem);
                }
            }
        }
        suppressed
    }

    /// The `unused-suppression` findings of one directive.
    fn problems(
        &self,
        d: usize,
        directive: &Directive,
        used: &BTreeSet<(usize, usize)>,
        selection: &Selection,
    ) -> Vec<Finding> {
        let mut out = Vec::new();
        if let Some(why) = &directive.malformed {
            out.push(unused_suppression::malformed(
                directive.comment.clone(),
                why,
            ));
            return out;
        }
        let mut unused = Vec::new();
        let mut seen = BTreeSet::new();
        for (c, code) in directive.codes.iter().enumerate() {
            let Some(rule) = code.rule else {
                out.push(unused_suppression::unknown(code.span.clone(), &code.text));
                continue;
            };
            if !seen.insert(rule.code) {
                unused.push((c, "named twice"));
                continue;
            }
            // A cross-file rule's findings come later (`urldb-store`):
            // whether its suppression is used is not known here.
            if matches!(rule.check, Check::Database(_)) {
                continue;
            }
            if rule.code == unused_suppression::RULE.code {
                continue;
            }
            if !selection.is_enabled(rule.code) {
                unused.push((c, "not enabled"));
            } else if directive.scope.is_none() {
                unused.push((c, "stands before nothing"));
            } else if !used.contains(&(d, c)) {
                unused.push((c, "nothing to excuse"));
            }
        }
        if unused.is_empty() {
            return out;
        }
        let names: Vec<String> = unused
            .iter()
            .map(|(c, why)| format!("`{}` ({why})", directive.codes[*c].text))
            .collect();
        let drop: BTreeSet<usize> = unused.iter().map(|(c, _)| *c).collect();
        let rest: Vec<&str> = directive
            .codes
            .iter()
            .enumerate()
            .filter(|(c, _)| !drop.contains(c))
            .map(|(_, code)| code.text.as_str())
            .collect();
        let edit = Edit::Comment {
            span: directive.comment.clone(),
            text: rewritten(directive, &rest),
        };
        out.push(unused_suppression::unused(
            directive.comment.clone(),
            &names.join(", "),
            edit,
        ));
        out
    }
}

/// The text a directive's comment is rewritten to: the directive with
/// only the codes in `rest` (its note and reason kept), or, when none is
/// left, the note alone, or no comment at all (`None`).
fn rewritten(directive: &Directive, rest: &[&str]) -> Option<String> {
    let word = if directive.kind == Kind::File {
        "ignore-file"
    } else {
        "ignore"
    };
    if rest.is_empty() {
        let note = directive.note.trim_end();
        return (!note.is_empty()).then(|| note.to_string());
    }
    Some(format!(
        "{}# urldb: {word}[{}]{}",
        directive.note,
        rest.join(", "),
        directive.reason
    ))
}

/// Where every comment alone on its line belongs: the start of the
/// comment and the span of its owner (an entry from its key to the end of
/// its value, an item, a document).
fn owner_scopes(documents: &[Document]) -> Vec<(usize, Span)> {
    fn before(comments: &Comments, scope: &Span, out: &mut Vec<(usize, Span)>) {
        for c in &comments.before {
            out.push((c.span.start, scope.clone()));
        }
    }
    fn node(n: &Node, out: &mut Vec<(usize, Span)>) {
        match &n.value {
            Value::Scalar(_) => {}
            Value::Seq(items) => {
                for item in items {
                    if let Some(c) = &item.comments {
                        before(c, &item.span, out);
                    }
                    node(item, out);
                }
            }
            Value::Map(entries) => {
                for e in entries {
                    if let Some(c) = &e.key.comments {
                        before(c, &(e.key.span.start..e.value.span.end), out);
                    }
                    node(&e.value, out);
                }
            }
        }
    }
    let mut out = Vec::new();
    for doc in documents {
        before(&doc.comments, &doc.span, &mut out);
        if let Some(root) = &doc.root {
            node(root, &mut out);
        }
    }
    out
}

/// `[lint.per-file-ignores]`: globs relative to the database root, each
/// with the rule codes it turns off in the files it matches.
#[derive(Debug, Clone, Default)]
pub struct PerFileIgnores {
    /// The database root as given and as resolved: a file's path is made
    /// relative to either.
    pub root: Option<(PathBuf, PathBuf)>,
    pub entries: Vec<(GlobMatcher, Vec<&'static str>)>,
}

/// A `[lint.per-file-ignores]` glob that does not compile, or a code no
/// rule has.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadPerFileIgnore {
    #[error("lint.per-file-ignores: invalid glob `{glob}`: {message}")]
    Glob { glob: String, message: String },
    #[error("lint.per-file-ignores: {0}")]
    Rule(#[from] crate::selection::UnknownRule),
}

impl PerFileIgnores {
    /// Compile the table (globs in the order written; `ALL` for every rule).
    pub fn new<'a>(
        table: impl IntoIterator<Item = (&'a String, &'a Vec<String>)>,
    ) -> Result<PerFileIgnores, BadPerFileIgnore> {
        let mut entries = Vec::new();
        for (glob, codes) in table {
            let matcher = Glob::new(glob)
                .map_err(|e| BadPerFileIgnore::Glob {
                    glob: glob.clone(),
                    message: e.kind().to_string(),
                })?
                .compile_matcher();
            entries.push((matcher, crate::selection::codes(codes)?));
        }
        Ok(PerFileIgnores {
            root: None,
            entries,
        })
    }

    /// The rule codes turned off for the file at `path` (as shown).
    pub fn codes_for(&self, path: &Path) -> BTreeSet<&'static str> {
        let mut out = BTreeSet::new();
        if self.entries.is_empty() {
            return out;
        }
        let rel = self.relative(path);
        for (glob, codes) in &self.entries {
            if glob.is_match(&rel) {
                out.extend(codes.iter().copied());
            }
        }
        out
    }

    /// `path` relative to the root, `/`-separated: lexically (the core
    /// reads no file system), from the root as given or as resolved.
    fn relative(&self, path: &Path) -> PathBuf {
        let plain = |p: &Path| -> PathBuf {
            p.components()
                .filter(|c| !matches!(c, Component::CurDir))
                .collect()
        };
        let path = plain(path);
        if let Some((given, resolved)) = &self.root {
            for root in [plain(given), plain(resolved)] {
                if let Ok(rel) = path.strip_prefix(&root) {
                    return rel.to_path_buf();
                }
            }
        }
        path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_spelling() {
        let (at, parsed) =
            parse_comment("# urldb: ignore[path-case, yaml-tag]").expect("directive");
        assert_eq!(at, 0);
        let (file, codes) = parsed.expect("well formed");
        assert!(!file);
        let names: Vec<&str> = codes.iter().map(|(c, _)| c.as_str()).collect();
        assert_eq!(names, ["path-case", "yaml-tag"]);
        let text = "# urldb: ignore[path-case, yaml-tag]";
        assert_eq!(&text[codes[1].1.clone()], "yaml-tag");
        let (_, parsed) = parse_comment("# urldb: ignore-file[path-case]").expect("directive");
        assert!(parsed.expect("well formed").0);
        let (at, _) =
            parse_comment("# kept for 2019 # urldb: ignore[path-case]").expect("after a note");
        assert_eq!(at, 16);
        assert!(
            parse_comment("# urldb: ignore")
                .expect("directive")
                .1
                .is_err()
        );
        assert!(
            parse_comment("# urldb: ignore[]")
                .expect("directive")
                .1
                .is_err()
        );
        assert!(parse_comment("# urldb is great").is_none());
        assert!(parse_comment("# a note").is_none());
    }

    #[test]
    fn per_file_paths_are_relative_to_the_root() {
        let table = [("legacy/*.yaml".to_string(), vec!["path-case".to_string()])];
        let mut ignores = PerFileIgnores::new(table.iter().map(|(g, c)| (g, c))).expect("compiles");
        ignores.root = Some((PathBuf::from("db"), PathBuf::from("/abs/db")));
        assert!(
            ignores
                .codes_for(Path::new("db/legacy/a.com.yaml"))
                .contains("path-case")
        );
        assert!(
            ignores
                .codes_for(Path::new("/abs/db/legacy/a.com.yaml"))
                .contains("path-case")
        );
        assert!(ignores.codes_for(Path::new("db/a.com.yaml")).is_empty());
    }
}

/// What `check --add-suppressions` made of one file.
#[derive(Debug, Default)]
pub struct Added {
    /// The new text, when it differs.
    pub text: Option<String>,
    /// How many findings the new suppressions excuse.
    pub suppressed: usize,
}

/// `check --add-suppressions` on one file: a suppression for every
/// finding that `check --fix` cannot repair (`cross_file`: the file's
/// cross-file findings, found elsewhere). Each goes before the record
/// that holds the finding, anything else in an `ignore-file` directive at
/// the top; the text is written by the renderer, so `fmt` leaves it as it
/// is. A file that cannot be rewritten gets the `ignore-file` line only,
/// put before its first byte (after a byte order mark).
pub fn add(
    path: &Path,
    raw: &[u8],
    options: &crate::lint::Options,
    cross_file: &[Finding],
) -> Added {
    let checked = crate::lint::check_bytes(path, raw, options);
    // What a directive is written for: what `check --fix` cannot repair.
    let wanted = |f: &&Finding| !f.fixable() && f.rule.code != unused_suppression::RULE.code;
    let todo: Vec<(usize, &'static str)> = checked
        .findings
        .iter()
        .chain(cross_file)
        .filter(wanted)
        .map(|f| (f.span.start, f.rule.code))
        .collect();
    // Text that is not UTF-8 is never rewritten: its bytes would change.
    if todo.is_empty() || std::str::from_utf8(raw).is_err() {
        return Added::default();
    }
    let (Some(mut docs), None) = (
        checked.documents.parsed().map(<[_]>::to_vec),
        checked.blocked_by,
    ) else {
        return Added {
            text: Some(prepended(&checked.source.text, &todo)),
            suppressed: todo.len(),
        };
    };
    let mut file_codes: Vec<&'static str> = Vec::new();
    for &(at, code) in &todo {
        let doc = docs
            .iter()
            .rposition(|d| d.span.start <= at && at <= d.span.end);
        match doc {
            Some(d) => {
                let start = docs[d].span.start;
                add_code(&mut docs[d].comments.before, code, false, start);
            }
            None => file_codes.push(code),
        }
    }
    let render = |docs: &[Document]| {
        crate::render::render(
            docs,
            &crate::lint::render_options(&checked.source.text, docs, options),
        )
    };
    let mut text = render(&docs);
    // What a record's directive could not reach (a finding the renderer
    // moves out of its record) goes to the file's directive: once more.
    for _ in 0..2 {
        // A file checked alone finds no cross-file finding: what is left
        // is its own.
        let again = crate::lint::check_bytes(path, text.as_bytes(), options);
        let left: Vec<&'static str> = again
            .findings
            .iter()
            .filter(wanted)
            .map(|f| f.rule.code)
            .collect();
        if left.is_empty() && file_codes.is_empty() {
            break;
        }
        file_codes.extend(left);
        if let Some(first) = docs.first_mut() {
            let at = first.span.start;
            for code in file_codes.drain(..) {
                add_code(&mut first.comments.before, code, true, at);
            }
        }
        text = render(&docs);
    }
    Added {
        suppressed: todo.len(),
        text: (text != checked.source.text).then_some(text),
    }
}

/// Add `code` to the directive (`ignore`, or `ignore-file` when `file`)
/// among `comments`, or a new one after them.
fn add_code(comments: &mut Vec<crate::model::node::Comment>, code: &str, file: bool, at: usize) {
    let word = if file { "ignore-file" } else { "ignore" };
    for comment in comments.iter_mut() {
        let Some((0, Ok((is_file, codes)))) = parse_comment(&comment.text) else {
            continue;
        };
        if is_file != file {
            continue;
        }
        let mut names: Vec<String> = codes.into_iter().map(|(c, _)| c).collect();
        if !names.iter().any(|c| c == code) {
            names.push(code.to_string());
        }
        comment.text = format!("# urldb: {word}[{}]", names.join(", "));
        return;
    }
    let new = crate::model::node::Comment {
        text: format!("# urldb: {word}[{code}]"),
        span: at..at,
    };
    if file {
        comments.insert(0, new);
    } else {
        comments.push(new);
    }
}

/// `text` with an `ignore-file` line for `todo`'s codes before it.
fn prepended(text: &str, todo: &[(usize, &'static str)]) -> String {
    let mut codes: Vec<&str> = todo.iter().map(|(_, c)| *c).collect();
    codes.sort_unstable();
    codes.dedup();
    let newline = crate::lint::newline_of(text);
    let bom = if text.starts_with('\u{FEFF}') { 3 } else { 0 };
    format!(
        "{}# urldb: ignore-file[{}]{newline}{}",
        &text[..bom],
        codes.join(", "),
        &text[bom..]
    )
}

/// The language server's "ignore this finding here": `text` with `code`
/// excused on the line where `at` is (added to the directive ending that
/// line, or a new one after the line's note or code), or, when that would
/// change what the file means (the line ends inside a block scalar), in a
/// directive before the record. Each candidate is checked again: the
/// finding must be excused and the documents unchanged. `None` when
/// neither works. `before` is the file checked alone (`lint::check_bytes`,
/// no cross-file finding): asked once for every finding of a request.
pub fn ignore_here(
    before: &crate::lint::Checked,
    at: usize,
    code: &'static str,
    options: &crate::lint::Options,
) -> Option<String> {
    let (path, text) = (&before.source.path, before.source.text.as_str());
    let at = at.min(text.len());
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[at..].find(['\n', '\r']).map_or(text.len(), |i| at + i);
    let directives = Directives::of_text(text);
    let on_line = directives
        .list
        .iter()
        .find(|d| d.kind == Kind::Line && (line_start..=line_end).contains(&d.comment.start));
    let mut candidates = Vec::new();
    match on_line {
        Some(d) => {
            let mut codes: Vec<&str> = d.codes.iter().map(|c| c.text.as_str()).collect();
            codes.push(code);
            let new = rewritten(d, &codes).unwrap_or_default();
            candidates.push(format!(
                "{}{new}{}",
                &text[..d.comment.start],
                &text[d.comment.end..]
            ));
        }
        None => candidates.push(format!(
            "{} # urldb: ignore[{code}]{}",
            &text[..line_end],
            &text[line_end..]
        )),
    }
    if let Some(docs) = before.documents.parsed()
        && let Some(doc) = docs
            .iter()
            .rev()
            .find(|d| d.explicit_start && d.span.start <= at)
    {
        let start = doc.span.start;
        let newline = if text[start..].contains("\r\n") {
            "\r\n"
        } else {
            "\n"
        };
        candidates.push(format!(
            "{}# urldb: ignore[{code}]{newline}{}",
            &text[..start],
            &text[start..]
        ));
    }
    let count =
        |c: &crate::lint::Checked| c.findings.iter().filter(|f| f.rule.code == code).count();
    candidates.into_iter().find(|candidate| {
        let after = crate::lint::check_bytes(path, candidate.as_bytes(), options);
        let same = match (before.documents.parsed(), after.documents.parsed()) {
            (Some(a), Some(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.root == y.root)
            }
            (None, _) => true,
            _ => false,
        };
        same && count(&after) < count(before)
    })
}
