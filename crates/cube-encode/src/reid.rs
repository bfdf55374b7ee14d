//! The Reid / kpuzzle piece order of cubing.js, the rotations as kpuzzle transformations, and
//! Reid's piece strings (Singmaster positional notation), the input of Michael Reid's optimal
//! solver and of many solvers after it.
//!
//! Positions and pieces share one numbering. Edges: UF UR UB UL DF DR DB DL FR FL BR BL.
//! Corners: UFR URB UBL ULF DRF DFL DLB DBR. Centres: U L F R B D. Orientation numbers are those
//! of Kociemba's cubies for the same physical piece; only the order differs. See
//! `testdata/README.md`, "Reid / kpuzzle conventions".
//!
//! A piece string is twenty whitespace-separated tokens, one per position in that order, each
//! the colours (as face letters) of the stickers at the position's facelets, in the order of
//! the position's name: the solved cube is
//! `UF UR UB UL DF DR DB DL FR FL BR BL UFR URB UBL ULF DRF DFL DLB DBR`, and the superflip
//! begins `FU RU BU LU ...`. The centres are not written (they are at home): like H48, a piece
//! string records only the pieces relative to the centres.

use std::sync::OnceLock;

use cube_core::{Cube, CubeError, Face, FaceletCube, Symmetry};

use crate::error::DecodeError;
use crate::problem::{Parts, Problem, sticker_problems};
use crate::state::State;

/// Kociemba corner `k` (URF UFL ULB UBR DFR DLF DBL DRB) is Reid corner `KOCIEMBA_TO_REID_CORNER[k]`.
/// The map is its own inverse.
pub(crate) const CORNER_MAP: [u8; 8] = [0, 3, 2, 1, 4, 5, 6, 7];
/// Kociemba edge `k` (UR UF UL UB DR DF DL DB FR FL BL BR) is Reid edge `EDGE_MAP[k]`. The map
/// is its own inverse.
pub(crate) const EDGE_MAP: [u8; 12] = [1, 0, 3, 2, 5, 4, 7, 6, 8, 9, 11, 10];
/// Face (in `URFDLB` order) to Reid centre (in `ULFRBD` order).
pub(crate) const FACE_TO_CENTER: [u8; 6] = [0, 3, 2, 5, 1, 4];
/// Reid centre (`ULFRBD`) to face (`URFDLB`).
pub(crate) const CENTER_TO_FACE: [Face; 6] = [Face::U, Face::L, Face::F, Face::R, Face::B, Face::D];

// Kociemba's order to Reid's and back, a byte per position, in a few word operations rather
// than a lookup per piece: both maps are involutions, so each direction is the same function.
// `EDGE_MAP` swaps neighbouring positions and numbers but 8 and 9, `CORNER_MAP` swaps 1 and 3.
// A number out of range maps to one out of range, and different numbers to different ones.

const ONES: u128 = u128::from_le_bytes([1; 16]);
const ONES8: u64 = u64::from_le_bytes([1; 8]);

/// The positions of 12 edges through [`EDGE_MAP`]: bytes 8 and 9 stay, every other pair swaps.
#[inline(always)]
fn swap_edges(x: u128) -> u128 {
    const EVEN: u128 = 0x00ff * (ONES / 0x0101);
    const KEEP: u128 = 0xffff << 64;
    let swapped = (x & EVEN) << 8 | x >> 8 & EVEN;
    x & KEEP | swapped & !KEEP
}

/// Edge numbers through [`EDGE_MAP`]: bit 0 flips but for 8 and 9, the numbers whose bits 1 to 3
/// are those of 8.
#[inline(always)]
fn edge_pieces(x: u128) -> u128 {
    let t = x ^ (0x08 * ONES);
    x ^ (t >> 1 | t >> 2 | t >> 3) & ONES
}

/// The positions of 8 corners through [`CORNER_MAP`]: bytes 1 and 3 swap.
#[inline(always)]
fn swap_corners(x: u64) -> u64 {
    x & 0xffff_ffff_00ff_00ff | x >> 16 & 0xff00 | x << 16 & 0xff00_0000
}

