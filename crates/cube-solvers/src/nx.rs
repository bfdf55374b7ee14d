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
//! node's (inherited, not probed). Each thread searches several prefixes at once, its lanes
//! ([`Config::lanes`]): a lane's depth-first search is cut into steps that end where a round's
//! lines are in flight, and the thread takes a step of each lane in turn, so that one lane's
//! arithmetic runs while another's lines arrive (the search of each prefix, its nodes and its
//! solutions are those of one lane alone). A node of the progress counts is a child made (vcube's
//! evaluations).

mod family;

use std::collections::HashSet;

use cube_core::{Cube, Move, simplify};
use cube_tables::Metric;
use cube_tables::nx::NxTable;
use cube_tables::pdb::{SymCorners, corner_coord};

pub(crate) use self::family::NxFamily;
use crate::optimal::{
    Abort, Checkpoint, Driver, Lookup, Method, OptimalSearch, Ordered, Outcome, Periodic, Prefixes,
    Progress, QueueWorker, SearchConfig, Shared, Taken, Task,
};
use crate::search::{AFTER, NO_MOVE};
use crate::two_phase::{TwoPhase, UpperBoundSolver};
use crate::{Limits, SolveError, Stop};

/// How often (in nodes) a worker polls the stop flag, the clock and the cut-off.
const POLL_INTERVAL: u32 = 1 << 12;

/// The configuration of an [`Nx`] search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The bounds loop's settings: the prefixes of the bounds below [`Config::ordered_from`], the
    /// two-phase upper bound.
    pub search: SearchConfig,
    /// Search one prefix per orbit of a symmetric position.
    pub symmetric_starts: bool,
    /// From this bound on (in half turns; default 15), the work of a bound is split into prefixes of
    /// [`Config::ordered_prefix_depth`] moves searched in decreasing density at the bound below,
    /// the first such bound by slack, as sym48 does ([`crate::sym48::Config::ordered_from`]): the
    /// first solution of the last bound comes sooner. Quarter-turn bounds, two apart, are ordered
    /// by slack. Not 14 (vcube's first queued depth over its coordinate-112 table): bound 14
    /// split into its 43,254 four-move prefixes costs 60 ms however few nodes it has, the most of
    /// a 15-mover's search; from 15, `optimal_bench --tier nx-eo3ep1 --threads 2 --ordered-from N`
    /// over drawn-15 took 1.92 s in all against 3.21 s (median 0.094 against 0.165 s), nissy-core's
    /// 16-movers 8.73 against 10.41 s, drawn-16 4.64 against 5.03 s and nissy-core's 17-movers
    /// 38.9 against 47.2 s with the same CPU (docs/perf-log/optimal-nx.md, "Ordered from 15").
    pub ordered_from: usize,
    /// The length of the prefixes of the ordered bounds (1 to 4; default 4, vcube's).
    pub ordered_prefix_depth: usize,
    /// Prefixes each thread searches at once (1 to 16), one round of table lines of each in
    /// flight while the others compute (default 4).
    pub lanes: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            search: SearchConfig::default(),
            symmetric_starts: true,
            ordered_from: 15,
            ordered_prefix_depth: 4,
            lanes: 4,
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
    /// If a prefix depth is not 1 to 4, or the lanes not 1 to 16.
    pub fn with_config(table: &'t NxTable<T>, corners: &'t SymCorners, config: Config) -> Self {
        config.search.assert_valid();
        assert!(
            (1..=4).contains(&config.ordered_prefix_depth),
            "prefix depth 1 to 4"
        );
        assert!((1..=16).contains(&config.lanes), "lanes 1 to 16");
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
        Engine::new(self.table, self.corners, 1).lower_bound(cube)
    }

    fn driver(&self) -> Driver {
        let lookup = Lookup {
            tier: self.table.tier(),
            distinct_up_to_symmetry: false,
            inverse: true,
            symmetric: true,
            symmetric_starts: self.config.symmetric_starts,
            ordered: Some(Ordered {
                from: self.config.ordered_from,
                prefix_depth: self.config.ordered_prefix_depth,
            }),
        };
        self.config.search.driver(&self.two_phase, lookup)
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
        let engine = Engine::new(self.table, self.corners, self.config.lanes);
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

/// What the workers share: the table and the corners, and how many prefixes each thread
/// searches at once.
struct Engine<'t, T> {
    table: &'t NxTable<T>,
    corners: &'t SymCorners,
    lanes: usize,
}

