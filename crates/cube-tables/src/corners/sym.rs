//! The corner database reduced by the 16 symmetries that keep the U/D axis: 3 MB instead of 44 MB.
//!
//! Conjugating a cube by a symmetry keeps its distance, and a symmetry that maps the U/D axis to
//! itself conjugates the corner permutation and the twist (relative to U/D) each by a fixed map
//! (Kociemba's 16 symmetries of D4h, as in RubiksCube-TwophaseSolver's `twist_conj`). So the
//! corner database only needs one permutation per class of permutations equivalent under them:
//! 2,768 classes x 2,187 twists = 6,053,616 entries, read at `class * 2187 + conj(twist, k)`,
//! where `k` carries the permutation to its class representative. The reduced table is derived
//! from a baked corner database (no search), in a few tens of milliseconds.
//!
//! Each entry also has its *move deltas*: for each of the 18 moves, the distance after the move
//! minus the distance before, plus one (0, 1 or 2: the database is consistent), two bits per move
//! in a `u64` (48 MB in all). A search reads one row per node instead of one entry per child:
//! the children the corners prune are known before any of them is made, and every child's corner
//! distance is exact. A cube conjugated to the representative by symmetry `k` has the deltas of
//! the representative under the conjugated moves ([`SymCorners::conj_moves`]).

use std::path::Path;

use cube_core::{Move, MoveSet};
use rayon::prelude::*;

use super::index::{CornerMoves, TWIST_COUNT};
use crate::coord::move_table::MoveTable;
use crate::coord::phase1::ud_symmetries;
use crate::coord::sym_coord::{SymCoord, conjugation_table};
use crate::coord::{CornerPerm, Twist};
use crate::file::cache::load_or_build_with_outcome;
use crate::file::error::TableError;
use crate::file::id::{Encoding, TableId, TableSpec};
use crate::file::mmap::HugeBuffer;
use crate::file::nibble::{NibbleTable, Nibbles, pack_nibbles};
use crate::file::table::PruneTable;

/// The number of corner permutation classes under the 16 symmetries that keep the U/D axis.
pub const CORNER_PERM_CLASSES: usize = 2768;

/// The corner database reduced by the 16 symmetries that keep the U-D axis (3 MB instead of
/// 44 MB), with each entry's move deltas: how each of the 18 moves changes the distance.
///
/// ```no_run
/// use cube_core::{Cube, Move};
/// use cube_tables::Tier;
/// use cube_tables::pdb::{PdbSet, SymCorners, corner_index};
///
/// let set = PdbSet::load_anonymous(std::path::Path::new("tables"), Tier::Edge6)?;
/// let reduced = SymCorners::new(set.corners());
/// let cube = Cube::SOLVED.apply_moves(&[Move::R1, Move::U1]);
/// assert_eq!(reduced.get_cube(&cube), set.corners().get(corner_index(&cube)));
/// # Ok::<(), cube_tables::TableError>(())
/// ```
#[derive(Clone, Debug)]
pub struct SymCorners {
    /// `class << 4 | k` for each permutation rank: `k` carries it to the representative.
    perm_class: Vec<u16>,
    /// `twist_conj[twist * 16 + k]`: the twist of a cube conjugated by symmetry `k`.
    twist_conj: Vec<u16>,
    /// `conj_moves[k][m]`: the index of move `m` conjugated by symmetry `k`.
    conj_moves: [[u8; 18]; 16],
    table: NibbleTable,
    /// Per entry, 2 bits per move of the representative: distance after minus before, plus one.
    deltas: HugeBuffer<u64>,
}

/// The cache files of [`SymCorners::load_or_build`], beside the tables: the reduced table (3 MB,
/// the distances of the class representatives, 4 bits an entry) and its move deltas (48 MB, each
/// entry's `u64` little-endian, kept as bytes).
pub const SYM_CORNERS_SPECS: [TableSpec; 2] = [
    TableSpec::new(
        TableId::from_static("corners-sym16"),
        Encoding::Nibble,
        reduced_len() as u64,
    ),
    TableSpec::new(
        TableId::from_static("corners-sym16-deltas"),
        Encoding::Byte,
        reduced_len() as u64 * 8,
    ),
];

/// The number of entries of the reduced table.
const fn reduced_len() -> usize {
    CORNER_PERM_CLASSES * TWIST_COUNT
}

/// What the reduction computes from the move tables alone (a few milliseconds): the classes of
/// the corner permutations and the conjugation maps.
struct Maps {
    perms: SymCoord,
    perm_class: Vec<u16>,
    twist_conj: Vec<u16>,
    conj_moves: [[u8; 18]; 16],
}

