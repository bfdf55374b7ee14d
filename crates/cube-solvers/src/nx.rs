//! A third optimal method: nxopt's (Rokicki's `cube20src/nxopt.md`), IDA* bounded below by the
//! cosets of an nx subgroup ([`NxTable`]) on the three axes of the position and of its inverse,
//! and by the exact corner distance ([`SymCorners`]), in the half-turn metric over an nx tier and
//! in the quarter-turn metric (a half turn costs 2) over its `-qtm` twin.
//!
//! The subgroup holds the U and D turns, so a table value `x` of a cube also says that no solution
//! of length `x` ends with a U or D turn (it would leave the coset in fewer); on another axis,
//! with a turn of that axis. Hence the rules of each node with `b` left:
//! - the bound is the largest of the six probes and the corner distance (a distance in face turns,
//!   so a lower bound in quarter turns too); on a side whose three axes read the same `x > 0`,
//!   `x + 1` (no face can end a solution of length `x`);
//! - on the inverse, an axis that reads `b` rules out the turns of that axis as the next move (a
//!   solution of the inverse ends with the inverse of the position's first move): nxopt's coset
//!   rule, which narrows the moves of the node; in quarter turns, an axis that reads `b - 1` rules
//!   out its half turns (the inverse's solution would leave the coset in `b - 2`).
//!
//! In quarter turns every turn flips the parity of the corner permutation, so the length of a
//! solution has the parity of the position's: the first bound is raised to it and the bounds
//! step by 2 (the shared engine's), so that `b` has the parity of every node's solutions and the
//! (x, x, x) rule's `x + 1`, raised to that parity `x + 2`, prunes exactly as `x + 1 > b` does.
//!
//! The bounds loop, the two-phase upper bound, the prefix queue over threads (every thread on
//! the one cube), checkpoints, progress, all or N solutions, symmetric starts are the shared
//! engine's ([`crate::optimal`]); the search expands the position side only, each solution made
//! canonical and found once. The worker is generic over the metric (`QTM`), so that the half-turn
//! search is the code it was.
//!
//! The children of a node are bounded in lockstep: corners first, then each axis of the position,
//! then of the inverse, every index of a round computed and prefetched before any is read; a
//! child's inverse on the axis of its move is its parent's (inherited, not probed).
//!
//! Not yet here (issue 35): the choice of the side with fewer moves.

use std::time::Duration;

use std::collections::HashSet;

use cube_core::{Cube, Move, simplify};
use cube_tables::Metric;
use cube_tables::nx::NxTable;
use cube_tables::pdb::{SymCorners, corner_coord};

use crate::optimal::{
    Abort, Checkpoint, Driver, Method, OptimalSearch, Outcome, Periodic, PrefixWorker, Progress,
    Shared, Task,
};
use crate::search::{AFTER, NO_MOVE};
use crate::two_phase::{TwoPhase, UpperBoundSolver};
use crate::{Limits, SolveError, Stop};

/// How often (in nodes) a worker polls the stop flag, the clock and the cut-off.
const POLL_INTERVAL: u32 = 1 << 12;

/// The configuration of an [`Nx`] search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Moves per prefix of the queue the threads take from (1 to 4).
    pub prefix_depth: usize,
    /// Ask the two-phase solver for an upper bound first.
    pub upper_bound: bool,
    /// Time the two-phase solver gets for its first solution.
    pub upper_bound_budget: Duration,
    /// Keep the two-phase solver looking for shorter solutions on one more thread.
    pub concurrent_upper_bound: bool,
    /// Search one prefix per orbit of a symmetric position.
    pub symmetric_starts: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            prefix_depth: 3,
            upper_bound: true,
            upper_bound_budget: Duration::from_millis(20),
            concurrent_upper_bound: true,
            symmetric_starts: true,
        }
    }
}

/// nxopt's search over an nx table and the reduced corner database.
#[derive(Debug)]
pub struct Nx<'t, T> {
    table: &'t NxTable<T>,
    corners: &'t SymCorners,
    config: Config,
    two_phase: UpperBoundSolver,
}

