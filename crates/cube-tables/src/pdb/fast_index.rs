//! The pattern-database indexes of a cube computed from its packed bytes: the fast form a search
//! uses, next to the definition it must equal (`index.rs`).
//!
//! Both indexes are mixed-radix numbers: the corner index is the rank of the corner permutation
//! (digit `j` is the piece at position `j` less the smaller pieces before it, radix `8 - j`) times
//! 3^7 plus the twists of the first seven corners; an edge-subset index is the arrangement rank of
//! the positions of `k` tracked edges (radix `12 - j`) times `2^k` plus their flips. Both must equal
//! the [`CornerCoord`](super::CornerCoord) and [`EdgeSubset`](super::EdgeSubset) indexes exactly
//! (tested here, and those against cube-core's reference ranks in `index.rs`).
//!
//! The search computes several indexes per node, so on x86-64 with SSSE3 they are computed with
//! SIMD shuffles and no loop: the "smaller before" counts of all eight digits at once (four
//! shuffled comparisons), then the digits are combined in three multiply-add levels
//! (`pmaddubsw`, `pmaddwd`, one scalar multiply). The scalar versions are the portable fallback
//! and the tests' reference.

use cube_core::Cube;

/// The index of one edge subset (`k` consecutive edges from `first`), read from the cube's
/// *inverse*: byte `first + j` of the inverse is where tracked piece `first + j` is and how it is
/// flipped, so no search for the pieces is needed.
#[derive(Clone, Copy, Debug)]
pub struct EdgeIndexer {
    k: usize,
    #[cfg(not(all(target_arch = "x86_64", target_feature = "ssse3")))]
    first: usize,
    /// Shuffle control: lanes `j` and `8 + j` take byte `first + j` for `j < k`, others zero.
    #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
    select: [u8; 16],
    /// First-level weights: digit pairs `(2t, 2t + 1)` become `d[2t] * radix(2t + 1) + d[2t + 1]`.
    #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
    w1: [i8; 16],
    /// Second-level weights: pairs of pairs, digits `4u..4u + 4`.
    #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
    w2: [i16; 8],
    /// The weight of the first four digits' value: the product of the radices of digits `4..k`.
    #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
    w3: u32,
}

/// The radix of digit `j` of an edge arrangement, and 1 for a digit that does not exist.
const fn edge_radix(j: usize, k: usize) -> u32 {
    if j < k { 12 - j as u32 } else { 1 }
}

impl EdgeIndexer {
    /// The indexer of the `k` edges from `first` (`first + k <= 12`, `1 <= k <= 8`).
    ///
    /// # Panics
    /// If the subset is out of range.
    pub fn new(first: usize, k: usize) -> EdgeIndexer {
        assert!(
            (1..=8).contains(&k) && first + k <= 12,
            "edge subset out of range"
        );
        #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
        {
            let mut select = [0x80u8; 16];
            for j in 0..k {
                select[j] = (first + j) as u8;
                select[8 + j] = (first + j) as u8;
            }
            let mut w1 = [0i8; 16];
            for t in 0..4 {
                let (a, b) = (2 * t, 2 * t + 1);
                w1[a] = if b < k { edge_radix(b, k) as i8 } else { 1 };
                w1[b] = i8::from(b < k);
            }
            let mut w2 = [0i16; 8];
            for u in 0..2 {
                w2[2 * u] = (edge_radix(4 * u + 2, k) * edge_radix(4 * u + 3, k)) as i16;
                w2[2 * u + 1] = 1;
            }
            let w3 = (4..8).map(|j| edge_radix(j, k)).product();
            EdgeIndexer {
                k,
                select,
                w1,
                w2,
                w3,
            }
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "ssse3")))]
        EdgeIndexer { k, first }
    }

    /// The index of the tracked edges of the cube whose inverse is `inv`.
    #[inline(always)]
    pub fn index(&self, inv: &Cube) -> usize {
        #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
        {
            simd::edge_index(self, inv)
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "ssse3")))]
        {
            edge_index_scalar(inv, self.first, self.k)
        }
    }
}

/// The corner coordinate of `x`: its permutation rank and twist (those of [`CornerCoord`](super::CornerCoord)).
#[inline(always)]
pub fn corner_coord(x: &Cube) -> (usize, usize) {
    #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
    {
        simd::corner_coord(x)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "ssse3")))]
    {
        corner_coord_scalar(x)
    }
}

/// Factorial weights of the corner permutation rank.
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "ssse3"))))]
const CORNER_WEIGHTS: [u32; 8] = [5040, 720, 120, 24, 6, 2, 1, 1];

