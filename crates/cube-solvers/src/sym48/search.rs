//! The depth-first search of one bound from one prefix, over position/inverse pairs.
//!
//! The children of *all* the surviving children of a node (its grandchildren) are made together
//! before any child is searched, in lockstep passes so that many table reads are in flight at
//! once (as `korf/search.rs` does): every grandchild the corners keep is composed, its probe-1
//! index computed and its table line prefetched at once; then all probe-1 values are read (the
//! face and BPMX rules applied); then the survivors that moved by a quarter turn compute probe 2
//! and prefetch it, then read it in a last pass. Each child is then searched in move order, its
//! own children already made.
//!
//! The batches of siblings overlap: before a child is searched, the batch of the next child's
//! grandchildren is begun (made, probe 1 prefetched), after this child's probe 1 is read and its
//! probe 2 prefetched; so the next batch's reads are in flight while this one is finished and
//! searched. Each level holds two batches, a child's and its next sibling's. Nothing is allocated
//! per node.

use std::collections::HashSet;

use cube_core::{Cube, Move, simplify};
use cube_tables::pdb::SymCorners;

use super::{Counters, SharedCounters, Side, Sym48Heuristic, move_cubes};
use crate::optimal::{Abort, Method, PrefixWorker, Shared};
use crate::search::{AFTER, NO_MOVE};
use cube_tables::pdb::corner_coord;

/// How often (in nodes) a worker polls the stop flag, the clock and the cut-off.
const POLL_INTERVAL: u32 = 1 << 14;

/// The quarter turns, as bits over move indexes (`U`, `U'`, `R`, `R'`, ...).
const QUARTER: u32 = 0x2DB6D;

/// The position side of a node.
const POSITION: usize = 0;

/// Where the values of a prefix's proper ancestors of `d` moves (1 to 3) start in
/// [`Worker::ancestors`]: 18 of one move, 18² of two, 18³ of three, indexed by their moves in
/// base 18.
const ANCESTOR_AT: [usize; 4] = [0, 0, 18, 18 + 18 * 18];

/// The length of [`Worker::ancestors`].
const ANCESTORS: usize = 18 + 18 * 18 + 18 * 18 * 18;

/// An ancestor's value not yet read.
const UNKNOWN: u8 = u8::MAX;

/// What the workers of a search share: the heuristic, the corners, the move cubes, the counters.
pub(crate) struct Engine<'t, H> {
    heuristic: &'t H,
    corners: &'t SymCorners,
    /// `right[m]`: move `m` as a cube; `left[m]`: its inverse.
    right: [Cube; Move::COUNT],
    left: [Cube; Move::COUNT],
    side: Side,
    /// `cut_moves[k][c][x]`: the moves `m` whose conjugate by symmetry `k` is `6 c + j` for a bit
    /// `j` of `x`, as a mask over moves: a mask over conjugated moves, six bits at a time, taken
    /// back to the moves of the cube ([`Engine::corner_cut`]).
    cut_moves: Box<[[[u32; 64]; 3]; 16]>,
    counters: SharedCounters,
}