impl Maps {
    fn new() -> Maps {
        let syms = ud_symmetries();
        let perms = SymCoord::new(
            conjugation_table(&MoveTable::<CornerPerm>::new(MoveSet::ALL), &syms),
            syms.len(),
        );
        assert_eq!(perms.n_classes(), CORNER_PERM_CLASSES);
        let twist_conj = conjugation_table(&MoveTable::<Twist>::new(MoveSet::ALL), &syms);
        let perm_class: Vec<u16> = (0..super::CORNER_PERM_COUNT as u32)
            .map(|raw| {
                let (class, k) = perms.class_and_sym(raw);
                (class << 4 | k) as u16
            })
            .collect();
        let conj_moves = std::array::from_fn(|k| {
            std::array::from_fn(|m| syms[k].conjugate_move(Move::from_index(m)).index() as u8)
        });
        Maps {
            perms,
            perm_class,
            twist_conj,
            conj_moves,
        }
    }

    /// The reduced table, one byte per entry: the corner database at each class representative.
    ///
    /// # Panics
    /// If `corners` does not have the corner database's number of entries.
    fn reduce<T: AsRef<[u8]> + Sync>(&self, corners: &PruneTable<T>) -> Vec<u8> {
        assert_eq!(
            corners.len(),
            super::CORNER_COUNT,
            "a corner database has 8! x 3^7 entries"
        );
        (0..reduced_len())
            .into_par_iter()
            .map(|i| {
                let rep = self.perms.rep((i / TWIST_COUNT) as u32) as usize;
                corners.get(rep * TWIST_COUNT + i % TWIST_COUNT)
            })
            .collect()
    }

    fn with(self, table: NibbleTable, deltas: HugeBuffer<u64>) -> SymCorners {
        SymCorners {
            perm_class: self.perm_class,
            twist_conj: self.twist_conj,
            conj_moves: self.conj_moves,
            table,
            deltas,
        }
    }
}

impl SymCorners {
    /// The reduced table of the corner database `corners` (which must be a complete, valid
    /// corner database: the reduced table reads it at every class representative).
    ///
    /// # Panics
    /// If `corners` does not have the corner database's number of entries.
    pub fn new<T: AsRef<[u8]> + Sync>(corners: &PruneTable<T>) -> SymCorners {
        let maps = Maps::new();
        let bytes = maps.reduce(corners);
        let deltas = move_deltas(&bytes, &maps);
        let table = NibbleTable::from_storage(pack_nibbles(&bytes), reduced_len());
        maps.with(table.expect("two entries per byte"), deltas)
    }

    /// [`SymCorners::new`] through the cache files [`SYM_CORNERS_SPECS`] in `dir`: read when they
    /// are there and sound (hashed on first use, then trusted while their stamps vouch for them,
    /// as every method cache), else derived from `corners` and written there (a directory that
    /// cannot be written: derived again next time). A one-shot search thus reads 51 MB instead of
    /// deriving them, most of an `optimal` start. The deltas are copied into a [`HugeBuffer`], not
    /// kept mapped: a search reads them at every node, faster from huge pages.
    ///
    /// # Errors
    /// None in practice: those of [`load_or_build_with_outcome`], which fails only when a build
    /// has the wrong length.
    ///
    /// # Panics
    /// As [`SymCorners::new`], when the files must be derived.
    pub fn load_or_build<T: AsRef<[u8]> + Sync>(
        dir: &Path,
        corners: &PruneTable<T>,
    ) -> Result<SymCorners, TableError> {
        let maps = Maps::new();
        let [table_spec, deltas_spec] = &SYM_CORNERS_SPECS;
        // Reduced once if either file must be built.
        let reduced = std::cell::OnceCell::new();
        let reduced = || reduced.get_or_init(|| maps.reduce(corners));
        let (table, _) = load_or_build_with_outcome(dir, table_spec, || pack_nibbles(reduced()))?;
        let table = NibbleTable::from_storage(table.into_memory().into_inner(), reduced_len())?;
        let (file, _) = load_or_build_with_outcome(dir, deltas_spec, || {
            let deltas = move_deltas(reduced(), &maps);
            deltas.iter().flat_map(|d| d.to_le_bytes()).collect()
        })?;
        let mut deltas = HugeBuffer::<u64>::zeroed(reduced_len());
        for (d, le) in deltas.iter_mut().zip(file.payload().chunks_exact(8)) {
            let mut bytes = [0u8; 8];
            bytes.copy_from_slice(le);
            *d = u64::from_le_bytes(bytes);
        }
        Ok(maps.with(table, deltas))
    }

