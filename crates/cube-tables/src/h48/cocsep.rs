//! The corner part of the H48 coordinate: `cocsep`, the corner twist and which positions hold the
//! tetrad {URF, ULB, DLF, DRB}, reduced by all 48 symmetries to 3,393 classes.
//!
//! The representatives are chosen by nissy-core's rule (`src/solvers/h48/gendata_cocsep.h`,
//! `gendata_cocsep_dfs`), so that tables over them can be checked against nissy-core's published
//! histograms: an iterative deepening from the solved cube (maximum depth 0 to 9), moves in the
//! order U U2 U' D D2 D' R R2 R' L L2 L' F F2 F' B B2 B', a visited mark per iteration, and the first
//! unclassed coset reached at an iteration's depth becomes the representative of a new class. The
//! symmetry stored for each value (`ttrep`) is the inverse of the first symmetry (in index order)
//! that carries the representative to it.

use std::sync::OnceLock;

use cube_core::{Cube, Face, Move, Symmetry};
use rayon::prelude::*;

use crate::coord::move_table::Space;
use crate::coord::sym_coord::conjugation_walk;
use crate::corners::{twist_rank, twist_unrank};

/// The number of raw `cocsep` values: 3^7 twists x 70 tetrad placements.
pub(crate) const COCSEP_COUNT: usize = 153_090;

/// The number of `cocsep` classes under the 48 symmetries.
#[cfg(test)]
pub(crate) const COCSEP_CLASSES: usize = 3_393;

/// The number of placements of a 4-element set among 8 positions: C(8, 4).
pub(crate) const N_SEP: usize = 70;

/// Whether corner piece `piece` (Kociemba's numbering) is in the tetrad {URF, ULB, DLF, DRB}
/// = {0, 2, 5, 7}: the tetrad the solved cube's positions 0, 2, 5, 7 hold.
#[inline]
pub(crate) const fn tetrad(piece: u8) -> u8 {
    (piece ^ (piece >> 2)) & 1 ^ 1
}

/// The masks of 4-element subsets of 8 positions, in increasing order: `SEP_MASKS[rank]`.
pub(crate) const SEP_MASKS: [u8; N_SEP] = {
    let mut out = [0u8; N_SEP];
    let mut n = 0;
    let mut mask = 0usize;
    while mask < 256 {
        if (mask as u8).count_ones() == 4 {
            out[n] = mask as u8;
            n += 1;
        }
        mask += 1;
    }
    out
};

/// `SEP_RANK[mask]`: the rank of an 8-bit mask of popcount 4 in [`SEP_MASKS`] (`u8::MAX` for
/// other masks).
pub(crate) const SEP_RANK: [u8; 256] = {
    let mut out = [u8::MAX; 256];
    let mut rank = 0;
    while rank < N_SEP {
        out[SEP_MASKS[rank] as usize] = rank as u8;
        rank += 1;
    }
    out
};

/// Kociemba's corner positions in H48 order (UFR UBL DFL DBR UFL UBR DFR DBL): the tetrad
/// {URF, ULB, DLF, DRB} comes first, so the solved cube's `csep` is 0.
const CORNER_H48_ORDER: [usize; 8] = [0, 2, 5, 7, 1, 3, 4, 6];

/// `CSEP_RANK[mask]`: `csep` of the mask of Kociemba positions that hold the tetrad (bit `i` for
/// position `i`): the rank in [`SEP_MASKS`] of the mask in H48 position order.
pub(crate) const CSEP_RANK: [u8; 256] = {
    let mut out = [u8::MAX; 256];
    let mut mask = 0;
    while mask < 256 {
        let mut h48 = 0usize;
        let mut j = 0;
        while j < 8 {
            h48 |= (mask >> CORNER_H48_ORDER[j] & 1) << j;
            j += 1;
        }
        out[mask] = SEP_RANK[h48];
        mask += 1;
    }
    out
};

/// `CSEP_MASKS[csep]`: the Kociemba-position mask of `csep` (the inverse of [`CSEP_RANK`]).
const CSEP_MASKS: [u8; N_SEP] = {
    let mut out = [0u8; N_SEP];
    let mut mask = 0;
    while mask < 256 {
        if CSEP_RANK[mask] != u8::MAX {
            out[CSEP_RANK[mask] as usize] = mask as u8;
        }
        mask += 1;
    }
    out
};

