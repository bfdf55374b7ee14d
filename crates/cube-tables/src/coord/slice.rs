//! The UD-slice coordinate: where the four slice edges FR FL BL BR are, in any order.

use cube_core::Cube;

use super::Coord;

/// Binomial coefficients `C(n, k)` for `n, k < 13`.
const BINOMIAL: [[u32; 13]; 13] = {
    let mut table = [[0u32; 13]; 13];
    let mut n = 0;
    while n < 13 {
        table[n][0] = 1;
        let mut k = 1;
        while k <= n {
            table[n][k] = table[n - 1][k - 1] + if k < n { table[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    table
};

/// The positions of the four UD-slice edges (Kociemba edges 8..11: FR FL BL BR) among the twelve
/// edge positions, ignoring their order: C(12, 4) = 495 values, 0 when they are in the slice.
///
/// This is Kociemba's `UDSlice` coordinate: scanning positions from BR down to UR, each slice edge
/// found adds `C(11 - position, found + 1)`.
#[derive(Clone, Copy, Debug)]
pub struct UdSlice;

impl Coord for UdSlice {
    const COUNT: usize = 495;
    const NAME: &'static str = "ud-slice";

    #[inline]
    fn from_cube(cube: &Cube) -> u32 {
        let ep = cube.edge_perm();
        let mut index = 0;
        let mut found = 0;
        for position in (0..12).rev() {
            if ep[position] >= 8 {
                found += 1;
                index += BINOMIAL[11 - position][found];
            }
        }
        index
    }

    fn to_cube(mut index: u32) -> Cube {
        let mut ep = [u8::MAX; 12];
        let mut found = 4;
        // Decode greedily from the lowest position, which carries the largest binomials.
        for position in 0..12 {
            if found > 0 && index >= BINOMIAL[11 - position][found] {
                index -= BINOMIAL[11 - position][found];
                found -= 1;
                ep[position] = 0; // marked as a slice position below
            }
        }
        let (mut slice_piece, mut other_piece) = (8u8, 0u8);
        for piece in ep.iter_mut() {
            if *piece == 0 {
                *piece = slice_piece;
                slice_piece += 1;
            } else {
                *piece = other_piece;
                other_piece += 1;
            }
        }
        let cp = std::array::from_fn(|i| i as u8);
        Cube::from_parts(cp, [0; 8], ep, [0; 12]).expect("a permutation of the edges")
    }
}
