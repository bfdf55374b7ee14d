//! A second optimal method: IDA* over the position and its inverse, bounded below by a heuristic
//! of the coset `G·x` of the H48 group (design note `sym48.md`, section 3.4).
//!
//! G holds every position whose corners sit oriented in their tetrad ({URF, ULB, DLF, DRB} or
//! {UFL, UBR, DFR, DBL}) and whose edges sit in their slice; it contains the six half turns. The
//! heuristic ([`Sym48Heuristic`]) is a lower bound on the distance that depends only on `G·x`: the
//! value of `h·x` (doing the half turn `h`, then `x`) is that of `x`.
//!
//! A node holds two cubes: the position `x` and its inverse `y = x⁻¹`, each with its heuristic
//! value and the moves allowed next on its side. A move `m` on the position side makes `x·m` and
//! `m⁻¹·y`; on the inverse side `y·m` and `m⁻¹·x`. A solution is the position side's moves, then the
//! inverse side's moves inverted, in reverse order. Expanding a node with budget `b`:
//!
//! - the side with fewer allowed moves is expanded (a tie goes to the side whose other side's
//!   value is tight, then to the position side; [`Config::side`]);
//! - the exact corner distance of every child comes from the node's row of move deltas in the
//!   reduced corner database ([`SymCorners`], as in [`korf`](crate::korf)): children it prunes are
//!   never probed;
//! - probe 1 reads the heuristic of the expanded side's new cube; probe 2 that of the other side's,
//!   except after a half turn, which keeps the other side's coset (`G·(m⁻¹·o) = G·o`) and so its
//!   value: at most two probes per child;
//! - a child whose value exceeds `b - 1` is pruned; at `b + 1` or more its face is pruned (every
//!   sibling on that face is one move from it, so at distance at least `b`); at `b + 2` or more the
//!   node itself is at distance at least `b + 1` and is abandoned (BPMX). These rules use only the
//!   consistency of the true distance, so they hold for inconsistent heuristics;
//! - a child whose other side's value equals its budget allows no half turn next on its own side
//!   (that half turn would keep the other side's value, now over the budget), and the other way
//!   round: the tight-bound quarter-turn rule;
//! - at budget 1 the two sides meet: `x·m` is solved for a move `m` allowed on both sides.
//!
//! Commuting opposite faces can meet across the junction of the two sides in either order, so
//! every solution is made canonical ([`cube_core::simplify`]) and duplicates are dropped; no rule
//! above cuts a solution, so asking for all solutions gives every optimal canonical sequence once.
//!
//! The bounds loop, the two-phase upper bound, the prefix queue over threads, checkpoints and
//! progress are the Korf solver's (`optimal::Driver`): the prefixes are canonical
//! sequences of position-side moves, from bound 15 on searched in decreasing density at the
//! bound below ([`Config::ordered_from`]). Solutions are not found in the order of canonical sequences
//! (the side switches), but the result still depends on the position and the limits only.

mod family;
mod h48;
mod search;

use std::sync::Mutex;

use cube_core::{Cube, Move};
use cube_tables::Tier;
use cube_tables::pdb::SymCorners;

pub(crate) use self::family::Sym48Family;
use self::search::Engine;
pub use crate::optimal::Counters;
use crate::optimal::{
    Checkpoint, Driver, Lookup, OptimalSearch, Ordered, Outcome, Periodic, Progress, SearchConfig,
    Task,
};
use crate::two_phase::{TwoPhase, UpperBoundSolver};
use crate::{Limits, SolveError, Stop};

/// The heuristic of the sym48 search.
///
/// Two properties are required, and the search is only as correct as they are:
/// - the value of a cube is at most its distance (the fewest face turns that solve it);
/// - it depends only on the coset `G·x` of the H48 group G, which holds the six half turns: in
///   this crate's sequence-order composition, `h.compose(x)` (doing the half turn `h` first) has
///   the value of `x`. The search relies on it to skip the second probe after a half turn.
///
/// A value is read in three steps so that the search can start many table reads before it needs
/// any of them: [`Sym48Heuristic::index`], [`Sym48Heuristic::prefetch`], [`Sym48Heuristic::get`].
pub trait Sym48Heuristic: Sync {
    /// Where the value of a cube is stored.
    type Index: Copy + Default;

    /// Where the value of `cube` is stored.
    fn index(&self, cube: &Cube) -> Self::Index;

    /// Starts loading the value at `index` (a hint; by default nothing).
    #[inline(always)]
    fn prefetch(&self, index: Self::Index) {
        let _ = index;
    }

    /// The value at `index`.
    fn get(&self, index: Self::Index) -> u8;

    /// The value of `cube`.
    #[inline(always)]
    fn value(&self, cube: &Cube) -> u8 {
        self.get(self.index(cube))
    }

    /// The tier of the tables, as a checkpoint records it (a resumed search must use the same).
    fn tier(&self) -> Tier;
}

