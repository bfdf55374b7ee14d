//! The depth-first search under one bound, from one prefix: IDA*'s inner loop.
//!
//! A node keeps, per lookup slot ([`heuristic`](super::heuristic)), either the exact table value or
//! an upper bound on it. The pattern databases are consistent (an entry changes by at most one per
//! move), so a child's entry is at most its parent's plus one: a lookup that cannot exceed the
//! child's budget cannot prune, and is skipped (the child keeps the bound `parent + 1`). The slots
//! whose parent value equals the budget are looked up first (they prune unless the move brings the
//! projection closer), then those one below it.
//!
//! Children are expanded together, slot by slot, so that the table reads of siblings are in
//! flight together: the entry of the first slot is computed and prefetched for every child, then
//! read (most children are pruned there); a child that survives a slot at the end of a chunk
//! computes and prefetches the entries of its next [`PREFETCH_CHUNK`] slots, read in the next rounds
//! after its siblings' work. Only the views a slot needs are moved before the lookups; survivors
//! move the rest. Survivors are then searched in move order, so the order of solutions is the order
//! of canonical move sequences whatever the lookups skipped. Nothing is allocated per node: each
//! level has its own preallocated buffer of children.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use cube_core::{Cube, Move};

use super::heuristic::{MAX_PAIRS, MAX_SLOTS, Pairs, Tables, ViewMoves};
use crate::Stop;
use crate::cancel::Clock;
use crate::search::AFTER;

/// How often (in nodes) a worker polls the stop flag, the clock and the cut-off.
const POLL_INTERVAL: u32 = 1 << 14;

/// How many slots' entries a child prefetches at once after its first slot.
const PREFETCH_CHUNK: usize = 4;

/// The longest search: every position is solved in 20 moves (God's number).
pub(crate) const MAX_DEPTH: usize = 20;

/// What the workers of one bound share.
pub(crate) struct Shared<'a> {
    pub(crate) tables: &'a Tables<'a>,
    pub(crate) views: &'a ViewMoves,
    pub(crate) stop: &'a Stop,
    pub(crate) clock: &'a Clock,
    /// The two-phase solver has a solution of this bound's length: stop.
    pub(crate) upper_found: &'a AtomicBool,
    /// Prefixes after this index cannot contribute to the wanted solutions.
    pub(crate) cutoff: AtomicUsize,
    /// The stop flag was raised or the time budget ran out.
    pub(crate) halted: AtomicBool,
}

/// A node: its cubes and, per slot, the exact value or an upper bound.
#[derive(Clone, Copy)]
pub(crate) struct Node {
    pub(crate) pairs: Pairs,
    pub(crate) h: [u8; MAX_SLOTS],
    /// The entry of the position in the reduced corner database, and the symmetry that carries
    /// it there ([`SymCorners::locate`](cube_tables::pdb::SymCorners::locate)).
    pub(crate) corner: u32,
    pub(crate) corner_sym: u8,
}

impl Node {
    const EMPTY: Node = Node {
        pairs: Child::EMPTY.pairs,
        h: [0; MAX_SLOTS],
        corner: 0,
        corner_sym: 0,
    };
}

/// Why a prefix search ended early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Abort {
    /// It ran to the end.
    No,
    /// It found as many solutions as wanted.
    Enough,
    /// Later prefixes were no longer needed.
    Cutoff,
    /// Stop flag or time budget.
    Halted,
}

/// One thread's search state.
pub(crate) struct Worker<'a> {
    shared: &'a Shared<'a>,
    path: [u8; 32],
    depth: usize,
    poll: u32,
    prefix_index: usize,
    want: usize,
    /// The node at each level below the prefix, and the children being made at each level.
    stack: Vec<Node>,
    children: Vec<[Child; 18]>,
    pub(crate) nodes: u64,
    pub(crate) solutions: Vec<Vec<Move>>,
    pub(crate) abort: Abort,
}

impl<'a> Worker<'a> {
    pub(crate) fn new(shared: &'a Shared<'a>) -> Self {
        Worker {
            shared,
            path: [0; 32],
            depth: 0,
            poll: 0,
            prefix_index: 0,
            want: 1,
            stack: vec![Node::EMPTY; MAX_DEPTH + 1],
            children: vec![[Child::EMPTY; 18]; MAX_DEPTH + 1],
            nodes: 0,
            solutions: Vec::new(),
            abort: Abort::No,
        }
    }

