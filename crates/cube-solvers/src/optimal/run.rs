//! One search under way ([`Run`]): its bounds from the lower bound up, each split into prefixes
//! taken from one [`Queue`] by every thread, its [`Ending`]; and the [`Periodic`] checkpoints.

use std::fmt;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use cube_core::{Cube, Move};
use cube_tables::Metric;

use super::driver::{
    Abort, Driver, MAX_DEPTH, Shared, bound_step, by_density, canonical_sequences,
};
use super::symmetric::{distinct_up_to_symmetry, orbit_starts, with_images};
use super::upper::{FinishOnDrop, UpperHelper};
use super::{
    Checkpoint, CheckpointError, GROWTH_PER_BOUND, HELPER_FROM_NODES, Method, Outcome, Prefixes,
    Progress, QueueWorker, SPLIT_FROM_NODES, Taken,
};
use crate::cancel::Clock;
use crate::{Limits, Solution, SolveError, Solver, Stop};

impl Driver {
    /// The search of `task.cube` with `method`: the cube and the checkpoint checked first, then
    /// the two-phase upper bound, then the bounds from the method's lower bound on (from the
    /// checkpoint's bound when there is one).
    pub(crate) fn run<M: Method>(
        &self,
        method: &M,
        task: &Task<'_>,
        progress: &mut dyn FnMut(&Progress),
        periodic: Option<Periodic<'_>>,
    ) -> Result<Outcome, SolveError> {
        task.cube.validate()?;
        let metric = method.metric();
        if let Some(checkpoint) = task.checkpoint {
            self.check_checkpoint(checkpoint, task.cube, task.limits, metric)
                .map_err(SolveError::BadCheckpoint)?;
        }
        let diameter = metric.diameter();
        let mut run = Run {
            driver: self,
            method,
            task,
            metric,
            start: Instant::now(),
            clock: Clock::new(task.limits.time_budget),
            want: self.wanted(task.limits),
            max_length: task.limits.max_length.unwrap_or(diameter).min(diameter),
            h0: 0,
            upper_len: None,
            below: std::cell::RefCell::new(None),
        };
        if task.cube.is_solved() {
            return Ok(run.finish(Ending::proven(vec![Vec::new()], 0, 0)));
        }
        run.h0 = method.lower_bound(task.cube);
        let upper = run.first_upper_bound()?;
        run.upper_len = upper.as_ref().map(|moves| metric.length(moves));
        if let (Some(checkpoint), Some(upper)) = (task.checkpoint, run.upper_len)
            && checkpoint.bound > upper
        {
            // The checkpoint's claim is refuted: it was not written by a search of this cube.
            return Err(SolveError::BadCheckpoint(CheckpointError::new(
                None,
                "bound",
                format!(
                    "bound {}: the checkpoint says no solution is shorter, but the two-phase solver found one of {upper} {}",
                    checkpoint.bound,
                    match metric {
                        Metric::Htm => "moves",
                        Metric::Qtm => "quarter turns",
                    }
                ),
            )));
        }
        // Longer than allowed: neither a bound nor an answer.
        let upper = upper.filter(|moves| metric.length(moves) <= run.max_length);
        if let (Some(upper), Some(target)) = (&upper, task.limits.target_length)
            && metric.length(upper) <= target
        {
            let optimal = metric.length(upper) <= run.h0;
            return Ok(run.finish(Ending {
                solutions: vec![upper.clone()],
                proven: if optimal {
                    metric.length(upper)
                } else {
                    run.h0
                },
                optimal,
                complete: optimal && run.want == 1,
                nodes: 0,
                checkpoint: None,
            }));
        }

        if let Some(checkpoint) = task.checkpoint
            && let Some(stopped) = run.search_bound_below(checkpoint)?
        {
            return Ok(stopped);
        }

        // While the bounds are searched, the two-phase solver looks on (one more thread) for a
        // solution at most one move longer than the bound being searched; not in the quarter-turn
        // metric, where a shorter solution in face turns is not a shorter one in quarter turns
        // (the first two-phase solution still bounds the search).
        let first_bound = run.first_bound();
        let helper = UpperHelper::new(upper.clone(), first_bound + 1);
        let use_helper = self.upper_bound.is_some()
            && self.concurrent_upper_bound
            && metric == Metric::Htm
            && run.want == 1
            && upper.as_ref().is_some_and(|u| u.len() > first_bound);
        std::thread::scope(|scope| {
            let _finish = FinishOnDrop(&helper);
            if let Some(two_phase) = self.upper_bound.as_ref().filter(|_| use_helper) {
                scope.spawn(|| helper.run(two_phase, task.cube, task.stop, self.helper_delay));
            }
            Ok(run.bounds(&helper, progress, periodic))
        })
    }
}

