//! The cube at cubie level, in Kociemba's conventions.
//!
//! Positions and pieces share one numbering. Corners: URF UFL ULB UBR DFR DLF DBL DRB (0..8).
//! Edges: UR UF UL UB DR DF DL DB FR FL BL BR (0..12). A [`Cube`] says, for every position, which
//! piece is there and how it is turned ("piece at position" form, like Kociemba's `CubieCube`):
//! a corner's orientation is the number of clockwise twists of its U/D sticker away from the U/D
//! face (0, 1 or 2); an edge's orientation is 1 when it is flipped relative to the F/B axis
//! convention (only F and B turns flip edges). The centres do not move: they define the frame.
//!
//! Composition is sequence order: `a.compose(&b)` is the state reached by doing `a`, then `b`.

use std::fmt;

use crate::moves::Move;

/// Corner positions (and pieces), in Kociemba's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Corner {
    URF = 0,
    UFL,
    ULB,
    UBR,
    DFR,
    DLF,
    DBL,
    DRB,
}

impl Corner {
    /// The eight corners in Kociemba's order.
    pub const ALL: [Corner; 8] = [
        Corner::URF,
        Corner::UFL,
        Corner::ULB,
        Corner::UBR,
        Corner::DFR,
        Corner::DLF,
        Corner::DBL,
        Corner::DRB,
    ];

    /// The corner's name: its faces, starting with the U or D face, clockwise.
    pub const fn name(self) -> &'static str {
        ["URF", "UFL", "ULB", "UBR", "DFR", "DLF", "DBL", "DRB"][self as usize]
    }
}

/// Edge positions (and pieces), in Kociemba's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Edge {
    UR = 0,
    UF,
    UL,
    UB,
    DR,
    DF,
    DL,
    DB,
    FR,
    FL,
    BL,
    BR,
}

impl Edge {
    /// The twelve edges in Kociemba's order.
    pub const ALL: [Edge; 12] = [
        Edge::UR,
        Edge::UF,
        Edge::UL,
        Edge::UB,
        Edge::DR,
        Edge::DF,
        Edge::DL,
        Edge::DB,
        Edge::FR,
        Edge::FL,
        Edge::BL,
        Edge::BR,
    ];

    /// The edge's name: its two faces, the reference face first.
    pub const fn name(self) -> &'static str {
        [
            "UR", "UF", "UL", "UB", "DR", "DF", "DL", "DB", "FR", "FL", "BL", "BR",
        ][self as usize]
    }
}

/// Why a set of cubies is not a state of the cube.
///
/// The first five kinds mean the arrays do not describe pieces at all ([`Cube::from_parts`]
/// rejects them); the last three mean the pieces are real but cannot be reached by turning
/// ([`Cube::validate`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CubeError {
    /// A corner piece number is 8 or more.
    CornerOutOfRange {
        /// The position holding it.
        position: usize,
        /// The number found.
        piece: u8,
    },
    /// An edge piece number is 12 or more.
    EdgeOutOfRange {
        /// The position holding it.
        position: usize,
        /// The number found.
        piece: u8,
    },
    /// The corner pieces are not a permutation: `piece` appears twice.
    CornersNotAPermutation {
        /// The piece found twice.
        piece: Corner,
    },
    /// The edge pieces are not a permutation: `piece` appears twice.
    EdgesNotAPermutation {
        /// The piece found twice.
        piece: Edge,
    },
    /// A corner orientation is 3 or more, or an edge orientation 2 or more.
    OrientationOutOfRange {
        /// `true` for a corner, `false` for an edge.
        corner: bool,
        /// The position.
        position: usize,
        /// The value found.
        value: u8,
    },
    /// The corner twists do not sum to 0 mod 3: a corner is twisted in place.
    TwistSum {
        /// The sum mod 3 (1 or 2).
        sum: u8,
    },
    /// The edge flips do not sum to 0 mod 2: an edge is flipped in place.
    FlipSum,
    /// The corner and edge permutations have different parities (a parity error): two pieces
    /// are swapped.
    ParityMismatch {
        /// Parity of the corner permutation (true = odd).
        corners_odd: bool,
        /// Parity of the edge permutation (true = odd).
        edges_odd: bool,
    },
}