    /// Searches every canonical continuation of `prefix` (applied to `root`) of total length
    /// `bound`, keeping up to `want` solutions in `self.solutions` (cleared first).
    pub(crate) fn run_prefix(
        &mut self,
        root: &Pairs,
        prefix: &[u8],
        bound: usize,
        index: usize,
        want: usize,
    ) {
        self.solutions.clear();
        self.abort = Abort::No;
        self.prefix_index = index;
        self.want = want;
        let tables = self.shared.tables;
        let mut pairs = *root;
        let mut prev = 18;
        for (i, &m) in prefix.iter().enumerate() {
            debug_assert!(AFTER[prev] >> m & 1 == 1, "prefixes are canonical");
            pairs = self
                .shared
                .views
                .apply(&pairs, usize::from(m), tables.n_pairs());
            self.path[i] = m;
            prev = usize::from(m);
        }
        self.depth = prefix.len();
        self.nodes += 1;
        let budget = bound - prefix.len();
        if budget == 0 {
            if pairs.x[0].is_solved() {
                self.record();
            }
            return;
        }
        let (h, max) = tables.evaluate(&pairs);
        if usize::from(max) > budget {
            return;
        }
        let (corner, corner_sym) = tables.corner_locate(&pairs);
        self.stack[0] = Node {
            pairs,
            h,
            corner: corner as u32,
            corner_sym: corner_sym as u8,
        };
        self.dfs(0, budget as u8, prev);
    }

    fn record(&mut self) {
        let moves = self.path[..self.depth]
            .iter()
            .map(|&m| Move::from_index(usize::from(m)))
            .collect();
        self.solutions.push(moves);
        if self.solutions.len() >= self.want {
            self.abort = Abort::Enough;
        }
    }

    #[inline]
    fn tick(&mut self, n: u32) {
        self.poll += n;
        if self.poll >= POLL_INTERVAL {
            self.poll = 0;
            let shared = self.shared;
            if shared.halted.load(Ordering::Relaxed)
                || shared.stop.is_stopped()
                || shared.upper_found.load(Ordering::Relaxed)
                || shared.clock.expired()
            {
                shared.halted.store(true, Ordering::Relaxed);
                self.abort = Abort::Halted;
            } else if shared.cutoff.load(Ordering::Relaxed) < self.prefix_index {
                self.abort = Abort::Cutoff;
            }
        }
    }