/// [`corner_coord`] without SIMD.
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "ssse3"))))]
fn corner_coord_scalar(x: &Cube) -> (usize, usize) {
    let perm = x.corner_perm();
    let ori = x.corner_ori();
    let mut used = 0u32;
    let mut rank = 0u32;
    for (&p, &weight) in perm.iter().zip(&CORNER_WEIGHTS) {
        let p = u32::from(p);
        let below = (used & ((1 << p) - 1)).count_ones();
        used |= 1 << p;
        rank += (p - below) * weight;
    }
    let mut twist = 0u32;
    for &t in &ori[..7] {
        twist = twist * 3 + u32::from(t);
    }
    (rank as usize, twist as usize)
}

/// [`EdgeIndexer::index`] without SIMD.
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "ssse3"))))]
fn edge_index_scalar(inv: &Cube, first: usize, k: usize) -> usize {
    let perm = inv.edge_perm();
    let ori = inv.edge_ori();
    let mut used = 0u32;
    let mut rank = 0u32;
    let mut flips = 0u32;
    for j in 0..k {
        let p = u32::from(perm[first + j]);
        let below = (used & ((1 << p) - 1)).count_ones();
        used |= 1 << p;
        let weight: u32 = (j + 1..k).map(|i| edge_radix(i, k)).product();
        rank += (p - below) * weight;
        flips |= u32::from(ori[first + j]) << j;
    }
    ((rank as usize) << k) | flips as usize
}

#[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
#[allow(unsafe_code)]
mod simd {
    use std::arch::x86_64::{
        __m128i, _mm_add_epi8, _mm_and_si128, _mm_cmpgt_epi8, _mm_cvtsi128_si32, _mm_loadu_si128,
        _mm_madd_epi16, _mm_maddubs_epi16, _mm_movemask_epi8, _mm_set1_epi8, _mm_shuffle_epi8,
        _mm_slli_epi16, _mm_srli_epi16, _mm_srli_si128, _mm_unpacklo_epi64,
    };

    use super::{Cube, EdgeIndexer};

    /// Shuffle controls that broadcast digit `2t` to lanes 0..8 and digit `2t + 1` to lanes 8..16.
    const BROADCAST: [[u8; 16]; 4] = {
        let mut out = [[0u8; 16]; 4];
        let mut t = 0;
        while t < 4 {
            let mut lane = 0;
            while lane < 16 {
                out[t][lane] = (2 * t + lane / 8) as u8;
                lane += 1;
            }
            t += 1;
        }
        out
    };

    /// Masks of the comparisons that count: lane `(h, j)` of round `t` compares digit `j` with
    /// digit `i = 2t + h`, which counts only when `i` comes before `j`.
    const BEFORE: [[u8; 16]; 4] = {
        let mut out = [[0u8; 16]; 4];
        let mut t = 0;
        while t < 4 {
            let mut lane = 0;
            while lane < 16 {
                let (h, j) = (lane / 8, lane % 8);
                if j > 2 * t + h {
                    out[t][lane] = 0xFF;
                }
                lane += 1;
            }
            t += 1;
        }
        out
    };

    /// Lanes 0..8 and 8..16 both take bytes 0..8.
    const DUPLICATE: [u8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7];

    /// Corner weights: the permutation digits (radix `8 - j`) in lanes 0..8, the twists (radix
    /// 3, the eighth not counted) in lanes 8..16; then pairs of pairs.
    const CORNER_W1: [i8; 16] = [7, 1, 5, 1, 3, 1, 1, 1, 3, 1, 3, 1, 3, 1, 1, 0];
    const CORNER_W2: [i16; 8] = [30, 1, 2, 1, 9, 1, 3, 1];

    #[inline(always)]
    fn load<T>(array: &T) -> __m128i {
        debug_assert_eq!(size_of::<T>(), 16);
        // SAFETY: every caller passes a 16-byte array (`[u8; 16]`, `[i8; 16]` or `[i16; 8]`);
        // an unaligned 128-bit load of it is in bounds. SSE2 is part of the x86-64 baseline.
        unsafe { _mm_loadu_si128(std::ptr::from_ref(array).cast::<__m128i>()) }
    }

    /// `digits` (lanes 0..8, repeated in lanes 8..16) minus, per lane `j < 8`, the number of
    /// lanes before `j` that hold a smaller value: the mixed-radix digits of a rank. Lanes 8..16
    /// of the result are meaningless.
    #[inline(always)]
    fn rank_digits(digits: __m128i) -> __m128i {
        // SAFETY: SSSE3 is enabled for the whole build (the module's cfg); the shuffles and
        // comparisons work on registers only.
        unsafe {
            let mut acc = _mm_set1_epi8(0);
            for t in 0..4 {
                let other = _mm_shuffle_epi8(digits, load(&BROADCAST[t]));
                let smaller = _mm_cmpgt_epi8(digits, other);
                // Each counted comparison is -1.
                acc = _mm_add_epi8(acc, _mm_and_si128(smaller, load(&BEFORE[t])));
            }
            let counts = _mm_add_epi8(acc, _mm_srli_si128::<8>(acc));
            _mm_add_epi8(digits, counts)
        }
    }

