//! The edge part of the H48 coordinate, read after conjugating the cube to its corner class
//! representative: the E-slice placement, the M-slice placement among the other eight positions,
//! and the flips, all in nissy-core's edge order.
//!
//! Edge positions are read in the order Q = UF UB DB DF UR UL DL DR FR FL BL BR (Kociemba positions
//! 1, 3, 7, 5, 0, 2, 6, 4, 8, 9, 10, 11; cube-encode's H48 order). Then:
//!
//! - `placement`: the rank (0..495) of the 12-bit mask of Q positions holding E-slice pieces
//!   (FR FL BL BR, Kociemba pieces 8..11) among the masks of popcount 4, in increasing order;
//! - `sep70`: the rank (0..70) of the 8-bit mask of M-slice pieces (UF UB DF DB, Kociemba pieces 1,
//!   3, 5, 7) over the eight non-E Q positions, in Q order;
//! - `eo11`: bit `j - 1` is the flip of Q position `j`, for `j` in 1..12 (UF's flip follows by
//!   parity), so the top `N` bits are the flips of BR, BL, FL, FR (`N = 4`), then DR, DL, UL.
//!
//! A symmetry acts on the edges as a fixed permutation with flips (mirrors included), so
//! conjugating a cube's edges is two byte shuffles: [`EdgeSyms`] derives the 48 lanes from
//! cube-core's moves and symmetries.

use std::sync::OnceLock;

use cube_core::{Cube, Move, Symmetry};

use super::cocsep::SEP_RANK;

/// The number of placements of the four E-slice edges: C(12, 4).
pub(crate) const N_PLACEMENTS: usize = 495;

/// Kociemba's edge positions in index order Q (nissy-core's order).
pub(crate) const Q: [u8; 12] = [1, 3, 7, 5, 0, 2, 6, 4, 8, 9, 10, 11];

/// `E_RANK[mask]`: the rank of a 12-bit mask of popcount 4 among such masks in increasing order
/// (`u16::MAX` for other masks).
pub(crate) static E_RANK: [u16; 4096] = {
    let mut out = [u16::MAX; 4096];
    let mut mask = 0;
    let mut rank = 0;
    while mask < 4096 {
        if (mask as u16).count_ones() == 4 {
            out[mask] = rank;
            rank += 1;
        }
        mask += 1;
    }
    out
};

/// `E_MASKS[rank]`: the inverse of [`E_RANK`].
pub(crate) static E_MASKS: [u16; N_PLACEMENTS] = {
    let mut out = [0u16; N_PLACEMENTS];
    let mut mask = 0;
    while mask < 4096 {
        if E_RANK[mask] != u16::MAX {
            out[E_RANK[mask] as usize] = mask as u16;
        }
        mask += 1;
    }
    out
};

/// `COMPRESS[placement]`: a shuffle control whose lanes 0..8 take the eight Q positions outside the
/// placement, in order (lanes 8..16 zero): how `sep70` reads the M pieces without `pext`.
pub(crate) static COMPRESS: [[u8; 16]; N_PLACEMENTS] = {
    let mut out = [[0x80u8; 16]; N_PLACEMENTS];
    let mut r = 0;
    while r < N_PLACEMENTS {
        let mut k = 0;
        let mut j = 0;
        while j < 12 {
            if E_MASKS[r] >> j & 1 == 0 {
                out[r][k] = j as u8;
                k += 1;
            }
            j += 1;
        }
        r += 1;
    }
    out
};

pub use crate::file::lines::slot;

/// The edge coordinates of one conjugated cube.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EdgeParts {
    /// Where the M-slice edges are among the eight positions outside the E slice, `0..70`.
    pub sep70: u32,
    /// Where the E-slice edges are, `0..495`.
    pub placement: u32,
    /// The flips of Q positions 1..12, bit `j - 1` for position `j`.
    pub eo11: u32,
}

impl EdgeParts {
    /// `sep70 * 495 + placement`, `0..34,650`: the edge part of the h0 coordinate.
    #[inline]
    pub const fn esep(self) -> u32 {
        self.sep70 * N_PLACEMENTS as u32 + self.placement
    }
}

/// The edge coordinates of an edge lane (byte `i`: piece at Kociemba position `i` | flip << 4),
/// by the definition, one position at a time.
pub(crate) fn edge_parts_plain(edges: &[u8; 16]) -> EdgeParts {
    let (mut e_mask, mut m_mask, mut eo11, mut n_outside) = (0u32, 0u32, 0u32, 0);
    for (j, &position) in Q.iter().enumerate() {
        let (piece, flip) = (
            edges[position as usize] & 0x0F,
            edges[position as usize] >> 4,
        );
        if (8..12).contains(&piece) {
            e_mask |= 1 << j;
        } else {
            if [1, 3, 5, 7].contains(&piece) {
                m_mask |= 1 << n_outside;
            }
            n_outside += 1;
        }
        if j > 0 {
            eo11 |= u32::from(flip) << (j - 1);
        }
    }
    EdgeParts {
        sep70: u32::from(SEP_RANK[m_mask as usize]),
        placement: u32::from(E_RANK[e_mask as usize]),
        eo11,
    }
}

