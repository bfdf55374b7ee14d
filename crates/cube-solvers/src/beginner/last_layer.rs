//! The beginner's last layer: top cross, corner permutation, corner orientation, edge
//! permutation (stages 4 to 7).
//!
//! Each stage has a small alphabet: U turns and the stage's beginner algorithms with their
//! inverses and left-right mirrors. Every algorithm keeps the first two layers (the twisting
//! pairs of stage 6 disturb the D layer, but only in a way that the U layer's corner twists
//! determine, so it comes back when every top corner is oriented), so the state that matters is
//! the last layer alone: where the four U corners and four U edges are and how they are turned,
//! 24 x 81 x 24 x 16 = 746,496 states (62,208 of them after the first two layers).
//!
//! Two tables per stage ([`LastLayerTables`], part of the beginner's tables and built with
//! them): the fewest turns to the stage's goal (a backward Dijkstra from every goal state), and the fewest turns for the stage and every later one when each
//! stage is done by one of its shortest sequences (by increasing stage distance: a goal state
//! goes on with the next stage's figure, another takes the best macro that starts a shortest
//! sequence). A solve walks down them: each stage takes a shortest sequence for its own goal
//! (so a learner sees no detour), and of those the one that leaves the later stages shortest,
//! counting the turns its first macro cancels with the turns before it. Which way an
//! algorithm cycles or twists its pieces is read off cube-core's cubies, never assumed.
//!
//! A state's index is a corner part (`corner_rank * 81 + twists`) times 384 plus an edge part
//! (`edge_rank * 16 + flips`); a macro moves the corners and the edges apart, so it moves the
//! index by one small table per part, and a stage's goal states are the pairs of goal parts of
//! equal parity: the tables build in a few tens of milliseconds.

use cube_core::{Cube, Face, Move, simplify};

use crate::SolveError;
use crate::staged::search::{Macro, Piece};
use crate::staged::{inverse, stage_failed};

/// The top-cross algorithms (with their mirrors, four in all): `F R U R' U' F'` is the inverse
/// of `F U R U' R' F'`.
const TOP_CROSS: [&str; 1] = ["F R U R' U' F'"];
/// The corner 3-cycles: an outer-turn A-perm and Niklas (`U R U' L' U R' U' L`, written without
/// its first U, which the U turns of the alphabet supply), with their inverses and mirrors.
const CORNER_PERM: [&str; 2] = ["R' F R' B2 R F' R' B2 R2", "R U' L' U R' U' L"];
/// The corner-twisting pairs on the corner at URF: `R' D' R D` twice turns it one way,
/// `D' R' D R` twice the other way, so a corner never needs more than one pair.
const TWIST_PAIRS: [&str; 2] = ["R' D' R D R' D' R D", "D' R' D R D' R' D R"];
/// An outer-turn U-perm (an edge 3-cycle), with its inverse and mirrors.
const EDGE_PERM: [&str; 1] = ["R U' R U R U R U' R' U' R2"];

/// The first and last stage (indices into the beginner's seven) that this module runs.
const FIRST: usize = 3;
const N_STAGES: usize = 4;

/// Where the U corners and U edges are: the place of U corner `i` (`position * 3 + twist`,
/// positions 0..4) and of U edge `i` (`position * 2 + flip`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct LastLayer {
    corners: [u8; 4],
    edges: [u8; 4],
}

/// The number of [`LastLayer`] states: corner positions, twists, edge positions, flips.
const N_STATES: usize = 24 * 81 * 24 * 16;
/// An unreached state in a table.
const UNREACHED: u8 = u8::MAX;

/// The 24 arrangements of four positions, and the rank of each packed as four 2-bit digits.
struct Perms {
    perms: [[u8; 4]; 24],
    rank: [u8; 256],
}

