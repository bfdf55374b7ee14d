//! Orientation coordinates: corner twist (3^7) and edge flip (2^11).

use cube_core::Cube;

use super::Coord;

/// Corner twist: the twists of the corners at positions URF..DBL in base 3, URF most
/// significant; the twist of DRB follows from the others. 3^7 = 2187 values.
#[derive(Clone, Copy, Debug)]
pub struct Twist;

impl Coord for Twist {
    const COUNT: usize = 2187;
    const NAME: &'static str = "twist";

    #[inline]
    fn from_cube(cube: &Cube) -> u32 {
        cube.corner_ori()[..7]
            .iter()
            .fold(0, |acc, &t| acc * 3 + t as u32)
    }

    fn to_cube(mut index: u32) -> Cube {
        let mut co = [0u8; 8];
        for i in (0..7).rev() {
            co[i] = (index % 3) as u8;
            index /= 3;
        }
        co[7] = ((3 - co[..7].iter().map(|&t| t as u32).sum::<u32>() % 3) % 3) as u8;
        let cp = std::array::from_fn(|i| i as u8);
        let ep = std::array::from_fn(|i| i as u8);
        Cube::from_parts(cp, co, ep, [0; 12]).expect("identity pieces with twists in range")
    }
}

/// Edge flip: the flips of the edges at positions UR..BL in base 2, UR most significant; the flip
/// of BR follows from the others. 2^11 = 2048 values.
#[derive(Clone, Copy, Debug)]
pub struct Flip;

impl Coord for Flip {
    const COUNT: usize = 2048;
    const NAME: &'static str = "flip";

    #[inline]
    fn from_cube(cube: &Cube) -> u32 {
        cube.edge_ori()[..11]
            .iter()
            .fold(0, |acc, &f| acc * 2 + f as u32)
    }

    fn to_cube(mut index: u32) -> Cube {
        let mut eo = [0u8; 12];
        for i in (0..11).rev() {
            eo[i] = (index % 2) as u8;
            index /= 2;
        }
        eo[11] = eo[..11].iter().sum::<u8>() % 2;
        let cp = std::array::from_fn(|i| i as u8);
        let ep = std::array::from_fn(|i| i as u8);
        Cube::from_parts(cp, [0; 8], ep, eo).expect("identity pieces with flips in range")
    }
}
