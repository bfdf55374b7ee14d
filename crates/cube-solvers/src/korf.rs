//! Korf's optimal solver: IDA* over canonical move sequences, bounded below by pattern databases.
//!
//! The heuristic is the maximum of the corner database and two edge-subset databases of a
//! [`Tier`] ([`PdbSet`]), looked up on the position, on its inverse and on
//! symmetric conjugates of both ([`Config::inverse`], [`Config::symmetric`]): every one of those has
//! the distance of the position itself, and each sees other edges. The search:
//!
//! - asks the two-phase solver for a solution first ([`Config::upper_bound`]): once every length
//!   below it is exhausted, that solution is proven optimal; when one solution is wanted, the
//!   two-phase solver goes on during the search on one more thread, looking for a solution at most
//!   one move longer than the bound being searched: one of that bound's length ends the search at
//!   once, one a move longer ends it as soon as the bound is exhausted, without searching the next
//!   ([`Config::concurrent_upper_bound`]);
//! - searches bounds from the heuristic of the position upward; the first bound with a solution is
//!   the optimal length, so every solution returned is optimal;
//! - splits each bound into the canonical move prefixes of [`Config::prefix_depth`] moves, which all
//!   threads take from one queue in order; at each bound, solutions are taken in prefix order and a
//!   prefix is abandoned only once earlier prefixes hold all the solutions wanted, so the result
//!   depends on the position and the limits only, never on the number of threads or timing (but
//!   when the two-phase solution is the one proven optimal, it is returned, and which one the
//!   two-phase solver finds within its time budget may vary; without [`Config::upper_bound`], the
//!   result is always the first optimal solutions in the order of canonical sequences);
//! - stops on the [`Stop`] flag or the time budget with the best solution known, the length proven
//!   so far and a [`Checkpoint`] to go on from ([`Korf::resume`]).
//!
//! Limits: [`Limits::n_solutions`] optimal solutions (`usize::MAX` for all of them);
//! [`Limits::max_length`] the longest searched (default 20, God's number);
//! [`Limits::target_length`] returns the two-phase solution at once, unproven, when it is that
//! short; [`Limits::time_budget`] stops the search (softly: it is polled every few thousand nodes);
//! [`Limits::threads`] threads.
//!
//! The solver never opens a file: it searches the tables it is given (load them with
//! [`PdbSet::load_anonymous`], which uses huge pages). Making a solver derives from the corner
//! database its reduction by symmetry with per-move deltas (51 MB, a few hundred milliseconds:
//! [`SymCorners`]). Lookups are read straight from the table bytes; the grandchildren of a node
//! are looked up together with their table entries prefetched (`korf/search.rs`).
//!
//! ```no_run
//! use cube_core::{Alg, Cube};
//! use cube_solvers::korf::Korf;
//! use cube_solvers::{Limits, Stop};
//! use cube_tables::Tier;
//! use cube_tables::pdb::PdbSet;
//!
//! let tables = PdbSet::load_anonymous(std::path::Path::new("tables"), Tier::Edge7)?;
//! let cube = Cube::SOLVED.apply_alg(&"U' D F2 U2 R F' R' U' D2 F' U B R D F R'".parse::<Alg>().unwrap());
//! let limits = Limits { threads: 2, ..Limits::default() };
//! let outcome = Korf::new(&tables).search(&cube, &limits, &Stop::new(), &mut |p| eprintln!("{p}"))?;
//! assert!(outcome.optimal);
//! assert_eq!(outcome.solutions[0].moves.len(), 16);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod checkpoint;
mod heuristic;
pub(crate) mod index;
mod search;

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use cube_core::{Cube, Move, Symmetry, simplify};
use cube_tables::Tier;
use cube_tables::pdb::{PdbSet, SymCorners};

pub use self::checkpoint::{Checkpoint, CheckpointError};
use self::heuristic::{Tables, ViewMoves};
pub(crate) use self::search::{Abort, MAX_DEPTH, Shared};
use self::search::{Lookups, Worker};
use crate::cancel::Clock;
use crate::search::{AFTER, NO_MOVE};
use crate::two_phase::{TwoPhase, UpperBoundSolver};
use crate::{Limits, Solution, SolveError, Solver, Stop};

/// The conjugating symmetries of [`Config::default`]: `RFm`, `DBm` and `RBm` (indexes 33, 30, 35),
/// the three that raise the mean heuristic of random states most with the 7edge tables, chosen
/// greedily with the inverse lookups on (`optimal_bench --heuristic-stats`): 9.12 for the plain
/// maximum of three, 9.20 with the inverse, 9.36 with these three (3000 states). Exhausting depth
/// 15 of three 16-move positions took 237 M nodes plain, 160 M with the inverse and 97 M with both.
/// Mirror symmetries are as good as rotations here: a mirrored position has the same distance.
pub const DEFAULT_SYMMETRIES: [Symmetry; 3] = [
    Symmetry::from_index(33),
    Symmetry::from_index(30),
    Symmetry::from_index(35),
];

