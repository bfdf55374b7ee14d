//! The nx coordinate: the coset of a cube under one of nxopt's subgroups, written once over the
//! edge options ([`Subgroup`]: an [`Eo`] and an [`Ep`] option).
//!
//! Every subgroup holds the U and D turns, keeps each corner in its layer (U or D) and untwisted,
//! and keeps the E-slice edges in the E slice. Its cosets are read from the pieces' classes at each
//! position (left cosets `H p`: `h` relabels the pieces of `p`):
//! - corners: which positions hold U-layer corners (70) and all twists (3^7): 153,090 values,
//!   9,930 classes under the 16 symmetries that keep the U-D axis ([`NxSym`]);
//! - edges: which positions hold E-slice edges (495, the least significant part), then the option's
//!   permutation part ([`Ep`]: none, the order of the E-slice edges, which of the other positions
//!   hold U-layer edges, or both) and orientation part ([`Eo`]: the flips of the E-slice edges,
//!   of the others, or all of them).
//!
//! Symmetries act on the cosets (the subgroup is closed under them), so a table keeps one row of
//! edge coordinates per corner class: the cube is conjugated by the symmetry that carries its
//! corners to their class representative. Conjugation is done piece by piece ([`Conjugator`]),
//! derived once from [`cube_core::Symmetry::conjugate`] and tested against it.

use cube_core::{Cube, Move, Symmetry};

use crate::coord::phase1::ud_symmetries;
use crate::corners::{TWIST_COUNT, twist_rank, twist_unrank};

/// The E-slice placements: which 4 of the 12 edge positions hold the E-slice edges.
pub const N_SLICE: usize = 495;
/// The corner coordinate: U-layer corner positions (70) x twist (2187).
pub const N_CORNER_RAW: usize = 70 * TWIST_COUNT;
/// The corner classes under the 16 symmetries that keep the U-D axis.
pub const N_CORNER_CLASSES: usize = 9_930;

/// nxopt's edge-orientation options: which flips the coset keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Eo {
    /// EO1: the flips of the four E-slice edges (x16).
    Eo1,
    /// EO2: the flips of the eight U and D edges (x256).
    Eo2,
    /// EO3: every flip (x2048, the twelfth follows from parity).
    Eo3,
}

/// nxopt's edge-permutation options: what of the edge permutation the coset keeps beyond where the
/// E-slice edges are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ep {
    /// EP1: nothing more (x1).
    Ep1,
    /// EP2: the order of the E-slice edges (x24).
    Ep2,
    /// EP3: which of the other eight positions hold U-layer edges (x70).
    Ep3,
    /// EP4: both (x1680).
    Ep4,
}

impl Eo {
    /// The number of values of the option.
    pub const fn count(self) -> usize {
        match self {
            Eo::Eo1 => 16,
            Eo::Eo2 => 256,
            Eo::Eo3 => 2048,
        }
    }
}

impl Ep {
    /// The number of values of the option.
    pub const fn count(self) -> usize {
        match self {
            Ep::Ep1 => 1,
            Ep::Ep2 => 24,
            Ep::Ep3 => 70,
            Ep::Ep4 => 1680,
        }
    }

    pub(super) const fn keeps_order(self) -> bool {
        matches!(self, Ep::Ep2 | Ep::Ep4)
    }

    pub(super) const fn keeps_layers(self) -> bool {
        matches!(self, Ep::Ep3 | Ep::Ep4)
    }
}

/// One of nxopt's subgroups: an orientation and a permutation option of the edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Subgroup {
    /// The flips the coset keeps.
    pub eo: Eo,
    /// The permutation part the coset keeps.
    pub ep: Ep,
}

impl Subgroup {
    /// The edge rows per corner class: the permutation part times the orientation part.
    pub const fn rows_per_class(self) -> usize {
        self.ep.count() * self.eo.count()
    }

    /// The edge coordinates: `rows_per_class() * 495`.
    pub const fn n_edges(self) -> usize {
        self.rows_per_class() * N_SLICE
    }

