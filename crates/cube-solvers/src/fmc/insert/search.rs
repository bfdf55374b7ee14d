//! The finders: where each algorithm of a set can go in a sequence, what it cancels there and
//! what it leaves, and the two searches over sequences of insertions, greedy and optimal.
//!
//! An insertion goes at a *site*: between two moves of the sequence (or at an end), and where
//! the two moves around it are on one axis, also between them swapped (they commute, and each
//! order gives the site its own state). What an insertion leaves depends only on the state at its
//! site (the insertion's effect on the cube, conjugated by the moves after it): with the scramble
//! state `X`, the moves `P` before the site and `Q` after it, inserting `A` leaves `X P A Q`,
//! a conjugate of `D A` with `D = Q X P`. So the site's state `D` says which algorithms solve
//! (those whose effect is `D⁻¹`, one case, looked up) and which lower the measure (a walk over the
//! cases), and moving the site one move on conjugates it by that move.
//!
//! The search space (Insertion Finder's): a sequence of insertions, each at any site of the
//! sequence the ones before it made (inside an earlier insertion too), each lowering the measure
//! of what is left ([`super::cycles`]) and moving at least two of the pieces unsolved at its site,
//! and none whose first moves cancel completely against the moves before the site (the same
//! insertion, with the algorithm's moves shifted round, goes further left; the sets are closed
//! under such shifts). An insertion may cancel more moves than it has (a 6-move edge 3-cycle
//! after `F2 R L'`...: the sequence gets shorter); Insertion Finder takes those, and so does
//! this. The optimal finder searches the space depth first, bounded as Insertion Finder's is by
//! the best length found: a sequence of insertions is followed while each sequence it makes is
//! shorter than the best (one that grows as long and shrinks again later is not followed), each
//! sequence's insertions expanded once; the greedy
//! finder keeps, for each measure, the sequences within a few moves of the shortest reaching
//! it.

use std::collections::HashSet;
use std::hash::{BuildHasher, BuildHasherDefault};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use cube_core::{Cube, Move, simplify};
use rayon::prelude::*;

use super::algs::{AlgRef, AlgSet, Movers, WordHasher, support};
use super::cancel::{Group, cancelled, head, tail};
use super::cycles::{corner_distance, edge_distance, measure_of};
use crate::cancel::Clock;

/// Where an insertion goes: before move `position` of the sequence, the moves at `position - 1`
/// and `position` swapped first when `swapped`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Place {
    pub(crate) position: usize,
    pub(crate) swapped: bool,
}

impl Place {
    /// The moves before and after the place in `moves`, as the insertion sees them.
    pub(crate) fn split(self, moves: &[Move]) -> (Vec<Move>, Vec<Move>) {
        let (mut before, mut after) = (
            moves[..self.position].to_vec(),
            moves[self.position..].to_vec(),
        );
        if self.swapped {
            std::mem::swap(
                before
                    .last_mut()
                    .expect("a swapped place has a move before"),
                after.first_mut().expect("a swapped place has a move after"),
            );
        }
        (before, after)
    }
}

/// One insertion of a search: where, and which algorithm (case and index in the case).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Step {
    pub(crate) place: Place,
    pub(crate) case: u32,
    pub(crate) alg: u32,
}

/// A site of a sequence: its place, its state `Q X P`, the axis groups on each side and the
/// pieces its state leaves unsolved (bits 0 to 7 corners, 8 to 19 edges).
struct Site {
    place: Place,
    state: Cube,
    left: Group,
    right: Group,
}

impl Site {
    fn new(place: Place, state: Cube, left: Group, right: Group) -> Site {
        Site {
            place,
            state,
            left,
            right,
        }
    }
}

/// What the walk over the cases needs of a site's state: the pieces it leaves unsolved (bits 0
/// to 7 corners, 8 to 19 edges), its parity and its orbits' distances ([`super::cycles`]).
struct Measured {
    unsolved: u32,
    odd: bool,
    corners: u8,
    edges: u8,
}

impl Measured {
    fn new(state: &Cube) -> Measured {
        Measured {
            unsolved: support(state),
            odd: state.corner_parity_odd(),
            corners: corner_distance(state),
            edges: edge_distance(state),
        }
    }
}

