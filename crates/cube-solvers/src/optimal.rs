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
mod driver;
mod run;
mod symmetric;
mod tables;
mod upper;

use std::fmt;
use std::time::Duration;

use cube_core::{Cube, Move};
use cube_tables::{Metric, Tier};

pub use self::checkpoint::{Checkpoint, CheckpointError};
pub(crate) use self::driver::{
    Abort, Driver, MAX_DEPTH, Ordered, Shared, canonical_sequences, shortest_in_face_turns,
};
pub use self::run::Periodic;
pub(crate) use self::run::Task;
pub use self::tables::{Configs, OptimalTables};
pub(crate) use self::tables::{FamilyTables, OneTableFamily, SearchFamily};
use crate::two_phase::UpperBoundSolver;
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
/// not before a bound estimated at `HELPER_FROM_NODES`). A search that ends sooner (a 15-mover
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
