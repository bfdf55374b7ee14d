//! The NISS search of a step, nissy-core's coordinate search rewritten: iterative deepening
//! over the step's coordinate in the step's frame, each move done on the normal side (after the
//! moves so far) or on the inverse side (before the scramble), at most one switch of side, a
//! depth's branches searched in parallel and put back in the order of a one-thread search.
//!
//! A depth's search stops as soon as it has the solutions asked for (the first ones in the order
//! of a one-thread search) and keeps each in a few bytes. It finds each solution once, so it holds
//! no set of the ones seen: a solution's moves are done in one order, those of one side and then
//! those of the other, and the rules tell which side comes first (in a mixed solution of `d`
//! moves the normal side has at most `d / 2` when it comes first, more when it comes second).
//! What a search holds is reckoned against a [`Budget`]: a search that would hold more stops.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use cube_core::{Cube, Move, MoveSet, NissAlg};
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

/// The most moves of a solution (the longest `Settings::max_moves`).
pub(crate) const MAX_MOVES: usize = 20;

/// A solution in the step's frame: its normal moves, then its inverse moves, in one array (a
/// depth may hold many: no allocation each).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Found {
    moves: [Move; MAX_MOVES],
    /// How many of `moves` are the normal ones.
    normal: u8,
    /// How many of `moves` are the solution's.
    len: u8,
}

impl Found {
    fn new(normal: &[Move], inverse: &[Move]) -> Found {
        let (n, len) = (normal.len(), normal.len() + inverse.len());
        let mut moves = [Move::U1; MAX_MOVES];
        moves[..n].copy_from_slice(normal);
        moves[n..len].copy_from_slice(inverse);
        Found {
            moves,
            normal: n as u8,
            len: len as u8,
        }
    }

    /// The moves done on the normal side.
    pub(crate) fn normal(&self) -> &[Move] {
        &self.moves[..usize::from(self.normal)]
    }

    /// The moves done on the inverse side.
    pub(crate) fn inverse(&self) -> &[Move] {
        &self.moves[usize::from(self.normal)..usize::from(self.len)]
    }
}

/// What a solution of `len` moves is reckoned to take while it is held: its [`Found`], and the
/// [`NissAlg`] it becomes (an `Alg` node per move, 56-64 bytes, reckoned 64).
pub(crate) fn solution_bytes(len: usize) -> usize {
    size_of::<Found>() + size_of::<NissAlg>() + len * 64
}

/// The memory a solve's solutions may take, shared by its searches: the bytes reckoned
/// ([`solution_bytes`]) for the solutions held, found and not dropped, and the most.
pub(crate) struct Budget {
    bytes: CacheLine<AtomicUsize>,
    max: usize,
    /// A solution did not fit. Read at every node: on a cache line of its own, apart from `bytes`
    /// that every solution kept writes.
    over: CacheLine<AtomicBool>,
}

/// A value alone on its cache line.
#[repr(align(64))]
struct CacheLine<T>(T);

impl<T> std::ops::Deref for CacheLine<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl Budget {
    pub(crate) fn new(max: usize) -> Budget {
        Budget {
            bytes: CacheLine(AtomicUsize::new(0)),
            max,
            over: CacheLine(AtomicBool::new(false)),
        }
    }

    /// Takes `n` bytes; when they do not fit, takes none and marks the budget over (every search
    /// of the solve then stops).
    fn take(&self, n: usize) -> bool {
        let before = self.bytes.fetch_add(n, Ordering::Relaxed);
        if before.saturating_add(n) > self.max {
            self.bytes.fetch_sub(n, Ordering::Relaxed);
            self.over.store(true, Ordering::Relaxed);
            return false;
        }
        true
    }

    /// Gives back `n` bytes taken.
    fn give(&self, n: usize) {
        self.bytes.fetch_sub(n, Ordering::Relaxed);
    }

    /// Whether a solution did not fit.
    pub(crate) fn is_over(&self) -> bool {
        self.over.load(Ordering::Relaxed)
    }
}

/// Where a search puts its solutions, in search order, and what ends it early.
struct Out<'s> {
    /// The solutions kept (none when counting).
    found: Vec<Found>,
    /// How many solutions were found (kept or counted).
    count: usize,
    /// The search ends when it has this many.
    cap: usize,
    /// Whether the solutions are kept, not only counted.
    keep: bool,
    /// The search's place among a depth's parallel searches: it ends when the ones before it have
    /// found enough (`cutoff`, the last place still needed).
    place: usize,
    cutoff: &'s AtomicUsize,
    /// Whether something else than its cap (a raised stop flag, the budget, the cutoff) ended the
    /// search before it was through.
    cut: bool,
}