/// The raw corner coset coordinate of `cube`: `co * 70 + csep`, where `co` is Kociemba's twist
/// coordinate (`twist_rank`) and `csep` the rank (among the 70 masks of
/// four of eight positions, in increasing order) of the positions that hold the tetrad
/// {URF, ULB, DLF, DRB}, positions in H48 order (UFR UBL DFL DBR UFL UBR DFR DBL), so that the
/// solved cube's value is 0. `cocsep(x)` depends only on the coset `G x`, where G holds the corner
/// states that keep every corner in its tetrad and unturned; in particular a half turn done
/// first does not change it.
///
/// ```
/// use cube_core::{Cube, Move};
/// use cube_tables::h48::cocsep;
/// let x = Cube::SOLVED.apply_moves(&[Move::R1, Move::U1]);
/// assert_eq!(cocsep(&Cube::SOLVED), cocsep(&Cube::from_move(Move::U2)));
/// assert_eq!(cocsep(&x), cocsep(&Cube::from_move(Move::F2).compose(&x)));
/// ```
#[inline]
pub fn cocsep(cube: &Cube) -> u32 {
    let perm = cube.corner_perm();
    let mut mask = 0usize;
    for (position, &piece) in perm.iter().enumerate() {
        mask |= usize::from(tetrad(piece)) << position;
    }
    u32::from(twist_rank(&cube.corner_ori())) * N_SEP as u32 + u32::from(CSEP_RANK[mask])
}

/// A cube whose [`cocsep`] is `raw` (edges solved; it need not be solvable).
pub(crate) fn cocsep_cube(raw: u32) -> Cube {
    let twists = twist_unrank((raw / N_SEP as u32) as u16);
    let mask = CSEP_MASKS[(raw % N_SEP as u32) as usize];
    let (mut a, mut b) = ([0u8, 2, 5, 7].into_iter(), [1u8, 3, 4, 6].into_iter());
    let perm: [u8; 8] = std::array::from_fn(|position| {
        if mask >> position & 1 == 1 {
            a.next()
        } else {
            b.next()
        }
        .expect("four positions of each tetrad")
    });
    Cube::from_parts(perm, twists, std::array::from_fn(|i| i as u8), [0; 12])
        .expect("a permutation with twists in range is well formed")
}

/// The 18 moves in nissy-core's order: U U2 U' D D2 D' R R2 R' L L2 L' F F2 F' B B2 B'.
pub(crate) const NISSY_MOVES: [Move; 18] = {
    let faces = [Face::U, Face::D, Face::R, Face::L, Face::F, Face::B];
    let mut out = [Move::U1; 18];
    let mut i = 0;
    while i < 18 {
        out[i] = Move::new(faces[i / 3], (i % 3) as u8 + 1);
        i += 1;
    }
    out
};

/// The move table of `cocsep` (columns in [`Move::ALL`] order), as a [`Space`].
struct CocsepMoves {
    entries: Vec<u32>,
}

impl CocsepMoves {
    fn new() -> CocsepMoves {
        let entries = (0..COCSEP_COUNT as u32)
            .into_par_iter()
            .flat_map_iter(|raw| {
                let cube = cocsep_cube(raw);
                Move::ALL.map(|m| cocsep(&cube.apply_move(m)))
            })
            .collect();
        CocsepMoves { entries }
    }
}

impl Space for CocsepMoves {
    fn count(&self) -> usize {
        COCSEP_COUNT
    }

    fn moves(&self) -> &[Move] {
        &Move::ALL
    }

    fn neighbours(&self, state: u32, out: &mut [u32]) {
        out.copy_from_slice(&self.entries[state as usize * 18..state as usize * 18 + 18]);
    }

    #[inline]
    fn step(&self, state: u32, column: usize) -> u32 {
        self.entries[state as usize * 18 + column]
    }

    fn project(&self, cube: &Cube) -> u32 {
        cocsep(cube)
    }
}

/// The 48-fold reduction of [`cocsep`]: for every raw value its class, a symmetry that carries
/// it to the class representative, and its distance; for every class its representative and its
/// stabilizer. Built once per process ([`Cocsep::get`], about 0.2 s on 2 cores), 612 KB of
/// entries plus the move table of the representatives.
#[derive(Clone, Debug)]
pub struct Cocsep {
    /// `class | ttrep << 12 | self-symmetric << 18 | distance << 24`, per raw value.
    entries: Vec<u32>,
    /// The raw value of each class's representative.
    reps: Vec<u32>,
    /// Bit `k` is set when symmetry `k` fixes the representative's coset.
    stabilizers: Vec<u64>,
    /// `moves[raw * 18 + m]`: the raw value after move `m` (index order).
    moves: Vec<u32>,
}

/// One raw value's entry of [`Cocsep`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CocsepEntry(u32);

impl CocsepEntry {
    /// The class, `0..3393`.
    #[inline]
    pub const fn class(self) -> u32 {
        self.0 & 0xFFF
    }

    /// A symmetry that carries the value to its class representative: for a cube `x` with this
    /// value, `ttrep().conjugate(x)` has the representative's value.
    #[inline]
    pub const fn ttrep(self) -> Symmetry {
        Symmetry::from_index((self.0 >> 12 & 0x3F) as usize)
    }

    /// The index of [`CocsepEntry::ttrep`], `0..48`.
    #[inline]
    pub const fn ttrep_index(self) -> usize {
        (self.0 >> 12 & 0x3F) as usize
    }

    /// Whether some symmetry other than the identity fixes the class representative.
    #[inline]
    pub const fn self_symmetric(self) -> bool {
        self.0 >> 18 & 1 == 1
    }

