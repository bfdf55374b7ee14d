//! Solving methods for the 3x3x3 cube, behind one [`Solver`] trait.
//!
//! Every method takes a [`Cube`], the [`Limits`] of the search and a [`Stop`] flag, and returns
//! [`Solution`]s of outer face turns. Finding nothing within the limits is not an error: the
//! result is then empty. Errors are for unsolvable input (checked before any search) and
//! cancellation ([`SolveError`]).
//!
//! - [`two_phase`]: Kociemba's two-phase algorithm, near-optimal solutions in about a millisecond.
//! - [`thistlethwaite`]: Thistlethwaite's four phases; [`beginner`]: the layer-by-layer method in
//!   seven stages; [`cfop`]: cross, F2L, OLL and PLL (staged solutions with labels).
//! - [`slow`]: plain iterative deepening without tables, for short positions and as a test oracle.
//! - [`korf`]: optimal solutions over pattern databases; [`sym48`]: optimal solutions over a
//!   heuristic of the H48 cosets, and [`nx`]: nxopt's, over the cosets of its subgroups (six
//!   probes), on the same bounds loop; [`optimal`]: that loop, what each search answers, and [`OptimalTables`](optimal::OptimalTables), a tier's tables loaded once
//!   that make the search of its family.
//! - [`step`]: a generic optimal solver for one step (a coordinate, a move set and a goal).
//! - [`fmc`]: the fewest-moves step solvers (EO, DR, HTR, leave-slice, finishes, corners on every
//!   axis, with NISS), nissy-core's coordinate solvers as one table of steps.
//! - [`scramble`]: WCA-style random-state scrambles.
//!
//! Each method is a public namespace with a `Config` and a type named after the method.
//!
//! # Tables
//!
//! A solver is handed its tables, a value the caller owns and shares in an [`Arc`](std::sync::Arc)
//! (`TwoPhase::new(tables)`); the crate keeps no table in a global and never opens a file except
//! through [`load_or_build`]. Each method's family of tables is a [`MethodTables`]: its specs, how
//! it is built in memory, its payloads by table id, how it is restored from them and checked. Two
//! ways to get them:
//!
//! - **In memory, no directory**: [`TwoPhaseTables::small`](two_phase::TwoPhaseTables::small)
//!   (the two-phase tables without the two large ones), [`MethodTables::build`] for the others;
//!   `TwoPhase::default()` (and the other methods' `default()`) builds them for one solver.
//! - **From a table directory**: [`load_or_build`]`::<T>(dir)` reads each table file, or builds
//!   the family once and writes it there; for two-phase this is the large tables (the exact
//!   phase-1 distance and the phase-2 corner x edge distance, about 130 MB), as the CLI uses them.
//!
//! Measured on the project's 2-core machine with nothing else running
//! (`cargo run --release -p cube-solvers --example library_start`, docs/perf-log/two-phase.md,
//! "Library start"; the current figures in docs/PERFORMANCE.md), over 200
//! seeded random states solved to at most 20 moves (the default), one thread:
//!
//! | tables | ready in | median solve | slowest solve | mean length |
//! |---|---:|---:|---:|---:|
//! | two-phase small, `TwoPhaseTables::small()` | 0.10 s | 2.0 ms | 88 ms | 19.86 |
//! | two-phase large, read by `load_or_build` | 0.28-0.36 s | 0.25-0.30 ms | 25 ms | 19.86 |
//! | two-phase large, first `load_or_build` (built, written) | about 13 s | | | |
//! | Thistlethwaite, `ThistlethwaiteTables::build()` | 0.11-0.12 s | | | |
//! | cross, `CrossTables::build()` | 0.05 s | | | |
//! | beginner, `BeginnerTables::build()` (cross and last layer) | as the cross (\*) | | | |
//! | CFOP, `CfopTables::build()` (cross, F2L alphabet, OLL and PLL cases) | as the cross (\*) | | | |
//!
//! (\*) Measured against the cross tables in the same runs on a loaded machine: the beginner's
//! last-layer tables take about 20 ms and build beside the cross tables, CFOP's cases under a
//! millisecond.
//!
//! # Example
//!
//! ```
//! use std::sync::Arc;
//! use cube_core::{Alg, Cube};
//! use cube_solvers::{Limits, Solver, Stop, two_phase::{TwoPhase, TwoPhaseTables}};
//!
//! // Small tables built in memory, shared by every solver made from them.
//! let tables = Arc::new(TwoPhaseTables::small());
//! let solver = TwoPhase::new(Arc::clone(&tables));
//! let scramble: Alg = "R U R' U' F2 D".parse().unwrap();
//! let cube = Cube::SOLVED.apply_alg(&scramble);
//! let solutions = solver.solve(&cube, &Limits::default(), &Stop::new())?;
//! assert!(cube.apply_moves(&solutions[0].moves).is_solved());
//! assert_eq!(solutions[0].moves.len(), 6);
//! # Ok::<(), cube_solvers::SolveError>(())
//! ```
//!
//! The large tables, cached in a table directory (the first call builds and writes them, about
//! 20 s on two cores; later ones read them):
//!
//! ```no_run
//! use cube_solvers::{Limits, Solver, Stop, load_or_build, two_phase::{TwoPhase, TwoPhaseTables}};
//!
//! let loaded = load_or_build::<TwoPhaseTables>(std::path::Path::new("tables"))?;
//! let solver = TwoPhase::new(loaded.tables);
//! let cube = cube_core::Cube::SOLVED.apply_alg(&"R U R' U'".parse().unwrap());
//! assert_eq!(solver.solve(&cube, &Limits::default(), &Stop::new())?[0].moves.len(), 4);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

