//! The cancel flag shared between a caller and a running search, and the clock a search polls.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A cancel flag: clone it, hand one copy to the search, call [`Stop::stop`] on the other.
///
/// Polling is one relaxed atomic load, so searches check it often.
///
/// ```
/// use cube_solvers::Stop;
/// let stop = Stop::new();
/// let handle = stop.clone();
/// assert!(!stop.is_stopped());
/// handle.stop();
/// assert!(stop.is_stopped());
/// ```
#[derive(Clone, Debug, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    /// A flag that is not raised.
    pub fn new() -> Stop {
        Stop::default()
    }

    /// Raises the flag: every search holding a clone stops at its next poll.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// The flag itself, for a search that polls an [`AtomicBool`] ([`crate::fmc::solve`]).
    pub fn flag(&self) -> &AtomicBool {
        &self.0
    }

    /// Whether the flag is raised.
    #[inline]
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// A search's view of time: the start and the optional end of its budget.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Clock {
    start: Instant,
    deadline: Option<Instant>,
}

impl Clock {
    /// A clock started now; a budget too long for an [`Instant`] to represent its end (such as
    /// [`Duration::MAX`]) is no deadline.
    pub(crate) fn new(budget: Option<Duration>) -> Clock {
        let start = Instant::now();
        Clock {
            start,
            deadline: budget.and_then(|b| start.checked_add(b)),
        }
    }

    /// Whether the budget is spent.
    #[inline]
    pub(crate) fn expired(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // See: issue 31, item 6 (a time budget of 1e19 s from Python panicked adding it to the
    // clock's start).
    #[test]
    fn i31_6_a_budget_too_long_to_represent_is_no_deadline() {
        for budget in [Duration::MAX, Duration::from_secs(u64::MAX / 2)] {
            let clock = Clock::new(Some(budget));
            assert!(!clock.expired());
        }
        assert!(Clock::new(Some(Duration::ZERO)).expired());
        assert!(!Clock::new(None).expired());
    }
}
