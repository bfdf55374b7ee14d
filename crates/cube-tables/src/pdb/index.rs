//! Index functions of the edge-subset databases: the edge-subset index of a [`Cube`], its inverse, and
//! per-move updates (the corner index is in [`corners`](crate::corners)).
//!
//! Both indexes split into a permutation part, which picks a block of the table, and an orientation part,
//! the offset inside the block:
//!
//! - Corners: `perm_rank * 2187 + twist`. `perm_rank` is the Lehmer rank of the corner permutation (piece
//!   at position) and `twist` is Kociemba's twist coordinate: the twists of positions 0..7 read as a
//!   base-3 number. The twist coordinate transforms independently of the permutation, so a 40320 x 18
//!   and a 2187 x 18 move table do all the work ([`CornerMoves`]).
//! - Edges: `arrangement_rank * 2^k + flips` for the `k` tracked edges of an [`EdgeSubset`]. The
//!   arrangement is the positions of tracked pieces `0..k` in order, ranked in mixed radix (digit `j` is the
//!   position among the `12 - j` not yet used, counted with a popcount of the used-position mask). The
//!   flips are indexed by piece: bit `j` is the flip of tracked piece `j`. A move therefore changes the flips
//!   by one XOR with a mask that depends only on the positions and the move, and the new arrangement is
//!   computed once per (arrangement, move) for all `2^k` flips.
//!
//! The move definitions come from `cube-core` ([`Cube::from_move`]); [`EdgeMoveMaps`] turns them into
//! "where does the piece at position `p` go" maps.

use std::sync::OnceLock;

use cube_core::{Cube, Move};

use crate::corners::index::select_bit;
pub(crate) use crate::corners::index::{
    CORNER_PERM_COUNT, CornerCoord, CornerMoves, N_MOVES, TWIST_COUNT,
};

/// Per-position edge move maps derived from `cube-core`: where the piece at position `p` goes under move
/// `m`, and whether it flips on the way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdgeMoveMaps {
    /// `dest[m][p]`: the position that the piece at position `p` moves to.
    pub dest: [[u8; 12]; N_MOVES],
    /// `flip[m][p]`: 1 when the piece at position `p` changes its flip under `m`.
    pub flip: [[u8; 12]; N_MOVES],
}

impl EdgeMoveMaps {
    /// The shared maps, built on first use.
    pub fn get() -> &'static EdgeMoveMaps {
        static MAPS: OnceLock<EdgeMoveMaps> = OnceLock::new();
        MAPS.get_or_init(|| {
            let mut maps = EdgeMoveMaps {
                dest: [[0; 12]; N_MOVES],
                flip: [[0; 12]; N_MOVES],
            };
            for m in Move::ALL {
                // `new[i] = old[perm[i]]` and `new_ori[i] = old_ori[perm[i]] ^ delta[i]`: the piece at
                // position `perm[i]` goes to `i` and flips by `delta[i]`.
                let cube = Cube::from_move(m);
                let (perm, delta) = (cube.edge_perm(), cube.edge_ori());
                for i in 0..12 {
                    maps.dest[m.index()][usize::from(perm[i])] = i as u8;
                    maps.flip[m.index()][usize::from(perm[i])] = delta[i];
                }
            }
            maps
        })
    }
}

/// A set of `k` tracked edges (`1 <= k <= 8`) with its index function.
///
/// The edges are Kociemba edge numbers (UR UF UL UB DR DF DL DB FR FL BL BR = 0..12); tracked piece `j` is
/// the `j`-th of them in increasing order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EdgeSubset {
    pieces: [u8; 8],
    n_edges: u8,
    /// `slot[piece]`: `j` for tracked piece `j`, `0xFF` for an untracked piece.
    slot: [u8; 12],
}

