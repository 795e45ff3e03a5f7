//! Running the checks: worker threads, at most so many requests to one
//! origin at once and each origin paced (`crate::schedule`), robots.txt
//! when asked, retries with a capped wait, each answer judged
//! (`judging.rs`) as it comes, and each origin's figures kept.

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
    /// The shortest time between two requests to one origin
    /// (`--per-host-interval`); a host's `interval` in `urldb.toml`, its
    /// `Crawl-delay` or its rate-limit policy may make it longer.
    pub per_host_interval: Duration,
    /// The origins this shard shares with others, and among how many
    /// (`crate::shard::by_host`): their limits are divided.
    pub shares: std::collections::BTreeMap<String, u32>,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            concurrency: 32,
            per_host: 6,
            retries: 2,
            backoff: Duration::from_millis(250),
            respect_robots: false,
            per_host_interval: Duration::ZERO,
            shares: std::collections::BTreeMap::new(),
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

/// What a check asks of its host's pace (`schedule.rs`).
struct Gate<'a> {
    scheduler: &'a schedule::Scheduler,
    host: usize,
}

impl Gate<'_> {
    /// Wait for the host's turn, make the request, and tell the pace how
    /// it was answered.
    fn get(
        &self,
        client: &Client,
        url: &str,
        mode: BodyMode,
        request: &crate::exceptions::Request,
    ) -> Result<crate::http::Response, FetchError> {
        self.scheduler.turn(self.host);
        let sent = Instant::now();
        let result = client.get_with(url, mode, None, request);
        let latency_ms = u64::try_from(sent.elapsed().as_millis()).unwrap_or(u64::MAX);
        let answer = match &result {
            Ok(r) => schedule::Answer {
                status: Some(r.status),
                latency_ms: Some(latency_ms),
                retry_after: r.retry_after.map(Duration::from_secs),
                exhausted: r.rate_limit.exhausted(),
                policy: r.rate_limit.interval,
                max_pause: MAX_RETRY_AFTER,
            },
            Err(_) => schedule::Answer {
                max_pause: MAX_RETRY_AFTER,
                ..schedule::Answer::default()
            },
        };
        self.scheduler.answered(self.host, answer);
        result
    }
}