    /// The two 32-bit lanes `[hi, lo]` of `v` (lanes 0 and 1).
    #[inline(always)]
    fn lanes01(v: __m128i) -> (u32, u32) {
        // SAFETY: SSE2 is part of the x86-64 baseline.
        unsafe {
            (
                _mm_cvtsi128_si32(v) as u32,
                _mm_cvtsi128_si32(_mm_srli_si128::<4>(v)) as u32,
            )
        }
    }

    #[inline(always)]
    pub(super) fn edge_index(indexer: &EdgeIndexer, inv: &Cube) -> usize {
        let bytes = inv.packed_edges();
        // SAFETY: SSSE3 is enabled for the whole build (the module's cfg); everything works on
        // registers loaded from 16-byte arrays.
        unsafe {
            let picked = _mm_shuffle_epi8(load(&bytes), load(&indexer.select));
            let positions = _mm_and_si128(picked, _mm_set1_epi8(0x0F));
            let digits = rank_digits(positions);
            let pairs = _mm_maddubs_epi16(digits, load(&indexer.w1));
            let (high, low) = lanes01(_mm_madd_epi16(pairs, load(&indexer.w2)));
            let rank = high * indexer.w3 + low;
            // Bit 4 (the flip) of each byte moved to bit 7, where movemask reads it.
            let flips = _mm_movemask_epi8(_mm_slli_epi16::<3>(picked)) as u32 & 0xFF;
            ((rank as usize) << indexer.k) | flips as usize
        }
    }

    #[inline(always)]
    pub(super) fn corner_coord(x: &Cube) -> (usize, usize) {
        let bytes = x.packed_corners();
        // SAFETY: as in `edge_index`.
        unsafe {
            let raw = _mm_shuffle_epi8(load(&bytes), load(&DUPLICATE));
            let digits = rank_digits(_mm_and_si128(raw, _mm_set1_epi8(0x0F)));
            let twists = _mm_and_si128(_mm_srli_epi16::<4>(raw), _mm_set1_epi8(0x03));
            let both = _mm_unpacklo_epi64(digits, twists);
            let pairs = _mm_maddubs_epi16(both, load(&CORNER_W1));
            let quads = _mm_madd_epi16(pairs, load(&CORNER_W2));
            let (p_high, p_low) = lanes01(quads);
            let (t_high, t_low) = lanes01(_mm_srli_si128::<8>(quads));
            (
                (p_high * 24 + p_low) as usize,
                (t_high * 27 + t_low) as usize,
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdb::{CornerCoord, EdgeSubset};
    use rand::SeedableRng;

    #[test]
    fn indexes_agree_with_cube_tables() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let subsets: Vec<(u8, u8)> = (1..=8u8)
            .flat_map(|k| (0..=12 - k).map(move |first| (first, k)))
            .collect();
        let indexers: Vec<EdgeIndexer> = subsets
            .iter()
            .map(|&(first, k)| EdgeIndexer::new(first.into(), k.into()))
            .collect();
        for _ in 0..2000 {
            let cube = Cube::random(&mut rng);
            let inv = cube.inverse();
            let c = CornerCoord::from_cube(&cube);
            let expected = (usize::from(c.perm), usize::from(c.twist));
            assert_eq!(corner_coord(&cube), expected);
            assert_eq!(corner_coord_scalar(&cube), expected);
            for (&(first, k), indexer) in subsets.iter().zip(&indexers) {
                let expected = EdgeSubset::range(first, k).index(&cube);
                assert_eq!(indexer.index(&inv), expected, "{first} {k}");
                assert_eq!(
                    edge_index_scalar(&inv, first.into(), k.into()),
                    expected,
                    "{first} {k}"
                );
            }
        }
    }

    #[test]
    fn solved_and_extreme_indexes() {
        assert_eq!(corner_coord(&Cube::SOLVED), (0, 0));
        for k in 1..=8 {
            for first in 0..=12 - k {
                let indexer = EdgeIndexer::new(first, k);
                let subset = EdgeSubset::range(first as u8, k as u8);
                assert_eq!(indexer.index(&Cube::SOLVED), subset.index(&Cube::SOLVED));
            }
        }
    }
}