/// Corner numbers through [`CORNER_MAP`]: bit 1 flips for the numbers whose bits 0 and 2 are
/// those of 1 (and 3).
#[inline(always)]
fn corner_pieces(x: u64) -> u64 {
    let t = (x ^ ONES8) & (0x05 * ONES8);
    x ^ ((t | t >> 2) & ONES8 ^ ONES8) << 1
}

/// The first `N` bytes of `x`.
#[inline(always)]
pub(crate) fn first_bytes<const N: usize>(x: u128) -> [u8; N] {
    *x.to_le_bytes().first_chunk().expect("N <= 16")
}

/// Facelet indices (`URFDLB` faces, `face * 9 + n - 1`) of each slot of each Reid edge position.
const EDGE_SLOTS: [[usize; 2]; 12] = [
    [7, 19],
    [5, 10],
    [1, 46],
    [3, 37],
    [28, 25],
    [32, 16],
    [34, 52],
    [30, 43],
    [23, 12],
    [21, 41],
    [48, 14],
    [50, 39],
];
/// Facelet indices of each slot of each Reid corner position.
const CORNER_SLOTS: [[usize; 3]; 8] = [
    [8, 20, 9],
    [2, 11, 45],
    [0, 47, 36],
    [6, 38, 18],
    [29, 15, 26],
    [27, 24, 44],
    [33, 42, 53],
    [35, 51, 17],
];

/// A state in kpuzzle form: `pieces[i]` is the piece at position `i`, `orientation[i]` its
/// orientation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Reid {
    pub ep: [u8; 12],
    pub eo: [u8; 12],
    pub cp: [u8; 8],
    pub co: [u8; 8],
    pub centers: [u8; 6],
    pub center_ori: [u8; 6],
}

impl Reid {
    /// The pieces of `cube` in Reid order, centres at home with orientation `center_ori`.
    #[inline]
    pub fn from_cube(cube: &Cube, center_ori: [u8; 6]) -> Reid {
        // Packed: the piece in the low nibble, the orientation above it.
        let edges = swap_edges(u128::from_le_bytes(cube.packed_edges()));
        let corners = u64::from_le_bytes(*cube.packed_corners().first_chunk().expect("16 bytes"));
        let corners = swap_corners(corners);
        Reid {
            ep: first_bytes(edge_pieces(edges & (0x0f * ONES))),
            eo: first_bytes((edges >> 4) & (0x0f * ONES)),
            cp: corner_pieces(corners & (0x0f * ONES8)).to_le_bytes(),
            co: ((corners >> 4) & (0x0f * ONES8)).to_le_bytes(),
            centers: [0, 1, 2, 3, 4, 5],
            center_ori,
        }
    }

    /// The corners and edges as a [`Cube`] (the centres are ignored).
    ///
    /// # Errors
    /// From [`Cube::from_parts`]: a piece twice, an orientation out of range. (A piece number
    /// out of range, which every reader rules out first, stays out of range, not necessarily
    /// the same number.)
    #[inline(always)]
    pub fn to_cube(self) -> Result<Cube, CubeError> {
        let mut ep = [0; 16];
        ep[..12].copy_from_slice(&self.ep);
        let mut eo = [0; 16];
        eo[..12].copy_from_slice(&self.eo);
        Cube::from_parts(
            corner_pieces(swap_corners(u64::from_le_bytes(self.cp))).to_le_bytes(),
            swap_corners(u64::from_le_bytes(self.co)).to_le_bytes(),
            first_bytes(edge_pieces(swap_edges(u128::from_le_bytes(ep)))),
            first_bytes(swap_edges(u128::from_le_bytes(eo))),
        )
    }