/// Fetch one URL (never one that is not to be checked), retrying on
/// connection errors, 5xx and 429 that would be broken, and judge the
/// last answer. A 429 or 503 has paused the whole host before the next
/// try ([`schedule::Scheduler::answered`]); other failures wait here.
fn check_one(
    client: &Client,
    check: &UrlCheck,
    options: &RunOptions,
    gate: &Gate<'_>,
) -> CheckResult {
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
        let result = gate.get(client, &check.url, mode, &check.request);
        let (outcome, status, host_paused) = match result {
            Err(e) if e.is_transient() && !last => (None, None, false),
            Err(e) => (Some(Outcome::Broken(Failure::NoAnswer(e))), None, false),
            Ok(r) => {
                let outcome = outcome(check, &r);
                let again = matches!(outcome, Outcome::Broken(_))
                    && (r.status >= 500 || r.status == 429)
                    && !last;
                if again {
                    (None, None, r.status == 429 || r.status == 503)
                } else {
                    (Some(outcome), Some(r.status), false)
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
        let (pause, next) = pause(wait, None);
        if !host_paused {
            std::thread::sleep(pause);
        }
        wait = next;
    }
}

/// A check that makes no request: its outcome is known from the plan.
fn unrequested(check: &UrlCheck) -> Option<CheckResult> {
    let outcome = if let Some(reason) = &check.not_checked {
        Outcome::Broken(Failure::NotChecked(reason.to_string()))
    } else {
        Outcome::Skipped(check.skip.clone()?)
    };
    Some(CheckResult {
        outcome,
        status: None,
        attempts: 0,
        elapsed: Duration::ZERO,
    })
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

/// What one host saw in a run (`docs/verify.md`, "Pacing"): the origin
/// requested (after `--map`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostRun {
    pub origin: String,
    /// Requests sent (robots.txt and retries included).
    pub requests: u64,
    /// The median time to an answer, in milliseconds.
    pub median_ms: Option<u64>,
    /// 429 answers.
    pub too_many: u64,
    /// 5xx answers.
    pub server_errors: u64,
    pub robots_skipped: u64,
    /// The interval at the end of the run, in milliseconds.
    pub interval_ms: u64,
    /// A `Crawl-delay` over the cap, in milliseconds (the cap was used).
    pub crawl_delay_capped_ms: Option<u64>,
}

/// Every check's result, in the order of the checks, and each host's
/// figures, in the order hosts first appear.
#[derive(Debug, Clone)]
pub struct RunOutput {
    pub results: Vec<CheckResult>,
    pub hosts: Vec<HostRun>,
}

/// Run every check: `concurrency` worker threads, at most `per_host` per
/// origin, each origin paced. `on_result` is called (from worker threads)
/// as each check ends.
pub fn run(
    checks: &[UrlCheck],
    client: &Client,
    options: &RunOptions,
    on_result: &(dyn Fn(&UrlCheck, &CheckResult) + Sync),
) -> RunOutput {
    let mut origins: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let mut names: Vec<&str> = Vec::new();
    let mut intervals: Vec<Duration> = Vec::new();
    let host_of: Vec<usize> = checks
        .iter()
        .map(|c| {
            let next = origins.len();
            let host = *origins.entry(c.origin.as_str()).or_insert(next);
            if host == next {
                names.push(c.origin.as_str());
                intervals.push(options.per_host_interval);
            }
            // A host's interval: the longest its URLs' sections ask.
            if let Some(i) = c.request.interval {
                intervals[host] = intervals[host].max(i);
            }
            host
        })
        .collect();
    let shares: Vec<u32> = names
        .iter()
        .map(|o| options.shares.get(*o).copied().unwrap_or(1))
        .collect();
    let scheduler = schedule::Scheduler::new(
        &host_of,
        options.per_host,
        &intervals,
        &shares,
        options.backoff,
    );
    let robots = robots::RobotsCache::default();
    let results: Vec<std::sync::Mutex<Option<CheckResult>>> =
        checks.iter().map(|_| std::sync::Mutex::new(None)).collect();
    let workers = options.concurrency.clamp(1, checks.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                while let Some(ticket) = scheduler.next() {
                    let check = &checks[ticket.check];
                    let gate = Gate {
                        scheduler: &scheduler,
                        host: ticket.host,
                    };
                    let result = if let Some(known) = unrequested(check) {
                        known
                    } else if let Some(why) = options
                        .respect_robots
                        .then(|| robots_denial(&robots, client, check, &gate))
                        .flatten()
                    {
                        scheduler.robots_skipped(ticket.host);
                        CheckResult {
                            outcome: Outcome::SkippedByRobots(why),
                            status: None,
                            attempts: 0,
                            elapsed: Duration::ZERO,
                        }
                    } else {
                        check_one(client, check, options, &gate)
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
    let results = results
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
        .collect();
    let hosts = scheduler
        .hosts()
        .into_iter()
        .zip(names)
        .map(|((pace, mut tally), origin)| HostRun {
            origin: origin.to_string(),
            requests: tally.requests,
            median_ms: median(&mut tally.latencies_ms),
            too_many: tally.too_many,
            server_errors: tally.server_errors,
            robots_skipped: tally.robots_skipped,
            interval_ms: millis(pace.spacing()),
            crawl_delay_capped_ms: tally.crawl_delay_capped.map(millis),
        })
        .collect();
    RunOutput { results, hosts }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

fn median(values: &mut [u64]) -> Option<u64> {
    if values.is_empty() {
        return None;
    }
    let mid = values.len() / 2;
    Some(*values.select_nth_unstable(mid).1)
}

/// Why robots.txt keeps `check` away, if it does: the first check of an
/// origin fetches it (a request like any other, paced), and its
/// `Crawl-delay` raises the origin's interval (at most
/// [`crate::pace::MAX_CRAWL_DELAY`]).
fn robots_denial(
    robots: &robots::RobotsCache,
    client: &Client,
    check: &UrlCheck,
    gate: &Gate<'_>,
) -> Option<crate::robots::RobotsDenial> {
    let found = robots.get(client, &check.origin, &|| gate.scheduler.turn(gate.host));
    let answer = found.get()?;
    if let Some(delay) = answer.crawl_delay() {
        gate.scheduler
            .crawl_delay(gate.host, delay, crate::pace::MAX_CRAWL_DELAY);
    }
    answer.denial(&check.path)
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
