//! The H48 index of a cube: [`Coordinate`], with a fast path from the cube's byte lanes (byte
//! shuffles and small tables) and a plain definition it is tested against.

use cube_core::Cube;

use super::cocsep::{Cocsep, N_SEP, cocsep};
use super::edges::{EdgeParts, EdgeSyms, N_PLACEMENTS, edge_parts_plain, slot};

/// The most flips a coordinate keeps.
pub(crate) const MAX_FLIPS: u32 = 11;

/// The slots of one (class, sep70, flips) block: the 495 E-slice placements spread over 8 lines.
pub(crate) const BLOCK_SLOTS: usize = 512;

/// The H48 coordinate keeping `N` flips (`hN`): a cube's index in the 2-bit line layout,
/// `((class * 70 + sep70) << N | eoN) << 9 | slot`.
///
/// ```
/// use cube_core::{Cube, Move, Symmetry};
/// use cube_tables::h48::Coordinate;
///
/// let h0 = Coordinate::new(0);
/// let x = Cube::SOLVED.apply_moves(&[Move::R1, Move::U1, Move::F3]);
/// // A half turn done first keeps the index, and so does conjugating by a symmetry.
/// assert_eq!(h0.index(&Cube::from_move(Move::U2).compose(&x)), h0.index(&x));
/// assert_eq!(h0.canonical_index(&Symmetry::X.conjugate(&x)), h0.canonical_index(&x));
/// assert_eq!(h0.n_slots(), 3393 * 70 * 512);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Coordinate {
    n_flips: u32,
    cocsep: &'static Cocsep,
    syms: &'static EdgeSyms,
}

impl Coordinate {
    /// The coordinate keeping the top `n_flips` of the 11 flips (`h0` .. `h11`). Builds the shared
    /// [`Cocsep`] and [`EdgeSyms`] tables on first use.
    ///
    /// # Panics
    /// If `n_flips > 11`.
    pub fn new(n_flips: u32) -> Coordinate {
        assert!(
            n_flips <= MAX_FLIPS,
            "an H48 coordinate keeps at most 11 flips"
        );
        Coordinate {
            n_flips,
            cocsep: Cocsep::get(),
            syms: EdgeSyms::get(),
        }
    }

    /// The number of kept flips, `N`.
    pub fn n_flips(&self) -> u32 {
        self.n_flips
    }

    /// The number of slots of the layout: 3,393 x 70 x 2^N x 512.
    pub fn n_slots(&self) -> usize {
        self.cocsep.n_classes() * N_SEP * (BLOCK_SLOTS << self.n_flips)
    }

    /// The number of real entries (slots that hold a placement): 3,393 x 34,650 x 2^N.
    pub fn n_entries(&self) -> usize {
        self.cocsep.n_classes() * N_SEP * (N_PLACEMENTS << self.n_flips)
    }

    /// The corner table the coordinate reads.
    pub fn cocsep_table(&self) -> &'static Cocsep {
        self.cocsep
    }

    /// The slot index of a class and the edge parts (read in the representative's frame).
    #[inline]
    pub fn layout(&self, class: u32, parts: EdgeParts) -> usize {
        let n = self.n_flips;
        let block = ((class as usize * N_SEP + parts.sep70 as usize) << n)
            | (parts.eo11 >> (MAX_FLIPS - n)) as usize;
        block << 9 | slot(parts.placement) as usize
    }

    /// The slot index of `cube`: from its byte lanes, with SSSE3 shuffles where available.
    #[inline]
    pub fn index(&self, cube: &Cube) -> usize {
        let (class, parts) = self.parts(cube);
        self.layout(class, parts)
    }

    /// The class and the edge parts of `cube` (the fast path of [`Coordinate::index`]).
    #[inline]
    pub fn parts(&self, cube: &Cube) -> (u32, EdgeParts) {
        #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
        {
            simd::parts(self.cocsep, self.syms, cube)
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "ssse3")))]
        {
            parts_scalar(self.cocsep, self.syms, cube)
        }
    }

    /// [`Coordinate::index`] without SIMD (the path of builds without SSSE3): the same tables, one
    /// byte lane at a time.
    pub fn index_scalar(&self, cube: &Cube) -> usize {
        let (class, parts) = parts_scalar(self.cocsep, self.syms, cube);
        self.layout(class, parts)
    }

    /// [`Coordinate::index`] by the definition: [`cocsep`], its class and `ttrep`, the cube
    /// conjugated by cube-core's [`Symmetry::conjugate`](cube_core::Symmetry::conjugate) (on
    /// stickers), and the edge parts read one position at a time. About a microsecond; the
    /// reference the fast path is tested against.
    pub fn index_plain(&self, cube: &Cube) -> usize {
        let entry = self.cocsep.entry(cocsep(cube));
        let conjugated = entry.ttrep().conjugate(cube);
        self.layout(entry.class(), edge_parts_plain(&conjugated.packed_edges()))
    }

    /// The class and the index of the block of `cube`'s entries, up to the symmetries that fix the
    /// class representative: the smallest index among the images under the stabilizer. Equal for
    /// every conjugate of a cube (tests and checks use it; the search reads [`Coordinate::index`],
    /// whose entries for the images of one coset hold the same value).
    pub fn canonical_index(&self, cube: &Cube) -> usize {
        let entry = self.cocsep.entry(cocsep(cube));
        let edges = self
            .syms
            .conjugate(entry.ttrep_index(), &cube.packed_edges());
        let class = entry.class();
        let mut stabilizer = self.cocsep.stabilizer(class);
        let mut best = usize::MAX;
        while stabilizer != 0 {
            let k = stabilizer.trailing_zeros() as usize;
            stabilizer &= stabilizer - 1;
            let image = self.syms.conjugate(k, &edges);
            best = best.min(self.layout(class, edge_parts_plain(&image)));
        }
        best
    }
}

