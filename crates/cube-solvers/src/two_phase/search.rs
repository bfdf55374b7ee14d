//! The two-phase search: IDA* for phase 1 into G1 = <U, D, R2, L2, F2, B2>, then IDA* for
//! phase 2 inside G1, over six views of the position (itself and its inverse, each seen along
//! the three axes), as min2phase does (`src/Search.java`).
//!
//! Rules that keep the search free of duplicates and wasted length:
//!
//! - every sequence is canonical ([`MoveSet::after`]), across the phase boundary too;
//! - the last move of phase 1 is a quarter turn of R, L, F or B: a phase-1 path that ends with a
//!   G1 move was already in G1 one move earlier, and is found that way;
//! - a phase-1 path may pass through G1 on the way (the optimal path of a short position can).

use std::time::Duration;

use cube_core::{Cube, Move, MoveSet, Symmetry};
use cube_tables::{Coord, CornerPerm, Flip, SlicePerm, Twist, UdEdgePerm, UdSlice};

use super::tables::Tables;
use crate::Stop;
use crate::cancel::Clock;
use crate::search::{AFTER, Collector, NO_MOVE};

/// How long the search looks for a first solution within the first bound before accepting one
/// move more (then twice as long for the next).
const FIRST_ESCALATION: Duration = Duration::from_millis(50);

/// The largest bound escalation reaches: 12 moves of phase 1 and 18 of phase 2.
const MAX_CAP: usize = 30;

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
    twist: u32,
    flip: u32,
    slice: u32,
    /// The phase-1 lower bound.
    pub(crate) bound: usize,
    /// The real move for each move index of the view's frame.
    to_real: [Move; 18],
    inverse: bool,
    /// Moves (view frame) allowed first and last.
    first: u32,
    last: u32,
}

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
        tables: &Tables,
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
                let (twist, flip, slice) = (
                    Twist::from_cube(&view_cube),
                    Flip::from_cube(&view_cube),
                    UdSlice::from_cube(&view_cube),
                );
                let bound = tables
                    .slice_twist_prune
                    .get(twist * 495 + slice)
                    .max(tables.slice_flip_prune.get(flip * 495 + slice))
                    .max(tables.twist_flip_prune.get(twist * 2048 + flip))
                    as usize;
                views.push(View {
                    cube: view_cube,
                    twist,
                    flip,
                    slice,
                    bound,
                    to_real,
                    inverse: invert,
                    first,
                    last,
                });
            }
        }
        views
    }
}

/// Why a search stopped before it was exhausted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Halt {
    /// Still running.
    No,
    /// The target was reached or the time budget spent.
    Done,
    /// The stop flag was raised.
    Cancelled,
}

/// One solve.
pub(crate) struct Search<'a> {
    tables: &'a Tables,
    pub(crate) views: Vec<View>,
    path: [u8; 64],
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
    /// Solutions as found, in the view's frame: (view, moves, phase-1 length).
    #[cfg(test)]
    pub(crate) record: Vec<(usize, Vec<Move>, usize)>,
}

