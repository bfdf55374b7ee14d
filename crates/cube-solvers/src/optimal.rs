//! The search engine of the optimal methods ([`korf`](crate::korf), [`sym48`](crate::sym48) and
//! [`nx`](crate::nx)): everything of an optimal search but the heuristic and the expansion of a
//! node, which a `Method` and its `PrefixWorker` supply; and what a caller sees of any method: the
//! [`Outcome`], [`Progress`], [`Checkpoint`] and [`Periodic`] checkpoints of an
//! [`OptimalSearch`], and [`OptimalTables`], the tables of any tier loaded once, which make the
//! search of its family.
//!
//! A search (`Driver::run`) checks the cube and the checkpoint, asks the two-phase solver for an
//! upper bound, then searches bounds from the method's lower bound up (`Run`): each bound is
//! split into the canonical move prefixes of `Driver::prefix_depth` moves, taken from one queue
//! in order by every thread (canonical order, or from `Ordered::from` on the order of each
//! prefix's density at the bound below, which depends only on the position and the tables: see
//! `Ordered`); solutions are taken in that order, and a prefix is abandoned only once earlier
//! prefixes hold all the solutions wanted, so the result never depends on the number of threads
//! or on timing (see [`korf`](crate::korf) for the exceptions the two-phase upper bound
//! brings). While the bounds are searched, the two-phase solver may go on on one more thread
//! (`upper`), looking for a solution at most one move longer than the bound being searched.
//! Progress is reported after each bound; a stopped search returns a [`Checkpoint`], and a
//! [`Periodic`] hook gets one every so often while a bound is searched.

mod checkpoint;
mod symmetric;
mod tables;
mod upper;

use std::fmt;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use cube_core::{Cube, Move, Symmetry};
use cube_tables::{Metric, Tier};

pub use self::checkpoint::{Checkpoint, CheckpointError};
pub(crate) use self::symmetric::orbit_starts;
use self::symmetric::{distinct_up_to_symmetry, position_symmetries, with_images};
pub use self::tables::{Configs, OptimalTables};
pub(crate) use self::tables::{FamilyTables, SearchFamily, read_corners, read_own_table};
use self::upper::{FinishOnDrop, UpperHelper};
use crate::cancel::Clock;
use crate::search::{AFTER, NO_MOVE};
use crate::two_phase::{TwoPhase, UpperBoundSolver};
use crate::{Limits, Solution, SolveError, Solver, Stop};

/// The search after one bound, or the first bound of a checkpoint.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    /// The bound searched.
    pub bound: usize,
    /// Whether the bound was searched to the end (it has no solution when `solutions` is 0).
    pub exhausted: bool,
    /// Solutions found at this bound.
    pub solutions: usize,
    /// Nodes of this bound.
    pub nodes: u64,
    /// Nodes of the whole search so far.
    pub total_nodes: u64,
    /// Time spent on this bound.
    pub bound_elapsed: Duration,
    /// Time since the search started.
    pub elapsed: Duration,
}

impl Progress {
    /// Nodes per second over this bound.
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.bound_elapsed.as_secs_f64().max(1e-9)
    }
}

impl fmt::Display for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "depth {:2} {} {:>14} nodes {:8.2} M nodes/s {:9.3} s (total {:.3} s)",
            self.bound,
            match (self.exhausted, self.solutions) {
                (true, 0) => "exhausted".to_string(),
                (_, 0) => "stopped  ".to_string(),
                (_, n) => format!("{n} found{}", if n == 1 { " " } else { "" }),
            },
            self.nodes,
            self.nodes_per_second() / 1e6,
            self.bound_elapsed.as_secs_f64(),
            self.elapsed.as_secs_f64()
        )
    }
}