/// [`Coordinate::parts`] without SIMD: the same tables, one lane at a time.
pub(crate) fn parts_scalar(cocsep: &Cocsep, syms: &EdgeSyms, cube: &Cube) -> (u32, EdgeParts) {
    use super::cocsep::{CSEP_RANK, tetrad};
    use crate::corners::twist_rank;

    let corners = cube.packed_corners();
    let mut mask = 0usize;
    let mut twists = [0u8; 8];
    for i in 0..8 {
        mask |= usize::from(tetrad(corners[i] & 0x0F)) << i;
        twists[i] = corners[i] >> 4;
    }
    let raw = u32::from(twist_rank(&twists)) * N_SEP as u32 + u32::from(CSEP_RANK[mask]);
    let entry = cocsep.entry(raw);
    let q = syms.conjugate_q_scalar(entry.ttrep_index(), &cube.packed_edges());
    (entry.class(), q_parts_scalar(&q))
}

/// The edge parts of an edge lane read in Q order (lane `j` = position `Q[j]`), one lane at a time.
fn q_parts_scalar(q: &[u8; 16]) -> EdgeParts {
    use super::cocsep::SEP_RANK;
    use super::edges::{COMPRESS, E_RANK};

    let (mut e_mask, mut eo) = (0usize, 0u32);
    for (j, &b) in q[..12].iter().enumerate() {
        e_mask |= usize::from(b >> 3 & 1) << j;
        eo |= u32::from(b >> 4 & 1) << j;
    }
    let placement = E_RANK[e_mask];
    let lanes = &COMPRESS[usize::from(placement)];
    let mut m_mask = 0usize;
    for (k, &j) in lanes[..8].iter().enumerate() {
        m_mask |= usize::from(q[usize::from(j)] & 1) << k;
    }
    EdgeParts {
        sep70: u32::from(SEP_RANK[m_mask]),
        placement: u32::from(placement),
        eo11: eo >> 1,
    }
}

