//! Permutation coordinates: corners (8!), the eight U/D edges in G1 (8!) and the four slice
//! edges (4!).

use cube_core::{Cube, MoveSet};

use super::{Coord, rank_order, unrank_order};

const IDENTITY_8: [u8; 8] = [0, 1, 2, 3, 4, 5, 6, 7];
const IDENTITY_12: [u8; 12] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];

/// Corner permutation: the Lehmer code of the corner pieces at URF..DRB. 8! = 40,320 values.
#[derive(Clone, Copy, Debug)]
pub struct CornerPerm;

impl Coord for CornerPerm {
    const COUNT: usize = 40320;
    const NAME: &'static str = "corner-perm";

    #[inline]
    fn from_cube(cube: &Cube) -> u32 {
        rank_order(&cube.corner_perm())
    }

    fn to_cube(index: u32) -> Cube {
        let cp = unrank_order::<8>(index);
        Cube::from_parts(cp, [0; 8], IDENTITY_12, [0; 12]).expect("a permutation of the corners")
    }
}

/// The permutation of the eight U and D edges (UR..DB) in G1 = <U, D, R2, L2, F2, B2>: the
/// Lehmer code of the pieces at positions UR..DB. 8! = 40,320 values.
///
/// Only the moves of G1 keep the U/D edges in the U and D layers, so only they act on it. On a
/// cube outside G1 the value ranks the relative order of whatever pieces are there.
#[derive(Clone, Copy, Debug)]
pub struct UdEdgePerm;

impl Coord for UdEdgePerm {
    const COUNT: usize = 40320;
    const NAME: &'static str = "ud-edge-perm";
    const MOVES: MoveSet = MoveSet::G1;

    #[inline]
    fn from_cube(cube: &Cube) -> u32 {
        let ep = cube.edge_perm();
        rank_order(&[ep[0], ep[1], ep[2], ep[3], ep[4], ep[5], ep[6], ep[7]])
    }

    fn to_cube(index: u32) -> Cube {
        let mut ep = IDENTITY_12;
        ep[..8].copy_from_slice(&unrank_order::<8>(index));
        Cube::from_parts(IDENTITY_8, [0; 8], ep, [0; 12]).expect("a permutation of the edges")
    }
}

/// The permutation of the four UD-slice edges FR FL BL BR among themselves in G1: the Lehmer
/// code of the relative order of the pieces at positions FR..BR. 4! = 24 values.
///
/// Only the moves of G1 keep the slice edges in the slice, so only they act on it.
#[derive(Clone, Copy, Debug)]
pub struct SlicePerm;

impl Coord for SlicePerm {
    const COUNT: usize = 24;
    const NAME: &'static str = "slice-perm";
    const MOVES: MoveSet = MoveSet::G1;

    #[inline]
    fn from_cube(cube: &Cube) -> u32 {
        let ep = cube.edge_perm();
        rank_order(&[ep[8], ep[9], ep[10], ep[11]])
    }

    fn to_cube(index: u32) -> Cube {
        let mut ep = IDENTITY_12;
        for (position, piece) in unrank_order::<4>(index).into_iter().enumerate() {
            ep[8 + position] = 8 + piece;
        }
        Cube::from_parts(IDENTITY_8, [0; 8], ep, [0; 12]).expect("a permutation of the edges")
    }
}