/// [`Perms`], computed at compile time (a `static`, so that every use reads the one copy).
static PERMS: Perms = {
    let mut perms = [[0u8; 4]; 24];
    let mut rank = [u8::MAX; 256];
    let mut n = 0;
    let mut code = 0;
    while code < 256 {
        let p = [code & 3, code >> 2 & 3, code >> 4 & 3, code >> 6 & 3];
        // A permutation when the four digits are distinct.
        let distinct = p[0] != p[1] && p[0] != p[2] && p[0] != p[3];
        if distinct && p[1] != p[2] && p[1] != p[3] && p[2] != p[3] {
            perms[n] = [p[0] as u8, p[1] as u8, p[2] as u8, p[3] as u8];
            rank[code] = n as u8;
            n += 1;
        }
        code += 1;
    }
    Perms { perms, rank }
};

impl LastLayer {
    /// The last layer of `cube`, or `None` if a U piece is outside the U layer.
    fn of(cube: &Cube) -> Option<LastLayer> {
        let corners = std::array::from_fn(|i| Piece::Corner(i as u8).place(cube));
        let edges = std::array::from_fn(|i| Piece::Edge(i as u8).place(cube));
        (corners.iter().all(|&c| c < 12) && edges.iter().all(|&e| e < 8))
            .then_some(LastLayer { corners, edges })
    }

    fn index(&self) -> usize {
        let p = &PERMS;
        let pack = |places: &[u8; 4], per: u8| {
            places.iter().enumerate().fold(0, |code, (i, &place)| {
                code | ((place / per) as usize) << (2 * i)
            })
        };
        let twists = self
            .corners
            .iter()
            .rev()
            .fold(0, |t, &c| t * 3 + (c % 3) as usize);
        let flips = self
            .edges
            .iter()
            .rev()
            .fold(0, |f, &e| f * 2 + (e % 2) as usize);
        let corner_rank = p.rank[pack(&self.corners, 3)] as usize;
        let edge_rank = p.rank[pack(&self.edges, 2)] as usize;
        ((corner_rank * 81 + twists) * 24 + edge_rank) * 16 + flips
    }

    fn from_index(index: usize) -> LastLayer {
        let p = &PERMS;
        let (mut flips, rest) = (index % 16, index / 16);
        let (edge_rank, rest) = (rest % 24, rest / 24);
        let (mut twists, corner_rank) = (rest % 81, rest / 81);
        let mut corners = p.perms[corner_rank];
        for c in &mut corners {
            *c = *c * 3 + (twists % 3) as u8;
            twists /= 3;
        }
        let mut edges = p.perms[edge_rank];
        for e in &mut edges {
            *e = *e * 2 + (flips % 2) as u8;
            flips /= 2;
        }
        LastLayer { corners, edges }
    }

    /// The corners' share of the goal of last-layer stage `stage` (0..4: top cross, corners
    /// permuted, corners oriented, solved) and of those before it. The whole goal is
    /// [`LastLayer::corners_done`], [`LastLayer::edges_done`] and equal corner and edge parities.
    fn corners_done(&self, stage: usize) -> bool {
        // Between stages the D layer is solved, so the U corners' twists sum to zero.
        let sum_ok = self.corners.iter().map(|&c| c % 3).sum::<u8>() % 3 == 0;
        let corners_home = (0..4).all(|i| self.corners[i] / 3 == i as u8);
        let twists_ok = self.corners.iter().all(|&c| c % 3 == 0);
        sum_ok && (stage < 1 || corners_home) && (stage < 2 || twists_ok)
    }

    /// The edges' share of the goal of last-layer stage `stage` (see [`LastLayer::corners_done`]).
    fn edges_done(&self, stage: usize) -> bool {
        let flips_ok = self.edges.iter().all(|&e| e % 2 == 0);
        let edges_home = (0..4).all(|i| self.edges[i] == 2 * i as u8);
        flips_ok && (stage < 3 || edges_home)
    }
}

/// The parity of the positions (`place / per`) of four pieces.
fn parity(places: &[u8; 4], per: u8) -> bool {
    let p = places.map(|place| place / per);
    let inversions = (0..4)
        .flat_map(|i| (i + 1..4).map(move |j| (i, j)))
        .filter(|&(i, j)| p[i] > p[j])
        .count();
    inversions % 2 == 1
}