impl fmt::Display for CubeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            CubeError::CornerOutOfRange { position, piece } => write!(
                f,
                "corner position {} holds piece number {piece}, but corners are numbered 0..8",
                Corner::ALL[position].name()
            ),
            CubeError::EdgeOutOfRange { position, piece } => write!(
                f,
                "edge position {} holds piece number {piece}, but edges are numbered 0..12",
                Edge::ALL[position].name()
            ),
            CubeError::CornersNotAPermutation { piece } => {
                write!(f, "corner {} appears twice", piece.name())
            }
            CubeError::EdgesNotAPermutation { piece } => {
                write!(f, "edge {} appears twice", piece.name())
            }
            CubeError::OrientationOutOfRange {
                corner: true,
                position,
                value,
            } => write!(
                f,
                "corner at {} has orientation {value}, but corner orientations are 0, 1 or 2",
                Corner::ALL[position].name()
            ),
            CubeError::OrientationOutOfRange {
                corner: false,
                position,
                value,
            } => write!(
                f,
                "edge at {} has orientation {value}, but edge orientations are 0 or 1",
                Edge::ALL[position].name()
            ),
            CubeError::TwistSum { sum } => write!(
                f,
                "corner twists sum to {sum} mod 3, not 0: a corner is twisted {} in place",
                if sum == 1 {
                    "clockwise"
                } else {
                    "counter-clockwise"
                }
            ),
            CubeError::FlipSum => {
                write!(
                    f,
                    "edge flips sum to 1 mod 2, not 0: an edge is flipped in place"
                )
            }
            CubeError::ParityMismatch {
                corners_odd,
                edges_odd,
            } => write!(
                f,
                "permutation parity: the corner permutation is {} but the edge permutation is {}, so two pieces are swapped",
                if corners_odd { "odd" } else { "even" },
                if edges_odd { "odd" } else { "even" }
            ),
        }
    }
}

impl CubeError {
    /// The rule broken, as a stable kebab-case code for programs (the `rule` of `cube-cli check
    /// --json`, listed in docs/json.md).
    pub const fn rule(&self) -> &'static str {
        match self {
            CubeError::CornerOutOfRange { .. } => "corner-out-of-range",
            CubeError::EdgeOutOfRange { .. } => "edge-out-of-range",
            CubeError::CornersNotAPermutation { .. } => "corners-not-a-permutation",
            CubeError::EdgesNotAPermutation { .. } => "edges-not-a-permutation",
            CubeError::OrientationOutOfRange { .. } => "orientation-out-of-range",
            CubeError::TwistSum { .. } => "twisted-corner",
            CubeError::FlipSum => "flipped-edge",
            CubeError::ParityMismatch { .. } => "parity",
        }
    }
}

impl std::error::Error for CubeError {}

/// Packed cubie byte: piece number in the low nibble, orientation in bits 4 and 5.
const ORI_SHIFT: u8 = 4;
const PIECE_MASK: u8 = 0x0f;
const ORI_MASK: u8 = 0x30;

/// The problems of [`Cube::problems_of_parts`] that make arrays no pieces at all, in its order.
fn shape_problems(cp: &[u8; 8], co: &[u8; 8], ep: &[u8; 12], eo: &[u8; 12]) -> Vec<CubeError> {
    let mut out = Vec::new();
    orbit_problems(cp, co, true, &mut out);
    orbit_problems(ep, eo, false, &mut out);
    out
}

/// The problems of one orbit's arrays (corners, or edges), position by position: a piece out of
/// range, a piece seen before (reported once however often it appears), an orientation out of
/// range.
fn orbit_problems(pieces: &[u8], orientations: &[u8], corner: bool, out: &mut Vec<CubeError>) {
    let (n_orientations, n) = if corner { (3, 8) } else { (2, 12) };
    // Pieces seen once, and pieces already reported.
    let (mut seen, mut reported) = (0u16, 0u16);
    for (position, (&piece, &value)) in pieces.iter().zip(orientations).enumerate() {
        if piece >= n {
            out.push(if corner {
                CubeError::CornerOutOfRange { position, piece }
            } else {
                CubeError::EdgeOutOfRange { position, piece }
            });
        } else if seen >> piece & 1 == 0 {
            seen |= 1 << piece;
        } else if reported >> piece & 1 == 0 {
            reported |= 1 << piece;
            out.push(if corner {
                CubeError::CornersNotAPermutation {
                    piece: Corner::ALL[piece as usize],
                }
            } else {
                CubeError::EdgesNotAPermutation {
                    piece: Edge::ALL[piece as usize],
                }
            });
        }
        if value >= n_orientations {
            out.push(CubeError::OrientationOutOfRange {
                corner,
                position,
                value,
            });
        }
    }
}