/// What an optimal search (Korf's, sym48's or nx's) found and proved.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The solutions, best first: optimal ones when `optimal`; otherwise the best known (the
    /// two-phase solution), if any.
    pub solutions: Vec<Solution>,
    /// No solution is shorter than this.
    pub proven_lower_bound: usize,
    /// Whether the solutions are proven optimal.
    pub optimal: bool,
    /// Whether `solutions` holds every solution asked for: all the optimal ones (up to
    /// [`Limits::n_solutions`]), or as many as asked. False when the search stopped (its time
    /// budget, the stop flag) in the middle of that list: the solutions found are optimal, but
    /// others may exist, and the checkpoint goes on from there. False when not `optimal`.
    pub complete: bool,
    /// Nodes searched (children generated, prefixes included), over all bounds.
    pub nodes: u64,
    /// Time taken, two-phase included.
    pub elapsed: Duration,
    /// Where to go on from when the search was stopped before proving optimality.
    pub checkpoint: Option<Checkpoint>,
    /// The length of the two-phase solution that bounded the search, if one was asked for.
    pub upper_bound: Option<usize>,
    /// The metric of the lengths: `proven_lower_bound`, `upper_bound`, the bounds of
    /// [`Progress`] (the solutions' lengths in it are [`Metric::length`]).
    pub metric: Metric,
    /// The probes and prunes of a sym48 search; `None` for Korf's and nx's, which count nodes only.
    pub counters: Option<Counters>,
}

/// What a sym48 search did, beyond the nodes: counted over all bounds of one call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Prefixes searched (the tasks of the prefix queue, over all bounds).
    pub prefixes: u64,
    /// Heuristic values read (two at the end of each prefix, at most two per child).
    pub probes: u64,
    /// Children pruned by their exact corner distance, before any probe.
    pub corner_prunes: u64,
    /// Children pruned because a sibling on their face was at least 2 over their budget.
    pub face_prunes: u64,
    /// Nodes abandoned because a child was at least 3 over its budget.
    pub bpmx_returns: u64,
}

impl Counters {
    /// Adds the counts of `other`.
    pub fn add(&mut self, other: &Counters) {
        self.prefixes += other.prefixes;
        self.probes += other.probes;
        self.corner_prunes += other.corner_prunes;
        self.face_prunes += other.face_prunes;
        self.bpmx_returns += other.bpmx_returns;
    }
}

/// An optimal solver of any method behind one object ([`Korf`](crate::korf::Korf),
/// [`Sym48`](crate::sym48::Sym48), [`Nx`](crate::nx::Nx)): what a caller that picks the method at run time (by the tier
/// of its tables, [`OptimalTables::searcher`]) calls, as `Box<dyn OptimalSearch>`.
pub trait OptimalSearch: Send + Sync {
    /// The search of `cube`, or the resumption of `resume`, that also hands the state of the
    /// search to `periodic` every so often while a bound is searched on several threads, so that
    /// a killed process loses at most that much work.
    ///
    /// # Errors
    /// [`SolveError::Unsolvable`] before any search; [`SolveError::Cancelled`] when `stop` is
    /// raised before the two-phase solver found anything (later, the outcome tells what was
    /// reached); [`SolveError::BadCheckpoint`] when the checkpoint was taken with another tier,
    /// prefix depth, number of solutions or lookups (the error names which).
    fn search_checkpointed(
        &self,
        cube: &Cube,
        resume: Option<&Checkpoint>,
        limits: &Limits,
        stop: &Stop,
        progress: &mut dyn FnMut(&Progress),
        periodic: Option<Periodic<'_>>,
    ) -> Result<Outcome, SolveError>;

