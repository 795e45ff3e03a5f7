//! Running the checks: worker threads, at most so many requests to one
//! origin at once and each origin paced (`crate::schedule`), robots.txt
//! when asked, retries with a capped wait, each answer judged
//! (`judging.rs`) as it comes, and each origin's figures kept.

use std::time::{Duration, Instant};

use crate::http::{BodyMode, Client, FetchError};
use std::collections::HashMap;

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
    /// `--follow-moves`: follow a permanent redirect the record does not
    /// accept and compare what is there (`crate::moves`).
    pub follow_moves: Option<crate::moves::FollowMoves>,
    /// `--archive`: look for a copy of each broken URL in a web archive
    /// (`crate::archive`).
    pub archive: Option<crate::archive::ArchiveOptions>,
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
            follow_moves: None,
            archive: None,
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
    /// With `--follow-moves`, for a permanent redirect: where it led.
    pub moved: Option<crate::moves::Moved>,
    /// With `--archive`, for a broken URL: what the archive holds.
    pub archived: Option<crate::archive::Archived>,
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
                moved: None,
                archived: None,
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
        moved: None,
        archived: None,
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
    let mut origins: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut names: Vec<String> = Vec::new();
    let mut intervals: Vec<Duration> = Vec::new();
    let host_of: Vec<usize> = checks
        .iter()
        .map(|c| {
            let next = origins.len();
            let host = *origins.entry(c.origin.clone()).or_insert(next);
            if host == next {
                names.push(c.origin.clone());
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
        .map(|o| options.shares.get(o).copied().unwrap_or(1))
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
                            moved: None,
                            archived: None,
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
                moved: None,
                archived: None,
            })
        })
        .collect::<Vec<_>>();
    let mut results = results;
    let mut hosts = Hosts {
        scheduler: &scheduler,
        origins,
        names,
        options,
    };
    if let Some(follow) = &options.follow_moves {
        follow_moves(checks, &mut results, client, follow, &mut hosts, &robots);
    }
    if let Some(archive) = &options.archive {
        look_in_archive(checks, &mut results, client, archive, &mut hosts);
    }
    let names = hosts.names;
    let hosts = scheduler
        .hosts()
        .into_iter()
        .zip(names)
        .map(|((pace, mut tally), origin)| HostRun {
            origin,
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

/// The run's origins after the checks: those of the checks, and the ones
/// later requests add (a redirect's target), each paced by one scheduler.
struct Hosts<'a> {
    scheduler: &'a schedule::Scheduler,
    origins: std::collections::HashMap<String, usize>,
    names: Vec<String>,
    options: &'a RunOptions,
}

impl Hosts<'_> {
    /// The scheduler's host for `origin`, added at the run's interval and
    /// limits when the checks did not name it.
    fn of(&mut self, origin: &str) -> usize {
        self.of_with(
            origin,
            self.options.per_host_interval,
            self.options.per_host,
        )
    }

    /// [`Hosts::of`], a host the checks did not name added with its own
    /// interval and limit.
    fn of_with(&mut self, origin: &str, interval: Duration, per_host: usize) -> usize {
        if let Some(&host) = self.origins.get(origin) {
            return host;
        }
        let share = self.options.shares.get(origin).copied().unwrap_or(1);
        let host = self.scheduler.add_host(interval, share, per_host);
        self.origins.insert(origin.to_string(), host);
        self.names.push(origin.to_string());
        host
    }
}

/// Run `job` for every task pushed to `scheduler`, on at most
/// `concurrency` threads, each task under its host's limit and pace.
fn work(
    scheduler: &schedule::Scheduler,
    concurrency: usize,
    tasks: usize,
    job: &(dyn Fn(usize, &Gate<'_>) + Sync),
) {
    let workers = concurrency.clamp(1, tasks.max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                while let Some(ticket) = scheduler.next() {
                    let gate = Gate {
                        scheduler,
                        host: ticket.host,
                    };
                    job(ticket.check, &gate);
                    scheduler.done(ticket);
                }
            });
        }
    });
}

/// A redirect being followed for one check.
struct Following {
    check: usize,
    /// The record's URL's status (301 or 308).
    status: u16,
    /// Redirects followed to reach `target`.
    hops: u32,
    /// The published URLs met, the record's first: a loop ends the chase.
    seen: Vec<String>,
    target: url::Url,
}

