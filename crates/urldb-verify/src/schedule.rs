//! Handing checks to worker threads: at most N in flight overall and at
//! most K per origin, so a database with 5,000 URLs on one site does not
//! hammer it with every connection while other sites wait.
//!
//! Origins take turns (round robin), which also spreads the load of a run
//! across sites instead of finishing them one after another.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex};

struct Host {
    pending: VecDeque<usize>,
    active: usize,
    /// In `available` (has pending work and a free slot).
    queued: bool,
}

struct State {
    hosts: Vec<Host>,
    available: VecDeque<usize>,
    remaining: usize,
}

pub(crate) struct Scheduler {
    state: Mutex<State>,
    wake: Condvar,
    per_host: usize,
}

/// A check handed out: release it with [`Scheduler::done`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Ticket {
    pub check: usize,
    host: usize,
}

impl Scheduler {
    /// `host_of[i]` is the host index of check `i` (any dense numbering).
    pub(crate) fn new(host_of: &[usize], per_host: usize) -> Scheduler {
        let count = host_of.iter().map(|h| h + 1).max().unwrap_or(0);
        let mut hosts: Vec<Host> = (0..count)
            .map(|_| Host {
                pending: VecDeque::new(),
                active: 0,
                queued: false,
            })
            .collect();
        let mut available = VecDeque::new();
        for (check, &host) in host_of.iter().enumerate() {
            let h = &mut hosts[host];
            h.pending.push_back(check);
            if !h.queued {
                h.queued = true;
                available.push_back(host);
            }
        }
        Scheduler {
            state: Mutex::new(State {
                hosts,
                available,
                remaining: host_of.len(),
            }),
            wake: Condvar::new(),
            per_host: per_host.max(1),
        }
    }

    /// The next check to run, waiting for a free per-host slot when
    /// needed; `None` when every check has been handed out.
    pub(crate) fn next(&self) -> Option<Ticket> {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            if state.remaining == 0 {
                return None;
            }
            if let Some(host) = state.available.pop_front() {
                let per_host = self.per_host;
                let h = &mut state.hosts[host];
                let Some(check) = h.pending.pop_front() else {
                    h.queued = false;
                    continue;
                };
                h.active += 1;
                let again = !h.pending.is_empty() && h.active < per_host;
                h.queued = again;
                if again {
                    state.available.push_back(host);
                }
                state.remaining -= 1;
                return Some(Ticket { check, host });
            }
            state = self.wake.wait(state).unwrap_or_else(|p| p.into_inner());
        }
    }

    /// The check of `ticket` is finished: its host's slot is free.
    pub(crate) fn done(&self, ticket: Ticket) {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let h = &mut state.hosts[ticket.host];
        h.active = h.active.saturating_sub(1);
        if !h.pending.is_empty() && !h.queued {
            h.queued = true;
            state.available.push_back(ticket.host);
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn hosts_take_turns() {
        let s = Scheduler::new(&[0, 0, 0, 1, 1, 2], 10);
        let order: Vec<usize> = std::iter::from_fn(|| s.next().map(|t| t.check)).collect();
        assert_eq!(order, [0, 3, 5, 1, 4, 2]);
    }

    #[test]
    fn a_host_never_has_more_than_its_limit_in_flight() {
        let host_of: Vec<usize> = (0..200).map(|i| i % 3).collect();
        let s = Scheduler::new(&host_of, 2);
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
    fn nothing_to_do_ends_at_once() {
        let s = Scheduler::new(&[], 4);
        assert_eq!(s.next(), None);
    }
}
