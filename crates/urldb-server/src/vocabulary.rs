//! The words completion offers: the categories and content types the
//! documents use (the session keeps those of each database's files on
//! disk until files change).

use std::collections::BTreeSet;

use urldb_core::model::domain;
use urldb_core::model::node::Document;

/// Words completion offers: categories and content types.
#[derive(Debug, Default, Clone)]
pub(crate) struct Vocabulary {
    pub categories: BTreeSet<String>,
    pub content_types: BTreeSet<String>,
}

impl Vocabulary {
    /// Add what the documents use.
    pub(crate) fn add(&mut self, docs: &[Document]) {
        // A value being typed (`content-type: `, `- `) is empty: no word
        // to offer, and it would sort first.
        let word = |v: &str| !v.trim().is_empty();
        for record in domain::records(docs) {
            self.categories
                .extend(record.categories().filter(|c| word(c)).map(str::to_string));
            if let Some(ct) = record
                .get(domain::CONTENT_TYPE)
                .and_then(|e| e.value.as_scalar())
                .filter(|ct| word(&ct.value))
            {
                self.content_types.insert(ct.value.to_string());
            }
        }
    }

    /// Add what a domain file's text uses (parsed only, not checked).
    pub(crate) fn add_text(&mut self, text: &str) {
        let tree = urldb_core::parse::read_text(text);
        self.add(&tree.documents);
    }
}
