//! The nx coordinate of a cube on each of its three axes, from its packed bytes: the form a search
//! computes six times a node, next to the definition it must equal (the axis's [`Conjugator`],
//! then [`NxSym::locate_parts`]; tested below).
//!
//! Per axis, the cube conjugated so that the axis becomes U-D is never built:
//! - which positions hold the axis's U-layer corners is one byte shuffle (piece to "goes to the
//!   U layer") and a mask, ranked in the axis's position order by a table of 256;
//! - the twists in the axis's frame are the cube's plus a term of the position and a term of the
//!   piece (the conjugation by a rotation), reduced modulo 3 by a shuffle and ranked by two
//!   multiply-adds with the axis's position weights;
//! - the class and its symmetry are [`NxSym`]'s; the edges are conjugated by the axis and that
//!   symmetry at once (the two edge lanes composed beforehand: two byte shuffles), and the edge
//!   coordinate's parts are read from byte masks (E-slice pieces, flips, U-layer pieces).
//!
//! With SSSE3 (every x86-64-v2 CPU, the workspace's target); other builds compute the definition.

// The byte-lane tables are read by the SSSE3 path only; other builds compute the definition.
#![cfg_attr(
    not(all(target_arch = "x86_64", target_feature = "ssse3")),
    allow(dead_code)
)]

use cube_core::{Cube, Symmetry};

use super::coord::{Conjugator, NxSym, Subgroup};
use crate::coord::phase1::ud_symmetries;

/// The symmetries that carry the U-D axis to each axis: U-D itself, F-B (x), L-R (z).
const AXES: [Symmetry; 3] = [Symmetry::IDENTITY, Symmetry::X, Symmetry::Z];

/// The coordinate of one axis, from the cube's corner bytes: the axis's view of the corners.
#[derive(Clone, Debug)]
struct Axis {
    /// Per piece: 0x80 when the conjugation puts the piece in the U layer.
    u_piece: [u8; 16],
    /// The twist the conjugation adds, by position lane and by piece (modulo 3, summed).
    by_position: [u8; 16],
    by_piece: [u8; 16],
    /// The weight of each position lane's twist in the twist rank (`3^(6 - p)` for the position
    /// `p` it goes to, 0 for `p = 7`), as `27 * high + low`.
    high: [i8; 16],
    low: [i8; 16],
    /// Per mask of position lanes holding U-layer pieces: their subset rank in the axis's order,
    /// times 2187 (the twist count).
    rank: Vec<u32>,
}

impl Axis {
    /// The view of the conjugation `conj` (a rotation).
    fn new(conj: &Conjugator) -> Axis {
        assert!(!conj.mirror, "an axis is reached by a rotation");
        let pos = conj.corner_pos;
        let twist = conj.corner_twist;
        let mut u_piece = [0u8; 16];
        let (mut by_position, mut by_piece) = ([0u8; 16], [0u8; 16]);
        let (mut high, mut low) = ([0i8; 16], [0i8; 16]);
        for i in 0..8 {
            u_piece[i] = if pos[i] < 4 { 0x80 } else { 0 };
            by_position[i] = twist[i][0];
            by_piece[i] = (twist[0][i] + 3 - twist[0][0]) % 3;
            let p = u32::from(pos[i]);
            let weight = if p < 7 { 3u32.pow(6 - p) } else { 0 };
            (high[i], low[i]) = ((weight / 27) as i8, (weight % 27) as i8);
        }
        for (i, row) in twist.iter().enumerate() {
            for (j, &t) in row.iter().enumerate() {
                assert_eq!(
                    (by_position[i] + by_piece[j]) % 3,
                    t,
                    "a rotation's twists are a term of the position plus one of the piece"
                );
            }
        }
        // Only masks of four positions occur.
        let rank = (0..256u32)
            .map(|mask| {
                if mask.count_ones() != 4 {
                    return 0;
                }
                let moved = (0..8)
                    .filter(|&i| mask >> i & 1 == 1)
                    .fold(0, |m, i| m | 1 << pos[i]);
                super::coord::subset_rank(moved) * crate::corners::TWIST_COUNT as u32
            })
            .collect();
        Axis {
            u_piece,
            by_position,
            by_piece,
            high,
            low,
            rank,
        }
    }
}