/// The sites of `moves` for the scramble state `scramble`.
fn sites(moves: &[Move], scramble: &Cube) -> Vec<Site> {
    let mut out = Vec::with_capacity(moves.len() + 8);
    let mut state = Cube::SOLVED.apply_moves(moves).compose(scramble);
    for position in 0..=moves.len() {
        if position > 0 {
            let m = moves[position - 1];
            state = Cube::from_move(m.inverse()).compose(&state).apply_move(m);
        }
        out.push(Site::new(
            Place {
                position,
                swapped: false,
            },
            state,
            tail(&moves[..position]).0,
            head(&moves[position..]).0,
        ));
        if position > 0
            && position < moves.len()
            && moves[position - 1].face().axis() == moves[position].face().axis()
        {
            let (a, b) = (moves[position - 1], moves[position]);
            let w = Cube::from_move(a.inverse()).apply_move(b);
            let swapped = w.inverse().compose(&state).compose(&w);
            out.push(Site::new(
                Place {
                    position,
                    swapped: true,
                },
                swapped,
                head(&[b]).0,
                head(&[a]).0,
            ));
        }
    }
    out
}

/// What a search shares: the set, the scramble state, the clock and the stop flag.
pub(crate) struct Context<'a> {
    pub(crate) set: &'a AlgSet,
    pub(crate) scramble: Cube,
    pub(crate) clock: Clock,
    pub(crate) stop: &'a AtomicBool,
}

impl<'a> Context<'a> {
    pub(crate) fn new(set: &'a AlgSet, scramble: Cube, clock: Clock, stop: &'a AtomicBool) -> Self {
        Context {
            set,
            scramble,
            clock,
            stop,
        }
    }

    /// Whether the search must end now.
    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.clock.expired()
    }

    /// The length of `moves` (reduced, `n` moves) with `alg` at `site`, `None` when the search
    /// space leaves it out (its first moves cancel completely: the same insertion goes further
    /// left).
    fn inserted_len(&self, moves: &[Move], site: &Site, alg: &AlgRef) -> Option<usize> {
        let (left, left_gone) = site.left.cancel(alg.head);
        if left_gone {
            return None;
        }
        let (right, right_gone) = alg.tail.cancel(site.right);
        let removed = if right_gone {
            // The cancellation goes on past the next group: count it exactly.
            let (before, after) = site.place.split(moves);
            cancelled(&before, self.set.moves_of(alg), &after)
        } else {
            left + right
        };
        Some(moves.len() + alg.len() - removed)
    }

    /// `moves` with the algorithm of `step` inserted, reduced.
    pub(crate) fn insert(&self, moves: &[Move], step: Step) -> Vec<Move> {
        let (before, after) = step.place.split(moves);
        let alg = self.set.alg_moves(step.case as usize, step.alg as usize);
        simplify(&[&before[..], alg, &after[..]].concat())
    }

    /// Calls `f(site, case, new measure)` for each site of `moves` and each case that lowers the
    /// measure `current` there (moving two of the site's unsolved pieces or more); the solving
    /// case (new measure 0) through the look-up of its effect.
    fn reducing_cases(&self, sites: &[Site], current: u8, mut f: impl FnMut(&Site, usize, u8)) {
        // Each part's distance at the site, computed once (`UNKNOWN` until then): cases that
        // share a part (the parities, a corner swap with each edge swap) share its distance.
        const UNKNOWN: u8 = u8::MAX;
        let mut cached = [
            vec![UNKNOWN; self.set.parts(0).len()],
            vec![UNKNOWN; self.set.parts(1).len()],
        ];
        for site in sites {
            let solving = self.set.case_index(&site.state.inverse());
            if let Some(case) = solving {
                f(site, case, 0);
            }
            if current <= 2 {
                // Only 0 is below 2: nothing else to find.
                continue;
            }
            cached[0].fill(UNKNOWN);
            cached[1].fill(UNKNOWN);
            let measured = Measured::new(&site.state);
            let mut distance = |orbit: usize, part: u32, site: &Site| -> u8 {
                let slot = &mut cached[orbit][part as usize];
                if *slot == UNKNOWN {
                    let next = site.state.compose(&self.set.parts(orbit)[part as usize]);
                    *slot = if orbit == 0 {
                        corner_distance(&next)
                    } else {
                        edge_distance(&next)
                    };
                }
                *slot
            };
            // A case of one orbit keeping the parity leaves the other orbit's distance as it is,
            // so it helps only where its own orbit's distance can fall.
            let movers = [
                (Movers::Corners, measured.corners > 0),
                (Movers::Edges, measured.edges > 0),
                (Movers::Both, true),
            ];
            let candidates = movers
                .into_iter()
                .filter(|&(_, useful)| useful)
                .flat_map(|(movers, _)| self.set.cases_moving(movers));
            for &case in candidates {
                let case = case as usize;
                let info = &self.set.cases()[case];
                if (info.support() & measured.unsolved).count_ones() < 2 || Some(case) == solving {
                    continue;
                }
                let [corner_part, edge_part] = info.parts();
                let odd = info.is_odd();
                let corners = if corner_part == 0 && !odd {
                    measured.corners
                } else {
                    distance(0, corner_part, site)
                };
                let edges = if edge_part == 0 && !odd {
                    measured.edges
                } else {
                    distance(1, edge_part, site)
                };
                let after = measure_of(measured.odd ^ odd, corners, edges);
                if after < current {
                    f(site, case, after);
                }
            }
        }
    }
}

