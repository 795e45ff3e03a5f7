//! The one results model of a verify run: what `--format json` writes,
//! what `urldb report` reads back and merges, and what every verify format
//! renders from (`docs/verify.md`, "Results that merge").
//!
//! Plain data: a [`Results`] is a list of [`UrlResult`]s (one per URL
//! checked), the problems that kept records from being checked, the runs
//! it comes from, the counts, and, with `--history`, each URL's trend and
//! the broken count of each kept run.

use std::collections::{BTreeMap, HashSet};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::plan::Plan;
use super::shard::Shard;
pub use super::trend::Verdict;
use super::trend::{RunCount, Trend};
use super::{CheckResult, Failure, Outcome};
pub use crate::archive::{ArchiveVerdict, Archived};
use crate::http::FetchError;
pub use crate::moves::{MoveVerdict, Moved};
use urldb_core::source::display_path;

/// [`UrlResult::kind`] of a URL passed by an accepted status.
pub const ACCEPTED: &str = "accepted";
/// [`UrlResult::kind`] of a URL that robots.txt disallows.
pub const ROBOTS: &str = "robots";

/// One URL checked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UrlResult {
    pub url: String,
    /// The domain file, as urldb names it (`/` separators, unescaped).
    pub file: String,
    /// The line of the record's `_path`.
    pub line: usize,
    /// The record's `_path`.
    pub path: String,
    pub outcome: Verdict,
    /// A stable name of the failure (`status`, `content-type`, ...).
    pub kind: Option<String>,
    /// Why, in words (may quote what a server sent: escape it to show it).
    pub reason: Option<String>,
    /// The last status received.
    pub status: Option<u16>,
    /// Requests made (1 + retries used).
    pub attempts: u32,
    /// Time taken, in milliseconds.
    pub ms: u64,
    /// With `--history`: new, persistent or flaky.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history: Option<Trend>,
    /// With `--follow-moves`, for a permanent redirect the record does not
    /// accept: where it led (`docs/verify.md`, "When a URL breaks").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moved: Option<Moved>,
    /// With `--archive`, for a broken URL: what the archive holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub archived: Option<Archived>,
}

impl UrlResult {
    pub fn is_broken(&self) -> bool {
        self.outcome == Verdict::Broken
    }

    pub fn is_blocked(&self) -> bool {
        self.outcome == Verdict::Blocked
    }

    /// Passed by a status that `urldb.toml` accepts.
    pub fn is_accepted(&self) -> bool {
        self.outcome == Verdict::Ok && self.kind.as_deref() == Some(ACCEPTED)
    }

    /// Not requested by `urldb.toml`'s `skip` or the record's `skip-verify`
    /// (robots.txt skips are counted apart).
    pub fn is_skipped_by_choice(&self) -> bool {
        self.outcome == Verdict::Skipped && self.kind.as_deref() != Some(ROBOTS)
    }

    /// Broken without a request: the record's `_path` is at fault.
    pub fn is_not_checked(&self) -> bool {
        self.is_broken() && self.kind.as_deref() == Some(crate::judging::NOT_CHECKED)
    }

    /// What `--follow-moves` and `--archive` found, in words, to show next to the
    /// reason (the text may quote what a server sent: escape it).
    pub fn found(&self) -> Option<String> {
        let found: Vec<String> = [
            self.moved.as_ref().map(|m| m.to_string()),
            self.archived.as_ref().map(|a| a.to_string()),
        ]
        .into_iter()
        .flatten()
        .collect();
        (!found.is_empty()).then(|| found.join("; "))
    }

    /// The reason, and what `--follow-moves` found after it.
    pub fn reason_and_found(&self, default: &str) -> String {
        let reason = self.reason.as_deref().unwrap_or(default);
        match self.found() {
            Some(found) => format!("{reason}; {found}"),
            None => reason.to_string(),
        }
    }

    /// The order results are listed in, whichever shard checked them.
    fn key(&self) -> (&str, usize, &str) {
        (&self.file, self.line, &self.url)
    }
}

/// A file or record that could not be verified (exit 2).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProblemEntry {
    pub file: String,
    pub line: Option<usize>,
    pub message: String,
}

