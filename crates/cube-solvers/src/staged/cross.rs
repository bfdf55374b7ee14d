//! Cross tables: exact distances for sets of D-layer edges, over the tracked edges only.
//!
//! For a set of `k` edges the state is where each one is and how it is flipped, ranked as a
//! partial permutation: the `i`-th edge has `12 - i` free positions and two flips, so the four
//! cross edges have 12 x 11 x 10 x 9 x 2^4 = 190,080 states (REFERENCE.md, "Table sizes"). A
//! breadth-first search over all 18 moves gives the exact distance to the set solved, which is at
//! most 8 for the whole cross.
//!
//! The beginner method solves the cross one edge at a time with the tables of the growing set
//! (the cheapest next edge first); CFOP descends the four-edge table for an optimal cross.

use std::sync::OnceLock;

use cube_core::{Cube, Move};
use cube_tables::{DistanceTable, Encoding, PruneTable, Space, TableId, TableSpec};

use crate::{MethodTables, PayloadError, Payloads};

/// The D-layer edges in Kociemba order: DR DF DL DB.
pub(crate) const CROSS_EDGES: [u8; 4] = [4, 5, 6, 7];

/// The place (`position * 2 + flip`) of an edge after each move, from each place.
fn edge_place_moves() -> &'static [[u8; 18]; 24] {
    static TABLE: OnceLock<[[u8; 18]; 24]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = [[0u8; 18]; 24];
        for m in Move::ALL {
            let moved = Cube::from_move(m);
            let (ep, eo) = (moved.edge_perm(), moved.edge_ori());
            for to in 0..12 {
                let from = ep[to] as usize;
                for flip in 0..2 {
                    table[from * 2 + flip][m.index()] = (to * 2) as u8 + (flip as u8 ^ eo[to]);
                }
            }
        }
        table
    })
}

/// The space of the places of a set of edges (pieces in increasing order), all 18 moves.
#[derive(Clone, Debug)]
pub(crate) struct EdgeSetSpace {
    edges: Vec<u8>,
    count: usize,
}

impl EdgeSetSpace {
    /// The space of `edges` (distinct pieces).
    pub(crate) fn new(edges: &[u8]) -> EdgeSetSpace {
        let count = (0..edges.len()).map(|i| (12 - i) * 2).product();
        EdgeSetSpace {
            edges: edges.to_vec(),
            count,
        }
    }

    fn encode(&self, places: &[u8]) -> u32 {
        let mut used = 0u16;
        let mut index = 0u32;
        for (i, &place) in places.iter().enumerate() {
            let position = place / 2;
            let rank = position as u32 - (used & ((1 << position) - 1)).count_ones();
            used |= 1 << position;
            index = index * ((12 - i) * 2) as u32 + rank * 2 + (place % 2) as u32;
        }
        index
    }

    fn decode(&self, mut index: u32, places: &mut [u8]) {
        let k = self.edges.len();
        let mut digits = [0u32; 4];
        for i in (0..k).rev() {
            let base = ((12 - i) * 2) as u32;
            digits[i] = index % base;
            index /= base;
        }
        let mut used = 0u16;
        for i in 0..k {
            let (rank, flip) = (digits[i] / 2, digits[i] % 2);
            // The `rank`-th free position.
            let mut seen = 0;
            let mut position = 0;
            loop {
                if used >> position & 1 == 0 {
                    if seen == rank {
                        break;
                    }
                    seen += 1;
                }
                position += 1;
            }
            used |= 1 << position;
            places[i] = (position * 2 + flip) as u8;
        }
    }

    /// The state of the set solved.
    pub(crate) fn goal(&self) -> u32 {
        let places: Vec<u8> = self.edges.iter().map(|&e| e * 2).collect();
        self.encode(&places)
    }
}

impl Space for EdgeSetSpace {
    fn count(&self) -> usize {
        self.count
    }

    fn moves(&self) -> &[Move] {
        &Move::ALL
    }

    fn neighbours(&self, state: u32, out: &mut [u32]) {
        for (column, o) in out.iter_mut().enumerate() {
            *o = self.step(state, column);
        }
    }

