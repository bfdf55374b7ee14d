//! The NISS search of a step, nissy-core's coordinate search rewritten: iterative deepening
//! over the step's coordinate in the step's frame, each move done on the normal side (after the
//! moves so far) or on the inverse side (before the scramble), at most one switch of side, a
//! depth's branches searched in parallel and put back in the order of a one-thread search.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};

use cube_core::{Cube, Move, MoveSet};
use rayon::prelude::*;

use super::Niss;
use super::tables::{Coords, Family, MAX_PARTS};

/// The moves of the two sides at a point of the search.
#[derive(Clone)]
pub(crate) struct Node {
    /// The normal side: the inverse of the inverse moves, the scramble, the normal moves.
    normal: Cube,
    /// Its inverse.
    inverse: Cube,
    /// The moves done on the normal side.
    moves: Vec<Move>,
    /// The moves done on the inverse side.
    premoves: Vec<Move>,
    /// Whether the last move was done on the normal side.
    last_normal: bool,
}

/// A solution in the step's frame: the normal moves and the inverse moves.
pub(crate) type Found = (Vec<Move>, Vec<Move>);

/// What a search of one depth is given.
pub(crate) struct Depth<'a> {
    pub(crate) family: &'a Family,
    pub(crate) moveset: MoveSet,
    pub(crate) niss: Niss,
    pub(crate) target: usize,
    /// Whether the search may switch side after each move (a move that changes the coordinate of
    /// the solved cube).
    pub(crate) can_switch: [bool; 18],
    /// nissy-core's HTR filter (at most one D or D', before any U or U'; no two U/D-axis moves in
    /// a row).
    pub(crate) htr_filter: bool,
    /// nissy-core's ending rule (each side ends with a clockwise quarter turn); off for a
    /// finish of half turns.
    pub(crate) ending_clockwise: bool,
    pub(crate) stop: &'a AtomicBool,
    /// The coordinates of the root's normal and inverse sides (`None` for a family without
    /// them, or a state outside their reach).
    pub(crate) root_coords: [Option<Coords>; 2],
    /// Whether the branches below the root's children are searched in parallel (off for a
    /// search too small to gain from it: handing work to other threads costs more).
    pub(crate) parallel: bool,
}

impl Node {
    /// The root of a search from `state` (in the step's frame).
    pub(crate) fn root(state: &Cube) -> Node {
        Node {
            normal: *state,
            inverse: state.inverse(),
            moves: Vec::new(),
            premoves: Vec::new(),
            last_normal: true,
        }
    }
}

