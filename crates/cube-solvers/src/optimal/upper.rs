//! The two-phase solver beside an optimal search: on a thread of its own, it looks for a solution
//! at most one move longer than the bound being searched (its target), restarting when the target
//! moves on, and sleeps on a condition variable once it has one of the target's length.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::Duration;

use cube_core::{Cube, Move};

use super::MAX_DEPTH;
use crate::two_phase::TwoPhase;
use crate::{Limits, Solver, Stop};

/// What the search tells the helper.
struct Orders {
    /// One more than the bound being searched (every shorter bound is exhausted).
    target: usize,
    /// The search is over.
    done: bool,
    /// The search has reached a bound large enough for the helper ([`UpperHelper::start`]).
    started: bool,
}

/// The shared state of the two-phase helper of one search.
pub(super) struct UpperHelper {
    /// The best solution known.
    best: Mutex<Option<Vec<Move>>>,
    orders: Mutex<Orders>,
    /// Signalled when the target moves or the search is over.
    changed: Condvar,
    /// `best` is shorter than the target, so no longer than the bound being searched: the search
    /// of the bound can stop, that solution is optimal. Read by the search's workers.
    pub(super) found: AtomicBool,
    /// Stops the two-phase run in progress (when the target moves, or the search is over).
    /// Replaced, and stopped, only under the `orders` lock.
    run_stop: Mutex<Stop>,
}

impl UpperHelper {
    pub(super) fn new(best: Option<Vec<Move>>, target: usize) -> UpperHelper {
        UpperHelper {
            best: Mutex::new(best),
            orders: Mutex::new(Orders {
                target,
                done: false,
                started: false,
            }),
            changed: Condvar::new(),
            found: AtomicBool::new(false),
            run_stop: Mutex::new(Stop::new()),
        }
    }

    pub(super) fn best(&self) -> Option<Vec<Move>> {
        self.best.lock().expect("lock").clone()
    }

    /// The search goes on to the bound `target - 1`: a run looking for a shorter solution than
    /// `target` cannot succeed, and one of `target` moves ends the search after this bound.
    pub(super) fn set_target(&self, target: usize) {
        let mut orders = self.orders.lock().expect("lock");
        if orders.target != target {
            orders.target = target;
            self.run_stop.lock().expect("lock").stop();
            self.changed.notify_all();
        }
    }

    /// The search has reached a bound worth the helper's thread: it runs once its delay is over.
    pub(super) fn start(&self) {
        let mut orders = self.orders.lock().expect("lock");
        if !orders.started {
            orders.started = true;
            self.changed.notify_all();
        }
    }

    /// The search is over: the helper's run stops and its thread returns.
    pub(super) fn finish(&self) {
        // Also while unwinding from a panic: a poisoned lock still holds what it guards.
        let mut orders = self.orders.lock().unwrap_or_else(PoisonError::into_inner);
        orders.done = true;
        self.run_stop
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .stop();
        self.changed.notify_all();
    }

    /// After `delay`, once [`UpperHelper::start`]ed (at once if the search is over sooner), runs
    /// the two-phase solver until the search is over or it has a solution shorter than the
    /// target; with one of the target's length it waits for the target to move on.
    pub(super) fn run(&self, two_phase: &TwoPhase, cube: &Cube, stop: &Stop, delay: Duration) {
        let orders = self.orders.lock().expect("lock");
        let (orders, _) = self
            .changed
            .wait_timeout_while(orders, delay, |o| !o.done)
            .expect("lock");
        let orders = self
            .changed
            .wait_while(orders, |o| !o.done && !o.started)
            .expect("lock");
        if orders.done {
            return;
        }
        drop(orders);
        while !stop.is_stopped() {
            let best_len = self.best().map_or(MAX_DEPTH + 1, |b| b.len());
            let run_stop = {
                let orders = self.orders.lock().expect("lock");
                if orders.done {
                    return;
                }
                if best_len < orders.target {
                    self.found.store(true, Ordering::SeqCst);
                    return;
                }
                if best_len == orders.target {
                    // Enough for this bound: wait for the next one (or the end; a raised stop
                    // flag ends the search, which then finishes the helper).
                    let target = orders.target;
                    drop(
                        self.changed
                            .wait_while(orders, |o| !o.done && o.target == target)
                            .expect("lock"),
                    );
                    continue;
                }
                // Under the lock: a new target stops this run rather than the last one.
                let run_stop = Stop::new();
                *self.run_stop.lock().expect("lock") = run_stop.clone();
                (run_stop, orders.target)
            };
            let (run_stop, target) = run_stop;
            let limits = Limits {
                max_length: Some(best_len - 1),
                target_length: Some(target),
                // No deadline (two-phase's default budget would end the run): it runs until
                // `run_stop` is raised.
                time_budget: Some(Duration::MAX),
                n_solutions: 1,
                threads: 1,
            };
            if let Ok(mut found) = two_phase.solve(cube, &limits, &run_stop)
                && !found.is_empty()
            {
                let moves = found.swap_remove(0).moves;
                let mut best = self.best.lock().expect("lock");
                if best.as_ref().is_none_or(|b| moves.len() < b.len()) {
                    *best = Some(moves);
                }
            }
        }
    }
}

