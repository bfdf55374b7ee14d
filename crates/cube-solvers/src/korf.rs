//! Korf's optimal solver: IDA* over canonical move sequences, bounded below by pattern databases.
//!
//! The heuristic is the maximum of the corner database and two edge-subset databases of a
//! [`Tier`](cube_tables::Tier) ([`PdbSet`]), looked up on the position, on its inverse and on
//! symmetric conjugates of both ([`Config::inverse`], [`Config::symmetric`]): every one of those has
//! the distance of the position itself, and each sees other edges. The search:
//!
//! - asks the two-phase solver for a solution first ([`SearchConfig::upper_bound`]): once every
//!   length below it is exhausted, that solution is proven optimal; when one solution is wanted,
//!   the two-phase solver goes on during the search on one more thread, looking for a solution at
//!   most one move longer than the bound being searched: one of that bound's length ends the search
//!   at once, one a move longer ends it as soon as the bound is exhausted, without searching the
//!   next ([`SearchConfig::concurrent_upper_bound`]);
//! - searches bounds from the heuristic of the position upward; the first bound with a solution is
//!   the optimal length, so every solution returned is optimal;
//! - splits each bound into the canonical move prefixes of [`SearchConfig::prefix_depth`] moves,
//!   which all threads take from one queue in order; at each bound, solutions are taken in prefix
//!   order and a prefix is abandoned only once earlier prefixes hold all the solutions wanted, so
//!   the result depends on the position and the limits only, never on the number of threads or
//!   timing (but when the two-phase solution is the one proven optimal, it is returned, and which
//!   one the two-phase solver finds within its time budget may vary; without
//!   [`SearchConfig::upper_bound`], the result is always the first optimal solutions in the order
//!   of canonical sequences);
//! - stops on the [`Stop`] flag or the time budget with the best solution known, the length proven
//!   so far and a [`Checkpoint`] to go on from ([`OptimalSearch::resume`]).
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
//! use cube_solvers::optimal::OptimalSearch;
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

mod family;
mod heuristic;
mod search;

use std::borrow::Cow;

use cube_core::{Cube, Move, Symmetry};
use cube_tables::pdb::{PdbSet, SymCorners};

pub(crate) use self::family::KorfFamily;
use self::heuristic::{Tables, ViewMoves};
use self::search::{Lookups, Worker};
use crate::optimal::{
    Abort, Checkpoint, Driver, Lookup, Method, OptimalSearch, Outcome, Periodic, PrefixWorker,
    Progress, SearchConfig, Shared, Task,
};
use crate::two_phase::{TwoPhase, UpperBoundSolver};
use crate::{Limits, SolveError, Stop};

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
    /// The bounds loop's settings: the prefixes, the two-phase upper bound.
    pub search: SearchConfig,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            inverse: true,
            symmetric: true,
            symmetries: DEFAULT_SYMMETRIES.to_vec(),
            distinct_up_to_symmetry: false,
            search: SearchConfig::default(),
        }
    }
}

/// Korf's optimal solver over the pattern databases of one tier.
#[derive(Debug)]
pub struct Korf<'t, T> {
    tables: &'t PdbSet<T>,
    /// The corner database reduced by symmetry: derived from `tables` (3 MB, a few tens of ms),
    /// or given, derived once for every solver over the same tables.
    corners: Cow<'t, SymCorners>,
    config: Config,
    /// The two-phase solver of [`SearchConfig::upper_bound`].
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
    /// If `config.symmetries` has more than 7 entries or `config.search.prefix_depth` is not in
    /// 1..=4.
    pub fn with_config(tables: &'t PdbSet<T>, config: Config) -> Korf<'t, T> {
        Korf::with_corners(
            tables,
            Cow::Owned(SymCorners::new(tables.corners())),
            config,
        )
    }

    /// A solver over `tables` and `corners`, the reduction of their corner database (see
    /// [`SymCorners::new`]), with `config`: what [`OptimalTables`](crate::optimal::OptimalTables)
    /// makes, deriving the reduction once for every solver.
    ///
    /// # Panics
    /// As [`Korf::with_config`].
    pub fn with_corners(
        tables: &'t PdbSet<T>,
        corners: Cow<'t, SymCorners>,
        config: Config,
    ) -> Korf<'t, T> {
        assert!(
            config.symmetries.len() <= 7,
            "at most 7 conjugating symmetries"
        );
        config.search.assert_valid();
        Korf {
            tables,
            corners,
            config,
            two_phase: UpperBoundSolver::default(),
        }
    }

    /// The solver with `two_phase` for [`SearchConfig::upper_bound`] (without it, one over the
    /// small two-phase tables is built on the first search that asks for an upper bound).
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

    /// Optimal move sequences that take `from` to `to` (`from.apply_moves(s) == to`), as
    /// [`OptimalSearch::search`] of `to⁻¹ · from`.
    ///
    /// # Errors
    /// As [`OptimalSearch::search`]; either state being unsolvable is [`SolveError::Unsolvable`].
    pub fn search_to(
        &self,
        from: &Cube,
        to: &Cube,
        limits: &Limits,
        stop: &Stop,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<Outcome, SolveError> {
        OptimalSearch::search(
            self,
            &crate::relative_to_goal(from, to)?,
            limits,
            stop,
            progress,
        )
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
        let lookup = Lookup {
            tier: self.tables.tier(),
            distinct_up_to_symmetry: self.config.distinct_up_to_symmetry,
            inverse: self.config.inverse,
            symmetric: self.config.symmetric && !self.config.symmetries.is_empty(),
            symmetric_starts: false,
            ordered: None,
        };
        self.config.search.driver(&self.two_phase, lookup)
    }

    fn run(
        &self,
        cube: &Cube,
        limits: &Limits,
        stop: &Stop,
        progress: &mut dyn FnMut(&Progress),
        checkpoint: Option<&Checkpoint>,
        periodic: Option<Periodic<'_>>,
    ) -> Result<Outcome, SolveError> {
        let (tables, views) = self.lookup_parts();
        let lookups = Lookups {
            tables: &tables,
            views: &views,
        };
        let task = Task {
            cube,
            limits,
            stop,
            checkpoint,
        };
        self.driver().run(&lookups, &task, progress, periodic)
    }
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

impl<T: AsRef<[u8]> + Sync> OptimalSearch for Korf<'_, T> {
    fn search_checkpointed(
        &self,
        cube: &Cube,
        resume: Option<&Checkpoint>,
        limits: &Limits,
        stop: &Stop,
        progress: &mut dyn FnMut(&Progress),
        periodic: Option<Periodic<'_>>,
    ) -> Result<Outcome, SolveError> {
        self.run(cube, limits, stop, progress, resume, periodic)
    }
}