/// A sequence reached by insertions, with what it leaves.
#[derive(Clone, Debug)]
pub(crate) struct Node {
    pub(crate) moves: Vec<Move>,
    pub(crate) measure: u8,
    pub(crate) steps: Vec<Step>,
}

/// A child of a node before it is built: the step and the length it makes.
#[derive(Clone, Copy, Debug)]
struct Child {
    step: Step,
    len: usize,
    measure: u8,
}

/// Every insertion into `node` in the search space no longer than `bound` moves (inclusive),
/// with what it leaves.
fn children(context: &Context<'_>, node: &Node, bound: usize) -> Vec<Child> {
    let sites = sites(&node.moves, &context.scramble);
    let mut out = Vec::new();
    context.reducing_cases(&sites, node.measure, |site, case, measure| {
        for (i, alg) in context.set.algs_of(case).iter().enumerate() {
            if let Some(len) = context.inserted_len(&node.moves, site, alg)
                && len <= bound
            {
                out.push(Child {
                    step: Step {
                        place: site.place,
                        case: case as u32,
                        alg: i as u32,
                    },
                    len,
                    measure,
                });
            }
        }
    });
    out
}

/// The shortest insertion into `node` that solves (no longer than `bound` moves), found by the
/// look-up of the solving case at each site.
fn best_finish(context: &Context<'_>, node: &Node, bound: usize) -> Option<Child> {
    let mut best: Option<Child> = None;
    for site in sites(&node.moves, &context.scramble) {
        let Some(case) = context.set.case_index(&site.state.inverse()) else {
            continue;
        };
        for (i, alg) in context.set.algs_of(case).iter().enumerate() {
            if let Some(len) = context.inserted_len(&node.moves, &site, alg)
                && len <= best.map_or(bound, |b| b.len - 1)
            {
                best = Some(Child {
                    step: Step {
                        place: site.place,
                        case: case as u32,
                        alg: i as u32,
                    },
                    len,
                    measure: 0,
                });
            }
        }
    }
    best
}

/// The best solution found so far, shared by the workers.
struct Best {
    len: AtomicUsize,
    node: Mutex<Option<Node>>,
}

impl Best {
    fn new(initial: Option<Node>) -> Best {
        Best {
            len: AtomicUsize::new(initial.as_ref().map_or(usize::MAX, |n| n.moves.len())),
            node: Mutex::new(initial),
        }
    }

    fn len(&self) -> usize {
        self.len.load(Ordering::Relaxed)
    }

    fn offer(&self, node: Node) {
        let mut best = self.node.lock().expect("no worker panics holding the best");
        if node.moves.len() < best.as_ref().map_or(usize::MAX, |b| b.moves.len()) {
            self.len.store(node.moves.len(), Ordering::Relaxed);
            *best = Some(node);
        }
    }

    fn take(self) -> Option<Node> {
        self.node
            .into_inner()
            .expect("no worker panics holding the best")
    }
}

/// Builds the child `child` of `node`.
fn child_node(context: &Context<'_>, node: &Node, child: &Child) -> Node {
    let moves = context.insert(&node.moves, child.step);
    debug_assert_eq!(
        moves.len(),
        child.len,
        "the counted length is the built one's"
    );
    let mut steps = node.steps.clone();
    steps.push(child.step);
    Node {
        moves,
        measure: child.measure,
        steps,
    }
}

