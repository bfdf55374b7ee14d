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
//! engine's ([`crate::optimal`]). The worker is generic over the metric (`QTM`), so that the
//! half-turn search is the code it was.
//!
//! Below the prefix, each node is expanded on the side with fewer moves allowed, nxopt's choice:
//! by moves at the front of the solution (the position moves, the inverse takes the inverse
//! premove) or by premoves at its end (the other way round), the other side's coset rule
//! narrowing them (the position's, read as the rule of the inverse is, rules out the last move
//! of the solution); the two parts meet canonically, so each solution is found once. The
//! children are bounded in lockstep, in three rounds (one axis of the side that moves and the
//! corners, its two other axes, the other side's two axes not of the move), every table line of a
//! round prefetched before any is read; the other side's value on the axis of the move is the
//! node's (inherited, not probed). A node of the progress counts is a child made (vcube's
//! evaluations).

use std::time::Duration;

use std::collections::HashSet;

use cube_core::{Cube, Move, simplify};
use cube_tables::Metric;
use cube_tables::nx::NxTable;
use cube_tables::pdb::{SymCorners, corner_coord};

use crate::optimal::{
    Abort, Checkpoint, Driver, Method, OptimalSearch, Ordered, Outcome, Periodic, PrefixWorker,
    Progress, Shared, Task,
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
    /// From this bound on (in half turns; default 14, vcube's first queued depth over its
    /// coordinate-112 table), the work of a bound is split into prefixes of
    /// [`Config::ordered_prefix_depth`] moves searched in decreasing density at the bound below,
    /// the first such bound by slack, as sym48 does ([`crate::sym48::Config::ordered_from`]): the
    /// first solution of the last bound comes sooner. Quarter-turn bounds, two apart, are ordered
    /// by slack.
    pub ordered_from: usize,
    /// The length of the prefixes of the ordered bounds (1 to 4; default 4, vcube's).
    pub ordered_prefix_depth: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            prefix_depth: 3,
            upper_bound: true,
            upper_bound_budget: Duration::from_millis(20),
            concurrent_upper_bound: true,
            symmetric_starts: true,
            ordered_from: 14,
            ordered_prefix_depth: 4,
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
    /// If a prefix depth is not 1 to 4.
    pub fn with_config(table: &'t NxTable<T>, corners: &'t SymCorners, config: Config) -> Self {
        assert!(
            (1..=4).contains(&config.prefix_depth)
                && (1..=4).contains(&config.ordered_prefix_depth),
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
            ordered: Some(Ordered {
                from: self.config.ordered_from,
                prefix_depth: self.config.ordered_prefix_depth,
            }),
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
    if QTM && Move::from_index(m).is_half_turn() {
        2
    } else {
        1
    }
}

/// The table's axis of each move (0 U-D, 1 F-B, 2 L-R: [`Face::axis`](cube_core::Face::axis) numbers F-B last).
const MOVE_AXIS: [usize; 18] = {
    let mut axis = [0; 18];
    let mut m = 0;
    while m < 18 {
        axis[m] = [0, 2, 1][Move::from_index(m).face().axis()];
        m += 1;
    }
    axis
};

/// The two axes other than each axis: on the side that moves, the first is probed first (a child
/// is pruned by it more often than by the move's own axis); on the side that takes the move as a
/// premove, the two probed (the move's own is the node's).
const OTHER_AXES: [[usize; 2]; 3] = [[1, 2], [0, 2], [0, 1]];

/// The moves allowed *before* each move in a canonical sequence (the premoves that may follow a
/// premove: a premove goes before the ones made earlier), and every move before none.
const BEFORE: [u32; 19] = {
    let mut out = [0u32; 19];
    let mut m = 0;
    while m < 18 {
        let mut r = 0;
        while r < 18 {
            if AFTER[r] >> m & 1 == 1 {
                out[m] |= 1 << r;
            }
            r += 1;
        }
        m += 1;
    }
    out[NO_MOVE] = AFTER[NO_MOVE];
    out
};

/// The turn the side that moves makes for move `m`: `m` forward, `m⁻¹` on the inverse (where the
/// position's premove `m` is the inverse's move `m⁻¹`).
#[inline(always)]
fn mover_turn(forward: bool, m: usize) -> usize {
    if forward {
        m
    } else {
        Move::from_index(m).inverse().index()
    }
}

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
    /// The node of `cube`: its inverse, the six probes and the corner distance.
    fn node(&self, cube: &Cube) -> Node {
        let inverse = cube.inverse();
        // The six probes computed and prefetched before any is read.
        let (indexes, inverse_indexes) = (
            self.table.axis_indexes(cube),
            self.table.axis_indexes(&inverse),
        );
        Node {
            cube: *cube,
            inverse,
            corner: self.corners.get_cube(cube),
            values: indexes.map(|i| self.table.value_at(i)),
            inverse_values: inverse_indexes.map(|i| self.table.value_at(i)),
            entry: (0, 0),
        }
    }

    /// The corner entry of `cube` in the reduced corner database (its row of move deltas and
    /// the symmetry that conjugates the cube to the row's representative), its row prefetched.
    #[inline]
    fn corner_entry(&self, cube: &Cube) -> (usize, usize) {
        let (perm, twist) = corner_coord(cube);
        let entry = self.corners.locate(perm, twist);
        self.corners.prefetch_deltas(entry.0);
        entry
    }

    /// The slot indexes of `cubes[m]` on the axes `axes(m)` for the moves `m` of `mask`, every
    /// one prefetched: first the corner coordinates of all (their class entries prefetched),
    /// then the indexes (their table lines prefetched), so that the memory latencies of a round
    /// overlap.
    #[inline(always)]
    fn probe_round<const N: usize>(
        &self,
        mask: u32,
        cubes: &[Cube; 18],
        axes: impl Fn(usize) -> [usize; N],
    ) -> [[usize; N]; 18] {
        let mut raw = [[0u32; N]; 18];
        for m in Bits(mask) {
            raw[m] = axes(m).map(|axis| self.table.axis_corner(axis, &cubes[m]));
        }
        let mut indexes = [[0usize; N]; 18];
        for m in Bits(mask) {
            let axes = axes(m);
            indexes[m] =
                std::array::from_fn(|i| self.table.axis_index_from(axes[i], raw[m][i], &cubes[m]));
        }
        indexes
    }

    /// The bound of `cube` with every probe read; in quarter turns raised to the parity of its
    /// corner permutation (the parity of every solution's length).
    fn lower_bound(&self, cube: &Cube) -> usize {
        let bound = usize::from(self.node(cube).bound());
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
            forward: [0; 32],
            reverse: [0; 32],
            after_prefix: AFTER[NO_MOVE],
            prefix_len: 0,
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

/// A node of the search: the position and its inverse, their axis values, the corner distance,
/// and the moves each side allows next (canonical after the last move and premove made, less the
/// coset rule's).
#[derive(Clone, Copy)]
struct Node {
    cube: Cube,
    inverse: Cube,
    values: [u8; 3],
    inverse_values: [u8; 3],
    corner: u8,
    /// The corner entry of the side that moves ([`Engine::corner_entry`], [`Plan`]).
    entry: (usize, usize),
}

/// How a node is expanded: on which side, and the moves it allows (with one move left, the
/// last moves, made forward).
#[derive(Clone, Copy)]
struct Plan {
    forward: bool,
    allowed: u32,
}

impl Node {
    /// The plan of the node with `budget` left, `after` and `before` the canonical moves and
    /// premoves: the side with fewer moves allowed by the other side's coset rule (nxopt's
    /// choice; a tie goes to the moves when the position's values add up to more).
    #[inline]
    fn plan<const QTM: bool>(&self, after: u32, before: u32, budget: usize) -> Plan {
        let forward_moves = after & next_moves::<QTM>(self.inverse_values, budget as u8);
        let reverse_moves = before & next_moves::<QTM>(self.values, budget as u8);
        if budget == 1 {
            // In quarter turns, no half turn fits.
            let last = forward_moves & reverse_moves & if QTM { QUARTER_TURNS } else { !0 };
            return Plan {
                forward: true,
                allowed: last,
            };
        }
        let (n_forward, n_reverse) = (forward_moves.count_ones(), reverse_moves.count_ones());
        let sum = |values: [u8; 3]| values.iter().map(|&v| u32::from(v)).sum::<u32>();
        let forward = n_forward < n_reverse
            || (n_forward == n_reverse && sum(self.values) >= sum(self.inverse_values));
        Plan {
            forward,
            allowed: if forward {
                forward_moves
            } else {
                reverse_moves
            },
        }
    }

    /// The cube of the side that moves in `plan`.
    #[inline]
    fn mover(&self, plan: Plan) -> &Cube {
        if plan.forward {
            &self.cube
        } else {
            &self.inverse
        }
    }
}

impl Node {
    /// The bound of the node: the six probes with the (x, x, x) rule and the corner distance (a
    /// distance in face turns, so a lower bound in quarter turns too).
    fn bound(&self) -> u8 {
        side(self.values)
            .max(side(self.inverse_values))
            .max(self.corner)
    }
}

/// One thread's search state.
struct Worker<'a, 't, T> {
    shared: &'a Shared<'a, Engine<'t, T>>,
    root: Cube,
    /// The moves made from the start (the prefix's first), and the premoves made, in order: a
    /// solution is the moves, then the premoves last to first.
    forward: [u8; 32],
    reverse: [u8; 32],
    /// The moves allowed after the prefix, and its length.
    after_prefix: u32,
    prefix_len: usize,
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
            self.forward[i] = m;
            prev = usize::from(m);
        }
        self.after_prefix = if self.shared.any_face_after_prefix && prev != NO_MOVE {
            AFTER[NO_MOVE] & !(0b111 << (prev / 3 * 3))
        } else {
            AFTER[prev]
        };
        self.prefix_len = prefix.len();
        self.n_nodes += 1;
        if budget == 0 {
            if cube.is_solved() {
                self.record(prefix.len(), 0);
            }
            return;
        }
        let engine = self.shared.method;
        let mut node = engine.node(&cube);
        if usize::from(node.bound()) <= budget {
            let (after, before) = (self.after_prefix, BEFORE[NO_MOVE]);
            let plan = if qtm {
                node.plan::<true>(after, before, budget)
            } else {
                node.plan::<false>(after, before, budget)
            };
            node.entry = engine.corner_entry(node.mover(plan));
            let at = (after, before, prefix.len(), 0);
            if qtm {
                self.expand::<true>(&node, plan, at, budget);
            } else {
                self.expand::<false>(&node, plan, at, budget);
            }
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
    /// Searches the children of `node` (within its bound, `budget` moves left, after `moves`
    /// moves and `premoves` premoves; `after` and `before` the canonical moves and premoves) on
    /// the side and with the moves of `plan` ([`Node::plan`]): moves `m` make `(x m, m⁻¹ x⁻¹)`,
    /// premoves `(m x, x⁻¹ m⁻¹)`. The children are bounded in three rounds, each computing and
    /// prefetching the table lines of every child still alive before reading any, so that their
    /// memory latencies overlap: one axis of the side that moves (not the move's: that one prunes
    /// least), with the corner distances from the node's row of move deltas; the other two axes
    /// of that side; the other side's two axes not of the move (its value on the move's axis is
    /// the node's: the subgroup holds the axis's turns). Each child left gets its plan and its
    /// moving side's corner row is prefetched before the first is searched. In quarter turns
    /// (`QTM`) `budget` counts quarter turns and a half turn costs 2.
    fn expand<const QTM: bool>(
        &mut self,
        node: &Node,
        plan: Plan,
        (after, before, moves, premoves): (u32, u32, usize, usize),
        budget: usize,
    ) {
        if budget == 1 {
            for m in Bits(plan.allowed) {
                if node.cube.apply_move(Move::from_index(m)).is_solved() {
                    self.forward[moves] = m as u8;
                    self.record(moves + 1, premoves);
                }
            }
            return;
        }
        let engine = self.shared.method;
        let forward = plan.forward;
        let child_left = |m: usize| (budget - cost::<QTM>(m)) as u8;
        // The side that moves, and the other, which takes the move as a premove: `m⁻¹ x⁻¹`, or
        // `m x`.
        let (mover, other, other_values) = if forward {
            (node.cube, node.inverse, node.inverse_values)
        } else {
            (node.inverse, node.cube, node.values)
        };
        let allowed = plan.allowed;
        self.count(allowed.count_ones());
        // The children to probe (in quarter turns, a half turn with 2 left is a solution or
        // nothing).
        let probed = if QTM && budget == 2 {
            allowed & QUARTER_TURNS
        } else {
            allowed
        };
        let mut kids = [Cube::SOLVED; 18];
        for m in Bits(allowed) {
            kids[m] = mover.apply_move(Move::from_index(mover_turn(forward, m)));
        }
        // Round 1: one axis of the side that moves; the node's corner row (prefetched by its
        // parent) is read meanwhile.
        let first = engine.probe_round(probed, &kids, |m| [OTHER_AXES[MOVE_AXIS[m]][0]]);
        // The corner distances of the children, from the node's row of move deltas.
        let (row, k) = node.entry;
        let deltas = engine.corners.deltas(row);
        let conj = engine.corners.conj_moves(k);
        let mut corners = [0u8; 18];
        let mut alive = 0u32;
        for m in Bits(allowed) {
            let delta = (deltas >> (2 * conj[mover_turn(forward, m)])) & 3;
            corners[m] = (node.corner + delta as u8).saturating_sub(1);
            if corners[m] <= child_left(m) {
                alive |= 1 << m;
            }
        }
        let mut values = [[0u8; 3]; 18];
        // In quarter turns, the half turns with 2 left that solve the cube.
        let mut solving = 0u32;
        for m in Bits(alive) {
            if probed >> m & 1 == 0 {
                if kids[m].is_solved() {
                    solving |= 1 << m;
                }
                alive &= !(1 << m);
                continue;
            }
            let axis = OTHER_AXES[MOVE_AXIS[m]][0];
            values[m][axis] = engine.table.value_at(first[m][0]);
            if values[m][axis] > child_left(m) {
                alive &= !(1 << m);
            }
        }
        // Round 2: the two other axes of the side that moves.
        let indexes = engine.probe_round(alive, &kids, |m| {
            [MOVE_AXIS[m], OTHER_AXES[MOVE_AXIS[m]][1]]
        });
        for m in Bits(alive) {
            let [a, b] = [MOVE_AXIS[m], OTHER_AXES[MOVE_AXIS[m]][1]];
            values[m][a] = engine.table.value_at(indexes[m][0]);
            values[m][b] = engine.table.value_at(indexes[m][1]);
            if side(values[m]) > child_left(m) {
                alive &= !(1 << m);
            }
        }
        // Round 3: the other side's two axes not of the move (its value on the move's axis is
        // the node's).
        let mut others = [Cube::SOLVED; 18];
        for m in Bits(alive) {
            let premove = Move::from_index(mover_turn(!forward, m));
            others[m] = Cube::from_move(premove).compose(&other);
        }
        let indexes = engine.probe_round(alive, &others, |m| OTHER_AXES[MOVE_AXIS[m]]);
        // The survivors' plans, their moving side's corner row prefetched.
        let mut kid_nodes = [None; 18];
        for m in Bits(alive) {
            let [a, b] = OTHER_AXES[MOVE_AXIS[m]];
            let mut inherited = [0u8; 3];
            inherited[MOVE_AXIS[m]] = other_values[MOVE_AXIS[m]];
            inherited[a] = engine.table.value_at(indexes[m][0]);
            inherited[b] = engine.table.value_at(indexes[m][1]);
            if side(inherited) > child_left(m) {
                continue;
            }
            let (cube, inverse, kid_values, kid_inverse_values) = if forward {
                (kids[m], others[m], values[m], inherited)
            } else {
                (others[m], kids[m], inherited, values[m])
            };
            let mut kid = Node {
                cube,
                inverse,
                values: kid_values,
                inverse_values: kid_inverse_values,
                corner: corners[m],
                entry: (0, 0),
            };
            let (after, before) = if forward {
                (AFTER[m], before)
            } else {
                (after, BEFORE[m])
            };
            let kid_plan = kid.plan::<QTM>(after, before, budget - cost::<QTM>(m));
            kid.entry = engine.corner_entry(kid.mover(kid_plan));
            kid_nodes[m] = Some((kid, kid_plan));
        }
        for m in Bits(alive | solving) {
            if self.abort != Abort::No {
                return;
            }
            if kid_nodes[m].is_none() && solving >> m & 1 == 0 {
                continue;
            }
            if forward {
                self.forward[moves] = m as u8;
            } else {
                self.reverse[premoves] = m as u8;
            }
            let at = if forward {
                (AFTER[m], before, moves + 1, premoves)
            } else {
                (after, BEFORE[m], moves, premoves + 1)
            };
            match kid_nodes[m] {
                Some((kid, kid_plan)) => {
                    self.expand::<QTM>(&kid, kid_plan, at, budget - cost::<QTM>(m));
                }
                // A half turn with 2 left that solves the cube.
                None => self.record(at.2, at.3),
            }
        }
    }

    /// Records the moves and the premoves (last to first) as a solution when the two parts meet
    /// canonically (the other order of two turns of one axis where they meet is found too, and
    /// kept), made canonical (after a symmetric start's prefix, opposite faces may come in either
    /// order); a duplicate of a solution of this prefix is dropped.
    fn record(&mut self, moves: usize, premoves: usize) {
        if premoves > 0 {
            let first = usize::from(self.reverse[premoves - 1]);
            let allowed = if moves == self.prefix_len {
                self.after_prefix
            } else {
                AFTER[usize::from(self.forward[moves - 1])]
            };
            if allowed >> first & 1 == 0 {
                return;
            }
        }
        let path = self.forward[..moves]
            .iter()
            .chain(self.reverse[..premoves].iter().rev());
        let moves: Vec<Move> = path.map(|&m| Move::from_index(usize::from(m))).collect();
        let moves = simplify(&moves);
        if !self.seen.insert(moves.clone()) {
            return;
        }
        self.solutions.push(moves);
        if self.solutions.len() >= self.want {
            self.abort = Abort::Enough;
        }
    }

    /// Counts `n` nodes (children made, each bounded: vcube's count of evaluations) and polls
    /// the stop flag, the clock and the cut-off now and then.
    #[inline]
    fn count(&mut self, n: u32) {
        self.n_nodes += u64::from(n);
        self.poll += n;
        if self.poll >= POLL_INTERVAL {
            self.poll = 0;
            if let Some(abort) = self.shared.poll(self.prefix_rank) {
                self.abort = abort;
            }
        }
    }
}
