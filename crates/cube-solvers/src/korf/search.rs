//! The depth-first search under one bound, from one prefix: IDA*'s inner loop.
//!
//! A node keeps, per lookup slot ([`heuristic`](super::heuristic)), either the exact table value or
//! an upper bound on it. The pattern databases are consistent (an entry changes by at most one per
//! move), so a child's entry is at most its parent's plus one: a lookup that cannot exceed the
//! child's budget cannot prune, and is skipped (the child keeps the bound `parent + 1`). The
//! corner slot is exact for every child: it comes from the node's row of move deltas in the
//! reduced corner database, so the children the corners prune are never made. The edge slots
//! whose parent value equals the budget are looked up first (they prune unless the move brings
//! the projection closer), then those one below it.
//!
//! The children of *all* the surviving children of a node (its grandchildren) are looked up
//! together, in lockstep rounds, before any child is searched, so that many table reads are in
//! flight at once and their latency is hidden behind other work: each grandchild's first edge
//! entry is computed and prefetched when its family is made ([`Family::make`]); each round reads
//! one slot of every live grandchild; a grandchild that survives a slot at the end of a chunk
//! computes and prefetches the entries of its next [`PREFETCH_CHUNK`] slots, read in later rounds.
//! Then each child is searched in move order, with its own children already known, so the order
//! of solutions is the order of canonical move sequences whatever the lookups skipped. Nothing is
//! allocated per node: each level has its own preallocated nodes and families.

use cube_core::{Cube, Move};

use super::heuristic::{MAX_SLOTS, Pairs, Tables, ViewMoves};
use crate::optimal::{Abort, MAX_DEPTH, Shared};
use crate::search::AFTER;

/// How often (in nodes) a worker polls the stop flag, the clock and the cut-off.
const POLL_INTERVAL: u32 = 1 << 14;

/// How many slots' entries a child prefetches at once after its first slot.
const PREFETCH_CHUNK: usize = 4;

/// Korf's lookups: the tables and the views' moves.
pub(crate) struct Lookups<'a> {
    pub(crate) tables: &'a Tables<'a>,
    pub(crate) views: &'a ViewMoves,
}

/// A node being searched: its cubes, per slot the exact value or an upper bound, and where its
/// position is in the reduced corner database.
#[derive(Clone, Copy)]
struct Node {
    pairs: Pairs,
    h: [u8; MAX_SLOTS],
    corner: u32,
    corner_sym: u8,
    m: u8,
}

impl Node {
    const EMPTY: Node = Node {
        pairs: Pairs::SOLVED,
        h: [0; MAX_SLOTS],
        corner: 0,
        corner_sym: 0,
        m: 0,
    };
}

/// A child in the making: its move, slot values and the entries it has computed.
#[derive(Clone, Copy)]
struct Child {
    m: u8,
    h: [u8; MAX_SLOTS],
    index: [usize; MAX_SLOTS],
}

impl Child {
    /// Computes and prefetches the entry of edge slot `t`, moving the one cube of `node` the
    /// slot reads.
    #[inline(always)]
    fn fetch(&mut self, tables: &Tables<'_>, views: &ViewMoves, node: &Node, t: usize) {
        let bit = tables.reads(t).trailing_zeros() as usize;
        let index = tables.edge_index(t, &node.pairs.moved(views, bit, usize::from(self.m)));
        self.index[t] = index;
        tables.prefetch(t, index);
    }
}

/// The children of one node, looked up slot by slot.
#[derive(Clone, Copy)]
struct Family {
    children: [Child; 18],
    n: usize,
    /// The children not pruned yet, as bits over `children[..n]`.
    alive: u32,
    order: SlotOrder,
    /// Every live child has fetched the slots `order[..fetched]`.
    fetched: usize,
}

impl Family {
    const EMPTY: Family = Family {
        children: [Child {
            m: 0,
            h: [0; MAX_SLOTS],
            index: [0; MAX_SLOTS],
        }; 18],
        n: 0,
        alive: 0,
        order: SlotOrder {
            slots: [0; MAX_SLOTS],
            len: 0,
        },
        fetched: 0,
    };

