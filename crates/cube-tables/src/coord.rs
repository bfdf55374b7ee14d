//! Coordinates: small integers that a solver moves with table lookups instead of cubies.
//!
//! A coordinate projects a [`Cube`] onto `0..COUNT` so that, for every move of its move set, the
//! coordinate after the move depends only on the coordinate before it. That is what makes a
//! [`MoveTable`](crate::MoveTable) possible. Each coordinate also builds a representative cube for
//! every index ([`Coord::to_cube`]), so move tables come from cube-core's cubie moves rather than
//! hand-written permutation arithmetic.
//!
//! The names follow Kociemba and min2phase (`src/CoordCube.java`): twist, flip, UD-slice, corner
//! permutation, UD-edge permutation and slice permutation. Every coordinate is 0 on the solved cube.
//!
//! This is the root of the coordinates folder, which uses the table file format (`file/`) and
//! nothing of the pattern databases: the coordinates themselves (`orientation.rs`,
//! `permutation.rs`, `slice.rs`), their move tables and the spaces a search walks
//! (`move_table.rs`), in-memory distance tables (`prune.rs`), symmetry-reduced coordinates
//! (`sym_coord.rs`), Kociemba's exact phase-1 table (`phase1.rs`) and the 12-edge permutation as
//! M12 x S7 (`m12.rs`).

pub mod m12;
pub(crate) mod move_table;
mod orientation;
mod permutation;
pub mod phase1;
pub(crate) mod prune;
mod slice;
pub mod sym_coord;

use cube_core::{Cube, MoveSet};

pub use self::orientation::{Flip, Twist};
pub use self::permutation::{CornerPerm, SlicePerm, UdEdgePerm};
pub use self::slice::UdSlice;

/// A projection of the cube onto `0..COUNT` that the moves of [`Coord::MOVES`] act on.
///
/// Laws (tested exhaustively for every coordinate of this crate):
///
/// - `from_cube(&to_cube(i)) == i` for every `i < COUNT`;
/// - for every move `m` of `MOVES`, `from_cube(&c.apply_move(m))` depends only on `from_cube(&c)`;
/// - `from_cube(&Cube::SOLVED) == 0`.
pub trait Coord: Copy + Send + Sync + 'static {
    /// The number of values, at most 65,536 so that move tables fit in `u16`.
    const COUNT: usize;
    /// A short name for messages and table ids, such as `twist`.
    const NAME: &'static str;
    /// The moves that act on the coordinate (all 18 unless the coordinate lives in a subgroup).
    const MOVES: MoveSet = MoveSet::ALL;

    /// The coordinate of `cube`.
    fn from_cube(cube: &Cube) -> u32;

    /// A cube whose coordinate is `index`; it need not be solvable (a corner permutation's
    /// representative leaves the edges solved, whatever the parity).
    ///
    /// # Panics
    /// May panic if `index >= COUNT`.
    fn to_cube(index: u32) -> Cube;
}

/// Rank of the relative order of `values` (distinct, any range) among the `N!` orders: the
/// Lehmer code, 0 when the values increase.
#[inline]
pub(crate) fn rank_order<const N: usize>(values: &[u8; N]) -> u32 {
    let mut rank = 0u32;
    for i in 0..N {
        let smaller_after = values[i + 1..].iter().filter(|&&v| v < values[i]).count() as u32;
        rank = rank * (N - i) as u32 + smaller_after;
    }
    rank
}

/// The permutation of `0..N` with rank `rank` under [`rank_order`]: cube-core's reference
/// ([`cube_core::perm::unrank_permutation`]).
pub(crate) fn unrank_order<const N: usize>(rank: u32) -> [u8; N] {
    let mut out = [0u8; N];
    cube_core::perm::unrank_permutation(u64::from(rank), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use cube_core::Move;

    /// Every law of [`Coord`], checked for every index and move.
    pub(crate) fn check_coord<C: Coord>() {
        assert_eq!(C::from_cube(&Cube::SOLVED), 0, "{}", C::NAME);
        for index in 0..C::COUNT as u32 {
            let cube = C::to_cube(index);
            assert_eq!(
                C::from_cube(&cube),
                index,
                "{}: rank(unrank({index}))",
                C::NAME
            );
        }
        // The coordinate after a move depends only on the coordinate before it: compare the
        // representative with a differently built cube of the same coordinate.
        let mut scrambles = Vec::new();
        let mut cube = Cube::SOLVED;
        for i in 0..200 {
            let moves: Vec<Move> = C::MOVES.iter().collect();
            cube = cube.apply_move(moves[(i * 7 + i / 3) % moves.len()]);
            scrambles.push(cube);
        }
        for cube in scrambles {
            let index = C::from_cube(&cube);
            let rep = C::to_cube(index);
            for m in C::MOVES.iter() {
                assert_eq!(
                    C::from_cube(&cube.apply_move(m)),
                    C::from_cube(&rep.apply_move(m)),
                    "{} {m}",
                    C::NAME
                );
            }
        }
    }

    /// The fast rank of a relative order is cube-core's reference rank on permutations, and of any
    /// distinct values the rank of their order.
    #[test]
    fn order_rank_agrees_with_the_reference() {
        for rank in 0..40_320u32 {
            let perm: [u8; 8] = unrank_order(rank);
            assert_eq!(
                u64::from(rank_order(&perm)),
                cube_core::perm::rank_permutation(&perm)
            );
            let spread = perm.map(|v| v * 3 + 1);
            assert_eq!(rank_order(&spread), rank);
        }
    }

    #[test]
    fn order_rank_round_trip() {
        for rank in 0..24 {
            assert_eq!(rank_order(&unrank_order::<4>(rank)), rank);
        }
        assert_eq!(rank_order(&[3u8, 9, 11, 10]), 1);
        assert_eq!(rank_order(&[7u8, 6, 5, 4, 3, 2, 1, 0]), 40319);
    }

    #[test]
    fn twist() {
        check_coord::<Twist>();
    }

    #[test]
    fn flip() {
        check_coord::<Flip>();
    }

    #[test]
    fn ud_slice() {
        check_coord::<UdSlice>();
    }

    #[test]
    fn corner_perm() {
        check_coord::<CornerPerm>();
    }

    #[test]
    fn ud_edge_perm() {
        check_coord::<UdEdgePerm>();
    }

    #[test]
    fn slice_perm() {
        check_coord::<SlicePerm>();
    }
}
