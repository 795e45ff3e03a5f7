//! Handing checks to worker threads: at most N in flight overall and at
//! most K per origin, so a database with 5,000 URLs on one site does not
//! hammer it with every connection while other sites wait.
//!
//! Of the origins ready, the one with the longest paced time left goes
//! first (its checks left × its interval, then its checks left; ties take
//! turns): the largest host is the run's critical path, so each of its
//! requests starts as soon as its pace allows, and the others fill the
//! time between (`docs/dev/performance.md`, "The scale rehearsal"). No
//! origin starves the others: it holds at most its `--per-host` slots,
//! and waits its interval between requests. Each origin
//! has a pace: no two of its requests start closer than its interval, and
//! a 429 or 503 pauses all of its requests, not only the one refused
//! (`docs/verify.md`, "Pacing"). An origin that must wait is passed over,
//! so its wait holds no worker.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// The longest interval a host's refusals raise it to (a configured
/// interval or a `Crawl-delay` may be longer).
const MAX_ADAPTIVE: Duration = Duration::from_secs(8);

/// Answers without a refusal after which a raised interval halves back
/// towards the host's own.
const CALM: u32 = 8;

/// How fast one host may be asked (`docs/verify.md`, "Pacing").
#[derive(Debug, Clone)]
pub(crate) struct Pace {
    /// The host's own interval: `--per-host-interval`, its `interval` in
    /// `urldb.toml`, a `Crawl-delay` or a `RateLimit-Policy`, whichever
    /// is longest.
    pub base: Duration,
    /// The interval now: `base`, or longer after refusals.
    pub interval: Duration,
    /// Among how many shards the host is split (`crate::shard::by_host`):
    /// each keeps this many times the interval.
    pub share: u32,
    /// No request starts before this.
    next_start: Option<Instant>,
    /// When the last request started.
    last_start: Option<Instant>,
    paused_until: Option<Instant>,
    /// The next host-wide pause after a refusal (doubles, up to 8 s).
    backoff: Duration,
    /// Answers since the last refusal.
    calm: u32,
}

impl Pace {
    /// At least `interval` from now on, the last request included: the
    /// next starts that long after it.
    fn raise(&mut self, interval: Duration) {
        self.base = self.base.max(interval);
        self.interval = self.interval.max(interval);
        if let Some(last) = self.last_start {
            self.next_start = self.next_start.max(Some(last + self.spacing()));
        }
    }

    /// The time between two of this shard's requests: the interval, times
    /// the shards the host is split over.
    pub(crate) fn spacing(&self) -> Duration {
        self.interval.saturating_mul(self.share)
    }
}

/// What happened with one host, for the report.
#[derive(Debug, Clone, Default)]
pub(crate) struct Tally {
    pub requests: u64,
    pub latencies_ms: Vec<u64>,
    pub too_many: u64,
    pub server_errors: u64,
    pub robots_skipped: u64,
    /// The `Crawl-delay` asked, when over [`crate::pace::MAX_CRAWL_DELAY`].
    pub crawl_delay_capped: Option<Duration>,
}

struct Host {
    pending: VecDeque<usize>,
    active: usize,
    /// Requests in flight at most: `--per-host`, divided among the shards
    /// the host is split over.
    limit: usize,
    /// In `available` or `resting` (has pending work and a free slot).
    queued: bool,
    pace: Pace,
    tally: Tally,
}

impl Host {
    /// A host with no work yet: `base` its own interval, split over
    /// `share` shards, at most `per_host` (divided among them) in flight.
    fn new(base: Duration, share: u32, per_host: usize, backoff: Duration) -> Host {
        let share = share.max(1);
        Host {
            pending: VecDeque::new(),
            active: 0,
            limit: (per_host.max(1) / share as usize).max(1),
            queued: false,
            pace: Pace {
                base,
                interval: base,
                share,
                next_start: None,
                last_start: None,
                paused_until: None,
                backoff,
                calm: 0,
            },
            tally: Tally::default(),
        }
    }

    fn ready_at(&self) -> Option<Instant> {
        self.pace.next_start.max(self.pace.paused_until)
    }
}

