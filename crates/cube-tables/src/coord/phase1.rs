//! The exact phase-1 distance of the two-phase method: flip x UD-slice reduced by the 16
//! symmetries that keep the U-D axis, times the twist, as Kociemba's RubiksCube-TwophaseSolver
//! (`flipslice_twist_depth3`, <https://github.com/hkociemba/RubiksCube-TwophaseSolver>) and
//! Cube Explorer have it.
//!
//! Conjugating by a symmetry that keeps the U-D axis in place (the group D4h: the four turns
//! about it, the half turns about the other two axes, each also mirrored) maps G1 to itself, the
//! twist to a function of the twist, and flip x UD-slice to a function of flip x UD-slice (an
//! edge's flip changes where a slice edge meets a non-slice position, or the reverse). So the
//! 1,013,760 flip-slice values fall into 64,430 classes, and the distance to G1 of every
//! position is the entry of (class, twist conjugated into the representative's frame): 140.9
//! million entries of at most 12 moves, kept two per byte (70 MB).
//!
//! - [`FlipSliceSym`]: the classes, raw flip-slice to (class, symmetry), and the twist
//!   conjugated by each symmetry; built in a few milliseconds.
//! - [`phase1_distance_table`]: the distances, by [`DistanceTable::build`] over (class, twist)
//!   (a few seconds on two cores, which is why a binary caches the packed table on disk).

use cube_core::{Cube, Move, MoveSet, Symmetry};

use crate::coord::move_table::{MoveTable, Space};
use crate::coord::prune::DistanceTable;
use crate::coord::sym_coord::{axis_symmetries, conjugation_table};
use crate::coord::{Coord, Flip, Twist, UdSlice};
use crate::file::id::TableId;
use crate::file::table::PruneTable;

/// The number of flip-slice values, `Flip::COUNT * UdSlice::COUNT`.
pub(crate) const N_FLIP_SLICE: usize = Flip::COUNT * UdSlice::COUNT;

/// The number of flip-slice classes under the 16 symmetries (Kociemba's `N_FLIPSLICE_CLASS`).
pub(crate) const N_FLIP_SLICE_CLASS: usize = 64_430;

/// The number of entries of the exact phase-1 table: classes times twists.
pub const N_PHASE1: usize = N_FLIP_SLICE_CLASS * Twist::COUNT;

/// The 16 symmetries that keep the U-D axis in place (the group D4h): `syms[j]` is the `j`-th of
/// [`axis_symmetries`], and `syms[8 + j]` is `y` then that one. Identity first.
///
/// ```
/// let syms = cube_tables::phase1::ud_symmetries();
/// assert_eq!(syms[0], cube_core::Symmetry::IDENTITY);
/// assert_eq!(syms.iter().filter(|s| s.is_mirror()).count(), 8);
/// ```
pub fn ud_symmetries() -> [Symmetry; 16] {
    let axis = axis_symmetries();
    std::array::from_fn(|k| {
        if k < 8 {
            axis[k]
        } else {
            axis[k - 8].then(Symmetry::Y)
        }
    })
}

/// Flip x UD-slice (`flip * 495 + slice`) reduced by [`ud_symmetries`], and the twist
/// conjugated by each of them.
#[derive(Clone, Debug)]
pub struct FlipSliceSym {
    /// `class << 4 | k`: conjugating the raw value by symmetry `k` gives the representative.
    raw_to_sym: Vec<u32>,
    reps: Vec<u32>,
    /// Bit `k` is set when symmetry `k` fixes the representative.
    stabilizers: Vec<u16>,
    /// `twist_conj[twist * 16 + k]`: the twist conjugated by symmetry `k`.
    twist_conj: Vec<u16>,
}

