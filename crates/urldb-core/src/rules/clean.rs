//! What clean text looks like, rule by rule: how a record is proven to
//! draw no finding from its text alone, without a tree.
//!
//! Nearly every record of a database is canonical and clean. The proof of
//! clean records (`crate::lint::proof`) reads a record's lines as `fmt`
//! writes them and asks each rule, through [`super::clean_text`], whether
//! what it read is clean for it. Each rule that reads the model of a file
//! ([`super::Check::File`]) states there, in its own file, one or more
//! [`Clean`] answers; the rules of the other stages need none:
//!
//! - text rules ([`super::Check::Text`]) run on every file's text anyway;
//! - the parser's rules ([`super::Check::Parse`]) report what the
//!   canonical layout never holds: the proof takes only the lines `fmt`
//!   writes, which the parser reads without a problem or a comment;
//! - layout rules ([`super::Check::Layout`]) speak only of a file that is
//!   not canonical, and the proof proves the records canonical;
//! - cross-file rules ([`super::Check::Database`]) run after every file.
//!
//! The proof errs on one side only: when a rule says `false`, or needs the
//! tree, the records are parsed and checked by the rules as usual. A
//! rule's answer must therefore be `true` only where its check finds
//! nothing; `test_support` holds every rule's own tests to it, by running
//! each text of them through the proof too.

use crate::model::resolve::Implicit;
use crate::rules::diagnostic::Finding;
use crate::rules::settings::LintSettings;
use crate::source::Span;

/// How the proof rules out one rule's findings.
pub(crate) enum Clean {
    /// It reads only the metadata document (or the file's name), which the
    /// rules check in every file: the proof takes records only.
    Metadata,
    /// The canonical layout, as the proof reads it (`key: value` lines and
    /// `- item` lines, each value written as the renderer writes it),
    /// leaves it nothing to report; the rule's file says why.
    Layout,
    /// The values of the record key `key` (one of `domain::RECORD_KEYS`;
    /// each item, for a list) that it does not report: `clean` is `true`
    /// when the rule finds nothing in the value. `looks_at` says which
    /// values `clean` is asked of; any other is clean for the rule without
    /// asking.
    Value {
        key: &'static str,
        looks_at: LooksAt,
        clean: fn(Written, &Facts) -> bool,
    },
    /// The keys other than the record keys (extras) it does not report.
    ExtraKey(fn(&str) -> bool),
    /// The records it does not report, by the keys they hold.
    Record(fn(&RecordShape) -> bool),
    /// Its findings are about records together (two paths that are one
    /// URL): answered by `find` on the `_path` of every record of the
    /// file, after the proof, and skipped where a large file is checked a
    /// piece at a time. With `looks_at`, the proof notes which paths hold
    /// one of those bytes ([`Paths::marked`]): `find` need not read the
    /// others.
    Paths {
        looks_at: Option<fn(u8) -> bool>,
        find: fn(&Paths, &mut Vec<Finding>),
    },
    /// Only the tree can tell: while it is enabled, or when it forbids a
    /// rewrite, the proof takes no record.
    #[allow(
        dead_code,
        reason = "no rule of the catalogue needs the tree today; one that does says so"
    )]
    NeedsTree,
}

/// Which values a [`Clean::Value`] answer is asked of. The proof reads
/// each value once for every answer of its key (a path, answered by ten
/// rules), which costs less than each answer reading it, and asks an
/// answer only of the values that call for it.
#[derive(Clone, Copy)]
pub(crate) enum LooksAt {
    /// Every value: the answer reads the value whole (its length, its
    /// digits).
    Everything,
    /// A value holding one of these bytes: a value without them is clean.
    Bytes(fn(u8) -> bool),
    /// An empty value, or one whose first byte is one of these: a value
    /// led by any other byte is clean, whatever follows.
    First(fn(u8) -> bool),
    /// A value holding a byte the first is true of followed by one the
    /// second is true of (a `/` followed by a `.`): a value without such a
    /// pair is clean. The proof then reads each value of the key as its
    /// pairs of bytes, one table lookup each, as it reads the bytes of the
    /// other keys' values.
    Pair(fn(u8) -> bool, fn(u8) -> bool),
}