/// A state of the cube at cubie level.
///
/// Stored packed, one byte per position (piece in the low nibble, orientation above it), with
/// the unused lanes of each 16-byte array holding their own index so that composition is a
/// uniform byte shuffle. `Cube` is `Copy`, 32 bytes, and every operation on it is allocation-free.
///
/// A `Cube` is always well formed (its pieces are permutations, its orientations in range), but
/// it may be unsolvable when built with [`Cube::from_parts`]; [`Cube::validate`] tells.
///
/// ```
/// use cube_core::{Cube, Move};
/// let sexy = Cube::SOLVED.apply_moves(&[Move::R1, Move::U1, Move::R3, Move::U3]);
/// assert_eq!(sexy.order(), 6);
/// assert!(sexy.compose(&sexy.inverse()).is_solved());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(C, align(16))]
pub struct Cube {
    edges: [u8; 16],
    corners: [u8; 16],
}

const fn identity_lanes() -> [u8; 16] {
    let mut lanes = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        lanes[i] = i as u8;
        i += 1;
    }
    lanes
}

impl Cube {
    /// The solved cube.
    pub const SOLVED: Cube = Cube {
        edges: identity_lanes(),
        corners: identity_lanes(),
    };

    /// Builds a cube from "piece at position" arrays.
    ///
    /// `cp[i]`, `co[i]`: the corner piece at corner position `i` and its twist (0..3);
    /// `ep[i]`, `eo[i]`: the edge piece at edge position `i` and its flip (0..2). Positions and
    /// pieces use Kociemba's order (see the [module docs](crate)).
    ///
    /// The result may be unsolvable (a single twisted corner, say): encoders need such states.
    /// Call [`Cube::validate`] before solving.
    ///
    /// # Errors
    /// If a piece number or orientation is out of range, or a piece appears twice.
    pub fn from_parts(
        cp: [u8; 8],
        co: [u8; 8],
        ep: [u8; 12],
        eo: [u8; 12],
    ) -> Result<Cube, CubeError> {
        // The common case, a well-formed cube, checked without a branch per piece;
        // [`shape_problems`] finds the first problem otherwise.
        let mut bad = false;
        let mut corners_seen = 0u32;
        let mut edges_seen = 0u32;
        for i in 0..8 {
            bad |= cp[i] >= 8 || co[i] >= 3;
            corners_seen |= 1 << (cp[i] & 31);
        }
        for i in 0..12 {
            bad |= ep[i] >= 12 || eo[i] >= 2;
            edges_seen |= 1 << (ep[i] & 31);
        }
        if !bad && corners_seen == 0xFF && edges_seen == 0xFFF {
            let mut cube = Cube::SOLVED;
            for i in 0..8 {
                cube.corners[i] = cp[i] | co[i] << ORI_SHIFT;
            }
            for i in 0..12 {
                cube.edges[i] = ep[i] | eo[i] << ORI_SHIFT;
            }
            return Ok(cube);
        }
        // The check above found a problem: name the first.
        Err(shape_problems(&cp, &co, &ep, &eo).swap_remove(0))
    }

    /// Every rule that "piece at position" arrays (as [`Cube::from_parts`] takes them) break:
    /// each piece number out of range, each piece found twice, each orientation out of range,
    /// position by position, corners first; or, when the arrays are pieces, every rule of
    /// [`Cube::violations`]. Empty for a solvable state. [`Cube::from_parts`] reports the first
    /// of the former.
    ///
    /// ```
    /// use cube_core::{Corner, Cube, CubeError};
    /// let problems = Cube::problems_of_parts([0, 0, 2, 3, 4, 5, 6, 9], [0; 8], std::array::from_fn(|i| i as u8), [0; 12]);
    /// assert_eq!(
    ///     problems,
    ///     [
    ///         CubeError::CornersNotAPermutation { piece: Corner::URF },
    ///         CubeError::CornerOutOfRange { position: 7, piece: 9 },
    ///     ]
    /// );
    /// ```
    pub fn problems_of_parts(
        cp: [u8; 8],
        co: [u8; 8],
        ep: [u8; 12],
        eo: [u8; 12],
    ) -> Vec<CubeError> {
        match Cube::from_parts(cp, co, ep, eo) {
            Ok(cube) => cube.violations(),
            Err(_) => shape_problems(&cp, &co, &ep, &eo),
        }
    }