/// What one search is asked: the position, the limits and the stop flag, and the checkpoint it
/// goes on from, if any.
#[derive(Clone, Copy)]
pub(crate) struct Task<'a> {
    pub(crate) cube: &'a Cube,
    pub(crate) limits: &'a Limits,
    pub(crate) stop: &'a Stop,
    pub(crate) checkpoint: Option<&'a Checkpoint>,
}

/// One search under way: what its bounds share.
struct Run<'a, M> {
    driver: &'a Driver,
    method: &'a M,
    task: &'a Task<'a>,
    /// The method's metric: of the bounds, the lengths, `max_length` and `h0`.
    metric: Metric,
    start: Instant,
    clock: Clock,
    /// The number of solutions looked for (`usize::MAX` for all).
    want: usize,
    /// The longest bound searched.
    max_length: usize,
    /// The method's lower bound on the position.
    h0: usize,
    /// The length of the two-phase solution, when one was asked for and found.
    upper_len: Option<usize>,
    /// The nodes under each prefix at the last bound searched to the end (for [`Ordered`](super::Ordered)).
    below: std::cell::RefCell<Option<PrefixNodes>>,
}

/// The nodes under each prefix of one bound searched to the end, by canonical prefix index.
struct PrefixNodes {
    bound: usize,
    nodes: Vec<u64>,
}

/// How a search ends: what becomes its [`Outcome`].
struct Ending {
    solutions: Vec<Vec<Move>>,
    /// No solution is shorter.
    proven: usize,
    optimal: bool,
    /// Every solution asked for is in `solutions` (see [`Outcome::complete`]).
    complete: bool,
    nodes: u64,
    checkpoint: Option<Checkpoint>,
}

impl Ending {
    /// Optimal `solutions` of `length` moves, found after `nodes`.
    fn proven(solutions: Vec<Vec<Move>>, length: usize, nodes: u64) -> Ending {
        Ending {
            solutions,
            proven: length,
            optimal: true,
            complete: true,
            nodes,
            checkpoint: None,
        }
    }
}