impl<'t, T: AsRef<[u8]> + Sync> Nx<'t, T> {
    /// The search over `table` and `corners` with `config`.
    ///
    /// # Panics
    /// If the prefix depth is not 1 to 4.
    pub fn with_config(table: &'t NxTable<T>, corners: &'t SymCorners, config: Config) -> Self {
        assert!(
            (1..=4).contains(&config.prefix_depth),
            "prefix depth 1 to 4"
        );
        Nx {
            table,
            corners,
            config,
            two_phase: UpperBoundSolver::default(),
        }
    }

    /// The same search, with `two_phase` for the upper bound.
    pub fn with_two_phase(self, two_phase: TwoPhase) -> Self {
        Nx {
            two_phase: UpperBoundSolver::given(two_phase),
            ..self
        }
    }

    /// The lower bound of `cube`: the six probes with the (x, x, x) rule, and the corner distance.
    pub fn lower_bound(&self, cube: &Cube) -> usize {
        Engine::new(self.table, self.corners).lower_bound(cube)
    }

    fn driver(&self) -> Driver {
        Driver {
            prefix_depth: self.config.prefix_depth,
            upper_bound: self
                .config
                .upper_bound
                .then(|| self.two_phase.get().clone()),
            upper_bound_budget: self.config.upper_bound_budget,
            concurrent_upper_bound: self.config.concurrent_upper_bound,
            distinct_up_to_symmetry: false,
            tier: self.table.tier(),
            inverse: true,
            symmetric: true,
            symmetric_starts: self.config.symmetric_starts,
            ordered: None,
        }
    }
}

impl<T: AsRef<[u8]> + Sync> OptimalSearch for Nx<'_, T> {
    fn search_checkpointed(
        &self,
        cube: &Cube,
        resume: Option<&Checkpoint>,
        limits: &Limits,
        stop: &Stop,
        progress: &mut dyn FnMut(&Progress),
        periodic: Option<Periodic<'_>>,
    ) -> Result<Outcome, SolveError> {
        let engine = Engine::new(self.table, self.corners);
        let task = Task {
            cube,
            limits,
            stop,
            checkpoint: resume,
        };
        self.driver().run(&engine, &task, progress, periodic)
    }
}

/// The bound of one side from its three axes' values: their largest, plus one when the three are
/// equal and not 0 (no face can end a solution of that length).
#[inline]
fn side(values: [u8; 3]) -> u8 {
    let [a, b, c] = values;
    a.max(b).max(c) + u8::from(a == b && b == c && a > 0)
}

/// The moves allowed next by the inverse's axis values with `budget` left: an axis that reads
/// `budget` rules out its turns (a solution of the inverse of that length cannot end with them,
/// and it ends with the inverse of the position's next move). In quarter turns (`QTM`), an axis
/// that reads `budget - 1` also rules out its half turns: a solution of the inverse ending with
/// one would leave its coset in `budget - 2`.
#[inline]
fn next_moves<const QTM: bool>(inverse: [u8; 3], budget: u8) -> u32 {
    let mut allowed = AFTER[NO_MOVE];
    // U-D: faces U and D; F-B: F and B; L-R: R and L (faces in the order U R F D L B).
    for (axis, faces) in [(0, [0, 3]), (1, [2, 5]), (2, [1, 4])] {
        let turns = if inverse[axis] == budget {
            0b111
        } else if QTM && inverse[axis] + 1 == budget {
            0b010
        } else {
            continue;
        };
        for face in faces {
            allowed &= !(turns << (3 * face));
        }
    }
    allowed
}

/// The quarter turns of the 18 moves (move `3 f + 1` is face `f`'s half turn).
const QUARTER_TURNS: u32 = 0o555555;

/// What move `m` costs out of the budget: 1, or 2 for a half turn in quarter turns (`QTM`).
#[inline(always)]
const fn cost<const QTM: bool>(m: usize) -> usize {
    if QTM && m % 3 == 1 { 2 } else { 1 }
}

/// The axis of each move (0 U-D, 1 F-B, 2 L-R; moves in the order U R F D L B, three a face).
const MOVE_AXIS: [usize; 18] = {
    let face_axis = [0, 2, 1, 0, 2, 1];
    let mut axis = [0; 18];
    let mut m = 0;
    while m < 18 {
        axis[m] = face_axis[m / 3];
        m += 1;
    }
    axis
};

