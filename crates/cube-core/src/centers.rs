//! Centre orientation, for supercubes and picture cubes.

use crate::moves::{Face, Move};

/// How far each centre is turned, in clockwise quarter turns (0..4), by face in the order
/// U R F D L B.
///
/// Plain cubes ignore centre orientation; a supercube tracks it. A face turn turns its own centre:
/// `U` adds 1 to the U centre, `U2` adds 2. Slices and wide turns expand to face turns relative to
/// the centres (see [`crate::Alg`]), so their effect follows: `M` (= `R L'` plus a rotation) adds
/// 1 to R and 3 to L.
///
/// ```
/// use cube_core::{Centers, Face, Move};
/// let c = Centers::SOLVED.apply_moves(&[Move::U1, Move::U2, Move::R3]);
/// assert_eq!(c.get(Face::U), 3);
/// assert_eq!(c.get(Face::R), 3);
/// assert!(c.apply_moves(&[Move::U1, Move::R1]).is_solved());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Centers([u8; 6]);

impl Centers {
    /// Every centre unturned.
    pub const SOLVED: Centers = Centers([0; 6]);

    /// Centres from quarter-turn counts by face (U R F D L B), each taken mod 4.
    pub const fn new(turns: [u8; 6]) -> Centers {
        let mut out = [0u8; 6];
        let mut i = 0;
        while i < 6 {
            out[i] = turns[i] % 4;
            i += 1;
        }
        Centers(out)
    }

    /// Quarter turns of the centre of `face` (0..4).
    pub const fn get(&self, face: Face) -> u8 {
        self.0[face as usize]
    }

    /// All six, in the order U R F D L B.
    pub const fn turns(&self) -> [u8; 6] {
        self.0
    }

    /// After the face turn `m`.
    pub const fn apply_move(self, m: Move) -> Centers {
        let mut out = self.0;
        let f = m.face() as usize;
        out[f] = (out[f] + m.amount()) % 4;
        Centers(out)
    }

    /// After the face turns `moves`, in order.
    pub fn apply_moves(self, moves: &[Move]) -> Centers {
        moves.iter().fold(self, |c, &m| c.apply_move(m))
    }

    /// Whether every centre is unturned.
    pub const fn is_solved(&self) -> bool {
        matches!(self.0, [0, 0, 0, 0, 0, 0])
    }
}