/// One `urldb verify` run (of one shard, or of the whole database).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunInfo {
    /// `--run-id`, else the start time: the shards of one CI run share it.
    pub id: String,
    /// The start time, RFC 3339 in UTC.
    pub started: String,
    pub shard: Option<Shard>,
    pub elapsed_ms: u64,
}

/// The counts of a run (or of merged runs).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Summary {
    /// URLs fetched (or skipped by robots.txt).
    pub urls: usize,
    pub ok: usize,
    pub broken: usize,
    /// Answered by a bot wall: not broken, not ok.
    #[serde(default)]
    pub blocked: usize,
    /// Of the ok ones: passed by a status `urldb.toml` accepts.
    #[serde(default)]
    pub accepted: usize,
    /// Not requested: a `skip` entry of `urldb.toml`, or the record's
    /// category `skip-verify`.
    #[serde(default)]
    pub skipped: usize,
    /// With `--max-age`: URLs left out because they passed within it.
    #[serde(default)]
    pub fresh: usize,
    pub skipped_robots: usize,
    /// `deprecated` records not checked.
    pub skipped_deprecated: usize,
    /// Of the broken ones: refused by the private-address guard.
    pub private: usize,
    /// Of the broken ones: never requested, the record's `_path` being at
    /// fault (see `urldb check`).
    pub not_checked: usize,
    /// Files or records that could not be read or are incomplete.
    pub problems: usize,
    /// Of the broken ones, with `--history`: broken now and not in the
    /// previous run that checked the URL.
    #[serde(default)]
    pub new: usize,
    /// With `--history`: URLs that recovered from a failure within the
    /// kept runs.
    #[serde(default)]
    pub flaky: usize,
    #[serde(skip)]
    pub elapsed: Duration,
}

/// Everything a verify run (or a merge of runs) found.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Results {
    /// The runs these results come from: one, or one per merged file.
    pub runs: Vec<RunInfo>,
    pub summary: Summary,
    /// One per URL, ordered by file, line, URL.
    pub results: Vec<UrlResult>,
    pub problems: Vec<ProblemEntry>,
    /// With `--history`: the broken count of each kept run, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub history: Vec<RunCount>,
    /// Each origin requested (after `--map`): its figures, by origin.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hosts: Vec<HostStats>,
}

/// What one origin saw in a run (`docs/verify.md`, "Pacing").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct HostStats {
    /// `scheme://host[:port]`, after `--map`.
    pub origin: String,
    /// Requests sent: robots.txt and retries included.
    pub requests: u64,
    /// The median time to an answer, in milliseconds (merged shards: the
    /// one that sent more requests).
    pub median_ms: Option<u64>,
    /// 429 answers.
    #[serde(rename = "429")]
    pub too_many: u64,
    /// 5xx answers.
    #[serde(rename = "5xx")]
    pub server_errors: u64,
    pub skipped_robots: u64,
    /// The interval between two requests at the end, in milliseconds.
    pub interval_ms: u64,
    /// A robots.txt `Crawl-delay` over the cap (30 s), in milliseconds:
    /// the cap was used instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crawl_delay_capped_ms: Option<u64>,
}

impl From<&crate::HostRun> for HostStats {
    fn from(h: &crate::HostRun) -> HostStats {
        HostStats {
            origin: h.origin.clone(),
            requests: h.requests,
            median_ms: h.median_ms,
            too_many: h.too_many,
            server_errors: h.server_errors,
            skipped_robots: h.robots_skipped,
            interval_ms: h.interval_ms,
            crawl_delay_capped_ms: h.crawl_delay_capped_ms,
        }
    }
}

/// One entry per origin: the shards that saw one origin (a host split
/// across shards) add up.
fn merge_hosts(all: impl IntoIterator<Item = HostStats>) -> Vec<HostStats> {
    let mut by_origin: BTreeMap<String, HostStats> = BTreeMap::new();
    for h in all {
        match by_origin.get_mut(&h.origin) {
            None => {
                by_origin.insert(h.origin.clone(), h);
            }
            Some(m) => {
                if h.requests > m.requests {
                    m.median_ms = h.median_ms;
                }
                m.requests += h.requests;
                m.too_many += h.too_many;
                m.server_errors += h.server_errors;
                m.skipped_robots += h.skipped_robots;
                m.interval_ms = m.interval_ms.max(h.interval_ms);
                m.crawl_delay_capped_ms = m.crawl_delay_capped_ms.max(h.crawl_delay_capped_ms);
            }
        }
    }
    by_origin.into_values().collect()
}

