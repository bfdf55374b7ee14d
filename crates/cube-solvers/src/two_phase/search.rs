//! The two-phase search: IDA* for phase 1 into G1 = <U, D, R2, L2, F2, B2>, then a depth-first
//! phase 2 inside G1, over six views of the position (itself and its inverse, each seen along
//! the three axes), as min2phase does (`src/Search.java`).
//!
//! Phase 1 prunes with the exact distance to G1 (with the large tables; the small ones have only
//! the projections), behind four symmetry-reduced lower bounds that
//! stay in the L2 cache and filter most moves before it is read (slice x twist, slice x flip,
//! twist x flip, and twist x flip of the position conjugated by y, whose flip is the edge
//! orientation relative to R/L), one at a time; a bound more than one over the moves left rules
//! out all three turns of that face. Outside the exhaustive passes it also follows
//! min2phase in three ways:
//!
//! - pre-moves: `P` then the position is searched too, for short sequences `P` that end the
//!   solution, which finds many more phase-1 paths of each total length (the largest single gain
//!   for 20 and 19 moves);
//! - phase 2 takes at most 12 moves, searched depth-first within the budget and then for shorter
//!   ones from the same phase-1 path, rather than deepening from its lower bound;
//! - phase 2 prunes with corner x slice and edge x slice permutations (in the L2 cache), then with
//!   corner x U/D-edge permutation (with the large tables: Kociemba's `corners_ud_edges` table, in main memory), which is
//!   nearly exact: it rules out at the start almost every phase 2 that cannot fit the budget, where
//!   the first two left about a hundred nodes to search for nothing;
//! - a phase-1 path that reaches G1 with fewer than 5 moves left is not extended.
//!
//! Rules that keep the search free of duplicates and wasted length:
//!
//! - every sequence is canonical ([`MoveSet::after`]), across the phase boundary too;
//! - the last move of phase 1 is a quarter turn of R, L, F or B: a phase-1 path that ends with a
//!   G1 move was already in G1 one move earlier, and is found that way (the pre-move next to
//!   phase 2 is such a quarter turn for the same reason);
//! - a phase-1 path may pass through G1 on the way (the optimal path of a short position can).

use std::time::Duration;

use cube_core::{Cube, Move, MoveSet, Symmetry};
use cube_tables::{Coord, CornerPerm, Flip, SlicePerm, Twist, UdEdgePerm, UdSlice};

use super::tables::TwoPhaseTables;
use crate::Stop;
use crate::cancel::Clock;
use crate::search::{AFTER, Collector, NO_MOVE};

/// How long the search looks for a first solution within the first bound before accepting one
/// move more (then twice as long for the next).
const FIRST_ESCALATION: Duration = Duration::from_millis(50);

/// The largest bound escalation reaches: 12 moves of phase 1 and 18 of phase 2.
const MAX_CAP: usize = 30;

/// The longest phase 2 the improving search tries (min2phase's `MAX_DEPTH2`): a phase-1 path
/// that needs more is rarely the way to a short solution, and a deep phase 2 that fails is
/// expensive. Exhaustive passes and escalated bounds past [`FULL_PHASE2_FROM`] allow 18.
const MAX_PHASE2: usize = 12;

/// The first-solution bound from which phase 2 may take its full 18 moves.
const FULL_PHASE2_FROM: usize = 23;

/// Phase-1 paths that reach G1 with fewer than this many moves left are not extended (min2phase
/// `Search.phase1`): leaving G1 and coming back within so few moves only repeats what the phase 2
/// from the first visit covers. Not applied in the exhaustive passes.
const G1_REENTRY_MIN: usize = 5;

/// Pre-moves (min2phase `Search.phase1PreMoves`): a solution `phase 1, phase 2, P` of a
/// position is a solution `phase 1, phase 2` of `P` then the position, so searching `P` then the
/// position for short sequences `P` finds more phase-1 paths of each total length, which is what
/// makes short solutions likely. At most this many pre-moves...
const MAX_PRE_MOVES: usize = 8;

