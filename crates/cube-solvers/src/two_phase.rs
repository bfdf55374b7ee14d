//! Kociemba's two-phase algorithm: near-optimal solutions in about a millisecond.
//!
//! Phase 1 brings the cube into G1 = <U, D, R2, L2, F2, B2> (edges oriented, corners twisted
//! right, slice edges in the slice); phase 2 solves it with those 10 moves. Phase 1 takes at most
//! 12 moves and phase 2 at most 18 (REFERENCE.md). The search follows min2phase
//! (<https://github.com/cs0x7f/min2phase>): it searches the position, its inverse and both seen
//! along the other two axes, phase-1 length by phase-1 length, each also after short pre-moves,
//! prunes phase 1 with symmetry-reduced tables that stay in the L2 cache and then with the exact
//! distance to G1 (Kociemba's flip-slice x twist table), prunes phase 2 also with Kociemba's
//! corner x U/D-edge permutation table, and after each solution looks only for shorter ones.
//!
//! - Positions whose optimal length is at most [`Config::optimal_up_to`] get an optimal solution:
//!   total lengths are searched upward from the lower bound, exhaustively, before anything else.
//! - [`Limits::target_length`] stops the search at the first solution that short;
//!   [`Limits::time_budget`] bounds the whole search: once it is spent, the search returns the
//!   best solutions found, or none. With neither, the target is
//!   [`Config::default_target_length`] (20).
//! - [`Limits::max_length`] bounds every solution (at most 30 are ever needed).
//! - The search always ends. Without a time budget it ends at the target or after
//!   [`Config::default_time_budget`] (10 s), whichever comes first. Every position has a
//!   solution of at most 20 moves, and the search finds one of at most 20 to 22 within a fraction
//!   of a second; a [`Limits::max_length`] below the position's optimal length (which the search
//!   cannot prove: it is no optimal solver) is what makes it search until the budget is spent,
//!   as min2phase gives up after its probe limit.
//! - One thread: [`Limits::threads`] is ignored.
//!
//! The solver is handed its tables ([`TwoPhaseTables`], in an [`Arc`] that any number of solvers
//! and threads share); the crate holds none. They come in two sizes:
//!
//! - [`TwoPhaseTables::small`] (about 2.5 MB) builds in a fraction of a second, for a program
//!   that solves a few states ([`TwoPhase::default`] builds them too);
//! - the large tables (about 130 MB more: the exact phase-1 distance and the phase-2 corner x
//!   edge distance) take about 20 s to build on two cores ([`LARGE_BUILD_TIME`]) and make each
//!   solve about ten times faster: a
//!   binary reads them from a table directory with [`load_or_build`](crate::load_or_build),
//!   building and writing them there the first time.
//!
//! The crate docs give the measured times of both.
//!
//! ```
//! use std::sync::Arc;
//! use cube_core::{Alg, Cube};
//! use cube_solvers::{Limits, Solver, Stop, two_phase::{TwoPhase, TwoPhaseTables}};
//!
//! let solver = TwoPhase::new(Arc::new(TwoPhaseTables::small()));
//! let cube = Cube::SOLVED.apply_alg(&"R U R' U' R' F R2 U' R' U' R U R' F'".parse::<Alg>().unwrap());
//! let solutions = solver.solve(&cube, &Limits::default().with_target_length(20), &Stop::new())?;
//! assert!(cube.apply_moves(&solutions[0].moves).is_solved());
//! assert!(solutions[0].moves.len() <= 20);
//! # Ok::<(), cube_solvers::SolveError>(())
//! ```

mod search;
mod tables;

use std::sync::Arc;
use std::time::Duration;

use cube_core::Cube;

pub use self::search::EndMoves;
use self::search::{Halt, Search, View};
pub use self::tables::{LARGE_BUILD_SCANS, LARGE_BUILD_TIME, TABLE_SPECS, TwoPhaseTables};
use crate::cancel::Clock;
use crate::search::Collector;
use crate::{Limits, Solution, SolveError, Solver, Stop};

/// The longest solution the two-phase method ever needs: 12 moves of phase 1 and 18 of phase 2.
pub const MAX_LENGTH: usize = 30;

/// Configuration of [`TwoPhase`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The target length when [`Limits`] gives neither a target nor a time budget.
    pub default_target_length: usize,
    /// The time budget when [`Limits`] gives none: the search returns what it has found by then,
    /// maybe nothing (a `max_length` below the position's optimal length).
    pub default_time_budget: Duration,
    /// Positions that can be solved in at most this many moves get an optimal solution.
    pub optimal_up_to: usize,
    /// Also search the inverse position.
    pub search_inverse: bool,
    /// Also search the position seen along the R-L and F-B axes.
    pub search_axes: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            default_target_length: 20,
            default_time_budget: Duration::from_secs(10),
            optimal_up_to: 8,
            search_inverse: true,
            search_axes: true,
        }
    }
}