/// Configuration of [`Korf`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Also look up the inverse position (of every view).
    pub inverse: bool,
    /// Also look up the position conjugated by [`Config::symmetries`].
    pub symmetric: bool,
    /// The conjugating symmetries of the symmetric lookups (at most 7; the identity is implied).
    pub symmetries: Vec<Symmetry>,
    /// Return only solutions that are distinct up to the symmetries of the position: of two
    /// solutions `s` and `t` with `t` = `s` conjugated by a symmetry `S` that leaves the position
    /// unchanged (so `t` solves it too), only the first is kept. This enumerates every optimal
    /// solution before choosing [`Limits::n_solutions`] of them.
    pub distinct_up_to_symmetry: bool,
    /// The length of the move prefixes that the work of a bound is split into (1 to 4): 3240
    /// prefixes of 3 moves, 43,254 of 4.
    pub prefix_depth: usize,
    /// Ask the two-phase solver for a solution first: when every shorter length is exhausted and
    /// one solution is wanted, it is returned without searching its length. Its identity then
    /// depends on what the two-phase solver found within [`Config::upper_bound_budget`]; turn this
    /// off for results that depend on the position only.
    pub upper_bound: bool,
    /// How long the two-phase solver may improve its solution before the search starts.
    pub upper_bound_budget: Duration,
    /// With [`Config::upper_bound`] and one solution wanted: keep the two-phase solver running on
    /// one more thread during the search, looking for a solution at most one move longer than the
    /// bound being searched (a solution of length `n` is proven optimal as soon as every shorter
    /// length is exhausted, and the search stops there instead of searching length `n`). The
    /// result then depends on timing, as with [`Config::upper_bound`].
    pub concurrent_upper_bound: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            inverse: true,
            symmetric: true,
            symmetries: DEFAULT_SYMMETRIES.to_vec(),
            distinct_up_to_symmetry: false,
            prefix_depth: 3,
            upper_bound: true,
            upper_bound_budget: Duration::from_millis(20),
            concurrent_upper_bound: true,
        }
    }
}

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

/// What a Korf search found and proved.
#[derive(Clone, Debug)]
pub struct KorfOutcome {
    /// The solutions, best first: optimal ones when `optimal`; otherwise the best known (the
    /// two-phase solution), if any.
    pub solutions: Vec<Solution>,
    /// No solution is shorter than this.
    pub proven_lower_bound: usize,
    /// Whether the solutions are proven optimal.
    pub optimal: bool,
    /// Nodes searched (children generated, prefixes included), over all bounds.
    pub nodes: u64,
    /// Time taken, two-phase included.
    pub elapsed: Duration,
    /// Where to go on from when the search was stopped before proving optimality.
    pub checkpoint: Option<Checkpoint>,
    /// The length of the two-phase solution that bounded the search, if one was asked for.
    pub upper_bound: Option<usize>,
}

/// Korf's optimal solver over the pattern databases of one tier.
#[derive(Debug)]
pub struct Korf<'t, T> {
    tables: &'t PdbSet<T>,
    /// The corner database reduced by symmetry, derived from `tables` (3 MB, a few tens of ms).
    corners: SymCorners,
    config: Config,
    /// The two-phase solver of [`Config::upper_bound`].
    two_phase: UpperBoundSolver,
}