/// What a run of `verify` (or its merged results) comes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Conclusion {
    /// Nothing to fail on.
    Passed,
    /// URLs that fail by `--fail-on`.
    Failed,
    /// Problems that kept URLs from being judged.
    Problems,
}

/// What exits 1: any broken URL or only newly broken ones, and whether
/// blocked URLs fail too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FailOn {
    /// Only URLs broken now that were not in their previous run (every
    /// failure, without history); else any broken URL.
    pub new_only: bool,
    /// URLs answered by a bot wall fail too.
    pub blocked: bool,
}

impl Results {
    /// The results of one run of `plan`'s checks.
    pub fn of_run(plan: &Plan, checks: &[CheckResult], run: RunInfo) -> Results {
        let results = plan
            .checks
            .iter()
            .zip(checks)
            .map(|(c, r)| {
                let (outcome, kind, reason) = match &r.outcome {
                    Outcome::Ok => (Verdict::Ok, None, None),
                    Outcome::Accepted(status) => (
                        Verdict::Ok,
                        Some(ACCEPTED.to_string()),
                        Some(format!(
                            "{}, accepted by urldb.toml",
                            Failure::Status(*status)
                        )),
                    ),
                    Outcome::Blocked(b) => (
                        Verdict::Blocked,
                        Some(b.kind().to_string()),
                        Some(b.to_string()),
                    ),
                    Outcome::SkippedByRobots(why) => (
                        Verdict::Skipped,
                        Some(ROBOTS.to_string()),
                        Some(why.to_string()),
                    ),
                    Outcome::Skipped(skip) => (
                        Verdict::Skipped,
                        Some(skip.kind.to_string()),
                        Some(skip.reason.clone()),
                    ),
                    Outcome::Broken(f) => (
                        Verdict::Broken,
                        Some(f.kind().to_string()),
                        Some(f.to_string()),
                    ),
                };
                UrlResult {
                    url: c.url.clone(),
                    file: display_path(&c.file),
                    line: c.line,
                    path: c.path.clone(),
                    outcome,
                    kind,
                    reason,
                    status: r.status,
                    attempts: r.attempts,
                    ms: u64::try_from(r.elapsed.as_millis()).unwrap_or(u64::MAX),
                    history: None,
                    moved: r.moved.clone(),
                    archived: r.archived.clone(),
                }
            })
            .collect();
        let problems = plan
            .problems
            .iter()
            .map(|p| ProblemEntry {
                file: display_path(&p.file),
                line: p.line,
                message: p.problem.to_string(),
            })
            .collect();
        let elapsed = Duration::from_millis(run.elapsed_ms);
        let mut results = Results {
            runs: vec![run],
            summary: Summary::default(),
            results,
            problems,
            history: Vec::new(),
            hosts: Vec::new(),
        };
        results.sort();
        results.recount(plan.deprecated, elapsed);
        results.summary.fresh = plan.fresh;
        // The private and not-checked counts need the failure itself.
        results.summary.private = checks
            .iter()
            .filter(|r| {
                matches!(
                    r.outcome,
                    Outcome::Broken(Failure::NoAnswer(FetchError::PrivateAddress { .. }))
                )
            })
            .count();
        results
    }

    fn sort(&mut self) {
        self.results.sort_by(|a, b| a.key().cmp(&b.key()));
    }

    /// Count again from the results (after a merge or a classification).
    pub fn recount(&mut self, deprecated: usize, elapsed: Duration) {
        let (private, fresh) = (self.summary.private, self.summary.fresh);
        let mut s = Summary {
            urls: self.results.len(),
            skipped_deprecated: deprecated,
            problems: self.problems.len(),
            private,
            fresh,
            elapsed,
            ..Summary::default()
        };
        for r in &self.results {
            match r.outcome {
                Verdict::Ok => {
                    s.ok += 1;
                    s.accepted += usize::from(r.is_accepted());
                }
                Verdict::Skipped if r.is_skipped_by_choice() => s.skipped += 1,
                Verdict::Skipped => s.skipped_robots += 1,
                Verdict::Blocked => s.blocked += 1,
                Verdict::Broken => {
                    s.broken += 1;
                    if r.is_not_checked() {
                        s.not_checked += 1;
                    }
                    if r.history.as_ref().is_none_or(|h| h.is_new()) {
                        s.new += 1;
                    }
                }
            }
            if r.history.as_ref().is_some_and(|h| h.flaky) {
                s.flaky += 1;
            }
        }
        self.summary = s;
    }