    /// [`Cube::from_parts`] followed by [`Cube::validate`]: only states reachable by turning.
    ///
    /// # Errors
    /// Any [`CubeError`].
    pub fn from_parts_solvable(
        cp: [u8; 8],
        co: [u8; 8],
        ep: [u8; 12],
        eo: [u8; 12],
    ) -> Result<Cube, CubeError> {
        let cube = Cube::from_parts(cp, co, ep, eo)?;
        cube.validate()?;
        Ok(cube)
    }

    /// The corner piece at each corner position.
    #[inline]
    pub fn corner_perm(&self) -> [u8; 8] {
        std::array::from_fn(|i| self.corners[i] & PIECE_MASK)
    }

    /// The twist (0..3) of the corner at each corner position.
    #[inline]
    pub fn corner_ori(&self) -> [u8; 8] {
        std::array::from_fn(|i| self.corners[i] >> ORI_SHIFT)
    }

    /// The edge piece at each edge position.
    #[inline]
    pub fn edge_perm(&self) -> [u8; 12] {
        std::array::from_fn(|i| self.edges[i] & PIECE_MASK)
    }

    /// The flip (0..2) of the edge at each edge position.
    #[inline]
    pub fn edge_ori(&self) -> [u8; 12] {
        std::array::from_fn(|i| self.edges[i] >> ORI_SHIFT)
    }

    /// The packed edge bytes, for search code that works on them directly (SIMD indexing): byte
    /// `i < 12` is the edge piece at position `i` in the low nibble and its flip (0 or 1) in bit 4;
    /// bytes 12 to 15 hold their own index.
    ///
    /// ```
    /// use cube_core::{Cube, Move};
    /// let cube = Cube::SOLVED.apply_move(Move::F1);
    /// let bytes = cube.packed_edges();
    /// for i in 0..12 {
    ///     assert_eq!(bytes[i] & 0x0f, cube.edge_perm()[i]);
    ///     assert_eq!(bytes[i] >> 4, cube.edge_ori()[i]);
    /// }
    /// ```
    #[inline]
    pub fn packed_edges(&self) -> [u8; 16] {
        self.edges
    }

    /// The packed corner bytes: byte `i < 8` is the corner piece at position `i` in the low
    /// nibble and its twist (0 to 2) in bits 4 and 5; bytes 8 to 15 hold their own index.
    ///
    /// ```
    /// use cube_core::{Cube, Move};
    /// let cube = Cube::SOLVED.apply_move(Move::R1);
    /// let bytes = cube.packed_corners();
    /// for i in 0..8 {
    ///     assert_eq!(bytes[i] & 0x0f, cube.corner_perm()[i]);
    ///     assert_eq!(bytes[i] >> 4, cube.corner_ori()[i]);
    /// }
    /// ```
    #[inline]
    pub fn packed_corners(&self) -> [u8; 16] {
        self.corners
    }

    /// The corner piece at `position` and its twist.
    #[inline]
    pub fn corner(&self, position: Corner) -> (Corner, u8) {
        let b = self.corners[position as usize];
        (Corner::ALL[(b & PIECE_MASK) as usize], b >> ORI_SHIFT)
    }

    /// The edge piece at `position` and its flip.
    #[inline]
    pub fn edge(&self, position: Edge) -> (Edge, u8) {
        let b = self.edges[position as usize];
        (Edge::ALL[(b & PIECE_MASK) as usize], b >> ORI_SHIFT)
    }