/// The corner part of a state index (`corner_rank * 81 + twists`) takes values below this; the
/// index is `corner_part * N_EDGE_PARTS + edge_part`.
const N_CORNER_PARTS: usize = 24 * 81;
/// The edge part of a state index (`edge_rank * 16 + flips`) takes values below this.
const N_EDGE_PARTS: usize = 24 * 16;

/// A macro's effect on the state index, both ways. A macro moves the U corners and the U edges
/// independently, so it maps the corner part and the edge part of an index each by its own
/// table (1,944 and 384 entries): a move is two lookups.
struct LastLayerMacro {
    moves: Vec<Move>,
    cost: u8,
    corner_part: Vec<u16>,
    edge_part: Vec<u16>,
    corner_part_back: Vec<u16>,
    edge_part_back: Vec<u16>,
}

impl LastLayerMacro {
    /// # Panics
    /// If `m` takes a U piece out of the U layer (the tests check every alphabet).
    fn new(m: &Macro) -> LastLayerMacro {
        let corner: [u8; 12] = std::array::from_fn(|p| m.move_place(Piece::Corner(0), p as u8));
        let edge: [u8; 8] = std::array::from_fn(|p| m.move_place(Piece::Edge(0), p as u8));
        assert!(
            corner.iter().all(|&c| c < 12) && edge.iter().all(|&e| e < 8),
            "{:?} keeps the U pieces in the U layer",
            m.moves
        );
        // Each part moved with the other part at 0, which the macro's other table handles.
        let corner_part: Vec<u16> = (0..N_CORNER_PARTS)
            .map(|c| {
                let mut ll = LastLayer::from_index(c * N_EDGE_PARTS);
                ll.corners = ll.corners.map(|place| corner[place as usize]);
                (ll.index() / N_EDGE_PARTS) as u16
            })
            .collect();
        let edge_part: Vec<u16> = (0..N_EDGE_PARTS)
            .map(|e| {
                let mut ll = LastLayer::from_index(e);
                ll.edges = ll.edges.map(|place| edge[place as usize]);
                (ll.index() % N_EDGE_PARTS) as u16
            })
            .collect();
        let back = |forward: &[u16]| {
            let mut back = vec![0u16; forward.len()];
            for (from, &to) in forward.iter().enumerate() {
                back[to as usize] = from as u16;
            }
            back
        };
        LastLayerMacro {
            moves: m.moves.clone(),
            cost: m.cost() as u8,
            corner_part_back: back(&corner_part),
            edge_part_back: back(&edge_part),
            corner_part,
            edge_part,
        }
    }

    /// The index of the state after the macro, from the state `index`.
    #[inline]
    fn apply(&self, index: usize) -> usize {
        let (c, e) = (index / N_EDGE_PARTS, index % N_EDGE_PARTS);
        self.corner_part[c] as usize * N_EDGE_PARTS + self.edge_part[e] as usize
    }

    /// The index of the state the macro takes to the state `index`.
    #[inline]
    fn unapply(&self, index: usize) -> usize {
        let (c, e) = (index / N_EDGE_PARTS, index % N_EDGE_PARTS);
        self.corner_part_back[c] as usize * N_EDGE_PARTS + self.edge_part_back[e] as usize
    }
}

/// `moves` mirrored through the plane between L and R.
fn mirror(moves: &[Move]) -> Vec<Move> {
    moves
        .iter()
        .map(|m| {
            let face = match m.face() {
                Face::R => Face::L,
                Face::L => Face::R,
                face => face,
            };
            Move::new(face, (4 - m.amount()) % 4)
        })
        .collect()
}

