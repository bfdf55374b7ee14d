//! The depth-first search of one bound from one prefix, over position/inverse pairs.
//!
//! The children of a node are made in three passes so that their table reads overlap: every
//! child the corners keep computes its probe-1 index and prefetches it; then all probe-1 values
//! are read (and the face and BPMX rules applied); then the survivors that moved by a quarter turn
//! compute and prefetch probe 2, read in a last pass. Nothing is allocated per node: each level has
//! its own preallocated children.

use std::collections::HashSet;

use cube_core::{Cube, Move, simplify};
use cube_tables::pdb::SymCorners;

use super::{Counters, SharedCounters, Side, Sym48Heuristic, move_cubes};
use crate::korf::index::corner_coord;
use crate::korf::{Abort, MAX_DEPTH, Method, PrefixWorker, Shared};
use crate::search::{AFTER, NO_MOVE};

/// How often (in nodes) a worker polls the stop flag, the clock and the cut-off.
const POLL_INTERVAL: u32 = 1 << 14;

/// The quarter turns, as bits over move indexes (`U`, `U'`, `R`, `R'`, ...).
const QUARTER: u32 = 0x2DB6D;

/// The position side of a node.
const POSITION: usize = 0;

/// What the workers of a search share: the heuristic, the corners, the move cubes, the counters.
pub(crate) struct Engine<'t, H> {
    heuristic: &'t H,
    corners: &'t SymCorners,
    /// `right[m]`: move `m` as a cube; `left[m]`: its inverse.
    right: [Cube; Move::COUNT],
    left: [Cube; Move::COUNT],
    side: Side,
    counters: SharedCounters,
}

impl<'t, H: Sym48Heuristic> Engine<'t, H> {
    pub(crate) fn new(heuristic: &'t H, corners: &'t SymCorners, side: Side) -> Engine<'t, H> {
        let (right, left) = move_cubes();
        Engine {
            heuristic,
            corners,
            right,
            left,
            side,
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
            prefix_index: 0,
            want: 1,
            kids: vec![[Node::EMPTY; 18]; MAX_DEPTH + 2],
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
    prefix_index: usize,
    want: usize,
    /// `kids[level]`: the surviving children of the node being expanded at `level`.
    kids: Vec<[Node; 18]>,
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
    fn run_prefix(&mut self, prefix: &[u8], bound: usize, index: usize, want: usize) {
        self.solutions.clear();
        self.seen.clear();
        self.abort = Abort::No;
        self.prefix_index = index;
        self.want = want;
        let engine = self.shared.method;
        let mut cubes = self.root;
        let mut prev = NO_MOVE;
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
        }
        self.depth = prefix.len();
        self.n_nodes += 1;
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
        let mut masks = [AFTER[prev], AFTER[NO_MOVE]];
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
            self.leaves(&node);
            return;
        }
        let side = engine.side(masks, h, b);
        (node.row, node.sym) = engine.locate(&cubes[side]);
        node.side = side as u8;
        self.search(0, &node, b);
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

    /// Counts `n` nodes and polls the stop flag, the clock and the cut-off now and then.
    #[inline]
    fn count(&mut self, n: u32) {
        self.n_nodes += u64::from(n);
        self.poll += n;
        if self.poll >= POLL_INTERVAL {
            self.poll = 0;
            if let Some(abort) = self.shared.poll(self.prefix_index) {
                self.abort = abort;
            }
        }
    }

    /// A node with one move left: the two sides meet, `x·m` solved for a move allowed on both.
    fn leaves(&mut self, node: &Node) {
        let right = &self.shared.method.right;
        let moves = node.masks[0] & node.masks[1];
        self.count(moves.count_ones());
        let mut mask = moves;
        while mask != 0 {
            let m = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            if node.cubes[0].compose(&right[m]).is_solved() {
                self.record(Some(m));
            }
        }
    }

    /// Searches below `node`, which has `budget >= 2` moves left: its children that survive are
    /// made at `level`, then each is searched in move order.
    fn search(&mut self, level: usize, node: &Node, budget: u8) {
        let n = self.expand(level, node, budget);
        for j in 0..n {
            if self.abort != Abort::No {
                return;
            }
            let kid = self.kids[level][j];
            self.moves[self.depth] = kid.m;
            self.sides[self.depth] = kid.made_on;
            self.depth += 1;
            if budget == 2 {
                self.leaves(&kid);
            } else {
                self.search(level + 1, &kid, budget - 1);
            }
            self.depth -= 1;
        }
    }