    /// The entry index of the corner coordinate `(perm, twist)` (as in
    /// [`CornerCoord`](super::CornerCoord)).
    #[inline(always)]
    pub fn index(&self, perm: usize, twist: usize) -> usize {
        self.locate(perm, twist).0
    }

    /// The entry index of the corner coordinate `(perm, twist)` and the symmetry `k` (in `0..16`)
    /// that conjugates the cube to the entry's representative.
    #[inline(always)]
    pub fn locate(&self, perm: usize, twist: usize) -> (usize, usize) {
        let packed = usize::from(self.perm_class[perm]);
        let k = packed & 15;
        let index = (packed >> 4) * TWIST_COUNT + usize::from(self.twist_conj[twist << 4 | k]);
        (index, k)
    }

    /// The move deltas of entry `index`: bits `2 m'` and `2 m' + 1` hold the representative's
    /// distance after move `m'` minus its distance, plus one. For a cube located at
    /// `(index, k)`, move `m` is `m' = conj_moves(k)[m]`.
    #[inline(always)]
    pub fn deltas(&self, index: usize) -> u64 {
        self.deltas[index]
    }

    /// Starts loading the move deltas of entry `index`.
    #[inline(always)]
    pub fn prefetch_deltas(&self, index: usize) {
        if let Some(row) = self.deltas.get(index) {
            crate::file::prefetch::prefetch_read(&bytemuck::bytes_of(row)[0]);
        }
    }

    /// The index of each move conjugated by symmetry `k`.
    #[inline(always)]
    pub fn conj_moves(&self, k: usize) -> &[u8; 18] {
        &self.conj_moves[k]
    }

    /// The entry `index`: the corner distance.
    #[inline(always)]
    pub fn get(&self, index: usize) -> u8 {
        self.table.nibbles().get(index)
    }

    /// The read view of the entries, for searches that read and prefetch them directly.
    #[inline(always)]
    pub fn nibbles(&self) -> Nibbles<'_> {
        self.table.nibbles()
    }

    /// The corner distance of `cube`.
    pub fn get_cube(&self, cube: &cube_core::Cube) -> u8 {
        let coord = super::CornerCoord::from_cube(cube);
        self.get(self.index(coord.perm.into(), coord.twist.into()))
    }
}

/// The move deltas of every entry of the reduced table `bytes` (one byte per entry): one pass
/// per (class, move) over the twists, whose entries after the move share one row of the table.
fn move_deltas(bytes: &[u8], maps: &Maps) -> HugeBuffer<u64> {
    let Maps {
        perms,
        perm_class,
        twist_conj,
        ..
    } = maps;
    let moves = CornerMoves::get();
    let mut deltas = HugeBuffer::zeroed(bytes.len());
    deltas
        .par_chunks_mut(TWIST_COUNT)
        .enumerate()
        .for_each(|(class, row)| {
            let rep = perms.rep(class as u32) as u16;
            let before = &bytes[class * TWIST_COUNT..][..TWIST_COUNT];
            for m in Move::ALL {
                let packed = usize::from(perm_class[usize::from(moves.perm(rep, m))]);
                let after_row = &bytes[(packed >> 4) * TWIST_COUNT..][..TWIST_COUNT];
                let k = packed & 15;
                for (twist, deltas) in row.iter_mut().enumerate() {
                    let after_twist = usize::from(moves.twist(twist as u16, m));
                    let after = after_row[usize::from(twist_conj[after_twist << 4 | k])];
                    let delta = u64::from(after + 1 - before[twist]);
                    debug_assert!(delta <= 2, "the corner database is consistent");
                    *deltas |= delta << (2 * m.index());
                }
            }
        });
    deltas
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corners::CornerCoord;
    use cube_core::Cube;
    use rand::SeedableRng;

    /// The maps agree with conjugating cubes on stickers, whatever the rest of the cube.
    #[test]
    fn conjugation_maps_agree_with_symmetry_conjugate() {
        let syms = ud_symmetries();
        let perms = conjugation_table(&MoveTable::<CornerPerm>::new(MoveSet::ALL), &syms);
        let twists = conjugation_table(&MoveTable::<Twist>::new(MoveSet::ALL), &syms);
        let mut rng = rand::rngs::StdRng::seed_from_u64(16);
        for _ in 0..300 {
            let cube = Cube::random(&mut rng);
            let c = CornerCoord::from_cube(&cube);
            for (k, s) in syms.iter().enumerate() {
                let d = CornerCoord::from_cube(&s.conjugate(&cube));
                assert_eq!(
                    usize::from(d.perm),
                    perms[usize::from(c.perm) * 16 + k].into()
                );
                assert_eq!(
                    usize::from(d.twist),
                    twists[usize::from(c.twist) * 16 + k].into()
                );
            }
        }
    }
}
