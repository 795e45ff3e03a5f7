//! Findings and fixes as data. Findings carry byte ranges; lines, columns and
//! miette spans appear only in the reporting layer.

use serde::Serialize;

use crate::model::node::Scalar;
use crate::rules::Rule;
use crate::source::Span;

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// One problem found in one file.
#[derive(Debug, Clone)]
pub struct Finding {
    pub rule: &'static Rule,
    /// The rule's severity unless the configuration overrides it.
    pub severity: Severity,
    pub message: String,
    pub span: Span,
    /// Secondary labels, such as "first defined here".
    pub labels: Vec<(Span, String)>,
    pub help: Option<String>,
    pub fix: Option<Fix>,
    /// A gate finding: always reported, as an error, never excused
    /// (`crate::rules::gate_findings`). Every finding of a rule whose
    /// gate is `Gate::Always`; the rules of `Gate::Some` mark theirs with
    /// [`Finding::gate`].
    pub gate: bool,
}

impl Finding {
    pub fn new(rule: &'static Rule, span: Span, message: impl Into<String>) -> Self {
        Finding {
            rule,
            severity: rule.severity,
            message: message.into(),
            span,
            labels: Vec::new(),
            help: None,
            fix: None,
            gate: matches!(rule.gate, crate::rules::Gate::Always(_)),
        }
    }

    /// Mark this finding as a gate finding.
    pub fn gate(mut self) -> Self {
        self.gate = true;
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn label(mut self, span: Span, text: impl Into<String>) -> Self {
        // Most findings have one label: room for four (what a first push
        // takes) is 120 bytes more on each, and a file may have hundreds
        // of thousands of findings (`docs/dev/performance.md`).
        self.labels.reserve_exact(1);
        self.labels.push((span, text.into()));
        self
    }

    pub fn fix(mut self, fix: Fix) -> Self {
        self.fix = Some(fix);
        self
    }

    pub fn code(&self) -> &'static str {
        self.rule.code
    }

    /// `check --fix` would repair this finding.
    pub fn fixable(&self) -> bool {
        self.fix
            .as_ref()
            .is_some_and(|f| f.applicability == Applicability::Safe)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Applicability {
    /// Applied by `check --fix`: the result means what the author meant.
    Safe,
    /// Shown, never applied: a person must decide.
    Unsafe,
}

/// How to repair a finding. Layout findings are repaired by rendering the
/// canonical text (no edits); value findings carry edits on the tree.
#[derive(Debug, Clone)]
pub struct Fix {
    pub applicability: Applicability,
    pub title: String,
    pub edits: Vec<Edit>,
}

impl Fix {
    /// Rewriting the file as canonical text repairs it (what `fmt` does).
    pub fn format(title: impl Into<String>) -> Self {
        Fix {
            applicability: Applicability::Safe,
            title: title.into(),
            edits: Vec::new(),
        }
    }

    pub fn safe(title: impl Into<String>, edits: Vec<Edit>) -> Self {
        Fix {
            applicability: Applicability::Safe,
            title: title.into(),
            edits,
        }
    }

    pub fn unsafe_(title: impl Into<String>, edits: Vec<Edit>) -> Self {
        Fix {
            applicability: Applicability::Unsafe,
            title: title.into(),
            edits,
        }
    }
}

/// Where a node is: the document index, then for each level the index of
/// the mapping entry (its value) or of the sequence item.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodePath {
    pub doc: usize,
    pub steps: Vec<usize>,
}

impl NodePath {
    pub fn new(doc: usize, steps: &[usize]) -> Self {
        NodePath {
            doc,
            steps: steps.to_vec(),
        }
    }
}

/// A change to the tree of a file.
#[derive(Debug, Clone)]
pub enum Edit {
    /// Replace the scalar at this place.
    SetScalar { at: NodePath, value: Scalar },
    /// Remove this mapping entry or sequence item.
    Remove { at: NodePath },
    /// Rewrite the comment read at `span` (`None`: remove it).
    Comment { span: Span, text: Option<String> },
}