/// The nx coordinate on the three axes (U-D, F-B, L-R).
#[derive(Clone, Debug)]
pub(crate) struct Locator {
    /// The conjugations that carry each axis to U-D (the definition).
    #[cfg_attr(
        all(target_arch = "x86_64", target_feature = "ssse3", not(test)),
        allow(dead_code)
    )]
    conjugators: [Conjugator; 3],
    axes: [Axis; 3],
    /// Per axis and U-D symmetry `k`: the edges' conjugation by the axis's symmetry, then by
    /// `ud_symmetries()[k]`.
    edges: [[EdgeConj; 16]; 3],
}

/// A conjugation of the edges as byte shuffles: the byte at lane `x` is `edges[from[x]]`, whose
/// piece `j` becomes `piece[j]` (its new number, and the flip the piece adds), flipped once more
/// by `flip[x]` (the flip the position adds).
#[derive(Clone, Debug)]
struct EdgeConj {
    from: [u8; 16],
    piece: [u8; 16],
    flip: [u8; 16],
}

impl EdgeConj {
    /// The conjugation by `first`, then by `second`.
    fn new(first: &Conjugator, second: &Conjugator) -> EdgeConj {
        let pos: [u8; 12] =
            std::array::from_fn(|i| second.edge_pos[usize::from(first.edge_pos[i])]);
        let flip = |i: usize, j: usize| {
            let (pi, pj) = (first.edge_pos[i], first.edge_pos[j]);
            first.edge_flip[i][j] ^ second.edge_flip[usize::from(pi)][usize::from(pj)]
        };
        let identity: [u8; 16] = std::array::from_fn(|i| i as u8);
        let (mut from, mut piece, mut by_position) = (identity, identity, [0u8; 16]);
        for i in 0..12 {
            from[usize::from(pos[i])] = i as u8;
            piece[i] = pos[i] | (flip(0, i) ^ flip(0, 0)) << 4;
        }
        for i in 0..12 {
            by_position[usize::from(pos[i])] = flip(i, 0) << 4;
            for j in 0..12 {
                assert_eq!(
                    flip(i, j),
                    flip(i, 0) ^ flip(0, j) ^ flip(0, 0),
                    "a symmetry's flips are a term of the position plus one of the piece"
                );
            }
        }
        EdgeConj {
            from,
            piece,
            flip: by_position,
        }
    }
}

impl Locator {
    pub(crate) fn new() -> Locator {
        let conjugators = AXES.map(Conjugator::new);
        let axes = std::array::from_fn(|a| Axis::new(&conjugators[a]));
        let ud: Vec<Conjugator> = ud_symmetries()
            .iter()
            .map(|&s| Conjugator::new(s))
            .collect();
        let edges = std::array::from_fn(|a| {
            std::array::from_fn(|k| EdgeConj::new(&conjugators[a], &ud[k]))
        });
        Locator {
            conjugators,
            axes,
            edges,
        }
    }

    /// The table row and E-slice placement of `cube` on axis `axis` (0 U-D, 1 F-B, 2 L-R).
    #[inline(always)]
    pub(crate) fn locate(
        &self,
        sym: &NxSym,
        subgroup: Subgroup,
        axis: usize,
        cube: &Cube,
    ) -> (usize, u32) {
        self.locate_from(sym, subgroup, axis, self.corner_raw(axis, cube), cube)
    }

