//! Symmetry-reduced coordinates and the distance tables over them ("XSym" and "XConj" in
//! min2phase, `src/CubieCube.java` and `src/CoordCube.java`).
//!
//! Conjugating a cube by a symmetry that keeps every axis in place (the identity, the half turns
//! x2, y2 and z2, and those four followed by the mirror in the M plane: [`axis_symmetries`])
//! conjugates its twist, flip and UD-slice coordinates by fixed maps, and keeps the distance to
//! G1 and to the solved cube. So a distance table over twist x UD-slice only needs one twist per
//! class of twists equivalent under those symmetries (324 classes instead of 2187; 336 instead of
//! 2048 for the flip): the entry of `(twist, slice)` is the entry of `(rep, conj(slice))`, where
//! the symmetry that carries `twist` to its class representative `rep` also conjugates the slice.
//!
//! - [`conjugation_table`]: a coordinate conjugated by each symmetry, derived from its move table
//!   (conjugation commutes with moves, and every coordinate is reached from 0).
//! - [`SymCoord`]: the classes of a coordinate, raw value to (class, symmetry) and back, and each
//!   representative's own symmetries.
//! - [`sym_distance_table`]: [`DistanceTable::build`] over (class, other coordinate) as a
//!   [`Space`], whose aliases are the entries a self-symmetric representative makes equivalent.

use std::collections::VecDeque;

use cube_core::{Cube, Face, Move, Symmetry};

use crate::coord::Coord;
use crate::coord::move_table::{MoveTable, Space};
use crate::coord::prune::DistanceTable;
use crate::file::id::TableId;
use crate::file::table::PruneTable;

/// The eight symmetries that map each face to itself or its opposite (so each axis to itself),
/// identity first, in index order: the group D2h. They keep the corner twist relative to U/D,
/// the edge flip relative to F/B and the UD-slice positions well defined, and G1 in place.
///
/// ```
/// use cube_core::Symmetry;
/// let syms = cube_tables::sym_coord::axis_symmetries();
/// assert_eq!(syms[0], Symmetry::IDENTITY);
/// assert_eq!(syms.iter().filter(|s| s.is_mirror()).count(), 4);
/// ```
pub fn axis_symmetries() -> [Symmetry; 8] {
    let keeps_axes = |s: &Symmetry| {
        [Face::U, Face::R, Face::F]
            .into_iter()
            .all(|f| s.map_face(f).axis() == f.axis())
    };
    let found: Vec<Symmetry> = Symmetry::all().filter(keeps_axes).collect();
    found
        .try_into()
        .expect("eight symmetries keep each axis in place")
}

/// `table[raw * syms.len() + k]`: the coordinate of `syms[k].conjugate(cube)` for any cube whose
/// coordinate is `raw`, derived from the move table by a walk from 0 (conjugation maps 0 to 0 and
/// the coordinate after `m` to the coordinate after `syms[k].conjugate_move(m)`).
///
/// # Panics
/// If the table's moves are not closed under conjugation by `syms`, or some value is not reached
/// from 0 by its moves.
pub fn conjugation_table<C: Coord>(moves: &MoveTable<C>, syms: &[Symmetry]) -> Vec<u16> {
    let table = conjugation_walk(moves, syms);
    assert!(
        table.iter().all(|&e| e != u32::MAX),
        "every {} is reached from 0",
        C::NAME
    );
    table.into_iter().map(|e| e as u16).collect()
}

/// [`conjugation_table`] over any [`Space`] (a product of coordinates, say) whose state 0 every
/// symmetry fixes; `u32::MAX` marks a state the moves do not reach from 0.
///
/// # Panics
/// If the space's moves are not closed under conjugation by `syms`.
pub(crate) fn conjugation_walk<S: Space>(space: &S, syms: &[Symmetry]) -> Vec<u32> {
    let n_syms = syms.len();
    let moves = space.moves();
    let columns: Vec<Vec<usize>> = moves
        .iter()
        .map(|&m| {
            syms.iter()
                .map(|s| {
                    let conjugated = s.conjugate_move(m);
                    moves
                        .iter()
                        .position(|&c| c == conjugated)
                        .expect("the move set is closed under the symmetries")
                })
                .collect()
        })
        .collect();
    let mut table = vec![u32::MAX; space.count() * n_syms];
    table[..n_syms].fill(0);
    let mut queue = VecDeque::from([0u32]);
    while let Some(raw) = queue.pop_front() {
        for (column, conjugated_columns) in columns.iter().enumerate() {
            let next = space.step(raw, column) as usize;
            if table[next * n_syms] != u32::MAX {
                continue;
            }
            for (k, &conjugated_column) in conjugated_columns.iter().enumerate() {
                let from = table[raw as usize * n_syms + k];
                table[next * n_syms + k] = space.step(from, conjugated_column);
            }
            queue.push_back(next as u32);
        }
    }
    table
}