impl<'t, T: AsRef<[u8]> + Sync> Korf<'t, T> {
    /// A solver over `tables` with the default configuration.
    pub fn new(tables: &'t PdbSet<T>) -> Korf<'t, T> {
        Korf::with_config(tables, Config::default())
    }

    /// A solver over `tables` with `config`.
    ///
    /// # Panics
    /// If `config.symmetries` has more than 7 entries or `config.prefix_depth` is not in 1..=4.
    pub fn with_config(tables: &'t PdbSet<T>, config: Config) -> Korf<'t, T> {
        assert!(
            config.symmetries.len() <= 7,
            "at most 7 conjugating symmetries"
        );
        assert!(
            (1..=4).contains(&config.prefix_depth),
            "prefix depth 1 to 4"
        );
        Korf {
            tables,
            corners: SymCorners::new(tables.corners()),
            config,
            two_phase: UpperBoundSolver::default(),
        }
    }

    /// The solver with `two_phase` for [`Config::upper_bound`] (without it, one over the small
    /// two-phase tables is built on the first search that asks for an upper bound).
    pub fn with_two_phase(self, two_phase: TwoPhase) -> Korf<'t, T> {
        Korf {
            two_phase: UpperBoundSolver::given(two_phase),
            ..self
        }
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The heuristic of `cube` with this configuration's lookups: a lower bound on its distance.
    pub fn heuristic(&self, cube: &Cube) -> u8 {
        let (tables, views) = self.lookup_parts();
        tables.evaluate(&views.pairs(cube, self.n_pairs())).1
    }

    /// Optimal solutions of `cube`, reporting each bound to `progress`.
    ///
    /// # Errors
    /// [`SolveError::Unsolvable`] before any search; [`SolveError::Cancelled`] when `stop` is raised
    /// before the two-phase solver found anything (later, the outcome tells what was reached).
    pub fn search(
        &self,
        cube: &Cube,
        limits: &Limits,
        stop: &Stop,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<KorfOutcome, SolveError> {
        self.search_checkpointed(cube, None, limits, stop, progress, None)
    }

    /// Optimal move sequences that take `from` to `to` (`from.apply_moves(s) == to`), as
    /// [`Korf::search`] of `to⁻¹ · from`.
    ///
    /// # Errors
    /// As [`Korf::search`]; either state being unsolvable is [`SolveError::Unsolvable`].
    pub fn search_to(
        &self,
        from: &Cube,
        to: &Cube,
        limits: &Limits,
        stop: &Stop,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<KorfOutcome, SolveError> {
        self.search(&crate::relative_to_goal(from, to)?, limits, stop, progress)
    }

    /// Goes on with the search that `checkpoint` was taken from; the result is the one the
    /// uninterrupted search gives (with the same limits and configuration).
    ///
    /// # Errors
    /// As [`Korf::search`]; [`SolveError::BadCheckpoint`] when the checkpoint was taken with
    /// another tier, prefix depth, number of solutions or lookups (the error names which).
    pub fn resume(
        &self,
        checkpoint: &Checkpoint,
        limits: &Limits,
        stop: &Stop,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<KorfOutcome, SolveError> {
        self.search_checkpointed(
            &checkpoint.cube,
            Some(checkpoint),
            limits,
            stop,
            progress,
            None,
        )
    }

    /// [`Korf::search`] of `cube`, or [`Korf::resume`] of `resume`, that also hands the state of
    /// the search to `periodic` every so often while a bound is searched on several threads, so
    /// that a killed process loses at most that much work.
    ///
    /// # Errors
    /// As [`Korf::resume`].
    pub fn search_checkpointed(
        &self,
        cube: &Cube,
        resume: Option<&Checkpoint>,
        limits: &Limits,
        stop: &Stop,
        progress: &mut dyn FnMut(&Progress),
        periodic: Option<Periodic<'_>>,
    ) -> Result<KorfOutcome, SolveError> {
        self.run(cube, limits, stop, progress, resume, periodic)
    }

    fn conjugates(&self) -> &[Symmetry] {
        if self.config.symmetric {
            &self.config.symmetries
        } else {
            &[]
        }
    }

    fn n_pairs(&self) -> usize {
        1 + self.conjugates().len()
    }

    /// The tables and the conjugated views that this configuration looks up.
    fn lookup_parts(&self) -> (Tables<'_>, ViewMoves) {
        let tables = Tables::new(
            self.tables,
            &self.corners,
            self.n_pairs(),
            self.config.inverse,
        );
        (tables, ViewMoves::new(self.conjugates()))
    }

    /// The settings of the bounds loop.
    fn driver(&self) -> Driver {
        Driver {
            prefix_depth: self.config.prefix_depth,
            upper_bound: self
                .config
                .upper_bound
                .then(|| self.two_phase.get().clone()),
            upper_bound_budget: self.config.upper_bound_budget,
            concurrent_upper_bound: self.config.concurrent_upper_bound,
            distinct_up_to_symmetry: self.config.distinct_up_to_symmetry,
            tier: self.tables.tier(),
            inverse: self.config.inverse,
            symmetric: self.config.symmetric && !self.config.symmetries.is_empty(),
            symmetric_starts: false,
        }
    }

    fn run(
        &self,
        cube: &Cube,
        limits: &Limits,
        stop: &Stop,
        progress: &mut dyn FnMut(&Progress),
        checkpoint: Option<&Checkpoint>,
        periodic: Option<Periodic<'_>>,
    ) -> Result<KorfOutcome, SolveError> {
        let (tables, views) = self.lookup_parts();
        let lookups = Lookups {
            tables: &tables,
            views: &views,
        };
        self.driver()
            .run(&lookups, cube, limits, stop, progress, checkpoint, periodic)
    }
}

/// What the bounds loop and the prefix queue need of an optimal method: Korf's [`Lookups`], and
/// [`sym48`](crate::sym48)'s search.
pub(crate) trait Method: Sync + Sized {
    /// One thread's search state.
    type Worker<'a>: PrefixWorker
    where
        Self: 'a;

    /// A lower bound on the distance of `cube`: the first bound searched.
    fn lower_bound(&self, cube: &Cube) -> usize;

    /// A worker searching from `cube`.
    fn worker<'a>(shared: &'a Shared<'a, Self>, cube: &Cube) -> Self::Worker<'a>;
}

/// One thread's search of the prefixes of a bound, taken from the queue one at a time.
pub(crate) trait PrefixWorker {
    /// Searches every continuation of `prefix` (the index-th) of total length `bound`, keeping up
    /// to `want` solutions.
    fn run_prefix(&mut self, prefix: &[u8], bound: usize, index: usize, want: usize);
    /// Why the last prefix ended.
    fn abort(&self) -> Abort;
    /// The solutions of the last prefix, in the order found.
    fn take_solutions(&mut self) -> Vec<Vec<Move>>;
    /// Nodes searched by this worker so far.
    fn nodes(&self) -> u64;
}

impl Method for Lookups<'_> {
    type Worker<'a>
        = Worker<'a>
    where
        Self: 'a;

    fn lower_bound(&self, cube: &Cube) -> usize {
        let pairs = self.views.pairs(cube, self.tables.n_pairs());
        usize::from(self.tables.evaluate(&pairs).1)
    }

    fn worker<'a>(shared: &'a Shared<'a, Self>, cube: &Cube) -> Worker<'a> {
        Worker::new(shared, cube)
    }
}

impl PrefixWorker for Worker<'_> {
    fn run_prefix(&mut self, prefix: &[u8], bound: usize, index: usize, want: usize) {
        Worker::run_prefix(self, prefix, bound, index, want);
    }

    fn abort(&self) -> Abort {
        self.abort
    }

    fn take_solutions(&mut self) -> Vec<Vec<Move>> {
        std::mem::take(&mut self.solutions)
    }

    fn nodes(&self) -> u64 {
        self.n_nodes
    }
}

/// The settings of the bounds loop shared by the optimal methods (see [`Config`]).
#[derive(Clone, Debug)]
pub(crate) struct Driver {
    pub(crate) prefix_depth: usize,
    /// The two-phase solver of the upper bound, when one is asked for.
    pub(crate) upper_bound: Option<TwoPhase>,
    pub(crate) upper_bound_budget: Duration,
    pub(crate) concurrent_upper_bound: bool,
    pub(crate) distinct_up_to_symmetry: bool,
    /// What a checkpoint records of the tables and lookups, and a resumed search must match.
    pub(crate) tier: Tier,
    pub(crate) inverse: bool,
    pub(crate) symmetric: bool,
    /// Search one prefix of each orbit of prefixes under the symmetries of the position (and
    /// re-emit the solutions conjugated): prefixes `p` and `s(p)` lead to conjugate positions,
    /// `x·s(p) = s (x·p) s⁻¹` when `s x s⁻¹ = x`. The method's worker must honour
    /// [`Shared::any_face_after_prefix`](search::Shared): conjugating a prefix can reorder the
    /// opposite faces at its end.
    pub(crate) symmetric_starts: bool,
}

impl Driver {
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
    ) -> Result<(), CheckpointError> {
        let mismatch = |field, message: String| Err(CheckpointError::new(None, field, message));
        if checkpoint.cube != *cube {
            return mismatch("cube", "the checkpoint is of another position".to_string());
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
        let prefix_depth = self.prefix_depth.min(checkpoint.bound);
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
        Ok(())
    }

    /// The search of `cube` with `method`: the cube and the checkpoint checked first, then the
    /// two-phase upper bound, then the bounds from the method's lower bound on (from the
    /// checkpoint's bound when there is one).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn run<M: Method>(
        &self,
        method: &M,
        cube: &Cube,
        limits: &Limits,
        stop: &Stop,
        progress: &mut dyn FnMut(&Progress),
        checkpoint: Option<&Checkpoint>,
        mut periodic: Option<Periodic<'_>>,
    ) -> Result<KorfOutcome, SolveError> {
        cube.validate()?;
        if let Some(checkpoint) = checkpoint {
            self.check_checkpoint(checkpoint, cube, limits)
                .map_err(SolveError::BadCheckpoint)?;
        }
        let start = Instant::now();
        let clock = Clock::new(limits.time_budget);
        let max_length = limits.max_length.unwrap_or(MAX_DEPTH).min(MAX_DEPTH);
        let finish = |solutions: Vec<Vec<Move>>,
                      proven: usize,
                      optimal: bool,
                      nodes: u64,
                      checkpoint,
                      upper_len| {
            Ok(KorfOutcome {
                upper_bound: upper_len,
                solutions: solutions.into_iter().map(Solution::new).collect(),
                proven_lower_bound: proven,
                optimal,
                nodes,
                elapsed: start.elapsed(),
                checkpoint,
            })
        };
        if cube.is_solved() {
            return finish(vec![Vec::new()], 0, true, 0, None, None);
        }
        let h0 = method.lower_bound(cube);
        let want = self.wanted(limits);

        let upper = if let Some(two_phase_solver) = &self.upper_bound {
            let two_phase = Limits {
                max_length: Some(MAX_DEPTH),
                target_length: Some(h0.max(limits.target_length.unwrap_or(0))),
                time_budget: Some(self.upper_bound_budget),
                n_solutions: 1,
                threads: 1,
            };
            match two_phase_solver.solve(cube, &two_phase, stop) {
                Ok(mut found) if !found.is_empty() => Some(found.swap_remove(0).moves),
                Ok(_) => None,
                Err(SolveError::Cancelled) => return Err(SolveError::Cancelled),
                Err(e) => return Err(e),
            }
        } else {
            None
        };
        let upper_len = upper.as_ref().map(Vec::len);
        // Longer than allowed: neither a bound nor an answer.
        let upper = upper.filter(|moves| moves.len() <= max_length);
        if let (Some(upper), Some(target)) = (&upper, limits.target_length)
            && upper.len() <= target
        {
            let optimal = upper.len() <= h0;
            return finish(
                vec![upper.clone()],
                if optimal { upper.len() } else { h0 },
                optimal,
                0,
                None,
                upper_len,
            );
        }

        let nodes = checkpoint.map_or(0, |c| c.nodes);
        let first_bound = checkpoint.map_or(h0, |c| c.bound.max(h0));
        // While the bounds are searched, the two-phase solver looks on (one more thread) for a
        // solution at most one move longer than the bound being searched.
        let helper = UpperHelper::new(upper.clone(), first_bound + 1);
        let use_helper = self.upper_bound.is_some()
            && self.concurrent_upper_bound
            && want == 1
            && upper.as_ref().is_some_and(|u| u.len() > first_bound);
        std::thread::scope(|scope| {
            if let Some(two_phase) = self.upper_bound.as_ref().filter(|_| use_helper) {
                scope.spawn(|| helper.run(two_phase, cube, stop));
            }
            let result = self.bounds(
                method,
                cube,
                limits,
                stop,
                progress,
                checkpoint,
                &clock,
                &helper,
                start,
                first_bound,
                max_length,
                want,
                upper_len,
                nodes,
                &finish,
                periodic.as_mut(),
            );
            helper.finish();
            result
        })
    }

    /// The bounds from `first_bound` on (the loop of [`Korf::run`]).
    #[allow(clippy::too_many_arguments)]
    fn bounds<M: Method>(
        &self,
        method: &M,
        cube: &Cube,
        limits: &Limits,
        stop: &Stop,
        progress: &mut dyn FnMut(&Progress),
        checkpoint: Option<&Checkpoint>,
        clock: &Clock,
        helper: &UpperHelper,
        start: Instant,
        first_bound: usize,
        max_length: usize,
        want: usize,
        upper_len: Option<usize>,
        mut nodes: u64,
        finish: &Finish<'_>,
        mut periodic: Option<&mut Periodic<'_>>,
    ) -> Result<KorfOutcome, SolveError> {
        let mut upper = helper.best();
        for bound in first_bound..=max_length {
            helper.set_target(bound + 1);
            upper = helper.best().or(upper);
            if let Some(upper) = &upper
                && want == 1
                && upper.len() <= bound
            {
                // Every shorter bound is exhausted: the two-phase solution is optimal.
                return finish(
                    vec![upper.clone()],
                    upper.len(),
                    true,
                    nodes,
                    None,
                    upper_len,
                );
            }
            let resume = checkpoint.filter(|c| c.bound == bound);
            let bound_start = Instant::now();
            let snapshot = |done: Vec<usize>, solutions, bound_nodes: u64| {
                self.checkpoint(cube, bound, want, nodes + bound_nodes, done, solutions)
            };
            let result = self.search_bound(
                method,
                cube,
                bound,
                want,
                limits.threads,
                stop,
                clock,
                resume,
                &helper.found,
                periodic
                    .as_deref_mut()
                    .map(|p| (p, &snapshot as &Snapshot<'_>)),
            );
            nodes += result.nodes;
            if want == 1
                && helper.found.load(Ordering::SeqCst)
                && let Some(found) = helper.best().filter(|moves| moves.len() <= bound)
            {
                // Every shorter bound is exhausted: the two-phase solution is optimal.
                progress(&Progress {
                    bound,
                    exhausted: false,
                    solutions: 1,
                    nodes: result.nodes,
                    total_nodes: nodes,
                    bound_elapsed: bound_start.elapsed(),
                    elapsed: start.elapsed(),
                });
                let len = found.len();
                return finish(vec![found], len, true, nodes, None, upper_len);
            }
            progress(&Progress {
                bound,
                exhausted: result.complete,
                solutions: result.found.len().min(want),
                nodes: result.nodes,
                total_nodes: nodes,
                bound_elapsed: bound_start.elapsed(),
                elapsed: start.elapsed(),
            });
            let checkpoint = (!result.complete).then(|| {
                self.checkpoint(cube, bound, want, nodes, result.done, result.found.clone())
            });
            if !result.found.is_empty() {
                // Every shorter bound is exhausted, so these are optimal (when the search was
                // halted, perhaps not the first ones nor all of them: the checkpoint goes on).
                let mut solutions: Vec<Vec<Move>> =
                    result.found.into_iter().map(|(_, moves)| moves).collect();
                let symmetries = self.start_symmetries(cube);
                if !symmetries.is_empty() {
                    solutions = with_images(solutions, &symmetries);
                }
                if self.distinct_up_to_symmetry {
                    solutions = distinct_up_to_symmetry(cube, solutions);
                }
                solutions.truncate(limits.n_solutions.max(1));
                return finish(solutions, bound, true, nodes, checkpoint, upper_len);
            }
            if checkpoint.is_some() {
                return finish(
                    upper.into_iter().collect(),
                    bound,
                    false,
                    nodes,
                    checkpoint,
                    upper_len,
                );
            }
        }
        finish(
            upper.into_iter().collect(),
            max_length + 1,
            false,
            nodes,
            None,
            upper_len,
        )
    }

    /// The checkpoint of a search of `cube` at `bound` with these done prefixes and solutions.
    fn checkpoint(
        &self,
        cube: &Cube,
        bound: usize,
        want: usize,
        nodes: u64,
        done: Vec<usize>,
        solutions: Vec<(usize, Vec<Move>)>,
    ) -> Checkpoint {
        Checkpoint {
            cube: *cube,
            tier: self.tier,
            prefix_depth: self.prefix_depth.min(bound),
            n_solutions: want,
            inverse: self.inverse,
            symmetric: self.symmetric,
            bound,
            nodes,
            done,
            solutions,
        }
    }

    /// Searches one bound over all prefixes, on `limits.threads` threads; with `periodic`, the
    /// calling thread hands a checkpoint of the bound so far to it every `periodic.every`.
    #[allow(clippy::too_many_arguments)]
    fn search_bound<M: Method>(
        &self,
        method: &M,
        cube: &Cube,
        bound: usize,
        want: usize,
        threads: usize,
        stop: &Stop,
        clock: &Clock,
        resume: Option<&Checkpoint>,
        upper_found: &AtomicBool,
        periodic: Option<(&mut Periodic<'_>, &Snapshot<'_>)>,
    ) -> BoundResult {
        let mut shared = Shared {
            method,
            stop,
            clock,
            upper_found,
            cutoff: AtomicUsize::new(usize::MAX),
            halted: AtomicBool::new(false),
            any_face_after_prefix: false,
        };
        let prefixes = canonical_sequences(self.prefix_depth.min(bound));
        let mut state = BoundState {
            results: vec![None; prefixes.len()],
            n_found: vec![0; prefixes.len()],
        };
        let symmetries = self.start_symmetries(cube);
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
        if let Some(checkpoint) = resume {
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
        let state = Mutex::new(state);
        let next = AtomicUsize::new(0);
        let live_nodes = AtomicU64::new(0);
        // Tiny bounds are not worth starting threads.
        let n_threads = if bound <= 6 { 1 } else { threads.max(1) };
        let work = || {
            run_worker(
                &shared,
                cube,
                &prefixes,
                bound,
                want,
                &next,
                &state,
                &live_nodes,
            )
        };
        let nodes: u64 = if n_threads <= 1 {
            work()
        } else {
            std::thread::scope(|scope| {
                // Each worker says when it is done, so that waiting for checkpoint times never
                // delays the end of the bound.
                let (finished_tx, finished_rx) = std::sync::mpsc::channel();
                let handles: Vec<_> = (0..n_threads)
                    .map(|_| {
                        let finished_tx = finished_tx.clone();
                        scope.spawn(move || {
                            let nodes = work();
                            let _ = finished_tx.send(());
                            nodes
                        })
                    })
                    .collect();
                drop(finished_tx);
                if let Some((periodic, snapshot)) = periodic {
                    let mut n_finished = 0;
                    let mut next = Instant::now() + periodic.every;
                    while n_finished < n_threads {
                        match finished_rx
                            .recv_timeout(next.saturating_duration_since(Instant::now()))
                        {
                            Ok(()) => n_finished += 1,
                            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                                let (done, found) = state.lock().expect("lock").done_and_found();
                                (periodic.save)(&snapshot(
                                    done,
                                    found,
                                    live_nodes.load(Ordering::Relaxed),
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
        let state = state
            .into_inner()
            .expect("no search thread panicked holding the lock");
        let cutoff = state.cutoff(want);
        // Complete when every prefix up to the cut-off is done.
        let complete = state
            .results
            .iter()
            .take(cutoff.saturating_add(1))
            .all(Option::is_some);
        let (done, found) = state.done_and_found();
        BoundResult {
            found,
            nodes,
            complete,
            done,
        }
    }
}

/// The two-phase solver on a thread of its own during the search: it looks for a solution at most
/// one move longer than the bound being searched (its target), restarting when the target moves
/// on, and waits once it has one.
struct UpperHelper {
    /// The best solution known.
    best: Mutex<Option<Vec<Move>>>,
    /// One more than the bound being searched (every shorter bound is exhausted).
    target: AtomicUsize,
    /// `best` is shorter than `target`, so no longer than the bound being searched: the search of
    /// the bound can stop, that solution is optimal.
    found: AtomicBool,
    /// The search is over.
    done: AtomicBool,
    /// Stops the two-phase run in progress (when the target moves, or the search is over).
    run_stop: Mutex<Stop>,
}

impl UpperHelper {
    fn new(best: Option<Vec<Move>>, target: usize) -> UpperHelper {
        UpperHelper {
            best: Mutex::new(best),
            target: AtomicUsize::new(target),
            found: AtomicBool::new(false),
            done: AtomicBool::new(false),
            run_stop: Mutex::new(Stop::new()),
        }
    }

    fn best(&self) -> Option<Vec<Move>> {
        self.best.lock().expect("lock").clone()
    }

    /// The search goes on to the bound `target - 1`: a run looking for a shorter solution than
    /// `target` cannot succeed, and one of `target` moves ends the search after this bound.
    fn set_target(&self, target: usize) {
        if self.target.swap(target, Ordering::SeqCst) != target {
            self.run_stop.lock().expect("lock").stop();
        }
    }

    fn finish(&self) {
        self.done.store(true, Ordering::SeqCst);
        self.run_stop.lock().expect("lock").stop();
    }

    /// Runs the two-phase solver until the search is over or it has a solution shorter than the
    /// target; with one of the target's length it waits for the target to move on.
    fn run(&self, two_phase: &TwoPhase, cube: &Cube, stop: &Stop) {
        while !self.done.load(Ordering::SeqCst) && !stop.is_stopped() {
            let target = self.target.load(Ordering::SeqCst);
            let best_len = self.best().map_or(MAX_DEPTH + 1, |b| b.len());
            if best_len < target {
                self.found.store(true, Ordering::SeqCst);
                return;
            }
            if best_len == target {
                // Enough for this bound: the search ends when it is exhausted.
                std::thread::sleep(Duration::from_millis(2));
                continue;
            }
            let run_stop = Stop::new();
            *self.run_stop.lock().expect("lock") = run_stop.clone();
            // Raised between the loads above and the store: look again.
            if self.done.load(Ordering::SeqCst) || self.target.load(Ordering::SeqCst) != target {
                continue;
            }
            let limits = Limits {
                max_length: Some(best_len - 1),
                target_length: Some(target),
                time_budget: None,
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

/// Periodic checkpoints of a search ([`Korf::search_checkpointed`]).
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

/// Makes a checkpoint of the bound being searched from its done prefixes, their solutions and the
/// nodes of the bound so far.
type Snapshot<'a> = dyn Fn(Vec<usize>, Vec<(usize, Vec<Move>)>, u64) -> Checkpoint + 'a;

/// How [`Korf::run`] makes its outcome: solutions, proven lower bound, optimal, nodes,
/// checkpoint, two-phase length.
type Finish<'a> = dyn Fn(
        Vec<Vec<Move>>,
        usize,
        bool,
        u64,
        Option<Checkpoint>,
        Option<usize>,
    ) -> Result<KorfOutcome, SolveError>
    + 'a;

/// The outcome of one bound.
struct BoundResult {
    /// The solutions of the prefixes searched to the end, in prefix order, with their prefix.
    found: Vec<(usize, Vec<Move>)>,
    nodes: u64,
    /// Every prefix up to the cut-off was searched to the end.
    complete: bool,
    /// The prefixes searched to the end.
    done: Vec<usize>,
}

/// Per-prefix results of one bound.
struct BoundState {
    /// The solutions of each prefix searched to the end.
    results: Vec<Option<Vec<Vec<Move>>>>,
    n_found: Vec<usize>,
}

impl BoundState {
    /// The prefixes searched to the end, and their solutions with their prefix, in prefix order.
    fn done_and_found(&self) -> (Vec<usize>, Vec<(usize, Vec<Move>)>) {
        let mut found = Vec::new();
        let mut done = Vec::new();
        for (i, solutions) in self.results.iter().enumerate() {
            if let Some(solutions) = solutions {
                done.push(i);
                found.extend(solutions.iter().map(|moves| (i, moves.clone())));
            }
        }
        (done, found)
    }

    /// The last prefix that can contribute: the first at which the solutions of finished prefixes
    /// up to it reach `want` (`usize::MAX` when there is none yet).
    fn cutoff(&self, want: usize) -> usize {
        let mut total = 0usize;
        for (i, &n) in self.n_found.iter().enumerate() {
            total = total.saturating_add(n);
            if total >= want {
                return i;
            }
        }
        usize::MAX
    }
}

/// One thread's loop over the prefix queue; returns its node count, and adds it to `live_nodes`
/// prefix by prefix (for periodic checkpoints).
#[allow(clippy::too_many_arguments)]
fn run_worker<M: Method>(
    shared: &Shared<'_, M>,
    cube: &Cube,
    prefixes: &[Vec<u8>],
    bound: usize,
    want: usize,
    next: &AtomicUsize,
    state: &Mutex<BoundState>,
    live_nodes: &AtomicU64,
) -> u64 {
    let mut worker = M::worker(shared, cube);
    loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= prefixes.len()
            || i > shared.cutoff.load(Ordering::Relaxed)
            || shared.halted.load(Ordering::Relaxed)
        {
            break;
        }
        if state.lock().expect("lock").results[i].is_some() {
            continue;
        }
        let before = worker.nodes();
        worker.run_prefix(&prefixes[i], bound, i, want);
        live_nodes.fetch_add(worker.nodes() - before, Ordering::Relaxed);
        match worker.abort() {
            Abort::No | Abort::Enough => {
                let mut state = state.lock().expect("lock");
                let solutions = worker.take_solutions();
                let n_found = solutions.len();
                state.n_found[i] = n_found;
                state.results[i] = Some(solutions);
                // The cut-off moves only when a prefix has solutions (then it takes a scan).
                if n_found > 0 && want != usize::MAX {
                    let cutoff = state.cutoff(want);
                    shared.cutoff.fetch_min(cutoff, Ordering::Relaxed);
                }
            }
            Abort::Cutoff => {}
            Abort::Halted => break,
        }
    }
    worker.nodes()
}

/// Every canonical move sequence of `len` moves, in search order.
fn canonical_sequences(len: usize) -> Vec<Vec<u8>> {
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

/// The symmetries other than the identity that fix `cube` (`s x s⁻¹ = x`).
fn position_symmetries(cube: &Cube) -> Vec<Symmetry> {
    Symmetry::all()
        .filter(|&s| s != Symmetry::IDENTITY && s.conjugate(cube) == *cube)
        .collect()
}

/// The canonical form of `moves` conjugated by `s`.
fn conjugate_moves(s: Symmetry, moves: &[Move]) -> Vec<Move> {
    let image: Vec<Move> = moves.iter().map(|&m| s.conjugate_move(m)).collect();
    simplify(&image)
}

/// Whether each prefix starts a search when the position has `symmetries`: the first prefix of
/// each orbit of canonical prefixes under `p -> canon(s(p))`.
pub(crate) fn orbit_starts(prefixes: &[Vec<u8>], symmetries: &[Symmetry]) -> Vec<bool> {
    let index: HashMap<&[u8], usize> = prefixes
        .iter()
        .enumerate()
        .map(|(i, p)| (p.as_slice(), i))
        .collect();
    prefixes
        .iter()
        .enumerate()
        .map(|(i, prefix)| {
            let moves: Vec<Move> = prefix
                .iter()
                .map(|&m| Move::from_index(usize::from(m)))
                .collect();
            symmetries.iter().all(|&s| {
                let image: Vec<u8> = conjugate_moves(s, &moves)
                    .iter()
                    .map(|m| m.index() as u8)
                    .collect();
                // A conjugated canonical sequence stays canonical up to the order of opposite
                // faces, so its canonical form is another prefix of the same length.
                index.get(image.as_slice()).is_none_or(|&j| j >= i)
            })
        })
        .collect()
}

/// `solutions` and their images under `symmetries` (canonical), each once, the found ones first.
fn with_images(solutions: Vec<Vec<Move>>, symmetries: &[Symmetry]) -> Vec<Vec<Move>> {
    let mut seen = HashSet::new();
    let mut out: Vec<Vec<Move>> = Vec::new();
    let images: Vec<Vec<Move>> = solutions
        .iter()
        .flat_map(|moves| symmetries.iter().map(|&s| conjugate_moves(s, moves)))
        .collect();
    for moves in solutions.into_iter().chain(images) {
        if seen.insert(moves.clone()) {
            out.push(moves);
        }
    }
    out
}

/// Keeps the first solution of each class of solutions related by a symmetry of `cube`.
fn distinct_up_to_symmetry(cube: &Cube, solutions: Vec<Vec<Move>>) -> Vec<Vec<Move>> {
    let symmetries = position_symmetries(cube);
    let mut seen = HashSet::new();
    let mut kept = Vec::new();
    for moves in solutions {
        if seen.contains(&moves) {
            continue;
        }
        for &s in &symmetries {
            seen.insert(conjugate_moves(s, &moves));
        }
        seen.insert(moves.clone());
        kept.push(moves);
    }
    kept
}

impl<T: AsRef<[u8]> + Sync> Solver for Korf<'_, T> {
    /// # Errors
    /// [`SolveError::Unsolvable`] before any search; [`SolveError::Cancelled`] when the search
    /// was stopped before any solution was known.
    fn solve(
        &self,
        cube: &Cube,
        limits: &Limits,
        stop: &Stop,
    ) -> Result<Vec<Solution>, SolveError> {
        let outcome = self.search(cube, limits, stop, &mut |_| {})?;
        if outcome.solutions.is_empty() && outcome.checkpoint.is_some() {
            return Err(SolveError::Cancelled);
        }
        Ok(outcome.solutions)
    }
}
