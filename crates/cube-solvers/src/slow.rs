//! Iterative deepening over canonical move sequences with no tables at all.
//!
//! It needs no set-up and is obviously correct, which makes it the oracle the table-driven
//! solvers are tested against; it is practical up to about 7 moves (18, 243, 3,240, 43,254,
//! 577,368, 7.7 million and 103 million canonical sequences of length 1 to 7).

use cube_core::{Cube, Move};

use crate::search::{AFTER, Collector, NO_MOVE};
use crate::{Limits, Solution, SolveError, Solver, Stop};

/// Configuration of the [`Slow`] solver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The deepest search when [`Limits::max_length`] is not given.
    pub max_length: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config { max_length: 6 }
    }
}

/// Optimal solutions by brute force: every canonical sequence of length 1, 2, ... until one
/// solves the cube.
///
/// It returns only optimal solutions: up to [`Limits::n_solutions`] of them (pass `usize::MAX` for
/// all), and nothing when the cube needs more than the maximum length.
///
/// ```
/// use cube_core::{Alg, Cube};
/// use cube_solvers::{Limits, Solver, Stop, slow::Slow};
///
/// let cube = Cube::SOLVED.apply_alg(&"R U2".parse::<Alg>().unwrap());
/// let all = Slow::new().solve(&cube, &Limits::default().with_n_solutions(usize::MAX), &Stop::new())?;
/// assert_eq!(all.len(), 1);
/// assert_eq!(Alg::from_moves(&all[0].moves).to_string(), "U2 R'");
/// # Ok::<(), cube_solvers::SolveError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Slow {
    config: Config,
}

impl Slow {
    /// A solver with the default configuration.
    pub fn new() -> Slow {
        Slow::default()
    }

    /// A solver with `config`.
    pub fn with_config(config: Config) -> Slow {
        Slow { config }
    }
}

struct Search<'a> {
    stop: &'a Stop,
    path: Vec<Move>,
    found: Collector,
    n_solutions: usize,
    nodes: u64,
    cancelled: bool,
}

impl Search<'_> {
    /// Depth-first search of every canonical sequence of exactly `left` more moves.
    fn dfs(&mut self, cube: &Cube, left: usize, prev: usize) {
        if left == 0 {
            if cube.is_solved() {
                self.found.push(self.path.clone());
            }
            return;
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(4096) && self.stop.is_stopped() {
            self.cancelled = true;
        }
        let mut mask = AFTER[prev];
        while mask != 0 && !self.cancelled && self.found.len() < self.n_solutions {
            let m = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            self.path.push(Move::from_index(m));
            self.dfs(&cube.apply_move(Move::from_index(m)), left - 1, m);
            self.path.pop();
        }
    }
}

impl Solver for Slow {
    /// # Errors
    /// [`SolveError::Unsolvable`] before any search; [`SolveError::Cancelled`] when `stop` is
    /// raised before a solution is found. [`Limits::time_budget`] and
    /// [`Limits::target_length`] are ignored: every result is optimal.
    fn solve(
        &self,
        cube: &Cube,
        limits: &Limits,
        stop: &Stop,
    ) -> Result<Vec<Solution>, SolveError> {
        cube.validate()?;
        let max_length = limits.max_length.unwrap_or(self.config.max_length);
        for depth in 0..=max_length {
            let mut search = Search {
                stop,
                path: Vec::with_capacity(depth),
                found: Collector::new(limits.n_solutions, depth),
                n_solutions: limits.n_solutions.max(1),
                nodes: 0,
                cancelled: false,
            };
            search.dfs(cube, depth, NO_MOVE);
            if !search.found.is_empty() {
                return Ok(search
                    .found
                    .into_solutions()
                    .into_iter()
                    .map(Solution::new)
                    .collect());
            }
            if search.cancelled {
                return Err(SolveError::Cancelled);
            }
        }
        Ok(Vec::new())
    }
}
