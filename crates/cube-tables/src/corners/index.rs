//! The corner index of the corner database: `perm_rank * 2187 + twist`, its inverse, and per-move
//! updates. `perm_rank` is the Lehmer rank of the corner permutation (piece at position) and `twist`
//! is Kociemba's twist coordinate: the twists of positions 0..7 read as a base-3 number. The twist
//! coordinate transforms independently of the permutation, so a 40320 x 18 and a 2187 x 18 move
//! table do all the work ([`CornerMoves`]).

use std::sync::OnceLock;

use cube_core::{Cube, Move};

/// The number of face turns.
pub(crate) const N_MOVES: usize = Move::COUNT;

/// The number of corner permutations, 8!.
pub const CORNER_PERM_COUNT: usize = 40_320;
/// The number of twist coordinates, 3^7.
pub const TWIST_COUNT: usize = 2_187;
/// The number of corner database entries, 8! x 3^7.
pub(crate) const CORNER_COUNT: usize = CORNER_PERM_COUNT * TWIST_COUNT;

/// The Lehmer rank of a permutation of `0..8` (piece at position): 0 for the identity.
#[inline]
pub(crate) fn corner_perm_rank(perm: &[u8; 8]) -> u16 {
    let mut used = 0u32;
    let mut rank = 0u32;
    for (j, &piece) in perm.iter().enumerate() {
        let below = (used & ((1 << piece) - 1)).count_ones();
        rank = rank * (8 - j as u32) + u32::from(piece) - below;
        used |= 1 << piece;
    }
    rank as u16
}

/// The permutation of rank `rank` (the Lehmer code that `corner_perm_rank` computes).
///
/// # Panics
///
/// When `rank >= 40320`.
pub fn corner_perm_unrank(rank: u16) -> [u8; 8] {
    assert!(
        usize::from(rank) < CORNER_PERM_COUNT,
        "corner permutation rank {rank} out of range"
    );
    let mut digits = [0u8; 8];
    let mut rest = u32::from(rank);
    for j in (0..8).rev() {
        let radix = 8 - j as u32;
        digits[j] = (rest % radix) as u8;
        rest /= radix;
    }
    let mut free = 0xFFu32;
    digits.map(|digit| {
        let piece = select_bit(free, u32::from(digit));
        free &= !(1 << piece);
        piece as u8
    })
}

/// Kociemba's twist coordinate: the twists of corner positions 0..7 as a base-3 number (position 0 most
/// significant); the twist of position 7 follows from the others.
#[inline]
pub(crate) fn twist_rank(twists: &[u8; 8]) -> u16 {
    twists[..7]
        .iter()
        .fold(0u16, |rank, &twist| rank * 3 + u16::from(twist))
}

/// The twists of rank `rank` (base 3, as `twist_rank` computes it), with the last one making the sum a multiple of 3.
///
/// # Panics
///
/// When `rank >= 2187`.
pub fn twist_unrank(rank: u16) -> [u8; 8] {
    assert!(
        usize::from(rank) < TWIST_COUNT,
        "twist coordinate {rank} out of range"
    );
    let mut twists = [0u8; 8];
    let mut rest = rank;
    for i in (0..7).rev() {
        twists[i] = (rest % 3) as u8;
        rest /= 3;
    }
    let sum: u8 = twists.iter().sum();
    twists[7] = (3 - sum % 3) % 3;
    twists
}

/// The position of the `n`-th set bit (from 0) of `bits`.
#[inline]
pub(crate) fn select_bit(mut bits: u32, n: u32) -> u32 {
    for _ in 0..n {
        bits &= bits - 1;
    }
    bits.trailing_zeros()
}

/// The corner move tables: 40320 x 18 for the permutation and 18 x 2187 for the twist.
///
/// Built once from `cube-core`'s moves (in a few milliseconds) and shared: [`CornerMoves::get`].
#[derive(Debug)]
pub struct CornerMoves {
    /// `perm[rank * 18 + move]`.
    perm: Vec<u16>,
    /// `twist[move * 2187 + twist]`: by move first, so that one move's row stays in L1 during the BFS.
    twist: Vec<u16>,
}