    /// The children of `node` (with `budget >= 2` moves left) that its corners do not prune,
    /// each with its exact corner distance and its first edge entry computed and prefetched.
    #[inline(always)]
    fn make(&mut self, tables: &Tables<'_>, views: &ViewMoves, node: &Node, budget: u8) {
        let child_budget = budget - 1;
        let corners = tables.corners();
        let deltas = corners.deltas(node.corner as usize);
        let conj = corners.conj_moves(usize::from(node.corner_sym));
        self.order = slot_order(tables, &node.h, budget);
        let first = self.order.first().map(|&t| usize::from(t));
        let mut n = 0;
        let mut mask = AFTER[usize::from(node.m)];
        while mask != 0 {
            let m = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let delta = ((deltas >> (2 * conj[m])) & 3) as u8;
            let corner = (node.h[0] + delta).saturating_sub(1);
            if corner > child_budget {
                continue;
            }
            let child = &mut self.children[n];
            child.m = m as u8;
            for s in 1..tables.n_slots() {
                child.h[s] = (node.h[s] + 1).min(15);
            }
            child.h[0] = corner;
            if let Some(t) = first {
                child.fetch(tables, views, node, t);
            }
            n += 1;
        }
        self.n = n;
        self.alive = (1u32 << n) - 1;
        self.fetched = 1;
    }

    /// Reads slot `order[r]` of every live child and prunes; the survivors of the last fetched
    /// slot fetch the next chunk. Whether the family has more slots to read.
    #[inline(always)]
    fn round(
        &mut self,
        tables: &Tables<'_>,
        views: &ViewMoves,
        node: &Node,
        r: usize,
        child_budget: u8,
    ) -> bool {
        let n_order = self.order.len;
        if r >= n_order || self.alive == 0 {
            return false;
        }
        let s = usize::from(self.order.slots[r]);
        let refill = r + 1 == self.fetched && self.fetched < n_order;
        let next_to = (self.fetched + PREFETCH_CHUNK).min(n_order);
        let mut live = self.alive;
        while live != 0 {
            let i = live.trailing_zeros() as usize;
            live &= live - 1;
            let child = &mut self.children[i];
            let value = tables.get(s, child.index[s]);
            if value > child_budget {
                self.alive &= !(1 << i);
            } else {
                child.h[s] = value;
                if refill {
                    for &t in &self.order.slots[self.fetched..next_to] {
                        child.fetch(tables, views, node, usize::from(t));
                    }
                }
            }
        }
        if refill {
            self.fetched = next_to;
        }
        r + 1 < n_order && self.alive != 0
    }
}

/// The slots whose child value could exceed the child's budget (`budget - 1`), most likely to
/// prune first: the edge slots at `budget` (they prune unless the move brings the projection
/// closer), then those one below it. The corners are not among them: their values come from the
/// node's row of move deltas.
#[inline(always)]
fn slot_order(tables: &Tables<'_>, h: &[u8; MAX_SLOTS], budget: u8) -> SlotOrder {
    let mut order = SlotOrder {
        slots: [0; MAX_SLOTS],
        len: 0,
    };
    for target in [budget, budget - 1] {
        for (s, &value) in h.iter().enumerate().take(tables.n_slots()).skip(1) {
            if value == target {
                order.slots[order.len] = s as u8;
                order.len += 1;
            }
        }
    }
    order
}

/// The slots a node looks up for its children, in order.
#[derive(Clone, Copy)]
struct SlotOrder {
    slots: [u8; MAX_SLOTS],
    len: usize,
}

impl std::ops::Deref for SlotOrder {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.slots[..self.len]
    }
}

/// One thread's search state.
pub(crate) struct Worker<'a> {
    shared: &'a Shared<'a, Lookups<'a>>,
    /// The start position's pairs.
    root: Pairs,
    path: [u8; 32],
    depth: usize,
    poll: u32,
    prefix_rank: usize,
    want: usize,
    /// `nodes[level][i]`: the `i`-th node of the level (child `i` of the node being searched
    /// one level up), and `families[level][i]` its children.
    nodes: Vec<[Node; 18]>,
    families: Vec<[Family; 18]>,
    pub(crate) n_nodes: u64,
    pub(crate) solutions: Vec<Vec<Move>>,
    pub(crate) abort: Abort,
}

impl<'a> Worker<'a> {
    /// A worker searching from `cube`.
    pub(crate) fn new(shared: &'a Shared<'a, Lookups<'a>>, cube: &Cube) -> Self {
        let lookups = shared.method;
        Worker {
            shared,
            root: lookups.views.pairs(cube, lookups.tables.n_pairs()),
            path: [0; 32],
            depth: 0,
            poll: 0,
            prefix_rank: 0,
            want: 1,
            nodes: vec![[Node::EMPTY; 18]; MAX_DEPTH + 2],
            families: vec![[Family::EMPTY; 18]; MAX_DEPTH + 2],
            n_nodes: 0,
            solutions: Vec::new(),
            abort: Abort::No,
        }
    }