    /// The corners and edges in Kociemba's order as they are, numbers out of range kept, for
    /// [`check_as`](crate::check_as).
    pub fn parts(&self) -> Parts {
        let corner = |v: u8| CORNER_MAP.get(v as usize).copied().unwrap_or(v);
        let edge = |v: u8| EDGE_MAP.get(v as usize).copied().unwrap_or(v);
        (
            std::array::from_fn(|k| corner(self.cp[CORNER_MAP[k] as usize])),
            std::array::from_fn(|k| self.co[CORNER_MAP[k] as usize]),
            std::array::from_fn(|k| edge(self.ep[EDGE_MAP[k] as usize])),
            std::array::from_fn(|k| self.eo[EDGE_MAP[k] as usize]),
        )
    }

    /// Applies a kpuzzle transformation: `new[i] = old[perm[i]] + delta[i]`.
    pub fn apply(&self, t: &Transform) -> Reid {
        Reid {
            ep: std::array::from_fn(|i| self.ep[t.ep[i] as usize]),
            eo: std::array::from_fn(|i| (self.eo[t.ep[i] as usize] + t.eo[i]) % 2),
            cp: std::array::from_fn(|i| self.cp[t.cp[i] as usize]),
            co: std::array::from_fn(|i| (self.co[t.cp[i] as usize] + t.co[i]) % 3),
            centers: std::array::from_fn(|i| self.centers[t.centers[i] as usize]),
            center_ori: std::array::from_fn(|i| {
                (self.center_ori[t.centers[i] as usize] + t.center_ori[i]) % 4
            }),
        }
    }
}

/// A kpuzzle transformation (here, always a whole-cube rotation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Transform {
    pub ep: [u8; 12],
    pub eo: [u8; 12],
    pub cp: [u8; 8],
    pub co: [u8; 8],
    pub centers: [u8; 6],
    pub center_ori: [u8; 6],
}

/// Everything derived from the 24 rotations.
pub(crate) struct Rotations {
    /// By rotation index: the kpuzzle transformation.
    pub transform: [Transform; 24],
    /// By rotation index: `(PO_U, PO_L)`.
    pub po: [(u8, u8); 24],
    /// By `PO_U * 4 + PO_L` (`PO_U < 6`): the rotation.
    pub from_po: [Symmetry; 24],
    /// By rotation index: the inverse rotation's index.
    pub inverse: [u8; 24],
    /// By rotation index: the face whose centre is on each face (URFDLB), i.e. the inverse
    /// rotation's face map.
    pub center_on: [[Face; 6]; 24],
}

pub(crate) fn rotations() -> &'static Rotations {
    static ROTATIONS: OnceLock<Rotations> = OnceLock::new();
    ROTATIONS.get_or_init(build_rotations)
}

/// Which clockwise quarter turn (0..4) of a face the in-face facelet `n` (0..9, not the centre
/// or a corner) is at, starting from the top edge facelet (`n = 1`); faces are seen from outside.
fn edge_facelet_quarter(n: usize) -> u8 {
    match n {
        1 => 0,
        5 => 1,
        7 => 2,
        3 => 3,
        _ => unreachable!("only edge facelets are asked about"),
    }
}

fn build_transform(r: Symmetry) -> Transform {
    let mut t = Transform {
        ep: [0; 12],
        eo: [0; 12],
        cp: [0; 8],
        co: [0; 8],
        centers: [0; 6],
        center_ori: [0; 6],
    };
    for (j, slots) in EDGE_SLOTS.iter().enumerate() {
        let target = r.map_facelet(slots[0]);
        for (i, other) in EDGE_SLOTS.iter().enumerate() {
            if let Some(s) = other.iter().position(|&f| f == target) {
                t.ep[i] = j as u8;
                t.eo[i] = ((2 - s) % 2) as u8;
            }
        }
    }
    for (j, slots) in CORNER_SLOTS.iter().enumerate() {
        let target = r.map_facelet(slots[0]);
        for (i, other) in CORNER_SLOTS.iter().enumerate() {
            if let Some(s) = other.iter().position(|&f| f == target) {
                t.cp[i] = j as u8;
                t.co[i] = ((3 - s) % 3) as u8;
            }
        }
    }
    for j in 0..6 {
        let face = CENTER_TO_FACE[j];
        let to = r.map_face(face);
        let i = FACE_TO_CENTER[to.index()] as usize;
        t.centers[i] = j as u8;
        // The centre's reference direction points at its face's top edge facelet; see where
        // that lands on the new face.
        let landed = r.map_facelet(face.index() * 9 + 1);
        t.center_ori[i] = edge_facelet_quarter(landed % 9);
    }
    t
}