    /// The state reached by doing `self`, then `other`.
    #[inline]
    pub fn compose(&self, other: &Cube) -> Cube {
        #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
        {
            simd::compose(self, other)
        }
        #[cfg(all(target_arch = "x86_64", not(target_feature = "ssse3")))]
        {
            if std::is_x86_feature_detected!("ssse3") {
                simd::compose_detected(self, other)
            } else {
                self.compose_scalar(other)
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self.compose_scalar(other)
        }
    }

    /// [`Cube::compose`] without SIMD, lane by lane; the reference the SIMD path is tested against.
    /// (Builds with SSSE3 at compile time use it only in tests.)
    #[inline]
    #[cfg_attr(
        all(target_arch = "x86_64", target_feature = "ssse3", not(test)),
        allow(dead_code)
    )]
    pub(crate) fn compose_scalar(&self, other: &Cube) -> Cube {
        let mut out = Cube::SOLVED;
        for i in 0..16 {
            let b = other.corners[i];
            let s = self.corners[(b & PIECE_MASK) as usize] + (b & ORI_MASK);
            // Twists add mod 3: a sum of 3 or 4 (0x30 or 0x40 above the piece) wraps by 0x30;
            // a smaller sum wraps below zero and loses the `min`.
            out.corners[i] = s.min(s.wrapping_sub(0x30));
        }
        for i in 0..16 {
            let b = other.edges[i];
            out.edges[i] = self.edges[(b & PIECE_MASK) as usize] ^ (b & ORI_MASK);
        }
        out
    }

    /// The state reached by doing `self`, then the face turn `m`.
    #[inline]
    pub fn apply_move(&self, m: Move) -> Cube {
        self.compose(&MOVE_CUBES[m.index()])
    }

    /// The state reached by doing `self`, then `moves` in order.
    pub fn apply_moves(&self, moves: &[Move]) -> Cube {
        moves.iter().fold(*self, |cube, &m| cube.apply_move(m))
    }

    /// The state a face turn makes from the solved cube.
    #[inline]
    pub fn from_move(m: Move) -> Cube {
        MOVE_CUBES[m.index()]
    }

    /// The inverse state: `self.compose(&self.inverse())` is solved.
    pub fn inverse(&self) -> Cube {
        let mut out = Cube::SOLVED;
        for i in 0..8 {
            let b = self.corners[i];
            let piece = (b & PIECE_MASK) as usize;
            let twist = b >> ORI_SHIFT;
            out.corners[piece] = i as u8 | ((3 - twist) % 3) << ORI_SHIFT;
        }
        for i in 0..12 {
            let b = self.edges[i];
            out.edges[(b & PIECE_MASK) as usize] = i as u8 | (b & ORI_MASK);
        }
        out
    }

    /// Whether every piece is home and unturned.
    #[inline]
    pub fn is_solved(&self) -> bool {
        *self == Cube::SOLVED
    }

    /// Parity of the corner permutation (`true` = odd).
    pub fn corner_parity_odd(&self) -> bool {
        crate::perm::permutation_parity_odd(&self.corner_perm())
    }

    /// Parity of the edge permutation (`true` = odd).
    pub fn edge_parity_odd(&self) -> bool {
        crate::perm::permutation_parity_odd(&self.edge_perm())
    }

    /// Sum of the corner twists mod 3.
    pub fn twist_sum(&self) -> u8 {
        (self.corner_ori().iter().map(|&t| t as u32).sum::<u32>() % 3) as u8
    }

    /// Sum of the edge flips mod 2.
    pub fn flip_sum(&self) -> u8 {
        (self.edge_ori().iter().map(|&t| t as u32).sum::<u32>() % 2) as u8
    }

    /// Checks that the state can be reached from solved by turning the faces.
    ///
    /// # Errors
    /// [`CubeError::TwistSum`], [`CubeError::FlipSum`] or [`CubeError::ParityMismatch`]
    /// (checked in that order).
    pub fn validate(&self) -> Result<(), CubeError> {
        let sum = self.twist_sum();
        if sum != 0 {
            return Err(CubeError::TwistSum { sum });
        }
        if self.flip_sum() != 0 {
            return Err(CubeError::FlipSum);
        }
        let (corners_odd, edges_odd) = (self.corner_parity_odd(), self.edge_parity_odd());
        if corners_odd != edges_odd {
            return Err(CubeError::ParityMismatch {
                corners_odd,
                edges_odd,
            });
        }
        Ok(())
    }

    /// Every rule the state breaks, in the order of [`Cube::validate`] (empty if solvable).
    pub fn violations(&self) -> Vec<CubeError> {
        let mut out = Vec::new();
        let sum = self.twist_sum();
        if sum != 0 {
            out.push(CubeError::TwistSum { sum });
        }
        if self.flip_sum() != 0 {
            out.push(CubeError::FlipSum);
        }
        let (corners_odd, edges_odd) = (self.corner_parity_odd(), self.edge_parity_odd());
        if corners_odd != edges_odd {
            out.push(CubeError::ParityMismatch {
                corners_odd,
                edges_odd,
            });
        }
        out
    }

    /// Whether [`Cube::validate`] succeeds.
    pub fn is_solvable(&self) -> bool {
        self.validate().is_ok()
    }

    /// The order of the state in the cube group: the least `n > 0` with `self^n` solved.
    ///
    /// ```
    /// use cube_core::{Cube, Move};
    /// assert_eq!(Cube::SOLVED.apply_moves(&[Move::R1, Move::U1]).order(), 105);
    /// ```
    pub fn order(&self) -> u64 {
        let (cp, co, ep, eo) = (
            self.corner_perm(),
            self.corner_ori(),
            self.edge_perm(),
            self.edge_ori(),
        );
        cycle_orders(&cp, &co, 3)
            .chain(cycle_orders(&ep, &eo, 2))
            .fold(1, lcm)
    }
}