impl<'a> Search<'a> {
    pub(crate) fn new(
        tables: &'a Tables,
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
        for n1 in 0..=total {
            if !self.phase1_pass(n1) {
                break;
            }
        }
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

    /// Phase-1 paths of exactly `n1` moves in every view; false once the search must halt.
    fn phase1_pass(&mut self, n1: usize) -> bool {
        for view in 0..self.views.len() {
            let v = &self.views[view];
            if v.bound > n1 {
                continue;
            }
            let (twist, flip, slice) = (v.twist, v.flip, v.slice);
            self.phase1(view, twist, flip, slice, 0, n1, NO_MOVE);
            if self.halt != Halt::No {
                return false;
            }
        }
        true
    }

    #[inline]
    fn poll(&mut self) {
        self.nodes += 1;
        if self.nodes & 0xfff == 0 {
            if self.stop.is_stopped() {
                self.halt = Halt::Cancelled;
            } else if !self.collector.is_empty() {
                if self.clock.expired() {
                    self.halt = Halt::Done;
                }
            } else if self.cap < MAX_CAP && self.clock.elapsed() >= self.escalate_after {
                // No solution within the first bound yet (a position that needs 20 moves, say):
                // accept one move more, and again after twice as long.
                self.cap += 1;
                self.escalate_after *= 2;
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn phase1(
        &mut self,
        view: usize,
        twist: u32,
        flip: u32,
        slice: u32,
        depth: usize,
        left: usize,
        prev: usize,
    ) {
        if left == 0 {
            self.phase2_start(view, depth);
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
        let twist_row = t.twist_move.row(twist);
        let flip_row = t.flip_move.row(flip);
        let slice_row = t.slice_move.row(slice);
        // All children's bounds first, without branches, so the table loads (mostly cache
        // misses) overlap instead of waiting for one another.
        let mut children = [(0u32, 0u32, 0u32, 0u8); 18];
        let mut bits = mask;
        while bits != 0 {
            let m = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let (twist2, flip2, slice2) =
                (twist_row[m] as u32, flip_row[m] as u32, slice_row[m] as u32);
            let bound = t
                .slice_twist_prune
                .get(twist2 * 495 + slice2)
                .max(t.slice_flip_prune.get(flip2 * 495 + slice2))
                .max(t.twist_flip_prune.get(twist2 * 2048 + flip2));
            children[m] = (twist2, flip2, slice2, bound);
        }
        while mask != 0 {
            let m = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let (twist2, flip2, slice2, bound) = children[m];
            if bound as usize >= left {
                continue;
            }
            self.path[depth] = m as u8;
            self.phase1(view, twist2, flip2, slice2, depth + 1, left - 1, m);
            if self.halt != Halt::No {
                return;
            }
        }
    }

    /// At the end of a phase-1 path of `n1` moves: the shortest phase 2 that keeps the total
    /// within the bound, if any.
    fn phase2_start(&mut self, view: usize, n1: usize) {
        let bound = self.collector.bound().min(self.cap);
        if n1 > bound {
            return;
        }
        let budget = (bound - n1).min(18);
        let t = self.tables;
        let v = &self.views[view];
        let mut cube = v.cube;
        for &m in &self.path[..n1] {
            cube = cube.apply_move(Move::from_index(m as usize));
        }
        let corner = CornerPerm::from_cube(&cube);
        let slice = SlicePerm::from_cube(&cube);
        let corner_bound = t.corner_slice_prune.get(corner * 24 + slice) as usize;
        if corner_bound > budget {
            return;
        }
        let edge = UdEdgePerm::from_cube(&cube);
        let lower = corner_bound.max(t.edge_slice_prune.get(edge * 24 + slice) as usize);
        if lower > budget {
            return;
        }
        let prev = if n1 == 0 {
            NO_MOVE
        } else {
            self.path[n1 - 1] as usize
        };
        if lower == 0 {
            // Phase 1 ended on the solved cube; the last move must be allowed last.
            if n1 > 0 && v.last >> prev & 1 == 1 {
                self.found(view, n1, 0);
            }
            return;
        }
        let first = if n1 == 0 { g1_mask(v.first) } else { u16::MAX };
        let last = g1_mask(v.last);
        for length in lower..=budget {
            if self.phase2(corner, edge, slice, n1, length, prev, first, last) {
                self.found(view, n1, length);
                return;
            }
            if self.halt != Halt::No {
                return;
            }
        }
    }

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
    ) -> bool {
        if left == 0 {
            // The pruning tables are exact on their projections, so all three are 0: solved.
            return true;
        }
        self.poll();
        if self.halt != Halt::No {
            return false;
        }
        let t = self.tables;
        let mut mask = AFTER_G1[prev] & first;
        if left == 1 {
            mask &= last;
        }
        let corner_row = t.corner_move.row(corner);
        let edge_row = t.edge_move.row(edge);
        let slice_row = t.slice_perm_move.row(slice);
        while mask != 0 {
            let column = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let corner2 = corner_row[column] as u32;
            let slice2 = slice_row[column] as u32;
            if t.corner_slice_prune.get(corner2 * 24 + slice2) as usize >= left {
                continue;
            }
            let edge2 = edge_row[column] as u32;
            if t.edge_slice_prune.get(edge2 * 24 + slice2) as usize >= left {
                continue;
            }
            let m = G1_MOVES[column];
            self.path[depth] = m;
            if self.phase2(
                corner2,
                edge2,
                slice2,
                depth + 1,
                left - 1,
                m as usize,
                u16::MAX,
                last,
            ) {
                return true;
            }
            if self.halt != Halt::No {
                return false;
            }
        }
        false
    }

    fn found(&mut self, view: usize, n1: usize, n2: usize) {
        let v = &self.views[view];
        let in_view: Vec<Move> = self.path[..n1 + n2]
            .iter()
            .map(|&m| Move::from_index(m as usize))
            .collect();
        let mut real: Vec<Move> = in_view.iter().map(|m| v.to_real[m.index()]).collect();
        if v.inverse {
            real = real.iter().rev().map(|m| m.inverse()).collect();
        }
        // Conjugating by the URF rotation keeps U-before-D order (it maps U R F to R F U and D L B
        // to L B D); reversing does not, and `simplify` only swaps such pairs back.
        let real = cube_core::simplify(&real);
        debug_assert_eq!(real.len(), n1 + n2);
        #[cfg(test)]
        self.record.push((view, in_view, n1));
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