    /// The edge coordinate of edges `ep`, `eo` (piece and flip at each position):
    /// `(perm_part * eo_count + eo_part) * 495 + slice`.
    #[inline]
    pub fn edge_coord(self, ep: &[u8; 12], eo: &[u8; 12]) -> u32 {
        let mut e_mask = 0u32;
        for (i, &piece) in ep.iter().enumerate() {
            e_mask |= u32::from(piece >= 8) << i;
        }
        let slice = subset_rank(e_mask);
        let mut order = 0;
        if self.ep.keeps_order() {
            let mut pieces = [0u8; 4];
            let mut k = 0;
            for &piece in ep {
                if piece >= 8 {
                    pieces[k] = piece - 8;
                    k += 1;
                }
            }
            order = perm4_rank(&pieces);
        }
        let mut layers = 0;
        if self.ep.keeps_layers() {
            let mut u_mask = 0u32;
            let mut k = 0;
            for &piece in ep {
                if piece < 8 {
                    u_mask |= u32::from(piece < 4) << k;
                    k += 1;
                }
            }
            layers = subset_rank(u_mask);
        }
        let perm = match self.ep {
            Ep::Ep1 => 0,
            Ep::Ep2 => order,
            Ep::Ep3 => layers,
            Ep::Ep4 => layers * 24 + order,
        };
        let flips = match self.eo {
            Eo::Eo3 => (0..11).fold(0, |acc, i| acc << 1 | u32::from(eo[i])),
            Eo::Eo1 | Eo::Eo2 => {
                let e_slice = self.eo == Eo::Eo1;
                let mut acc = 0;
                for i in 0..12 {
                    if (ep[i] >= 8) == e_slice {
                        acc = acc << 1 | u32::from(eo[i]);
                    }
                }
                acc
            }
        };
        (perm * self.eo.count() as u32 + flips) * N_SLICE as u32 + slice
    }

    /// Edges (piece and flip at each position) of the coordinate `coord`: one member of its coset.
    ///
    /// # Panics
    /// If `coord >= self.n_edges()`.
    pub fn edge_unrank(self, coord: u32) -> ([u8; 12], [u8; 12]) {
        assert!((coord as usize) < self.n_edges(), "edge coordinate {coord}");
        let slice = coord % N_SLICE as u32;
        let rest = coord / N_SLICE as u32;
        let flips = rest % self.eo.count() as u32;
        let perm = rest / self.eo.count() as u32;
        let (order, layers) = match self.ep {
            Ep::Ep1 => (0, 0),
            Ep::Ep2 => (perm, 0),
            Ep::Ep3 => (0, perm),
            Ep::Ep4 => (perm % 24, perm / 24),
        };
        let e_mask = subset_unrank(slice);
        let u_mask = subset_unrank(layers);
        let order = perm4_unrank(order);
        let (mut ep, mut eo) = ([0u8; 12], [0u8; 12]);
        let (mut e, mut u, mut d, mut k) = (0, 0, 4, 0);
        for (i, piece) in ep.iter_mut().enumerate() {
            if e_mask >> i & 1 == 1 {
                *piece = 8 + order[e];
                e += 1;
            } else {
                if u_mask >> k & 1 == 1 {
                    *piece = u;
                    u += 1;
                } else {
                    *piece = d;
                    d += 1;
                }
                k += 1;
            }
        }
        match self.eo {
            Eo::Eo3 => {
                for (i, flip) in eo[..11].iter_mut().enumerate() {
                    *flip = (flips >> (10 - i) & 1) as u8;
                }
                eo[11] = eo[..11].iter().fold(0, |a, f| a ^ f);
            }
            Eo::Eo1 | Eo::Eo2 => {
                let e_slice = self.eo == Eo::Eo1;
                let n = if e_slice { 4 } else { 8 };
                let mut j = 0;
                for i in 0..12 {
                    if (ep[i] >= 8) == e_slice {
                        eo[i] = (flips >> (n - 1 - j) & 1) as u8;
                        j += 1;
                    }
                }
            }
        }
        (ep, eo)
    }
}

