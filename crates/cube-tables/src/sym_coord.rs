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
//! - [`sym_distance_table`]: a breadth-first search over (class, other coordinate), marking every
//!   entry a self-symmetric representative makes equivalent.

use std::collections::VecDeque;

use cube_core::{Face, Symmetry};
use rayon::prelude::*;

use crate::coord::Coord;
use crate::move_table::MoveTable;
use crate::prune::DistanceTable;

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
    let n_syms = syms.len();
    let columns: Vec<Vec<usize>> = moves
        .moves()
        .iter()
        .map(|&m| {
            syms.iter()
                .map(|s| {
                    let conjugated = s.conjugate_move(m);
                    moves
                        .moves()
                        .iter()
                        .position(|&c| c == conjugated)
                        .expect("the move set is closed under the symmetries")
                })
                .collect()
        })
        .collect();
    let mut table = vec![u16::MAX; C::COUNT * n_syms];
    table[..n_syms].fill(0);
    let mut queue = VecDeque::from([0u32]);
    while let Some(raw) = queue.pop_front() {
        for (column, conjugated_columns) in columns.iter().enumerate() {
            let next = moves.get(raw, column) as usize;
            if table[next * n_syms] != u16::MAX {
                continue;
            }
            for (k, &conjugated_column) in conjugated_columns.iter().enumerate() {
                let from = table[raw as usize * n_syms + k] as u32;
                table[next * n_syms + k] = moves.get(from, conjugated_column) as u16;
            }
            queue.push_back(next as u32);
        }
    }
    assert!(
        table.iter().all(|&e| e != u16::MAX),
        "every {} is reached from 0",
        C::NAME
    );
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

/// States per rayon task in a breadth-first level.
const STATES_PER_TASK: usize = 1 << 13;

/// Distances to (0, 0) over the product of a symmetry-reduced coordinate `A` and a raw
/// coordinate `B`: entry `class * B::COUNT + b` is the distance of `(rep(class), b)`. A lookup of
/// `(a, b)` reads `(class, conj(b, k))` for `(class, k) = sym.class_and_sym(a)`; `b_conj` is
/// `B`'s [`conjugation_table`] over the same symmetries.
///
/// Levels go forward from the frontier while it is small (marking, for a representative fixed
/// by some symmetries, every entry those symmetries make equivalent) and backward from the
/// unreached entries once it is large, both over rayon tasks.
///
/// # Panics
/// If the two move tables have different moves, or the moves are not closed under inverses.
pub fn sym_distance_table<A: Coord, B: Coord>(
    sym: &SymCoord,
    a_moves: &MoveTable<A>,
    b_moves: &MoveTable<B>,
    b_conj: &[u16],
) -> DistanceTable {
    use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

    let moves = a_moves.moves();
    assert_eq!(moves, b_moves.moves(), "the coordinates share their moves");
    assert!(moves.iter().all(|m| moves.contains(&m.inverse())));
    let n_b = B::COUNT;
    let n_syms = sym.n_syms();
    assert_eq!(b_conj.len(), n_b * n_syms);
    let n_states = sym.n_classes() * n_b;
    const UNREACHED: u8 = DistanceTable::UNREACHED;
    let cells: Vec<AtomicU8> = (0..n_states).map(|_| AtomicU8::new(UNREACHED)).collect();
    cells[0].store(0, Relaxed);
    let neighbour = |class: u32, b: u32, column: usize| -> (u32, u32) {
        let a2 = a_moves.get(sym.rep(class), column);
        let b2 = b_moves.get(b, column);
        let (class2, k) = sym.class_and_sym(a2);
        (class2, b_conj[b2 as usize * n_syms + k as usize] as u32)
    };
    let n_moves = moves.len();
    let n_tasks = n_states.div_ceil(STATES_PER_TASK);
    let mut n_reached = 1usize;
    let mut frontier = 1usize;
    for depth in 0..UNREACHED - 1 {
        let unreached = n_states - n_reached;
        if frontier == 0 || unreached == 0 {
            break;
        }
        let backward = frontier * 2 > unreached;
        let next = depth + 1;
        let found: usize = (0..n_tasks)
            .into_par_iter()
            .map(|task| {
                let mut found = 0;
                let end = ((task + 1) * STATES_PER_TASK).min(n_states);
                for state in task * STATES_PER_TASK..end {
                    let value = cells[state].load(Relaxed);
                    let (class, b) = ((state / n_b) as u32, (state % n_b) as u32);
                    if backward && value == UNREACHED {
                        let reached = (0..n_moves).any(|column| {
                            let (class2, b2) = neighbour(class, b, column);
                            cells[class2 as usize * n_b + b2 as usize].load(Relaxed) == depth
                        });
                        if reached {
                            cells[state].store(next, Relaxed);
                            found += 1;
                        }
                    } else if !backward && value == depth {
                        for column in 0..n_moves {
                            let (class2, b2) = neighbour(class, b, column);
                            let mut stabilizer = sym.stabilizer(class2);
                            loop {
                                let k = stabilizer.trailing_zeros();
                                let b3 = if k == 0 {
                                    b2
                                } else {
                                    b_conj[b2 as usize * n_syms + k as usize] as u32
                                };
                                let cell = &cells[class2 as usize * n_b + b3 as usize];
                                if cell.load(Relaxed) == UNREACHED
                                    && cell
                                        .compare_exchange(UNREACHED, next, Relaxed, Relaxed)
                                        .is_ok()
                                {
                                    found += 1;
                                }
                                stabilizer &= stabilizer.wrapping_sub(1);
                                if stabilizer == 0 {
                                    break;
                                }
                            }
                        }
                    }
                }
                found
            })
            .sum();
        if found == 0 {
            break;
        }
        n_reached += found;
        frontier = found;
    }
    DistanceTable::from_bytes(cells.into_iter().map(AtomicU8::into_inner).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coord::{Flip, Twist, UdSlice};
    use crate::move_table::Product;
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
        let reduced = sym_distance_table(&twist, &twist_move, &slice_move, &slice_conj);
        assert!(reduced.is_complete());
        let full = DistanceTable::build(&Product::new(&twist_move, &slice_move), [0]);
        for t in 0..Twist::COUNT as u32 {
            let (class, k) = twist.class_and_sym(t);
            for s in 0..UdSlice::COUNT as u32 {
                let index = class * 495 + slice_conj[s as usize * 8 + k as usize] as u32;
                assert_eq!(reduced.get(index), full.get(t * 495 + s), "{t} {s}");
            }
        }
    }
}
