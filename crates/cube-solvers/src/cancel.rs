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
    pub(crate) fn new(budget: Option<Duration>) -> Clock {
        let start = Instant::now();
        Clock {
            start,
            deadline: budget.map(|b| start + b),
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
