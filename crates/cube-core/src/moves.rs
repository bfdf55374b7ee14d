//! Faces, the 18 face turns of the half-turn metric, and the canonical-sequence rules.

use std::fmt;

/// One of the six faces, in Kociemba's order U R F D L B.
///
/// The discriminant is the face's index in that order, as used by facelet strings
/// (`U1..U9 R1..R9 F1..F9 D1..D9 L1..L9 B1..B9`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Face {
    /// Up.
    U = 0,
    /// Right.
    R = 1,
    /// Front.
    F = 2,
    /// Down.
    D = 3,
    /// Left.
    L = 4,
    /// Back.
    B = 5,
}

impl Face {
    /// The six faces in Kociemba's order.
    pub const ALL: [Face; 6] = [Face::U, Face::R, Face::F, Face::D, Face::L, Face::B];

    /// The face with index `index` (0..6) in the order U R F D L B.
    ///
    /// # Panics
    /// If `index >= 6`.
    #[inline]
    pub const fn from_index(index: usize) -> Face {
        Face::ALL[index]
    }

    /// The index of the face in the order U R F D L B.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The face on the other side of the cube (U and D, R and L, F and B).
    #[inline]
    pub const fn opposite(self) -> Face {
        Face::ALL[(self as usize + 3) % 6]
    }

    /// The axis of the face: 0 for U/D, 1 for R/L, 2 for F/B.
    #[inline]
    pub const fn axis(self) -> usize {
        self as usize % 3
    }

    /// The face's letter, one of `URFDLB`.
    #[inline]
    pub const fn letter(self) -> char {
        b"URFDLB"[self as usize] as char
    }

    /// The face for an upper-case letter of `URFDLB`.
    pub const fn from_letter(letter: char) -> Option<Face> {
        match letter {
            'U' => Some(Face::U),
            'R' => Some(Face::R),
            'F' => Some(Face::F),
            'D' => Some(Face::D),
            'L' => Some(Face::L),
            'B' => Some(Face::B),
            _ => None,
        }
    }
}

impl fmt::Display for Face {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// One of the 18 face turns: a face and an amount of clockwise quarter turns (1, 2 or 3).
///
/// The index of a move is `face * 3 + amount - 1`, so the moves are ordered
/// `U U2 U' R R2 R' F F2 F' D D2 D' L L2 L' B B2 B'`, as in Kociemba's programs.
///
/// ```
/// use cube_core::{Face, Move};
/// let m: Move = "R'".parse().unwrap();
/// assert_eq!(m, Move::new(Face::R, 3));
/// assert_eq!(m.inverse(), Move::R1);
/// assert_eq!(m.to_string(), "R'");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u8);

impl Move {
    /// `U`.
    pub const U1: Move = Move(0);
    /// `U2`.
    pub const U2: Move = Move(1);
    /// `U'`.
    pub const U3: Move = Move(2);
    /// `R`.
    pub const R1: Move = Move(3);
    /// `R2`.
    pub const R2: Move = Move(4);
    /// `R'`.
    pub const R3: Move = Move(5);
    /// `F`.
    pub const F1: Move = Move(6);
    /// `F2`.
    pub const F2: Move = Move(7);
    /// `F'`.
    pub const F3: Move = Move(8);
    /// `D`.
    pub const D1: Move = Move(9);
    /// `D2`.
    pub const D2: Move = Move(10);
    /// `D'`.
    pub const D3: Move = Move(11);
    /// `L`.
    pub const L1: Move = Move(12);
    /// `L2`.
    pub const L2: Move = Move(13);
    /// `L'`.
    pub const L3: Move = Move(14);
    /// `B`.
    pub const B1: Move = Move(15);
    /// `B2`.
    pub const B2: Move = Move(16);
    /// `B'`.
    pub const B3: Move = Move(17);

    /// The number of face turns.
    pub const COUNT: usize = 18;

    /// All 18 face turns, in index order.
    pub const ALL: [Move; 18] = {
        let mut all = [Move(0); 18];
        let mut i = 0;
        while i < 18 {
            all[i] = Move(i as u8);
            i += 1;
        }
        all
    };

    /// The turn of `face` by `amount` clockwise quarter turns.
    ///
    /// # Panics
    /// If `amount` is not 1, 2 or 3.
    #[inline]
    pub const fn new(face: Face, amount: u8) -> Move {
        assert!(
            amount >= 1 && amount <= 3,
            "a move turns by 1, 2 or 3 quarter turns"
        );
        Move(face as u8 * 3 + amount - 1)
    }

    /// The move with index `index` (0..18).
    ///
    /// # Panics
    /// If `index >= 18`.
    #[inline]
    pub const fn from_index(index: usize) -> Move {
        assert!(index < 18, "move index out of range");
        Move(index as u8)
    }

    /// The move's index, `face * 3 + amount - 1`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The face turned.
    #[inline]
    pub const fn face(self) -> Face {
        Face::from_index(self.0 as usize / 3)
    }

    /// Clockwise quarter turns: 1, 2 or 3.
    #[inline]
    pub const fn amount(self) -> u8 {
        self.0 % 3 + 1
    }

    /// The move that undoes this one (`R` for `R'`, `R2` for `R2`).
    #[inline]
    pub const fn inverse(self) -> Move {
        Move(self.0 - self.0 % 3 + (2 - self.0 % 3))
    }

