//! The cross-file rules (`cname-conflict`, `domain-conflict`), run over
//! the small facts each file of a database leaves ([`FileFacts`]) and
//! finished as every finding is ([`super::excuse`]): the one runner for
//! the command line (`urldb-store`'s run over a database) and the
//! language server (an open document against its database).
//!
//! Linear in files and findings (`docs/security.md` §8): a finding's file
//! is found by its index, and each file's findings are finished, and
//! sorted, once, after every rule ran. A thousand files listing one cname
//! took minutes when each finding looked its file up and sorted it again.

use super::Options;
use super::excuse::{self, Comments, Finished, Stage};
use crate::rules::diagnostic::Finding;
use crate::rules::{self, Check, DbContext, FileFacts};

/// What the cross-file rules found, by file, not yet finished.
#[derive(Debug, Default)]
pub struct Across {
    /// Each file's findings, by its index in the facts.
    found: Vec<Vec<Finding>>,
    /// The files with a finding, each once, in the order first found.
    files: Vec<usize>,
}

/// Run every cross-file rule over `facts` (a finding is reported only in
/// a file whose facts say it is checked, `FileFacts::checked`).
pub fn across(facts: &[FileFacts]) -> Across {
    let ctx = DbContext { files: facts };
    let mut raw = Vec::new();
    for rule in rules::ALL {
        if let Check::Database(check) = rule.check {
            check(&ctx, &mut raw);
        }
    }
    let mut across = Across::default();
    if raw.is_empty() {
        return across;
    }
    across.found = std::iter::repeat_with(Vec::new).take(facts.len()).collect();
    for db in raw {
        let Some(found) = across.found.get_mut(db.file) else {
            continue;
        };
        if found.is_empty() {
            across.files.push(db.file);
        }
        found.push(db.finding);
    }
    across
}

impl Across {
    /// The files (indices into the facts) with a finding, each once.
    pub fn files(&self) -> &[usize] {
        &self.files
    }

    /// Each file's findings, finished with `options`: `text_of` gives the
    /// text of a file with a finding (for its suppression comments; only
    /// a file that has `#` is read for them).
    pub fn finish<'t>(
        mut self,
        facts: &[FileFacts],
        options: &Options,
        text_of: impl Fn(usize) -> &'t str,
    ) -> Vec<(usize, Finished)> {
        self.files
            .iter()
            .filter_map(|&file| {
                let path = &facts.get(file)?.path;
                let found = std::mem::take(self.found.get_mut(file)?);
                let comments = Comments::Text(text_of(file));
                let finished = excuse::finish(path, found, comments, Stage::Across, options);
                Some((file, finished))
            })
            .collect()
    }
}