struct State {
    hosts: Vec<Host>,
    /// Hosts with work and a free slot, ready now: the longest paced time
    /// left first ([`Ready`]).
    available: BinaryHeap<Ready>,
    /// Offers made so far: among equal hosts, the earliest offered first.
    offers: u64,
    /// Hosts with work and a free slot that must wait for their pace,
    /// the soonest first.
    resting: BinaryHeap<Reverse<(Instant, usize)>>,
    remaining: usize,
}

/// A host ready to be asked, by how much paced time it has left.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Ready {
    /// Its checks left × its spacing: what it needs at least from now.
    paced: Duration,
    /// Its checks left (hosts without an interval: the most first).
    left: usize,
    /// The earlier offered first among equals (turns).
    turn: Reverse<u64>,
    host: usize,
}

impl State {
    /// Put `host` (with work and a free slot) among those ready.
    fn offer(&mut self, host: usize) {
        let h = &self.hosts[host];
        let left = h.pending.len();
        let paced = h
            .pace
            .spacing()
            .saturating_mul(u32::try_from(left).unwrap_or(u32::MAX));
        self.offers += 1;
        self.available.push(Ready {
            paced,
            left,
            turn: Reverse(self.offers),
            host,
        });
    }
}

pub(crate) struct Scheduler {
    state: Mutex<State>,
    wake: Condvar,
    /// The first host-wide pause after a refusal.
    backoff: Duration,
}

/// A check handed out: release it with [`Scheduler::done`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Ticket {
    pub check: usize,
    pub host: usize,
}