/// ...and only while at least this many moves are left for phase 1 (min2phase
/// `MIN_P1LENGTH_PRE`).
const MIN_PHASE1_WITH_PRE: usize = 7;

/// All 18 moves as a mask.
const ALL_MOVES: u32 = (1 << 18) - 1;

/// Quarter turns of R, L, F and B: the moves that can end phase 1.
const QUARTER_RLFB: u32 = 1 << 3 | 1 << 5 | 1 << 6 | 1 << 8 | 1 << 12 | 1 << 14 | 1 << 15 | 1 << 17;

/// The moves of G1 in column order of the phase-2 move tables.
const G1_MOVES: [u8; 10] = [0, 1, 2, 4, 7, 9, 10, 11, 13, 16];

/// Phase-2 columns allowed after each move index (18: at the start).
const AFTER_G1: [u16; 19] = {
    let mut out = [0u16; 19];
    let mut prev = 0;
    while prev < 19 {
        let mut column = 0;
        while column < 10 {
            if AFTER[prev] >> G1_MOVES[column] & 1 == 1 {
                out[prev] |= 1 << column;
            }
            column += 1;
        }
        prev += 1;
    }
    out
};

/// The moves allowed first and last in a solution (all by default). A scrambler uses them to
/// keep a scramble from cancelling with padding around it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EndMoves {
    /// Moves the solution may start with.
    pub first: MoveSet,
    /// Moves the solution may end with.
    pub last: MoveSet,
}

impl Default for EndMoves {
    fn default() -> EndMoves {
        EndMoves {
            first: MoveSet::ALL,
            last: MoveSet::ALL,
        }
    }
}

/// One view of the position: conjugated by a rotation about the URF-DBL diagonal, maybe inverted.
#[derive(Clone, Debug)]
pub(crate) struct View {
    cube: Cube,
    coords: Phase1Coords,
    /// The phase-1 lower bound.
    pub(crate) bound: usize,
    /// The real move for each move index of the view's frame.
    to_real: [Move; 18],
    inverse: bool,
    /// Moves (view frame) allowed first and last.
    first: u32,
    last: u32,
    /// Whether pre-moves are searched.
    pre_moves: bool,
}

/// The raw phase-1 coordinates of a position, and twist and flip of its conjugate by y (the flip of
/// which is the position's edge orientation relative to R/L: a second twist x flip bound, as
/// min2phase's `doMovePrunConj`).
#[derive(Clone, Copy, Debug)]
struct Phase1Coords {
    twist: u32,
    flip: u32,
    slice: u32,
    twist_y: u32,
    flip_y: u32,
}

impl Phase1Coords {
    fn of(cube: &Cube) -> Phase1Coords {
        Phase1Coords::with_conjugate(cube, &Symmetry::Y.conjugate(cube))
    }

    /// The coordinates of `cube`, given its conjugate by y.
    fn with_conjugate(cube: &Cube, conjugate: &Cube) -> Phase1Coords {
        Phase1Coords {
            twist: Twist::from_cube(cube),
            flip: Flip::from_cube(cube),
            slice: UdSlice::from_cube(cube),
            twist_y: Twist::from_cube(conjugate),
            flip_y: Flip::from_cube(conjugate),
        }
    }

    /// The distance to G1 with the large tables, else the largest of the four projections'
    /// lower bounds.
    #[inline]
    fn bound(&self, tables: &TwoPhaseTables) -> u8 {
        tables
            .phase1_exact(self.twist, self.flip, self.slice)
            .unwrap_or_else(|| {
                let (twist_class, twist_sym) = tables.twist_sym.class_and_sym(self.twist);
                tables
                    .twist_flip_bound_sym(twist_class, twist_sym, self.flip)
                    .max(tables.slice_flip_bound(self.flip, self.slice))
                    .max(tables.slice_twist_bound(twist_class, twist_sym, self.slice))
                    .max(tables.twist_flip_bound(self.twist_y, self.flip_y))
            })
    }

