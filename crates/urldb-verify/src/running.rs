//! Running the checks: worker threads, at most so many requests to one
//! origin at once (`crate::schedule`), robots.txt when asked, retries
//! with a capped wait, each answer judged (`judging.rs`) as it
//! comes.

use std::time::{Duration, Instant};

use crate::http::{BodyMode, Client, FetchError};
use crate::judging::{Failure, MAX_RETRY_AFTER, Outcome, outcome};
use crate::plan::UrlCheck;
use crate::{robots, schedule};

/// How checks are run.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Requests in flight at once.
    pub concurrency: usize,
    /// Requests in flight at once to one origin (`scheme://host:port`).
    pub per_host: usize,
    /// Extra tries after a connection error, a 5xx or a 429.
    pub retries: u32,
    /// The wait before the first retry; it doubles for each next one, up
    /// to 8 s.
    pub backoff: Duration,
    /// Skip paths that `/robots.txt` disallows for urldb.
    pub respect_robots: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            concurrency: 32,
            per_host: 6,
            retries: 2,
            backoff: Duration::from_millis(250),
            respect_robots: false,
        }
    }
}

#[derive(Debug, Clone)]
pub struct CheckResult {
    pub outcome: Outcome,
    /// The last status received, if any.
    pub status: Option<u16>,
    /// Requests made (1 + retries used).
    pub attempts: u32,
    pub elapsed: Duration,
}

/// Fetch one URL (never one that is not to be checked), retrying on
/// connection errors, 5xx and 429 that would be broken, and judge the
/// last answer.
pub(crate) fn check_one(client: &Client, check: &UrlCheck, options: &RunOptions) -> CheckResult {
    let unrequested = |outcome| CheckResult {
        outcome,
        status: None,
        attempts: 0,
        elapsed: Duration::ZERO,
    };
    if let Some(reason) = &check.not_checked {
        return unrequested(Outcome::Broken(Failure::NotChecked(reason.clone())));
    }
    if let Some(skip) = &check.skip {
        return unrequested(Outcome::Skipped(skip.clone()));
    }
    let start = Instant::now();
    let mode = if check.expect.wants_body() {
        BodyMode::Digest
    } else {
        BodyMode::Ignore
    };
    let mut attempts = 0;
    let mut wait = options.backoff;
    loop {
        attempts += 1;
        let last = attempts > options.retries;
        let result = client.get_with(&check.url, mode, None, &check.request);
        let (outcome, status, retry_after) = match result {
            Err(e) if e.is_transient() && !last => (None, None, None),
            Err(e) => (Some(Outcome::Broken(Failure::NoAnswer(e))), None, None),
            Ok(r) => {
                let outcome = outcome(check, &r);
                let again = matches!(outcome, Outcome::Broken(_))
                    && (r.status >= 500 || r.status == 429)
                    && !last;
                if again {
                    (None, None, r.retry_after)
                } else {
                    (Some(outcome), Some(r.status), None)
                }
            }
        };
        if let Some(outcome) = outcome {
            return CheckResult {
                outcome,
                status,
                attempts,
                elapsed: start.elapsed(),
            };
        }
        let (pause, next) = pause(wait, retry_after);
        std::thread::sleep(pause);
        wait = next;
    }
}

/// The longest wait the doubling reaches. A `Retry-After` may ask for up
/// to [`MAX_RETRY_AFTER`], so no wait is longer than that, and a URL waits
/// at most `retries` times as long (`docs/security.md`, "Work and output
/// are bounded").
const MAX_BACKOFF: Duration = Duration::from_secs(8);

/// The wait before the next try (`wait`, or the server's `Retry-After`
/// when longer, never more than [`MAX_RETRY_AFTER`]), and the wait after
/// that one: doubled, up to [`MAX_BACKOFF`].
fn pause(wait: Duration, retry_after: Option<u64>) -> (Duration, Duration) {
    let asked = retry_after.map_or(Duration::ZERO, Duration::from_secs);
    (
        asked.max(wait).min(MAX_RETRY_AFTER),
        wait.saturating_mul(2).min(MAX_BACKOFF),
    )
}

/// Run every check: `concurrency` worker threads, at most `per_host` per
/// origin. `on_result` is called (from worker threads) as each check ends.
/// Results are in the order of `checks`.
pub fn run(
    checks: &[UrlCheck],
    client: &Client,
    options: &RunOptions,
    on_result: &(dyn Fn(&UrlCheck, &CheckResult) + Sync),
) -> Vec<CheckResult> {
    let mut origins = std::collections::HashMap::new();
    let host_of: Vec<usize> = checks
        .iter()
        .map(|c| {
            let next = origins.len();
            *origins.entry(c.origin.as_str()).or_insert(next)
        })
        .collect();
    let scheduler = schedule::Scheduler::new(&host_of, options.per_host);
    let robots = robots::RobotsCache::default();
    let results: Vec<std::sync::Mutex<Option<CheckResult>>> =
        checks.iter().map(|_| std::sync::Mutex::new(None)).collect();
    let workers = options.concurrency.clamp(1, checks.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                while let Some(ticket) = scheduler.next() {
                    let check = &checks[ticket.check];
                    let result = if check.not_checked.is_some() || check.skip.is_some() {
                        check_one(client, check, options)
                    } else if let Some(why) = options
                        .respect_robots
                        .then(|| robots.denial(client, &check.origin, &check.path))
                        .flatten()
                    {
                        CheckResult {
                            outcome: Outcome::SkippedByRobots(why),
                            status: None,
                            attempts: 0,
                            elapsed: Duration::ZERO,
                        }
                    } else {
                        check_one(client, check, options)
                    };
                    scheduler.done(ticket);
                    on_result(check, &result);
                    if let Ok(mut slot) = results[ticket.check].lock() {
                        *slot = Some(result);
                    }
                }
            });
        }
    });
    results
        .into_iter()
        .map(|slot| {
            slot.into_inner().ok().flatten().unwrap_or(CheckResult {
                outcome: Outcome::Broken(Failure::NoAnswer(FetchError::Io(
                    "internal error: the check did not run".to_string(),
                ))),
                status: None,
                attempts: 0,
                elapsed: Duration::ZERO,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_wait_is_capped_whatever_the_retries_or_the_server_ask() {
        let max = crate::config::MAX_RETRIES;
        let (mut wait, mut total, mut waits) =
            (RunOptions::default().backoff, Duration::ZERO, vec![]);
        for _ in 0..max {
            let (now, next) = pause(wait, None);
            waits.push(now.as_millis());
            total += now;
            wait = next;
        }
        assert_eq!(
            waits,
            [250, 500, 1000, 2000, 4000, 8000, 8000, 8000, 8000, 8000]
        );
        assert_eq!(total, Duration::from_millis(47_750));
        // A server's Retry-After is honoured up to 30 s, never more.
        assert_eq!(pause(wait, Some(3600)).0, MAX_RETRY_AFTER);
        assert_eq!(pause(wait, Some(12)).0, Duration::from_secs(12));
        assert_eq!(pause(Duration::from_secs(600), None).0, MAX_RETRY_AFTER);
    }
}