/// A coordinate reduced by a group of symmetries: every raw value is `conj(rep, sym)` for one
/// class representative `rep` (the smallest raw value of its class).
#[derive(Clone, Debug)]
pub struct SymCoord {
    sym_bits: u32,
    /// `class << sym_bits | k`: `conjugate(raw, k)` is the representative of `class`.
    raw_to_sym: Vec<u16>,
    reps: Vec<u16>,
    /// Bit `k` is set when `syms[k]` fixes the representative.
    stabilizers: Vec<u16>,
    conj: Vec<u16>,
}

impl SymCoord {
    /// The classes of a coordinate from its [`conjugation_table`] over a group of `n_syms`
    /// symmetries, identity first.
    ///
    /// # Panics
    /// If `n_syms` is not a power of two up to 16, or the table's length is not a multiple of it.
    pub fn new(conj: Vec<u16>, n_syms: usize) -> SymCoord {
        assert!(n_syms.is_power_of_two() && n_syms <= 16);
        assert_eq!(conj.len() % n_syms, 0);
        let sym_bits = n_syms.trailing_zeros();
        let count = conj.len() / n_syms;
        let mut raw_to_sym = vec![u16::MAX; count];
        let mut reps = Vec::new();
        let mut stabilizers = Vec::new();
        for raw in 0..count {
            if raw_to_sym[raw] != u16::MAX {
                continue;
            }
            // `raw` is the smallest value of a new class: its representative.
            let class = reps.len() as u16;
            reps.push(raw as u16);
            let mut stabilizer = 0u16;
            for k in 0..n_syms {
                let image = conj[raw * n_syms + k] as usize;
                if image == raw {
                    stabilizer |= 1 << k;
                }
                // `image = conj(raw, k)`, so `raw = conj(image, k⁻¹)`: find that k⁻¹ by search.
                if raw_to_sym[image] == u16::MAX {
                    let back = (0..n_syms)
                        .find(|&j| conj[image * n_syms + j] as usize == raw)
                        .expect("the symmetries form a group");
                    raw_to_sym[image] = class << sym_bits | back as u16;
                }
            }
            stabilizers.push(stabilizer);
        }
        SymCoord {
            sym_bits,
            raw_to_sym,
            reps,
            stabilizers,
            conj,
        }
    }

    /// The number of classes.
    pub fn n_classes(&self) -> usize {
        self.reps.len()
    }

    /// The number of symmetries.
    pub fn n_syms(&self) -> usize {
        1 << self.sym_bits
    }

    /// The class of `raw` and the index of a symmetry that carries `raw` to the representative.
    #[inline]
    pub fn class_and_sym(&self, raw: u32) -> (u32, u32) {
        let packed = self.raw_to_sym[raw as usize] as u32;
        (packed >> self.sym_bits, packed & ((1 << self.sym_bits) - 1))
    }

    /// The representative (a raw value) of `class`.
    #[inline]
    pub fn rep(&self, class: u32) -> u32 {
        self.reps[class as usize] as u32
    }

    /// The symmetries (bit `k` for index `k`) that fix the representative of `class`.
    pub fn stabilizer(&self, class: u32) -> u16 {
        self.stabilizers[class as usize]
    }

    /// `raw` conjugated by symmetry `k`.
    #[inline]
    pub fn conjugate(&self, raw: u32, k: u32) -> u32 {
        self.conj[((raw as usize) << self.sym_bits) + k as usize] as u32
    }
}

/// The product of a symmetry-reduced coordinate `A` and a raw coordinate `B` as a [`Space`]:
/// state `class * B::COUNT + b` is `(rep(class), b)`. A representative fixed by some symmetries
/// stands for the same cube state under each `b` those symmetries conjugate it to: those are its
/// [aliases](Space::aliases).
struct SymProduct<'a, A: Coord, B: Coord> {
    sym: &'a SymCoord,
    a_moves: &'a MoveTable<A>,
    b_moves: &'a MoveTable<B>,
    /// `B`'s [`conjugation_table`] over the symmetries of `sym`.
    b_conj: &'a [u16],
}

impl<A: Coord, B: Coord> SymProduct<'_, A, B> {
    /// The state of `(class, raw b)` after conjugating `b` by symmetry `k`.
    #[inline]
    fn index(&self, class: u32, b: u32, k: u32) -> u32 {
        let b = self.b_conj[b as usize * self.sym.n_syms() + k as usize] as u32;
        class * B::COUNT as u32 + b
    }

    /// The state of raw `(a, b)`.
    #[inline]
    fn of_raw(&self, a: u32, b: u32) -> u32 {
        let (class, k) = self.sym.class_and_sym(a);
        self.index(class, b, k)
    }
}