/// The corner coordinate of corners `cp`, `co`: `u_layer_positions * 2187 + twist`.
#[inline]
pub fn corner_coord(cp: &[u8; 8], co: &[u8; 8]) -> u32 {
    let mut mask = 0;
    for (i, &piece) in cp.iter().enumerate() {
        mask |= u32::from(piece < 4) << i;
    }
    subset_rank(mask) * TWIST_COUNT as u32 + u32::from(twist_rank(co))
}

/// Corners (piece and twist at each position) of the corner coordinate `coord`.
fn corner_unrank(coord: u32) -> ([u8; 8], [u8; 8]) {
    let mask = subset_unrank(coord / TWIST_COUNT as u32);
    let (mut cp, mut u, mut d) = ([0u8; 8], 0, 4);
    for (i, piece) in cp.iter_mut().enumerate() {
        if mask >> i & 1 == 1 {
            *piece = u;
            u += 1;
        } else {
            *piece = d;
            d += 1;
        }
    }
    (cp, twist_unrank((coord % TWIST_COUNT as u32) as u16))
}

/// `BINOMIAL[n][k]`, for the ranks of 4-subsets.
const BINOMIAL: [[u32; 5]; 12] = {
    let mut table = [[0u32; 5]; 12];
    let mut n = 0;
    while n < 12 {
        table[n][0] = 1;
        let mut k = 1;
        while k < 5 {
            table[n][k] = if n == 0 {
                0
            } else {
                table[n - 1][k - 1] + table[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    table
};

/// The colexicographic rank of a 4-element set of positions (bits of `mask`): `sum C(c_i, i)`.
#[inline]
pub(super) const fn subset_rank(mut mask: u32) -> u32 {
    let mut rank = 0;
    let mut k = 1;
    while mask != 0 {
        rank += BINOMIAL[mask.trailing_zeros() as usize][k];
        mask &= mask - 1;
        k += 1;
    }
    rank
}

/// The 4-element set of rank `rank` (the inverse of [`subset_rank`]).
fn subset_unrank(mut rank: u32) -> u32 {
    let mut mask = 0;
    let mut n = 11;
    for k in (1..=4).rev() {
        while BINOMIAL[n][k] > rank {
            n -= 1;
        }
        rank -= BINOMIAL[n][k];
        mask |= 1 << n;
        n = n.saturating_sub(1);
    }
    mask
}

/// The Lehmer rank of a permutation of `0..4`.
#[inline]
pub(super) fn perm4_rank(perm: &[u8; 4]) -> u32 {
    cube_core::perm::rank_permutation(perm) as u32
}

fn perm4_unrank(rank: u32) -> [u8; 4] {
    let mut perm = [0u8; 4];
    cube_core::perm::unrank_permutation(u64::from(rank), &mut perm);
    perm
}

/// Conjugation by one symmetry, piece by piece: the piece at position `i` goes to position
/// `pos[i]` as piece `pos[piece]`, with its orientation changed by a table of position and piece
/// (and negated, for the corners of a mirror).
#[derive(Clone, Debug)]
pub struct Conjugator {
    pub(super) edge_pos: [u8; 12],
    pub(super) edge_flip: [[u8; 12]; 12],
    pub(super) corner_pos: [u8; 8],
    pub(super) corner_twist: [[u8; 8]; 8],
    pub(super) mirror: bool,
}

impl Conjugator {
    /// The conjugation of [`Symmetry::conjugate`] by `sym`, derived from it on a few cubes.
    pub fn new(sym: Symmetry) -> Conjugator {
        // Where each position goes: conjugate a cube with one 3-cycle and read where it went
        // (any two 3-cycles through a position meet only there).
        let moved = |before: &Cube| {
            let after = sym.conjugate(before);
            let ep = after.edge_perm();
            let cp = after.corner_perm();
            let e = (0..12u8)
                .filter(|&i| ep[usize::from(i)] != i)
                .fold(0u16, |m, i| m | 1 << i);
            let c = (0..8u8)
                .filter(|&i| cp[usize::from(i)] != i)
                .fold(0u16, |m, i| m | 1 << i);
            (e, c)
        };
        let edge_pos: [u8; 12] = std::array::from_fn(|i| {
            let (a, _) = moved(&cycle_edges(i, (i + 1) % 12, (i + 2) % 12));
            let (b, _) = moved(&cycle_edges(i, (i + 3) % 12, (i + 5) % 12));
            (a & b).trailing_zeros() as u8
        });
        let corner_pos: [u8; 8] = std::array::from_fn(|i| {
            let (_, a) = moved(&cycle_corners(i, (i + 1) % 8, (i + 2) % 8));
            let (_, b) = moved(&cycle_corners(i, (i + 3) % 8, (i + 5) % 8));
            (a & b).trailing_zeros() as u8
        });
        // The orientation a piece gets: conjugate a cube that puts piece j at position i.
        let edge_flip = std::array::from_fn(|i| {
            std::array::from_fn(|j| {
                let cube = if i == j {
                    Cube::SOLVED
                } else {
                    cycle_edges(i, j, (0..12).find(|&k| k != i && k != j).expect("12 edges"))
                };
                sym.conjugate(&cube).edge_ori()[usize::from(edge_pos[i])]
            })
        });
        let corner_twist = std::array::from_fn(|i| {
            std::array::from_fn(|j| {
                let cube = if i == j {
                    Cube::SOLVED
                } else {
                    cycle_corners(i, j, (0..8).find(|&k| k != i && k != j).expect("8 corners"))
                };
                sym.conjugate(&cube).corner_ori()[usize::from(corner_pos[i])]
            })
        });
        Conjugator {
            edge_pos,
            edge_flip,
            corner_pos,
            corner_twist,
            mirror: sym.is_mirror(),
        }
    }

    /// The edges of the conjugate of edges `ep`, `eo`.
    #[inline]
    pub fn edges(&self, ep: &[u8; 12], eo: &[u8; 12]) -> ([u8; 12], [u8; 12]) {
        let (mut p, mut o) = ([0u8; 12], [0u8; 12]);
        for i in 0..12 {
            let to = usize::from(self.edge_pos[i]);
            let piece = usize::from(ep[i]);
            p[to] = self.edge_pos[piece];
            o[to] = eo[i] ^ self.edge_flip[i][piece];
        }
        (p, o)
    }

    /// The corners of the conjugate of corners `cp`, `co`.
    #[inline]
    pub fn corners(&self, cp: &[u8; 8], co: &[u8; 8]) -> ([u8; 8], [u8; 8]) {
        let (mut p, mut o) = ([0u8; 8], [0u8; 8]);
        for i in 0..8 {
            let to = usize::from(self.corner_pos[i]);
            let piece = usize::from(cp[i]);
            p[to] = self.corner_pos[piece];
            let twist = if self.mirror { (3 - co[i]) % 3 } else { co[i] };
            o[to] = (twist + self.corner_twist[i][piece]) % 3;
        }
        (p, o)
    }

    /// The conjugate of `cube`.
    pub fn cube(&self, cube: &Cube) -> Cube {
        let (ep, eo) = self.edges(&cube.edge_perm(), &cube.edge_ori());
        let (cp, co) = self.corners(&cube.corner_perm(), &cube.corner_ori());
        Cube::from_parts(cp, co, ep, eo).expect("a conjugate is well formed")
    }
}

/// The solved cube with the edges at `a`, `b`, `c` cycled so that position `a` holds piece `b`.
fn cycle_edges(a: usize, b: usize, c: usize) -> Cube {
    let mut ep: [u8; 12] = std::array::from_fn(|i| i as u8);
    (ep[a], ep[b], ep[c]) = (b as u8, c as u8, a as u8);
    Cube::from_parts(Cube::SOLVED.corner_perm(), [0; 8], ep, [0; 12]).expect("a 3-cycle")
}

/// The solved cube with the corners at `a`, `b`, `c` cycled so that position `a` holds piece `b`.
fn cycle_corners(a: usize, b: usize, c: usize) -> Cube {
    let mut cp: [u8; 8] = std::array::from_fn(|i| i as u8);
    (cp[a], cp[b], cp[c]) = (b as u8, c as u8, a as u8);
    Cube::from_parts(cp, [0; 8], Cube::SOLVED.edge_perm(), [0; 12]).expect("a 3-cycle")
}

/// The corner coordinate reduced by the 16 symmetries that keep the U-D axis: 9,930 classes, the
/// representative of each (its smallest coordinate), the symmetries that fix it, and the symmetry
/// that carries each coordinate to its representative.
#[derive(Clone, Debug)]
pub struct NxSym {
    /// `class << 4 | k` per corner coordinate: conjugating by `ud_symmetries()[k]` gives the
    /// representative.
    class_sym: Vec<u32>,
    /// The representative's corner coordinate, per class.
    reps: Vec<u32>,
    /// Per class, bit `k` when symmetry `k` fixes the representative.
    stabilizers: Vec<u16>,
    /// The 16 symmetries' conjugations.
    conjugators: Vec<Conjugator>,
}

impl NxSym {
    /// The reduction (a fraction of a second).
    pub fn new() -> NxSym {
        let syms = ud_symmetries();
        let conjugators: Vec<Conjugator> = syms.iter().map(|&s| Conjugator::new(s)).collect();
        let conj = |raw: u32, k: usize| {
            let (cp, co) = corner_unrank(raw);
            let (cp, co) = conjugators[k].corners(&cp, &co);
            corner_coord(&cp, &co)
        };
        let mut class_sym = vec![u32::MAX; N_CORNER_RAW];
        let (mut reps, mut stabilizers) = (Vec::new(), Vec::new());
        for raw in 0..N_CORNER_RAW as u32 {
            if class_sym[raw as usize] != u32::MAX {
                continue;
            }
            let class = reps.len() as u32;
            reps.push(raw);
            let mut stabilizer = 0u16;
            for k in 0..16 {
                let image = conj(raw, k);
                if image == raw {
                    stabilizer |= 1 << k;
                }
                // The image goes back to `raw` by the inverse of symmetry k.
                let back = syms
                    .iter()
                    .position(|&s| s == syms[k].inverse())
                    .expect("the 16 symmetries are a group");
                if class_sym[image as usize] == u32::MAX {
                    class_sym[image as usize] = class << 4 | back as u32;
                }
            }
            stabilizers.push(stabilizer);
        }
        assert_eq!(reps.len(), N_CORNER_CLASSES, "nxopt's 9,930 corner classes");
        NxSym {
            class_sym,
            reps,
            stabilizers,
            conjugators,
        }
    }

    /// The class of corner coordinate `raw` and the symmetry `k` that carries it to the
    /// representative.
    #[inline]
    pub fn class_and_sym(&self, raw: u32) -> (u32, usize) {
        let packed = self.class_sym[raw as usize];
        (packed >> 4, (packed & 15) as usize)
    }

    /// Starts loading the class entry of corner coordinate `raw`.
    #[inline]
    pub fn prefetch_class(&self, raw: u32) {
        if let Some(entry) = self.class_sym.get(raw as usize) {
            crate::file::prefetch::prefetch_read(&bytemuck::bytes_of(entry)[0]);
        }
    }

    /// The representative's corner coordinate of `class`.
    #[inline]
    pub fn rep(&self, class: u32) -> u32 {
        self.reps[class as usize]
    }

    /// The symmetries (bit `k` for `ud_symmetries()[k]`) that fix the representative of `class`.
    #[inline]
    pub fn stabilizer(&self, class: u32) -> u16 {
        self.stabilizers[class as usize]
    }

    /// The conjugation by `ud_symmetries()[k]`.
    #[inline]
    pub fn conjugator(&self, k: usize) -> &Conjugator {
        &self.conjugators[k]
    }

    /// The table row and E-slice placement of `cube` in `subgroup`:
    /// `(class * rows_per_class + edge_row, slice)`.
    #[inline]
    pub fn locate(&self, subgroup: Subgroup, cube: &Cube) -> (usize, u32) {
        let corners = (cube.corner_perm(), cube.corner_ori());
        self.locate_parts(subgroup, corners, (cube.edge_perm(), cube.edge_ori()))
    }

    /// [`NxSym::locate`] of the cube with these corners and edges (piece and orientation at each
    /// position).
    #[inline]
    pub fn locate_parts(
        &self,
        subgroup: Subgroup,
        (cp, co): ([u8; 8], [u8; 8]),
        (ep, eo): ([u8; 12], [u8; 12]),
    ) -> (usize, u32) {
        let (class, k) = self.class_and_sym(corner_coord(&cp, &co));
        let (ep, eo) = self.conjugators[k].edges(&ep, &eo);
        let edges = subgroup.edge_coord(&ep, &eo);
        let row = class as usize * subgroup.rows_per_class() + (edges / N_SLICE as u32) as usize;
        (row, edges % N_SLICE as u32)
    }
}

impl Default for NxSym {
    fn default() -> NxSym {
        NxSym::new()
    }
}

/// The corner move table of a bake: `corner[raw * moves.len() + m]`, the corner coordinate after
/// move `m` of `moves`.
pub(crate) fn corner_moves(moves: &[Move]) -> Vec<u32> {
    use rayon::prelude::*;
    (0..N_CORNER_RAW as u32)
        .into_par_iter()
        .flat_map_iter(|raw| {
            let (cp, co) = corner_unrank(raw);
            let cube =
                Cube::from_parts(cp, co, Cube::SOLVED.edge_perm(), [0; 12]).expect("well formed");
            moves.iter().map(move |&m| {
                let after = cube.apply_move(m);
                corner_coord(&after.corner_perm(), &after.corner_ori())
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;

    const ALL: [Subgroup; 12] = {
        let eos = [Eo::Eo1, Eo::Eo2, Eo::Eo3];
        let eps = [Ep::Ep1, Ep::Ep2, Ep::Ep3, Ep::Ep4];
        let mut all = [Subgroup {
            eo: Eo::Eo1,
            ep: Ep::Ep1,
        }; 12];
        let mut i = 0;
        while i < 12 {
            all[i] = Subgroup {
                eo: eos[i % 3],
                ep: eps[i / 3],
            };
            i += 1;
        }
        all
    };

    #[test]
    fn subsets_rank_and_unrank() {
        let mut seen = vec![false; N_SLICE];
        for mask in 0u32..1 << 12 {
            if mask.count_ones() == 4 {
                let rank = subset_rank(mask);
                assert!(!seen[rank as usize]);
                seen[rank as usize] = true;
                assert_eq!(subset_unrank(rank), mask);
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn edge_coordinates_round_trip() {
        for subgroup in ALL {
            let n = subgroup.n_edges() as u32;
            let step = (n / 5000).max(1);
            for coord in (0..n).step_by(step as usize) {
                let (ep, eo) = subgroup.edge_unrank(coord);
                assert_eq!(subgroup.edge_coord(&ep, &eo), coord, "{subgroup:?}");
            }
        }
    }

    #[test]
    fn the_conjugators_agree_with_the_symmetries() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(35);
        for sym in Symmetry::all() {
            let conj = Conjugator::new(sym);
            for _ in 0..20 {
                let cube = Cube::random(&mut rng);
                assert_eq!(conj.cube(&cube), sym.conjugate(&cube), "{}", sym.name());
            }
        }
    }

    #[test]
    fn coset_members_share_a_coordinate() {
        // h p for h in the subgroup (U, D, and for EO1 EP1 any U/D-edge flip pair and swaps).
        let sym = NxSym::new();
        let mut rng = rand::rngs::StdRng::seed_from_u64(36);
        for subgroup in ALL {
            for _ in 0..50 {
                let p = Cube::random(&mut rng);
                for h in [Move::U1, Move::D2, Move::U3] {
                    let hp = Cube::from_move(h).compose(&p);
                    assert_eq!(sym.locate(subgroup, &hp), sym.locate(subgroup, &p));
                }
                // A class whose representative some symmetries fix has twins of each entry.
                let (cp, co) = (p.corner_perm(), p.corner_ori());
                let (class, _) = sym.class_and_sym(corner_coord(&cp, &co));
                if sym.stabilizer(class) != 1 {
                    continue;
                }
                for k in 0..16 {
                    let s = ud_symmetries()[k];
                    assert_eq!(
                        sym.locate(subgroup, &s.conjugate(&p)),
                        sym.locate(subgroup, &p),
                        "{subgroup:?} {}",
                        s.name()
                    );
                }
            }
        }
    }
}