/// `--follow-moves`: one hop at a time for every check answered with a
/// permanent redirect its record does not accept, each request paced with
/// the others of its host (`docs/verify.md`, "When a URL breaks").
fn follow_moves(
    checks: &[UrlCheck],
    results: &mut [CheckResult],
    client: &Client,
    follow: &crate::moves::FollowMoves,
    hosts: &mut Hosts<'_>,
    robots: &robots::RobotsCache,
) {
    use crate::moves::{self, MoveVerdict, Moved, Step};
    // A redirect to a host the database does not name gets the guard,
    // whatever `--allow-private` says.
    let strict = if client.options().allow_private {
        Client::new(crate::http::ClientOptions {
            allow_private: false,
            ..client.options().clone()
        })
    } else {
        client.clone()
    };
    let not_moved = |f: &Following, target: Option<String>, reason: String| Moved {
        verdict: MoveVerdict::NotMoved,
        from: checks[f.check].published.clone(),
        status: f.status,
        target,
        hops: f.hops,
        reason,
    };
    let mut chasing: Vec<Following> = Vec::new();
    for (i, (check, result)) in checks.iter().zip(results.iter_mut()).enumerate() {
        let Some((status, location)) = moves::start(&result.outcome) else {
            continue;
        };
        match moves::next_url(&check.published, location) {
            Ok(target) => chasing.push(Following {
                check: i,
                status,
                hops: 1,
                seen: vec![check.published.clone()],
                target,
            }),
            Err(reason) => {
                result.moved = Some(Moved {
                    verdict: MoveVerdict::NotMoved,
                    from: check.published.clone(),
                    status,
                    target: None,
                    hops: 0,
                    reason: reason.to_string(),
                });
            }
        }
    }
    while !chasing.is_empty() {
        struct Task {
            following: Following,
            hop: moves::HopRequest,
            host: usize,
            guarded: bool,
            request: std::sync::Arc<crate::exceptions::Request>,
        }
        let mut tasks: Vec<Task> = Vec::new();
        for following in chasing.drain(..) {
            let check = &checks[following.check];
            let target = following.target.to_string();
            if following.hops > moves::MAX_HOPS {
                results[following.check].moved = Some(not_moved(
                    &following,
                    Some(target),
                    format!("more than {} redirects", moves::MAX_HOPS),
                ));
                continue;
            }
            if following.seen.contains(&target) {
                results[following.check].moved = Some(not_moved(
                    &following,
                    Some(target),
                    "a redirect loop".to_string(),
                ));
                continue;
            }
            let hop = match moves::request(&following.target, &follow.maps) {
                Ok(hop) => hop,
                Err(why) => {
                    results[following.check].moved =
                        Some(not_moved(&following, Some(target), why.to_string()));
                    continue;
                }
            };
            // The record's headers go to its own origin only, never to
            // another host or scheme.
            let same_origin = url::Url::parse(&check.published)
                .is_ok_and(|own| own.origin() == following.target.origin());
            let request = if same_origin {
                std::sync::Arc::clone(&check.request)
            } else {
                std::sync::Arc::default()
            };
            tasks.push(Task {
                host: hosts.of(&hop.origin),
                guarded: !follow.trusted.contains(hop.host.trim_end_matches('.')),
                hop,
                following,
                request,
            });
        }
        for (i, task) in tasks.iter().enumerate() {
            hosts.scheduler.push(task.host, i);
        }
        // A hop's answer, or the robots.txt rule that kept it unasked.
        let answers: Vec<std::sync::Mutex<Option<Result<Step, crate::robots::RobotsDenial>>>> =
            tasks.iter().map(|_| std::sync::Mutex::new(None)).collect();
        work(
            hosts.scheduler,
            hosts.options.concurrency,
            tasks.len(),
            &|i, gate| {
                let task = &tasks[i];
                let check = &checks[task.following.check];
                let client = if task.guarded { &strict } else { client };
                let path = &task.hop.url[task.hop.origin.len()..];
                let denied = hosts.options.respect_robots.then(|| {
                    let found =
                        robots.get(client, &task.hop.origin, &|| gate.scheduler.turn(gate.host));
                    found.get().and_then(|r| r.denial(path))
                });
                let step = match denied.flatten() {
                    Some(why) => Err(why),
                    None => {
                        let mode = if check.expect.wants_body() {
                            BodyMode::Digest
                        } else {
                            BodyMode::Ignore
                        };
                        let answer = gate.get(client, &task.hop.url, mode, &task.request);
                        Ok(moves::judge(&check.expect, &answer))
                    }
                };
                if let Ok(mut slot) = answers[i].lock() {
                    *slot = Some(step);
                }
            },
        );
        for (task, answer) in tasks.into_iter().zip(answers) {
            let mut following = task.following;
            let target = following.target.to_string();
            let step = answer.into_inner().ok().flatten();
            let moved = |verdict, reason| Moved {
                verdict,
                from: checks[following.check].published.clone(),
                status: following.status,
                target: Some(target.clone()),
                hops: following.hops,
                reason,
            };
            let result = match step {
                None => moved(
                    MoveVerdict::NotMoved,
                    "internal error: not requested".to_string(),
                ),
                Some(Err(robots)) => moved(MoveVerdict::NotMoved, robots.to_string()),
                Some(Ok(Step::Done(verdict, reason))) => moved(verdict, reason),
                Some(Ok(Step::Next(location))) => match moves::next_url(&target, &location) {
                    Ok(next) => {
                        following.seen.push(target.clone());
                        following.hops += 1;
                        following.target = next;
                        chasing.push(following);
                        continue;
                    }
                    Err(why) => moved(MoveVerdict::NotMoved, why.to_string()),
                },
            };
            results[following.check].moved = Some(result);
        }
    }
}