impl EdgeSubset {
    /// Edges `0..6` (UR UF UL UB DR DF), the first 6edge table.
    pub const EDGES_6A: EdgeSubset = EdgeSubset::range(0, 6);
    /// Edges `6..12` (DL DB FR FL BL BR), the second 6edge table.
    pub const EDGES_6B: EdgeSubset = EdgeSubset::range(6, 6);
    /// Edges `0..7`, the first 7edge table.
    pub const EDGES_7A: EdgeSubset = EdgeSubset::range(0, 7);
    /// Edges `5..12`, the second 7edge table.
    pub const EDGES_7B: EdgeSubset = EdgeSubset::range(5, 7);
    /// Edges `0..8`, the first 8edge table.
    pub const EDGES_8A: EdgeSubset = EdgeSubset::range(0, 8);
    /// Edges `4..12`, the second 8edge table.
    pub const EDGES_8B: EdgeSubset = EdgeSubset::range(4, 8);

    /// The `n_edges` consecutive edges from `first`.
    ///
    /// # Panics
    ///
    /// When `n_edges` is not in `1..=8` or the range goes beyond edge 11.
    pub const fn range(first: u8, n_edges: u8) -> EdgeSubset {
        assert!(
            n_edges >= 1 && n_edges <= 8,
            "an edge subset has 1 to 8 edges"
        );
        assert!(first + n_edges <= 12, "edges are numbered 0..12");
        let mut pieces = [0u8; 8];
        let mut slot = [0xFFu8; 12];
        let mut j = 0;
        while j < n_edges {
            pieces[j as usize] = first + j;
            slot[(first + j) as usize] = j;
            j += 1;
        }
        EdgeSubset {
            pieces,
            n_edges,
            slot,
        }
    }

    /// The number of tracked edges, `k`.
    pub const fn n_edges(&self) -> usize {
        self.n_edges as usize
    }

    /// The tracked pieces, in order.
    pub fn pieces(&self) -> &[u8] {
        &self.pieces[..self.n_edges()]
    }

    /// The number of arrangements, `12! / (12 - k)!`: the number of blocks of the table.
    pub const fn n_arrangements(&self) -> usize {
        let mut n = 1;
        let mut j = 0;
        while j < self.n_edges as usize {
            n *= 12 - j;
            j += 1;
        }
        n
    }

    /// The number of entries, `12! / (12 - k)! * 2^k`.
    pub const fn n_entries(&self) -> usize {
        self.n_arrangements() << self.n_edges
    }

    /// The coordinate of `cube`: where the tracked pieces are and how they are flipped.
    #[inline]
    pub fn coord(&self, cube: &Cube) -> EdgeCoord {
        let (perm, ori) = (cube.edge_perm(), cube.edge_ori());
        let mut positions = [0u8; 8];
        let mut flips = 0u16;
        for position in 0..12 {
            let slot = self.slot[usize::from(perm[position])];
            if slot != 0xFF {
                positions[usize::from(slot)] = position as u8;
                flips |= u16::from(ori[position]) << slot;
            }
        }
        EdgeCoord {
            positions,
            flips,
            n_edges: self.n_edges,
        }
    }

    /// The index of `cube` in this subset's table.
    #[inline]
    pub fn index(&self, cube: &Cube) -> usize {
        self.coord(cube).index()
    }

    /// The coordinate of the solved cube.
    pub fn solved(&self) -> EdgeCoord {
        EdgeCoord {
            positions: self.pieces,
            flips: 0,
            n_edges: self.n_edges,
        }
    }

    /// The coordinate of table entry `index`.
    ///
    /// # Panics
    ///
    /// When `index >= self.n_entries()`.
    pub fn coord_of_index(&self, index: usize) -> EdgeCoord {
        assert!(index < self.n_entries(), "edge index {index} out of range");
        let k = self.n_edges();
        let mut positions = [0u8; 8];
        positions[..k].copy_from_slice(&arrangement_unrank_dyn(index >> k, k)[..k]);
        EdgeCoord {
            positions,
            flips: (index & ((1 << k) - 1)) as u16,
            n_edges: self.n_edges,
        }
    }