/// Configuration of [`Sym48`]: the bounds loop's settings every family shares ([`SearchConfig`])
/// and sym48's own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The bounds loop's settings: the prefixes of the bounds below [`Config::ordered_from`], the
    /// two-phase upper bound.
    pub search: SearchConfig,
    /// Return only solutions that are distinct up to the symmetries of the position.
    pub distinct_up_to_symmetry: bool,
    /// Which side of a node is expanded.
    pub side: Side,
    /// For a position with symmetries (`s x s⁻¹ = x`, the superflip has all 48), search one
    /// prefix of each orbit of prefixes under them and conjugate the solutions found: the work of
    /// a bound shrinks by up to the number of symmetries. On by default.
    pub symmetric_starts: bool,
    /// From this bound on (default 15), the work of a bound is split into prefixes of
    /// [`Config::ordered_prefix_depth`] moves, searched in decreasing density at the bound below
    /// (the nodes under each prefix there, per canonical continuation of its last move), the first
    /// such bound by slack (the lower bound after each prefix, smallest first); solutions are taken
    /// in that order. A dense prefix holds more of the near-solutions, so the first solution of
    /// the last bound comes sooner: over all 25 of nissy-core's 17-movers on h5 without the
    /// two-phase helper, 934 M nodes in all against 1,192 M by slack alone (median 24.4 M against
    /// 29.3 M); the seven hardest 18-movers 134 s against 188 s (docs/perf-log/optimal-sym48.md,
    /// "The prefix order by density at the bound below"). Smaller bounds are exhausted whatever
    /// the order.
    pub ordered_from: usize,
    /// The length of the prefixes of the bounds from [`Config::ordered_from`] on (1 to 4;
    /// default 3). Four orders more finely (785 M nodes over the 17-movers above, the 18-movers
    /// 100 s), but the start of each of the 43,254 prefixes costs 10-25 % more time on a bound
    /// searched to the end, which is most of a typical 18-mover's search.
    pub ordered_prefix_depth: usize,
}

/// Which side of a node the search expands. Every rule gives the same solutions; they differ in
/// the nodes searched.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Side {
    /// The side with fewer allowed moves (a tie goes to the side whose other side's value is
    /// tight, then to the position side).
    #[default]
    FewerMoves,
    /// Always the position side: one-sided IDA*, the inverse only probed.
    Position,
    /// Always the inverse side (after the prefix, which is on the position side): for tests, it
    /// makes the two sides meet on every path.
    Inverse,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            search: SearchConfig::default(),
            distinct_up_to_symmetry: false,
            side: Side::FewerMoves,
            symmetric_starts: true,
            ordered_from: 15,
            ordered_prefix_depth: 3,
        }
    }
}

/// The sym48 optimal solver over a heuristic of the H48 cosets and the reduced corner database.
#[derive(Debug)]
pub struct Sym48<'t, H> {
    heuristic: &'t H,
    corners: &'t SymCorners,
    config: Config,
    /// The two-phase solver of [`SearchConfig::upper_bound`].
    two_phase: UpperBoundSolver,
}

impl<'t, H: Sym48Heuristic> Sym48<'t, H> {
    /// A solver with the default configuration.
    pub fn new(heuristic: &'t H, corners: &'t SymCorners) -> Sym48<'t, H> {
        Sym48::with_config(heuristic, corners, Config::default())
    }

    /// A solver with `config`.
    ///
    /// # Panics
    /// If `config.search.prefix_depth` or `config.ordered_prefix_depth` is not in 1..=4.
    pub fn with_config(heuristic: &'t H, corners: &'t SymCorners, config: Config) -> Sym48<'t, H> {
        config.search.assert_valid();
        assert!(
            (1..=4).contains(&config.ordered_prefix_depth),
            "prefix depth 1 to 4"
        );
        Sym48 {
            heuristic,
            corners,
            config,
            two_phase: UpperBoundSolver::default(),
        }
    }

    /// The solver with `two_phase` for [`SearchConfig::upper_bound`] (without it, one over the
    /// small two-phase tables is built on the first search that asks for an upper bound).
    pub fn with_two_phase(self, two_phase: TwoPhase) -> Sym48<'t, H> {
        Sym48 {
            two_phase: UpperBoundSolver::given(two_phase),
            ..self
        }
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The lower bound the search starts from: the largest of the corner distance and the
    /// heuristic of the position and of its inverse.
    pub fn lower_bound(&self, cube: &Cube) -> usize {
        Engine::new(self.heuristic, self.corners, self.config.side).root_bound(cube)
    }

    /// The settings of the bounds loop; the position and its inverse are looked up, no conjugates.
    fn driver(&self) -> Driver {
        let lookup = Lookup {
            tier: self.heuristic.tier(),
            distinct_up_to_symmetry: self.config.distinct_up_to_symmetry,
            inverse: true,
            symmetric: false,
            symmetric_starts: self.config.symmetric_starts,
            ordered: Some(Ordered {
                from: self.config.ordered_from,
                prefix_depth: self.config.ordered_prefix_depth,
            }),
        };
        self.config.search.driver(&self.two_phase, lookup)
    }
}

impl<H: Sym48Heuristic> OptimalSearch for Sym48<'_, H> {
    /// The search, with the sym48 [`Counters`] in [`Outcome::counters`].
    fn search_checkpointed(
        &self,
        cube: &Cube,
        resume: Option<&Checkpoint>,
        limits: &Limits,
        stop: &Stop,
        progress: &mut dyn FnMut(&Progress),
        periodic: Option<Periodic<'_>>,
    ) -> Result<Outcome, SolveError> {
        let engine = Engine::new(self.heuristic, self.corners, self.config.side);
        let task = Task {
            cube,
            limits,
            stop,
            checkpoint: resume,
        };
        let outcome = self.driver().run(&engine, &task, progress, periodic)?;
        Ok(Outcome {
            counters: Some(engine.into_counters()),
            ..outcome
        })
    }
}

/// The counters of all the workers of a search, added as each one ends.
#[derive(Debug, Default)]
struct SharedCounters(Mutex<Counters>);

impl SharedCounters {
    fn add(&self, counters: &Counters) {
        self.0.lock().expect("lock").add(counters);
    }

    fn into_inner(self) -> Counters {
        self.0
            .into_inner()
            .expect("no worker panicked holding the lock")
    }
}

/// The moves as cubes, and their inverses.
fn move_cubes() -> ([Cube; Move::COUNT], [Cube; Move::COUNT]) {
    (
        Move::ALL.map(Cube::from_move),
        Move::ALL.map(|m| Cube::from_move(m.inverse())),
    )
}