impl<M: Method> Run<'_, M> {
    fn finish(&self, ending: Ending) -> Outcome {
        Outcome {
            upper_bound: self.upper_len,
            solutions: ending.solutions.into_iter().map(Solution::new).collect(),
            proven_lower_bound: ending.proven,
            optimal: ending.optimal,
            complete: ending.complete,
            nodes: ending.nodes,
            elapsed: self.start.elapsed(),
            checkpoint: ending.checkpoint,
            counters: None,
            metric: self.metric,
        }
    }

    /// The first bound searched: the lower bound, or the checkpoint's bound.
    fn first_bound(&self) -> usize {
        self.task
            .checkpoint
            .map_or(self.h0, |c| c.bound.max(self.h0))
    }

    /// A search resumed at a bound in density order ([`Ordered`](super::Ordered)) first searches the bound below
    /// again for its densities, as the uninterrupted search did (about a thirteenth of the
    /// bound's work; its nodes are not counted again, nor reported). A solution there refutes the
    /// checkpoint; when stopped, the search returns the checkpoint as it was.
    fn search_bound_below(&self, checkpoint: &Checkpoint) -> Result<Option<Outcome>, SolveError> {
        let bound = self.first_bound();
        if bound > self.max_length || !self.driver.density_ordered(bound, self.h0) {
            return Ok(None);
        }
        let result = self.search_bound(bound - 1, 0, &UpperHelper::new(None, bound), None, true);
        if !result.found.is_empty() {
            return Err(SolveError::BadCheckpoint(CheckpointError::new(
                None,
                "bound",
                format!(
                    "bound {bound}: the checkpoint says no solution is shorter, but bound {} has one",
                    bound - 1
                ),
            )));
        }
        Ok((!result.complete).then(|| {
            self.finish(Ending {
                solutions: Vec::new(),
                proven: checkpoint.bound,
                optimal: false,
                complete: false,
                nodes: checkpoint.nodes,
                checkpoint: Some(checkpoint.clone()),
            })
        }))
    }

    /// The two-phase solution the search starts from, when the driver asks for one.
    fn first_upper_bound(&self) -> Result<Option<Vec<Move>>, SolveError> {
        let Some(two_phase) = &self.driver.upper_bound else {
            return Ok(None);
        };
        let limits = Limits {
            max_length: Some(MAX_DEPTH),
            target_length: Some(self.h0.max(self.task.limits.target_length.unwrap_or(0))),
            time_budget: Some(self.driver.upper_bound_budget),
            n_solutions: 1,
            threads: 1,
        };
        let mut found = two_phase.solve(self.task.cube, &limits, self.task.stop)?;
        if found.is_empty() {
            // The budget (which bounds two-phase's whole search) ran out before any solution:
            // the first of at most MAX_DEPTH moves, which two-phase always finds (the stop flag
            // still ends it).
            let first = Limits {
                target_length: Some(MAX_DEPTH),
                time_budget: Some(Duration::MAX),
                ..limits
            };
            found = two_phase.solve(self.task.cube, &first, self.task.stop)?;
        }
        Ok((!found.is_empty()).then(|| found.swap_remove(0).moves))
    }

    /// The bounds from [`Run::first_bound`] on, until one has solutions, the search is stopped,
    /// or the two-phase solution is proven optimal.
    fn bounds(
        &self,
        helper: &UpperHelper,
        progress: &mut dyn FnMut(&Progress),
        mut periodic: Option<Periodic<'_>>,
    ) -> Outcome {
        let want = self.want;
        let mut nodes = self.task.checkpoint.map_or(0, |c| c.nodes);
        let mut upper = helper.best();
        let metric = self.metric;
        let step = bound_step(metric);
        // The nodes of the bound below, as an estimate of this bound's: none known when resumed
        // (the bound may be large), zero for the first bound from scratch.
        let mut below = self.task.checkpoint.is_none().then_some(0);
        for bound in (self.first_bound()..=self.max_length).step_by(step) {
            let estimate = below.map(|n: u64| n.saturating_mul(GROWTH_PER_BOUND.pow(step as u32)));
            if estimate.is_none_or(|e| e >= HELPER_FROM_NODES) {
                helper.start();
            }
            helper.set_target(bound + 1);
            upper = helper.best().or(upper);
            if let Some(upper) = &upper
                && want == 1
                && metric.length(upper) <= bound
            {
                // Every shorter bound is exhausted: the two-phase solution is optimal.
                let len = metric.length(upper);
                return self.finish(Ending::proven(vec![upper.clone()], len, nodes));
            }
            let bound_start = Instant::now();
            let split = estimate.is_none_or(|e| e >= SPLIT_FROM_NODES);
            let result = self.search_bound(bound, nodes, helper, periodic.as_mut(), split);
            nodes += result.nodes;
            below = Some(result.nodes);
            let report = |exhausted, solutions| Progress {
                bound,
                exhausted,
                solutions,
                nodes: result.nodes,
                total_nodes: nodes,
                bound_elapsed: bound_start.elapsed(),
                elapsed: self.start.elapsed(),
            };
            if want == 1
                && helper.found.load(Ordering::SeqCst)
                && let Some(found) = helper.best().filter(|moves| moves.len() <= bound)
            {
                // Every shorter bound is exhausted: the two-phase solution is optimal.
                progress(&report(false, 1));
                let len = metric.length(&found);
                return self.finish(Ending::proven(vec![found], len, nodes));
            }
            progress(&report(result.complete, result.found.len().min(want)));
            let checkpoint = (!result.complete)
                .then(|| self.checkpoint(bound, nodes, result.done, result.found.clone()));
            if !result.found.is_empty() {
                // Every shorter bound is exhausted, so these are optimal (when the search was
                // halted, perhaps not the first ones nor all of them: the checkpoint goes on).
                return self.finish(Ending {
                    complete: result.complete,
                    checkpoint,
                    ..Ending::proven(self.solutions(result.found), bound, nodes)
                });
            }
            if checkpoint.is_some() {
                return self.finish(Ending {
                    solutions: upper.into_iter().collect(),
                    proven: bound,
                    optimal: false,
                    complete: false,
                    nodes,
                    checkpoint,
                });
            }
        }
        // The bounds of the position's parity up to `max_length` are exhausted.
        let proven = (self.first_bound()..)
            .step_by(step)
            .find(|&bound| bound > self.max_length)
            .expect("an unbounded range");
        self.finish(Ending {
            solutions: upper.into_iter().collect(),
            proven,
            optimal: false,
            complete: false,
            nodes,
            checkpoint: None,
        })
    }

    /// The solutions of a bound as returned: with their images under the position's symmetries
    /// when only one prefix of each orbit was searched, distinct up to symmetry if asked, as many
    /// as wanted.
    fn solutions(&self, found: Vec<(usize, Vec<Move>)>) -> Vec<Vec<Move>> {
        let mut solutions: Vec<Vec<Move>> = found.into_iter().map(|(_, moves)| moves).collect();
        let symmetries = self.driver.start_symmetries(self.task.cube);
        if !symmetries.is_empty() {
            solutions = with_images(solutions, &symmetries);
        }
        if self.driver.distinct_up_to_symmetry {
            solutions = distinct_up_to_symmetry(self.task.cube, solutions);
        }
        solutions.truncate(self.task.limits.n_solutions.max(1));
        solutions
    }

    /// The checkpoint of this search at `bound` with these done prefixes and solutions.
    fn checkpoint(
        &self,
        bound: usize,
        nodes: u64,
        done: Vec<usize>,
        solutions: Vec<(usize, Vec<Move>)>,
    ) -> Checkpoint {
        let driver = self.driver;
        Checkpoint {
            cube: *self.task.cube,
            tier: driver.tier,
            metric: self.metric,
            prefix_depth: driver.prefix_depth_at(bound, self.metric),
            n_solutions: self.want,
            inverse: driver.inverse,
            symmetric: driver.symmetric,
            symmetric_starts: driver.symmetric_starts,
            bound,
            nodes,
            done,
            solutions,
        }
    }

    /// The order bound `bound`'s prefixes are searched in (canonical indexes): see [`Ordered`](super::Ordered).
    fn order(&self, bound: usize, prefixes: &[Vec<u8>]) -> Vec<usize> {
        let canonical = (0..prefixes.len()).collect();
        if self.driver.ordered.is_none_or(|o| bound < o.from) {
            return canonical;
        }
        match &*self.below.borrow() {
            Some(below)
                if self.driver.density_ordered(bound, self.h0) && below.bound + 1 == bound =>
            {
                by_density(prefixes, &below.nodes, canonical)
            }
            _ => self.by_slack(prefixes, canonical),
        }
    }

    /// `order` by the method's lower bound of the position after each prefix, smallest first (a
    /// stable sort).
    fn by_slack(&self, prefixes: &[Vec<u8>], mut order: Vec<usize>) -> Vec<usize> {
        let keys: Vec<usize> = prefixes
            .iter()
            .map(|prefix| {
                let moves: Vec<Move> = prefix
                    .iter()
                    .map(|&m| Move::from_index(usize::from(m)))
                    .collect();
                self.method.lower_bound(&self.task.cube.apply_moves(&moves))
            })
            .collect();
        order.sort_by_key(|&i| keys[i]);
        order
    }

    /// Searches one bound over all prefixes, on `limits.threads` threads when `split`, else on the
    /// calling thread alone (`nodes_before` were searched at the bounds below); with `periodic`
    /// and threads, the calling thread hands a checkpoint of the bound so far to it every
    /// `periodic.every`.
    fn search_bound(
        &self,
        bound: usize,
        nodes_before: u64,
        helper: &UpperHelper,
        periodic: Option<&mut Periodic<'_>>,
        split: bool,
    ) -> BoundResult {
        let want = self.want;
        let mut shared = Shared {
            method: self.method,
            stop: self.task.stop,
            clock: &self.clock,
            upper_found: &helper.found,
            cutoff: AtomicUsize::new(usize::MAX),
            halted: AtomicBool::new(false),
            any_face_after_prefix: false,
        };
        let prefixes = canonical_sequences(self.driver.prefix_depth_at(bound, self.metric));
        let mut state = BoundState {
            results: vec![None; prefixes.len()],
            n_found: vec![0; prefixes.len()],
            nodes: vec![0; prefixes.len()],
            order: self.order(bound, &prefixes),
        };
        let symmetries = self.driver.start_symmetries(self.task.cube);
        if !symmetries.is_empty() {
            // The other prefixes of an orbit are done by the first one's search.
            for (result, start) in state
                .results
                .iter_mut()
                .zip(orbit_starts(&prefixes, &symmetries))
            {
                if !start {
                    *result = Some(Vec::new());
                }
            }
            shared.any_face_after_prefix = true;
        }
        if let Some(checkpoint) = self.task.checkpoint.filter(|c| c.bound == bound) {
            // The reader checked the indexes; any beyond the prefixes would be ignored.
            for &i in &checkpoint.done {
                if let Some(result) = state.results.get_mut(i) {
                    *result = Some(Vec::new());
                }
            }
            for (i, moves) in &checkpoint.solutions {
                if let Some(Some(found)) = state.results.get_mut(*i) {
                    found.push(moves.clone());
                    state.n_found[*i] += 1;
                }
            }
            shared.cutoff.store(state.cutoff(want), Ordering::Relaxed);
        }
        let queue = Queue {
            shared,
            cube: self.task.cube,
            prefixes: &prefixes,
            bound,
            want,
            order: state.order.clone(),
            done_before: state.results.iter().map(Option::is_some).collect(),
            next: AtomicUsize::new(0),
            state: Mutex::new(state),
            live_nodes: AtomicU64::new(0),
        };
        let n_threads = if split {
            self.task.limits.threads.clamp(1, crate::MAX_THREADS)
        } else {
            1
        };
        let nodes: u64 = if n_threads <= 1 {
            queue.work()
        } else {
            std::thread::scope(|scope| {
                // Each worker says when it is done, so that waiting for checkpoint times never
                // delays the end of the bound.
                let (finished_tx, finished_rx) = std::sync::mpsc::channel();
                let handles: Vec<_> = (0..n_threads)
                    .map(|_| {
                        let finished_tx = finished_tx.clone();
                        let queue = &queue;
                        scope.spawn(move || {
                            let nodes = queue.work();
                            let _ = finished_tx.send(());
                            nodes
                        })
                    })
                    .collect();
                drop(finished_tx);
                if let Some(periodic) = periodic {
                    let mut n_finished = 0;
                    let mut next = Instant::now() + periodic.every;
                    while n_finished < n_threads {
                        match finished_rx
                            .recv_timeout(next.saturating_duration_since(Instant::now()))
                        {
                            Ok(()) => n_finished += 1,
                            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                                let (done, found) =
                                    queue.state.lock().expect("lock").done_and_found();
                                let live = queue.live_nodes.load(Ordering::Relaxed);
                                (periodic.save)(&self.checkpoint(
                                    bound,
                                    nodes_before + live,
                                    done,
                                    found,
                                ));
                                next = Instant::now() + periodic.every;
                            }
                            // A worker panicked: the join below reports it.
                            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
                        }
                    }
                }
                handles
                    .into_iter()
                    .map(|h| h.join().expect("a search thread panicked"))
                    .sum()
            })
        };
        let state = queue
            .state
            .into_inner()
            .expect("no search thread panicked holding the lock");
        let cutoff = state.cutoff(want);
        // Complete when every prefix up to the cut-off is done.
        let complete = state
            .order
            .iter()
            .take(cutoff.saturating_add(1))
            .all(|&i| state.results[i].is_some());
        let (done, found) = state.done_and_found();
        if complete && found.is_empty() {
            *self.below.borrow_mut() = Some(PrefixNodes {
                bound,
                nodes: state.nodes,
            });
        }
        BoundResult {
            found,
            nodes,
            complete,
            done,
        }
    }
}