/// The two-phase solver: its configuration and its tables (cheap to clone: the tables are
/// shared).
#[derive(Clone, Debug)]
pub struct TwoPhase {
    config: Config,
    tables: Arc<TwoPhaseTables>,
}

impl Default for TwoPhase {
    /// A solver with the default configuration over newly built small tables
    /// ([`TwoPhaseTables::small`]); to share tables, build them once and use [`TwoPhase::new`].
    fn default() -> TwoPhase {
        TwoPhase::new(Arc::new(TwoPhaseTables::small()))
    }
}

impl TwoPhase {
    /// A solver over `tables` with the default configuration.
    pub fn new(tables: Arc<TwoPhaseTables>) -> TwoPhase {
        TwoPhase::with_config(tables, Config::default())
    }

    /// A solver over `tables` with `config`.
    pub fn with_config(tables: Arc<TwoPhaseTables>, config: Config) -> TwoPhase {
        TwoPhase { config, tables }
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The tables.
    pub fn tables(&self) -> &Arc<TwoPhaseTables> {
        &self.tables
    }

    /// [`Solver::solve`] with restrictions on the first and last move of every solution.
    ///
    /// # Errors
    /// As [`Solver::solve`].
    pub fn solve_with_ends(
        &self,
        cube: &Cube,
        limits: &Limits,
        stop: &Stop,
        ends: EndMoves,
    ) -> Result<Vec<Solution>, SolveError> {
        cube.validate()?;
        if cube.is_solved() {
            return Ok(vec![Solution::new(Vec::new())]);
        }
        if stop.is_stopped() {
            // The search polls the flag every few thousand nodes, and may find a solution sooner.
            return Err(SolveError::Cancelled);
        }
        let max_length = limits.max_length.unwrap_or(MAX_LENGTH).min(MAX_LENGTH);
        let target = match (limits.target_length, limits.time_budget) {
            (Some(target), _) => target,
            (None, Some(_)) => 0,
            (None, None) => self.config.default_target_length,
        };
        let tables = &*self.tables;
        let views = View::all(
            cube,
            tables,
            self.config.search_axes,
            self.config.search_inverse,
            ends,
        );
        let collector = Collector::new(limits.n_solutions, max_length);
        // The first solution is sought within 20 moves (or the target, if larger), which always
        // exist, but may be slow to find: after 50 ms without one, one more move is allowed, and
        // so on. Every later solution must be shorter than the best so far.
        let first_bound = max_length.min(target.max(20));
        let budget = limits
            .time_budget
            .unwrap_or(self.config.default_time_budget);
        let mut search = Search::new(
            tables,
            views,
            collector,
            target,
            Clock::new(Some(budget)),
            stop,
        );
        self.run(&mut search, first_bound);
        if search.halt == Halt::Cancelled && search.collector.is_empty() {
            return Err(SolveError::Cancelled);
        }
        Ok(search
            .collector
            .into_solutions()
            .into_iter()
            .map(Solution::new)
            .collect())
    }

    fn run(&self, search: &mut Search<'_>, first_bound: usize) {
        let n_solutions = search.collector.n_wanted();
        let max_length = search.collector.bound();
        for total in search.lower_bound()..=self.config.optimal_up_to.min(max_length) {
            search.exhaustive_pass(total);
            if search.halt != Halt::No || search.collector.len() >= n_solutions {
                return;
            }
        }
        search.improving_search(first_bound);
    }
}

/// The two-phase solver of an optimal search's upper bound: the one handed to it, else one over
/// small tables built on its first use (once per optimal solver, not per search).
#[derive(Debug, Default)]
pub(crate) struct UpperBoundSolver(std::sync::OnceLock<TwoPhase>);

impl UpperBoundSolver {
    /// The solver handed over.
    pub(crate) fn given(solver: TwoPhase) -> UpperBoundSolver {
        UpperBoundSolver(std::sync::OnceLock::from(solver))
    }

    /// The solver (building small tables if none was handed over).
    pub(crate) fn get(&self) -> &TwoPhase {
        self.0.get_or_init(TwoPhase::default)
    }
}

impl Solver for TwoPhase {
    /// # Errors
    /// [`SolveError::Unsolvable`] before any search; [`SolveError::Cancelled`] when `stop` is
    /// raised before any solution is found (after that, the solutions found so far are returned).
    fn solve(
        &self,
        cube: &Cube,
        limits: &Limits,
        stop: &Stop,
    ) -> Result<Vec<Solution>, SolveError> {
        self.solve_with_ends(cube, limits, stop, EndMoves::default())
    }
}

/// The large tables, built once per test binary and shared by its tests.
#[cfg(test)]
pub(crate) fn large_tables_for_tests() -> Arc<TwoPhaseTables> {
    static TABLES: std::sync::OnceLock<Arc<TwoPhaseTables>> = std::sync::OnceLock::new();
    Arc::clone(TABLES.get_or_init(|| Arc::new(TwoPhaseTables::large())))
}

#[cfg(test)]
mod tests;