fn build_rotations() -> Rotations {
    let transform: [Transform; 24] =
        std::array::from_fn(|i| build_transform(Symmetry::from_index(i)));
    let mut po = [(0u8, 0u8); 24];
    let mut from_po = [Symmetry::IDENTITY; 24];
    for (i, t) in transform.iter().enumerate() {
        let (u, l, d) = (t.centers[0], t.centers[1], t.centers[5]);
        let po_l = l - (u < l) as u8 - (d < l) as u8;
        po[i] = (u, po_l);
        from_po[u as usize * 4 + po_l as usize] = Symmetry::from_index(i);
    }
    let inverse = std::array::from_fn(|i| Symmetry::from_index(i).inverse().index() as u8);
    let center_on = std::array::from_fn(|i| {
        let inv = Symmetry::from_index(i).inverse();
        Face::ALL.map(|f| inv.map_face(f))
    });
    Rotations {
        transform,
        po,
        from_po,
        inverse,
        center_on,
    }
}

/// The number of tokens of a piece string.
pub const PIECES: usize = 20;

/// The facelets of position `i` of a piece string (12 edges, then 8 corners), in the order of
/// the position's name.
fn position_slots(i: usize) -> &'static [usize] {
    if i < 12 {
        &EDGE_SLOTS[i]
    } else {
        &CORNER_SLOTS[i - 12]
    }
}

/// The stickers a piece string shows, centres at home; a token of the wrong length or with a
/// letter outside `URFDLB` is [`DecodeError::UnknownPiece`].
fn read_stickers(text: &str) -> Result<FaceletCube, DecodeError> {
    let mut colours = [0u8; 54];
    for face in Face::ALL {
        colours[face.index() * 9..face.index() * 9 + 9].fill(face.letter() as u8);
    }
    let mut found = 0;
    let mut rest = text;
    loop {
        let trimmed = rest.trim_start();
        if trimmed.is_empty() {
            break;
        }
        let column = text.len() - trimmed.len() + 1;
        if found == PIECES {
            return Err(DecodeError::TrailingGarbage { column });
        }
        let end = trimmed
            .find(|c: char| c.is_whitespace())
            .unwrap_or(trimmed.len());
        let (token, after) = trimmed.split_at(end);
        let slots = position_slots(found);
        let letters_ok = token
            .bytes()
            .all(|b| Face::from_letter(b as char).is_some());
        if token.len() != slots.len() || !letters_ok {
            return Err(DecodeError::UnknownPiece {
                token: token.to_string(),
                column,
            });
        }
        for (&slot, b) in slots.iter().zip(token.bytes()) {
            colours[slot] = b;
        }
        found += 1;
        rest = after;
    }
    if found < PIECES {
        return Err(DecodeError::MissingPieces {
            found,
            expected: PIECES,
        });
    }
    Ok(FaceletCube::new(colours))
}

/// Every problem of a piece string's stickers ([`check_as`](crate::check_as)).
pub(crate) fn problems(text: &str) -> Result<Vec<Problem>, DecodeError> {
    Ok(sticker_problems(&read_stickers(text)?))
}