/// For each cycle of the permutation: its length, times the orientation modulus if the cycle's
/// pieces come back turned.
fn cycle_orders<'a>(perm: &'a [u8], ori: &'a [u8], modulus: u64) -> impl Iterator<Item = u64> + 'a {
    let mut seen = 0u32;
    (0..perm.len()).filter_map(move |start| {
        if seen >> start & 1 == 1 {
            return None;
        }
        let (mut len, mut twist, mut i) = (0u64, 0u64, start);
        while seen >> i & 1 == 0 {
            seen |= 1 << i;
            twist += ori[i] as u64;
            len += 1;
            i = perm[i] as usize;
        }
        Some(if twist % modulus == 0 {
            len
        } else {
            len * modulus
        })
    })
}

fn lcm(a: u64, b: u64) -> u64 {
    fn gcd(a: u64, b: u64) -> u64 {
        if b == 0 { a } else { gcd(b, a % b) }
    }
    a / gcd(a, b) * b
}

/// Composition as two byte shuffles (SSSE3 `pshufb`): the packed layout of [`Cube`] exists for
/// this. Measured in `benches/benches/core.rs` (docs/PERFORMANCE.md).
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod simd {
    use std::arch::x86_64::{
        __m128i, _mm_add_epi8, _mm_and_si128, _mm_load_si128, _mm_min_epu8, _mm_set1_epi8,
        _mm_shuffle_epi8, _mm_store_si128, _mm_sub_epi8, _mm_xor_si128,
    };

    use super::{Cube, ORI_MASK, PIECE_MASK};

    /// Composes with SSSE3 enabled at compile time.
    #[cfg(target_feature = "ssse3")]
    #[inline]
    pub(super) fn compose(a: &Cube, b: &Cube) -> Cube {
        // SAFETY: SSSE3 is enabled for the whole build (cfg above).
        unsafe { compose_ssse3(a, b) }
    }

    /// Composes after the caller has detected SSSE3 at run time.
    #[cfg(not(target_feature = "ssse3"))]
    #[inline]
    pub(super) fn compose_detected(a: &Cube, b: &Cube) -> Cube {
        // SAFETY: only called after `is_x86_feature_detected!("ssse3")` returned true.
        unsafe { compose_ssse3(a, b) }
    }

    #[target_feature(enable = "ssse3")]
    #[inline]
    unsafe fn compose_ssse3(a: &Cube, b: &Cube) -> Cube {
        let mut out = Cube::SOLVED;
        // SAFETY: `Cube` is `repr(C, align(16))` with two 16-byte arrays, so both arrays of every
        // cube are 16-byte aligned and 16 bytes long: aligned 128-bit loads and stores are in
        // bounds. Every lane index is masked to 0..16, so the shuffles stay within a register.
        unsafe {
            let pieces = _mm_set1_epi8(PIECE_MASK as i8);
            let oris = _mm_set1_epi8(ORI_MASK as i8);
            let ae = _mm_load_si128(a.edges.as_ptr().cast::<__m128i>());
            let be = _mm_load_si128(b.edges.as_ptr().cast::<__m128i>());
            let ac = _mm_load_si128(a.corners.as_ptr().cast::<__m128i>());
            let bc = _mm_load_si128(b.corners.as_ptr().cast::<__m128i>());
            let edges = _mm_xor_si128(
                _mm_shuffle_epi8(ae, _mm_and_si128(be, pieces)),
                _mm_and_si128(be, oris),
            );
            let sum = _mm_add_epi8(
                _mm_shuffle_epi8(ac, _mm_and_si128(bc, pieces)),
                _mm_and_si128(bc, oris),
            );
            let corners = _mm_min_epu8(sum, _mm_sub_epi8(sum, oris));
            _mm_store_si128(out.edges.as_mut_ptr().cast::<__m128i>(), edges);
            _mm_store_si128(out.corners.as_mut_ptr().cast::<__m128i>(), corners);
        }
        out
    }
}