impl<'s> Out<'s> {
    fn new(cap: usize, keep: bool, place: usize, cutoff: &'s AtomicUsize) -> Out<'s> {
        Out {
            found: Vec::new(),
            count: 0,
            cap,
            keep,
            place,
            cutoff,
            cut: false,
        }
    }
}

/// A depth's solutions.
pub(crate) struct Solutions {
    /// The first ones, in the order of a one-thread search (none when counting).
    pub(crate) found: Vec<Found>,
    /// How many (`found.len()` unless counting).
    pub(crate) count: usize,
    /// False when the stop flag or the budget ended the search before it had them all (`found`
    /// are then the first ones).
    pub(crate) through: bool,
}

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
    /// The solve's budget of memory for the solutions.
    pub(crate) budget: &'a Budget,
    /// The root of the search: the state, in the step's frame.
    pub(crate) root: &'a Node,
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

    /// Whether the search into `out` ends here: it has its solutions, or (then marked cut) the
    /// stop flag is raised, the budget is over or the searches before it have found enough.
    #[inline]
    fn ended(&self, out: &mut Out<'_>) -> bool {
        if out.count >= out.cap {
            return true;
        }
        if self.stop.load(Ordering::Relaxed)
            || self.budget.over.load(Ordering::Relaxed)
            || out.place > out.cutoff.load(Ordering::Relaxed)
        {
            out.cut = true;
            return true;
        }
        false
    }