/// Composition of two edge lanes, "a then b" ([`Cube::compose`]'s rule for edges).
#[inline]
pub(crate) fn compose(a: &[u8; 16], b: &[u8; 16]) -> [u8; 16] {
    std::array::from_fn(|i| a[usize::from(b[i] & 0x0F)] ^ (b[i] & 0x10))
}

/// The inverse of an edge lane.
fn inverse(a: &[u8; 16]) -> [u8; 16] {
    let mut out = [0u8; 16];
    for (i, &b) in a.iter().enumerate() {
        out[usize::from(b & 0x0F)] = i as u8 | (b & 0x10);
    }
    out
}

/// The action of the 48 symmetries on edge lanes: `Symmetry::conjugate(s, x)`'s edges are
/// `lane(s) ∘ edges(x) ∘ lane(s)⁻¹` (composition in sequence order).
#[derive(Clone, Debug)]
pub struct EdgeSyms {
    lanes: [[u8; 16]; 48],
    /// The inverse lanes, permuted into Q order: lane `j` is `inverse[Q[j]]`.
    inverse_q: [[u8; 16]; 48],
}

impl EdgeSyms {
    /// The lanes, derived once per process.
    pub fn get() -> &'static EdgeSyms {
        static SYMS: OnceLock<EdgeSyms> = OnceLock::new();
        SYMS.get_or_init(EdgeSyms::build)
    }

    fn build() -> EdgeSyms {
        let mut lanes = [[0u8; 16]; 48];
        let mut inverse_q = [[0u8; 16]; 48];
        for s in Symmetry::all() {
            let lane = derive_lane(s);
            let inv = inverse(&lane);
            lanes[s.index()] = lane;
            inverse_q[s.index()] =
                std::array::from_fn(|j| if j < 12 { inv[Q[j] as usize] } else { j as u8 });
        }
        EdgeSyms { lanes, inverse_q }
    }

    /// The edge lane of symmetry `k`.
    pub fn lane(&self, k: usize) -> &[u8; 16] {
        &self.lanes[k]
    }

    /// The edge lane of `Symmetry::from_index(k).conjugate(x)` for a cube with edge lane `edges`.
    #[inline]
    pub fn conjugate(&self, k: usize, edges: &[u8; 16]) -> [u8; 16] {
        compose(&compose(&self.lanes[k], edges), &inverse(&self.lanes[k]))
    }

    /// [`EdgeSyms::conjugate`] with the result read in Q order (lane `j` = position `Q[j]`).
    #[inline]
    pub(crate) fn conjugate_q_scalar(&self, k: usize, edges: &[u8; 16]) -> [u8; 16] {
        compose(&compose(&self.lanes[k], edges), &self.inverse_q[k])
    }

    pub(crate) fn inverse_q(&self, k: usize) -> &[u8; 16] {
        &self.inverse_q[k]
    }
}

/// The edge lane `a` of symmetry `s`: the one with `a ∘ m = conj(m) ∘ a` for every move `m`, found
/// by propagating `a[0]` (24 candidates) along the moves; conjugation is then `a ∘ x ∘ a⁻¹` for
/// every cube `x`, since the moves generate the edge group.
fn derive_lane(s: Symmetry) -> [u8; 16] {
    let pairs: Vec<([u8; 16], [u8; 16])> = Move::ALL
        .iter()
        .map(|&m| {
            (
                Cube::from_move(m).packed_edges(),
                Cube::from_move(s.conjugate_move(m)).packed_edges(),
            )
        })
        .collect();
    'candidates: for first in 0..24u8 {
        let mut lane: [Option<u8>; 12] = [None; 12];
        lane[0] = Some((first % 12) | ((first / 12) << 4));
        let mut stack = vec![0usize];
        while let Some(i) = stack.pop() {
            let a_i = lane[i].expect("on the stack means known");
            for (x, y) in &pairs {
                // (a ∘ x)[i] = a[x[i]] ^ flip(x[i]) must equal (y ∘ a)[i] = y[a[i]] ^ flip(a[i]).
                let target = usize::from(x[i] & 0x0F);
                let value = y[usize::from(a_i & 0x0F)] ^ (a_i & 0x10) ^ (x[i] & 0x10);
                match lane[target] {
                    None => {
                        lane[target] = Some(value);
                        stack.push(target);
                    }
                    Some(v) if v == value => {}
                    Some(_) => continue 'candidates,
                }
            }
        }
        let mut out: [u8; 16] = std::array::from_fn(|i| i as u8);
        for (o, v) in out.iter_mut().zip(lane) {
            *o = v.expect("the moves reach every edge position");
        }
        if out[..12]
            .iter()
            .fold(0u16, |seen, &b| seen | 1 << (b & 0x0F))
            == 0xFFF
        {
            return out;
        }
    }
    panic!("symmetry {} acts on the edges by no permutation", s.name())
}