    #[inline]
    fn in_g1(&self) -> bool {
        self.twist == 0 && self.flip == 0 && self.slice == 0
    }
}

/// `Y_MOVE[m]`: move `m` conjugated by y (the move the y-conjugate makes when the position
/// makes `m`).
static Y_MOVE: std::sync::LazyLock<[u8; 18]> = std::sync::LazyLock::new(|| {
    std::array::from_fn(|m| Symmetry::Y.conjugate_move(Move::from_index(m)).index() as u8)
});

/// The rotation that carries U to R, R to F and F to U.
fn urf_rotation() -> Symmetry {
    Symmetry::rotations()
        .find(|s| s.conjugate_move(Move::U1) == Move::R1 && s.conjugate_move(Move::R1) == Move::F1)
        .expect("the 120-degree rotation about the URF corner is a symmetry")
}

impl View {
    /// The view's cube (its frame, maybe inverted).
    #[cfg(test)]
    pub(crate) fn cube_for_tests(&self) -> Cube {
        self.cube
    }

    pub(crate) fn all(
        cube: &Cube,
        tables: &TwoPhaseTables,
        axes: bool,
        inverse: bool,
        ends: EndMoves,
    ) -> Vec<View> {
        let urf = urf_rotation();
        let mut rotations = vec![Symmetry::IDENTITY];
        if axes {
            rotations.push(urf);
            rotations.push(urf.then(urf));
        }
        let mut views = Vec::new();
        let mut symmetric = false;
        for invert in [false, true] {
            if invert && !inverse {
                continue;
            }
            let base = if invert { cube.inverse() } else { *cube };
            for &rotation in &rotations {
                let view_cube = rotation.conjugate(&base);
                let back = rotation.inverse();
                let to_real = std::array::from_fn(|m| back.conjugate_move(Move::from_index(m)));
                // A real solution r comes from a view solution t as r = map(t), or as the
                // reversed inverse of map(t) for an inverted view.
                let mask = |set: MoveSet| -> u32 {
                    (0..18)
                        .filter(|&m| {
                            let real: Move = to_real[m];
                            set.contains(if invert { real.inverse() } else { real })
                        })
                        .fold(0, |bits, m| bits | 1 << m)
                };
                let (first, last) = if invert {
                    (mask(ends.last), mask(ends.first))
                } else {
                    (mask(ends.first), mask(ends.last))
                };
                // A symmetric position has equal views (all six for the superflip), whose
                // searches would only find each other's solutions again, symmetric.
                if views
                    .iter()
                    .any(|w: &View| w.cube == view_cube && w.first == first && w.last == last)
                {
                    symmetric = true;
                    continue;
                }
                let coords = Phase1Coords::of(&view_cube);
                let bound = coords.bound(tables) as usize;
                views.push(View {
                    cube: view_cube,
                    coords,
                    bound,
                    to_real,
                    inverse: invert,
                    first,
                    last,
                    pre_moves: true,
                });
            }
        }
        // As min2phase: no pre-moves for a symmetric position, whose pre-move searches repeat
        // each other (the superflip would take seconds).
        if symmetric {
            views.iter_mut().for_each(|v| v.pre_moves = false);
        }
        views
    }
}

/// Why a search stopped before it was exhausted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Halt {
    /// Still running.
    No,
    /// The target was reached or the time budget spent (with or without a solution).
    Done,
    /// The stop flag was raised.
    Cancelled,
}