    /// Searches every canonical continuation of `prefix` (applied to the start position) of
    /// total length `bound`, keeping up to `want` solutions in `self.solutions` (cleared first).
    pub(crate) fn run_prefix(&mut self, prefix: &[u8], bound: usize, rank: usize, want: usize) {
        self.solutions.clear();
        self.abort = Abort::No;
        self.prefix_rank = rank;
        self.want = want;
        let tables = self.shared.method.tables;
        let views = self.shared.method.views;
        let mut pairs = self.root;
        let mut prev = 18;
        for (i, &m) in prefix.iter().enumerate() {
            debug_assert!(AFTER[prev] >> m & 1 == 1, "prefixes are canonical");
            pairs = views.apply(&pairs, usize::from(m), tables.n_pairs());
            self.path[i] = m;
            prev = usize::from(m);
        }
        self.depth = prefix.len();
        self.n_nodes += 1;
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
        let node = Node {
            pairs,
            h,
            corner: corner as u32,
            corner_sym: corner_sym as u8,
            m: prev as u8,
        };
        self.nodes[0][0] = node;
        let budget = budget as u8;
        if budget == 1 {
            self.leaves(0, 0);
            return;
        }
        self.count(AFTER[prev].count_ones());
        let family = &mut self.families[0][0];
        family.make(tables, views, &node, budget);
        let mut r = 0;
        while family.round(tables, views, &node, r, budget - 1) {
            r += 1;
        }
        self.search(0, 0, budget);
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

    /// Node `i` of `level` has one move left: records its children that are solved.
    fn leaves(&mut self, level: usize, i: usize) {
        let views = self.shared.method.views;
        let node = &self.nodes[level][i];
        let x = node.pairs.x[0];
        let moves = AFTER[usize::from(node.m)];
        self.count(moves.count_ones());
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
    }

    /// Searches below node `i` of `level`, which has `budget >= 2` moves left and whose family
    /// has been looked up: its surviving children become the nodes of the next level, their
    /// families are looked up together, then each is searched in move order.
    fn search(&mut self, level: usize, i: usize, budget: u8) {
        let views = self.shared.method.views;
        let tables = self.shared.method.tables;
        let child_budget = budget - 1;
        let all_cubes = ((1u32 << tables.n_pairs()) - 1) * 0x101;
        let (upper, lower) = self.nodes.split_at_mut(level + 1);
        let node = &upper[level][i];
        let family = &self.families[level][i];
        let next = &mut lower[0];
        // The survivors' cubes, and the rows of corner deltas of those that look up their
        // children.
        let alive = family.alive;
        let mut live = alive;
        while live != 0 {
            let j = live.trailing_zeros() as usize;
            live &= live - 1;
            let child = &family.children[j];
            let m = usize::from(child.m);
            let out = &mut next[j];
            out.h = child.h;
            out.m = child.m;
            if child_budget == 1 {
                out.pairs.x[0] = node.pairs.moved(views, 0, m);
            } else {
                let mut todo = all_cubes;
                while todo != 0 {
                    let bit = todo.trailing_zeros() as usize;
                    todo &= todo - 1;
                    out.pairs.set(bit, node.pairs.moved(views, bit, m));
                }
                let (corner, corner_sym) = tables.corner_locate(&out.pairs);
                tables.corners().prefetch_deltas(corner);
                out.corner = corner as u32;
                out.corner_sym = corner_sym as u8;
            }
        }
        if child_budget >= 2 {
            // The grandchildren: every survivor's family made, then looked up in lockstep.
            let families = &mut self.families[level + 1];
            let mut live = alive;
            let mut made = 0u32;
            while live != 0 {
                let j = live.trailing_zeros() as usize;
                live &= live - 1;
                made += AFTER[usize::from(next[j].m)].count_ones();
                families[j].make(tables, views, &next[j], child_budget);
            }
            let mut r = 0;
            let mut pending = alive;
            while pending != 0 {
                let mut live = pending;
                while live != 0 {
                    let j = live.trailing_zeros() as usize;
                    live &= live - 1;
                    if !families[j].round(tables, views, &next[j], r, child_budget - 1) {
                        pending &= !(1 << j);
                    }
                }
                r += 1;
            }
            self.count(made);
        }
        // Search the survivors in move order.
        let mut live = alive;
        while live != 0 && self.abort == Abort::No {
            let j = live.trailing_zeros() as usize;
            live &= live - 1;
            self.path[self.depth] = self.nodes[level + 1][j].m;
            self.depth += 1;
            if child_budget == 1 {
                self.leaves(level + 1, j);
            } else if self.families[level + 1][j].alive != 0 {
                self.search(level + 1, j, child_budget);
            }
            self.depth -= 1;
        }
    }
}