/// A value as canonical text writes it on one line: plain, or between
/// single quotes (a value holding a quote is never handed over, so its
/// text is its value).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Written<'a> {
    pub(crate) value: &'a str,
    pub(crate) quoted: bool,
}

impl Written<'_> {
    /// A plain `~`, `null` or nothing: YAML reads it as no value.
    pub(crate) fn is_plain_null(&self) -> bool {
        !self.quoted && Implicit::is_null(self.value)
    }
}

/// What the rules may read beyond a record's text.
pub(crate) struct Facts<'a> {
    /// `case-sensitive-paths` of the file's metadata.
    pub(crate) case_sensitive: bool,
    pub(crate) settings: &'a LintSettings,
}

/// The keys of one record, as its canonical text lists them (in the
/// renderer's order, so equal keys and equal items are neighbours).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct RecordShape {
    /// Which of `domain::RECORD_KEYS` it holds, one bit each.
    pub(crate) held: u8,
    /// Other keys it holds.
    pub(crate) extras: u8,
    /// A key is written twice.
    pub(crate) repeated_key: bool,
    /// An item is written twice in one list.
    pub(crate) repeated_item: bool,
}

impl RecordShape {
    /// It holds `key`, one of `domain::RECORD_KEYS`.
    pub(crate) fn holds(&self, key: &str) -> bool {
        crate::model::domain::RECORD_KEYS
            .iter()
            .position(|k| *k == key)
            .is_some_and(|i| self.held & (1 << i) != 0)
    }

    /// It holds no key at all.
    pub(crate) fn is_empty(&self) -> bool {
        self.held == 0 && self.extras == 0
    }
}

/// The `_path` of every record of a file, for [`Clean::Paths`] answers.
pub(crate) struct Paths<'a> {
    /// Each record's `_path` and the span of its value, in file order.
    pub(crate) all: &'a [(&'a str, &'a Span)],
    /// Each is greater than the one before (known from canonical text,
    /// else `false`): no two are the same text.
    pub(crate) strictly_ascending: bool,
    /// `case-sensitive-paths` of the file's metadata.
    pub(crate) case_sensitive: bool,
    /// The places in `all` of the paths holding a byte that a rule across
    /// records looks at ([`Clean::Paths`]), when the proof read every
    /// path; `None` when any path may hold one.
    pub(crate) marked: Option<&'a [usize]>,
}

/// The rules' answers, gathered once for the proof: what it asks of
/// each record key's values, of extra keys and of each record.
pub(crate) struct Asked {
    /// The answers for each of `domain::RECORD_KEYS`, in that order.
    pub(crate) values: [ValueAnswers; 5],
    pub(crate) extra_keys: Vec<fn(&str) -> bool>,
    pub(crate) records: Vec<fn(&RecordShape) -> bool>,
}

/// The [`Clean::Value`] answers for one record key.
#[derive(Default)]
pub(crate) struct ValueAnswers {
    clean: Vec<fn(Written, &Facts) -> bool>,
    /// Which answers (bits, by their place in `clean`) are asked of a value
    /// holding each byte ([`LooksAt::Bytes`]).
    holding: Option<Box<[u32; 256]>>,
    /// Which answers are asked of a value led by each byte
    /// ([`LooksAt::First`]).
    first: Option<Box<[u32; 256]>>,
    /// Which answers are asked of a value holding a pair of bytes
    /// ([`LooksAt::Pair`]): those both in its first byte's entry here and
    /// in its second byte's entry of `pair_seconds`.
    pair_firsts: Option<Box<[u32; 256]>>,
    pair_seconds: Option<Box<[u32; 256]>>,
    /// Which answers are asked of an empty value ([`LooksAt::First`]).
    empty: u32,
    /// Which answers are asked of every value.
    always: u32,
}