    /// The distance of the corner coset (half-turn metric): a lower bound on the cube's distance.
    #[inline]
    pub const fn distance(self) -> u8 {
        (self.0 >> 24) as u8
    }

    /// The packed form: `class | ttrep << 12 | self_symmetric << 18 | distance << 24`.
    #[inline]
    pub const fn to_bits(self) -> u32 {
        self.0
    }
}

impl Cocsep {
    /// The table, built on first use and shared by the whole process.
    pub fn get() -> &'static Cocsep {
        static TABLE: OnceLock<Cocsep> = OnceLock::new();
        TABLE.get_or_init(Cocsep::build)
    }

    fn build() -> Cocsep {
        let moves = CocsepMoves::new();
        let syms: Vec<Symmetry> = Symmetry::all().collect();
        // conj[raw * 48 + k]: the value of `syms[k].conjugate(x)` for x of value `raw`.
        let conj = conjugation_walk(&moves, &syms);
        assert!(
            conj.iter().all(|&c| c != u32::MAX),
            "every cocsep value is reached from the solved cube"
        );
        let mut classes = Classify {
            moves: &moves.entries,
            conj: &conj,
            entries: vec![u32::MAX; COCSEP_COUNT],
            visited: vec![false; COCSEP_COUNT],
            reps: Vec::new(),
            stabilizers: Vec::new(),
        };
        let column: [usize; 18] = NISSY_MOVES.map(Move::index);
        for max_depth in 0..10 {
            classes.visited.fill(false);
            classes.dfs(0, 0, max_depth, &column);
        }
        assert!(
            classes.entries.iter().all(|&e| e != u32::MAX),
            "every cocsep value is within 9 moves"
        );
        // Every value of a class has a stabilizer conjugate to the representative's.
        for e in classes.entries.iter_mut() {
            if classes.stabilizers[(*e & 0xFFF) as usize] != 1 {
                *e |= 1 << 18;
            }
        }
        Cocsep {
            entries: classes.entries,
            reps: classes.reps,
            stabilizers: classes.stabilizers,
            moves: moves.entries,
        }
    }

    /// The entry of raw value `raw` (`< 153,090`).
    ///
    /// # Panics
    /// If `raw >= COCSEP_COUNT`.
    #[inline]
    pub fn entry(&self, raw: u32) -> CocsepEntry {
        CocsepEntry(self.entries[raw as usize])
    }

    /// The entry of `cube`'s [`cocsep`].
    #[inline]
    pub fn of_cube(&self, cube: &Cube) -> CocsepEntry {
        self.entry(cocsep(cube))
    }

    /// Every raw value's packed entry ([`CocsepEntry::to_bits`]), indexed by raw value.
    pub fn entries(&self) -> &[u32] {
        &self.entries
    }

    /// The number of classes: 3,393.
    pub fn n_classes(&self) -> usize {
        self.reps.len()
    }

    /// The raw value of the representative of `class`.
    #[inline]
    pub fn rep(&self, class: u32) -> u32 {
        self.reps[class as usize]
    }

    /// The symmetries (bit `k` for [`Symmetry::from_index`]`(k)`) that fix the representative of
    /// `class`; bit 0, the identity, is always set.
    #[inline]
    pub fn stabilizer(&self, class: u32) -> u64 {
        self.stabilizers[class as usize]
    }

    /// The raw value after move `m` from raw value `raw`.
    #[inline]
    pub fn apply(&self, raw: u32, m: Move) -> u32 {
        self.moves[raw as usize * 18 + m.index()]
    }
}

/// The state of nissy-core's classifying iterative deepening.
struct Classify<'a> {
    moves: &'a [u32],
    conj: &'a [u32],
    entries: Vec<u32>,
    visited: Vec<bool>,
    reps: Vec<u32>,
    stabilizers: Vec<u64>,
}

impl Classify<'_> {
    fn depth_of(&self, raw: u32) -> u32 {
        match self.entries[raw as usize] {
            u32::MAX => u32::MAX,
            e => e >> 24,
        }
    }

    fn dfs(&mut self, raw: u32, depth: u32, max_depth: u32, column: &[usize; 18]) {
        if self.depth_of(raw) < depth || self.visited[raw as usize] {
            return;
        }
        self.visited[raw as usize] = true;
        if depth < max_depth {
            for &c in column {
                let next = self.moves[raw as usize * 18 + c];
                self.dfs(next, depth + 1, max_depth, column);
            }
            return;
        }
        if self.entries[raw as usize] != u32::MAX {
            return;
        }
        let class = self.reps.len() as u32;
        let mut stabilizer = 0u64;
        for k in 0..48 {
            let image = self.conj[raw as usize * 48 + k];
            if image == raw {
                stabilizer |= 1 << k;
            }
            if self.entries[image as usize] != u32::MAX {
                continue;
            }
            self.visited[image as usize] = true;
            let back = Symmetry::from_index(k).inverse().index() as u32;
            self.entries[image as usize] = class | back << 12 | depth << 24;
        }
        self.reps.push(raw);
        self.stabilizers.push(stabilizer);
    }
}