/// Reads a piece string whose pieces are real and distinct; the state may be unsolvable.
///
/// ```
/// use cube_core::Alg;
/// use cube_encode::{State, reid};
/// let solved = "UF UR UB UL DF DR DB DL FR FL BR BL UFR URB UBL ULF DRF DFL DLB DBR";
/// assert_eq!(reid::decode(solved), Ok(State::SOLVED));
/// let state = State::from_alg(&"R U".parse::<Alg>().unwrap());
/// assert_eq!(reid::decode(&reid::encode(&state)).unwrap().cube(), state.cube());
/// ```
///
/// # Errors
/// [`DecodeError::UnknownPiece`] for a token that is not two (edges) or three (corners) of the
/// letters `URFDLB`, [`DecodeError::MissingPieces`], [`DecodeError::TrailingGarbage`] after
/// twenty tokens, or [`DecodeError::Facelet`] when the stickers are not real, distinct pieces.
pub fn decode(text: &str) -> Result<State, DecodeError> {
    Ok(State::new(read_stickers(text)?.to_cube()?))
}

/// Reads a piece string of a solvable state.
///
/// # Errors
/// As [`decode`], and [`DecodeError::Facelet`] with
/// [`FaceletError::Unsolvable`](cube_core::FaceletError::Unsolvable).
pub fn decode_solvable(text: &str) -> Result<State, DecodeError> {
    Ok(State::new(read_stickers(text)?.to_cube_solvable()?))
}

/// A state's piece string: twenty tokens separated by single spaces (the orientation and
/// centres are not written).
pub fn encode(state: &State) -> String {
    let facelets = FaceletCube::from_cube(&state.cube());
    let mut out = String::with_capacity(67);
    for i in 0..PIECES {
        if i > 0 {
            out.push(' ');
        }
        out.extend(
            position_slots(i)
                .iter()
                .map(|&f| facelets.colours()[f] as char),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_are_involutions() {
        for k in 0..8 {
            assert_eq!(CORNER_MAP[CORNER_MAP[k] as usize] as usize, k);
        }
        for k in 0..12 {
            assert_eq!(EDGE_MAP[EDGE_MAP[k] as usize] as usize, k);
        }
        for f in 0..6 {
            assert_eq!(CENTER_TO_FACE[FACE_TO_CENTER[f] as usize].index(), f);
        }
    }

    #[test]
    fn puzzle_orientations_are_distinct() {
        let rot = rotations();
        for i in 0..24 {
            let (u, l) = rot.po[i];
            assert!(u < 6 && l < 4);
            assert_eq!(rot.from_po[u as usize * 4 + l as usize].index(), i);
        }
        // The specification's examples: x is PO_U = 2, PO_L = 1.
        assert_eq!(rot.po[Symmetry::X.index()], (2, 1));
    }

    /// The word operations are the maps: on every byte, in every lane; out of range to out of
    /// range; one to one.
    #[test]
    fn word_maps_are_the_tables() {
        let lanes = u128::from_le_bytes(std::array::from_fn(|i| i as u8));
        let edges = swap_edges(lanes).to_le_bytes();
        let corners = swap_corners(lanes as u64).to_le_bytes();
        for k in 0..12 {
            assert_eq!(edges[k], EDGE_MAP[k]);
        }
        for k in 0..8 {
            assert_eq!(corners[k], CORNER_MAP[k]);
        }
        let (mut edge_seen, mut corner_seen) = ([false; 256], [false; 256]);
        for v in 0..=255u8 {
            let e = edge_pieces(u128::from(v) * ONES).to_le_bytes();
            let c = corner_pieces(u64::from(v) * ONES8).to_le_bytes();
            assert!(e.iter().all(|&x| x == e[0]) && c.iter().all(|&x| x == c[0]));
            let (e, c) = (e[0], c[0]);
            assert_eq!(e < 12, v < 12);
            assert_eq!(c < 8, v < 8);
            if v < 12 {
                assert_eq!(e, EDGE_MAP[v as usize]);
            }
            if v < 8 {
                assert_eq!(c, CORNER_MAP[v as usize]);
            }
            assert!(!std::mem::replace(&mut edge_seen[e as usize], true));
            assert!(!std::mem::replace(&mut corner_seen[c as usize], true));
        }
    }

    #[test]
    fn round_trip_through_reid() {
        let cube = Cube::from_move(cube_core::Move::R1).apply_move(cube_core::Move::F1);
        assert_eq!(Reid::from_cube(&cube, [0; 6]).to_cube(), Ok(cube));
    }
}