/// Finishes the helper when dropped, so that its thread ends even when the search panics (a
/// scoped thread left waiting would hang the scope).
pub(super) struct FinishOnDrop<'a>(pub(super) &'a UpperHelper);

impl Drop for FinishOnDrop<'_> {
    fn drop(&mut self) {
        self.0.finish();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::time::Duration;

    use super::*;

    /// A helper holding a solution of the target's length sleeps until told; `finish` wakes it.
    #[test]
    fn a_waiting_helper_ends_when_the_search_finishes() {
        let cube = Cube::SOLVED.apply_moves(&[Move::R1, Move::U1]);
        let helper = UpperHelper::new(Some(vec![Move::U3, Move::R3]), 2);
        helper.start();
        let two_phase = TwoPhase::default();
        let (done_tx, done_rx) = mpsc::channel();
        std::thread::scope(|scope| {
            scope.spawn(|| {
                helper.run(&two_phase, &cube, &Stop::new(), Duration::ZERO);
                done_tx.send(()).unwrap();
            });
            assert!(
                done_rx.recv_timeout(Duration::from_millis(50)).is_err(),
                "the helper waits while its solution is as long as the target"
            );
            helper.finish();
            assert!(
                done_rx.recv_timeout(Duration::from_secs(10)).is_ok(),
                "finish wakes it"
            );
        });
        assert!(!helper.found.load(Ordering::SeqCst));
    }

    /// A target moved above the solution's length makes it optimal: the helper says so and ends.
    #[test]
    fn a_new_target_above_the_solution_ends_the_helper_with_it_found() {
        let cube = Cube::SOLVED.apply_moves(&[Move::R1, Move::U1]);
        let helper = UpperHelper::new(Some(vec![Move::U3, Move::R3]), 2);
        helper.start();
        let two_phase = TwoPhase::default();
        std::thread::scope(|scope| {
            let thread =
                scope.spawn(|| helper.run(&two_phase, &cube, &Stop::new(), Duration::ZERO));
            helper.set_target(3);
            thread.join().unwrap();
        });
        assert!(helper.found.load(Ordering::SeqCst));
    }

    /// A search that ends within the helper's delay leaves it idle: no two-phase run, and its
    /// thread ends at once.
    #[test]
    fn a_search_over_within_the_delay_never_runs_the_helper() {
        let cube = Cube::SOLVED.apply_moves(&[Move::R1, Move::U1, Move::F1]);
        let helper = UpperHelper::new(None, 2);
        let two_phase = TwoPhase::default();
        let (done_tx, done_rx) = mpsc::channel();
        std::thread::scope(|scope| {
            scope.spawn(|| {
                helper.run(&two_phase, &cube, &Stop::new(), Duration::from_secs(3600));
                done_tx.send(()).unwrap();
            });
            std::thread::sleep(Duration::from_millis(50));
            helper.finish();
            assert!(
                done_rx.recv_timeout(Duration::from_secs(10)).is_ok(),
                "finish ends the delay"
            );
        });
        assert!(helper.best().is_none(), "no two-phase run");
    }

    /// A helper whose search never reaches a bound worth it ([`UpperHelper::start`]) never runs,
    /// whatever its delay.
    #[test]
    fn a_helper_not_started_never_runs() {
        let cube = Cube::SOLVED.apply_moves(&[Move::R1, Move::U1, Move::F1]);
        let helper = UpperHelper::new(None, 2);
        let two_phase = TwoPhase::default();
        std::thread::scope(|scope| {
            scope.spawn(|| helper.run(&two_phase, &cube, &Stop::new(), Duration::ZERO));
            std::thread::sleep(Duration::from_millis(50));
            helper.finish();
        });
        assert!(helper.best().is_none(), "no two-phase run");
    }

    /// A search that panics still ends the helper's thread (else the scope would never return).
    #[test]
    fn a_panicking_search_does_not_hang_the_helper() {
        let cube = Cube::SOLVED.apply_moves(&[Move::R1, Move::U1]);
        let helper = UpperHelper::new(Some(vec![Move::U3, Move::R3]), 2);
        let two_phase = TwoPhase::default();
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            std::thread::scope(|scope| {
                let _finish = FinishOnDrop(&helper);
                scope.spawn(|| helper.run(&two_phase, &cube, &Stop::new(), Duration::ZERO));
                panic!("the search failed");
            })
        }));
        assert!(result.is_err());
    }
}