    /// What the results call for: problems (the run could not judge
    /// everything), failures (broken URLs: all, or only new ones), or
    /// neither. The binary turns this into its exit code.
    pub fn conclusion(&self, fail_on: FailOn) -> Conclusion {
        let broken = if fail_on.new_only {
            self.summary.new
        } else {
            self.summary.broken
        };
        let failing = broken
            + if fail_on.blocked {
                self.summary.blocked
            } else {
                0
            };
        if !self.problems.is_empty() {
            Conclusion::Problems
        } else if failing > 0 {
            Conclusion::Failed
        } else {
            Conclusion::Passed
        }
    }

    /// Every history classification of these results is known.
    pub fn has_history(&self) -> bool {
        !self.results.is_empty() && self.results.iter().all(|r| r.history.is_some())
    }
}

/// A URL result that more than one input holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate {
    pub url: String,
    pub file: String,
    pub line: usize,
    /// The input whose result was kept (the later one).
    pub kept: usize,
}

/// Merge the results of shards (or of any runs): the union of their URL
/// results, ordered as one run lists them; a URL result (URL, file, line)
/// that several inputs hold is taken from the last input that holds it
/// and reported as a [`Duplicate`]. Problems found by several shards
/// (every shard plans every file) are listed once; the deprecated count
/// is the largest one (each shard counts the whole database's).
pub fn merge(inputs: Vec<Results>) -> (Results, Vec<Duplicate>) {
    let mut runs = Vec::new();
    let mut problems: Vec<ProblemEntry> = Vec::new();
    let mut seen_problems = HashSet::new();
    let mut by_key: BTreeMap<(String, usize, String), (usize, UrlResult)> = BTreeMap::new();
    let mut duplicates = Vec::new();
    let mut deprecated = 0;
    let mut private = 0;
    let mut fresh = 0;
    let mut elapsed = Duration::ZERO;
    let mut own_runs = HashSet::new();
    let mut counts: Vec<RunCount> = Vec::new();
    let mut hosts = Vec::new();
    for input in &inputs {
        for run in &input.runs {
            own_runs.insert(run.id.clone());
        }
    }
    for (i, input) in inputs.into_iter().enumerate() {
        deprecated = deprecated.max(input.summary.skipped_deprecated);
        private += input.summary.private;
        fresh += input.summary.fresh;
        for run in &input.runs {
            elapsed = elapsed.max(Duration::from_millis(run.elapsed_ms));
        }
        runs.extend(input.runs);
        hosts.extend(input.hosts);
        for p in input.problems {
            if seen_problems.insert(p.clone()) {
                problems.push(p);
            }
        }
        for r in input.results {
            let key = (r.file.clone(), r.line, r.url.clone());
            if let Some((_, old)) = by_key.insert(key, (i, r)) {
                // The result replaced is counted out of the private total.
                if old.kind.as_deref() == Some("private-address") {
                    private = private.saturating_sub(1);
                }
                duplicates.push(Duplicate {
                    url: old.url,
                    file: old.file,
                    line: old.line,
                    kept: i,
                });
            }
        }
        // A run's own count is the sum over its shards; an earlier run's,
        // read from the same history by every shard, is taken once.
        for c in input.history {
            match counts.iter_mut().find(|k| k.id == c.id) {
                Some(k) if own_runs.contains(&c.id) => {
                    k.checked += c.checked;
                    k.broken += c.broken;
                    k.blocked += c.blocked;
                    k.skipped += c.skipped;
                    k.accepted += c.accepted;
                }
                Some(_) => {}
                None => counts.push(c),
            }
        }
    }
    counts.sort_by(|a, b| (&a.started, &a.id).cmp(&(&b.started, &b.id)));
    let mut merged = Results {
        runs,
        summary: Summary {
            private,
            fresh,
            ..Summary::default()
        },
        results: by_key.into_values().map(|(_, r)| r).collect(),
        problems,
        history: counts,
        hosts: merge_hosts(hosts),
    };
    merged.recount(deprecated, elapsed);
    (merged, duplicates)
}