mod cancel;
mod error;
mod method_tables;
mod search;
mod staged;

pub mod fmc;
pub mod scramble;
pub mod slow;
pub mod step;
pub mod two_phase;

use std::fmt;
use std::time::Duration;

use cube_core::{Cube, Move};

pub use crate::cancel::Stop;
pub use crate::error::SolveError;
pub use crate::method_tables::{
    Loaded, MethodTables, PayloadError, Payloads, load_or_build, load_or_build_with,
};
/// What an optimal solve needs from cube-tables, so that a caller of [`korf`] needs no `use` of
/// that crate: the tier, the pattern databases and their payload type.
///
/// ```no_run
/// use cube_solvers::{Anonymous, Limits, PdbSet, Stop, Tier, korf::Korf, optimal::OptimalSearch};
///
/// let dir = std::path::Path::new("tables");
/// let tables: PdbSet<Anonymous> = PdbSet::load_anonymous(dir, Tier::Edge6)?;
/// let cube = cube_core::Cube::SOLVED.apply_alg(&"R U R' U'".parse().unwrap());
/// // The two-phase upper bound builds small tables on the first search; hand it shared ones
/// // with `Korf::with_two_phase`.
/// let outcome = Korf::new(&tables).search(&cube, &Limits::default(), &Stop::new(), &mut |_| {})?;
/// assert_eq!(outcome.solutions[0].moves.len(), 4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub use cube_tables::{Anonymous, Tier, pdb::PdbSet};

/// What a search may do: lengths, time, how many solutions, threads.
///
/// The fields gather what nissy-core's `nissy_solve` takes as separate arguments. Each method
/// documents how it reads them; `Limits::default()` asks for one solution with no other limit
/// (a method picks its own sensible stopping point then, such as 20 moves for two-phase).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The longest solution wanted, in face turns (`None`: no limit).
    pub max_length: Option<usize>,
    /// Stop as soon as a solution of at most this many face turns is found (`None`: keep
    /// looking for shorter ones within the other limits).
    pub target_length: Option<usize>,
    /// How long the search may run: once it is spent, a method returns the best solutions found
    /// so far, none if it found none. A method checks the clock between steps of its search
    /// (every few thousand nodes), so it may overrun by a moment. A budget too long for the
    /// system clock to represent is no deadline; front ends take
    /// [`MIN_TIME_LIMIT`]..=[`MAX_TIME_LIMIT`] ([`Limits::time_limit`]).
    pub time_budget: Option<Duration>,
    /// How many solutions to return, at least 1.
    pub n_solutions: usize,
    /// Worker threads a method may use, at least 1; a method uses at most [`MAX_THREADS`].
    pub threads: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_length: None,
            target_length: None,
            time_budget: None,
            n_solutions: 1,
            threads: 1,
        }
    }
}