    /// A cube whose coordinate in this subset is `coord`: the tracked pieces where `coord` puts them, the
    /// others in the free positions in increasing order, unflipped except to fix the flip parity.
    ///
    /// The result may have mismatched corner and edge parity; it is meant for index round trips.
    pub fn cube_of(&self, coord: &EdgeCoord) -> Cube {
        let k = self.n_edges();
        let mut perm = [0xFFu8; 12];
        let mut ori = [0u8; 12];
        for j in 0..k {
            let position = usize::from(coord.positions[j]);
            perm[position] = self.pieces[j];
            ori[position] = (coord.flips >> j & 1) as u8;
        }
        let mut untracked = (0..12u8).filter(|&piece| self.slot[usize::from(piece)] == 0xFF);
        let mut last_free = 0;
        for (position, piece) in perm.iter_mut().enumerate() {
            if *piece == 0xFF {
                *piece = untracked.next().expect("12 - k untracked pieces");
                last_free = position;
            }
        }
        if k < 12 && ori.iter().sum::<u8>() % 2 == 1 {
            ori[last_free] = 1;
        }
        Cube::from_parts(Cube::SOLVED.corner_perm(), [0; 8], perm, ori)
            .expect("the pieces form a permutation")
    }
}

/// The coordinate of the tracked edges of an [`EdgeSubset`]: their positions and flips.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EdgeCoord {
    /// `positions[j]`: the position of tracked piece `j` (only the first `k` are used).
    pub positions: [u8; 8],
    /// Bit `j`: the flip of tracked piece `j`.
    pub flips: u16,
    n_edges: u8,
}

impl EdgeCoord {
    /// The table index: `arrangement_rank * 2^k + flips`.
    #[inline]
    pub fn index(&self) -> usize {
        let k = usize::from(self.n_edges);
        (arrangement_rank_dyn(&self.positions, k) << k) | usize::from(self.flips)
    }

    /// The coordinate after move `m`: `k` lookups of where each piece goes and whether it flips.
    #[inline]
    pub fn apply(&self, m: Move, maps: &EdgeMoveMaps) -> EdgeCoord {
        let dest = &maps.dest[m.index()];
        let flip = &maps.flip[m.index()];
        let mut out = *self;
        for j in 0..usize::from(self.n_edges) {
            let position = usize::from(self.positions[j]);
            out.positions[j] = dest[position];
            out.flips ^= u16::from(flip[position]) << j;
        }
        out
    }
}

/// The mixed-radix rank of `k` distinct positions in `0..12`: digit `j` is the position's index among
/// the `12 - j` positions not used before it.
#[inline(always)]
pub(crate) fn arrangement_rank<const K: usize>(positions: &[u8; K]) -> usize {
    let mut used = 0u32;
    let mut rank = 0usize;
    for (j, &position) in positions.iter().enumerate() {
        let below = (used & ((1 << position) - 1)).count_ones();
        rank = rank * (12 - j) + (u32::from(position) - below) as usize;
        used |= 1 << position;
    }
    rank
}

/// The positions of [`arrangement_rank`] `rank`.
#[inline(always)]
pub(crate) fn arrangement_unrank<const K: usize>(mut rank: usize) -> [u8; K] {
    let mut digits = [0u8; K];
    for j in (0..K).rev() {
        let radix = 12 - j;
        digits[j] = (rank % radix) as u8;
        rank /= radix;
    }
    let mut free = 0xFFFu32;
    let mut positions = [0u8; K];
    for j in 0..K {
        let position = select_bit(free, u32::from(digits[j]));
        free &= !(1 << position);
        positions[j] = position as u8;
    }
    positions
}

#[inline]
fn arrangement_rank_dyn(positions: &[u8; 8], k: usize) -> usize {
    let mut used = 0u32;
    let mut rank = 0usize;
    for (j, &position) in positions[..k].iter().enumerate() {
        let below = (used & ((1 << position) - 1)).count_ones();
        rank = rank * (12 - j) + (u32::from(position) - below) as usize;
        used |= 1 << position;
    }
    rank
}