impl Default for Cube {
    fn default() -> Cube {
        Cube::SOLVED
    }
}

impl fmt::Debug for Cube {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Cube")
            .field("cp", &self.corner_perm())
            .field("co", &self.corner_ori())
            .field("ep", &self.edge_perm())
            .field("eo", &self.edge_ori())
            .finish()
    }
}

const fn pack<const N: usize>(perm: [u8; N], ori: [u8; N]) -> [u8; 16] {
    let mut lanes = identity_lanes();
    let mut i = 0;
    while i < N {
        lanes[i] = perm[i] | ori[i] << ORI_SHIFT;
        i += 1;
    }
    lanes
}

const fn basic(cp: [u8; 8], co: [u8; 8], ep: [u8; 12], eo: [u8; 12]) -> Cube {
    Cube {
        corners: pack(cp, co),
        edges: pack(ep, eo),
    }
}

const fn compose_const(a: &Cube, b: &Cube) -> Cube {
    let mut out = Cube::SOLVED;
    let mut i = 0;
    while i < 16 {
        let bc = b.corners[i];
        let ac = a.corners[(bc & PIECE_MASK) as usize];
        let twist = ((ac >> ORI_SHIFT) + (bc >> ORI_SHIFT)) % 3;
        out.corners[i] = (ac & PIECE_MASK) | twist << ORI_SHIFT;
        let be = b.edges[i];
        out.edges[i] = a.edges[(be & PIECE_MASK) as usize] ^ (be & ORI_MASK);
        i += 1;
    }
    out
}

/// The quarter turns U R F D L B, from Kociemba's cubie definitions (`defs.py` of RubikTwoPhase),
/// and confirmed by the facelet vectors made with his package.
const BASIC: [Cube; 6] = [
    // U
    basic(
        [3, 0, 1, 2, 4, 5, 6, 7],
        [0; 8],
        [3, 0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11],
        [0; 12],
    ),
    // R
    basic(
        [4, 1, 2, 0, 7, 5, 6, 3],
        [2, 0, 0, 1, 1, 0, 0, 2],
        [8, 1, 2, 3, 11, 5, 6, 7, 4, 9, 10, 0],
        [0; 12],
    ),
    // F
    basic(
        [1, 5, 2, 3, 0, 4, 6, 7],
        [1, 2, 0, 0, 2, 1, 0, 0],
        [0, 9, 2, 3, 4, 8, 6, 7, 1, 5, 10, 11],
        [0, 1, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0],
    ),
    // D
    basic(
        [0, 1, 2, 3, 5, 6, 7, 4],
        [0; 8],
        [0, 1, 2, 3, 5, 6, 7, 4, 8, 9, 10, 11],
        [0; 12],
    ),
    // L
    basic(
        [0, 2, 6, 3, 4, 1, 5, 7],
        [0, 1, 2, 0, 0, 2, 1, 0],
        [0, 1, 10, 3, 4, 5, 9, 7, 8, 2, 6, 11],
        [0; 12],
    ),
    // B
    basic(
        [0, 1, 3, 7, 4, 5, 2, 6],
        [0, 0, 1, 2, 0, 0, 2, 1],
        [0, 1, 2, 11, 4, 5, 6, 10, 8, 9, 3, 7],
        [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 1],
    ),
];