    /// The search below `node`, solutions put in `out` in search order.
    fn dfs(&self, node: &mut Node, out: &mut Out<'_>) {
        if self.ended(out) {
            return;
        }
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
        if self.filtered(node) {
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

    /// Puts `node`'s moves in `out` when the goal, reached at `node` after `n` moves, is reached
    /// at the depth's length and with nissy-core's ending.
    fn found(&self, node: &Node, n: usize, out: &mut Out<'_>) {
        if n != self.target
            || self.ending_clockwise
                && !(last_quarter_turns_clockwise(&node.moves)
                    && last_quarter_turns_clockwise(&node.premoves))
        {
            return;
        }
        if out.keep {
            if !self.budget.take(solution_bytes(n)) {
                out.cut = true;
                return;
            }
            out.found.push(Found::new(&node.moves, &node.premoves));
        }
        out.count += 1;
    }

    /// [`Depth::dfs`] below a tail node ([`Depth::is_tail`]) whose side reads `coords`: the same
    /// search and the same order, the side's moves done on the coordinates (the cubes of `node`
    /// are not kept up to date). The goal is read on that side: the goals of the families with
    /// coordinates are groups, met by a state exactly when met by its inverse.
    ///
    /// `bound` is the family's bound at `coords` ([`Family::coords_bound`]): a node reads its
    /// children's all at once before going down into any, so that their loads from the large
    /// table (in no cache) overlap.
    fn tail(&self, node: &mut Node, coords: &Coords, bound: u8, out: &mut Out<'_>) {
        if self.ended(out) || self.filtered(node) {
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

    /// The search below a child of the root.
    fn search_child(&self, mut child: Node, out: &mut Out<'_>) {
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
                self.tail(&mut child, &coords, bound, out);
            }
            _ => self.dfs(&mut child, out),
        }
    }

    /// The first `room` solutions of exactly `target` moves from the root in the order of a
    /// one-thread search (kept when `keep`, else counted). The search stops as soon as it has
    /// them.
    ///
    /// In parallel, the branches below the root's children are searched at once, each into its
    /// own list up to `room`, and put back in order; a branch stops once the branches before it
    /// are through with `room` solutions between them. When the budget is over there (the lists
    /// of later branches held what the earlier ones needed), the branches that are through from
    /// the first on are kept and the others searched again one after the other, into one list:
    /// then only what is returned is held, and the budget is over only if that is too much.
    pub(crate) fn solutions(&self, room: usize, keep: bool) -> Solutions {
        let mut children = Vec::new();
        self.expand(&mut self.root.clone(), &mut |child| {
            children.push(child.clone())
        });
        let never = AtomicUsize::new(usize::MAX);
        let mut result = Solutions {
            found: Vec::new(),
            count: 0,
            through: true,
        };
        let mut first = 0;
        if self.parallel {
            let cutoff = AtomicUsize::new(usize::MAX);
            let done: Mutex<Vec<Option<usize>>> = Mutex::new(vec![None; children.len()]);
            let outs: Vec<Out<'_>> = children
                .par_iter()
                .enumerate()
                .map(|(place, child)| {
                    let mut out = Out::new(room, keep, place, &cutoff);
                    self.search_child(child.clone(), &mut out);
                    if !out.cut {
                        let mut done = done.lock().unwrap_or_else(|e| e.into_inner());
                        done[place] = Some(out.count);
                        let mut sum = 0;
                        for (j, count) in done.iter().enumerate() {
                            let Some(count) = count else { break };
                            sum += count;
                            if sum >= room {
                                cutoff.fetch_min(j, Ordering::Relaxed);
                                break;
                            }
                        }
                    }
                    out
                })
                .collect();
            let bytes = solution_bytes(self.target);
            first = children.len();
            let mut outs = outs.into_iter().enumerate();
            for (place, out) in outs.by_ref() {
                if out.cut {
                    self.budget.give(out.found.len() * bytes);
                    first = place;
                    break;
                }
                let take = out.count.min(room - result.count);
                if keep {
                    result.found.extend_from_slice(&out.found[..take]);
                    self.budget.give((out.found.len() - take) * bytes);
                }
                result.count += take;
                if result.count >= room {
                    first = children.len();
                    break;
                }
            }
            for (_, out) in outs {
                self.budget.give(out.found.len() * bytes);
            }
            if first == children.len() || self.stop.load(Ordering::Relaxed) {
                result.through = first == children.len();
                return result;
            }
            // The budget was over: what is held now is what the list needs.
            self.budget.over.store(false, Ordering::Relaxed);
        }
        let mut out = Out::new(room - result.count, keep, 0, &never);
        for child in children.drain(first..) {
            if self.ended(&mut out) {
                break;
            }
            self.search_child(child, &mut out);
        }
        result.found.append(&mut out.found);
        result.count += out.count;
        result.through = !out.cut;
        result
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

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::fmc::tables::Kind;
    use crate::fmc::{self, StepTables};

    /// Runs `f` on the search of `target` moves of `step` from `state` (in the step's frame: the
    /// steps here have the identity frame), with a budget of `max_memory`.
    #[allow(clippy::too_many_arguments)]
    fn with_depth<R>(
        step: &fmc::Step,
        tables: &StepTables,
        state: &Cube,
        niss: Niss,
        target: usize,
        parallel: bool,
        max_memory: usize,
        f: impl FnOnce(&Depth<'_>) -> R,
    ) -> R {
        let family = tables.family();
        let moveset = step.search_moves();
        let root = Node::root(state);
        let stop = AtomicBool::new(false);
        let budget = Budget::new(max_memory);
        let depth = Depth {
            family,
            moveset,
            niss,
            target,
            can_switch: std::array::from_fn(|i| {
                step.kind.allows_niss() && family.changes_solved(Move::from_index(i))
            }),
            htr_filter: step.kind == Kind::Htr,
            ending_clockwise: step.kind.ends_clockwise(),
            stop: &stop,
            budget: &budget,
            root: &root,
            root_coords: [
                family.coords(state, moveset),
                family.coords(&state.inverse(), moveset),
            ],
            parallel,
        };
        f(&depth)
    }

    fn walk(rng: &mut ChaCha8Rng, moves: &[Move]) -> Cube {
        (0..40).fold(Cube::SOLVED, |c, _| {
            c.apply_move(moves[rng.random_range(0..moves.len())])
        })
    }

    /// Steps with NISS, states meeting their requisites, and the longest target searched.
    fn cases() -> Vec<(&'static fmc::Step, StepTables, Vec<Cube>, usize)> {
        let mut rng = ChaCha8Rng::seed_from_u64(54);
        let eo: Vec<Move> = Move::ALL
            .into_iter()
            .filter(|m| m.face().axis() != 2 || m.is_half_turn())
            .collect();
        let dr: Vec<Move> = Move::ALL
            .into_iter()
            .filter(|m| m.face().axis() == 0 || m.is_half_turn())
            .collect();
        let all: Vec<Move> = Move::ALL.to_vec();
        [
            ("eofb", &all, 7),
            ("drud-eofb", &eo, 8),
            ("htr-drud", &dr, 8),
        ]
        .into_iter()
        .map(|(name, moves, max)| {
            let step = fmc::step(name).unwrap();
            let states = (0..4).map(|_| walk(&mut rng, moves)).collect();
            (step, StepTables::build(step), states, max)
        })
        .collect()
    }

    /// The search finds each solution once (the search before kept a set of the solutions seen,
    /// whose memory grew with every one, to drop repeats that never come): a mixed solution's
    /// normal side has at most half the moves when the search does it first, more when second.
    #[test]
    fn each_solution_is_found_once() {
        let (mut mixed, mut normal_first) = (0, 0);
        for (step, tables, states, max) in cases() {
            for state in &states {
                for niss in [Niss::Mixed, Niss::All] {
                    for target in 1..=max {
                        for parallel in [false, true] {
                            let got = with_depth(
                                step,
                                &tables,
                                state,
                                niss,
                                target,
                                parallel,
                                usize::MAX,
                                |d| d.solutions(usize::MAX, true),
                            );
                            assert!(got.through && got.count == got.found.len());
                            let mut seen = HashSet::new();
                            for f in &got.found {
                                assert!(
                                    seen.insert(*f),
                                    "{} {niss} {target}: {f:?} twice",
                                    step.name()
                                );
                                if !f.normal().is_empty() && !f.inverse().is_empty() {
                                    mixed += 1;
                                    normal_first += usize::from(f.normal().len() <= target / 2);
                                }
                            }
                        }
                    }
                }
            }
        }
        // Both kinds of mixed solutions are seen: the test sees the rule at work.
        assert!(
            normal_first > 100 && mixed - normal_first > 100,
            "{mixed} mixed, {normal_first} normal side first"
        );
    }

    /// A depth asked for `room` solutions gives the first `room` of its list, one thread or
    /// several, kept or counted.
    #[test]
    fn a_depth_gives_the_first_solutions_asked() {
        for (step, tables, states, max) in cases() {
            for state in &states[..2] {
                for niss in [Niss::Normal, Niss::Linear, Niss::All] {
                    let full =
                        with_depth(step, &tables, state, niss, max, false, usize::MAX, |d| {
                            d.solutions(usize::MAX, true)
                        });
                    for room in [1, 2, 7, 100, 5000] {
                        for parallel in [false, true] {
                            for keep in [true, false] {
                                let got = with_depth(
                                    step,
                                    &tables,
                                    state,
                                    niss,
                                    max,
                                    parallel,
                                    usize::MAX,
                                    |d| d.solutions(room, keep),
                                );
                                let n = room.min(full.count);
                                assert!(got.through);
                                assert_eq!(got.count, n);
                                if keep {
                                    assert!(got.found == full.found[..n]);
                                } else {
                                    assert!(got.found.is_empty());
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// In parallel the branches' lists may hold more than the budget where the list returned
    /// would not: they are searched again one after the other, and the list is the same. A budget
    /// too small for the list returned cuts it: the first solutions, and the budget over.
    #[test]
    fn lists_over_the_budget_are_searched_again_or_cut() {
        let step = fmc::step("eofb").unwrap();
        let tables = StepTables::build(step);
        let mut rng = ChaCha8Rng::seed_from_u64(55);
        let mut cut = 0;
        for _ in 0..6 {
            let state = Cube::random(&mut rng);
            let target = 7;
            let full = with_depth(
                step,
                &tables,
                &state,
                Niss::All,
                target,
                false,
                usize::MAX,
                |d| d.solutions(usize::MAX, true),
            );
            assert!(full.count > 400, "{}", full.count);
            let bytes = solution_bytes(target);
            for parallel in [false, true] {
                let fits = with_depth(
                    step,
                    &tables,
                    &state,
                    Niss::All,
                    target,
                    parallel,
                    200 * bytes,
                    |d| {
                        (
                            d.solutions(200, true),
                            d.budget.is_over(),
                            d.budget.bytes.load(Ordering::Relaxed),
                        )
                    },
                );
                assert!(fits.0.through && !fits.1);
                assert!(fits.0.found == full.found[..200]);
                assert_eq!(fits.2, 200 * bytes, "the bytes held are the list's");
                let over = with_depth(
                    step,
                    &tables,
                    &state,
                    Niss::All,
                    target,
                    parallel,
                    100 * bytes,
                    |d| (d.solutions(200, true), d.budget.is_over()),
                );
                assert!(!over.0.through && over.1);
                assert!(over.0.count == over.0.found.len() && over.0.count <= 100);
                assert!(over.0.found == full.found[..over.0.count]);
                cut += 1;
            }
        }
        assert_eq!(cut, 12);
    }
}