fn arrangement_unrank_dyn(rank: usize, k: usize) -> [u8; 8] {
    let mut out = [0u8; 8];
    match k {
        1 => out[..1].copy_from_slice(&arrangement_unrank::<1>(rank)),
        2 => out[..2].copy_from_slice(&arrangement_unrank::<2>(rank)),
        3 => out[..3].copy_from_slice(&arrangement_unrank::<3>(rank)),
        4 => out[..4].copy_from_slice(&arrangement_unrank::<4>(rank)),
        5 => out[..5].copy_from_slice(&arrangement_unrank::<5>(rank)),
        6 => out[..6].copy_from_slice(&arrangement_unrank::<6>(rank)),
        7 => out[..7].copy_from_slice(&arrangement_unrank::<7>(rank)),
        8 => out = arrangement_unrank::<8>(rank),
        _ => unreachable!("an edge subset has 1 to 8 edges"),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corners::index::*;

    #[test]
    fn corner_perm_round_trip() {
        for rank in 0..CORNER_PERM_COUNT as u16 {
            assert_eq!(corner_perm_rank(&corner_perm_unrank(rank)), rank);
        }
        assert_eq!(corner_perm_rank(&[0, 1, 2, 3, 4, 5, 6, 7]), 0);
    }

    #[test]
    fn twist_round_trip() {
        for rank in 0..TWIST_COUNT as u16 {
            let twists = twist_unrank(rank);
            assert_eq!(twists.iter().map(|&t| u32::from(t)).sum::<u32>() % 3, 0);
            assert_eq!(twist_rank(&twists), rank);
        }
    }

    #[test]
    fn arrangement_round_trip() {
        let n = 12 * 11 * 10 * 9;
        for rank in 0..n {
            let positions = arrangement_unrank::<4>(rank);
            assert_eq!(arrangement_rank(&positions), rank);
        }
        let mut seen = std::collections::HashSet::new();
        for rank in (0..EdgeSubset::EDGES_7A.n_arrangements()).step_by(997) {
            let positions = arrangement_unrank::<7>(rank);
            assert!(seen.insert(positions));
            assert_eq!(arrangement_rank(&positions), rank);
        }
    }

    /// The fast ranks agree with cube-core's reference forms (`cube_core::perm`) on every corner
    /// permutation, every twist and every arrangement of 4 (a sample of 7) of the 12 edge positions.
    #[test]
    fn ranks_agree_with_the_reference() {
        use cube_core::perm;
        for rank in 0..CORNER_PERM_COUNT as u16 {
            let p = corner_perm_unrank(rank);
            assert_eq!(u64::from(corner_perm_rank(&p)), perm::rank_permutation(&p));
        }
        for rank in 0..TWIST_COUNT as u16 {
            let twists = twist_unrank(rank);
            assert_eq!(
                u64::from(twist_rank(&twists)),
                perm::pack_orientations(&twists, 3)
            );
            let mut reference = [0u8; 8];
            perm::unpack_orientations(u64::from(rank), 3, &mut reference);
            assert_eq!(twists, reference);
        }
        for rank in 0..12 * 11 * 10 * 9 {
            let positions = arrangement_unrank::<4>(rank);
            assert_eq!(
                arrangement_rank(&positions) as u64,
                perm::rank_arrangement(&positions, 12)
            );
        }
        for rank in (0..EdgeSubset::EDGES_7A.n_arrangements()).step_by(991) {
            let mut reference = [0u8; 7];
            perm::unrank_arrangement(rank as u64, 12, &mut reference);
            assert_eq!(arrangement_unrank::<7>(rank), reference);
        }
    }

    #[test]
    fn sizes() {
        assert_eq!(EdgeSubset::EDGES_6A.n_entries(), 42_577_920);
        assert_eq!(EdgeSubset::EDGES_7B.n_entries(), 510_935_040);
        assert_eq!(EdgeSubset::EDGES_8A.n_entries(), 5_109_350_400);
        assert_eq!(CORNER_COUNT, 88_179_840);
    }
}
