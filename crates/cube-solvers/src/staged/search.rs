//! Small searches over macro alphabets, shared by the beginner method and CFOP.
//!
//! A macro is a short sequence of face turns (a trigger, an insert, an algorithm). The searches
//! find the cheapest string of macros, counting face turns, tracking one or two pieces only (a
//! corner, an edge, or an F2L pair): each macro's effect on a piece's place (position and
//! orientation, 24 values for either kind) is computed once from cube-core, so
//! [`piece_search`] is a Dijkstra over at most 576 states, and [`one_piece_search`], for one
//! piece, over 24.
//!
//! They are exact for their alphabet: every macro keeps what earlier stages solved, so only the
//! tracked part matters.

use cube_core::{Alg, Cube, Move, Symmetry, simplify};

/// The most face turns a path may cost; every search in this crate needs far fewer.
const MAX_COST: usize = 64;

/// A piece tracked by [`piece_search`]: a corner or an edge, by its home position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Piece {
    /// A corner piece (0..8, Kociemba order).
    Corner(u8),
    /// An edge piece (0..12, Kociemba order).
    Edge(u8),
}

impl Piece {
    /// The piece's place in `cube`: `position * 3 + twist` for a corner, `position * 2 + flip`
    /// for an edge. Both are below 24.
    pub(crate) fn place(self, cube: &Cube) -> u8 {
        match self {
            Piece::Corner(piece) => {
                let (cp, co) = (cube.corner_perm(), cube.corner_ori());
                let position = cp
                    .iter()
                    .position(|&p| p == piece)
                    .expect("every corner is somewhere");
                position as u8 * 3 + co[position]
            }
            Piece::Edge(piece) => {
                let (ep, eo) = (cube.edge_perm(), cube.edge_ori());
                let position = ep
                    .iter()
                    .position(|&p| p == piece)
                    .expect("every edge is somewhere");
                position as u8 * 2 + eo[position]
            }
        }
    }

    /// The place of the piece when it is solved.
    pub(crate) fn home(self) -> u8 {
        match self {
            Piece::Corner(piece) => piece * 3,
            Piece::Edge(piece) => piece * 2,
        }
    }
}

/// A sequence of face turns with its effect on the place of every piece.
#[derive(Clone, Debug)]
pub(crate) struct Macro {
    /// The face turns.
    pub(crate) moves: Vec<Move>,
    /// The state the turns make from the solved cube.
    pub(crate) cube: Cube,
    /// Where a corner at each place (`position * 3 + twist`) goes.
    corner_place: [u8; 24],
    /// Where an edge at each place (`position * 2 + flip`) goes.
    edge_place: [u8; 24],
}

impl Macro {
    /// The macro of `moves`.
    pub(crate) fn new(moves: Vec<Move>) -> Macro {
        let cube = Cube::SOLVED.apply_moves(&moves);
        let (cp, co, ep, eo) = (
            cube.corner_perm(),
            cube.corner_ori(),
            cube.edge_perm(),
            cube.edge_ori(),
        );
        // The piece at position `from` goes to the position `to` whose source is `from`, and
        // picks up the orientation change recorded there.
        let mut corner_place = [0u8; 24];
        for to in 0..8 {
            let from = cp[to] as usize;
            for twist in 0..3 {
                corner_place[from * 3 + twist] = (to * 3) as u8 + (twist as u8 + co[to]) % 3;
            }
        }
        let mut edge_place = [0u8; 24];
        for to in 0..12 {
            let from = ep[to] as usize;
            for flip in 0..2 {
                edge_place[from * 2 + flip] = (to * 2) as u8 + (flip as u8 ^ eo[to]);
            }
        }
        Macro {
            moves,
            cube,
            corner_place,
            edge_place,
        }
    }

    /// The macro of an algorithm written in extended notation, expanded to face turns relative
    /// to the centres (the net rotation only renames faces, so it is dropped) and simplified.
    ///
    /// # Panics
    /// If `notation` does not parse: every caller passes a constant that the tests parse.
    pub(crate) fn parse(notation: &str) -> Macro {
        let alg: Alg = notation
            .parse()
            .unwrap_or_else(|err| panic!("algorithm `{notation}` should parse: {err}"));
        Macro::new(simplify(&alg.moves()))
    }

    /// The macro conjugated by `y^k`: the same algorithm done with the cube turned `k` quarter
    /// turns about U (so it works on the slot `k` places along).
    pub(crate) fn rotated_y(&self, k: usize) -> Macro {
        let mut sym = Symmetry::IDENTITY;
        for _ in 0..k {
            sym = sym.then(Symmetry::Y);
        }
        Macro::new(self.moves.iter().map(|&m| sym.conjugate_move(m)).collect())
    }

    /// The number of face turns.
    pub(crate) fn cost(&self) -> usize {
        self.moves.len()
    }

    /// Where a piece of kind `piece` at place `place` goes.
    #[inline]
    pub(crate) fn move_place(&self, piece: Piece, place: u8) -> u8 {
        match piece {
            Piece::Corner(_) => self.corner_place[place as usize],
            Piece::Edge(_) => self.edge_place[place as usize],
        }
    }
}