impl<'t, T: AsRef<[u8]>> Engine<'t, T> {
    fn new(table: &'t NxTable<T>, corners: &'t SymCorners, lanes: usize) -> Self {
        Engine {
            table,
            corners,
            lanes,
        }
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
            lanes: Vec::new(),
            n_nodes: 0,
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

/// One thread's search state: its lanes, each searching one prefix, their rounds interleaved.
struct Worker<'a, 't, T> {
    shared: &'a Shared<'a, Engine<'t, T>>,
    root: Cube,
    lanes: Vec<Lane>,
    /// The nodes of the prefixes this worker finished.
    n_nodes: u64,
}

impl<T: AsRef<[u8]> + Sync> QueueWorker for Worker<'_, '_, T> {
    fn work(&mut self, queue: &dyn Prefixes) {
        let n_lanes = self.shared.method.lanes;
        self.lanes.resize_with(n_lanes, Lane::default);
        match self.shared.method.table.metric() {
            Metric::Htm => self.run_lanes::<false>(queue),
            Metric::Qtm => self.run_lanes::<true>(queue),
        }
    }

    fn nodes(&self) -> u64 {
        self.n_nodes
    }
}

impl<T: AsRef<[u8]> + Sync> Worker<'_, '_, T> {
    /// Takes a step of each lane in turn (the work up to its next round of prefetched table
    /// lines, [`Lane::step`]), so that a lane's lines arrive while the others compute; a lane
    /// whose prefix is searched (or cut off) hands it back to `queue` and takes the next.
    fn run_lanes<const QTM: bool>(&mut self, queue: &dyn Prefixes) {
        let (shared, root) = (self.shared, self.root);
        let mut taken: Vec<Option<Taken<'_>>> = self.lanes.iter().map(|_| None).collect();
        let mut more = true;
        loop {
            let mut busy = false;
            for (lane, slot) in self.lanes.iter_mut().zip(&mut taken) {
                loop {
                    if slot.is_none() {
                        if !more {
                            break;
                        }
                        let Some(next) = queue.take() else {
                            more = false;
                            break;
                        };
                        lane.start::<QTM, T>(shared, &root, &next, queue.bound(), queue.want());
                        *slot = Some(next);
                    }
                    if lane.step::<QTM, T>(shared) {
                        busy = true;
                        break;
                    }
                    let done = slot.take().expect("a lane with a prefix");
                    self.n_nodes += lane.n_nodes;
                    let solutions = std::mem::take(&mut lane.solutions);
                    if !queue.finish(&done, lane.abort, solutions, lane.n_nodes) {
                        return;
                    }
                }
            }
            if !busy {
                return;
            }
        }
    }
}

/// A node to expand on a lane's stack, or a solution to record.
#[derive(Clone, Copy)]
struct Entry {
    node: Node,
    plan: Plan,
    /// The canonical moves and premoves after it, and the moves and premoves made to reach it.
    after: u32,
    before: u32,
    moves: usize,
    premoves: usize,
    /// Its budget of moves left (in quarter turns in the quarter-turn metric).
    budget: usize,
    /// The move from its parent (a move, or a premove if `premove`; none for a prefix's root).
    made: Option<(u8, bool)>,
    /// A half turn with 2 left that solves the cube (quarter turns): only recorded.
    solves: bool,
}

/// Where a lane's node is in its expansion ([`Lane::step`]).
#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Phase {
    /// The next entry of the stack is taken.
    #[default]
    Pop,
    /// The first round's table lines are in flight.
    First,
    /// The second round's.
    Second,
    /// The third round's.
    Third,
}

/// One prefix's depth-first search, made of steps that end where a round of table lines is in
/// flight, so that a thread interleaves several ([`Worker::run_lanes`]).
#[derive(Default)]
struct Lane {
    /// The moves made from the start (the prefix's first), and the premoves made, in order: a
    /// solution is the moves, then the premoves last to first.
    forward: [u8; 32],
    reverse: [u8; 32],
    /// The moves allowed after the prefix, and its length.
    after_prefix: u32,
    prefix_len: usize,
    poll: u32,
    rank: usize,
    want: usize,
    solutions: Vec<Vec<Move>>,
    /// The canonical solutions of the prefix.
    seen: HashSet<Vec<Move>>,
    /// The nodes of the prefix.
    n_nodes: u64,
    abort: Abort,
    /// The nodes left to expand, the next on top (depth first, children in move order).
    stack: Vec<Entry>,
    phase: Phase,
    /// The node being expanded and what its rounds found so far.
    at: Option<Entry>,
    round: Round,
}

/// The children of the node a lane expands, as its rounds bound them.
struct Round {
    /// The children of the side that moves, and of the other (third round).
    kids: [Cube; 18],
    others: [Cube; 18],
    /// The moves made, those probed, those alive, and (quarter turns) the half turns with 2 left
    /// that solve the cube.
    allowed: u32,
    probed: u32,
    alive: u32,
    solving: u32,
    /// The slot indexes of the round in flight: one axis (first), or two.
    first: [[usize; 1]; 18],
    pair: [[usize; 2]; 18],
    /// The axis values of the side that moves, and the corner distances.
    values: [[u8; 3]; 18],
    corners: [u8; 18],
}

impl Default for Round {
    fn default() -> Self {
        Round {
            kids: [Cube::SOLVED; 18],
            others: [Cube::SOLVED; 18],
            allowed: 0,
            probed: 0,
            alive: 0,
            solving: 0,
            first: [[0; 1]; 18],
            pair: [[0; 2]; 18],
            values: [[0; 3]; 18],
            corners: [0; 18],
        }
    }
}

impl Lane {
    /// Starts the search of `taken` from `root` at `bound` for up to `want` solutions: the
    /// prefix made, its node bounded (its six probes in one round) and put on the stack.
    fn start<const QTM: bool, T: AsRef<[u8]> + Sync>(
        &mut self,
        shared: &Shared<'_, Engine<'_, T>>,
        root: &Cube,
        taken: &Taken<'_>,
        bound: usize,
        want: usize,
    ) {
        self.solutions.clear();
        self.seen.clear();
        self.stack.clear();
        self.phase = Phase::Pop;
        self.abort = Abort::No;
        self.n_nodes = 0;
        self.rank = taken.rank;
        self.want = want;
        let prefix = taken.prefix;
        let moves: Vec<Move> = prefix
            .iter()
            .map(|&m| Move::from_index(usize::from(m)))
            .collect();
        let cost = if QTM {
            Metric::Qtm.length(&moves)
        } else {
            moves.len()
        };
        let Some(budget) = bound.checked_sub(cost) else {
            // The prefix alone is longer than the bound (in quarter turns).
            return;
        };
        let mut cube = *root;
        let mut prev = NO_MOVE;
        for (i, (&m, &mv)) in prefix.iter().zip(&moves).enumerate() {
            debug_assert!(AFTER[prev] >> m & 1 == 1, "prefixes are canonical");
            cube = cube.apply_move(mv);
            self.forward[i] = m;
            prev = usize::from(m);
        }
        self.after_prefix = if shared.any_face_after_prefix && prev != NO_MOVE {
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
        let engine = shared.method;
        let mut node = engine.node(&cube);
        if usize::from(node.bound()) <= budget {
            let (after, before) = (self.after_prefix, BEFORE[NO_MOVE]);
            let plan = node.plan::<QTM>(after, before, budget);
            node.entry = engine.corner_entry(node.mover(plan));
            self.stack.push(Entry {
                node,
                plan,
                after,
                before,
                moves: prefix.len(),
                premoves: 0,
                budget,
                made: None,
                solves: false,
            });
        }
    }

    /// Searches on until a round of table lines is in flight (true) or the prefix is searched or
    /// aborted (false). A node is expanded on the side and with the moves of its plan
    /// ([`Node::plan`]): moves `m` make `(x m, m⁻¹ x⁻¹)`, premoves `(m x, x⁻¹ m⁻¹)`. Its children
    /// are bounded in three rounds, each computing and prefetching the table lines of every child
    /// still alive, then (at the lane's next step) reading them: one axis of the side that moves
    /// (not the move's: that one prunes least), with the corner distances from the node's row of
    /// move deltas; the other two axes of that side; the other side's two axes not of the move
    /// (its value on the move's axis is the node's: the subgroup holds the axis's turns). Each
    /// child left gets its plan, its moving side's corner row is prefetched, and it goes on the
    /// stack. In quarter turns (`QTM`) budgets count quarter turns and a half turn costs 2.
    fn step<const QTM: bool, T: AsRef<[u8]> + Sync>(
        &mut self,
        shared: &Shared<'_, Engine<'_, T>>,
    ) -> bool {
        let engine = shared.method;
        loop {
            match self.phase {
                Phase::Pop => {
                    if self.abort != Abort::No {
                        self.stack.clear();
                        return false;
                    }
                    let Some(entry) = self.stack.pop() else {
                        return false;
                    };
                    match entry.made {
                        Some((m, false)) => self.forward[entry.moves - 1] = m,
                        Some((m, true)) => self.reverse[entry.premoves - 1] = m,
                        None => {}
                    }
                    if entry.solves {
                        self.record(entry.moves, entry.premoves);
                    } else if entry.budget == 1 {
                        for m in Bits(entry.plan.allowed) {
                            if entry.node.cube.apply_move(Move::from_index(m)).is_solved() {
                                self.forward[entry.moves] = m as u8;
                                self.record(entry.moves + 1, entry.premoves);
                            }
                        }
                    } else {
                        self.first_round::<QTM, T>(engine, entry);
                        self.count(entry.plan.allowed.count_ones(), shared);
                        self.at = Some(entry);
                        self.phase = Phase::First;
                        return true;
                    }
                }
                Phase::First => {
                    if self.second_round::<QTM, T>(engine) {
                        self.phase = Phase::Second;
                        return true;
                    }
                    self.phase = Phase::Pop;
                }
                Phase::Second => {
                    if self.third_round::<QTM, T>(engine) {
                        self.phase = Phase::Third;
                        return true;
                    }
                    self.phase = Phase::Pop;
                }
                Phase::Third => {
                    self.children::<QTM, T>(engine);
                    self.phase = Phase::Pop;
                }
            }
        }
    }

    /// The first round of `entry`'s expansion: its children made, one axis of the side that
    /// moves prefetched.
    #[inline(always)]
    fn first_round<const QTM: bool, T: AsRef<[u8]> + Sync>(
        &mut self,
        engine: &Engine<'_, T>,
        entry: Entry,
    ) {
        let (node, plan, budget) = (&entry.node, entry.plan, entry.budget);
        let forward = plan.forward;
        let mover = node.mover(plan);
        let round = &mut self.round;
        round.allowed = plan.allowed;
        // The children to probe (in quarter turns, a half turn with 2 left is a solution or
        // nothing).
        round.probed = if QTM && budget == 2 {
            plan.allowed & QUARTER_TURNS
        } else {
            plan.allowed
        };
        for m in Bits(plan.allowed) {
            round.kids[m] = mover.apply_move(Move::from_index(mover_turn(forward, m)));
        }
        round.first =
            engine.probe_round(round.probed, &round.kids, |m| [OTHER_AXES[MOVE_AXIS[m]][0]]);
    }

    /// Reads the first round (the node's corner row, prefetched by its parent, meanwhile) and
    /// starts the second, the two other axes of the side that moves; false when no child is
    /// left to probe.
    #[inline(always)]
    fn second_round<const QTM: bool, T: AsRef<[u8]> + Sync>(
        &mut self,
        engine: &Engine<'_, T>,
    ) -> bool {
        let entry = self.at.as_ref().expect("a node in expansion");
        let (node, forward, budget) = (&entry.node, entry.plan.forward, entry.budget);
        let child_left = |m: usize| (budget - cost::<QTM>(m)) as u8;
        let round = &mut self.round;
        // The corner distances of the children, from the node's row of move deltas.
        let (row, k) = node.entry;
        let deltas = engine.corners.deltas(row);
        let conj = engine.corners.conj_moves(k);
        let mut alive = 0u32;
        for m in Bits(round.allowed) {
            let delta = (deltas >> (2 * conj[mover_turn(forward, m)])) & 3;
            round.corners[m] = (node.corner + delta as u8).saturating_sub(1);
            if round.corners[m] <= child_left(m) {
                alive |= 1 << m;
            }
        }
        round.solving = 0;
        for m in Bits(alive) {
            if round.probed >> m & 1 == 0 {
                if round.kids[m].is_solved() {
                    round.solving |= 1 << m;
                }
                alive &= !(1 << m);
                continue;
            }
            let axis = OTHER_AXES[MOVE_AXIS[m]][0];
            round.values[m][axis] = engine.table.value_at(round.first[m][0]);
            if round.values[m][axis] > child_left(m) {
                alive &= !(1 << m);
            }
        }
        round.alive = alive;
        if alive == 0 {
            self.push_children::<QTM>(&[]);
            return false;
        }
        round.pair = engine.probe_round(alive, &round.kids, |m| {
            [MOVE_AXIS[m], OTHER_AXES[MOVE_AXIS[m]][1]]
        });
        true
    }

    /// Reads the second round and starts the third, the other side's two axes not of the move;
    /// false when no child is left.
    #[inline(always)]
    fn third_round<const QTM: bool, T: AsRef<[u8]> + Sync>(
        &mut self,
        engine: &Engine<'_, T>,
    ) -> bool {
        let entry = self.at.as_ref().expect("a node in expansion");
        let (node, forward, budget) = (&entry.node, entry.plan.forward, entry.budget);
        let child_left = |m: usize| (budget - cost::<QTM>(m)) as u8;
        let round = &mut self.round;
        let mut alive = round.alive;
        for m in Bits(alive) {
            let [a, b] = [MOVE_AXIS[m], OTHER_AXES[MOVE_AXIS[m]][1]];
            round.values[m][a] = engine.table.value_at(round.pair[m][0]);
            round.values[m][b] = engine.table.value_at(round.pair[m][1]);
            if side(round.values[m]) > child_left(m) {
                alive &= !(1 << m);
            }
        }
        round.alive = alive;
        if alive == 0 {
            self.push_children::<QTM>(&[]);
            return false;
        }
        let other = if forward { node.inverse } else { node.cube };
        for m in Bits(alive) {
            let premove = Move::from_index(mover_turn(!forward, m));
            round.others[m] = Cube::from_move(premove).compose(&other);
        }
        round.pair = engine.probe_round(alive, &round.others, |m| OTHER_AXES[MOVE_AXIS[m]]);
        true
    }

    /// Reads the third round and puts the children left on the stack, each with its plan and
    /// its moving side's corner row prefetched.
    #[inline(always)]
    fn children<const QTM: bool, T: AsRef<[u8]> + Sync>(&mut self, engine: &Engine<'_, T>) {
        let entry = self.at.as_ref().expect("a node in expansion");
        let (node, forward, budget) = (&entry.node, entry.plan.forward, entry.budget);
        let (after, before) = (entry.after, entry.before);
        let other_values = if forward {
            node.inverse_values
        } else {
            node.values
        };
        let round = &self.round;
        let mut kids = [None; 18];
        for m in Bits(round.alive) {
            let left = budget - cost::<QTM>(m);
            let [a, b] = OTHER_AXES[MOVE_AXIS[m]];
            let mut inherited = [0u8; 3];
            inherited[MOVE_AXIS[m]] = other_values[MOVE_AXIS[m]];
            inherited[a] = engine.table.value_at(round.pair[m][0]);
            inherited[b] = engine.table.value_at(round.pair[m][1]);
            if usize::from(side(inherited)) > left {
                continue;
            }
            let (cube, inverse, values, inverse_values) = if forward {
                (round.kids[m], round.others[m], round.values[m], inherited)
            } else {
                (round.others[m], round.kids[m], inherited, round.values[m])
            };
            let mut kid = Node {
                cube,
                inverse,
                values,
                inverse_values,
                corner: round.corners[m],
                entry: (0, 0),
            };
            let (after, before) = if forward {
                (AFTER[m], before)
            } else {
                (after, BEFORE[m])
            };
            let plan = kid.plan::<QTM>(after, before, left);
            kid.entry = engine.corner_entry(kid.mover(plan));
            kids[m] = Some((kid, plan));
        }
        self.push_children::<QTM>(&kids);
    }

    /// Puts on the stack the children of the node in expansion, `kids` (by move; none when the
    /// rounds left none) and the solving half turns, the lowest move on top.
    fn push_children<const QTM: bool>(&mut self, kids: &[Option<(Node, Plan)>]) {
        let entry = self.at.take().expect("a node in expansion");
        let forward = entry.plan.forward;
        let solving = self.round.solving;
        let mut left = solving;
        for (m, kid) in kids.iter().enumerate() {
            if kid.is_some() {
                left |= 1 << m;
            }
        }
        while left != 0 {
            let m = 31 - left.leading_zeros() as usize;
            left &= !(1 << m);
            let (after, before, moves, premoves) = if forward {
                (AFTER[m], entry.before, entry.moves + 1, entry.premoves)
            } else {
                (entry.after, BEFORE[m], entry.moves, entry.premoves + 1)
            };
            let (node, plan, solves) = match kids.get(m).copied().flatten() {
                Some((node, plan)) => (node, plan, false),
                None => (entry.node, entry.plan, true),
            };
            self.stack.push(Entry {
                node,
                plan,
                after,
                before,
                moves,
                premoves,
                budget: entry.budget - cost::<QTM>(m),
                made: Some((m as u8, !forward)),
                solves,
            });
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
    fn count<T>(&mut self, n: u32, shared: &Shared<'_, Engine<'_, T>>) {
        self.n_nodes += u64::from(n);
        self.poll += n;
        if self.poll >= POLL_INTERVAL {
            self.poll = 0;
            if let Some(abort) = shared.poll(self.rank) {
                self.abort = abort;
            }
        }
    }
}
