//! The coordinates of Thistlethwaite's phases 3 and 4 that cube-tables does not have: where the
//! M-slice edges are among the U/D edge positions, the corner permutation inside the square group,
//! and the permutations of the M- and S-slice edges inside their slices.
//!
//! Phases 1 and 2 use cube-tables' [`Flip`](cube_tables::Flip), [`Twist`](cube_tables::Twist)
//! and [`UdSlice`](cube_tables::UdSlice); phase 3 also uses [`CornerPerm`] and phase 4
//! [`SlicePerm`](cube_tables::SlicePerm) for the E slice.

use std::sync::OnceLock;

use cube_core::{Cube, Move, MoveSet};
use cube_tables::{Coord, CornerPerm};

/// The six half turns: the moves of G3 = <U2, D2, R2, L2, F2, B2>.
pub(crate) const HALF_TURNS: MoveSet = MoveSet::from_bits(
    1 << 1 | 1 << 4 | 1 << 7 | 1 << 10 | 1 << 13 | 1 << 16, // U2 R2 F2 D2 L2 B2
);

const IDENTITY_8: [u8; 8] = [0, 1, 2, 3, 4, 5, 6, 7];
const IDENTITY_12: [u8; 12] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];

/// Edge positions (and pieces) of the M slice (between L and R): UF UB DF DB.
const M_SLICE: [usize; 4] = [1, 3, 5, 7];
/// Edge positions (and pieces) of the S slice (between F and B): UR UL DR DL.
const S_SLICE: [usize; 4] = [0, 2, 4, 6];

/// The 70 four-element subsets of the eight U/D edge positions as bit masks, the M-slice
/// positions first; and the rank of every mask (`u8::MAX` for masks without four bits).
const SEPARATION: ([u8; 70], [u8; 256]) = {
    let goal = (1 << 1 | 1 << 3 | 1 << 5 | 1 << 7) as u8;
    let mut masks = [0u8; 70];
    let mut rank = [u8::MAX; 256];
    masks[0] = goal;
    rank[goal as usize] = 0;
    let mut n = 1;
    let mut mask = 0usize;
    while mask < 256 {
        if (mask as u8).count_ones() == 4 && mask as u8 != goal {
            masks[n] = mask as u8;
            rank[mask] = n as u8;
            n += 1;
        }
        mask += 1;
    }
    (masks, rank)
};

/// Phase 3's edge coordinate: which four of the eight U/D edge positions (UR..DB) hold the
/// M-slice edges UF UB DF DB, in any order. C(8, 4) = 70 values, 0 when they are in the M slice.
///
/// Only the moves of G2 = <U, D, R2, L2, F2, B2> keep the E-slice edges in the E slice, so only
/// they act on it.
#[derive(Clone, Copy, Debug)]
pub struct SliceSeparation;

impl Coord for SliceSeparation {
    const COUNT: usize = 70;
    const NAME: &'static str = "slice-separation";
    const MOVES: MoveSet = MoveSet::G1;

    #[inline]
    fn from_cube(cube: &Cube) -> u32 {
        let ep = cube.edge_perm();
        let mask = (0..8).fold(0usize, |mask, position| {
            mask | usize::from(ep[position] < 8 && ep[position] % 2 == 1) << position
        });
        // Outside G2 the mask may have other than four bits; any in-range value will do there.
        (SEPARATION.1[mask] % 70) as u32
    }

    fn to_cube(index: u32) -> Cube {
        let mask = SEPARATION.0[index as usize];
        let mut ep = IDENTITY_12;
        let (mut m_pieces, mut s_pieces) = (M_SLICE.iter(), S_SLICE.iter());
        for (position, piece) in ep.iter_mut().enumerate().take(8) {
            let next = if mask >> position & 1 == 1 {
                m_pieces.next()
            } else {
                s_pieces.next()
            };
            *piece = *next.expect("four positions of each kind") as u8;
        }
        Cube::from_parts(IDENTITY_8, [0; 8], ep, [0; 12]).expect("a permutation of the edges")
    }
}

/// The 96 corner permutations that half turns reach (the corner part of the square group), by
/// [`CornerPerm`] rank, and the index of every rank among them (`u8::MAX` when outside).
struct SquareGroup {
    ranks: Vec<u32>,
    index_of_rank: Vec<u8>,
}

fn square_group() -> &'static SquareGroup {
    static GROUP: OnceLock<SquareGroup> = OnceLock::new();
    GROUP.get_or_init(|| {
        let mut cubes = vec![Cube::SOLVED];
        let mut index_of_rank = vec![u8::MAX; CornerPerm::COUNT];
        index_of_rank[0] = 0;
        let mut next = 0;
        while next < cubes.len() {
            let cube = cubes[next];
            next += 1;
            for m in HALF_TURNS.iter() {
                let after = CornerPerm::to_cube(CornerPerm::from_cube(&cube.apply_move(m)));
                let rank = CornerPerm::from_cube(&after) as usize;
                if index_of_rank[rank] == u8::MAX {
                    index_of_rank[rank] = cubes.len() as u8;
                    cubes.push(after);
                }
            }
        }
        let ranks = cubes.iter().map(CornerPerm::from_cube).collect();
        SquareGroup {
            ranks,
            index_of_rank,
        }
    })
}

/// The [`CornerPerm`] ranks of the 96 corner permutations of the square group (the goal of
/// phase 3's corners).
pub(crate) fn square_corner_ranks() -> &'static [u32] {
    &square_group().ranks
}