/// Periodic checkpoints of a search ([`OptimalSearch::search_checkpointed`](super::OptimalSearch::search_checkpointed)).
pub struct Periodic<'a> {
    /// How often: at most this long between two checkpoints while a bound is searched on
    /// several threads (bounds of 6 moves or fewer take milliseconds and get none).
    pub every: Duration,
    /// Gets each checkpoint (on the thread that called the search); writing it is its business.
    pub save: &'a mut dyn FnMut(&Checkpoint),
}

impl fmt::Debug for Periodic<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Periodic")
            .field("every", &self.every)
            .finish_non_exhaustive()
    }
}

/// The outcome of one bound.
struct BoundResult {
    /// The solutions of the prefixes searched to the end, in search order, with their prefix.
    found: Vec<(usize, Vec<Move>)>,
    nodes: u64,
    /// Every prefix up to the cut-off was searched to the end.
    complete: bool,
    /// The prefixes searched to the end.
    done: Vec<usize>,
}

/// Per-prefix results of one bound, by canonical prefix index.
struct BoundState {
    /// The solutions of each prefix searched to the end.
    results: Vec<Option<Vec<Vec<Move>>>>,
    n_found: Vec<usize>,
    /// The nodes under each prefix searched to the end.
    nodes: Vec<u64>,
    /// The search order: `order[rank]` is the index of the prefix searched `rank`-th.
    order: Vec<usize>,
}