impl<'t, H: Sym48Heuristic> Engine<'t, H> {
    pub(crate) fn new(heuristic: &'t H, corners: &'t SymCorners, side: Side) -> Engine<'t, H> {
        let (right, left) = move_cubes();
        let mut cut_moves = Box::new([[[0; 64]; 3]; 16]);
        for (k, tables) in cut_moves.iter_mut().enumerate() {
            for (m, &conj) in corners.conj_moves(k).iter().enumerate() {
                let (c, j) = (usize::from(conj) / 6, conj % 6);
                for (x, mask) in tables[c].iter_mut().enumerate() {
                    if x >> j & 1 == 1 {
                        *mask |= 1 << m;
                    }
                }
            }
        }
        Engine {
            heuristic,
            corners,
            right,
            left,
            side,
            cut_moves,
            counters: SharedCounters::default(),
        }
    }

    /// The largest of the corner distance and the heuristic of `cube` and of its inverse.
    pub(crate) fn root_bound(&self, cube: &Cube) -> usize {
        let corner = self.corners.get_cube(cube);
        let h = self.heuristic;
        usize::from(corner.max(h.value(cube)).max(h.value(&cube.inverse())))
    }

    pub(crate) fn into_counters(self) -> Counters {
        self.counters.into_inner()
    }

    /// The side a node with `budget` moves left expands.
    #[inline(always)]
    fn side(&self, masks: [u32; 2], h: [u8; 2], budget: u8) -> usize {
        match self.side {
            Side::FewerMoves => fewer_moves(masks, h, budget),
            Side::Position => POSITION,
            Side::Inverse => 1 - POSITION,
        }
    }

    /// The moves that the corners cut below `node` (`b` moves left): those whose child's corner
    /// distance, `node.corner + delta - 1`, exceeds `b - 1`. One mask from the node's row of move
    /// deltas, before any child is made: the deltas over `b - node.corner` as bits over the
    /// conjugated moves, taken back to the node's moves by the symmetry's tables.
    #[inline(always)]
    fn corner_cut(&self, node: &Node, b: u8) -> u32 {
        const LOW: u64 = 0x5_5555_5555;
        let d = self.corners.deltas(node.row as usize);
        // Bit 2 m' set where delta(m') > b - corner (deltas are 2 bits: 0 to 3).
        let over = match b.checked_sub(node.corner) {
            None => return ALL_MOVES,
            Some(0) => (d | d >> 1) & LOW,
            Some(1) => d >> 1 & LOW,
            Some(2) => d & d >> 1 & LOW,
            Some(_) => return 0,
        };
        let x = compact_even(over);
        let t = &self.cut_moves[usize::from(node.sym)];
        t[0][x & 63] | t[1][x >> 6 & 63] | t[2][x >> 12 & 63]
    }

    /// The reduced corner entry of `cube` and the symmetry that carries it there, its row of move
    /// deltas prefetched.
    #[inline(always)]
    fn locate(&self, cube: &Cube) -> (u32, u8) {
        let (perm, twist) = corner_coord(cube);
        let (row, sym) = self.corners.locate(perm, twist);
        self.corners.prefetch_deltas(row);
        (row as u32, sym as u8)
    }
}

impl<'t, H: Sym48Heuristic> Method for Engine<'t, H> {
    type Worker<'a>
        = Worker<'a, 't, H>
    where
        Self: 'a;

    fn lower_bound(&self, cube: &Cube) -> usize {
        self.root_bound(cube)
    }

    fn worker<'a>(shared: &'a Shared<'a, Self>, cube: &Cube) -> Worker<'a, 't, H> {
        Worker {
            shared,
            root: [*cube, cube.inverse()],
            moves: [0; 32],
            sides: [0; 32],
            depth: 0,
            poll: 0,
            prefix_rank: 0,
            want: 1,
            batches: Vec::new(),
            ancestors: vec![UNKNOWN; ANCESTORS],
            seen: HashSet::new(),
            solutions: Vec::new(),
            n_nodes: 0,
            counters: Counters::default(),
            abort: Abort::No,
        }
    }
}

/// A node: its two cubes (position, inverse), their heuristic values, its exact corner distance,
/// the moves allowed next on each side, the move that made it and on which side, and (when it
/// has at least two moves left) the side it expands and where that side's cube is in the reduced
/// corner database.
#[derive(Clone, Copy)]
struct Node {
    cubes: [Cube; 2],
    h: [u8; 2],
    corner: u8,
    masks: [u32; 2],
    m: u8,
    made_on: u8,
    side: u8,
    row: u32,
    sym: u8,
}

impl Node {
    const EMPTY: Node = Node {
        cubes: [Cube::SOLVED; 2],
        h: [0; 2],
        corner: 0,
        masks: [0; 2],
        m: 0,
        made_on: 0,
        side: 0,
        row: 0,
        sym: 0,
    };
}

/// [`Side::FewerMoves`]: the side with fewer allowed moves; on a tie the one whose other side's
/// value is tight (its half turns are already cut), then the position.
#[inline(always)]
fn fewer_moves(masks: [u32; 2], h: [u8; 2], budget: u8) -> usize {
    let (nx, ny) = (masks[0].count_ones(), masks[1].count_ones());
    if nx != ny {
        usize::from(ny < nx)
    } else {
        usize::from(h[1] != budget && h[0] == budget)
    }
}

/// Every move, as bits over move indexes.
const ALL_MOVES: u32 = (1 << Move::COUNT) - 1;