impl Depth<'_> {
    fn mixed(&self) -> bool {
        matches!(self.niss, Niss::Mixed | Niss::All)
    }

    fn normal_allowed(&self) -> bool {
        matches!(self.niss, Niss::Normal | Niss::Linear | Niss::All)
    }

    fn inverse_allowed(&self) -> bool {
        matches!(self.niss, Niss::Inverse | Niss::Linear | Niss::All)
    }

    /// A lower bound on the moves still needed by any solution that goes on from `node` with a
    /// normal move. Once an inverse move is done, or without mixed NISS, every further move is on
    /// the normal side: the normal side's distance (nissy-core's test). Before the one switch of
    /// a mixed search nissy-core does not prune (moves on both sides can do better than either
    /// side's distance), also where no switch can come any more: there every further move is on
    /// the normal side again, and its distance prunes without losing a solution. In the `all`
    /// mode that is most of the tree.
    fn bound_before_normal(&self, node: &Node) -> usize {
        let (nn, ni, d) = (node.moves.len(), node.premoves.len(), self.target);
        // The child has nn + 1 normal moves; a later switch needs at most d / 2 of them.
        if self.mixed() && ni == 0 && nn < d / 2 {
            return 0;
        }
        usize::from(self.family.bound(&node.normal))
    }

    /// [`Depth::bound_before_normal`] for an inverse move: the inverse side's distance, except
    /// before the switch of a mixed search while a switch can still come.
    fn bound_before_inverse(&self, node: &Node) -> usize {
        let (nn, ni, d) = (node.moves.len(), node.premoves.len(), self.target);
        // The child has ni + 1 inverse moves; a later switch needs fewer than ceil(d / 2) of them.
        if self.mixed() && nn == 0 && ni + 1 < d.div_ceil(2) {
            return 0;
        }
        usize::from(self.family.bound(&node.inverse))
    }

    /// Whether the search may go on with a normal move from `node` (nissy-core's rules).
    fn continue_normal(&self, node: &Node) -> bool {
        let (nn, ni, d) = (node.moves.len(), node.premoves.len(), self.target);
        if self.niss == Niss::Inverse {
            return false;
        }
        if nn + ni + self.bound_before_normal(node) > d {
            return false;
        }
        if nn + ni == 0 {
            return true;
        }
        if node.last_normal {
            ni > 0 || self.normal_allowed() || nn < d / 2
        } else {
            self.mixed()
                && nn == 0
                && self.can_switch[node.premoves[ni - 1].index()]
                && ni < d.div_ceil(2)
        }
    }

    /// Whether the search may go on with an inverse move from `node`.
    fn continue_inverse(&self, node: &Node) -> bool {
        let (nn, ni, d) = (node.moves.len(), node.premoves.len(), self.target);
        if self.niss == Niss::Normal {
            return false;
        }
        if nn + ni + self.bound_before_inverse(node) > d {
            return false;
        }
        if nn + ni == 0 {
            return true;
        }
        if !node.last_normal {
            nn > 0 || self.inverse_allowed() || ni + 1 < d.div_ceil(2)
        } else {
            self.mixed() && ni == 0 && self.can_switch[node.moves[nn - 1].index()] && nn <= d / 2
        }
    }

    /// Calls `visit` on each child of `node`, normal moves first, in move order.
    fn expand(&self, node: &mut Node, visit: &mut impl FnMut(&mut Node)) {
        let (normal, inverse, last_normal) = (node.normal, node.inverse, node.last_normal);
        if self.continue_normal(node) {
            let allowed = self
                .moveset
                .intersection(MoveSet::after(node.moves.last().copied()));
            for m in allowed.iter() {
                node.normal = normal.apply_move(m);
                node.inverse = Cube::from_move(m.inverse()).compose(&inverse);
                node.last_normal = true;
                node.moves.push(m);
                visit(node);
                node.moves.pop();
            }
            node.normal = normal;
            node.inverse = inverse;
            node.last_normal = last_normal;
        }
        if self.continue_inverse(node) {
            let allowed = self
                .moveset
                .intersection(MoveSet::after(node.premoves.last().copied()));
            for m in allowed.iter() {
                node.inverse = inverse.apply_move(m);
                node.normal = Cube::from_move(m.inverse()).compose(&normal);
                node.last_normal = false;
                node.premoves.push(m);
                visit(node);
                node.premoves.pop();
            }
        }
        node.normal = normal;
        node.inverse = inverse;
        node.last_normal = last_normal;
    }

    /// Whether the moves so far break nissy-core's HTR filter.
    fn filtered(&self, node: &Node) -> bool {
        if !self.htr_filter {
            return false;
        }
        let mut seen_ud_quarter = false;
        for side in [&node.moves, &node.premoves] {
            for (i, m) in side.iter().enumerate() {
                let is_d = *m == Move::D1 || *m == Move::D3;
                let is_u = *m == Move::U1 || *m == Move::U3;
                if is_d && seen_ud_quarter {
                    return true;
                }
                seen_ud_quarter |= is_d || is_u;
                if let Some(next) = side.get(i + 1)
                    && m.face().axis() == 0
                    && next.face().axis() == 0
                {
                    return true;
                }
            }
        }
        false
    }

    /// Whether every move below `node` (one move or more from the root) is done on the side of
    /// its last move, with the depth's bound on that side before each (no switch of side can
    /// come any more, nor a stop of the one side by the mixed mode's half-length rule): the
    /// search below is then one side's, and reads coordinates when the family has them.
    fn is_tail(&self, node: &Node) -> bool {
        let (nn, ni, d) = (node.moves.len(), node.premoves.len(), self.target);
        if node.last_normal {
            ni > 0
                || matches!(self.niss, Niss::Normal | Niss::Linear)
                || (self.niss == Niss::All && nn > d / 2)
        } else {
            nn > 0
                || matches!(self.niss, Niss::Inverse | Niss::Linear)
                || (self.niss == Niss::All && ni >= d.div_ceil(2))
        }
    }

    /// The search below `node`, solutions appended to `out` in search order.
    fn dfs(&self, node: &mut Node, out: &mut Vec<Found>) {
        if self.is_tail(node) {
            let side = if node.last_normal {
                &node.normal
            } else {
                &node.inverse
            };
            if let Some(coords) = self.family.coords(side, self.moveset) {
                return self.tail(node, &coords, self.family.coords_bound(&coords), out);
            }
        }
        if self.stop.load(Ordering::Relaxed) || self.filtered(node) {
            return;
        }
        let n = node.moves.len() + node.premoves.len();
        if self.family.is_solved(&node.normal) {
            self.found(node, n, out);
            return;
        }
        if n >= self.target {
            return;
        }
        self.expand(node, &mut |child| self.dfs(child, out));
    }

    /// Appends `node`'s moves to `out` when the goal, reached at `node` after `n` moves, is
    /// reached at the depth's length and with nissy-core's ending.
    fn found(&self, node: &Node, n: usize, out: &mut Vec<Found>) {
        if n == self.target
            && (!self.ending_clockwise
                || last_quarter_turns_clockwise(&node.moves)
                    && last_quarter_turns_clockwise(&node.premoves))
        {
            out.push((node.moves.clone(), node.premoves.clone()));
        }
    }

    /// [`Depth::dfs`] below a tail node ([`Depth::is_tail`]) whose side reads `coords`: the same
    /// search and the same order, the side's moves done on the coordinates (the cubes of `node`
    /// are not kept up to date). The goal is read on that side: the goals of the families with
    /// coordinates are groups, met by a state exactly when met by its inverse.
    ///
    /// `bound` is the family's bound at `coords` ([`Family::coords_bound`]): a node reads its
    /// children's all at once before going down into any, so that their loads from the large
    /// table (in no cache) overlap.
    fn tail(&self, node: &mut Node, coords: &Coords, bound: u8, out: &mut Vec<Found>) {
        if self.stop.load(Ordering::Relaxed) || self.filtered(node) {
            return;
        }
        let n = node.moves.len() + node.premoves.len();
        if bound == 0 {
            self.found(node, n, out);
            return;
        }
        if n + usize::from(bound) > self.target {
            return;
        }
        let normal = node.last_normal;
        fn side(node: &mut Node, normal: bool) -> &mut Vec<Move> {
            if normal {
                &mut node.moves
            } else {
                &mut node.premoves
            }
        }
        let allowed = self
            .moveset
            .intersection(MoveSet::after(side(node, normal).last().copied()));
        // A child whose bound passes the length ends at once (not at the goal, and past it): the
        // small tables (mostly in the cache) are read first, the large one only where they leave
        // the child.
        let room = self.target - n - 1;
        let mut children = [(Move::U1, [0; MAX_PARTS], 0); 18];
        let mut count = 0;
        for m in allowed.iter() {
            let next = self.family.coords_move(coords, m);
            if !self.family.coords_small_beyond(&next, room) {
                children[count] = (m, next, self.family.coords_bound(&next));
                count += 1;
            }
        }
        for (m, next, bound) in &children[..count] {
            if usize::from(*bound) > room {
                continue;
            }
            side(node, normal).push(*m);
            self.tail(node, next, *bound, out);
            side(node, normal).pop();
        }
    }

    /// Every solution of exactly `target` moves from `root`, in the order of a one-thread search,
    /// each once; the branches below the root's children searched in parallel.
    pub(crate) fn solutions(&self, root: &Node) -> Vec<Found> {
        let mut children = Vec::new();
        self.expand(&mut root.clone(), &mut |child| children.push(child.clone()));
        let search = |mut child: Node| {
            let mut out = Vec::new();
            // A child in the tail: its coordinates are the root's, moved.
            let (side, last) = if child.last_normal {
                (0, child.moves.last())
            } else {
                (1, child.premoves.last())
            };
            let coords = self.root_coords[side]
                .zip(last.copied())
                .map(|(root, m)| self.family.coords_move(&root, m));
            match coords {
                Some(coords) if self.is_tail(&child) => {
                    let bound = self.family.coords_bound(&coords);
                    self.tail(&mut child, &coords, bound, &mut out);
                }
                _ => self.dfs(&mut child, &mut out),
            }
            out
        };
        let found: Vec<Vec<Found>> = if self.parallel {
            children.into_par_iter().map(search).collect()
        } else {
            children.into_iter().map(search).collect()
        };
        let mut seen = HashSet::new();
        found
            .into_iter()
            .flatten()
            .filter(|s| seen.insert(s.clone()))
            .collect()
    }
}

/// nissy-core's admissibility of a side: it ends with a clockwise quarter turn and, when the move
/// before is on the same axis, that one is a clockwise quarter turn too.
fn last_quarter_turns_clockwise(moves: &[Move]) -> bool {
    match moves {
        [] => true,
        [.., before, last] if before.face().axis() == last.face().axis() => {
            before.amount() == 1 && last.amount() == 1
        }
        [.., last] => last.amount() == 1,
    }
}