/// Phase 4's corner coordinate: the index of the corner permutation among the 96 that half turns
/// reach. Only meaningful in G3; half turns act on it.
#[derive(Clone, Copy, Debug)]
pub struct SquareCorners;

impl Coord for SquareCorners {
    const COUNT: usize = 96;
    const NAME: &'static str = "square-corners";
    const MOVES: MoveSet = HALF_TURNS;

    #[inline]
    fn from_cube(cube: &Cube) -> u32 {
        let index = square_group().index_of_rank[CornerPerm::from_cube(cube) as usize];
        (index % 96) as u32
    }

    fn to_cube(index: u32) -> Cube {
        CornerPerm::to_cube(square_group().ranks[index as usize])
    }
}

/// The Lehmer rank of the order of four distinct values (0 when increasing).
#[inline]
fn rank4(values: [u8; 4]) -> u32 {
    let mut rank = 0;
    for i in 0..4 {
        let smaller_after = values[i + 1..].iter().filter(|&&v| v < values[i]).count() as u32;
        rank = rank * (4 - i) as u32 + smaller_after;
    }
    rank
}

/// The order of `0..4` with rank `rank` under [`rank4`].
fn unrank4(mut rank: u32) -> [u8; 4] {
    let mut digits = [0u8; 4];
    for i in (0..4).rev() {
        let base = (4 - i) as u32;
        digits[i] = (rank % base) as u8;
        rank /= base;
    }
    let mut unused = vec![0u8, 1, 2, 3];
    digits.map(|d| unused.remove(d as usize))
}

fn slice_perm_rank(cube: &Cube, slice: [usize; 4]) -> u32 {
    let ep = cube.edge_perm();
    rank4(slice.map(|position| ep[position]))
}

fn slice_perm_cube(index: u32, slice: [usize; 4]) -> Cube {
    let mut ep = IDENTITY_12;
    for (position, local) in slice.iter().zip(unrank4(index)) {
        ep[*position] = slice[local as usize] as u8;
    }
    Cube::from_parts(IDENTITY_8, [0; 8], ep, [0; 12]).expect("a permutation of the edges")
}

/// The order of the M-slice edges UF UB DF DB in the M-slice positions: 4! = 24 values. Only
/// meaningful in G3; half turns act on it.
#[derive(Clone, Copy, Debug)]
pub struct MSlicePerm;

impl Coord for MSlicePerm {
    const COUNT: usize = 24;
    const NAME: &'static str = "m-slice-perm";
    const MOVES: MoveSet = HALF_TURNS;

    #[inline]
    fn from_cube(cube: &Cube) -> u32 {
        slice_perm_rank(cube, M_SLICE)
    }

    fn to_cube(index: u32) -> Cube {
        slice_perm_cube(index, M_SLICE)
    }
}

/// The order of the S-slice edges UR UL DR DL in the S-slice positions: 4! = 24 values. Only
/// meaningful in G3; half turns act on it.
#[derive(Clone, Copy, Debug)]
pub struct SSlicePerm;

impl Coord for SSlicePerm {
    const COUNT: usize = 24;
    const NAME: &'static str = "s-slice-perm";
    const MOVES: MoveSet = HALF_TURNS;

    #[inline]
    fn from_cube(cube: &Cube) -> u32 {
        slice_perm_rank(cube, S_SLICE)
    }

    fn to_cube(index: u32) -> Cube {
        slice_perm_cube(index, S_SLICE)
    }
}

/// The moves of Thistlethwaite's G1 = <U, D, L, R, F2, B2> (which keeps the edge flip).
pub(crate) fn g1_moves() -> MoveSet {
    Move::ALL
        .into_iter()
        .filter(|m| {
            !matches!(m.face(), cube_core::Face::F | cube_core::Face::B) || m.is_half_turn()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every law of [`Coord`]: round trips for every index, and moves that act on the
    /// coordinate alone, checked on cubes of the coordinate's subgroup.
    fn check_coord<C: Coord>() {
        assert_eq!(C::from_cube(&Cube::SOLVED), 0, "{}", C::NAME);
        for index in 0..C::COUNT as u32 {
            assert_eq!(
                C::from_cube(&C::to_cube(index)),
                index,
                "{} {index}",
                C::NAME
            );
        }
        let moves: Vec<Move> = C::MOVES.iter().collect();
        let mut cube = Cube::SOLVED;
        for i in 0..300 {
            cube = cube.apply_move(moves[(i * 7 + i / 3) % moves.len()]);
            let rep = C::to_cube(C::from_cube(&cube));
            for &m in &moves {
                assert_eq!(
                    C::from_cube(&cube.apply_move(m)),
                    C::from_cube(&rep.apply_move(m)),
                    "{} {m}",
                    C::NAME
                );
            }
        }
    }

    #[test]
    fn coordinates_obey_the_laws() {
        check_coord::<SliceSeparation>();
        check_coord::<SquareCorners>();
        check_coord::<MSlicePerm>();
        check_coord::<SSlicePerm>();
    }

    #[test]
    fn square_group_has_96_corner_permutations() {
        assert_eq!(square_corner_ranks().len(), 96);
        assert_eq!(g1_moves().len(), 14);
        assert_eq!(HALF_TURNS.len(), 6);
        assert!(HALF_TURNS.iter().all(|m| m.is_half_turn()));
    }
}