    /// Whether this is a half turn.
    #[inline]
    pub const fn is_half_turn(self) -> bool {
        self.0 % 3 == 1
    }

    /// The moves that may follow `self` in a canonical sequence (see [`MoveSet::after`]).
    #[inline]
    pub const fn allowed_after(self) -> MoveSet {
        MoveSet::after(Some(self))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let suffix = ["", "2", "'"][self.0 as usize % 3];
        write!(f, "{}{}", self.face().letter(), suffix)
    }
}

/// A set of face turns, as a bit mask over move indices.
///
/// Solvers use it for the canonical-sequence rule: never the same face twice in a row, and of two
/// opposite faces turned one after the other only one order is allowed (U before D, R before L,
/// F before B). Every position is reached by some canonical sequence of minimal length.
///
/// ```
/// use cube_core::{Move, MoveSet};
/// let after_d = MoveSet::after(Some(Move::D1));
/// assert!(!after_d.contains(Move::D2)); // same face
/// assert!(!after_d.contains(Move::U1)); // U before D only
/// assert!(after_d.contains(Move::R1));
/// assert_eq!(MoveSet::after(Some(Move::U1)).len(), 15);
/// assert_eq!(after_d.len(), 12);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct MoveSet(u32);

impl MoveSet {
    /// The empty set.
    pub const EMPTY: MoveSet = MoveSet(0);
    /// All 18 face turns.
    pub const ALL: MoveSet = MoveSet((1 << 18) - 1);
    /// The 10 moves of the subgroup <U, D, R2, L2, F2, B2> (phase 2 of the two-phase method).
    pub const G1: MoveSet = MoveSet(
        0b111 | 0b111 << 9 | 1 << Move::R2.0 | 1 << Move::L2.0 | 1 << Move::F2.0 | 1 << Move::B2.0,
    );

    /// The set with bit mask `bits` (bit `i` is the move with index `i`); bits above 17 are dropped.
    #[inline]
    pub const fn from_bits(bits: u32) -> MoveSet {
        MoveSet(bits & Self::ALL.0)
    }

    /// The bit mask.
    #[inline]
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// The moves allowed after `previous` in a canonical sequence (all 18 at the start).
    pub const fn after(previous: Option<Move>) -> MoveSet {
        match previous {
            None => MoveSet::ALL,
            Some(m) => {
                let face = m.0 / 3;
                let mut bits = Self::ALL.0 & !(0b111 << (face * 3));
                if face >= 3 {
                    bits &= !(0b111 << ((face - 3) * 3));
                }
                MoveSet(bits)
            }
        }
    }

    /// Whether the set holds `m`.
    #[inline]
    pub const fn contains(self, m: Move) -> bool {
        self.0 >> m.0 & 1 == 1
    }

    /// The set with `m` added.
    #[inline]
    pub const fn with(self, m: Move) -> MoveSet {
        MoveSet(self.0 | 1 << m.0)
    }

    /// The moves in both sets.
    #[inline]
    pub const fn intersection(self, other: MoveSet) -> MoveSet {
        MoveSet(self.0 & other.0)
    }

    /// The number of moves in the set.
    #[inline]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The moves in index order.
    #[inline]
    pub fn iter(self) -> impl Iterator<Item = Move> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = bits.trailing_zeros();
            bits &= bits - 1;
            Some(Move(i as u8))
        })
    }
}

impl FromIterator<Move> for MoveSet {
    fn from_iter<I: IntoIterator<Item = Move>>(iter: I) -> MoveSet {
        iter.into_iter().fold(MoveSet::EMPTY, MoveSet::with)
    }
}

/// Whether `moves` is canonical: no face twice in a row, and opposite faces only in the order
/// U before D, R before L, F before B.
pub fn is_canonical(moves: &[Move]) -> bool {
    moves
        .windows(2)
        .all(|pair| MoveSet::after(Some(pair[0])).contains(pair[1]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_and_names() {
        let names: Vec<String> = Move::ALL.iter().map(|m| m.to_string()).collect();
        assert_eq!(
            names.join(" "),
            "U U2 U' R R2 R' F F2 F' D D2 D' L L2 L' B B2 B'"
        );
        for m in Move::ALL {
            assert_eq!(Move::new(m.face(), m.amount()), m);
            assert_eq!(m.inverse().inverse(), m);
            assert_eq!((m.amount() + m.inverse().amount()) % 4, 0);
        }
    }

    #[test]
    fn canonical_sequence_counts_match_reference() {
        // REFERENCE.md: canonical sequences of length 1..5: 18, 243, 3240, 43254, 577368.
        let mut counts = [0u64; 18];
        for m in Move::ALL {
            counts[m.index()] = 1;
        }
        let mut totals = vec![18u64];
        for _ in 2..=5 {
            let mut next = [0u64; 18];
            for m in Move::ALL {
                for n in m.allowed_after().iter() {
                    next[n.index()] += counts[m.index()];
                }
            }
            counts = next;
            totals.push(counts.iter().sum());
        }
        assert_eq!(totals, vec![18, 243, 3240, 43254, 577368]);
    }

    #[test]
    fn g1_moves() {
        let names: Vec<String> = MoveSet::G1.iter().map(|m| m.to_string()).collect();
        assert_eq!(names.join(" "), "U U2 U' R2 F2 D D2 D' L2 B2");
    }
}