/// A 128-bit hash of a sequence, for the set of sequences expanded.
fn sequence_hash(moves: &[Move]) -> u128 {
    let hasher = BuildHasherDefault::<WordHasher>::default();
    let a = hasher.hash_one(moves);
    let b = hasher.hash_one((moves, 0x5eed_u64));
    u128::from(a) << 64 | u128::from(b)
}

/// The optimal finder: the shortest solution of the space, depth first from `root`, bounded by
/// `initial` (a solution already found, by the greedy finder); whether the search ended (`false`
/// when stopped).
pub(crate) fn optimal(
    context: &Context<'_>,
    root: Node,
    initial: Option<Node>,
) -> (Option<Node>, bool) {
    let best = Best::new(initial);
    let expanded = Mutex::new(HashSet::new());
    let complete = AtomicBool::new(true);
    if root.measure <= 2 {
        // One insertion left: the best one is the answer.
        if let Some(child) = best_finish(context, &root, best.len().saturating_sub(1)) {
            best.offer(child_node(context, &root, &child));
        }
        return (best.take(), !context.stopped());
    }
    let first = children(context, &root, best.len().saturating_sub(1));
    first.par_iter().for_each(|child| {
        dive(context, &root, child, &best, &expanded, &complete);
    });
    (best.take(), complete.into_inner())
}

/// The depth-first search below `node`'s child `child`.
fn dive(
    context: &Context<'_>,
    node: &Node,
    child: &Child,
    best: &Best,
    expanded: &Mutex<HashSet<u128>>,
    complete: &AtomicBool,
) {
    if child.len >= best.len() {
        return;
    }
    if context.stopped() {
        complete.store(false, Ordering::Relaxed);
        return;
    }
    let next = child_node(context, node, child);
    if next.measure == 0 {
        best.offer(next);
        return;
    }
    if next.measure <= 2 {
        if let Some(finish) = best_finish(context, &next, best.len().saturating_sub(1)) {
            best.offer(child_node(context, &next, &finish));
        }
        return;
    }
    if !expanded
        .lock()
        .expect("no worker panics holding the set")
        .insert(sequence_hash(&next.moves))
    {
        return;
    }
    let mut grandchildren = children(context, &next, best.len().saturating_sub(1));
    grandchildren.sort_unstable_by_key(|c| c.len);
    for grandchild in &grandchildren {
        dive(context, &next, grandchild, best, expanded, complete);
    }
}

/// The greedy finder: measure by measure from the root's down, the sequences within `width`
/// moves of the shortest reaching each measure (at most `max_nodes` of them), all expanded; the
/// shortest solution found, and whether it ran to the end.
pub(crate) fn greedy(
    context: &Context<'_>,
    root: Node,
    width: usize,
    max_nodes: usize,
) -> (Option<Node>, bool) {
    let levels: Vec<Mutex<Vec<Node>>> =
        (0..=root.measure).map(|_| Mutex::new(Vec::new())).collect();
    let shortest: Vec<AtomicUsize> = (0..=root.measure)
        .map(|_| AtomicUsize::new(usize::MAX))
        .collect();
    let best = Best::new(None);
    let top = usize::from(root.measure);
    shortest[top].store(root.moves.len(), Ordering::Relaxed);
    levels[top].lock().expect("no worker panics").push(root);
    let mut complete = true;
    for level in (1..=top).rev() {
        let mut nodes = std::mem::take(&mut *levels[level].lock().expect("no worker panics"));
        nodes.sort_unstable_by(|a, b| (a.moves.len(), &a.moves).cmp(&(b.moves.len(), &b.moves)));
        nodes.dedup_by(|a, b| a.moves == b.moves);
        let cut = shortest[level]
            .load(Ordering::Relaxed)
            .saturating_add(width);
        nodes.retain(|n| n.moves.len() <= cut);
        nodes.truncate(max_nodes);
        if context.stopped() {
            complete = false;
            break;
        }
        nodes.par_iter().for_each(|node| {
            if context.stopped() {
                return;
            }
            for child in children(context, node, usize::MAX) {
                let m = usize::from(child.measure);
                if m == 0 {
                    if child.len < best.len() {
                        best.offer(child_node(context, node, &child));
                    }
                    continue;
                }
                let known = shortest[m].fetch_min(child.len, Ordering::Relaxed);
                if child.len > known.min(child.len).saturating_add(width) {
                    continue;
                }
                let built = child_node(context, node, &child);
                levels[m].lock().expect("no worker panics").push(built);
            }
        });
    }
    if context.stopped() {
        complete = false;
    }
    (best.take(), complete)
}