impl ValueAnswers {
    fn add(&mut self, looks_at: LooksAt, clean: fn(Written, &Facts) -> bool) {
        let bit = 1u32 << self.clean.len();
        self.clean.push(clean);
        match looks_at {
            LooksAt::Everything => self.always |= bit,
            LooksAt::Bytes(looks_at) => mark(&mut self.holding, looks_at, bit),
            LooksAt::First(looks_at) => {
                self.empty |= bit;
                mark(&mut self.first, looks_at, bit);
            }
            LooksAt::Pair(first, second) => {
                mark(&mut self.pair_firsts, first, bit);
                mark(&mut self.pair_seconds, second, bit);
            }
        }
    }

    /// The answers asked of `value` before its bytes are read: every value's,
    /// and those its first byte (or its being empty) calls for (bits).
    pub(crate) fn leading(&self, value: &str) -> u32 {
        let leading = match (value.as_bytes().first(), &self.first) {
            (None, _) => self.empty,
            (Some(&b), Some(first)) => first[usize::from(b)],
            (Some(_), None) => 0,
        };
        self.always | leading
    }

    /// The answers asked of a value holding `b` (bits).
    pub(crate) fn looking_at(&self, b: u8) -> u32 {
        self.holding
            .as_ref()
            .map_or(0, |table| table[usize::from(b)])
    }

    /// For the answers asked by pairs ([`LooksAt::Pair`]), which are
    /// asked of a value holding the bytes `first`, `second` (bits): those
    /// in both `firsts[first]` and `seconds[second]`. `None` when no answer
    /// looks at pairs.
    pub(crate) fn pairs(&self) -> Option<(&[u32; 256], &[u32; 256])> {
        Some((self.pair_firsts.as_deref()?, self.pair_seconds.as_deref()?))
    }

    /// No rule of those in `ask` (bits, from [`ValueAnswers::leading`] and
    /// [`ValueAnswers::looking_at`] of each byte) reports `written`.
    pub(crate) fn ask(&self, mut ask: u32, written: Written, facts: &Facts) -> bool {
        while ask != 0 {
            let i = ask.trailing_zeros() as usize;
            ask &= ask - 1;
            if self
                .clean
                .get(i)
                .is_some_and(|clean| !clean(written, facts))
            {
                return false;
            }
        }
        true
    }
}

/// Set `bit` in the entry of each byte `looks_at` is true of.
fn mark(table: &mut Option<Box<[u32; 256]>>, looks_at: fn(u8) -> bool, bit: u32) {
    let table = table.get_or_insert_with(|| Box::new([0; 256]));
    for (b, entry) in (0..=u8::MAX).zip(table.iter_mut()) {
        if looks_at(b) {
            *entry |= bit;
        }
    }
}

/// The rules' answers, gathered from [`super::clean_text`] on first use.
pub(crate) static ASKED: std::sync::LazyLock<Asked> = std::sync::LazyLock::new(|| {
    let mut asked = Asked {
        values: Default::default(),
        extra_keys: Vec::new(),
        records: Vec::new(),
    };
    for clean in super::clean_text()
        .iter()
        .flat_map(|(_, answers)| answers.iter())
    {
        match clean {
            Clean::Value {
                key,
                looks_at,
                clean,
            } => {
                let keys = crate::model::domain::RECORD_KEYS;
                if let Some(i) = keys.iter().position(|k| k == key) {
                    asked.values[i].add(*looks_at, *clean);
                }
            }
            Clean::ExtraKey(clean) => asked.extra_keys.push(*clean),
            Clean::Record(clean) => asked.records.push(*clean),
            Clean::Metadata | Clean::Layout | Clean::Paths { .. } | Clean::NeedsTree => {}
        }
    }
    asked
});

/// Some rule that only the tree can answer is enabled (or forbids a
/// rewrite, which counts whether enabled or not): the proof takes nothing.
pub(crate) fn needs_tree(enabled: impl Fn(&super::Rule) -> bool) -> bool {
    needs_tree_in(super::clean_text(), enabled)
}

fn needs_tree_in(
    answers: &[(&super::Rule, &[Clean])],
    enabled: impl Fn(&super::Rule) -> bool,
) -> bool {
    answers.iter().any(|(rule, answers)| {
        answers.iter().any(|a| matches!(a, Clean::NeedsTree))
            && (rule.blocks_rewrite || enabled(rule))
    })
}