    /// Optimal solutions of `cube`, reporting each bound to `progress`.
    ///
    /// # Errors
    /// As [`OptimalSearch::search_checkpointed`].
    fn search(
        &self,
        cube: &Cube,
        limits: &Limits,
        stop: &Stop,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<Outcome, SolveError> {
        self.search_checkpointed(cube, None, limits, stop, progress, None)
    }

    /// Goes on with the search that `checkpoint` was taken from; the result is the one the
    /// uninterrupted search gives (with the same limits and configuration).
    ///
    /// # Errors
    /// As [`OptimalSearch::search_checkpointed`].
    fn resume(
        &self,
        checkpoint: &Checkpoint,
        limits: &Limits,
        stop: &Stop,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<Outcome, SolveError> {
        self.search_checkpointed(
            &checkpoint.cube,
            Some(checkpoint),
            limits,
            stop,
            progress,
            None,
        )
    }
}

/// Every optimal method is a [`Solver`]: the solutions of its search.
///
/// # Errors
/// [`SolveError::Unsolvable`] before any search; [`SolveError::Cancelled`] when the search was
/// stopped before any solution was known.
impl<S: OptimalSearch> Solver for S {
    fn solve(
        &self,
        cube: &Cube,
        limits: &Limits,
        stop: &Stop,
    ) -> Result<Vec<Solution>, SolveError> {
        let outcome = OptimalSearch::search(self, cube, limits, stop, &mut |_| {})?;
        if outcome.solutions.is_empty() && outcome.checkpoint.is_some() {
            return Err(SolveError::Cancelled);
        }
        Ok(outcome.solutions)
    }
}

/// What the bounds loop and the prefix queue need of an optimal method: Korf's lookups,
/// [`sym48`](crate::sym48)'s search and [`nx`](crate::nx)'s.
pub(crate) trait Method: Sync + Sized {
    /// One thread's search state.
    type Worker<'a>: QueueWorker
    where
        Self: 'a;

    /// A lower bound on the distance of `cube` in the method's metric: the first bound searched
    /// (in the quarter-turn metric, of the parity of the cube's corner permutation).
    fn lower_bound(&self, cube: &Cube) -> usize;

    /// The metric of the bounds: what a move costs out of the budget of a prefix's search.
    fn metric(&self) -> Metric {
        Metric::Htm
    }

    /// A worker searching from `cube`.
    fn worker<'a>(shared: &'a Shared<'a, Self>, cube: &Cube) -> Self::Worker<'a>;
}

/// One thread's search of the prefixes of a bound, taken from the queue one at a time.
pub(crate) trait PrefixWorker {
    /// Searches every continuation of `prefix` (the `rank`-th in search order) of total length
    /// `bound` in the method's metric, keeping up to `want` solutions (none when the prefix alone
    /// costs more than the bound).
    fn run_prefix(&mut self, prefix: &[u8], bound: usize, rank: usize, want: usize);
    /// Why the last prefix ended.
    fn abort(&self) -> Abort;
    /// The solutions of the last prefix, in the order found.
    fn take_solutions(&mut self) -> Vec<Vec<Move>>;
    /// Nodes searched by this worker so far.
    fn nodes(&self) -> u64;
}

/// A prefix taken from a bound's queue ([`Prefixes::take`]).
pub(crate) struct Taken<'q> {
    /// Its moves.
    pub(crate) prefix: &'q [u8],
    /// Its rank in search order.
    pub(crate) rank: usize,
    /// Its canonical index.
    index: usize,
}

/// The prefixes of one bound as a worker sees them: taken in search order, each finished with
/// how its search ended.
pub(crate) trait Prefixes {
    /// The bound, in the method's metric.
    fn bound(&self) -> usize;
    /// The solutions wanted of one prefix at most.
    fn want(&self) -> usize;
    /// The next prefix to search, if any is left and the bound is not over.
    fn take(&self) -> Option<Taken<'_>>;
    /// Records how the search of `taken` ended (its solutions count when it ran to the end or
    /// found as many as wanted) and the `nodes` it searched; false when the bound is halted and
    /// the worker must stop.
    fn finish(
        &self,
        taken: &Taken<'_>,
        abort: Abort,
        solutions: Vec<Vec<Move>>,
        nodes: u64,
    ) -> bool;
}

/// A thread's search of a bound: the prefixes one at a time ([`PrefixWorker`]), or several at
/// once ([`nx`](crate::nx)'s).
pub(crate) trait QueueWorker {
    /// Searches prefixes from `queue` until none is left or the bound is halted.
    fn work(&mut self, queue: &dyn Prefixes);
    /// Nodes searched by this worker so far.
    fn nodes(&self) -> u64;
}

impl<W: PrefixWorker> QueueWorker for W {
    fn work(&mut self, queue: &dyn Prefixes) {
        while let Some(taken) = queue.take() {
            let before = PrefixWorker::nodes(self);
            self.run_prefix(taken.prefix, queue.bound(), taken.rank, queue.want());
            let nodes = PrefixWorker::nodes(self) - before;
            let solutions = self.take_solutions();
            if !queue.finish(&taken, self.abort(), solutions, nodes) {
                break;
            }
        }
    }