    /// Searches below the node at `level` of the stack, which has `budget >= 1` moves left and
    /// every slot at most `budget`.
    fn dfs(&mut self, level: usize, budget: u8, prev: usize) {
        let views = self.shared.views;
        let tables = self.shared.tables;
        let moves = AFTER[prev];
        let n_children = moves.count_ones();
        self.nodes += u64::from(n_children);
        self.tick(n_children);
        if budget == 1 {
            // The child must be solved: no lookups, one composition each.
            let x = self.stack[level].pairs.x[0];
            let mut mask = moves;
            while mask != 0 {
                let m = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                if x.compose(&views.right(0, m)).is_solved() {
                    self.path[self.depth] = m as u8;
                    self.depth += 1;
                    self.record();
                    self.depth -= 1;
                }
            }
            return;
        }
        let child_budget = budget - 1;
        let n_pairs = tables.n_pairs();
        let node = &self.stack[level];
        let children = &mut self.children[level];
        // The slots whose child value could exceed the child's budget, most likely to prune
        // first: those at the budget (they prune unless the move brings the projection closer),
        // then those one below it.
        let mut order = [0u8; MAX_SLOTS];
        let mut n_order = 0;
        for target in [budget, child_budget] {
            for s in 1..tables.n_slots() {
                if node.h[s] == target {
                    order[n_order] = s as u8;
                    n_order += 1;
                }
            }
        }
        // The corner distance of every child from the node's row of move deltas: the children the
        // corners prune are never made.
        let corners = tables.corners();
        let deltas = corners.deltas(node.corner as usize);
        let conj = corners.conj_moves(usize::from(node.corner_sym));
        let mut n = 0;
        let mut mask = moves;
        while mask != 0 {
            let m = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            let delta = ((deltas >> (2 * conj[usize::from(m)])) & 3) as u8;
            let corner = (node.h[0] + delta).saturating_sub(1);
            if corner > child_budget {
                continue;
            }
            let child = &mut children[n];
            child.m = m;
            child.fresh = 0;
            for s in 1..tables.n_slots() {
                child.h[s] = (node.h[s] + 1).min(15);
            }
            child.h[0] = corner;
            n += 1;
        }
        if n == 0 {
            return;
        }
        let mut alive: u32 = (1 << n) - 1;
        // Moves the cubes of `child` in `bits` (see `Tables::reads`) that are not moved yet.
        let compose = |child: &mut Child, bits: u32| {
            let m = usize::from(child.m);
            let mut todo = bits & !child.fresh;
            child.fresh |= todo;
            while todo != 0 {
                let bit = todo.trailing_zeros() as usize;
                todo &= todo - 1;
                if bit < 8 {
                    child.pairs.x[bit] = node.pairs.x[bit].compose(&views.right(bit, m));
                } else {
                    let p = bit - 8;
                    child.pairs.y[p] = views.left(p, m).compose(&node.pairs.y[p]);
                }
            }
        };
        // The entries of the first slot are prefetched for all children, then read. A child
        // that survives a slot `r` of a chunk's end (the first slot, then every
        // `PREFETCH_CHUNK`-th) prefetches the entries of its next chunk of slots at once, read in
        // the next rounds after its siblings' work: few wasted index computations for children
        // that are pruned, and table reads in flight together.
        let fetch = |child: &mut Child, from: usize, to: usize| {
            for &t in &order[from..to] {
                let t = usize::from(t);
                compose(child, tables.reads(t));
                let index = tables.index(&child.pairs, t);
                child.index[t] = index;
                tables.prefetch(t, index);
            }
        };
        if n_order > 0 {
            for child in &mut children[..n] {
                fetch(child, 0, 1);
            }
        }
        // Every live child has fetched the slots `order[..fetched]`.
        let mut fetched = 1;
        for (r, &s) in order[..n_order].iter().enumerate() {
            let s = usize::from(s);
            // The survivors of the last fetched slot fetch the next chunk.
            let refill = r + 1 == fetched && fetched < n_order;
            let next_to = (fetched + PREFETCH_CHUNK).min(n_order);
            let mut live = alive;
            while live != 0 {
                let i = live.trailing_zeros() as usize;
                live &= live - 1;
                let child = &mut children[i];
                let value = tables.get(s, child.index[s]);
                if value > child_budget {
                    alive &= !(1 << i);
                } else {
                    child.h[s] = value;
                    if refill {
                        fetch(child, fetched, next_to);
                    }
                }
            }
            if refill {
                fetched = next_to;
            }
            if alive == 0 {
                break;
            }
        }
        // The survivors' other cubes (a child with one move left only needs its position).
        let all_cubes = if child_budget == 1 {
            1
        } else {
            ((1u32 << n_pairs) - 1) * 0x101
        };
        let mut live = alive;
        while live != 0 {
            let i = live.trailing_zeros() as usize;
            live &= live - 1;
            let child = &mut children[i];
            compose(child, all_cubes);
            if child_budget >= 2 {
                let (corner, corner_sym) = tables.corner_locate(&child.pairs);
                corners.prefetch_deltas(corner);
                child.corner = corner as u32;
                child.corner_sym = corner_sym as u8;
            }
        }
        // Recurse into the survivors in move order.
        while alive != 0 && self.abort == Abort::No {
            let i = alive.trailing_zeros() as usize;
            alive &= alive - 1;
            let child = &self.children[level][i];
            let m = usize::from(child.m);
            self.stack[level + 1] = Node {
                pairs: child.pairs,
                h: child.h,
                corner: child.corner,
                corner_sym: child.corner_sym,
            };
            self.path[self.depth] = m as u8;
            self.depth += 1;
            self.dfs(level + 1, child_budget, m);
            self.depth -= 1;
        }
    }
}

/// A child in the making.
#[derive(Clone, Copy)]
struct Child {
    pairs: Pairs,
    h: [u8; MAX_SLOTS],
    index: [usize; MAX_SLOTS],
    m: u8,
    /// The cubes already moved (bits as in `Tables::reads`).
    fresh: u32,
    corner: u32,
    corner_sym: u8,
}

impl Child {
    const EMPTY: Child = Child {
        pairs: Pairs {
            x: [Cube::SOLVED; MAX_PAIRS],
            y: [Cube::SOLVED; MAX_PAIRS],
        },
        h: [0; MAX_SLOTS],
        index: [0; MAX_SLOTS],
        m: 0,
        fresh: 0,
        corner: 0,
        corner_sym: 0,
    };
}