/// The most worker threads a search starts ([`Limits::threads`]; the front ends refuse more).
/// Each is a thread of the operating system, which may refuse to start many more.
pub const MAX_THREADS: usize = 1024;

/// Runs `work` on `threads` worker threads: on the caller's rayon pool when it has that many
/// (the usual case: all cores), so that a short search starts no threads of its own, else on a
/// pool of its own.
///
/// # Errors
/// The operating system would not start the threads: the message says how many.
pub fn in_pool<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> Result<T, String> {
    if threads == rayon::current_num_threads() {
        return Ok(work());
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map(|pool| pool.install(work))
        .map_err(|e| format!("cannot start {threads} threads: {e}"))
}

/// The shortest time limit the front ends accept (a time budget, the optimal solvers' timeout):
/// a nanosecond, the resolution of [`Duration`] (anything shorter is no time at all).
pub const MIN_TIME_LIMIT: Duration = Duration::from_nanos(1);

/// The longest time limit the front ends accept: 10^6 s, about 11.6 days.
pub const MAX_TIME_LIMIT: Duration = Duration::from_secs(1_000_000);

/// Why a number of seconds is no time limit ([`Limits::time_limit`]). Its message is a predicate
/// to follow the value: `"-1" is negative: ...`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeLimitError {
    /// Not a number, or infinite.
    NotFinite,
    /// Below 0.
    Negative,
    /// 0, or more but under [`MIN_TIME_LIMIT`].
    TooShort,
    /// Over [`MAX_TIME_LIMIT`].
    TooLong,
}

impl fmt::Display for TimeLimitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self {
            TimeLimitError::NotFinite => "is not a finite number of seconds",
            TimeLimitError::Negative => "is negative",
            TimeLimitError::TooShort => "is shorter than a nanosecond",
            TimeLimitError::TooLong => "is too long",
        };
        write!(
            f,
            "{what}: a time limit is from 1 ns (1e-9 s) to {} s (about 11.6 days)",
            MAX_TIME_LIMIT.as_secs()
        )
    }
}

impl std::error::Error for TimeLimitError {}

impl Limits {
    /// A time limit of `secs` seconds, checked as both front ends check theirs: finite, from
    /// [`MIN_TIME_LIMIT`] to [`MAX_TIME_LIMIT`].
    ///
    /// ```
    /// use std::time::Duration;
    /// use cube_solvers::{Limits, TimeLimitError};
    /// assert_eq!(Limits::time_limit(0.25), Ok(Duration::from_millis(250)));
    /// assert_eq!(Limits::time_limit(f64::NAN), Err(TimeLimitError::NotFinite));
    /// assert_eq!(Limits::time_limit(0.0), Err(TimeLimitError::TooShort));
    /// assert_eq!(Limits::time_limit(1e19), Err(TimeLimitError::TooLong));
    /// ```
    ///
    /// # Errors
    /// [`TimeLimitError`] says which bound `secs` breaks.
    pub fn time_limit(secs: f64) -> Result<Duration, TimeLimitError> {
        if !secs.is_finite() {
            return Err(TimeLimitError::NotFinite);
        }
        if secs < 0.0 {
            return Err(TimeLimitError::Negative);
        }
        if secs > MAX_TIME_LIMIT.as_secs_f64() {
            return Err(TimeLimitError::TooLong);
        }
        // Within the range above, the conversion cannot fail; below a nanosecond it gives 0.
        let limit = Duration::from_secs_f64(secs);
        if limit < MIN_TIME_LIMIT {
            return Err(TimeLimitError::TooShort);
        }
        Ok(limit)
    }

    /// What a search that returned no solution within these limits did not find, after
    /// `elapsed`, for a front end's message (which adds how to raise the limits):
    ///
    /// ```
    /// use std::time::Duration;
    /// use cube_solvers::Limits;
    /// let limits = Limits::default().with_max_length(15);
    /// assert_eq!(
    ///     limits.not_found(Duration::from_millis(2004)),
    ///     "no solution of at most 15 moves found in 2.0 s"
    /// );
    /// ```
    pub fn not_found(&self, elapsed: Duration) -> String {
        let of = match self.max_length {
            Some(1) => " of at most 1 move".to_string(),
            Some(n) => format!(" of at most {n} moves"),
            None => String::new(),
        };
        format!("no solution{of} found in {:.1} s", elapsed.as_secs_f64())
    }