    #[inline]
    fn step(&self, state: u32, column: usize) -> u32 {
        let mut places = [0u8; 4];
        let k = self.edges.len();
        self.decode(state, &mut places[..k]);
        let table = edge_place_moves();
        for place in &mut places[..k] {
            *place = table[*place as usize][column];
        }
        self.encode(&places[..k])
    }

    fn project(&self, cube: &Cube) -> u32 {
        let (ep, eo) = (cube.edge_perm(), cube.edge_ori());
        let mut places = [0u8; 4];
        for (i, &edge) in self.edges.iter().enumerate() {
            let position = ep
                .iter()
                .position(|&p| p == edge)
                .expect("every edge is somewhere");
            places[i] = (position * 2) as u8 + eo[position];
        }
        self.encode(&places[..self.edges.len()])
    }
}

/// The cross tables of the beginner's method and CFOP, to hand to
/// [`Beginner::new`](crate::beginner::Beginner::new) and [`Cfop::new`](crate::cfop::Cfop::new): the exact
/// distance tables of every non-empty subset of the four D-layer edges (235,000 entries in all).
pub struct CrossTables {
    /// By bit mask over [`CROSS_EDGES`] (index `mask - 1`).
    sets: Vec<(EdgeSetSpace, PruneTable<Vec<u8>>)>,
}

impl std::fmt::Debug for CrossTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CrossTables")
            .field("n_sets", &self.sets.len())
            .finish_non_exhaustive()
    }
}

/// The edges of `mask` (bits over [`CROSS_EDGES`]).
fn mask_edges(mask: u8) -> Vec<u8> {
    (0..4)
        .filter(|i| mask >> i & 1 == 1)
        .map(|i| CROSS_EDGES[i])
        .collect()
}

/// The table files of the 15 cross tables (the payloads of [`CrossTables`] as a
/// [`MethodTables`] family), for a cache (`cross-1` .. `cross-15`, by mask): the
/// placements and flips of 1 to 4 cross edges, up to 12 x 11 x 10 x 9 x 2^4 = 190,080 entries.
pub const TABLE_SPECS: [TableSpec; 15] = {
    const IDS: [&str; 15] = [
        "cross-1", "cross-2", "cross-3", "cross-4", "cross-5", "cross-6", "cross-7", "cross-8",
        "cross-9", "cross-10", "cross-11", "cross-12", "cross-13", "cross-14", "cross-15",
    ];
    let mut specs = [TableSpec::new(TableId::from_static("cross-1"), Encoding::Byte, 0); 15];
    let mut i = 0;
    while i < 15 {
        let k = (i as u8 + 1).count_ones() as usize;
        let mut n = 1;
        let mut j = 0;
        while j < k {
            n *= (12 - j) * 2;
            j += 1;
        }
        specs[i] = TableSpec::new(TableId::from_static(IDS[i]), Encoding::Byte, n as u64);
        i += 1;
    }
    specs
};

impl MethodTables for CrossTables {
    const NAME: &'static str = "cross";
    const SPECS: &'static [TableSpec] = &TABLE_SPECS;

    fn build() -> CrossTables {
        let sets = (1u8..16)
            .zip(&TABLE_SPECS)
            .map(|(mask, spec)| {
                let space = EdgeSetSpace::new(&mask_edges(mask));
                let table = DistanceTable::build(spec.id, &space, [space.goal()]);
                (space, table)
            })
            .collect();
        CrossTables { sets }
    }

    fn payload(&self, id: TableId) -> Option<&[u8]> {
        let index = TABLE_SPECS.iter().position(|spec| spec.id == id)?;
        Some(self.sets[index].1.payload())
    }

    /// The tables from their 15 payloads (by mask), each checked: every state reached, the goal
    /// alone at 0, and at most 8 moves (the whole cross's maximum).
    fn from_payloads(payloads: Payloads) -> Result<CrossTables, PayloadError> {
        let payloads = payloads.take_all(&TABLE_SPECS)?;
        let mut sets = Vec::with_capacity(15);
        for ((mask, table), spec) in (1u8..16).zip(payloads).zip(&TABLE_SPECS) {
            let space = EdgeSetSpace::new(&mask_edges(mask));
            let why = if !table.is_complete() {
                "an unreached state"
            } else if table.get(space.goal() as usize) != 0 || table.histogram()[0] != 1 {
                "the goal is not the one state at distance 0"
            } else if table.max_distance() > 8 {
                "a distance longer than the cross allows"
            } else {
                sets.push((space, table));
                continue;
            };
            return Err(PayloadError::Unsound { id: spec.id, why });
        }
        Ok(CrossTables { sets })
    }
}

