//! The depth-first search under one bound, from one prefix: IDA*'s inner loop.
//!
//! A node keeps, per lookup slot ([`heuristic`](super::heuristic)), either the exact table value or
//! an upper bound on it. The pattern databases are consistent (an entry changes by at most one per
//! move), so a child's entry is at most its parent's plus one: a lookup that cannot exceed the
//! child's budget cannot prune, and is skipped (the child keeps the bound `parent + 1`). The slots
//! whose parent value equals the budget are looked up first (they prune unless the move brings the
//! projection closer), then those one below it.
//!
//! Children are expanded in three batched rounds so that the table reads of all siblings are in
//! flight together: compute every child's first index and prefetch it; read those entries (most
//! children are pruned here) and compute and prefetch the other needed indexes of the survivors;
//! read those. Survivors are then searched in move order, so the order of solutions is the order
//! of canonical move sequences whatever the lookups skipped.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use cube_core::{Cube, Move};

use super::heuristic::{MAX_PAIRS, MAX_SLOTS, Pairs, Tables, ViewMoves};
use crate::cancel::Clock;
use crate::search::AFTER;
use crate::Stop;

/// How often (in nodes) a worker polls the stop flag, the clock and the cut-off.
const POLL_INTERVAL: u32 = 1 << 14;

/// The longest search: every position is solved in 20 moves (God's number).
pub(crate) const MAX_DEPTH: usize = 20;

/// What the workers of one bound share.
pub(crate) struct Shared<'a> {
    pub(crate) tables: &'a Tables<'a>,
    pub(crate) views: &'a ViewMoves,
    pub(crate) stop: &'a Stop,
    pub(crate) clock: &'a Clock,
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
}