impl CornerMoves {
    /// The shared tables, built on first use.
    pub fn get() -> &'static CornerMoves {
        static TABLES: OnceLock<CornerMoves> = OnceLock::new();
        TABLES.get_or_init(CornerMoves::build)
    }

    fn build() -> CornerMoves {
        let move_cubes: Vec<Cube> = Move::ALL.iter().map(|&m| Cube::from_move(m)).collect();
        let solved_edges = Cube::SOLVED;
        let mut perm = vec![0u16; CORNER_PERM_COUNT * N_MOVES];
        for rank in 0..CORNER_PERM_COUNT {
            let cube = Cube::from_parts(
                corner_perm_unrank(rank as u16),
                [0; 8],
                solved_edges.edge_perm(),
                [0; 12],
            )
            .expect("an unranked corner permutation is a permutation");
            for (m, move_cube) in move_cubes.iter().enumerate() {
                perm[rank * N_MOVES + m] = corner_perm_rank(&cube.compose(move_cube).corner_perm());
            }
        }
        let mut twist = vec![0u16; N_MOVES * TWIST_COUNT];
        for rank in 0..TWIST_COUNT {
            let cube = Cube::from_parts(
                solved_edges.corner_perm(),
                twist_unrank(rank as u16),
                solved_edges.edge_perm(),
                [0; 12],
            )
            .expect("unranked twists are in range");
            for (m, move_cube) in move_cubes.iter().enumerate() {
                twist[m * TWIST_COUNT + rank] = twist_rank(&cube.compose(move_cube).corner_ori());
            }
        }
        CornerMoves { perm, twist }
    }

    /// The corner permutation rank after `m`.
    #[inline]
    pub fn perm(&self, rank: u16, m: Move) -> u16 {
        self.perm[usize::from(rank) * N_MOVES + m.index()]
    }

    /// The twist coordinate after `m`.
    #[inline]
    pub fn twist(&self, twist: u16, m: Move) -> u16 {
        self.twist[m.index() * TWIST_COUNT + usize::from(twist)]
    }

    /// The twist row of move index `m`: `row[twist]` is the twist after the move.
    #[inline]
    pub(crate) fn twist_row(&self, m: usize) -> &[u16] {
        &self.twist[m * TWIST_COUNT..(m + 1) * TWIST_COUNT]
    }

    /// The permutation ranks after each of the 18 moves.
    #[inline]
    pub(crate) fn perm_row(&self, rank: usize) -> &[u16] {
        &self.perm[rank * N_MOVES..(rank + 1) * N_MOVES]
    }
}

/// The corner coordinate of a cube: permutation rank and twist, updated by move tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CornerCoord {
    /// The Lehmer rank of the corner permutation, `0..40320`.
    pub perm: u16,
    /// The twist coordinate, `0..2187`.
    pub twist: u16,
}

impl CornerCoord {
    /// The coordinate of the solved cube (index 0).
    pub const SOLVED: CornerCoord = CornerCoord { perm: 0, twist: 0 };

    /// The coordinate of `cube`.
    #[inline]
    pub fn from_cube(cube: &Cube) -> CornerCoord {
        CornerCoord {
            perm: corner_perm_rank(&cube.corner_perm()),
            twist: twist_rank(&cube.corner_ori()),
        }
    }

    /// The coordinate of corner database entry `index`.
    ///
    /// # Panics
    ///
    /// When `index >= CORNER_COUNT`.
    pub fn from_index(index: usize) -> CornerCoord {
        assert!(index < CORNER_COUNT, "corner index {index} out of range");
        CornerCoord {
            perm: (index / TWIST_COUNT) as u16,
            twist: (index % TWIST_COUNT) as u16,
        }
    }

    /// The corner database index: `perm * 2187 + twist`.
    #[inline]
    pub fn index(self) -> usize {
        usize::from(self.perm) * TWIST_COUNT + usize::from(self.twist)
    }

    /// The coordinate after move `m`: two table lookups.
    #[inline]
    pub fn apply(self, m: Move, tables: &CornerMoves) -> CornerCoord {
        CornerCoord {
            perm: tables.perm(self.perm, m),
            twist: tables.twist(self.twist, m),
        }
    }
}

/// The corner database index of `cube`.
#[inline]
pub fn corner_index(cube: &Cube) -> usize {
    CornerCoord::from_cube(cube).index()
}