/// The even bits of `x` (bits 0, 2, ..., 34) packed into bits 0 to 17.
#[inline(always)]
fn compact_even(mut x: u64) -> usize {
    x = (x | x >> 1) & 0x3333_3333_3333_3333;
    x = (x | x >> 2) & 0x0F0F_0F0F_0F0F_0F0F;
    x = (x | x >> 4) & 0x00FF_00FF_00FF_00FF;
    x = (x | x >> 8) & 0x0000_FFFF_0000_FFFF;
    x = (x | x >> 16) & 0x0000_0000_FFFF_FFFF;
    x as usize
}

/// Bit `face` of a mask of faces, for move `m`.
#[inline(always)]
fn face_bit(m: usize) -> u32 {
    1 << (m / 3)
}

/// One thread's search state.
pub(crate) struct Worker<'a, 't, H: Sym48Heuristic> {
    shared: &'a Shared<'a, Engine<'t, H>>,
    /// The start position and its inverse.
    root: [Cube; 2],
    /// The path: move and side of each level.
    moves: [u8; 32],
    sides: [u8; 32],
    depth: usize,
    poll: u32,
    prefix_rank: usize,
    want: usize,
    /// Two batches per level (as many levels as the bound needs): `batches[level][par].kids[p]`
    /// are the children of node `p` of that batch's parents (level 0 holds the prefix's end's
    /// children, `p = 0`; a batch of level `l + 1` the grandchildren of a node whose children are
    /// in level `l`).
    batches: Vec<[Batch<H::Index>; 2]>,
    /// The lower bound (the corners' distance, the heuristic of the position and of its inverse)
    /// after each proper prefix of a prefix searched so far ([`ANCESTOR_AT`]), read once per
    /// worker: an ancestor over its budget cuts every prefix below it before its end is made (the
    /// first bounds of an easy position are mostly their 3,240 prefixes' ends, three table
    /// reads each).
    ancestors: Vec<u8>,
    /// The canonical solutions of the current prefix.
    seen: HashSet<Vec<Move>>,
    solutions: Vec<Vec<Move>>,
    n_nodes: u64,
    counters: Counters,
    abort: Abort,
}

impl<H: Sym48Heuristic> Drop for Worker<'_, '_, H> {
    fn drop(&mut self) {
        self.shared.method.counters.add(&self.counters);
    }
}