    /// The first half of [`Locator::locate`]: the corner coordinate of `cube` on `axis` (before
    /// the symmetry reduction), for a search to prefetch its class entry.
    #[inline(always)]
    pub(crate) fn corner_raw(&self, axis: usize, cube: &Cube) -> u32 {
        #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
        {
            simd::corner_raw(&self.axes[axis], cube)
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "ssse3")))]
        {
            let conj = &self.conjugators[axis];
            let (cp, co) = conj.corners(&cube.corner_perm(), &cube.corner_ori());
            super::coord::corner_coord(&cp, &co)
        }
    }

    /// The second half of [`Locator::locate`], from the corner coordinate `raw` of
    /// [`Locator::corner_raw`].
    #[inline(always)]
    pub(crate) fn locate_from(
        &self,
        sym: &NxSym,
        subgroup: Subgroup,
        axis: usize,
        raw: u32,
        cube: &Cube,
    ) -> (usize, u32) {
        #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
        {
            simd::locate_from(self, sym, subgroup, axis, raw, cube)
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "ssse3")))]
        {
            let _ = raw;
            self.locate_definition(sym, subgroup, axis, cube)
        }
    }

    /// [`Locator::locate`] by the definition: the cube conjugated piece by piece, then located.
    #[cfg_attr(
        all(target_arch = "x86_64", target_feature = "ssse3", not(test)),
        allow(dead_code)
    )]
    pub(crate) fn locate_definition(
        &self,
        sym: &NxSym,
        subgroup: Subgroup,
        axis: usize,
        cube: &Cube,
    ) -> (usize, u32) {
        let conj = &self.conjugators[axis];
        let corners = conj.corners(&cube.corner_perm(), &cube.corner_ori());
        let edges = conj.edges(&cube.edge_perm(), &cube.edge_ori());
        sym.locate_parts(subgroup, corners, edges)
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
#[allow(unsafe_code)]
mod simd {
    use std::arch::x86_64::{
        __m128i, _mm_add_epi8, _mm_add_epi32, _mm_and_si128, _mm_cmpeq_epi8, _mm_cvtsi128_si32,
        _mm_loadu_si128, _mm_madd_epi16, _mm_maddubs_epi16, _mm_movemask_epi8, _mm_set1_epi8,
        _mm_set1_epi16, _mm_setzero_si128, _mm_shuffle_epi8, _mm_slli_epi16, _mm_srli_epi16,
        _mm_srli_si128, _mm_storeu_si128, _mm_xor_si128,
    };

    use cube_core::Cube;

    use super::super::coord::{Eo, Ep, NxSym, Subgroup, perm4_rank, subset_rank};
    use super::{Axis, Locator};

    /// [`subset_rank`] of every 12-bit mask of four positions (0 for the other masks): one load
    /// where the rank takes a loop over the bits.
    static SUBSET_RANKS: [u16; 1 << 12] = {
        let mut ranks = [0u16; 1 << 12];
        let mut mask = 0u32;
        while mask < 1 << 12 {
            if mask.count_ones() == 4 {
                ranks[mask as usize] = subset_rank(mask) as u16;
            }
            mask += 1;
        }
        ranks
    };

    /// `x mod 3` for `x < 16`.
    const MOD3: [u8; 16] = [0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0];

    #[inline(always)]
    fn load(array: &[u8; 16]) -> __m128i {
        // SAFETY: a 16-byte array; an unaligned 128-bit load of it is in bounds (SSE2 is part of
        // the x86-64 baseline).
        unsafe { _mm_loadu_si128(array.as_ptr().cast::<__m128i>()) }
    }

    #[inline(always)]
    fn load_i8(array: &[i8; 16]) -> __m128i {
        // SAFETY: as `load`.
        unsafe { _mm_loadu_si128(array.as_ptr().cast::<__m128i>()) }
    }

    /// The bits of `value` at the set bits of `mask`, packed from bit 0 up (lowest first).
    #[inline(always)]
    fn gather(value: u32, mut mask: u32) -> u32 {
        let (mut out, mut k) = (0, 0);
        while mask != 0 {
            out |= (value >> mask.trailing_zeros() & 1) << k;
            mask &= mask - 1;
            k += 1;
        }
        out
    }

    /// The low `n` bits of `x` in reverse order.
    #[inline(always)]
    fn reverse(x: u32, n: u32) -> u32 {
        x.reverse_bits() >> (32 - n)
    }

    #[inline(always)]
    pub(super) fn corner_raw(view: &Axis, cube: &Cube) -> u32 {
        // SAFETY: SSSE3 is enabled for the whole build (the module's cfg); everything works on
        // registers loaded from 16-byte arrays.
        unsafe {
            let c = load(&cube.packed_corners());
            let pieces = _mm_and_si128(c, _mm_set1_epi8(0x0F));
            let in_u = _mm_shuffle_epi8(load(&view.u_piece), pieces);
            let u_mask = _mm_movemask_epi8(in_u) as usize & 0xFF;
            let twists = _mm_and_si128(_mm_srli_epi16::<4>(c), _mm_set1_epi8(0x03));
            let sum = _mm_add_epi8(
                _mm_add_epi8(twists, load(&view.by_position)),
                _mm_shuffle_epi8(load(&view.by_piece), pieces),
            );
            let t = _mm_shuffle_epi8(load(&MOD3), sum);
            let high = _mm_madd_epi16(
                _mm_maddubs_epi16(t, load_i8(&view.high)),
                _mm_set1_epi16(27),
            );
            let low = _mm_madd_epi16(_mm_maddubs_epi16(t, load_i8(&view.low)), _mm_set1_epi16(1));
            let both = _mm_add_epi32(high, low);
            let twist = _mm_cvtsi128_si32(_mm_add_epi32(both, _mm_srli_si128::<4>(both))) as u32;
            view.rank[u_mask] + twist
        }
    }

    #[inline(always)]
    pub(super) fn locate_from(
        locator: &Locator,
        sym: &NxSym,
        subgroup: Subgroup,
        axis: usize,
        raw: u32,
        cube: &Cube,
    ) -> (usize, u32) {
        let (class, k) = sym.class_and_sym(raw);
        // SAFETY: SSSE3 is enabled for the whole build (the module's cfg); everything works on
        // registers loaded from and stored to 16-byte arrays.
        unsafe {
            let low_nibble = _mm_set1_epi8(0x0F);
            let conj = &locator.edges[axis][k];
            let moved = _mm_shuffle_epi8(load(&cube.packed_edges()), load(&conj.from));
            let q = _mm_xor_si128(
                _mm_xor_si128(
                    _mm_shuffle_epi8(load(&conj.piece), _mm_and_si128(moved, low_nibble)),
                    _mm_and_si128(moved, _mm_set1_epi8(0x10)),
                ),
                load(&conj.flip),
            );
            // Pieces 8..11 (the E slice) have bit 3; flips are bit 4.
            let e_mask = _mm_movemask_epi8(_mm_slli_epi16::<4>(q)) as u32 & 0xFFF;
            let flips = _mm_movemask_epi8(_mm_slli_epi16::<3>(q)) as u32 & 0xFFF;
            let others = !e_mask & 0xFFF;
            let flip_part = match subgroup.eo {
                Eo::Eo1 => reverse(gather(flips, e_mask), 4),
                Eo::Eo2 => reverse(gather(flips, others), 8),
                Eo::Eo3 => reverse(flips & 0x7FF, 11),
            };
            let order = if subgroup.ep.keeps_order() {
                let mut bytes = [0u8; 16];
                _mm_storeu_si128(bytes.as_mut_ptr().cast::<__m128i>(), q);
                let mut perm = [0u8; 4];
                let mut mask = e_mask;
                for p in &mut perm {
                    *p = bytes[mask.trailing_zeros() as usize] & 3;
                    mask &= mask - 1;
                }
                perm4_rank(&perm)
            } else {
                0
            };
            let layers = if subgroup.ep.keeps_layers() {
                // Pieces 0..3 (the U layer) have neither bit 2 nor bit 3.
                let upper =
                    _mm_cmpeq_epi8(_mm_and_si128(q, _mm_set1_epi8(0x0C)), _mm_setzero_si128());
                let u_edges = _mm_movemask_epi8(upper) as u32 & 0xFFF;
                u32::from(SUBSET_RANKS[gather(u_edges, others) as usize])
            } else {
                0
            };
            let perm = match subgroup.ep {
                Ep::Ep1 => 0,
                Ep::Ep2 => order,
                Ep::Ep3 => layers,
                Ep::Ep4 => layers * 24 + order,
            };
            let row = class as usize * subgroup.rows_per_class()
                + (perm * subgroup.eo.count() as u32 + flip_part) as usize;
            (row, u32::from(SUBSET_RANKS[e_mask as usize]))
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::nx::{Eo, Ep};

    #[test]
    fn the_fast_coordinate_is_the_definition() {
        let sym = NxSym::new();
        let locator = Locator::new();
        let mut rng = rand::rngs::StdRng::seed_from_u64(341);
        let mut cubes: Vec<Cube> = (0..300).map(|_| Cube::random(&mut rng)).collect();
        // Symmetric corners (stabilizers of more than one symmetry) and the solved cube.
        cubes.push(Cube::SOLVED);
        cubes.extend(
            [
                cube_core::Move::U2,
                cube_core::Move::R2,
                cube_core::Move::F1,
            ]
            .map(Cube::from_move),
        );
        for eo in [Eo::Eo1, Eo::Eo2, Eo::Eo3] {
            for ep in [Ep::Ep1, Ep::Ep2, Ep::Ep3, Ep::Ep4] {
                let subgroup = Subgroup { eo, ep };
                for cube in &cubes {
                    for axis in 0..3 {
                        assert_eq!(
                            locator.locate(&sym, subgroup, axis, cube),
                            locator.locate_definition(&sym, subgroup, axis, cube),
                            "{subgroup:?} axis {axis} {cube:?}"
                        );
                    }
                }
            }
        }
    }
}