    /// Makes the surviving children of `node` (`b >= 2` moves left) in `kids[level]`, in move
    /// order; their number (0 when the node is abandoned).
    #[inline(always)]
    fn expand(&mut self, level: usize, node: &Node, b: u8) -> usize {
        let engine = self.shared.method;
        let heuristic = engine.heuristic;
        let a = usize::from(node.side);
        let o = 1 - a;
        let cb = b - 1;
        let moves = node.masks[a];
        self.count(moves.count_ones());

        // Corners, then probe 1 of the survivors, prefetched.
        let deltas = engine.corners.deltas(node.row as usize);
        let conj = engine.corners.conj_moves(usize::from(node.sym));
        let mut ms = [0u8; 18];
        let mut corner = [0u8; 18];
        let mut cube_a = [Cube::SOLVED; 18];
        let mut index = [H::Index::default(); 18];
        let mut n = 0;
        let mut mask = moves;
        while mask != 0 {
            let m = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let delta = ((deltas >> (2 * conj[m])) & 3) as u8;
            let c = (node.corner + delta).saturating_sub(1);
            if c > cb {
                self.counters.corner_prunes += 1;
                continue;
            }
            ms[n] = m as u8;
            corner[n] = c;
            cube_a[n] = node.cubes[a].compose(&engine.right[m]);
            index[n] = heuristic.index(&cube_a[n]);
            heuristic.prefetch(index[n]);
            n += 1;
        }

        // Probe 1.
        let mut h_a = [0u8; 18];
        let mut alive = 0u32;
        let mut cut_faces = 0u32;
        for i in 0..n {
            let v = heuristic.get(index[i]);
            self.counters.probes += 1;
            if v > cb {
                if v >= b + 2 {
                    self.counters.bpmx_returns += 1;
                    return 0;
                }
                if v > b {
                    cut_faces |= face_bit(usize::from(ms[i]));
                }
            } else {
                h_a[i] = v;
                alive |= 1 << i;
            }
        }

        // The other side's cubes; probe 2 after quarter turns, prefetched, then read.
        let mut cube_o = [Cube::SOLVED; 18];
        let mut h_o = [0u8; 18];
        let mut probe = 0u32;
        let mut live = alive;
        while live != 0 {
            let i = live.trailing_zeros() as usize;
            live &= live - 1;
            let m = usize::from(ms[i]);
            if cut_faces & face_bit(m) != 0 {
                continue;
            }
            cube_o[i] = engine.left[m].compose(&node.cubes[o]);
            if Move::from_index(m).is_half_turn() {
                h_o[i] = node.h[o];
                if h_o[i] > cb {
                    alive &= !(1 << i);
                }
            } else {
                index[i] = heuristic.index(&cube_o[i]);
                heuristic.prefetch(index[i]);
                probe |= 1 << i;
            }
        }
        while probe != 0 {
            let i = probe.trailing_zeros() as usize;
            probe &= probe - 1;
            let v = heuristic.get(index[i]);
            self.counters.probes += 1;
            if v > cb {
                if v >= b + 2 {
                    self.counters.bpmx_returns += 1;
                    return 0;
                }
                if v > b {
                    cut_faces |= face_bit(usize::from(ms[i]));
                }
                alive &= !(1 << i);
            } else {
                h_o[i] = v;
            }
        }

        // The survivors, in move order.
        let mut k = 0;
        let mut live = alive;
        while live != 0 {
            let i = live.trailing_zeros() as usize;
            live &= live - 1;
            let m = usize::from(ms[i]);
            if cut_faces & face_bit(m) != 0 {
                self.counters.face_prunes += 1;
                continue;
            }
            let kid = &mut self.kids[level][k];
            kid.cubes[a] = cube_a[i];
            kid.cubes[o] = cube_o[i];
            kid.h[a] = h_a[i];
            kid.h[o] = h_o[i];
            kid.corner = corner[i];
            kid.masks[a] = AFTER[m];
            kid.masks[o] = node.masks[o];
            if h_o[i] == cb {
                kid.masks[a] &= QUARTER;
            }
            if h_a[i] == cb {
                kid.masks[o] &= QUARTER;
            }
            kid.m = m as u8;
            kid.made_on = a as u8;
            if cb >= 2 {
                let side = engine.side(kid.masks, kid.h, cb);
                kid.side = side as u8;
                (kid.row, kid.sym) = engine.locate(&kid.cubes[side]);
            }
            k += 1;
        }
        k
    }
}