impl<H: Sym48Heuristic> PrefixWorker for Worker<'_, '_, H> {
    fn run_prefix(&mut self, prefix: &[u8], bound: usize, rank: usize, want: usize) {
        self.solutions.clear();
        self.seen.clear();
        self.abort = Abort::No;
        self.prefix_rank = rank;
        self.want = want;
        self.counters.prefixes += 1;
        let engine = self.shared.method;
        let mut cubes = self.root;
        let mut prev = NO_MOVE;
        // A prefix counts one node, its end, also when an ancestor cuts it before the end is made.
        self.n_nodes += 1;
        let mut key = 0;
        for (i, &m) in prefix.iter().enumerate() {
            debug_assert!(AFTER[prev] >> m & 1 == 1, "prefixes are canonical");
            let m = usize::from(m);
            cubes = [
                cubes[0].compose(&engine.right[m]),
                engine.left[m].compose(&cubes[1]),
            ];
            self.moves[i] = m as u8;
            self.sides[i] = POSITION as u8;
            prev = m;
            key = key * Move::COUNT + m;
            let depth = i + 1;
            if depth < prefix.len()
                && usize::from(self.ancestor(depth, key, &cubes)) + depth > bound
            {
                return;
            }
        }
        self.depth = prefix.len();
        let budget = bound - prefix.len();
        if budget == 0 {
            if cubes[0].is_solved() {
                self.record(None);
            }
            return;
        }
        let heuristic = engine.heuristic;
        let h = [heuristic.value(&cubes[0]), heuristic.value(&cubes[1])];
        self.counters.probes += 2;
        let corner = engine.corners.get_cube(&cubes[0]);
        if usize::from(h[0].max(h[1]).max(corner)) > budget {
            return;
        }
        let b = budget as u8;
        // Levels 0 to `b - 2` hold batches; made as the bounds reach them (a worker lives for one
        // bound, and most bounds of an easy position are short).
        let levels = budget.saturating_sub(1).max(1);
        if self.batches.len() < levels {
            self.batches.resize_with(levels, || [Batch::empty(); 2]);
        }
        let after_prefix = if self.shared.any_face_after_prefix && prev != NO_MOVE {
            AFTER[NO_MOVE] & !(0b111 << (prev / 3 * 3))
        } else {
            AFTER[prev]
        };
        let mut masks = [after_prefix, AFTER[NO_MOVE]];
        if h[1] == b {
            masks[0] &= QUARTER;
        }
        if h[0] == b {
            masks[1] &= QUARTER;
        }
        let mut node = Node {
            cubes,
            h,
            corner,
            masks,
            ..Node::EMPTY
        };
        if b == 1 {
            self.leaves(&cubes[POSITION], masks[0] & masks[1]);
            return;
        }
        let side = engine.side(masks, h, b);
        (node.row, node.sym) = engine.locate(&cubes[side]);
        node.side = side as u8;
        let engine = self.shared.method;
        let mut top = [Node::EMPTY; 18];
        top[0] = node;
        let batch = &mut self.batches[0][0];
        begin(engine, &top, 1, b, batch, &mut self.counters);
        middle(engine, &top, b, batch, &mut self.counters);
        let made = end(engine, &top, b, batch, &mut self.counters);
        self.count(made);
        if self.batches[0][0].alive[0] != 0 {
            if b >= 3 {
                self.stage(Stage::Begin, 0, 0, 0, 0, b - 1);
                self.stage(Stage::Middle, 0, 0, 0, 0, b - 1);
            }
            self.search(0, 0, 0, b, 0);
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

impl<H: Sym48Heuristic> Worker<'_, '_, H> {
    /// Records the path, ended by the position-side move `leaf` if any: the position side's
    /// moves, then the inverse side's inverted in reverse order, made canonical; a duplicate of
    /// a solution of this prefix is dropped.
    fn record(&mut self, leaf: Option<usize>) {
        let path = self.moves[..self.depth].iter().zip(&self.sides);
        let mut moves: Vec<Move> = path
            .clone()
            .filter(|&(_, &side)| usize::from(side) == POSITION)
            .map(|(&m, _)| Move::from_index(usize::from(m)))
            .collect();
        moves.extend(leaf.map(Move::from_index));
        moves.extend(
            path.rev()
                .filter(|&(_, &side)| usize::from(side) != POSITION)
                .map(|(&m, _)| Move::from_index(usize::from(m)).inverse()),
        );
        // Optimal sequences do not cancel: this only reorders commuting opposite faces.
        let moves = simplify(&moves);
        if self.seen.insert(moves.clone()) {
            self.solutions.push(moves);
            if self.solutions.len() >= self.want {
                self.abort = Abort::Enough;
            }
        }
    }

    /// The lower bound of the ancestor `key` of `depth` moves (its moves in base 18), whose
    /// position and inverse are `cubes`: read once, then remembered.
    fn ancestor(&mut self, depth: usize, key: usize, cubes: &[Cube; 2]) -> u8 {
        let slot = &mut self.ancestors[ANCESTOR_AT[depth] + key];
        if *slot == UNKNOWN {
            let engine = self.shared.method;
            let h = engine.heuristic;
            *slot = engine
                .corners
                .get_cube(&cubes[0])
                .max(h.value(&cubes[0]))
                .max(h.value(&cubes[1]));
            self.counters.probes += 2;
        }
        *slot
    }

    /// Counts `n` nodes and polls the stop flag, the clock and the cut-off now and then.
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

    /// A node with one move left, `x` its position side's cube: the two sides meet, `x·m` solved
    /// for a move `m` of `moves` (those allowed on both sides).
    fn leaves(&mut self, x: &Cube, moves: u32) {
        let right = &self.shared.method.right;
        self.count(moves.count_ones());
        let mut mask = moves;
        while mask != 0 {
            let m = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            if x.compose(&right[m]).is_solved() {
                self.record(Some(m));
            }
        }
    }

    /// Runs `stage` of the batch, in `batches[level + 1][out]`, of the grandchildren below the
    /// node whose children are `batches[level][par].kids[p]` (`b` moves left each).
    #[inline(always)]
    fn stage(&mut self, stage: Stage, level: usize, par: usize, p: usize, out: usize, b: u8) {
        let engine = self.shared.method;
        let (upper, lower) = self.batches.split_at_mut(level + 1);
        let (parents, batch) = (&upper[level][par], &mut lower[0][out]);
        let kids = &parents.kids[p];
        match stage {
            Stage::Begin => begin(engine, kids, parents.alive[p], b, batch, &mut self.counters),
            Stage::Middle => middle(engine, kids, b, batch, &mut self.counters),
        }
    }

    /// Searches below node `p` of `batches[level][par]` (`budget >= 2` moves left), whose
    /// children are made; with `budget >= 3`, the batch of its grandchildren, in
    /// `batches[level + 1][gpar]`, has been begun and its probe 2 prefetched: it is ended, then
    /// each child is searched in move order, the next child's batch begun before this one is
    /// searched.
    fn search(&mut self, level: usize, par: usize, p: usize, budget: u8, gpar: usize) {
        let live = self.batches[level][par].alive[p];
        // The children to search: at budget 2 each one's leaves, else those with grandchildren
        // left once their batch is ended.
        let mut todo = live;
        if budget >= 3 {
            let engine = self.shared.method;
            let (upper, lower) = self.batches.split_at_mut(level + 1);
            let (kids, batch) = (&upper[level][par].kids[p], &mut lower[0][gpar]);
            let made = end(engine, kids, budget - 1, batch, &mut self.counters);
            todo = 0;
            for_each(live, |i| todo |= u32::from(batch.alive[i] != 0) << i);
            self.count(made);
        }
        let deeper = budget >= 4;
        if deeper && todo != 0 {
            let first = todo.trailing_zeros() as usize;
            self.stage(Stage::Begin, level + 1, gpar, first, 0, budget - 2);
        }
        let mut next = 0;
        while todo != 0 && self.abort == Abort::No {
            let i = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let this = next;
            next ^= 1;
            if deeper {
                self.stage(Stage::Middle, level + 1, gpar, i, this, budget - 2);
                if todo != 0 {
                    let n = todo.trailing_zeros() as usize;
                    self.stage(Stage::Begin, level + 1, gpar, n, next, budget - 2);
                }
            }
            let kid = &self.batches[level][par].kids[p][i];
            let (cube, moves) = (kid.cubes[POSITION], kid.masks[0] & kid.masks[1]);
            self.moves[self.depth] = kid.m;
            self.sides[self.depth] = kid.made_on;
            self.depth += 1;
            if budget == 2 {
                self.leaves(&cube, moves);
            } else {
                self.search(level + 1, gpar, i, budget - 1, this);
            }
            self.depth -= 1;
        }
    }
}

/// The first two stages of a batch (the third, [`end`], is run by the search of its parent).
#[derive(Clone, Copy)]
enum Stage {
    Begin,
    Middle,
}

/// The children of the live parents of one node in the making, in three stages ([`begin`],
/// [`middle`], [`end`]): `kids[p]` the children of parent `p` of `live`, `alive[p]` those that
/// survive, `families[p]` their pending probes.
#[derive(Clone, Copy)]
struct Batch<I> {
    kids: [[Node; 18]; 18],
    alive: [u32; 18],
    families: [Family<I>; 18],
    live: u32,
}

impl<I: Copy + Default> Batch<I> {
    fn empty() -> Batch<I> {
        Batch {
            kids: [[Node::EMPTY; 18]; 18],
            alive: [0; 18],
            families: [Family::empty(); 18],
            live: 0,
        }
    }
}

/// The children of one node in the making: the index of each child's pending probe, which
/// children are alive, which faces are cut, which children wait for probe 2, whether the node was
/// abandoned (BPMX). The children's cubes and values go straight into their nodes.
#[derive(Clone, Copy)]
struct Family<I> {
    index: [I; 18],
    alive: u32,
    cut_faces: u32,
    probe: u32,
    abandoned: bool,
}

impl<I: Copy + Default> Family<I> {
    fn empty() -> Family<I> {
        Family {
            index: [I::default(); 18],
            alive: 0,
            cut_faces: 0,
            probe: 0,
            abandoned: false,
        }
    }
}

/// The first stage of a batch: the children of every live parent (`b >= 2` moves left each) made,
/// the corners' cut applied, probe 1 computed and prefetched ([`make`]).
#[inline(always)]
fn begin<H: Sym48Heuristic>(
    engine: &Engine<'_, H>,
    parents: &[Node; 18],
    live: u32,
    b: u8,
    batch: &mut Batch<H::Index>,
    counters: &mut Counters,
) {
    batch.live = live;
    for_each(live, |p| {
        make(
            engine,
            &parents[p],
            b,
            &mut batch.kids[p],
            &mut batch.families[p],
            counters,
        );
    });
}

/// The second stage: probe 1 read for all, then probe 2 computed and prefetched for all.
#[inline(always)]
fn middle<H: Sym48Heuristic>(
    engine: &Engine<'_, H>,
    parents: &[Node; 18],
    b: u8,
    batch: &mut Batch<H::Index>,
    counters: &mut Counters,
) {
    read_all(engine, parents, b, batch, counters, 1);
    let (kids, families) = (&mut batch.kids, &mut batch.families);
    for_each(batch.live, |p| {
        fetch_other(engine, &parents[p], b, &mut kids[p], &mut families[p]);
    });
}

/// The last stage: probe 2 read for all, then the survivors of each parent in `alive[p]` (none
/// when the parent is abandoned). The children generated (cut by the corners or not: every move
/// of each parent's expanded side).
#[inline(always)]
fn end<H: Sym48Heuristic>(
    engine: &Engine<'_, H>,
    parents: &[Node; 18],
    b: u8,
    batch: &mut Batch<H::Index>,
    counters: &mut Counters,
) -> u32 {
    read_all(engine, parents, b, batch, counters, 2);
    let (kids, families) = (&mut batch.kids, &mut batch.families);
    let mut made = 0;
    for_each(batch.live, |p| {
        let parent = &parents[p];
        made += parent.masks[usize::from(parent.side)].count_ones();
        batch.alive[p] = finish(engine, parent, b, &mut kids[p], &families[p], counters);
    });
    made
}

/// Reads probe `which` of every live parent's children ([`read`]).
#[inline(always)]
fn read_all<H: Sym48Heuristic>(
    engine: &Engine<'_, H>,
    parents: &[Node; 18],
    b: u8,
    batch: &mut Batch<H::Index>,
    counters: &mut Counters,
    which: u8,
) {
    let (kids, families) = (&mut batch.kids, &mut batch.families);
    for_each(batch.live, |p| {
        read(
            engine,
            &parents[p],
            b,
            &mut kids[p],
            &mut families[p],
            counters,
            which,
        );
    });
}

/// Calls `f` with the index of every set bit of `bits`, lowest first.
#[inline(always)]
fn for_each(mut bits: u32, mut f: impl FnMut(usize)) {
    while bits != 0 {
        f(bits.trailing_zeros() as usize);
        bits &= bits - 1;
    }
}

/// The children of `node` that its corners keep, each with its exact corner distance and its
/// expanded side's cube, probe 1 computed and its table line prefetched as soon as it is known: on
/// the machine measured (2026-12-06, docs/perf-log/optimal-sym48.md) this beat a separate tight
/// loop of prefetches over all the families by 8 % on 1 and on 2 threads (on the machine of
/// 2026-12-02 it lost).
/// The children the corners cut are known from one mask ([`Engine::corner_cut`]) before any
/// is made: no cube composed, no entry written for them.
#[inline(always)]
fn make<H: Sym48Heuristic>(
    engine: &Engine<'_, H>,
    node: &Node,
    b: u8,
    kids: &mut [Node; 18],
    family: &mut Family<H::Index>,
    counters: &mut Counters,
) {
    let heuristic = engine.heuristic;
    let a = usize::from(node.side);
    let moves = node.masks[a];
    let deltas = engine.corners.deltas(node.row as usize);
    let conj = engine.corners.conj_moves(usize::from(node.sym));
    let cut = moves & engine.corner_cut(node, b);
    counters.corner_prunes += u64::from(cut.count_ones());
    let mut n = 0;
    for_each(moves & !cut, |m| {
        let delta = ((deltas >> (2 * conj[m])) & 3) as u8;
        let corner = (node.corner + delta).saturating_sub(1);
        debug_assert!(
            corner < b,
            "the corner cut keeps only children within the budget"
        );
        let kid = &mut kids[n];
        kid.m = m as u8;
        kid.made_on = a as u8;
        kid.corner = corner;
        kid.cubes[a] = node.cubes[a].compose(&engine.right[m]);
        family.index[n] = heuristic.index(&kid.cubes[a]);
        heuristic.prefetch(family.index[n]);
        n += 1;
    });
    family.alive = (1 << n) - 1;
    family.cut_faces = 0;
    family.probe = 0;
    family.abandoned = false;
}

/// Reads probe `which` (1: the expanded side's cube of every live child; 2: the other side's, of
/// the children waiting for it): a value over the child's budget prunes it, one at least 2 over
/// cuts its face, one at least 3 over abandons the node.
#[inline(always)]
fn read<H: Sym48Heuristic>(
    engine: &Engine<'_, H>,
    node: &Node,
    b: u8,
    kids: &mut [Node; 18],
    family: &mut Family<H::Index>,
    counters: &mut Counters,
    which: u8,
) {
    if family.abandoned {
        return;
    }
    let side = usize::from(node.side) ^ usize::from(which == 2);
    let todo = if which == 1 {
        family.alive
    } else {
        family.probe
    };
    let mut bits = todo;
    while bits != 0 {
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let v = engine.heuristic.get(family.index[i]);
        counters.probes += 1;
        if v >= b + 2 {
            counters.bpmx_returns += 1;
            family.abandoned = true;
            return;
        }
        // Without branches (whether a child survives is a coin toss for the predictor): the value
        // is written even for a child it prunes, which is never read again.
        family.cut_faces |= face_bit(usize::from(kids[i].m)) * u32::from(v > b);
        family.alive &= !(u32::from(v >= b) << i);
        kids[i].h[side] = v;
    }
}

/// The other side's cube of every live child whose face is not cut; its value is the parent's
/// after a half turn, else probe 2 is computed and prefetched.
#[inline(always)]
fn fetch_other<H: Sym48Heuristic>(
    engine: &Engine<'_, H>,
    node: &Node,
    b: u8,
    kids: &mut [Node; 18],
    family: &mut Family<H::Index>,
) {
    if family.abandoned {
        return;
    }
    let o = 1 - usize::from(node.side);
    for_each(family.alive, |i| {
        let kid = &mut kids[i];
        let m = usize::from(kid.m);
        if family.cut_faces & face_bit(m) != 0 {
            return;
        }
        kid.cubes[o] = engine.left[m].compose(&node.cubes[o]);
        if Move::from_index(m).is_half_turn() {
            kid.h[o] = node.h[o];
            if kid.h[o] > b - 1 {
                family.alive &= !(1 << i);
            }
        } else {
            family.index[i] = engine.heuristic.index(&kid.cubes[o]);
            engine.heuristic.prefetch(family.index[i]);
            family.probe |= 1 << i;
        }
    });
}

/// The survivors of a family: faces cut, then each child's allowed moves (the quarter-turn
/// rule), and, with at least two moves left, its side and corner row (prefetched).
#[inline(always)]
fn finish<H: Sym48Heuristic>(
    engine: &Engine<'_, H>,
    node: &Node,
    b: u8,
    kids: &mut [Node; 18],
    family: &Family<H::Index>,
    counters: &mut Counters,
) -> u32 {
    if family.abandoned {
        return 0;
    }
    let a = usize::from(node.side);
    let o = 1 - a;
    let cb = b - 1;
    let mut alive = family.alive;
    for_each(family.alive, |i| {
        let kid = &mut kids[i];
        let m = usize::from(kid.m);
        if family.cut_faces & face_bit(m) != 0 {
            counters.face_prunes += 1;
            alive &= !(1 << i);
            return;
        }
        kid.masks[a] = AFTER[m];
        kid.masks[o] = node.masks[o];
        if kid.h[o] == cb {
            kid.masks[a] &= QUARTER;
        }
        if kid.h[a] == cb {
            kid.masks[o] &= QUARTER;
        }
        if cb >= 2 {
            let side = engine.side(kid.masks, kid.h, cb);
            kid.side = side as u8;
            (kid.row, kid.sym) = engine.locate(&kid.cubes[side]);
        }
    });
    alive
}