impl BoundState {
    /// The prefixes searched to the end (increasing), and their solutions with their prefix, in
    /// search order.
    fn done_and_found(&self) -> (Vec<usize>, Vec<(usize, Vec<Move>)>) {
        let done = (0..self.results.len())
            .filter(|&i| self.results[i].is_some())
            .collect();
        let found = self
            .order
            .iter()
            .filter_map(|&i| self.results[i].as_ref().map(|solutions| (i, solutions)))
            .flat_map(|(i, solutions)| solutions.iter().map(move |moves| (i, moves.clone())))
            .collect();
        (done, found)
    }

    /// The rank of the last prefix that can contribute: the first at which the solutions of
    /// finished prefixes up to it in search order reach `want` (`usize::MAX` when there is none
    /// yet).
    fn cutoff(&self, want: usize) -> usize {
        let mut total = 0usize;
        for (rank, &i) in self.order.iter().enumerate() {
            total = total.saturating_add(self.n_found[i]);
            if total >= want {
                return rank;
            }
        }
        usize::MAX
    }
}

/// The prefix queue of one bound, which every thread of the bound takes prefixes from in search
/// order.
struct Queue<'a, M> {
    shared: Shared<'a, M>,
    cube: &'a Cube,
    prefixes: &'a [Vec<u8>],
    bound: usize,
    want: usize,
    /// The search order ([`BoundState::order`]) and the prefixes done before the bound's threads
    /// start (by a resumed checkpoint, or as other prefixes of a symmetric start's orbit), read
    /// without the lock.
    order: Vec<usize>,
    done_before: Vec<bool>,
    /// The rank of the next prefix to take.
    next: AtomicUsize,
    state: Mutex<BoundState>,
    /// The nodes of the bound so far, added prefix by prefix (for periodic checkpoints).
    live_nodes: AtomicU64,
}