/// The cheapest string of macros (in face turns) that takes every piece of `pieces` (one or two)
/// from its place in `cube` home, and its cost; `None` if the alphabet cannot.
///
/// Dijkstra over the places of the tracked pieces (at most 24 x 24 states), with a bucket queue.
pub(crate) fn piece_search(
    cube: &Cube,
    pieces: &[Piece],
    macros: &[&Macro],
) -> Option<(Vec<usize>, usize)> {
    assert!(
        matches!(pieces.len(), 1 | 2),
        "piece_search tracks one or two pieces"
    );
    let encode = |places: [u8; 2]| places[0] as usize * 24 + places[1] as usize;
    let mut start = [0u8; 2];
    let mut goal = [0u8; 2];
    for (i, piece) in pieces.iter().enumerate() {
        start[i] = piece.place(cube);
        goal[i] = piece.home();
    }
    let n_states = 24 * 24;
    let mut cost = vec![usize::MAX; n_states];
    let mut parent = vec![(u16::MAX, u8::MAX); n_states];
    let mut buckets: Vec<Vec<[u8; 2]>> = vec![Vec::new(); MAX_COST + 1];
    cost[encode(start)] = 0;
    buckets[0].push(start);
    let goal_state = encode(goal);
    for c in 0..=MAX_COST {
        let mut i = 0;
        while i < buckets[c].len() {
            let places = buckets[c][i];
            i += 1;
            let state = encode(places);
            if cost[state] != c {
                continue;
            }
            if state == goal_state {
                let mut path = Vec::new();
                let mut s = state;
                while s != encode(start) {
                    let (prev, macro_idx) = parent[s];
                    path.push(macro_idx as usize);
                    s = prev as usize;
                }
                path.reverse();
                return Some((path, c));
            }
            for (macro_idx, m) in macros.iter().enumerate() {
                let mut next = [0u8; 2];
                for (k, piece) in pieces.iter().enumerate() {
                    next[k] = m.move_place(*piece, places[k]);
                }
                let next_cost = c + m.cost();
                let next_state = encode(next);
                if next_cost <= MAX_COST && next_cost < cost[next_state] {
                    cost[next_state] = next_cost;
                    parent[next_state] = (state as u16, macro_idx as u8);
                    buckets[next_cost].push(next);
                }
            }
        }
    }
    None
}

/// [`piece_search`] for one piece: the same search over its 24 places, with the states on the
/// stack (the beginner method runs it dozens of times a solve).
pub(crate) fn one_piece_search(
    cube: &Cube,
    piece: Piece,
    macros: &[&Macro],
) -> Option<(Vec<usize>, usize)> {
    let (start, goal) = (piece.place(cube), piece.home());
    let mut cost = [u8::MAX; 24];
    let mut parent = [(u8::MAX, u8::MAX); 24];
    cost[start as usize] = 0;
    for c in 0..=MAX_COST as u8 {
        if cost[goal as usize] == c {
            let mut path = Vec::new();
            let mut place = goal;
            while place != start {
                let (prev, macro_idx) = parent[place as usize];
                path.push(macro_idx as usize);
                place = prev;
            }
            path.reverse();
            return Some((path, c as usize));
        }
        for place in 0..24u8 {
            if cost[place as usize] != c {
                continue;
            }
            for (macro_idx, m) in macros.iter().enumerate() {
                let next = m.move_place(piece, place) as usize;
                let next_cost = c as usize + m.cost();
                if next_cost <= MAX_COST && next_cost < cost[next] as usize {
                    cost[next] = next_cost as u8;
                    parent[next] = (place, macro_idx as u8);
                }
            }
        }
    }
    None
}

/// The face turns of a path of macros.
pub(crate) fn path_moves(path: &[usize], macros: &[&Macro]) -> Vec<Move> {
    path.iter()
        .flat_map(|&i| macros[i].moves.iter().copied())
        .collect()
}

/// The three U-layer turns as macros: `U`, `U2`, `U'`.
pub(crate) fn u_turns() -> [Macro; 3] {
    [Move::U1, Move::U2, Move::U3].map(|m| Macro::new(vec![m]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn macro_places_follow_the_cube() {
        let sexy = Macro::parse("R U R' U'");
        let mut cube = Cube::SOLVED.apply_moves(&[Move::F1, Move::L3, Move::D2]);
        let piece = Piece::Corner(4);
        let edge = Piece::Edge(8);
        for _ in 0..7 {
            let (before_c, before_e) = (piece.place(&cube), edge.place(&cube));
            cube = cube.compose(&sexy.cube);
            assert_eq!(sexy.move_place(piece, before_c), piece.place(&cube));
            assert_eq!(sexy.move_place(edge, before_e), edge.place(&cube));
        }
    }

    #[test]
    fn searches_find_short_paths() {
        let u = u_turns();
        let r = [Move::R1, Move::R3].map(|m| Macro::new(vec![m]));
        let macros: Vec<&Macro> = u.iter().chain(&r).collect();
        let cube = Cube::SOLVED.apply_moves(&[Move::R1, Move::U1]);
        let (path, cost) =
            piece_search(&cube, &[Piece::Corner(4), Piece::Edge(8)], &macros).unwrap();
        assert_eq!(cost, 2);
        assert!(cube.apply_moves(&path_moves(&path, &macros)).is_solved());
        let (path, cost) = one_piece_search(&cube, Piece::Corner(4), &macros).unwrap();
        assert_eq!(cost, 2);
        assert!(cube.apply_moves(&path_moves(&path, &macros)).is_solved());
    }
}