    fn nodes(&self) -> u64 {
        PrefixWorker::nodes(self)
    }
}

/// How long the two-phase solver may improve its first solution before an optimal search starts,
/// by default: a millisecond. Beside the search, the two-phase helper goes on improving it (when
/// it runs), so a longer budget only delays the search: 20 ms made positions solved in under a
/// tenth of a second take up to twice as long, and sped up none (docs/perf-log/optimal-sym48.md,
/// "The first upper bound in a millisecond").
pub const DEFAULT_UPPER_BOUND_BUDGET: Duration = Duration::from_millis(1);

/// How long an optimal search runs before the two-phase helper beside it starts, by default (and
/// not before a bound estimated at [`HELPER_FROM_NODES`]). A search that ends sooner (a 15-mover
/// over h5 takes about 25 ms) never shares its cores with the helper, which on a two-core machine
/// took a third of their time; a longer one loses only the helper's first milliseconds.
pub const DEFAULT_HELPER_DELAY: Duration = Duration::from_millis(25);

/// The growth of a search from one bound to the next (one step: a move, or two quarter turns):
/// the nodes of an exhausted bound over those of the bound below, about 11 to 13 for sym48 on the
/// bounds that are more than their prefixes (docs/perf-log/optimal-sym48.md, "Easy positions").
/// Only the thread count and the helper's start are sized by it; no answer depends on it.
const GROWTH_PER_BOUND: u64 = 13;

/// A bound estimated below this many nodes runs on the calling thread alone: on two threads such a
/// bound (a millisecond or two of one thread) spends more on starting its second thread and that
/// thread's buffers than it saves in wall time. The first bound of a search from scratch, at the
/// lower bound, is estimated at zero (its work is mostly its prefixes' ends).
const SPLIT_FROM_NODES: u64 = 1 << 16;

/// The two-phase helper waits, beyond [`SearchConfig::helper_delay`], for a bound estimated at
/// this many nodes: before that the search is over too soon for the helper to shorten it, and
/// on two cores its thread takes the search's CPU (over 20 15-movers on h4, a quarter of the
/// search's CPU time for a quarter fewer nodes).
const HELPER_FROM_NODES: u64 = 2_000_000;

/// The settings of the bounds loop that every optimal family takes, written once: each family's
/// `Config` ([`korf::Config`](crate::korf::Config), [`sym48::Config`](crate::sym48::Config),
/// [`nx::Config`](crate::nx::Config)) has them as its `search`, and builds its driver from them
/// (`SearchConfig::driver`) with what its lookups are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// The length of the move prefixes that the work of a bound is split into (1 to 4): 3240
    /// prefixes of 3 moves, 43,254 of 4 (below a family's ordered bounds, if it has them).
    pub prefix_depth: usize,
    /// Ask the two-phase solver for a solution first: when every shorter length is exhausted and
    /// one solution is wanted, it is returned without searching its length. Its identity then
    /// depends on what the two-phase solver found within [`SearchConfig::upper_bound_budget`];
    /// turn this off for results that depend on the position only.
    pub upper_bound: bool,
    /// How long the two-phase solver may improve its first solution before the search starts
    /// (default [`DEFAULT_UPPER_BOUND_BUDGET`]).
    pub upper_bound_budget: Duration,
    /// With [`SearchConfig::upper_bound`] and one solution wanted: keep the two-phase solver
    /// running on one more thread during the search, looking for a solution at most one move
    /// longer than the bound being searched (a solution of length `n` is proven optimal as soon
    /// as every shorter length is exhausted, and the search stops there instead of searching
    /// length `n`). The result then depends on timing, as with [`SearchConfig::upper_bound`].
    pub concurrent_upper_bound: bool,
    /// How long the search runs before that helper starts (default [`DEFAULT_HELPER_DELAY`]); it
    /// also waits for the first bound the search estimates at two million nodes or more
    /// (thirteen times the bound below's, or a resumed search's first bound).
    pub helper_delay: Duration,
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            prefix_depth: 3,
            upper_bound: true,
            upper_bound_budget: DEFAULT_UPPER_BOUND_BUDGET,
            concurrent_upper_bound: true,
            helper_delay: DEFAULT_HELPER_DELAY,
        }
    }
}