/// The 18 face turns as cubes, in move-index order.
pub(crate) const MOVE_CUBES: [Cube; 18] = {
    let mut out = [Cube::SOLVED; 18];
    let mut face = 0;
    while face < 6 {
        let q = BASIC[face];
        let h = compose_const(&q, &q);
        out[face * 3] = q;
        out[face * 3 + 1] = h;
        out[face * 3 + 2] = compose_const(&h, &q);
        face += 1;
    }
    out
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_face_turn_has_order_four() {
        for m in Move::ALL {
            let expected = if m.is_half_turn() { 2 } else { 4 };
            assert_eq!(Cube::from_move(m).order(), expected, "{m}");
            let cube = Cube::from_move(m);
            assert!(cube.apply_moves(&[m, m, m]).is_solved(), "{m}");
            assert!(cube.apply_move(m.inverse()).is_solved(), "{m}");
        }
    }

    #[test]
    fn simd_and_scalar_composition_agree() {
        let mut cube = Cube::SOLVED;
        for i in 0..5000 {
            let other = MOVE_CUBES[(i * 7) % 18].compose_scalar(&MOVE_CUBES[(i * 11 + 3) % 18]);
            let scalar = cube.compose_scalar(&other);
            assert_eq!(cube.compose(&other), scalar);
            cube = scalar;
        }
    }

    #[test]
    fn from_parts_errors() {
        let id8: [u8; 8] = std::array::from_fn(|i| i as u8);
        let id12: [u8; 12] = std::array::from_fn(|i| i as u8);
        let mut cp = id8;
        cp[1] = 0;
        assert_eq!(
            Cube::from_parts(cp, [0; 8], id12, [0; 12]),
            Err(CubeError::CornersNotAPermutation { piece: Corner::URF })
        );
        let mut ep = id12;
        ep[3] = 12;
        assert_eq!(
            Cube::from_parts(id8, [0; 8], ep, [0; 12]),
            Err(CubeError::EdgeOutOfRange {
                position: 3,
                piece: 12
            })
        );
        let mut co = [0; 8];
        co[0] = 1;
        let twisted = Cube::from_parts(id8, co, id12, [0; 12]).unwrap();
        assert_eq!(twisted.validate(), Err(CubeError::TwistSum { sum: 1 }));
        let mut eo = [0; 12];
        eo[0] = 1;
        let flipped = Cube::from_parts(id8, [0; 8], id12, eo).unwrap();
        assert_eq!(flipped.validate(), Err(CubeError::FlipSum));
        let mut ep = id12;
        ep.swap(0, 1);
        let swapped = Cube::from_parts(id8, [0; 8], ep, [0; 12]).unwrap();
        assert_eq!(
            swapped.validate(),
            Err(CubeError::ParityMismatch {
                corners_odd: false,
                edges_odd: true
            })
        );
        assert_eq!(
            Cube::from_parts(id8, co, ep, eo).unwrap().violations(),
            vec![
                CubeError::TwistSum { sum: 1 },
                CubeError::FlipSum,
                CubeError::ParityMismatch {
                    corners_odd: false,
                    edges_odd: true
                }
            ]
        );
    }

    /// Issue 31, item 7: every problem of arrays that are not pieces is listed, each piece
    /// found twice once, and `from_parts` names the first of them.
    #[test]
    fn i31_7_problems_of_parts_lists_every_problem() {
        let id12: [u8; 12] = std::array::from_fn(|i| i as u8);
        let cp = [0, 0, 0, 3, 4, 5, 6, 9];
        let co = [0, 0, 0, 0, 3, 0, 0, 0];
        let mut ep = id12;
        ep[2] = 1;
        let mut eo = [0; 12];
        eo[11] = 2;
        let problems = Cube::problems_of_parts(cp, co, ep, eo);
        assert_eq!(
            problems,
            [
                CubeError::CornersNotAPermutation { piece: Corner::URF },
                CubeError::OrientationOutOfRange {
                    corner: true,
                    position: 4,
                    value: 3
                },
                CubeError::CornerOutOfRange {
                    position: 7,
                    piece: 9
                },
                CubeError::EdgesNotAPermutation { piece: Edge::UF },
                CubeError::OrientationOutOfRange {
                    corner: false,
                    position: 11,
                    value: 2
                },
            ]
        );
        assert_eq!(Cube::from_parts(cp, co, ep, eo), Err(problems[0].clone()));
        let rules: Vec<&str> = problems.iter().map(CubeError::rule).collect();
        assert_eq!(
            rules,
            [
                "corners-not-a-permutation",
                "orientation-out-of-range",
                "corner-out-of-range",
                "edges-not-a-permutation",
                "orientation-out-of-range"
            ]
        );
        // Pieces: the solvability rules.
        let mut co = [0; 8];
        co[0] = 2;
        let id8: [u8; 8] = std::array::from_fn(|i| i as u8);
        assert_eq!(
            Cube::problems_of_parts(id8, co, id12, [0; 12]),
            [CubeError::TwistSum { sum: 2 }]
        );
        assert!(Cube::problems_of_parts(id8, [0; 8], id12, [0; 12]).is_empty());
    }
}