    /// The default limits with `max_length` set.
    pub fn with_max_length(self, max_length: usize) -> Limits {
        Limits {
            max_length: Some(max_length),
            ..self
        }
    }

    /// The default limits with `target_length` set.
    pub fn with_target_length(self, target_length: usize) -> Limits {
        Limits {
            target_length: Some(target_length),
            ..self
        }
    }

    /// The limits with `time_budget` set.
    pub fn with_time_budget(self, time_budget: Duration) -> Limits {
        Limits {
            time_budget: Some(time_budget),
            ..self
        }
    }

    /// The limits with `n_solutions` set.
    pub fn with_n_solutions(self, n_solutions: usize) -> Limits {
        Limits {
            n_solutions,
            ..self
        }
    }
}

/// One labelled part of a staged solution, such as `cross` or `phase 1`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Stage {
    /// What the stage achieves.
    pub label: String,
    /// Its face turns.
    pub moves: Vec<Move>,
}

/// A sequence of outer face turns that solves the cube.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Solution {
    /// The face turns, in order.
    pub moves: Vec<Move>,
    /// For staged methods, the turns split into stages (their concatenation is `moves` before
    /// cancelling across stage boundaries, see [`Solution::from_stages`]); empty otherwise.
    pub stages: Vec<Stage>,
}

impl Solution {
    /// An unstaged solution.
    pub fn new(moves: Vec<Move>) -> Solution {
        Solution {
            moves,
            stages: Vec::new(),
        }
    }

    /// A staged solution: each stage keeps its own turns (so that after each stage its goal
    /// holds, for a front end that plays the stages back with captions), and `moves` is their
    /// concatenation with the turns that meet at stage boundaries merged or cancelled (`R'`
    /// ending one stage and `R` starting the next both go), so it may be shorter than the
    /// stages added up. Stages with no turns are dropped.
    ///
    /// ```
    /// use cube_core::Move;
    /// use cube_solvers::{Solution, Stage};
    /// let stages = vec![
    ///     Stage { label: "a".into(), moves: vec![Move::F3, Move::R3] },
    ///     Stage { label: "b".into(), moves: vec![Move::R1, Move::U3, Move::R3] },
    /// ];
    /// let solution = Solution::from_stages(stages);
    /// assert_eq!(solution.moves, vec![Move::F3, Move::U3, Move::R3]);
    /// assert_eq!(solution.stages[1].moves.len(), 3);
    /// ```
    pub fn from_stages(mut stages: Vec<Stage>) -> Solution {
        stages.retain(|s| !s.moves.is_empty());
        let all: Vec<Move> = stages
            .iter()
            .flat_map(|s| s.moves.iter().copied())
            .collect();
        Solution {
            moves: cube_core::simplify(&all),
            stages,
        }
    }

    /// The number of face turns.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the solution has no turns (the cube was solved).
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}

/// The face turns in standard notation, as [`Alg`](cube_core::Alg) writes them (nothing for a
/// solved cube); the stages are not shown.
///
/// ```
/// use cube_core::Move;
/// use cube_solvers::Solution;
/// assert_eq!(Solution::new(vec![Move::R1, Move::U2, Move::F3]).to_string(), "R U2 F'");
/// assert_eq!(Solution::new(Vec::new()).to_string(), "");
/// ```
impl fmt::Display for Solution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&cube_core::Alg::from_moves(&self.moves), f)
    }
}

/// A solving method.
///
/// Implementations are `Send + Sync` and cheap to clone: a method's tables are handed to its
/// constructor and shared.
pub trait Solver: Send + Sync {
    /// Solutions for `cube`, best first, within `limits`; empty when none is found within them.
    ///
    /// # Errors
    /// [`SolveError::Unsolvable`] if `cube` cannot be reached by turning (checked before any
    /// search); [`SolveError::Cancelled`] if `stop` was raised before any solution was found.
    fn solve(&self, cube: &Cube, limits: &Limits, stop: &Stop)
    -> Result<Vec<Solution>, SolveError>;