/// What a family's search looks up, beside the [`SearchConfig`]: the rest of its [`Driver`].
pub(crate) struct Lookup {
    /// The tier of its tables.
    pub(crate) tier: Tier,
    pub(crate) distinct_up_to_symmetry: bool,
    pub(crate) inverse: bool,
    pub(crate) symmetric: bool,
    pub(crate) symmetric_starts: bool,
    pub(crate) ordered: Option<Ordered>,
}

impl SearchConfig {
    /// Panics unless [`SearchConfig::prefix_depth`] is 1 to 4: what every family's
    /// `with_config` checks first.
    pub(crate) fn assert_valid(&self) {
        assert!((1..=4).contains(&self.prefix_depth), "prefix depth 1 to 4");
    }

    /// The bounds loop of a family's search: these settings, the two-phase solver of the upper
    /// bound (asked of `two_phase` only when [`SearchConfig::upper_bound`]), and `lookup`.
    pub(crate) fn driver(&self, two_phase: &UpperBoundSolver, lookup: Lookup) -> Driver {
        Driver {
            prefix_depth: self.prefix_depth,
            upper_bound: self.upper_bound.then(|| two_phase.get().clone()),
            upper_bound_budget: self.upper_bound_budget,
            concurrent_upper_bound: self.concurrent_upper_bound,
            helper_delay: self.helper_delay,
            distinct_up_to_symmetry: lookup.distinct_up_to_symmetry,
            tier: lookup.tier,
            inverse: lookup.inverse,
            symmetric: lookup.symmetric,
            symmetric_starts: lookup.symmetric_starts,
            ordered: lookup.ordered,
        }
    }
}

/// The longest search in the half-turn metric: every position is solved in 20 moves (God's
/// number; [`Metric::diameter`] for either metric).
pub(crate) const MAX_DEPTH: usize = Metric::Htm.diameter();

/// The step from one bound to the next: 2 in the quarter-turn metric, where every quarter turn
/// flips the parity of the corner permutation, so that a solution's length has the parity of the
/// position's.
fn bound_step(metric: Metric) -> usize {
    match metric {
        Metric::Htm => 1,
        Metric::Qtm => 2,
    }
}

/// What the workers of one bound share: the method's lookups `M`, and what stops them.
pub(crate) struct Shared<'a, M> {
    pub(crate) method: &'a M,
    pub(crate) stop: &'a Stop,
    pub(crate) clock: &'a Clock,
    /// The two-phase solver has a solution of this bound's length: stop.
    pub(crate) upper_found: &'a AtomicBool,
    /// Prefixes after this index cannot contribute to the wanted solutions.
    pub(crate) cutoff: AtomicUsize,
    /// The stop flag was raised or the time budget ran out.
    pub(crate) halted: AtomicBool,
    /// Only one prefix of each orbit under the position's symmetries is searched: the move after a
    /// prefix may then be any move on another face, whatever the canonical order of opposite
    /// faces says (see `Driver::symmetric_starts`).
    pub(crate) any_face_after_prefix: bool,
}

impl<M> Shared<'_, M> {
    /// Polls the stop flag, the clock and the cut-off for a worker searching the prefix of search
    /// rank `prefix_rank`: why it must end early, if it must.
    #[inline]
    pub(crate) fn poll(&self, prefix_rank: usize) -> Option<Abort> {
        if self.halted.load(Ordering::Relaxed)
            || self.stop.is_stopped()
            || self.upper_found.load(Ordering::Relaxed)
            || self.clock.expired()
        {
            self.halted.store(true, Ordering::Relaxed);
            Some(Abort::Halted)
        } else if self.cutoff.load(Ordering::Relaxed) < prefix_rank {
            Some(Abort::Cutoff)
        } else {
            None
        }
    }
}

/// Why a prefix search ended early.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Abort {
    /// It ran to the end.
    #[default]
    No,
    /// It found as many solutions as wanted.
    Enough,
    /// Later prefixes were no longer needed.
    Cutoff,
    /// Stop flag or time budget.
    Halted,
}