impl<M: Method> Queue<'_, M> {
    /// One thread's search of the queue; returns its node count.
    fn work(&self) -> u64 {
        let mut worker = M::worker(&self.shared, self.cube);
        worker.work(self);
        worker.nodes()
    }
}

impl<M> Prefixes for Queue<'_, M> {
    fn bound(&self) -> usize {
        self.bound
    }

    fn want(&self) -> usize {
        self.want
    }

    fn take(&self) -> Option<Taken<'_>> {
        let shared = &self.shared;
        loop {
            let rank = self.next.fetch_add(1, Ordering::Relaxed);
            if rank >= self.prefixes.len()
                || rank > shared.cutoff.load(Ordering::Relaxed)
                || shared.halted.load(Ordering::Relaxed)
            {
                return None;
            }
            let index = self.order[rank];
            if !self.done_before[index] {
                return Some(Taken {
                    prefix: &self.prefixes[index],
                    rank,
                    index,
                });
            }
        }
    }

    fn finish(
        &self,
        taken: &Taken<'_>,
        abort: Abort,
        solutions: Vec<Vec<Move>>,
        nodes: u64,
    ) -> bool {
        self.live_nodes.fetch_add(nodes, Ordering::Relaxed);
        match abort {
            Abort::No | Abort::Enough => {
                let i = taken.index;
                let mut state = self.state.lock().expect("lock");
                let n_found = solutions.len();
                state.n_found[i] = n_found;
                state.nodes[i] = nodes;
                state.results[i] = Some(solutions);
                // The cut-off moves only when a prefix has solutions (then it takes a scan).
                if n_found > 0 && self.want != usize::MAX {
                    let cutoff = state.cutoff(self.want);
                    self.shared.cutoff.fetch_min(cutoff, Ordering::Relaxed);
                }
                true
            }
            Abort::Cutoff => true,
            Abort::Halted => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Prefixes searched out of canonical order: the cut-off is a rank in search order, the
    /// solutions come in search order, the done prefixes in canonical order.
    #[test]
    fn a_bound_s_results_follow_the_search_order() {
        let solution = |m: Move| vec![m];
        let mut state = BoundState {
            results: vec![None; 4],
            n_found: vec![0; 4],
            nodes: vec![0; 4],
            order: vec![2, 0, 3, 1],
        };
        assert_eq!(state.cutoff(1), usize::MAX);
        state.results[3] = Some(vec![solution(Move::U1)]);
        state.n_found[3] = 1;
        assert_eq!(state.cutoff(1), 2, "prefix 3 is searched third");
        state.results[2] = Some(vec![solution(Move::R1)]);
        state.n_found[2] = 1;
        assert_eq!(state.cutoff(1), 0);
        assert_eq!(state.cutoff(2), 2);
        state.results[0] = Some(vec![solution(Move::F1)]);
        state.n_found[0] = 1;
        assert_eq!(state.cutoff(2), 1);
        let (done, found) = state.done_and_found();
        assert_eq!(done, [0, 2, 3]);
        assert_eq!(
            found,
            [
                (2, solution(Move::R1)),
                (0, solution(Move::F1)),
                (3, solution(Move::U1))
            ]
        );
    }
}