impl Scheduler {
    /// `host_of[i]` is the host index of check `i` (any dense numbering);
    /// `intervals[h]` host `h`'s own interval (none: no pause between
    /// requests); `shares[h]` among how many shards host `h` is split
    /// (none: 1); `backoff` the first host-wide pause after a 429 or 503.
    pub(crate) fn new(
        host_of: &[usize],
        per_host: usize,
        intervals: &[Duration],
        shares: &[u32],
        backoff: Duration,
    ) -> Scheduler {
        let count = host_of.iter().map(|h| h + 1).max().unwrap_or(0);
        let mut hosts: Vec<Host> = (0..count)
            .map(|h| {
                let base = intervals.get(h).copied().unwrap_or_default();
                let share = shares.get(h).copied().unwrap_or(1);
                Host::new(base, share, per_host, backoff)
            })
            .collect();
        let mut order = Vec::new();
        for (check, &host) in host_of.iter().enumerate() {
            let h = &mut hosts[host];
            h.pending.push_back(check);
            if !h.queued {
                h.queued = true;
                order.push(host);
            }
        }
        let mut state = State {
            hosts,
            available: BinaryHeap::new(),
            offers: 0,
            resting: BinaryHeap::new(),
            remaining: host_of.len(),
        };
        for host in order {
            state.offer(host);
        }
        Scheduler {
            state: Mutex::new(state),
            wake: Condvar::new(),
            backoff,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The next check to run, waiting for a free per-host slot, or for a
    /// host's pace, when needed; `None` when every check has been handed
    /// out. A host whose next request may not start yet is passed over.
    pub(crate) fn next(&self) -> Option<Ticket> {
        let mut state = self.lock();
        loop {
            if state.remaining == 0 {
                return None;
            }
            let now = Instant::now();
            while let Some(&Reverse((at, host))) = state.resting.peek() {
                if at > now {
                    break;
                }
                state.resting.pop();
                state.offer(host);
            }
            if let Some(Ready { host, .. }) = state.available.pop() {
                let h = &mut state.hosts[host];
                let per_host = h.limit;
                if h.pending.is_empty() {
                    h.queued = false;
                    continue;
                }
                if let Some(at) = h.ready_at().filter(|at| *at > now) {
                    state.resting.push(Reverse((at, host)));
                    continue;
                }
                let Some(check) = h.pending.pop_front() else {
                    continue;
                };
                h.active += 1;
                let again = !h.pending.is_empty() && h.active < per_host;
                h.queued = again;
                if again {
                    state.offer(host);
                }
                state.remaining -= 1;
                return Some(Ticket { check, host });
            }
            state = match state.resting.peek() {
                Some(&Reverse((at, _))) => {
                    let wait = at.saturating_duration_since(now);
                    self.wake
                        .wait_timeout(state, wait)
                        .unwrap_or_else(|p| p.into_inner())
                        .0
                }
                None => self.wake.wait(state).unwrap_or_else(|p| p.into_inner()),
            };
        }
    }

    /// A host the checks did not name (a redirect's target, the archive:
    /// `docs/verify.md`, "When a URL breaks"), paced and limited as the
    /// others; its number for [`Scheduler::push`].
    pub(crate) fn add_host(&self, interval: Duration, share: u32, per_host: usize) -> usize {
        let mut state = self.lock();
        state
            .hosts
            .push(Host::new(interval, share, per_host, self.backoff));
        state.hosts.len() - 1
    }

    /// More work after the checks: `task` (its ticket's `check`) for
    /// `host`, handed out by [`Scheduler::next`] under the host's limit
    /// and pace, which remember the requests made before.
    pub(crate) fn push(&self, host: usize, task: usize) {
        let mut state = self.lock();
        state.remaining += 1;
        let h = &mut state.hosts[host];
        h.pending.push_back(task);
        if !h.queued && h.active < h.limit {
            h.queued = true;
            state.offer(host);
        }
        drop(state);
        self.wake.notify_one();
    }

    /// The check of `ticket` is finished: its host's slot is free.
    pub(crate) fn done(&self, ticket: Ticket) {
        let mut state = self.lock();
        let h = &mut state.hosts[ticket.host];
        h.active = h.active.saturating_sub(1);
        if !h.pending.is_empty() && !h.queued {
            h.queued = true;
            state.offer(ticket.host);
        }
        let finished = state.remaining == 0;
        drop(state);
        // Waiters may be waiting for this slot, or for the end of the work.
        if finished {
            self.wake.notify_all();
        } else {
            self.wake.notify_one();
        }
    }

    /// Wait until a request to `host` may start, and take that start: the
    /// next one is an interval later. Every request to a host (robots.txt,
    /// each try) goes through here.
    pub(crate) fn turn(&self, host: usize) {
        let wait = {
            let mut state = self.lock();
            let h = &mut state.hosts[host];
            let now = Instant::now();
            let start = h.ready_at().map_or(now, |at| at.max(now));
            h.pace.next_start = Some(start + h.pace.spacing());
            h.pace.last_start = Some(start);
            h.tally.requests += 1;
            start - now
        };
        if !wait.is_zero() {
            std::thread::sleep(wait);
        }
    }

    /// An answer from `host`: its latency and status (`None`: no answer).
    /// A 429 or 503 pauses the whole host (`retry_after`, or a pause that
    /// doubles with each refusal, whichever is longer, never more than
    /// `max_pause`) and doubles its interval (up to 8 s); answers after
    /// that bring the interval back down. `exhausted`: the server said no
    /// request is left until then (a rate-limit field).
    pub(crate) fn answered(&self, host: usize, answer: Answer) {
        let mut state = self.lock();
        let h = &mut state.hosts[host];
        let now = Instant::now();
        let pace = &mut h.pace;
        if let Some(ms) = answer.latency_ms {
            h.tally.latencies_ms.push(ms);
        }
        if let Some(interval) = answer.policy {
            pace.raise(interval);
        }
        let pause_until = |pace: &mut Pace, wait: Duration| {
            let until = now + wait;
            pace.paused_until = Some(pace.paused_until.map_or(until, |p| p.max(until)));
        };
        match answer.status {
            Some(429 | 503) => {
                if answer.status == Some(429) {
                    h.tally.too_many += 1;
                } else {
                    h.tally.server_errors += 1;
                }
                let asked = answer.retry_after.unwrap_or_default();
                let wait = pace.backoff.max(asked).min(answer.max_pause);
                pause_until(pace, wait);
                pace.backoff = pace.backoff.saturating_mul(2).min(MAX_ADAPTIVE);
                pace.interval = pace
                    .interval
                    .saturating_mul(2)
                    .max(self.backoff)
                    .min(MAX_ADAPTIVE.max(pace.base));
                pace.calm = 0;
            }
            status => {
                if status.is_some_and(|s| s >= 500) {
                    h.tally.server_errors += 1;
                }
                pace.calm += 1;
                if pace.calm >= CALM && pace.interval > pace.base {
                    pace.interval = (pace.interval / 2).max(pace.base);
                    pace.backoff = (pace.backoff / 2).max(self.backoff);
                    pace.calm = 0;
                }
            }
        }
        if let Some(wait) = answer.exhausted {
            pause_until(pace, wait.min(answer.max_pause));
        }
    }

    /// Raise `host`'s interval to `delay` (a robots.txt `Crawl-delay`),
    /// at most `cap`; a longer delay is noted for the report.
    pub(crate) fn crawl_delay(&self, host: usize, delay: Duration, cap: Duration) {
        let mut state = self.lock();
        let h = &mut state.hosts[host];
        if delay > cap {
            h.tally.crawl_delay_capped = Some(delay);
        }
        h.pace.raise(delay.min(cap));
    }

    /// A check of `host` skipped by robots.txt.
    pub(crate) fn robots_skipped(&self, host: usize) {
        self.lock().hosts[host].tally.robots_skipped += 1;
    }

    /// Each host's pace and tally, at the end.
    pub(crate) fn hosts(&self) -> Vec<(Pace, Tally)> {
        self.lock()
            .hosts
            .iter()
            .map(|h| (h.pace.clone(), h.tally.clone()))
            .collect()
    }
}

/// One answer, as [`Scheduler::answered`] reads it.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Answer {
    pub status: Option<u16>,
    pub latency_ms: Option<u64>,
    pub retry_after: Option<Duration>,
    /// No request left until then (a rate-limit field).
    pub exhausted: Option<Duration>,
    /// An interval a `RateLimit-Policy` asks for.
    pub policy: Option<Duration>,
    /// The longest pause urldb takes.
    pub max_pause: Duration,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// The host with the most left goes first; equals take turns.
    #[test]
    fn the_host_with_the_most_left_goes_first_and_equals_take_turns() {
        let s = Scheduler::new(&[0, 0, 0, 1, 1, 2, 2], 10, &[], &[], Duration::ZERO);
        let order: Vec<usize> = std::iter::from_fn(|| s.next().map(|t| t.check)).collect();
        assert_eq!(order, [0, 3, 5, 1, 4, 6, 2]);
    }

    /// A host paced by an interval, with the most paced time left, starts
    /// each request as soon as its pace allows, however many other hosts
    /// are ready: the run's critical path is not kept waiting behind them.
    /// (Compared with the others' end, not with a clock: the machine may
    /// be slow.)
    #[test]
    fn the_longest_paced_host_is_never_kept_waiting_by_the_others() {
        // Host 0: 20 checks, 10 ms apart (190 ms); hosts 1 to 400: one
        // check of 2 ms each (400 ms on 2 workers).
        let mut host_of = vec![0; 20];
        host_of.extend(1..=400);
        let mut intervals = vec![Duration::from_millis(10)];
        intervals.extend(std::iter::repeat_n(Duration::ZERO, 400));
        let s = Scheduler::new(&host_of, 1, &intervals, &[], Duration::ZERO);
        let (first, others) = (Mutex::new(None), Mutex::new(None));
        let begin = Instant::now();
        std::thread::scope(|scope| {
            for _ in 0..2 {
                scope.spawn(|| {
                    while let Some(t) = s.next() {
                        s.turn(t.host);
                        let at = Some(begin.elapsed());
                        if t.host == 0 {
                            *first.lock().expect("lock") = at;
                        } else {
                            *others.lock().expect("lock") = at;
                            std::thread::sleep(Duration::from_millis(2));
                        }
                        s.done(t);
                    }
                });
            }
        });
        let last = |m: Mutex<Option<Duration>>| m.into_inner().expect("lock").expect("ran");
        let (first, others) = (last(first), last(others));
        // Taking turns, host 0 would wait behind every other host each
        // time, and start its last request after theirs.
        assert!(first < others, "{first:?} {others:?}");
    }

    #[test]
    fn a_host_never_has_more_than_its_limit_in_flight() {
        let host_of: Vec<usize> = (0..200).map(|i| i % 3).collect();
        let s = Scheduler::new(&host_of, 2, &[], &[], Duration::ZERO);
        let active: Vec<AtomicUsize> = (0..3).map(|_| AtomicUsize::new(0)).collect();
        let peak = AtomicUsize::new(0);
        let ran = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..16 {
                scope.spawn(|| {
                    while let Some(t) = s.next() {
                        let host = host_of[t.check];
                        let now = active[host].fetch_add(1, Ordering::SeqCst) + 1;
                        peak.fetch_max(now, Ordering::SeqCst);
                        std::thread::yield_now();
                        active[host].fetch_sub(1, Ordering::SeqCst);
                        ran.fetch_add(1, Ordering::SeqCst);
                        s.done(t);
                    }
                });
            }
        });
        assert_eq!(ran.load(Ordering::SeqCst), 200);
        assert!(peak.load(Ordering::SeqCst) <= 2);
    }

    #[test]
    fn a_crawl_delay_over_the_cap_is_capped_and_noted() {
        let s = Scheduler::new(&[0, 1], 1, &[], &[], Duration::ZERO);
        let cap = Duration::from_secs(30);
        s.crawl_delay(0, Duration::from_secs(120), cap);
        s.crawl_delay(1, Duration::from_secs(5), cap);
        let hosts = s.hosts();
        assert_eq!(hosts[0].0.interval, cap);
        assert_eq!(
            hosts[0].1.crawl_delay_capped,
            Some(Duration::from_secs(120))
        );
        assert_eq!(hosts[1].0.interval, Duration::from_secs(5));
        assert_eq!(hosts[1].1.crawl_delay_capped, None);
    }

    #[test]
    fn refusals_double_the_interval_and_calm_answers_bring_it_back() {
        let s = Scheduler::new(
            &[0],
            1,
            &[Duration::from_millis(100)],
            &[],
            Duration::from_millis(250),
        );
        let answer = |status| Answer {
            status: Some(status),
            max_pause: Duration::from_millis(1),
            ..Answer::default()
        };
        let interval = || s.hosts()[0].0.interval;
        s.answered(0, answer(429));
        assert_eq!(interval(), Duration::from_millis(250));
        s.answered(0, answer(503));
        assert_eq!(interval(), Duration::from_millis(500));
        for _ in 0..CALM {
            s.answered(0, answer(200));
        }
        assert_eq!(interval(), Duration::from_millis(250));
        for _ in 0..CALM * 4 {
            s.answered(0, answer(200));
        }
        // Never below the host's own.
        assert_eq!(interval(), Duration::from_millis(100));
        let tally = &s.hosts()[0].1;
        assert_eq!((tally.too_many, tally.server_errors), (1, 1));
    }

    #[test]
    fn work_pushed_later_keeps_the_pace_of_the_requests_before() {
        let interval = Duration::from_millis(60);
        let s = Scheduler::new(&[0], 4, &[interval], &[], Duration::ZERO);
        let first = s.next().expect("the check");
        s.turn(first.host);
        s.done(first);
        assert_eq!(s.next(), None);
        let other = s.add_host(Duration::ZERO, 1, 4);
        s.push(first.host, 7);
        s.push(other, 8);
        let start = Instant::now();
        let mut got = Vec::new();
        while let Some(t) = s.next() {
            s.turn(t.host);
            got.push((t.check, t.host, start.elapsed()));
            s.done(t);
        }
        got.sort();
        assert_eq!(got.len(), 2);
        assert_eq!((got[0].0, got[0].1, got[1].0, got[1].1), (7, 0, 8, other));
        // The first host's second request waits out its interval.
        assert!(got[0].2 >= interval / 2, "{got:?}");
    }

    #[test]
    fn nothing_to_do_ends_at_once() {
        let s = Scheduler::new(&[], 4, &[], &[], Duration::ZERO);
        assert_eq!(s.next(), None);
    }
}