impl FlipSliceSym {
    /// The classes (each represented by its smallest raw value), from the flip-slice
    /// conjugated by `y` (a few thousand conjugated cubes) and the flip and the slice each
    /// conjugated by the eight [`axis_symmetries`]: a few milliseconds.
    pub fn new(
        twist_move: &MoveTable<Twist>,
        flip_move: &MoveTable<Flip>,
        slice_move: &MoveTable<UdSlice>,
    ) -> FlipSliceSym {
        let axis = axis_symmetries();
        let by_y = ConjugateByY::new();
        let (flip_conj, slice_conj, twist_conj) = (
            conjugation_table(flip_move, &axis),
            conjugation_table(slice_move, &axis),
            conjugation_table(twist_move, &ud_symmetries()),
        );
        let n_slice = UdSlice::COUNT as u32;
        // Symmetry `j` of the axis group, after `y` when `k >= 8`.
        let conjugate = |raw: u32, k: usize| -> u32 {
            let (flip, slice) = (raw / n_slice, raw % n_slice);
            let (flip, slice) = if k < 8 {
                (flip, slice)
            } else {
                by_y.conjugate(flip, slice)
            };
            let (flip, slice, j) = (flip as usize, slice as usize, k & 7);
            flip_conj[flip * 8 + j] as u32 * n_slice + slice_conj[slice * 8 + j] as u32
        };
        let syms = ud_symmetries();
        let inverse: [u32; 16] = std::array::from_fn(|k| {
            let back = syms[k].inverse();
            syms.iter()
                .position(|&s| s == back)
                .expect("the symmetries form a group") as u32
        });
        let mut raw_to_sym = vec![u32::MAX; N_FLIP_SLICE];
        let mut reps = Vec::with_capacity(N_FLIP_SLICE_CLASS);
        let mut stabilizers = Vec::with_capacity(N_FLIP_SLICE_CLASS);
        for raw in 0..N_FLIP_SLICE as u32 {
            if raw_to_sym[raw as usize] != u32::MAX {
                continue;
            }
            let class = reps.len() as u32;
            reps.push(raw);
            let mut stabilizer = 0u16;
            for (k, &back) in inverse.iter().enumerate() {
                let image = conjugate(raw, k);
                if image == raw {
                    stabilizer |= 1 << k;
                }
                if raw_to_sym[image as usize] == u32::MAX {
                    raw_to_sym[image as usize] = class << 4 | back;
                }
            }
            stabilizers.push(stabilizer);
        }
        assert_eq!(reps.len(), N_FLIP_SLICE_CLASS, "flip-slice classes");
        FlipSliceSym {
            raw_to_sym,
            reps,
            stabilizers,
            twist_conj,
        }
    }

    /// The class of raw flip-slice `raw` and a symmetry that carries it to the representative.
    #[inline]
    pub fn class_and_sym(&self, raw: u32) -> (u32, u32) {
        let packed = self.raw_to_sym[raw as usize];
        (packed >> 4, packed & 15)
    }

    /// The entry of the exact phase-1 table for raw `(twist, flip, slice)`.
    #[inline]
    pub fn index(&self, twist: u32, flip: u32, slice: u32) -> u32 {
        let (class, k) = self.class_and_sym(flip * UdSlice::COUNT as u32 + slice);
        class * Twist::COUNT as u32 + self.twist_conj[(twist * 16 + k) as usize] as u32
    }
}

/// Flip-slice conjugated by `y`, the one symmetry of [`ud_symmetries`] that does not keep the
/// F-B axis, from 2,543 conjugated cubes instead of a walk over all 1,013,760 values.
///
/// Conjugating by `y` moves every edge to another position and changes its flip (relative to F/B)
/// by an amount that depends only on that position and on whether the edge is a slice edge; and
/// the flip coordinate is the flips as bits. So the flip of the conjugate is the exclusive or of a
/// function of the flip and a function of the slice, and its slice a function of the slice:
/// `f(flip, slice) = f(flip, 0) ^ f(0, slice) ^ f(0, 0)` (checked against the walk for every
/// value by the test `conjugation_by_y_agrees_with_the_walk`).
struct ConjugateByY {
    /// `flips[flip]`: the flip of `(flip, slice 0)` conjugated by `y`.
    flips: Vec<u16>,
    /// `slices[slice]`: the flip of `(0, slice)` conjugated by `y` with that of `(0, 0)` taken
    /// out, and the slice of the conjugate.
    slices: Vec<(u16, u16)>,
}