/// One solve.
pub(crate) struct Search<'a> {
    tables: &'a TwoPhaseTables,
    pub(crate) views: Vec<View>,
    path: [u8; 64],
    /// `cubes[i]`: the view's cube after the first `i` moves of `path`, valid up to `valid`.
    cubes: [Cube; 64],
    valid: usize,
    /// In an exhaustive pass (every solution of one length), no shortcut may drop a path.
    exhaustive: bool,
    /// The pre-moves of the current pass, in the order chosen: `pre[0]` ends the solution.
    pre: [u8; MAX_PRE_MOVES],
    n_pre: usize,
    /// Phase 1 may end early: the pass has the most pre-moves it allows.
    shorter_allowed: bool,
    pub(crate) collector: Collector,
    /// The longest total length the current pass accepts (for the exhaustive passes).
    cap: usize,
    target: usize,
    clock: Clock,
    stop: &'a Stop,
    nodes: u64,
    /// When the first bound is raised if no solution has been found.
    escalate_after: Duration,
    pub(crate) halt: Halt,
    /// Solutions as found, in the view's frame: (view, moves, phase-1 length, number of
    /// pre-moves, which end the moves).
    #[cfg(test)]
    pub(crate) record: Vec<(usize, Vec<Move>, usize, usize)>,
}