/// The moves of each axis, as move masks.
const AXIS_MOVES: [u32; 3] = {
    let mut masks = [0; 3];
    let mut m = 0;
    while m < 18 {
        masks[MOVE_AXIS[m]] |= 1 << m;
        m += 1;
    }
    masks
};

/// [`Engine::probe`]'s `skip` for the inverse side: every move's own axis is inherited.
const INHERITED: u32 = (1 << 18) - 1;

/// The set bits of a move mask, lowest first.
struct Bits(u32);

impl Iterator for Bits {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        (self.0 != 0).then(|| {
            let m = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            m
        })
    }
}

/// What the workers share: the table and the corners.
struct Engine<'t, T> {
    table: &'t NxTable<T>,
    corners: &'t SymCorners,
}

impl<'t, T: AsRef<[u8]>> Engine<'t, T> {
    fn new(table: &'t NxTable<T>, corners: &'t SymCorners) -> Self {
        Engine { table, corners }
    }
}

impl<T: AsRef<[u8]> + Sync> Engine<'_, T> {
    /// The bound of `cube`, the moves the inverse's probes allow next for `budget` left (see
    /// [`next_moves`]) and the inverse's three values; when the corners and the position's
    /// probes already exceed `budget`, their bound alone. The corner distance counts face turns:
    /// a lower bound in quarter turns too.
    #[inline]
    fn evaluate<const QTM: bool>(&self, cube: &Cube, budget: u8) -> (u8, u32, [u8; 3]) {
        let corners = self.corners.get_cube(cube);
        let position = side(self.table.axis_values(cube)).max(corners);
        if position > budget {
            return (position, 0, [0; 3]);
        }
        let inverse = self.table.axis_values(&cube.inverse());
        (
            position.max(side(inverse)),
            next_moves::<QTM>(inverse, budget),
            inverse,
        )
    }

    /// Reads the axis values of `cubes[m]` for the moves `m` of `alive`, axis by axis (each
    /// axis's corner coordinates, then indexes, computed and prefetched for every cube still
    /// alive before any is read),
    /// into `values[m]`, skipping each move's own axis when `skip` is [`INHERITED`]; returns the
    /// moves whose values are all at most `left` (one less for a half turn in quarter turns,
    /// `QTM`: `left` is the budget of a child by a quarter turn).
    #[inline]
    fn probe<const QTM: bool>(
        &self,
        cubes: &[Cube; 18],
        mut alive: u32,
        left: u8,
        values: &mut [[u8; 3]; 18],
        skip: u32,
    ) -> u32 {
        for axis in 0..3 {
            // The moves whose value on this axis is to be read.
            let read = alive & !(skip & AXIS_MOVES[axis]);
            let mut indexes = [0usize; 18];
            for m in Bits(read) {
                indexes[m] = self.table.axis_corner(axis, &cubes[m]) as usize;
            }
            for m in Bits(read) {
                indexes[m] = self
                    .table
                    .axis_index_from(axis, indexes[m] as u32, &cubes[m]);
            }
            for m in Bits(read) {
                values[m][axis] = self.table.value_at(indexes[m]);
                if values[m][axis] > left - u8::from(QTM && m % 3 == 1) {
                    alive &= !(1 << m);
                }
            }
        }
        alive
    }

    /// The bound of `cube` with every probe read; in quarter turns raised to the parity of its
    /// corner permutation (the parity of every solution's length).
    fn lower_bound(&self, cube: &Cube) -> usize {
        // With no budget to beat, every probe is read.
        let bound = usize::from(self.evaluate::<false>(cube, u8::MAX - 1).0);
        match self.table.metric() {
            Metric::Htm => bound,
            Metric::Qtm => bound + usize::from((bound % 2 == 1) != cube.corner_parity_odd()),
        }
    }
}

impl<'t, T: AsRef<[u8]> + Sync> Method for Engine<'t, T> {
    type Worker<'a>
        = Worker<'a, 't, T>
    where
        Self: 'a;

    fn lower_bound(&self, cube: &Cube) -> usize {
        Engine::lower_bound(self, cube)
    }