/// The algorithms of `notations` with their inverses, mirrors and mirrors' inverses (each once).
fn variants(notations: &[&str]) -> Vec<Macro> {
    let mut out: Vec<Vec<Move>> = Vec::new();
    for notation in notations {
        let m = Macro::parse(notation).moves;
        for v in [inverse(&m), mirror(&m), inverse(&mirror(&m)), m] {
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out.sort();
    out.into_iter().map(Macro::new).collect()
}

/// The alphabets (U turns first) and the distance tables of the four last-layer stages: part of
/// the beginner's tables ([`BeginnerTables`](super::BeginnerTables)), built with them.
pub(super) struct LastLayerTables {
    alphabets: [Vec<LastLayerMacro>; N_STAGES],
    /// `stage[s][state]`: the fewest turns that reach the goal of stage `s`.
    stage: [Vec<u8>; N_STAGES],
    /// `total[s][state]`: the fewest turns that finish stage `s` by one of its shortest
    /// sequences and then the later stages in the same way.
    total: [Vec<u8>; N_STAGES],
}

fn alphabet_macros(stage: usize) -> Vec<Macro> {
    let mut macros: Vec<Macro> = [Move::U1, Move::U2, Move::U3]
        .map(|m| Macro::new(vec![m]))
        .to_vec();
    match stage {
        0 => macros.extend(variants(&TOP_CROSS)),
        1 => macros.extend(variants(&CORNER_PERM)),
        2 => macros.extend(TWIST_PAIRS.iter().map(|n| Macro::parse(n))),
        _ => macros.extend(variants(&EDGE_PERM)),
    }
    macros
}

/// The distance of every state to the goal of stage `s` with `alphabet`, by a backward
/// Dijkstra from every goal state.
fn stage_distances(s: usize, alphabet: &[LastLayerMacro]) -> Vec<u8> {
    let mut table = vec![UNREACHED; N_STATES];
    let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); UNREACHED as usize];
    // The goal states, in increasing index: the corner parts and the edge parts that meet
    // their share of the goal, paired when their parities agree.
    let corner_goals: Vec<(usize, bool)> = (0..N_CORNER_PARTS)
        .filter_map(|c| {
            let ll = LastLayer::from_index(c * N_EDGE_PARTS);
            ll.corners_done(s).then(|| (c, parity(&ll.corners, 3)))
        })
        .collect();
    let edge_goals: Vec<(usize, bool)> = (0..N_EDGE_PARTS)
        .filter_map(|e| {
            let ll = LastLayer::from_index(e);
            ll.edges_done(s).then(|| (e, parity(&ll.edges, 2)))
        })
        .collect();
    for &(c, corner_parity) in &corner_goals {
        for &(e, edge_parity) in &edge_goals {
            if corner_parity == edge_parity {
                let index = c * N_EDGE_PARTS + e;
                table[index] = 0;
                buckets[0].push(index as u32);
            }
        }
    }
    for cost in 0..buckets.len() {
        let mut i = 0;
        while i < buckets[cost].len() {
            let index = buckets[cost][i] as usize;
            i += 1;
            if table[index] as usize != cost {
                continue;
            }
            for m in alphabet {
                let before = m.unapply(index);
                let next = cost + m.cost as usize;
                if next < table[before] as usize {
                    table[before] = next as u8;
                    buckets[next].push(before as u32);
                }
            }
        }
    }
    table
}

impl LastLayerTables {
    /// The four stages' alphabets and tables: a backward Dijkstra per stage from its goal
    /// states, then the totals from the last stage back.
    pub(super) fn build() -> LastLayerTables {
        let alphabets: [Vec<LastLayerMacro>; N_STAGES] =
            std::array::from_fn(|s| alphabet_macros(s).iter().map(LastLayerMacro::new).collect());
        let stage: [Vec<u8>; N_STAGES] = std::array::from_fn(|s| stage_distances(s, &alphabets[s]));
        let mut total: [Vec<u8>; N_STAGES] = std::array::from_fn(|_| Vec::new());
        for s in (0..N_STAGES).rev() {
            // By increasing stage distance: a state on the goal goes on to the next stage;
            // another takes the best of the macros that start a shortest sequence.
            let mut by_distance: Vec<Vec<u32>> = vec![Vec::new(); UNREACHED as usize];
            for (index, &d) in stage[s].iter().enumerate() {
                if d != UNREACHED {
                    by_distance[d as usize].push(index as u32);
                }
            }
            let mut table = vec![UNREACHED; N_STATES];
            for (d, indices) in by_distance.iter().enumerate() {
                for &index in indices {
                    let index = index as usize;
                    table[index] = if d == 0 {
                        if s + 1 == N_STAGES {
                            0
                        } else {
                            total[s + 1][index]
                        }
                    } else {
                        alphabets[s]
                            .iter()
                            .filter_map(|m| {
                                let next = m.apply(index);
                                (stage[s][next] as usize + m.cost as usize == d)
                                    .then(|| table[next].saturating_add(m.cost))
                            })
                            .min()
                            .unwrap_or(UNREACHED)
                    };
                }
            }
            total[s] = table;
        }
        LastLayerTables {
            alphabets,
            stage,
            total,
        }
    }