/// `order` by the density of each prefix at the bound below (`below`: the nodes under each), largest
/// first (a stable sort): its nodes over the number of canonical continuations of its last move.
fn by_density(prefixes: &[Vec<u8>], below: &[u64], mut order: Vec<usize>) -> Vec<usize> {
    // Canonical sequences of 8 moves after each move: their ratio is the limit's, to a few ppm.
    let continuations: [f64; 19] = std::array::from_fn(|m| {
        let mut counts = [0f64; 19];
        counts[m] = 1.0;
        for _ in 0..8 {
            let mut next = [0f64; 19];
            for (prev, &n) in counts.iter().enumerate() {
                let mut mask = AFTER[prev];
                while mask != 0 {
                    next[mask.trailing_zeros() as usize] += n;
                    mask &= mask - 1;
                }
            }
            counts = next;
        }
        counts.iter().sum()
    });
    let density = |i: usize| {
        let last = prefixes[i].last().map_or(NO_MOVE, |&m| usize::from(m));
        below[i] as f64 / continuations[last]
    };
    order.sort_by(|&a, &b| density(b).total_cmp(&density(a)));
    order
}

/// The fewest face turns of a sequence of length `length` in `metric`: in quarter turns, half of
/// it (rounded up), all half turns.
pub(crate) fn shortest_in_face_turns(length: usize, metric: Metric) -> usize {
    match metric {
        Metric::Htm => length,
        Metric::Qtm => length.div_ceil(2),
    }
}

/// Every canonical move sequence of `len` moves, in search order.
pub(crate) fn canonical_sequences(len: usize) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut path = Vec::with_capacity(len);
    fn walk(path: &mut Vec<u8>, len: usize, prev: usize, out: &mut Vec<Vec<u8>>) {
        if path.len() == len {
            out.push(path.clone());
            return;
        }
        let mut mask = AFTER[prev];
        while mask != 0 {
            let m = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            path.push(m as u8);
            walk(path, len, m, out);
            path.pop();
        }
    }
    walk(&mut path, len, NO_MOVE, &mut out);
    out
}

/// The settings of the bounds loop, built by [`SearchConfig::driver`] for each family's search.
#[derive(Clone, Debug)]
pub(crate) struct Driver {
    pub(crate) prefix_depth: usize,
    /// The two-phase solver of the upper bound, when one is asked for.
    pub(crate) upper_bound: Option<TwoPhase>,
    pub(crate) upper_bound_budget: Duration,
    pub(crate) concurrent_upper_bound: bool,
    /// How long the search runs before that helper starts.
    pub(crate) helper_delay: Duration,
    pub(crate) distinct_up_to_symmetry: bool,
    /// What a checkpoint records of the tables and lookups, and a resumed search must match.
    pub(crate) tier: Tier,
    pub(crate) inverse: bool,
    pub(crate) symmetric: bool,
    /// Search one prefix of each orbit of prefixes under the symmetries of the position (and
    /// re-emit the solutions conjugated): prefixes `p` and `s(p)` lead to conjugate positions,
    /// `x·s(p) = s (x·p) s⁻¹` when `s x s⁻¹ = x`. The method's worker must honour
    /// [`Shared::any_face_after_prefix`]: conjugating a prefix can reorder the
    /// opposite faces at its end.
    pub(crate) symmetric_starts: bool,
    /// The ordered bounds, if any.
    pub(crate) ordered: Option<Ordered>,
}

/// From bound [`Ordered::from`] on, bounds are split into prefixes of [`Ordered::prefix_depth`]
/// moves and searched in decreasing density at the bound below: the nodes under the prefix there,
/// over the number of canonical continuations of its last move (a prefix ending on the first of
/// two opposite faces has more). A dense prefix holds more of the bound's near-solutions, so the
/// first solution of the last bound comes sooner. The first ordered bound of a search, with no
/// bound below it over the same prefixes, is searched by slack instead: the method's lower bound
/// at the end of each prefix, smallest first. Ties keep canonical order. Prefix indexes
/// (checkpoints, results) stay canonical; solutions are taken in search order, which depends only
/// on the position and the tables (a resumed search searches the bound below again for its
/// densities).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ordered {
    pub(crate) from: usize,
    pub(crate) prefix_depth: usize,
}

impl Driver {
    /// The length of the prefixes bound `bound` (in `metric`) is split into: at most the fewest
    /// face turns of a solution of that length (the bound, or half of it in quarter turns).
    pub(crate) fn prefix_depth_at(&self, bound: usize, metric: Metric) -> usize {
        match self.ordered {
            Some(ordered) if bound >= ordered.from => ordered.prefix_depth,
            _ => self.prefix_depth,
        }
        .min(shortest_in_face_turns(bound, metric))
    }