    /// Solutions that take `from` to `to`: `from.apply_moves(&solution.moves) == to`.
    ///
    /// This solves [`relative_to_goal`]`(from, to)`.
    ///
    /// # Errors
    /// As [`Solver::solve`]; either state being unsolvable is [`SolveError::Unsolvable`].
    fn solve_to(
        &self,
        from: &Cube,
        to: &Cube,
        limits: &Limits,
        stop: &Stop,
    ) -> Result<Vec<Solution>, SolveError> {
        self.solve(&relative_to_goal(from, to)?, limits, stop)
    }
}

/// The state whose solutions take `from` to `to`: in sequence order, `from` followed by `s` is
/// `to` exactly when `to⁻¹`, then `from`, then `s` is solved, so this is `to.inverse().compose(from)`.
///
/// # Errors
/// [`SolveError::Unsolvable`] if either state is.
pub fn relative_to_goal(from: &Cube, to: &Cube) -> Result<Cube, SolveError> {
    from.validate()?;
    to.validate()?;
    Ok(to.inverse().compose(from))
}

pub mod beginner;
pub mod cfop;
pub mod korf;
pub mod nx;
pub mod optimal;
pub mod sym48;
/// The [`Solver::solve`] of a deterministic staged method: checks the cube and the stop flag,
/// solves once, and returns the solution unless it is longer than `limits.max_length` (the other
/// limits do not apply).
pub(crate) fn solve_deterministic(
    cube: &Cube,
    limits: &Limits,
    stop: &Stop,
    solve_staged: impl FnOnce(&Cube) -> Result<Solution, SolveError>,
) -> Result<Vec<Solution>, SolveError> {
    cube.validate()?;
    if stop.is_stopped() {
        return Err(SolveError::Cancelled);
    }
    let solution = solve_staged(cube)?;
    let within = limits.max_length.is_none_or(|max| solution.len() <= max);
    Ok(if within { vec![solution] } else { Vec::new() })
}

/// What every method promises, checked on each: `Send + Sync`, solving to a goal state, an
/// empty solution for the solved cube, cube-core's specific error for each kind of unsolvable
/// cube (before any search), and no solution longer than `max_length`.
#[cfg(test)]
pub(crate) fn check_solver_contract<S: Solver + 'static>(solver: &S) {
    use cube_core::CubeError;

    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<S>();
    let (limits, stop) = (Limits::default(), Stop::new());
    let from = Cube::SOLVED.apply_moves(&[Move::R1, Move::U2, Move::F3, Move::D1]);
    let to = Cube::SOLVED.apply_moves(&[Move::L1, Move::B2, Move::U3]);
    let to_goal = solver.solve_to(&from, &to, &limits, &stop).unwrap();
    assert_eq!(from.apply_moves(&to_goal[0].moves), to);
    let solutions = solver.solve(&Cube::SOLVED, &limits, &stop).unwrap();
    assert_eq!(solutions.len(), 1);
    assert!(solutions[0].is_empty() && solutions[0].stages.is_empty());
    let id8: [u8; 8] = std::array::from_fn(|i| i as u8);
    let id12: [u8; 12] = std::array::from_fn(|i| i as u8);
    let twisted = Cube::from_parts(id8, [1, 0, 0, 0, 0, 0, 0, 0], id12, [0; 12]).unwrap();
    let flipped =
        Cube::from_parts(id8, [0; 8], id12, [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).unwrap();
    let swapped = Cube::from_parts([1, 0, 2, 3, 4, 5, 6, 7], [0; 8], id12, [0; 12]).unwrap();
    for (cube, error) in [
        (twisted, CubeError::TwistSum { sum: 1 }),
        (flipped, CubeError::FlipSum),
        (
            swapped,
            CubeError::ParityMismatch {
                corners_odd: true,
                edges_odd: false,
            },
        ),
    ] {
        assert_eq!(
            solver.solve(&cube, &limits, &stop),
            Err(SolveError::Unsolvable(error))
        );
    }
    let two_moves = Cube::SOLVED.apply_moves(&[Move::R1, Move::F1]);
    assert!(
        solver
            .solve(&two_moves, &Limits::default().with_max_length(1), &stop)
            .unwrap()
            .is_empty()
    );
}

pub mod thistlethwaite;

/// The examples of the crate's README.md, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