impl<A: Coord, B: Coord> Space for SymProduct<'_, A, B> {
    fn count(&self) -> usize {
        self.sym.n_classes() * B::COUNT
    }

    fn moves(&self) -> &[Move] {
        self.a_moves.moves()
    }

    #[inline]
    fn neighbours(&self, state: u32, out: &mut [u32]) {
        for (column, o) in out.iter_mut().enumerate() {
            *o = self.step(state, column);
        }
    }

    #[inline]
    fn step(&self, state: u32, column: usize) -> u32 {
        let (class, b) = (state / B::COUNT as u32, state % B::COUNT as u32);
        let a2 = self.a_moves.get(self.sym.rep(class), column);
        self.of_raw(a2, self.b_moves.get(b, column))
    }

    fn project(&self, cube: &Cube) -> u32 {
        self.of_raw(A::from_cube(cube), B::from_cube(cube))
    }

    #[inline]
    fn aliases(&self, state: u32, out: &mut [u32; 16]) -> usize {
        let (class, b) = (state / B::COUNT as u32, state % B::COUNT as u32);
        // The identity is in every stabilizer, so `state` itself comes first.
        let mut stabilizer = self.sym.stabilizer(class);
        let mut n = 0;
        while stabilizer != 0 {
            out[n] = self.index(class, b, stabilizer.trailing_zeros());
            stabilizer &= stabilizer - 1;
            n += 1;
        }
        n
    }
}

/// Distances to (0, 0) over the product of a symmetry-reduced coordinate `A` and a raw
/// coordinate `B`: entry `class * B::COUNT + b` is the distance of `(rep(class), b)`. A lookup of
/// `(a, b)` reads `(class, conj(b, k))` for `(class, k) = sym.class_and_sym(a)`; `b_conj` is
/// `B`'s [`conjugation_table`] over the same symmetries. The search is
/// [`DistanceTable::build_observed`]'s, which marks every entry a self-symmetric representative
/// makes equivalent, and calls `observe` with the states scanned as it goes. The table is named
/// `id`.
///
/// # Panics
/// If the two move tables have different moves, or the moves are not closed under inverses.
pub fn sym_distance_table<A: Coord, B: Coord>(
    id: TableId,
    sym: &SymCoord,
    a_moves: &MoveTable<A>,
    b_moves: &MoveTable<B>,
    b_conj: &[u16],
    observe: &(dyn Fn(usize) + Sync),
) -> PruneTable<Vec<u8>> {
    assert_eq!(
        a_moves.moves(),
        b_moves.moves(),
        "the coordinates share their moves"
    );
    assert_eq!(b_conj.len(), B::COUNT * sym.n_syms());
    let space = SymProduct {
        sym,
        a_moves,
        b_moves,
        b_conj,
    };
    DistanceTable::build_observed(id, &space, [0], observe)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coord::move_table::Product;
    use crate::coord::{Flip, Twist, UdSlice};
    use cube_core::{Cube, MoveSet};

    /// The table agrees with conjugating a representative cube, for every value and symmetry.
    fn check_conjugation<C: Coord>() -> Vec<u16> {
        let syms = axis_symmetries();
        let table = conjugation_table(&MoveTable::<C>::new(MoveSet::ALL), &syms);
        for raw in 0..C::COUNT as u32 {
            let cube: Cube = C::to_cube(raw);
            for (k, s) in syms.iter().enumerate() {
                assert_eq!(
                    table[raw as usize * 8 + k] as u32,
                    C::from_cube(&s.conjugate(&cube)),
                    "{} {raw} {k}",
                    C::NAME
                );
            }
        }
        table
    }

    #[test]
    fn class_counts_match_min2phase() {
        // min2phase `src/CoordCube.java`: N_TWIST_SYM = 324, N_FLIP_SYM = 336.
        let twist = SymCoord::new(check_conjugation::<Twist>(), 8);
        let flip = SymCoord::new(check_conjugation::<Flip>(), 8);
        check_conjugation::<UdSlice>();
        assert_eq!(twist.n_classes(), 324);
        assert_eq!(flip.n_classes(), 336);
        for raw in 0..Twist::COUNT as u32 {
            let (class, k) = twist.class_and_sym(raw);
            assert_eq!(twist.conjugate(raw, k), twist.rep(class));
        }
        assert_eq!(twist.stabilizer(0), 0xff);
    }

    #[test]
    fn reduced_table_equals_the_full_table() {
        let syms = axis_symmetries();
        let twist_move = MoveTable::<Twist>::new(MoveSet::ALL);
        let slice_move = MoveTable::<UdSlice>::new(MoveSet::ALL);
        let twist = SymCoord::new(conjugation_table(&twist_move, &syms), 8);
        let slice_conj = conjugation_table(&slice_move, &syms);
        let id = TableId::from_static("unit");
        let reduced =
            sym_distance_table(id, &twist, &twist_move, &slice_move, &slice_conj, &|_| {});
        assert!(reduced.is_complete());
        let full = DistanceTable::build(id, &Product::new(&twist_move, &slice_move), [0]);
        for t in 0..Twist::COUNT as u32 {
            let (class, k) = twist.class_and_sym(t);
            for s in 0..UdSlice::COUNT as u32 {
                let index = class * 495 + slice_conj[s as usize * 8 + k as usize] as u32;
                assert_eq!(
                    reduced.get(index as usize),
                    full.get((t * 495 + s) as usize),
                    "{t} {s}"
                );
            }
        }
    }
}