    /// Whether bound `bound` is searched in density order: it and the bound below are ordered
    /// bounds with the same prefixes, and the bound below is searched first (`first` is the first
    /// bound of the search from scratch).
    fn density_ordered(&self, bound: usize, first: usize) -> bool {
        self.ordered
            .is_some_and(|ordered| bound > ordered.from.max(first))
            && self.prefix_depth_at(bound - 1, Metric::Htm)
                == self.prefix_depth_at(bound, Metric::Htm)
    }

    /// The symmetries whose orbits of prefixes are searched once (none unless asked for).
    fn start_symmetries(&self, cube: &Cube) -> Vec<Symmetry> {
        if self.symmetric_starts {
            position_symmetries(cube)
        } else {
            Vec::new()
        }
    }

    /// The number of solutions a search with `limits` looks for (`usize::MAX` for all).
    fn wanted(&self, limits: &Limits) -> usize {
        if self.distinct_up_to_symmetry || limits.n_solutions == usize::MAX {
            usize::MAX
        } else {
            limits.n_solutions.max(1)
        }
    }

    /// Whether `checkpoint` comes from a search of `cube` like this one: the tier and everything
    /// that decides which prefixes were searched and what they found.
    fn check_checkpoint(
        &self,
        checkpoint: &Checkpoint,
        cube: &Cube,
        limits: &Limits,
        metric: Metric,
    ) -> Result<(), CheckpointError> {
        let mismatch = |field, message: String| Err(CheckpointError::new(None, field, message));
        if checkpoint.cube != *cube {
            return mismatch("cube", "the checkpoint is of another position".to_string());
        }
        if checkpoint.metric != metric {
            return mismatch(
                "metric",
                format!(
                    "taken by a search in the {} metric, this one counts in {metric} (--metric {})",
                    checkpoint.metric, checkpoint.metric
                ),
            );
        }
        if checkpoint.tier != self.tier {
            return mismatch(
                "tier",
                format!(
                    "taken with the {} tables, this search uses {}",
                    checkpoint.tier, self.tier
                ),
            );
        }
        let prefix_depth = self.prefix_depth_at(checkpoint.bound, metric);
        if checkpoint.prefix_depth != prefix_depth {
            return mismatch(
                "prefix-depth",
                format!(
                    "taken with prefixes of {} moves, this search splits bound {} into prefixes of {prefix_depth}",
                    checkpoint.prefix_depth, checkpoint.bound
                ),
            );
        }
        let wanted = self.wanted(limits);
        if checkpoint.n_solutions != wanted {
            let text = |n: usize| {
                if n == usize::MAX {
                    "all solutions".to_string()
                } else {
                    format!("{n} solution{}", if n == 1 { "" } else { "s" })
                }
            };
            return mismatch(
                "solutions-wanted",
                format!(
                    "taken by a search for {}, this one looks for {}",
                    text(checkpoint.n_solutions),
                    text(wanted)
                ),
            );
        }
        if (checkpoint.inverse, checkpoint.symmetric) != (self.inverse, self.symmetric) {
            return mismatch(
                "lookups",
                "taken with other lookups (inverse, symmetric) than this search's".to_string(),
            );
        }
        if checkpoint.symmetric_starts != self.symmetric_starts {
            let what = |one_per_orbit| {
                if one_per_orbit {
                    "one prefix per orbit under the position's symmetries"
                } else {
                    "every prefix"
                }
            };
            return mismatch(
                "starts",
                format!(
                    "taken by a search of {}, this one searches {}",
                    what(checkpoint.symmetric_starts),
                    what(self.symmetric_starts)
                ),
            );
        }
        Ok(())
    }

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
    /// The nodes under each prefix at the last bound searched to the end (for [`Ordered`]).
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

    /// A search resumed at a bound in density order ([`Ordered`]) first searches the bound below
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

    /// The order bound `bound`'s prefixes are searched in (canonical indexes): see [`Ordered`].
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

/// Periodic checkpoints of a search ([`OptimalSearch::search_checkpointed`]).
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