    fn metric(&self) -> Metric {
        self.table.metric()
    }

    fn worker<'a>(shared: &'a Shared<'a, Self>, cube: &Cube) -> Worker<'a, 't, T> {
        Worker {
            shared,
            root: *cube,
            path: [0; 32],
            poll: 0,
            prefix_rank: 0,
            want: 1,
            solutions: Vec::new(),
            seen: HashSet::new(),
            n_nodes: 0,
            abort: Abort::No,
        }
    }
}

/// One thread's search state.
struct Worker<'a, 't, T> {
    shared: &'a Shared<'a, Engine<'t, T>>,
    root: Cube,
    path: [u8; 32],
    poll: u32,
    prefix_rank: usize,
    want: usize,
    solutions: Vec<Vec<Move>>,
    /// The canonical solutions of the current prefix.
    seen: HashSet<Vec<Move>>,
    n_nodes: u64,
    abort: Abort,
}

impl<T: AsRef<[u8]> + Sync> PrefixWorker for Worker<'_, '_, T> {
    fn run_prefix(&mut self, prefix: &[u8], bound: usize, rank: usize, want: usize) {
        self.solutions.clear();
        self.seen.clear();
        self.abort = Abort::No;
        self.prefix_rank = rank;
        self.want = want;
        let qtm = self.shared.method.table.metric() == Metric::Qtm;
        let moves: Vec<Move> = prefix
            .iter()
            .map(|&m| Move::from_index(usize::from(m)))
            .collect();
        let cost = if qtm {
            Metric::Qtm.length(&moves)
        } else {
            moves.len()
        };
        let Some(budget) = bound.checked_sub(cost) else {
            // The prefix alone is longer than the bound (in quarter turns).
            return;
        };
        let mut cube = self.root;
        let mut prev = NO_MOVE;
        for (i, (&m, &mv)) in prefix.iter().zip(&moves).enumerate() {
            debug_assert!(AFTER[prev] >> m & 1 == 1, "prefixes are canonical");
            cube = cube.apply_move(mv);
            self.path[i] = m;
            prev = usize::from(m);
        }
        let after = if self.shared.any_face_after_prefix && prev != NO_MOVE {
            AFTER[NO_MOVE] & !(0b111 << (prev / 3 * 3))
        } else {
            AFTER[prev]
        };
        self.n_nodes += 1;
        if qtm {
            self.search::<true>(&cube, prefix.len(), budget, after);
        } else {
            self.search::<false>(&cube, prefix.len(), budget, after);
        }
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

impl<T: AsRef<[u8]> + Sync> Worker<'_, '_, T> {
    /// Searches every continuation of the path (of `depth` moves, ending at `cube`) of length
    /// `budget` (in quarter turns when `QTM`) from `after`: the node itself is bounded first, then
    /// its children.
    fn search<const QTM: bool>(&mut self, cube: &Cube, depth: usize, budget: usize, after: u32) {
        if budget == 0 {
            if cube.is_solved() {
                self.record(depth);
            }
            return;
        }
        let (bound, allowed, inverse) = self.shared.method.evaluate::<QTM>(cube, budget as u8);
        if usize::from(bound) <= budget {
            let corners = self.shared.method.corners;
            let (perm, twist) = corner_coord(cube);
            let located = corners.locate(perm, twist);
            let corner = corners.get(located.0);
            self.children::<QTM>(
                cube,
                (corner, located),
                inverse,
                depth,
                budget,
                after & allowed,
            );
        }
    }

    /// Searches the children by `moves` of a node within its bound (its corner distance and
    /// corner entry `(corner, (row, k))`, its inverse's axis values `inverse`), `budget` left (in
    /// quarter turns when `QTM`: a child by a half turn has 2 less): the corners first
    /// (from the node's row of move deltas), then the position's axes and the inverse's, axis by
    /// axis, each in lockstep over the children still alive (every index computed and prefetched
    /// before any is read). A child's inverse on the axis of its move reads as its parent's
    /// (`(x m)⁻¹ = m⁻¹ x⁻¹`, and the subgroup holds the axis's turns): that probe is inherited.
    fn children<const QTM: bool>(
        &mut self,
        cube: &Cube,
        (corner, (row, k)): (u8, (usize, usize)),
        inverse: [u8; 3],
        depth: usize,
        budget: usize,
        moves: u32,
    ) {
        if budget == 1 {
            // One quarter turn left: no half turn fits.
            let moves = if QTM { moves & QUARTER_TURNS } else { moves };
            for m in Bits(moves) {
                if self.abort != Abort::No {
                    return;
                }
                self.count();
                if cube.apply_move(Move::from_index(m)).is_solved() {
                    self.path[depth] = m as u8;
                    self.record(depth + 1);
                }
            }
            return;
        }
        let engine = self.shared.method;
        // The budget of a child by a quarter turn (`child_left`: by any move).
        let left = budget as u8 - 1;
        let child_left = |m: usize| (budget - cost::<QTM>(m)) as u8;
        let deltas = engine.corners.deltas(row);
        let conj = engine.corners.conj_moves(k);
        let mut kids = [Cube::SOLVED; 18];
        let mut corners = [0u8; 18];
        let mut alive = 0u32;
        for m in Bits(moves) {
            // The move's delta, plus one, in the representative's frame.
            corners[m] = (corner + ((deltas >> (2 * conj[m])) & 3) as u8).saturating_sub(1);
            if corners[m] <= child_left(m) {
                kids[m] = cube.apply_move(Move::from_index(m));
                alive |= 1 << m;
            }
        }
        let mut values = [[0u8; 3]; 18];
        let mut alive = engine.probe::<QTM>(&kids, alive, left, &mut values, 0);
        let mut inverses = [Cube::SOLVED; 18];
        let mut inverse_values = [[0u8; 3]; 18];
        for m in Bits(alive) {
            if side(values[m]) > child_left(m) {
                alive &= !(1 << m);
                continue;
            }
            inverses[m] = kids[m].inverse();
            inverse_values[m][MOVE_AXIS[m]] = inverse[MOVE_AXIS[m]];
        }
        let survivors = engine.probe::<QTM>(&inverses, alive, left, &mut inverse_values, INHERITED);
        // The survivors' corner entries, their move deltas prefetched for their own children.
        let mut located = [(0, 0); 18];
        if left > 1 {
            for m in Bits(survivors) {
                let (perm, twist) = corner_coord(&kids[m]);
                located[m] = engine.corners.locate(perm, twist);
                engine.corners.prefetch_deltas(located[m].0);
            }
        }
        for m in Bits(alive) {
            if self.abort != Abort::No {
                return;
            }
            self.count();
            let values = inverse_values[m];
            if survivors >> m & 1 == 0 || side(values) > child_left(m) {
                continue;
            }
            self.path[depth] = m as u8;
            if QTM && child_left(m) == 0 {
                // A half turn with 2 left: the child is a solution or nothing.
                if kids[m].is_solved() {
                    self.record(depth + 1);
                }
                continue;
            }
            let next = AFTER[m] & next_moves::<QTM>(values, child_left(m));
            let node = (corners[m], located[m]);
            let budget = budget - cost::<QTM>(m);
            self.children::<QTM>(&kids[m], node, values, depth + 1, budget, next);
        }
    }

    /// Records the path, made canonical (after a symmetric start's prefix, opposite faces may
    /// come in either order); a duplicate of a solution of this prefix is dropped.
    fn record(&mut self, depth: usize) {
        let moves: Vec<Move> = self.path[..depth]
            .iter()
            .map(|&m| Move::from_index(usize::from(m)))
            .collect();
        let moves = simplify(&moves);
        if !self.seen.insert(moves.clone()) {
            return;
        }
        self.solutions.push(moves);
        if self.solutions.len() >= self.want {
            self.abort = Abort::Enough;
        }
    }

    /// Counts a node and polls the stop flag, the clock and the cut-off now and then.
    #[inline]
    fn count(&mut self) {
        self.n_nodes += 1;
        self.poll += 1;
        if self.poll >= POLL_INTERVAL {
            self.poll = 0;
            if let Some(abort) = self.shared.poll(self.prefix_rank) {
                self.abort = abort;
            }
        }
    }
}