    /// The fewest turns the four last-layer stages take from `cube` (whose first two layers are
    /// solved), each stage by one of its shortest sequences; `None` if a U piece is elsewhere.
    pub(super) fn turns_left(&self, cube: &Cube) -> Option<usize> {
        let ll = LastLayer::of(cube)?;
        Some(self.total[0][ll.index()] as usize).filter(|&d| d != UNREACHED as usize)
    }

    /// The turns of last-layer stage `stage` (3..7) from `cube`, which the earlier stages
    /// solved; `before` is every turn so far (for cancellation).
    pub(super) fn run(
        &self,
        cube: &Cube,
        stage: usize,
        label: &str,
        before: &[Move],
    ) -> Result<Vec<Move>, SolveError> {
        let s = stage - FIRST;
        let failed = || stage_failed("beginner", label);
        let mut index = LastLayer::of(cube).ok_or_else(failed)?.index();
        let mut all: Vec<Move> = before.to_vec();
        let start = all.len();
        // Every step lowers the stage distance, which starts below 255.
        for _step in 0..UNREACHED {
            let here = self.stage[s][index];
            if here == UNREACHED {
                return Err(failed());
            }
            if here == 0 {
                return Ok(all.split_off(start));
            }
            // Of the macros that start a shortest sequence for the stage, the one that leaves
            // the fewest turns in all, counting what it cancels with the turns before it.
            let (_, m, next) = self.alphabets[s]
                .iter()
                .filter_map(|m| {
                    let next = m.apply(index);
                    let tight = self.stage[s][next] as usize + m.cost as usize == here as usize;
                    let cost = self.total[s][next] as usize + m.cost as usize;
                    tight.then(|| (cost - saving(&all, &m.moves), m, next))
                })
                .min_by_key(|&(cost, _, _)| cost)
                .ok_or_else(failed)?;
            all.extend(&m.moves);
            index = next;
        }
        Err(failed())
    }
}