impl ConjugateByY {
    fn new() -> ConjugateByY {
        let conjugate = |flip: u32, slice: u32| {
            let cube = Symmetry::Y.conjugate(&flip_slice_cube(flip, slice));
            (
                Flip::from_cube(&cube) as u16,
                UdSlice::from_cube(&cube) as u16,
            )
        };
        let flips: Vec<u16> = (0..Flip::COUNT as u32)
            .map(|flip| conjugate(flip, 0).0)
            .collect();
        let slices = (0..UdSlice::COUNT as u32)
            .map(|slice| {
                let (flip, slice) = conjugate(0, slice);
                (flip ^ flips[0], slice)
            })
            .collect();
        ConjugateByY { flips, slices }
    }

    /// `(flip, slice)` of the cube conjugated by `y`.
    #[inline]
    fn conjugate(&self, flip: u32, slice: u32) -> (u32, u32) {
        let (slice_flip, slice) = self.slices[slice as usize];
        (
            u32::from(self.flips[flip as usize] ^ slice_flip),
            u32::from(slice),
        )
    }
}

/// A cube with raw flip and UD-slice (its corners and the order of its edges solved): the slice
/// edges placed, then every position's edge flipped as the flip says.
fn flip_slice_cube(flip: u32, slice: u32) -> Cube {
    UdSlice::to_cube(slice).compose(&Flip::to_cube(flip))
}

/// (flip-slice class, twist) as a [`Space`] over all 18 moves.
struct Phase1Space<'a> {
    sym: &'a FlipSliceSym,
    twist_move: &'a MoveTable<Twist>,
    flip_move: &'a MoveTable<Flip>,
    slice_move: &'a MoveTable<UdSlice>,
}

impl Space for Phase1Space<'_> {
    fn count(&self) -> usize {
        N_PHASE1
    }

    fn moves(&self) -> &[Move] {
        self.twist_move.moves()
    }

    #[inline]
    fn neighbours(&self, state: u32, out: &mut [u32]) {
        let (class, twist) = (state / Twist::COUNT as u32, state % Twist::COUNT as u32);
        let rep = self.sym.reps[class as usize];
        let (flip, slice) = (rep / UdSlice::COUNT as u32, rep % UdSlice::COUNT as u32);
        let (twist_row, flip_row, slice_row) = (
            self.twist_move.row(twist),
            self.flip_move.row(flip),
            self.slice_move.row(slice),
        );
        for (column, o) in out.iter_mut().enumerate() {
            *o = self.sym.index(
                twist_row[column] as u32,
                flip_row[column] as u32,
                slice_row[column] as u32,
            );
        }
    }

    #[inline]
    fn step(&self, state: u32, column: usize) -> u32 {
        let (class, twist) = (state / Twist::COUNT as u32, state % Twist::COUNT as u32);
        let rep = self.sym.reps[class as usize];
        let (flip, slice) = (rep / UdSlice::COUNT as u32, rep % UdSlice::COUNT as u32);
        self.sym.index(
            self.twist_move.get(twist, column),
            self.flip_move.get(flip, column),
            self.slice_move.get(slice, column),
        )
    }

    fn project(&self, cube: &Cube) -> u32 {
        self.sym.index(
            Twist::from_cube(cube),
            Flip::from_cube(cube),
            UdSlice::from_cube(cube),
        )
    }

    #[inline]
    fn aliases(&self, state: u32, out: &mut [u32; 16]) -> usize {
        let (class, twist) = (state / Twist::COUNT as u32, state % Twist::COUNT as u32);
        // The identity is in every stabilizer, so `state` itself comes first.
        let mut stabilizer = self.sym.stabilizers[class as usize];
        let mut n = 0;
        while stabilizer != 0 {
            let k = stabilizer.trailing_zeros();
            out[n] =
                class * Twist::COUNT as u32 + self.sym.twist_conj[(twist * 16 + k) as usize] as u32;
            stabilizer &= stabilizer - 1;
            n += 1;
        }
        n
    }
}