impl Node {
    const EMPTY: Node = Node {
        pairs: Child::EMPTY.pairs,
        h: [0; MAX_SLOTS],
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

/// One thread's search state; `NP` views, with (`INV`) or without the inverse lookups.
pub(crate) struct Worker<'a, const NP: usize, const INV: bool> {
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

impl<'a, const NP: usize, const INV: bool> Worker<'a, NP, INV> {
    const N_SLOTS: usize = 1 + NP * if INV { 4 } else { 2 };

    pub(crate) fn new(shared: &'a Shared<'a>) -> Self {
        const { assert!(NP >= 1 && NP <= MAX_PAIRS) };
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

    /// The root node of `cube` with every slot exact.
    pub(crate) fn root(shared: &Shared<'_>, cube: &Cube) -> (Node, u8) {
        let pairs = shared.views.pairs(cube, NP);
        let (h, max) = shared.tables.evaluate(&pairs, Self::N_SLOTS, INV);
        (Node { pairs, h }, max)
    }

    /// Searches every canonical continuation of `prefix` (applied to `root`) of total length
    /// `bound`, keeping up to `want` solutions in `self.solutions` (cleared first).
    pub(crate) fn run_prefix(&mut self, root: &Node, prefix: &[u8], bound: usize, index: usize, want: usize) {
        self.solutions.clear();
        self.abort = Abort::No;
        self.prefix_index = index;
        self.want = want;
        let mut pairs = root.pairs;
        let mut prev = 18;
        for (i, &m) in prefix.iter().enumerate() {
            debug_assert!(AFTER[prev] >> m & 1 == 1, "prefixes are canonical");
            pairs = self.shared.views.apply(&pairs, usize::from(m), NP);
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
        let (h, max) = self.shared.tables.evaluate(&pairs, Self::N_SLOTS, INV);
        if usize::from(max) > budget {
            return;
        }
        self.stack[0] = Node { pairs, h };
        self.dfs(0, budget as u8, prev);
    }

    fn record(&mut self) {
        let moves = self.path[..self.depth].iter().map(|&m| Move::from_index(usize::from(m))).collect();
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
            if shared.halted.load(Ordering::Relaxed) || shared.stop.is_stopped() || shared.clock.expired() {
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
        let node = &self.stack[level];
        let children = &mut self.children[level];
        // Slots whose child value could exceed the child's budget, by likelihood of pruning.
        let mut hi = 0u32;
        let mut lo = 0u32;
        for s in 0..Self::N_SLOTS {
            if node.h[s] == budget {
                hi |= 1 << s;
            } else if node.h[s] == child_budget {
                lo |= 1 << s;
            }
        }
        let need = hi | lo;
        let first = if hi != 0 { hi.trailing_zeros() } else { lo.trailing_zeros() } as usize;
        let rest_hi = hi & !(1 << first);
        let rest_lo = lo & !(1 << first);
        let need_pairs = pair_mask::<NP, INV>(need);

        let mut n = 0;
        // Round 1: cubes of the needed views, first index, prefetch.
        let mut mask = moves;
        while mask != 0 {
            let m = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let child = &mut children[n];
            child.m = m as u8;
            for p in 0..NP {
                if need_pairs >> p & 1 == 1 {
                    child.pairs.x[p] = node.pairs.x[p].compose(&views.right(p, m));
                    child.pairs.y[p] = views.left(p, m).compose(&node.pairs.y[p]);
                }
            }
            if need != 0 {
                let index = tables.index(&child.pairs, first, INV);
                child.index[first] = index;
                tables.prefetch(first, index, INV);
            }
            n += 1;
        }
        // Round 2: first lookups; the survivors' other indexes, prefetched.
        let mut alive = 0u32;
        for (i, child) in children[..n].iter_mut().enumerate() {
            for s in 0..Self::N_SLOTS {
                child.h[s] = (node.h[s] + 1).min(15);
            }
            if need != 0 {
                let value = tables.get(first, child.index[first], INV);
                if value > child_budget {
                    continue;
                }
                child.h[first] = value;
                let mut rest = rest_hi | rest_lo;
                while rest != 0 {
                    let s = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    let index = tables.index(&child.pairs, s, INV);
                    child.index[s] = index;
                    tables.prefetch(s, index, INV);
                }
            }
            alive |= 1 << i;
        }
        // Round 3: the other lookups, most likely to prune first.
        if (rest_hi | rest_lo) != 0 {
            let mut survivors = alive;
            'child: while survivors != 0 {
                let i = survivors.trailing_zeros() as usize;
                survivors &= survivors - 1;
                let child = &mut children[i];
                for rest in [rest_hi, rest_lo] {
                    let mut rest = rest;
                    while rest != 0 {
                        let s = rest.trailing_zeros() as usize;
                        rest &= rest - 1;
                        let value = tables.get(s, child.index[s], INV);
                        if value > child_budget {
                            alive &= !(1 << i);
                            continue 'child;
                        }
                        child.h[s] = value;
                    }
                }
            }
        }
        // The survivors' other views.
        let mut survivors = alive;
        while survivors != 0 {
            let i = survivors.trailing_zeros() as usize;
            survivors &= survivors - 1;
            let child = &mut children[i];
            let m = usize::from(child.m);
            for p in 0..NP {
                if need_pairs >> p & 1 == 0 {
                    child.pairs.x[p] = node.pairs.x[p].compose(&views.right(p, m));
                    child.pairs.y[p] = views.left(p, m).compose(&node.pairs.y[p]);
                }
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
            };
            self.path[self.depth] = m as u8;
            self.depth += 1;
            self.dfs(level + 1, child_budget, m);
            self.depth -= 1;
        }
    }
}

/// The views whose cubes the slots in `slots` read.
#[inline(always)]
fn pair_mask<const NP: usize, const INV: bool>(slots: u32) -> u32 {
    let per_pair = if INV { 4 } else { 2 };
    let mut out = slots & 1;
    for p in 0..NP {
        let bits = ((1u32 << per_pair) - 1) << (1 + p * per_pair);
        if slots & bits != 0 {
            out |= 1 << p;
        }
    }
    out
}

/// A child in the making.
#[derive(Clone, Copy)]
struct Child {
    pairs: Pairs,
    h: [u8; MAX_SLOTS],
    index: [usize; MAX_SLOTS],
    m: u8,
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
    };
}