/// How many turns appending `next` to `before` saves by cancellation.
fn saving(before: &[Move], next: &[Move]) -> usize {
    let tail = &before[before.len().saturating_sub(3)..];
    let head = &next[..next.len().min(3)];
    let joined: Vec<Move> = tail.iter().chain(head).copied().collect();
    joined.len() - simplify(&joined).len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::staged::stage_done;

    #[test]
    fn states_round_trip() {
        for index in (0..N_STATES).step_by(7) {
            assert_eq!(LastLayer::from_index(index).index(), index);
        }
        assert_eq!(LastLayer::of(&Cube::SOLVED).unwrap().index(), {
            let solved = LastLayer {
                corners: [0, 3, 6, 9],
                edges: [0, 2, 4, 6],
            };
            solved.index()
        });
    }

    #[test]
    fn algorithms_do_what_the_stages_need() {
        let f2l_kept = |cube: &Cube| stage_done(cube, 2);
        for stage in 0..N_STAGES {
            for m in &alphabet_macros(stage)[3..] {
                // Every algorithm keeps the U pieces in the U layer (checked here).
                LastLayerMacro::new(m);
                match stage {
                    // The top-cross algorithms keep the first two layers.
                    0 => assert!(f2l_kept(&m.cube)),
                    // The corner 3-cycles (Niklas with a U turn) keep the first two layers and
                    // the edges' flips.
                    1 => assert!(f2l_kept(&m.cube) && m.cube.edge_ori() == [0; 12]),
                    // A twisting pair keeps the corner at URF in place and turns it, and
                    // leaves the rest of the U layer alone.
                    2 => {
                        let pair = &m.cube;
                        assert_eq!(pair.corner_perm()[0], 0);
                        assert_ne!(pair.corner_ori()[0], 0);
                        assert_eq!(pair.edge_perm()[..4], [0, 1, 2, 3]);
                        assert_eq!(pair.edge_ori(), [0; 12]);
                        assert!(
                            (1..4)
                                .all(|c| pair.corner_perm()[c] == c as u8
                                    && pair.corner_ori()[c] == 0)
                        );
                        // Three pairs one way bring the D layer back.
                        let three = pair.compose(pair).compose(pair);
                        assert!(three.is_solved());
                    }
                    // The U-perms keep everything but cycle three top edges.
                    _ => {
                        assert!(stage_done(&m.cube, 5));
                        let moved = (0..4).filter(|&p| m.cube.edge_perm()[p] != p as u8);
                        assert_eq!(moved.count(), 3);
                    }
                }
            }
        }
        // The two pairs turn the corner opposite ways.
        let pairs = alphabet_macros(2);
        assert_eq!(
            (pairs[3].cube.corner_ori()[0] + pairs[4].cube.corner_ori()[0]) % 3,
            0
        );
    }

    #[test]
    fn macro_moves_on_the_index_agree_with_moving_the_pieces() {
        for stage in 0..N_STAGES {
            for m in &alphabet_macros(stage) {
                let ll_macro = LastLayerMacro::new(m);
                for index in (0..N_STATES).step_by(61) {
                    let ll = LastLayer::from_index(index);
                    let moved = LastLayer {
                        corners: ll.corners.map(|c| m.move_place(Piece::Corner(0), c)),
                        edges: ll.edges.map(|e| m.move_place(Piece::Edge(0), e)),
                    };
                    let next = ll_macro.apply(index);
                    assert_eq!(next, moved.index(), "{:?} from {index}", m.moves);
                    assert_eq!(ll_macro.unapply(next), index, "{:?}", m.moves);
                }
            }
        }
    }

    #[test]
    fn goal_states_are_those_of_the_solved_last_layer_under_the_stage_rules() {
        // Stage 3's goal is the solved last layer alone; stage 0's are the states with every U
        // edge unflipped and the corner twists summing to zero, of equal corner and edge parity.
        let t = LastLayerTables::build();
        let goals = |s: usize| {
            (0..N_STATES)
                .filter(|&i| t.stage[s][i] == 0)
                .collect::<Vec<_>>()
        };
        let solved = LastLayer::of(&Cube::SOLVED).unwrap().index();
        assert_eq!(goals(3), vec![solved]);
        let expected: Vec<usize> = (0..N_STATES)
            .filter(|&i| {
                let ll = LastLayer::from_index(i);
                ll.edges.iter().all(|&e| e % 2 == 0)
                    && ll.corners.iter().map(|&c| c % 3).sum::<u8>() % 3 == 0
                    && parity(&ll.corners, 3) == parity(&ll.edges, 2)
            })
            .collect();
        assert_eq!(goals(0), expected);
        assert_eq!(expected.len(), 24 * 27 * 24 / 2);
    }

    #[test]
    fn every_last_layer_state_is_reached() {
        let t = LastLayerTables::build();
        // Every state with the flips' and twists' sums zero and the corners' and edges'
        // parities equal can be finished.
        let reached = t.total[0].iter().filter(|&&d| d != UNREACHED).count();
        assert_eq!(reached, 24 * 27 * 24 * 8 / 2);
        assert!(t.total[0].iter().all(|&d| d == UNREACHED || d < 100));
    }
}