/// `--archive`: for each broken URL that may be sent, the archive's
/// captures, then the newest few fetched raw, one request at a time to
/// the archive and each paced with the others (`docs/verify.md`, "When a
/// URL breaks"). A lookup kept in the history is used instead.
fn look_in_archive(
    checks: &[UrlCheck],
    results: &mut [CheckResult],
    client: &Client,
    archive: &crate::archive::ArchiveOptions,
    hosts: &mut Hosts<'_>,
) {
    use crate::archive::{self, ArchiveVerdict, Archived};
    use std::sync::Mutex;
    let now = jiff::Timestamp::now();
    // An archive named by urldb.toml is guarded whatever `--allow-private`
    // says: a pull request chose it.
    let strict;
    let archive_client = if archive.guarded && client.options().allow_private {
        strict = Client::new(crate::http::ClientOptions {
            allow_private: false,
            ..client.options().clone()
        });
        &strict
    } else {
        client
    };
    let lookup = |check: &UrlCheck, verdict, reason: String| Archived {
        verdict,
        timestamp: None,
        url: None,
        reason,
        looked: archive.now.clone(),
        record: archive::compared(&check.expect),
    };
    let Ok(base) = url::Url::parse(&archive.base) else {
        return;
    };
    let origin = base.origin().ascii_serialization();
    let interval = if base.host_str() == Some("web.archive.org") {
        hosts
            .options
            .per_host_interval
            .max(archive::INTERNET_ARCHIVE_INTERVAL)
    } else {
        hosts.options.per_host_interval
    };
    let host = hosts.of_with(&origin, interval, 1);
    let mut asking: Vec<usize> = Vec::new();
    for (i, (check, result)) in checks.iter().zip(results.iter_mut()).enumerate() {
        let Outcome::Broken(failure) = &result.outcome else {
            continue;
        };
        if matches!(failure, Failure::NotChecked(_))
            || result
                .moved
                .as_ref()
                .is_some_and(|m| m.verdict == crate::moves::MoveVerdict::Moved)
        {
            continue;
        }
        // The record's own host, when the run asked it (no `--map`).
        let mapped = check.url != check.published;
        let private_answer = matches!(
            failure,
            Failure::NoAnswer(FetchError::PrivateAddress { .. })
        );
        let resolved_private = !mapped
            && (private_answer
                || check
                    .origin
                    .split_once("://")
                    .is_some_and(|(_, authority)| client.resolved_private(authority)));
        if let Some(why) = archive::withheld(&check.published, &archive.never, resolved_private) {
            result.archived = Some(lookup(
                check,
                ArchiveVerdict::NotAsked,
                format!("{why}; its URLs are never sent to an archive"),
            ));
            continue;
        }
        if let Some(known) = archive::kept(archive, &check.url, &check.expect, now) {
            result.archived = Some(known.clone());
            continue;
        }
        asking.push(i);
    }
    if asking.is_empty() {
        return;
    }
    let request = crate::exceptions::Request::default();
    for n in 0..asking.len() {
        hosts.scheduler.push(host, n);
    }
    /// The captures the archive listed for a URL, or why none.
    type Listed = Result<Vec<archive::Capture>, archive::NotListed>;
    let listed: Vec<Mutex<Option<Listed>>> = asking.iter().map(|_| Mutex::new(None)).collect();
    work(
        hosts.scheduler,
        hosts.options.concurrency,
        asking.len(),
        &|n, gate| {
            let check = &checks[asking[n]];
            let answer = match archive::cdx_url(&archive.base, &check.published) {
                None => Err(archive::NotListed::NoArchiveUrl(archive.base.clone())),
                Some(url) => match gate.get(
                    archive_client,
                    &url,
                    BodyMode::Collect(archive::MAX_CDX),
                    &request,
                ) {
                    Ok(r) if (200..300).contains(&r.status) => {
                        archive::captures(&r.bytes.unwrap_or_default())
                    }
                    Ok(r) => Err(archive::NotListed::Status(r.status)),
                    Err(e) => Err(archive::NotListed::NoAnswer(e)),
                },
            };
            if let Ok(mut slot) = listed[n].lock() {
                *slot = Some(answer);
            }
        },
    );
    /// Of one URL: its captures to fetch (raw URL, timestamp, page),
    /// newest first; those tried and failed, and the newest that serves.
    #[derive(Default)]
    struct Tally {
        captures: Vec<(String, String, String)>,
        tried: usize,
        failed: usize,
        found: Option<(String, String)>,
    }
    let mut outcome: HashMap<usize, Tally> = HashMap::new();
    for (n, answer) in listed.into_iter().enumerate() {
        let check = &checks[asking[n]];
        let result = &mut results[asking[n]];
        match answer.into_inner().ok().flatten() {
            None => {}
            Some(Err(why)) => {
                result.archived = Some(lookup(check, ArchiveVerdict::NotAsked, why.to_string()));
            }
            Some(Ok(all)) => {
                let count = all.len();
                let chosen = archive::candidates(&check.expect, all);
                if chosen.is_empty() {
                    result.archived = Some(lookup(
                        check,
                        ArchiveVerdict::None,
                        match count {
                            0 => "the archive has no capture of it".to_string(),
                            _ => format!("none of its {count} captures has its media type"),
                        },
                    ));
                    continue;
                }
                let captures = chosen
                    .into_iter()
                    .map(|c| {
                        let (raw, page) =
                            archive::capture_urls(&archive.base, &c.timestamp, &check.published);
                        (raw, c.timestamp, page)
                    })
                    .collect();
                outcome.insert(
                    n,
                    Tally {
                        captures,
                        ..Tally::default()
                    },
                );
            }
        }
    }
    // Round by round, the next newest capture of each URL not found yet:
    // the newest that serves ends its search, and asks the archive no more.
    for round in 0..archive::MAX_CAPTURES {
        let fetching: Vec<(usize, String)> = outcome
            .iter()
            .filter(|(_, t)| t.found.is_none())
            .filter_map(|(n, t)| Some((*n, t.captures.get(round)?.0.clone())))
            .collect();
        if fetching.is_empty() {
            break;
        }
        for t in 0..fetching.len() {
            hosts.scheduler.push(host, t);
        }
        let served: Vec<Mutex<Option<bool>>> = fetching.iter().map(|_| Mutex::new(None)).collect();
        work(
            hosts.scheduler,
            hosts.options.concurrency,
            fetching.len(),
            &|t, gate| {
                let (n, raw) = &fetching[t];
                let check = &checks[asking[*n]];
                let mode = if check.expect.sha256.is_some() {
                    BodyMode::Digest
                } else {
                    BodyMode::Ignore
                };
                // An archive may send a capture's request on to the capture
                // it keeps nearest that time: followed on the archive's own
                // origin only, a few times.
                let mut url = raw.clone();
                let mut answer = gate.get(archive_client, &url, mode, &request);
                for _ in 0..archive::MAX_CAPTURE_REDIRECTS {
                    let next = match &answer {
                        Ok(r) if (300..400).contains(&r.status) => r
                            .location
                            .as_deref()
                            .and_then(|l| url::Url::parse(&url).ok()?.join(l).ok())
                            .filter(|n| n.origin().ascii_serialization() == origin),
                        _ => None,
                    };
                    let Some(next) = next else { break };
                    url = next.to_string();
                    answer = gate.get(archive_client, &url, mode, &request);
                }
                if let Ok(mut slot) = served[t].lock() {
                    *slot = archive::serves(&check.expect, &answer);
                }
            },
        );
        for ((n, _), served) in fetching.into_iter().zip(served) {
            let Some(tally) = outcome.get_mut(&n) else {
                continue;
            };
            tally.tried += 1;
            match served.into_inner().ok().flatten() {
                Some(true) => {
                    tally.found = tally
                        .captures
                        .get(round)
                        .map(|(_, timestamp, page)| (timestamp.clone(), page.clone()));
                }
                Some(false) => {}
                None => tally.failed += 1,
            }
        }
    }
    for (
        n,
        Tally {
            tried,
            failed,
            found,
            ..
        },
    ) in outcome
    {
        let check = &checks[asking[n]];
        let identical = check.expect.sha256.is_some();
        results[asking[n]].archived = Some(match found {
            Some((timestamp, page)) => Archived {
                timestamp: Some(timestamp),
                url: Some(page),
                ..lookup(
                    check,
                    if identical {
                        ArchiveVerdict::Identical
                    } else {
                        ArchiveVerdict::Unverified
                    },
                    if identical {
                        "the same SHA-256 and length".to_string()
                    } else {
                        "the same media type".to_string()
                    },
                )
            },
            None if failed == tried => lookup(
                check,
                ArchiveVerdict::NotAsked,
                format!("none of the {tried} newest captures could be fetched"),
            ),
            None => lookup(
                check,
                ArchiveVerdict::None,
                format!(
                    "none of the {tried} newest captures {}",
                    if identical {
                        "is byte-identical"
                    } else {
                        "serves its media type"
                    }
                ),
            ),
        });
    }
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