impl CrossTables {
    /// The space and distance table of the cross edges in `mask` (bits over [`CROSS_EDGES`]).
    pub(crate) fn set(&self, mask: u8) -> &(EdgeSetSpace, PruneTable<Vec<u8>>) {
        &self.sets[mask as usize - 1]
    }

    /// The distance of `cube` to the edges of `mask` solved.
    pub(crate) fn distance(&self, mask: u8, cube: &Cube) -> u8 {
        let (space, table) = self.set(mask);
        table.get(space.project(cube) as usize)
    }

    /// An optimal sequence that solves the edges of `mask` (greedy descent of the exact table).
    pub(crate) fn solve(&self, mask: u8, cube: &Cube) -> Vec<Move> {
        let (space, table) = self.set(mask);
        let mut state = space.project(cube);
        let distance = table.get(state as usize);
        let mut moves = Vec::with_capacity(distance as usize);
        for d in (0..distance).rev() {
            let column = (0..18)
                .find(|&column| table.get(space.step(state, column) as usize) == d)
                .expect("an exact distance table has a descending move from every state");
            moves.push(Move::ALL[column]);
            state = space.step(state, column);
        }
        moves
    }
}

/// The bit mask (over [`CROSS_EDGES`]) of the cross edges that are solved in `cube`.
pub(crate) fn solved_cross_mask(cube: &Cube) -> u8 {
    let (ep, eo) = (cube.edge_perm(), cube.edge_ori());
    (0..4).fold(0, |mask, i| {
        let position = CROSS_EDGES[i] as usize;
        mask | u8::from(ep[position] as usize == position && eo[position] == 0) << i
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cross_tables() -> CrossTables {
        CrossTables::build()
    }

    #[test]
    fn the_full_cross_has_190080_states_and_needs_at_most_8_moves() {
        let tables = cross_tables();
        let (space, table) = tables.set(0b1111);
        assert_eq!(space.count(), 190_080);
        assert!(table.is_complete());
        assert_eq!(table.max_distance(), 8);
        assert_eq!(table.histogram()[0], 1);
        // Every partial-permutation rank round-trips.
        let mut places = [0u8; 4];
        for state in (0..190_080).step_by(97) {
            space.decode(state, &mut places);
            assert_eq!(space.encode(&places), state);
        }
    }

    #[test]
    fn descent_solves_the_set() {
        let cube =
            Cube::SOLVED.apply_moves(&[Move::F1, Move::R2, Move::D3, Move::L1, Move::B1, Move::U2]);
        let tables = cross_tables();
        for mask in 1..16 {
            let moves = tables.solve(mask, &cube);
            let after = cube.apply_moves(&moves);
            assert_eq!(solved_cross_mask(&after) & mask, mask);
            assert_eq!(moves.len(), tables.distance(mask, &cube) as usize);
        }
    }

    #[test]
    fn payloads_round_trip_and_bad_ones_are_refused() {
        let tables = cross_tables();
        let payloads = Payloads::of(&tables);
        let rebuilt =
            CrossTables::from_payloads(payloads.clone()).expect("built payloads are sound");
        for spec in &TABLE_SPECS {
            assert_eq!(rebuilt.payload(spec.id), tables.payload(spec.id));
        }
        let full = TABLE_SPECS[14].id;
        let mut bad = payloads.clone();
        let mut payload = bad.get(full).expect("cross-15 is there").to_vec();
        payload[1] = DistanceTable::UNREACHED;
        bad.insert(full, payload);
        assert_eq!(
            CrossTables::from_payloads(bad).err(),
            Some(PayloadError::Unsound {
                id: full,
                why: "an unreached state"
            })
        );
        let mut bad = payloads;
        bad.insert(full, vec![0; 10]);
        assert_eq!(
            CrossTables::from_payloads(bad).err(),
            Some(PayloadError::Length {
                id: full,
                expected: 190_080,
                found: 10
            })
        );
    }
}