/// The edge parts of `a ∘ edges ∘ b` (composition in sequence order, flips included) read in Q
/// order: `b` maps Q order to positions, as [`EdgeSyms::inverse_q`] does. With `a` a symmetry's
/// lane and `b` its inverse in Q order, the parts of the conjugated edges; the bake also folds a
/// move into `b`.
#[inline]
pub(crate) fn edge_parts_of(a: &[u8; 16], edges: &[u8; 16], b: &[u8; 16]) -> EdgeParts {
    #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
    {
        simd::edge_parts_of(a, edges, b)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "ssse3")))]
    {
        q_parts_scalar(&super::edges::compose(&super::edges::compose(a, edges), b))
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
#[allow(unsafe_code)]
mod simd {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_cvtsi128_si32, _mm_loadu_si128, _mm_madd_epi16,
        _mm_maddubs_epi16, _mm_movemask_epi8, _mm_set1_epi8, _mm_shuffle_epi8, _mm_slli_epi16,
        _mm_srli_epi16, _mm_srli_si128, _mm_xor_si128,
    };

    use super::super::cocsep::{CSEP_RANK, Cocsep, N_SEP, SEP_RANK};
    use super::super::edges::{COMPRESS, E_RANK, EdgeParts, EdgeSyms};
    use cube_core::Cube;

    /// Twist weights: pairs `3 t0 + t1`, `3 t2 + t3`, `3 t4 + t5`, `t6` (lanes 0..8), then
    /// `9 p0 + p1` and `3 p2 + p3`: the twist rank is `27 q0 + q1`.
    const TWIST_W1: [i8; 16] = [3, 1, 3, 1, 3, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    const TWIST_W2: [i16; 8] = [9, 1, 3, 1, 0, 0, 0, 0];

    #[inline(always)]
    fn load<T>(array: &T) -> __m128i {
        debug_assert_eq!(size_of::<T>(), 16);
        // SAFETY: every caller passes a 16-byte array; an unaligned 128-bit load of it is in
        // bounds. SSE2 is part of the x86-64 baseline.
        unsafe { _mm_loadu_si128(std::ptr::from_ref(array).cast::<__m128i>()) }
    }

    #[inline(always)]
    pub(super) fn parts(cocsep: &Cocsep, syms: &EdgeSyms, cube: &Cube) -> (u32, EdgeParts) {
        let corners = cube.packed_corners();
        let edges = cube.packed_edges();
        // SAFETY: SSSE3 is enabled for the whole build (the module's cfg); everything works on
        // registers loaded from 16-byte arrays.
        unsafe {
            let c = load(&corners);
            let low = _mm_set1_epi8(0x0F);
            let pieces = _mm_and_si128(c, low);
            // Bit 0 of `p ^ p >> 2` is 0 for the tetrad {0, 2, 5, 7}, moved to bit 7.
            let odd = _mm_xor_si128(pieces, _mm_and_si128(_mm_srli_epi16::<2>(pieces), low));
            let b_mask = _mm_movemask_epi8(_mm_slli_epi16::<7>(odd)) as usize & 0xFF;
            let twists = _mm_and_si128(_mm_srli_epi16::<4>(c), _mm_set1_epi8(0x03));
            let pairs = _mm_maddubs_epi16(twists, load(&TWIST_W1));
            let quads = _mm_madd_epi16(pairs, load(&TWIST_W2));
            let q0 = _mm_cvtsi128_si32(quads) as u32;
            let q1 = _mm_cvtsi128_si32(_mm_srli_si128::<4>(quads)) as u32;
            let raw = (q0 * 27 + q1) * N_SEP as u32 + u32::from(CSEP_RANK[!b_mask & 0xFF]);
            let entry = cocsep.entry(raw);
            let k = entry.ttrep_index();
            (
                entry.class(),
                edge_parts_of(syms.lane(k), &edges, syms.inverse_q(k)),
            )
        }
    }

    /// [`super::edge_parts_of`]: two shuffles, then the masks.
    #[inline(always)]
    pub(super) fn edge_parts_of(a: &[u8; 16], edges: &[u8; 16], b: &[u8; 16]) -> EdgeParts {
        // SAFETY: SSSE3 is enabled for the whole build (the module's cfg); everything works on
        // registers loaded from 16-byte arrays.
        unsafe {
            let low = _mm_set1_epi8(0x0F);
            let a = load(a);
            let e = load(edges);
            let flip = _mm_set1_epi8(0x10);
            let ae = _mm_xor_si128(
                _mm_shuffle_epi8(a, _mm_and_si128(e, low)),
                _mm_and_si128(e, flip),
            );
            let inv = load(b);
            let q = _mm_xor_si128(
                _mm_shuffle_epi8(ae, _mm_and_si128(inv, low)),
                _mm_and_si128(inv, flip),
            );
            let e_mask = _mm_movemask_epi8(_mm_slli_epi16::<4>(q)) as usize & 0xFFF;
            let eo = _mm_movemask_epi8(_mm_slli_epi16::<3>(q)) as u32 & 0xFFF;
            let placement = E_RANK[e_mask];
            let outside = _mm_shuffle_epi8(q, load(&COMPRESS[usize::from(placement)]));
            let m_mask = _mm_movemask_epi8(_mm_slli_epi16::<7>(outside)) as usize & 0xFF;
            EdgeParts {
                sep70: u32::from(SEP_RANK[m_mask]),
                placement: u32::from(placement),
                eo11: eo >> 1,
            }
        }
    }
}