/// Whether some rule across records ([`Clean::Paths`]) looks at paths
/// holding each byte.
pub(crate) fn across_records_look_at() -> [bool; 256] {
    // The catalogue is read once, not once a byte.
    let looking: Vec<fn(u8) -> bool> = super::clean_text()
        .iter()
        .flat_map(|(_, answers)| answers.iter())
        .filter_map(|a| match a {
            Clean::Paths {
                looks_at: Some(looks_at),
                ..
            } => Some(*looks_at),
            _ => None,
        })
        .collect();
    let mut table = [false; 256];
    for (b, entry) in (0..=u8::MAX).zip(table.iter_mut()) {
        *entry = looking.iter().any(|looks_at| looks_at(b));
    }
    table
}

/// The rules whose findings are answered on the paths of a whole file
/// ([`Clean::Paths`]), with their `find`.
pub(crate) fn across_records()
-> impl Iterator<Item = (&'static super::Rule, fn(&Paths, &mut Vec<Finding>))> {
    super::clean_text().iter().flat_map(|(rule, answers)| {
        answers.iter().filter_map(move |a| match a {
            Clean::Paths { find, .. } => Some((*rule, *find)),
            _ => None,
        })
    })
}

/// The rule answers record by record (a value, an extra key, the keys of
/// a record, the layout): a record the proof takes holds none of its
/// findings.
#[cfg(test)]
pub(crate) fn answers_record_by_record(rule: &super::Rule) -> bool {
    super::clean_text()
        .iter()
        .filter(|(r, _)| std::ptr::eq(*r, rule))
        .flat_map(|(_, answers)| answers.iter())
        .any(|a| {
            matches!(
                a,
                Clean::Value { .. } | Clean::ExtraKey(_) | Clean::Record(_) | Clean::Layout
            )
        })
}

#[cfg(test)]
mod tests {
    use super::super::{ALL, Check, clean_text};
    use super::*;

    /// A rule that reads the model of a file says how the proof rules out
    /// its findings, once, in catalogue order; no other rule needs to.
    #[test]
    fn every_rule_on_the_model_states_its_clean_text() {
        let on_the_model: Vec<&str> = ALL
            .iter()
            .filter(|r| matches!(r.check, Check::File { .. }))
            .map(|r| r.code)
            .collect();
        let stated: Vec<&str> = clean_text().iter().map(|(r, _)| r.code).collect();
        assert_eq!(
            stated, on_the_model,
            "clean_text() in rules/mod.rs lists each rule of Check::File, in catalogue order"
        );
        for (rule, answers) in clean_text() {
            assert!(!answers.is_empty(), "{}: no answer", rule.code);
            for answer in *answers {
                if let Clean::Value { key, .. } = answer {
                    assert!(
                        crate::model::domain::RECORD_KEYS.contains(key),
                        "{}: `{key}` is no record key",
                        rule.code,
                    );
                }
            }
        }
    }

    /// A rule that needs the tree stops the proof while it counts: enabled,
    /// or forbidding a rewrite (which counts whether enabled or not).
    #[test]
    fn a_rule_that_needs_the_tree_stops_the_proof_while_it_counts() {
        use crate::rules::{Rule, Severity};
        fn none(_: &crate::rules::FileContext, _: &mut Vec<Finding>) {}
        static QUIET: Rule = Rule {
            code: "needs-the-tree",
            summary: "",
            severity: Severity::Error,
            fix: crate::rules::FixKind::None,
            blocks_rewrite: false,
            blocks_request: None,
            enabled: crate::rules::Enabled::On,
            gate: crate::rules::Gate::No,
            check: Check::File {
                check: none,
                clean: crate::rules::CleanText(&[Clean::NeedsTree]),
            },
        };
        static BLOCKING: Rule = Rule {
            code: "needs-the-tree",
            summary: "",
            severity: Severity::Error,
            fix: crate::rules::FixKind::None,
            blocks_rewrite: true,
            blocks_request: None,
            enabled: crate::rules::Enabled::On,
            gate: crate::rules::Gate::No,
            check: Check::File {
                check: none,
                clean: crate::rules::CleanText(&[Clean::NeedsTree]),
            },
        };
        let needs: &[Clean] = &[Clean::NeedsTree];
        let value: &[Clean] = &[Clean::Record(|_| true)];
        assert!(needs_tree_in(&[(&QUIET, needs)], |_| true));
        assert!(!needs_tree_in(&[(&QUIET, needs)], |_| false));
        assert!(needs_tree_in(&[(&BLOCKING, needs)], |_| false));
        assert!(!needs_tree_in(&[(&BLOCKING, value)], |_| true));
        assert!(
            !needs_tree(|_| true),
            "no rule of the catalogue needs the tree"
        );
    }

