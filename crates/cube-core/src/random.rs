//! Uniform random legal states.

use rand::Rng;

use crate::cubie::Cube;
use crate::perm::permutation_parity_odd;

impl Cube {
    /// A uniformly random legal state: every one of the 43,252,003,274,489,856,000 states is
    /// equally likely.
    ///
    /// Both permutations are uniform (Fisher-Yates); if their parities differ, two edges are
    /// swapped, a bijection between the odd and even halves that keeps the distribution uniform.
    /// Seven twists and eleven flips are uniform and the last of each fixes the sum.
    ///
    /// ```
    /// use cube_core::Cube;
    /// use rand::SeedableRng;
    /// let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    /// let cube = Cube::random(&mut rng);
    /// assert!(cube.is_solvable());
    /// ```
    pub fn random<R: Rng + ?Sized>(rng: &mut R) -> Cube {
        let mut cp: [u8; 8] = std::array::from_fn(|i| i as u8);
        let mut ep: [u8; 12] = std::array::from_fn(|i| i as u8);
        shuffle(&mut cp, rng);
        shuffle(&mut ep, rng);
        if permutation_parity_odd(&cp) != permutation_parity_odd(&ep) {
            ep.swap(10, 11);
        }
        let mut co = [0u8; 8];
        for twist in &mut co[..7] {
            *twist = rng.random_range(0..3);
        }
        co[7] = (3 - co[..7].iter().map(|&t| t as u32).sum::<u32>() % 3) as u8 % 3;
        let mut eo = [0u8; 12];
        for flip in &mut eo[..11] {
            *flip = rng.random_range(0..2);
        }
        eo[11] = eo[..11].iter().sum::<u8>() % 2;
        Cube::from_parts(cp, co, ep, eo).expect("random pieces are permutations in range")
    }
}

fn shuffle<R: Rng + ?Sized>(items: &mut [u8], rng: &mut R) {
    for i in (1..items.len()).rev() {
        let j = rng.random_range(0..=i);
        items.swap(i, j);
    }
}