impl<'a> Search<'a> {
    pub(crate) fn new(
        tables: &'a TwoPhaseTables,
        views: Vec<View>,
        collector: Collector,
        target: usize,
        clock: Clock,
        stop: &'a Stop,
    ) -> Search<'a> {
        Search {
            tables,
            views,
            path: [0; 64],
            cubes: [Cube::SOLVED; 64],
            valid: 0,
            exhaustive: false,
            pre: [0; MAX_PRE_MOVES],
            n_pre: 0,
            shorter_allowed: false,
            collector,
            cap: usize::MAX,
            target,
            clock,
            stop,
            nodes: 0,
            escalate_after: FIRST_ESCALATION,
            halt: Halt::No,
            #[cfg(test)]
            record: Vec::new(),
        }
    }

    /// The smallest total length any solution can have: every view is a lower bound.
    pub(crate) fn lower_bound(&self) -> usize {
        self.views.iter().map(|v| v.bound).max().unwrap_or(0)
    }

    /// Every solution of exactly `total` moves (and none shorter exists, by the caller's order):
    /// phase-1 lengths from 0 to `total`, each followed by the phase 2 that fits.
    pub(crate) fn exhaustive_pass(&mut self, total: usize) {
        self.cap = total;
        self.exhaustive = true;
        for n1 in 0..=total {
            if !self.phase1_pass(n1) {
                break;
            }
        }
        self.exhaustive = false;
        self.cap = usize::MAX;
    }

    /// min2phase's order: phase-1 length upward; after each solution only shorter ones count.
    /// Only solutions of at most `first_bound` moves are accepted until one is found; the bound
    /// rises by one when a pass finds nothing, or when the search takes long (see [`Search::poll`]).
    pub(crate) fn improving_search(&mut self, first_bound: usize) {
        self.cap = first_bound;
        let start = self.views.iter().map(|v| v.bound).min().unwrap_or(0);
        loop {
            let mut n1 = start;
            while n1 <= self.collector.bound().min(self.cap) {
                if !self.phase1_pass(n1) {
                    break;
                }
                n1 += 1;
            }
            if self.halt != Halt::No
                || !self.collector.is_empty()
                || self.cap >= self.collector.bound().min(MAX_CAP)
            {
                break;
            }
            self.cap += 1;
        }
        self.cap = usize::MAX;
    }

    /// Phase-1 paths of exactly `n1` moves in every view (counting pre-moves, outside the
    /// exhaustive passes); false once the search must halt.
    fn phase1_pass(&mut self, n1: usize) -> bool {
        for view in 0..self.views.len() {
            let v = &self.views[view];
            let (cube, coords, bound) = (v.cube, v.coords, v.bound);
            // Pre-moves would make the last move of a solution anything; keep them to searches
            // whose last move is free.
            let pre_moves = v.pre_moves && v.last == ALL_MOVES;
            if bound <= n1 {
                self.cubes[0] = cube;
                self.valid = 0;
                self.phase1(view, coords, 0, n1, NO_MOVE);
                if self.halt != Halt::No {
                    return false;
                }
            }
            if pre_moves && !self.exhaustive && n1 > MIN_PHASE1_WITH_PRE {
                let y_cube = Symmetry::Y.conjugate(&cube);
                self.pre_moves(view, cube, y_cube, n1, NO_MOVE);
                if self.halt != Halt::No {
                    return false;
                }
            }
        }
        true
    }

    /// Every pre-move `m` that may come before the pre-moves so far (`first`, the earliest of
    /// them, or none): phase 1 from `m` then `cube` with one move less, then more pre-moves.
    /// The pre-move next to phase 2 is a quarter turn of R, L, F or B (a G1 move there would
    /// belong to phase 2).
    fn pre_moves(&mut self, view: usize, cube: Cube, y_cube: Cube, n1: usize, first: usize) {
        let depth = self.n_pre;
        let y_move = &*Y_MOVE;
        for m in 0..18 {
            if first != NO_MOVE && AFTER[m] >> first & 1 == 0 {
                continue;
            }
            self.poll();
            if self.halt != Halt::No {
                return;
            }
            let before = Cube::from_move(Move::from_index(m)).compose(&cube);
            let y_before = Cube::from_move(Move::from_index(y_move[m] as usize)).compose(&y_cube);
            self.pre[depth] = m as u8;
            self.n_pre = depth + 1;
            let left = n1 - self.n_pre;
            if QUARTER_RLFB >> m & 1 == 1 {
                let coords = Phase1Coords::with_conjugate(&before, &y_before);
                if coords.bound(self.tables) as usize <= left {
                    self.cubes[0] = before;
                    self.valid = 0;
                    self.shorter_allowed = left == MIN_PHASE1_WITH_PRE;
                    self.phase1(view, coords, 0, left, NO_MOVE);
                    self.shorter_allowed = false;
                }
            }
            if self.halt == Halt::No && self.n_pre < MAX_PRE_MOVES && left > MIN_PHASE1_WITH_PRE {
                self.pre_moves(view, before, y_before, n1, m);
            }
            self.n_pre = depth;
            if self.halt != Halt::No {
                return;
            }
        }
    }

    #[inline]
    fn poll(&mut self) {
        self.nodes += 1;
        if self.nodes & 0xfff == 0 {
            if self.stop.is_stopped() {
                self.halt = Halt::Cancelled;
            } else if self.clock.expired() {
                // Also before any solution: the budget bounds the whole search.
                self.halt = Halt::Done;
            } else if self.collector.is_empty()
                && self.cap < MAX_CAP
                && self.clock.elapsed() >= self.escalate_after
            {
                // No solution within the first bound yet (a position that needs 20 moves, say):
                // accept one move more, and again after twice as long.
                self.cap += 1;
                self.escalate_after *= 2;
            }
        }
    }

    fn phase1(&mut self, view: usize, c: Phase1Coords, depth: usize, left: usize, prev: usize) {
        if left == 0 {
            self.phase2_start(view, depth);
            return;
        }
        if !self.exhaustive && left < G1_REENTRY_MIN && c.in_g1() {
            // With the most pre-moves a pass allows, phase 1 may also end here, short (min2phase
            // `allowShorter`): such paths are searched by no other pass.
            if self.shorter_allowed && QUARTER_RLFB >> prev & 1 == 1 {
                self.phase2_start(view, depth);
            }
            return;
        }
        self.poll();
        if self.halt != Halt::No {
            return;
        }
        let t = self.tables;
        let mut mask = AFTER[prev];
        if depth == 0 {
            mask &= self.views[view].first;
        }
        if left == 1 {
            mask &= QUARTER_RLFB;
        }
        let y_move = &*Y_MOVE;
        let twist_row = t.twist_move.row(c.twist);
        let flip_row = t.flip_move.row(c.flip);
        let slice_row = t.slice_move.row(c.slice);
        let twist_y_row = t.twist_move.row(c.twist_y);
        let flip_y_row = t.flip_move.row(c.flip_y);
        // The four bounds one at a time, cheapest first, each cutting the rest short, then the
        // exact distance (a read from main memory, for the few moves left). A bound
        // over `left` rules out the whole face: the three turns of a face are one move apart,
        // so their distances differ by at most one (min2phase `Search.phase1`). The checks are
        // written out by a macro: a helper function measured 20% slower.
        while mask != 0 {
            let m = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let face = 7 << (m / 3 * 3);
            macro_rules! prune {
                ($bound:expr) => {
                    let bound = $bound as usize;
                    if bound >= left {
                        if bound > left {
                            mask &= !face;
                        }
                        continue;
                    }
                };
            }
            let (twist, flip) = (twist_row[m] as u32, flip_row[m] as u32);
            let (twist_class, twist_sym) = t.twist_sym.class_and_sym(twist);
            prune!(t.twist_flip_bound_sym(twist_class, twist_sym, flip));
            let slice = slice_row[m] as u32;
            prune!(t.slice_flip_bound(flip, slice));
            prune!(t.slice_twist_bound(twist_class, twist_sym, slice));
            let my = y_move[m] as usize;
            let (twist_y, flip_y) = (twist_y_row[my] as u32, flip_y_row[my] as u32);
            prune!(t.twist_flip_bound(twist_y, flip_y));
            if let Some(exact) = t.phase1_exact(twist, flip, slice) {
                prune!(exact);
            }
            let child = Phase1Coords {
                twist,
                flip,
                slice,
                twist_y,
                flip_y,
            };
            self.path[depth] = m as u8;
            self.valid = self.valid.min(depth);
            self.phase1(view, child, depth + 1, left - 1, m);
            if self.halt != Halt::No {
                return;
            }
        }
    }

    /// At the end of a phase-1 path of `n1` moves: a phase 2 that keeps the total within the
    /// bound, if any, then shorter ones until none is left.
    fn phase2_start(&mut self, view: usize, n1: usize) {
        let bound = self.collector.bound().min(self.cap);
        let used = n1 + self.n_pre;
        if used > bound {
            return;
        }
        let max_phase2 = if self.exhaustive || self.cap >= FULL_PHASE2_FROM {
            18
        } else {
            MAX_PHASE2
        };
        let mut budget = (bound - used).min(max_phase2);
        let t = self.tables;
        for i in self.valid..n1 {
            self.cubes[i + 1] = self.cubes[i].apply_move(Move::from_index(self.path[i] as usize));
        }
        self.valid = n1;
        let cube = self.cubes[n1];
        let corner = CornerPerm::from_cube(&cube);
        let slice = SlicePerm::from_cube(&cube);
        let corner_bound = t.corner_slice_bound(corner, slice) as usize;
        if corner_bound > budget {
            return;
        }
        let edge = UdEdgePerm::from_cube(&cube);
        let lower = corner_bound
            .max(t.edge_slice_bound(edge, slice) as usize)
            .max(t.corner_edge_bound(corner, edge) as usize);
        if lower > budget {
            return;
        }
        let v = &self.views[view];
        let prev = if n1 == 0 {
            NO_MOVE
        } else {
            self.path[n1 - 1] as usize
        };
        if lower == 0 {
            // Phase 1 ended on the solved cube; the last move must be allowed last.
            if n1 > 0 && (self.n_pre > 0 || v.last >> prev & 1 == 1) {
                self.found(view, n1, 0);
            }
            return;
        }
        let first = if n1 == 0 { g1_mask(v.first) } else { u16::MAX };
        let last = if self.n_pre > 0 {
            u16::MAX
        } else {
            g1_mask(v.last)
        };
        // One depth-first search within the budget finds some phase 2 (min2phase searches from
        // the largest depth down, not upward as IDA* would); then only shorter ones are sought.
        while let Some(end) = self.phase2(corner, edge, slice, n1, budget, prev, first, last) {
            let n2 = end - n1;
            self.found(view, n1, n2);
            if self.halt != Halt::No || n2 <= lower {
                return;
            }
            let bound = self.collector.bound().min(self.cap);
            if used + lower > bound {
                return;
            }
            budget = (n2 - 1).min(bound - used);
            if budget < lower {
                return;
            }
        }
    }

    /// A phase 2 of at most `left` more moves from a state that is not solved; returns the
    /// length of the whole path (`path[..end]`) when one is found.
    #[allow(clippy::too_many_arguments)]
    fn phase2(
        &mut self,
        corner: u32,
        edge: u32,
        slice: u32,
        depth: usize,
        left: usize,
        prev: usize,
        first: u16,
        last: u16,
    ) -> Option<usize> {
        self.poll();
        if self.halt != Halt::No {
            return None;
        }
        let t = self.tables;
        let mut mask = AFTER_G1[prev] & first;
        let corner_row = t.corner_move.row(corner);
        let edge_row = t.edge_move.row(edge);
        let slice_row = t.slice_perm_move.row(slice);
        while mask != 0 {
            let column = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let corner2 = corner_row[column] as u32;
            let slice2 = slice_row[column] as u32;
            let corner_bound = t.corner_slice_bound(corner2, slice2) as usize;
            if corner_bound >= left {
                continue;
            }
            let edge2 = edge_row[column] as u32;
            let edge_bound = t.edge_slice_bound(edge2, slice2) as usize;
            if edge_bound >= left || t.corner_edge_bound(corner2, edge2) as usize >= left {
                continue;
            }
            let m = G1_MOVES[column];
            self.path[depth] = m;
            if corner_bound == 0 && edge_bound == 0 {
                // Both projections are exact at 0: the child is solved.
                if last >> column & 1 == 1 {
                    return Some(depth + 1);
                }
                continue;
            }
            if let Some(end) = self.phase2(
                corner2,
                edge2,
                slice2,
                depth + 1,
                left - 1,
                m as usize,
                u16::MAX,
                last,
            ) {
                return Some(end);
            }
            if self.halt != Halt::No {
                return None;
            }
        }
        None
    }

    fn found(&mut self, view: usize, n1: usize, n2: usize) {
        let v = &self.views[view];
        // Phase 1, phase 2, then the pre-moves, the first chosen last.
        let in_view: Vec<Move> = self.path[..n1 + n2]
            .iter()
            .chain(self.pre[..self.n_pre].iter().rev())
            .map(|&m| Move::from_index(m as usize))
            .collect();
        let mut real: Vec<Move> = in_view.iter().map(|m| v.to_real[m.index()]).collect();
        if v.inverse {
            real = real.iter().rev().map(|m| m.inverse()).collect();
        }
        // Conjugating by the URF rotation keeps U-before-D order (it maps U R F to R F U and D L B
        // to L B D); reversing does not, and `simplify` only swaps such pairs back. Where phase 2
        // meets the pre-moves, two turns of one face may also merge.
        let real = cube_core::simplify(&real);
        debug_assert!(real.len() <= in_view.len());
        debug_assert!(self.n_pre > 0 || real.len() == n1 + n2);
        #[cfg(test)]
        self.record.push((view, in_view, n1, self.n_pre));
        self.collector.push(real);
        if self.collector.reached(self.target) {
            self.halt = Halt::Done;
        }
    }
}

/// The phase-2 columns of a mask over move indices.
fn g1_mask(moves: u32) -> u16 {
    (0..10)
        .filter(|&c| moves >> G1_MOVES[c] & 1 == 1)
        .fold(0, |bits, c| bits | 1 << c)
}