    /// A value holding none of the bytes a rule looks at, or led by none
    /// of them, is clean for it, as the rule says (it is not asked then):
    /// values of the bytes a line of canonical text may hold, but those.
    #[test]
    fn a_value_without_the_bytes_a_rule_looks_at_is_clean_for_it() {
        let mut seed = 0x5eed_u64;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let settings = LintSettings {
            categories: Some(vec!["a".to_string()]),
            ..LintSettings::default()
        };
        let mut asked = 0;
        for (rule, answers) in clean_text() {
            for answer in *answers {
                let Clean::Value {
                    looks_at, clean, ..
                } = answer
                else {
                    continue;
                };
                let printable: Vec<u8> = (b' '..=b'~').collect();
                let without = |looks_at: fn(u8) -> bool| -> Vec<u8> {
                    printable
                        .iter()
                        .copied()
                        .filter(|b| !looks_at(*b))
                        .collect()
                };
                let (first_only, alphabet, after) = match *looks_at {
                    LooksAt::Everything => continue,
                    LooksAt::Bytes(looks_at) => (false, without(looks_at), None),
                    LooksAt::First(looks_at) => (true, without(looks_at), None),
                    LooksAt::Pair(first, second) => {
                        // Half of the bytes lead a pair, so that values
                        // such as `/a/b` are common.
                        let mut alphabet = printable.clone();
                        let leads = printable.iter().filter(|b| first(**b));
                        alphabet.extend(leads.cycle().take(printable.len()));
                        (false, alphabet, Some((first, without(second))))
                    }
                };
                for _ in 0..20_000 {
                    // Every byte without those it looks at; or, for an
                    // answer asked by the first byte, a first byte without
                    // them and any bytes after it; or, for an answer asked
                    // by pairs, no byte of the second kind after one of the
                    // first.
                    let len = next(16) + usize::from(first_only);
                    let mut value = String::with_capacity(len);
                    let mut previous: Option<u8> = None;
                    for i in 0..len {
                        let from = match (&after, previous) {
                            (Some((first, seconds)), Some(p)) if first(p) => seconds,
                            _ if first_only && i > 0 => &printable,
                            _ => &alphabet,
                        };
                        let b = from[next(from.len())];
                        value.push(char::from(b));
                        previous = Some(b);
                    }
                    for (quoted, case_sensitive) in [(false, false), (false, true), (true, false)] {
                        let facts = Facts {
                            case_sensitive,
                            settings: &settings,
                        };
                        let written = Written {
                            value: &value,
                            quoted,
                        };
                        assert!(
                            clean(written, &facts),
                            "{}: {value:?} calls for no asking, yet is not clean",
                            rule.code
                        );
                        asked += 1;
                    }
                }
            }
        }
        assert!(asked > 100_000, "{asked}");
        for answers in &ASKED.values {
            assert!(
                answers.clean.len() <= 30,
                "a record key has more answers than the proof has bits"
            );
        }
    }

    #[test]
    fn a_record_shape_knows_its_keys() {
        let shape = RecordShape {
            held: 0b10001,
            ..RecordShape::default()
        };
        assert!(shape.holds(crate::model::domain::PATH));
        assert!(shape.holds(crate::model::domain::CONTENT_TYPE));
        assert!(!shape.holds(crate::model::domain::CATEGORIES));
        assert!(!shape.holds("owner"));
        assert!(!shape.is_empty());
        assert!(RecordShape::default().is_empty());
    }
}