/// The exact distance to G1 of every (flip-slice class, twist), entry
/// [`FlipSliceSym::index`]; at most 12. The table is named `id`; `observe` is called with the
/// states scanned as the search goes ([`DistanceTable::build_observed`]).
///
/// # Panics
/// If the move tables are not over all 18 moves.
pub fn phase1_distance_table(
    id: TableId,
    sym: &FlipSliceSym,
    twist_move: &MoveTable<Twist>,
    flip_move: &MoveTable<Flip>,
    slice_move: &MoveTable<UdSlice>,
    observe: &(dyn Fn(usize) + Sync),
) -> PruneTable<Vec<u8>> {
    for moves in [twist_move.moves(), flip_move.moves(), slice_move.moves()] {
        assert_eq!(moves, MoveSet::ALL.iter().collect::<Vec<_>>());
    }
    let space = Phase1Space {
        sym,
        twist_move,
        flip_move,
        slice_move,
    };
    DistanceTable::build_observed(id, &space, [0], observe)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::coord::move_table::Product;
    use crate::coord::sym_coord::conjugation_walk;

    /// The walk over every flip-slice value that `ConjugateByY` replaces agrees with it.
    #[test]
    fn conjugation_by_y_agrees_with_the_walk() {
        let flip_move = MoveTable::<Flip>::new(MoveSet::ALL);
        let slice_move = MoveTable::<UdSlice>::new(MoveSet::ALL);
        let walked = conjugation_walk(&Product::new(&flip_move, &slice_move), &[Symmetry::Y]);
        let by_y = ConjugateByY::new();
        let n_slice = UdSlice::COUNT as u32;
        for raw in 0..N_FLIP_SLICE as u32 {
            let (flip, slice) = by_y.conjugate(raw / n_slice, raw % n_slice);
            assert_eq!(flip * n_slice + slice, walked[raw as usize], "{raw}");
        }
    }

    fn flip_slice_of(cube: &Cube) -> u32 {
        Flip::from_cube(cube) * UdSlice::COUNT as u32 + UdSlice::from_cube(cube)
    }

    /// Every raw flip-slice has a class whose representative is the cube's conjugate by the
    /// class symmetry, and the twist conjugation agrees (the distance table itself is checked by
    /// the two-phase solver's tests, which build it).
    #[test]
    fn classes_agree_with_conjugated_cubes() {
        let twist_move = MoveTable::<Twist>::new(MoveSet::ALL);
        let flip_move = MoveTable::<Flip>::new(MoveSet::ALL);
        let slice_move = MoveTable::<UdSlice>::new(MoveSet::ALL);
        let sym = FlipSliceSym::new(&twist_move, &flip_move, &slice_move);
        assert_eq!(sym.reps.len(), N_FLIP_SLICE_CLASS);
        assert_eq!(sym.stabilizers[0], u16::MAX);
        let syms = ud_symmetries();
        let mut state = 99u64;
        for _ in 0..2000 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let raw = (state >> 33) as u32 % N_FLIP_SLICE as u32;
            let cube = flip_slice_cube(raw / UdSlice::COUNT as u32, raw % UdSlice::COUNT as u32)
                .compose(&Twist::to_cube((state >> 13) as u32 % 2187));
            let raw = flip_slice_of(&cube);
            let (class, k) = sym.class_and_sym(raw);
            let rep = syms[k as usize].conjugate(&cube);
            assert_eq!(flip_slice_of(&rep), sym.reps[class as usize]);
            assert_eq!(
                Twist::from_cube(&rep),
                sym.twist_conj[(Twist::from_cube(&cube) * 16 + k) as usize] as u32
            );
        }
    }
}
