//! The move and distance tables of the two-phase method, built once per process.
//!
//! Phase 1 walks twist x flip x UD-slice with all 18 moves and prunes with three projections,
//! slice x twist, slice x flip and twist x flip, each reduced by the eight symmetries that keep
//! every axis in place, as min2phase does (`src/CoordCube.java`: `UDSliceTwistPrun`,
//! `UDSliceFlipPrun`, `TwistFlipPrun`): 324 twist classes and 336 flip classes, so the three tables
//! hold 0.16, 0.17 and 0.66 million bytes and stay in the L2 cache, where the unreduced ones (6.6 MB)
//! did not (the search reads copies packed two entries per byte, 0.5 MB). They are filters in
//! front of the exact phase-1 distance (Kociemba's flip-slice classes x twist, 70 MB in nibbles:
//! [`cube_tables::phase1`]), which lives in main memory and is read only for the moves they let
//! through. Phase 2 walks corner permutation x U/D-edge permutation x slice permutation with the
//! 10 moves of G1 and prunes with corner x slice and edge x slice permutations, then with corner x
//! U/D-edge permutation, the corners reduced by the 16 symmetries that keep the U-D axis (2768
//! classes x 40320, 56 MB in nibbles, distances over 15 stored as 15), as Kociemba's
//! RubiksCube-TwophaseSolver (`corners_ud_edges_depth3`).
//!
//! Building takes about 20 s on two cores ([`LARGE_BUILD_TIME`]: the two large tables; the rest a
//! fraction of a second), so
//! the tables come in two sizes: [`TwoPhaseTables::small`] leaves the two large ones out (phase 1
//! is then pruned by the projections alone, phase 2 by corner x slice and edge x slice), and
//! [`TwoPhaseTables::large`] (the [`MethodTables`] family that a binary caches on disk with
//! [`load_or_build`](crate::load_or_build)) has them all.

use std::time::{Duration, Instant};

use cube_core::MoveSet;
use cube_tables::phase1::{FlipSliceSym, N_PHASE1, phase1_distance_table, ud_symmetries};
use cube_tables::sym_coord::{SymCoord, axis_symmetries, conjugation_table, sym_distance_table};
use cube_tables::{
    Cached, Coord, CornerPerm, DistanceTable, Encoding, Flip, HISTOGRAM_LEN, MoveTable, Nibbles,
    Product, PruneTable, SlicePerm, TableId, TableSpec, Twist, UdEdgePerm, UdSlice,
};

use crate::{MethodTables, PayloadError, Payloads};

/// The number of twist classes under the eight axis-keeping symmetries (min2phase's
/// `N_TWIST_SYM`).
const N_TWIST_SYM: usize = 324;
/// The number of flip classes (min2phase's `N_FLIP_SYM`).
const N_FLIP_SYM: usize = 336;
/// The number of corner-permutation classes under the 16 symmetries that keep the U-D axis
/// (Kociemba's `N_CORNERS_CLASS`).
const N_CORNER_SYM: usize = 2768;
/// The number of entries of the phase-2 corner x edge table: corner classes times U/D-edge
/// permutations.
const N_CORNER_EDGE: usize = N_CORNER_SYM * UdEdgePerm::COUNT;

/// The move and distance tables of the two-phase method, to hand to
/// [`TwoPhase::new`](super::TwoPhase::new) (shared in an [`Arc`](std::sync::Arc) by any number of
/// solvers and threads).
///
/// [`TwoPhaseTables::small`] builds what a first solve needs in a fraction of a second;
/// [`TwoPhaseTables::large`] also the exact phase-1 distance (70 MB) and the phase-2 corner x edge
/// distance (56 MB), about 20 s on two cores, which make a solve about ten times faster: a
/// binary reads them from a table directory with [`load_or_build`](crate::load_or_build).
pub struct TwoPhaseTables {
    pub(crate) twist_move: MoveTable<Twist>,
    pub(crate) flip_move: MoveTable<Flip>,
    pub(crate) slice_move: MoveTable<UdSlice>,
    /// Twist classes, and the twist conjugated by each symmetry.
    pub(crate) twist_sym: SymCoord,
    /// Flip classes, and the flip conjugated by each symmetry.
    pub(crate) flip_sym: SymCoord,
    /// `slice_conj[slice * 8 + k]`: the UD-slice conjugated by symmetry `k`.
    pub(crate) slice_conj: Vec<u16>,
    /// Index `twist_class * 495 + slice_conj`, one byte per entry (the payload; the search reads
    /// `slice_twist_nibbles`).
    pub(crate) slice_twist_prune: PruneTable<Vec<u8>>,
    /// Index `flip_class * 495 + slice_conj`.
    pub(crate) slice_flip_prune: PruneTable<Vec<u8>>,
    /// Index `twist_class * 2048 + flip_conj`.
    pub(crate) twist_flip_prune: PruneTable<Vec<u8>>,
    pub(crate) corner_move: MoveTable<CornerPerm>,
    pub(crate) edge_move: MoveTable<UdEdgePerm>,
    pub(crate) slice_perm_move: MoveTable<SlicePerm>,
    /// Index `corner_perm * 24 + slice_perm`, one byte per entry.
    pub(crate) corner_slice_prune: PruneTable<Vec<u8>>,
    /// Index `ud_edge_perm * 24 + slice_perm`, one byte per entry.
    pub(crate) edge_slice_prune: PruneTable<Vec<u8>>,
    /// The three phase-1 tables packed two entries per byte, for the search (0.5 MB).
    slice_twist_nibbles: PruneTable<Vec<u8>>,
    slice_flip_nibbles: PruneTable<Vec<u8>>,
    twist_flip_nibbles: PruneTable<Vec<u8>>,
    /// The two large tables (absent from the small tables).
    large: Option<Large>,
    /// How long building the tables took.
    build_time: Duration,
}

impl std::fmt::Debug for TwoPhaseTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TwoPhaseTables")
            .field("large", &self.is_large())
            .field("build_time", &self.build_time)
            .finish_non_exhaustive()
    }
}

/// The exact phase-1 distance and the phase-2 corner x edge distance, with the symmetry classes
/// they are indexed by.
struct Large {
    /// Corner-permutation classes under the 16 U-D symmetries.
    corner_sym: SymCoord,
    /// `edge_conj[edge * 16 + k]`: the U/D-edge permutation conjugated by symmetry `k`.
    edge_conj: Vec<u16>,
    /// The phase-2 distance of corner permutation x U/D-edge permutation, entry
    /// `corner_class * 40320 + edge_conj`, two per byte (56 MB; mapped from its file when read).
    corner_edge_prune: PruneTable<Cached>,
    /// Flip-slice classes under the 16 symmetries that keep the U-D axis.
    flip_slice_sym: FlipSliceSym,
    /// The exact phase-1 distance, entry [`FlipSliceSym::index`], two per byte (70 MB; mapped
    /// from its file when read).
    phase1_exact: PruneTable<Cached>,
}

/// The read view of a table that [`TwoPhaseTables::assemble`] checked is in nibbles: the shared
/// decoder with no branch on the encoding, for the search's inner loops.
#[inline(always)]
fn nibbles<T: AsRef<[u8]>>(table: &PruneTable<T>) -> Nibbles<'_> {
    debug_assert_eq!(table.encoding(), Encoding::Nibble, "{}", table.id());
    Nibbles::new(table.payload())
}

/// The read view of a table that [`TwoPhaseTables::assemble`] checked is in bytes.
#[inline(always)]
fn bytes(table: &PruneTable<Vec<u8>>) -> &[u8] {
    debug_assert_eq!(table.encoding(), Encoding::Byte, "{}", table.id());
    table.payload()
}

/// The ids and sizes of the seven distance tables, the payloads of [`TwoPhaseTables`] as a
/// [`MethodTables`] family, so a binary can cache them in table files: five of one byte per
/// state, the first three indexed by symmetry class (324 twist classes, 336 flip classes) times a
/// raw coordinate; then two of two entries per byte: the exact phase-1 distance, indexed by
/// flip-slice class (64,430) times twist, and the phase-2 corner x edge distance, indexed by
/// corner-permutation class (2768) times U/D-edge permutation.
pub const TABLE_SPECS: [TableSpec; 7] = [
    spec("two-phase-sym-slice-twist", N_TWIST_SYM * UdSlice::COUNT),
    spec("two-phase-sym-slice-flip", N_FLIP_SYM * UdSlice::COUNT),
    spec("two-phase-sym-twist-flip", N_TWIST_SYM * Flip::COUNT),
    spec(
        "two-phase-corner-slice",
        CornerPerm::COUNT * SlicePerm::COUNT,
    ),
    spec("two-phase-edge-slice", UdEdgePerm::COUNT * SlicePerm::COUNT),
    TableSpec::new(
        TableId::from_static("two-phase-phase1-exact"),
        Encoding::Nibble,
        N_PHASE1 as u64,
    ),
    TableSpec::new(
        TableId::from_static("two-phase-phase2-corner-edge"),
        Encoding::Nibble,
        N_CORNER_EDGE as u64,
    ),
];

const fn spec(id: &'static str, n_entries: usize) -> TableSpec {
    TableSpec::new(TableId::from_static(id), Encoding::Byte, n_entries as u64)
}

/// Entries of the exact phase-1 table per distance (0 to 12): a payload with another histogram
/// is not that table.
const PHASE1_HISTOGRAM: [u64; 13] = [
    1, 1, 5, 44, 487, 5841, 68364, 776568, 7950748, 52098876, 76236234, 3771112, 129,
];

/// Entries of the phase-2 corner x edge table per stored distance (0 to 15, which also stands
/// for the 1,310,138 entries at 16 to 18).
const CORNER_EDGE_HISTOGRAM: [u64; 16] = [
    1, 3, 10, 52, 285, 1318, 5671, 26502, 115467, 470846, 1853056, 6535823, 18349792, 32843350,
    34118883, 17284701,
];

/// The states the searches of the two large tables scan: one pass over every state per level
/// below the longest distance (12 levels of the exact phase-1 table, 18 of the corner x edge
/// table, whose longest distance is 18 though it stores 15).
pub const LARGE_BUILD_SCANS: u64 = 12 * N_PHASE1 as u64 + 18 * N_CORNER_EDGE as u64;

/// How long the large tables take to build on this project's 2-core machine, for the word a front
/// end says before it builds them: `cube-cli tables bake --caches` into an empty directory
/// (2026-12-07, `/usr/bin/time -v`) wrote 129,189,481 bytes with 24.6 s of CPU, 23.7 s and 25.4 s
/// of wall time beside one other job (load 2; 34 s and 42 s of CPU, 67 s and 190 s of wall, at
/// load 8 and 12); issue 58 reports 21 s on a quiet machine.
pub const LARGE_BUILD_TIME: &str = "about 20 s on 2 cores";

/// The longest distance in each byte table (phase 1 at most 12 moves, phase 2 at most 18).
const MAX_DISTANCES: [u8; 5] = [12, 12, 12, 18, 18];

/// The move tables and the symmetry classes of the small tables (tens of milliseconds).
struct Moves {
    twist_move: MoveTable<Twist>,
    flip_move: MoveTable<Flip>,
    slice_move: MoveTable<UdSlice>,
    corner_move: MoveTable<CornerPerm>,
    edge_move: MoveTable<UdEdgePerm>,
    slice_perm_move: MoveTable<SlicePerm>,
    twist_sym: SymCoord,
    flip_sym: SymCoord,
    slice_conj: Vec<u16>,
}

impl Moves {
    fn build() -> Moves {
        let ((twist_move, flip_move, slice_move), (corner_move, edge_move, slice_perm_move)) =
            rayon::join(
                || {
                    (
                        MoveTable::<Twist>::new(MoveSet::ALL),
                        MoveTable::<Flip>::new(MoveSet::ALL),
                        MoveTable::<UdSlice>::new(MoveSet::ALL),
                    )
                },
                || {
                    (
                        MoveTable::<CornerPerm>::new(MoveSet::G1),
                        MoveTable::<UdEdgePerm>::new(MoveSet::G1),
                        MoveTable::<SlicePerm>::new(MoveSet::G1),
                    )
                },
            );
        let syms = axis_symmetries();
        let (twist_sym, (flip_sym, slice_conj)) = rayon::join(
            || SymCoord::new(conjugation_table(&twist_move, &syms), syms.len()),
            || {
                (
                    SymCoord::new(conjugation_table(&flip_move, &syms), syms.len()),
                    conjugation_table(&slice_move, &syms),
                )
            },
        );
        debug_assert_eq!(
            (twist_sym.n_classes(), flip_sym.n_classes()),
            (N_TWIST_SYM, N_FLIP_SYM)
        );
        Moves {
            twist_move,
            flip_move,
            slice_move,
            corner_move,
            edge_move,
            slice_perm_move,
            twist_sym,
            flip_sym,
            slice_conj,
        }
    }

    /// The five small distance tables (three symmetry-reduced phase-1 projections, corner x
    /// slice and edge x slice permutations), one after the other: each breadth-first search is
    /// parallel already (on two busy cores they took 12-80 ms each, and no less side by side).
    fn small_prune(&self) -> [PruneTable<Vec<u8>>; 5] {
        let flip_conj = conjugation_table(&self.flip_move, &axis_symmetries());
        let id = |i: usize| TABLE_SPECS[i].id;
        [
            sym_distance_table(
                id(0),
                &self.twist_sym,
                &self.twist_move,
                &self.slice_move,
                &self.slice_conj,
                &|_| {},
            ),
            sym_distance_table(
                id(1),
                &self.flip_sym,
                &self.flip_move,
                &self.slice_move,
                &self.slice_conj,
                &|_| {},
            ),
            sym_distance_table(
                id(2),
                &self.twist_sym,
                &self.twist_move,
                &self.flip_move,
                &flip_conj,
                &|_| {},
            ),
            DistanceTable::build(
                id(3),
                &Product::new(&self.corner_move, &self.slice_perm_move),
                [0],
            ),
            DistanceTable::build(
                id(4),
                &Product::new(&self.edge_move, &self.slice_perm_move),
                [0],
            ),
        ]
    }

    /// The symmetry classes the two large tables are indexed by: flip-slice classes, and corner
    /// classes with the conjugated U/D edges, under the 16 U-D symmetries.
    fn large_classes(&self) -> (FlipSliceSym, SymCoord, Vec<u16>) {
        let ud_syms = ud_symmetries();
        let (flip_slice_sym, (corner_sym, edge_conj)) = rayon::join(
            || FlipSliceSym::new(&self.twist_move, &self.flip_move, &self.slice_move),
            || {
                rayon::join(
                    || {
                        SymCoord::new(
                            conjugation_table(&self.corner_move, &ud_syms),
                            ud_syms.len(),
                        )
                    },
                    || conjugation_table(&self.edge_move, &ud_syms),
                )
            },
        );
        debug_assert_eq!(corner_sym.n_classes(), N_CORNER_SYM);
        (flip_slice_sym, corner_sym, edge_conj)
    }
}

impl TwoPhaseTables {
    /// The small tables: every move table and the five small distance tables (about 2.5 MB),
    /// without the exact phase-1 distance and the phase-2 corner x edge distance. See the crate
    /// docs for the build time and the solve times with each size.
    pub fn small() -> TwoPhaseTables {
        let start = Instant::now();
        let moves = Moves::build();
        let prune = moves.small_prune();
        TwoPhaseTables::assemble(start, moves, prune, None)
    }

    /// Whether every file of the tables is in the table directory `dir` (not read: a load checks
    /// them): the rule of the command line and the Python package for a one-shot solve, which
    /// uses the large tables when they are cached and the [`small`](TwoPhaseTables::small) ones
    /// otherwise, rather than build 123 MiB for one answer.
    pub fn cached_in(dir: &std::path::Path) -> bool {
        Self::SPECS.iter().all(|spec| spec.path_in(dir).is_file())
    }

    /// Every table, the large ones too (about 20 s on two cores; the same as
    /// [`MethodTables::build`]). A binary reads them from a table directory instead, with
    /// [`load_or_build`](crate::load_or_build).
    pub fn large() -> TwoPhaseTables {
        TwoPhaseTables::large_observed(&|_| {})
    }

    /// [`TwoPhaseTables::large`], calling `observe` with the states each piece of the two large
    /// searches scanned as it ends: [`LARGE_BUILD_SCANS`] in all, for a progress bar (the rest of
    /// the build is a small fraction of the time).
    pub fn large_observed(observe: &(dyn Fn(usize) + Sync)) -> TwoPhaseTables {
        let start = Instant::now();
        let moves = Moves::build();
        let (flip_slice_sym, corner_sym, edge_conj) = moves.large_classes();
        let (prune, phase1_exact) = rayon::join(
            || moves.small_prune(),
            || {
                to_nibbles(&phase1_distance_table(
                    TABLE_SPECS[5].id,
                    &flip_slice_sym,
                    &moves.twist_move,
                    &moves.flip_move,
                    &moves.slice_move,
                    observe,
                ))
                .into_cached()
            },
        );
        // After the exact phase-1 table, not beside it: each holds over 100 MB while it is built.
        // Distances over 15 (up to 18) are stored as 15, still a lower bound.
        let corner_edge_prune = to_nibbles(&sym_distance_table(
            TABLE_SPECS[6].id,
            &corner_sym,
            &moves.corner_move,
            &moves.edge_move,
            &edge_conj,
            observe,
        ))
        .into_cached();
        let large = Large {
            corner_sym,
            edge_conj,
            corner_edge_prune,
            flip_slice_sym,
            phase1_exact,
        };
        TwoPhaseTables::assemble(start, moves, prune, Some(large))
    }

    /// Whether these are the large tables (with the exact phase-1 and the phase-2 corner x edge
    /// distances).
    pub fn is_large(&self) -> bool {
        self.large.is_some()
    }

    /// How long building (or restoring) the tables took.
    pub fn build_time(&self) -> Duration {
        self.build_time
    }

    fn assemble(
        start: Instant,
        moves: Moves,
        prune: [PruneTable<Vec<u8>>; 5],
        large: Option<Large>,
    ) -> TwoPhaseTables {
        // The encodings the search's views assume (`nibbles`, `bytes`).
        assert!(prune.iter().all(|t| t.encoding() == Encoding::Byte));
        if let Some(large) = &large {
            assert_eq!(large.phase1_exact.encoding(), Encoding::Nibble);
            assert_eq!(large.corner_edge_prune.encoding(), Encoding::Nibble);
        }
        let [
            slice_twist_prune,
            slice_flip_prune,
            twist_flip_prune,
            corner_slice_prune,
            edge_slice_prune,
        ] = prune;
        debug_assert_eq!(slice_twist_prune.len(), N_TWIST_SYM * UdSlice::COUNT);
        let Moves {
            twist_move,
            flip_move,
            slice_move,
            corner_move,
            edge_move,
            slice_perm_move,
            twist_sym,
            flip_sym,
            slice_conj,
        } = moves;
        TwoPhaseTables {
            slice_twist_nibbles: to_nibbles(&slice_twist_prune),
            slice_flip_nibbles: to_nibbles(&slice_flip_prune),
            twist_flip_nibbles: to_nibbles(&twist_flip_prune),
            twist_move,
            flip_move,
            slice_move,
            twist_sym,
            flip_sym,
            slice_conj,
            slice_twist_prune,
            slice_flip_prune,
            twist_flip_prune,
            corner_move,
            edge_move,
            slice_perm_move,
            corner_slice_prune,
            edge_slice_prune,
            large,
            build_time: start.elapsed(),
        }
    }
}

/// A byte table packed two entries per byte for the search.
fn to_nibbles(table: &PruneTable<Vec<u8>>) -> PruneTable<Vec<u8>> {
    table
        .to_nibbles()
        .expect("the distance tables are built in bytes")
}

/// Checks a nibble table: 0 at the goal, and its histogram.
fn check_nibbles(table: &PruneTable<Cached>, histogram: &[u64]) -> Result<(), PayloadError> {
    let unsound = |why| {
        Err(PayloadError::Unsound {
            id: table.id(),
            why,
        })
    };
    if table.get(0) != 0 {
        return unsound("the goal is not at distance 0");
    }
    let sound = table.histogram().iter().copied().eq(histogram
        .iter()
        .copied()
        .chain(std::iter::repeat(0))
        .take(HISTOGRAM_LEN));
    if sound {
        Ok(())
    } else {
        unsound("a histogram other than the table's")
    }
}

impl MethodTables for TwoPhaseTables {
    const NAME: &'static str = "two-phase";
    const SPECS: &'static [TableSpec] = &TABLE_SPECS;

    fn build() -> TwoPhaseTables {
        TwoPhaseTables::large()
    }

    /// The payloads of the large tables; the small ones have only the first five.
    fn payload(&self, id: TableId) -> Option<&[u8]> {
        let index = TABLE_SPECS.iter().position(|spec| spec.id == id)?;
        let large = self.large.as_ref();
        match index {
            0 => Some(self.slice_twist_prune.payload()),
            1 => Some(self.slice_flip_prune.payload()),
            2 => Some(self.twist_flip_prune.payload()),
            3 => Some(self.corner_slice_prune.payload()),
            4 => Some(self.edge_slice_prune.payload()),
            5 => large.map(|large| large.phase1_exact.payload()),
            _ => large.map(|large| large.corner_edge_prune.payload()),
        }
    }

    /// The large tables from their seven payloads; the move tables and symmetry classes are
    /// rebuilt and every payload is checked: the five byte tables complete, 0 at the goal and
    /// within the phase's longest distance, the two nibble tables against their histograms (a
    /// table read from its file by its header's, which the file's check proved; the two large
    /// ones stay mapped when they were). Tens of milliseconds in all.
    fn from_payloads(mut payloads: Payloads) -> Result<TwoPhaseTables, PayloadError> {
        let start = Instant::now();
        let exact = payloads.take_table(&TABLE_SPECS[5])?;
        let corner_edge = payloads.take_table(&TABLE_SPECS[6])?;
        let small: &[TableSpec; 5] = TABLE_SPECS[..5].try_into().expect("five small tables");
        let prune = payloads.take_all(small)?;
        for ((table, spec), max) in prune.iter().zip(&TABLE_SPECS).zip(MAX_DISTANCES) {
            let why = if !table.is_complete() {
                "an unreached state"
            } else if table.get(0) != 0 {
                "the goal is not at distance 0"
            } else if table.max_distance() > max {
                "a distance longer than the phase allows"
            } else {
                continue;
            };
            return Err(PayloadError::Unsound { id: spec.id, why });
        }
        check_nibbles(&exact, &PHASE1_HISTOGRAM)?;
        check_nibbles(&corner_edge, &CORNER_EDGE_HISTOGRAM)?;
        let moves = Moves::build();
        let (flip_slice_sym, corner_sym, edge_conj) = moves.large_classes();
        let large = Large {
            corner_sym,
            edge_conj,
            corner_edge_prune: corner_edge,
            flip_slice_sym,
            phase1_exact: exact,
        };
        Ok(TwoPhaseTables::assemble(start, moves, prune, Some(large)))
    }
}

impl TwoPhaseTables {
    /// The phase-2 corner x U/D-edge lower bound of raw corner and U/D-edge permutations (0
    /// without the large tables).
    #[inline]
    pub(crate) fn corner_edge_bound(&self, corner: u32, edge: u32) -> u8 {
        let Some(large) = &self.large else {
            return 0;
        };
        let (class, k) = large.corner_sym.class_and_sym(corner);
        let edge = large.edge_conj[(edge * 16 + k) as usize] as u32;
        nibbles(&large.corner_edge_prune).get((class * UdEdgePerm::COUNT as u32 + edge) as usize)
    }

    /// The exact distance to G1 of raw `(twist, flip, slice)`, with the large tables.
    #[inline]
    pub(crate) fn phase1_exact(&self, twist: u32, flip: u32, slice: u32) -> Option<u8> {
        let large = self.large.as_ref()?;
        Some(
            nibbles(&large.phase1_exact)
                .get(large.flip_slice_sym.index(twist, flip, slice) as usize),
        )
    }

    /// The slice x twist lower bound, for the twist's class and symmetry.
    #[inline]
    pub(crate) fn slice_twist_bound(&self, twist_class: u32, twist_sym: u32, slice: u32) -> u8 {
        let slice = self.slice_conj[(slice * 8 + twist_sym) as usize] as u32;
        nibbles(&self.slice_twist_nibbles).get((twist_class * 495 + slice) as usize)
    }

    /// The slice x flip lower bound.
    #[inline]
    pub(crate) fn slice_flip_bound(&self, flip: u32, slice: u32) -> u8 {
        let (flip_class, flip_sym) = self.flip_sym.class_and_sym(flip);
        let slice = self.slice_conj[(slice * 8 + flip_sym) as usize] as u32;
        nibbles(&self.slice_flip_nibbles).get((flip_class * 495 + slice) as usize)
    }

    /// The twist x flip lower bound, for the twist's class and symmetry.
    #[inline]
    pub(crate) fn twist_flip_bound_sym(&self, twist_class: u32, twist_sym: u32, flip: u32) -> u8 {
        nibbles(&self.twist_flip_nibbles)
            .get((twist_class * 2048 + self.flip_sym.conjugate(flip, twist_sym)) as usize)
    }

    /// The phase-2 corner x slice permutation lower bound.
    #[inline]
    pub(crate) fn corner_slice_bound(&self, corner: u32, slice: u32) -> u8 {
        bytes(&self.corner_slice_prune)[(corner * 24 + slice) as usize]
    }

    /// The phase-2 U/D-edge x slice permutation lower bound.
    #[inline]
    pub(crate) fn edge_slice_bound(&self, edge: u32, slice: u32) -> u8 {
        bytes(&self.edge_slice_prune)[(edge * 24 + slice) as usize]
    }

    /// The twist x flip lower bound alone (for a conjugated view of the position).
    #[inline]
    pub(crate) fn twist_flip_bound(&self, twist: u32, flip: u32) -> u8 {
        let (twist_class, twist_sym) = self.twist_sym.class_and_sym(twist);
        nibbles(&self.twist_flip_nibbles)
            .get((twist_class * 2048 + self.flip_sym.conjugate(flip, twist_sym)) as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_histograms() {
        let tables = &*super::super::large_tables_for_tests();
        // Every state of each projection is reached, within the phase bounds of REFERENCE.md
        // (phase 1 at most 12 moves, phase 2 at most 18).
        for (name, table, bound) in [
            ("slice x twist", &tables.slice_twist_prune, 12),
            ("slice x flip", &tables.slice_flip_prune, 12),
            ("twist x flip", &tables.twist_flip_prune, 12),
            ("corner x slice perm", &tables.corner_slice_prune, 18),
            ("edge x slice perm", &tables.edge_slice_prune, 18),
        ] {
            assert!(table.is_complete(), "{name}");
            assert!(table.max_distance() <= bound, "{name}");
            eprintln!("{name}: {:?}", table.histogram());
        }
        // Observed maxima of the phase-1 projections (pinned so a change is noticed).
        assert_eq!(tables.slice_twist_prune.max_distance(), 9);
        assert_eq!(tables.slice_flip_prune.max_distance(), 9);
        // The reduced tables agree with the full projections on random raw coordinates.
        let id = TableId::from_static("unit");
        let twist_slice = DistanceTable::build(
            id,
            &Product::new(&tables.twist_move, &tables.slice_move),
            [0],
        );
        let flip_slice = DistanceTable::build(
            id,
            &Product::new(&tables.flip_move, &tables.slice_move),
            [0],
        );
        let twist_flip = DistanceTable::build(
            id,
            &Product::new(&tables.twist_move, &tables.flip_move),
            [0],
        );
        let mut state = 12345u64;
        for _ in 0..200_000 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let (t, f, s) = (
                (state >> 20) as u32 % 2187,
                (state >> 35) as u32 % 2048,
                (state >> 50) as u32 % 495,
            );
            let at = |table: &PruneTable<Vec<u8>>, index: u32| table.get(index as usize);
            let expected = at(&twist_slice, t * 495 + s)
                .max(at(&flip_slice, f * 495 + s))
                .max(at(&twist_flip, t * 2048 + f));
            let (class, sym) = tables.twist_sym.class_and_sym(t);
            let reduced = tables
                .slice_twist_bound(class, sym, s)
                .max(tables.slice_flip_bound(f, s))
                .max(tables.twist_flip_bound_sym(class, sym, f));
            assert_eq!(reduced, expected, "{t} {f} {s}");
            assert_eq!(tables.twist_flip_bound(t, f), at(&twist_flip, t * 2048 + f));
            // The exact distance: at least every projection's, 0 only in G1, and one move
            // changes it by at most one and lowers it for some move outside G1.
            let distance = phase1_distance(tables, t, f, s);
            assert!(distance >= expected, "{t} {f} {s}");
            assert_eq!(distance == 0, (t, f, s) == (0, 0, 0));
            let children: Vec<u8> = (0..18)
                .map(|m| {
                    phase1_distance(
                        tables,
                        tables.twist_move.get(t, m),
                        tables.flip_move.get(f, m),
                        tables.slice_move.get(s, m),
                    )
                })
                .collect();
            assert!(children.iter().all(|&c| c.abs_diff(distance) <= 1));
            assert!(distance == 0 || children.contains(&(distance - 1)));
            // The phase-2 corner x edge bound: the same for every conjugate by the 16 U-D
            // symmetries, 0 only when solved, and one G1 move changes it by at most one (below
            // the cap of 15).
            let (c, e) = (
                (state >> 8) as u32 % CornerPerm::COUNT as u32,
                (state >> 40) as u32 % UdEdgePerm::COUNT as u32,
            );
            let cube = CornerPerm::to_cube(c).compose(&UdEdgePerm::to_cube(e));
            let bound = tables.corner_edge_bound(c, e);
            for sym in ud_symmetries() {
                let conjugate = sym.conjugate(&cube);
                assert_eq!(
                    tables.corner_edge_bound(
                        CornerPerm::from_cube(&conjugate),
                        UdEdgePerm::from_cube(&conjugate)
                    ),
                    bound,
                    "{c} {e}"
                );
            }
            assert_eq!(bound == 0, (c, e) == (0, 0));
            for column in 0..10 {
                let child = tables.corner_edge_bound(
                    tables.corner_move.get(c, column),
                    tables.edge_move.get(e, column),
                );
                assert!(
                    child.abs_diff(bound) <= 1 || child.max(bound) == 15,
                    "{c} {e}"
                );
            }
        }
        eprintln!("built in {:?}", tables.build_time);
    }

    fn phase1_distance(tables: &TwoPhaseTables, twist: u32, flip: u32, slice: u32) -> u8 {
        tables
            .phase1_exact(twist, flip, slice)
            .expect("the large tables have the exact phase-1 distance")
    }

    #[test]
    fn small_tables_are_the_large_without_the_two_largest() {
        let (small, large) = (
            TwoPhaseTables::small(),
            super::super::large_tables_for_tests(),
        );
        assert!(!small.is_large() && large.is_large());
        for spec in &TABLE_SPECS[..5] {
            assert_eq!(
                small.payload(spec.id),
                large.payload(spec.id),
                "{}",
                spec.id
            );
        }
        for spec in &TABLE_SPECS[5..] {
            assert_eq!(small.payload(spec.id), None, "{}", spec.id);
        }
        assert_eq!(small.phase1_exact(5, 6, 7), None);
        assert_eq!(small.corner_edge_bound(5, 6), 0);
        // The small tables are no payloads of the family: two are missing.
        assert_eq!(
            TwoPhaseTables::from_payloads(Payloads::of(&small)).err(),
            Some(PayloadError::Missing {
                id: TABLE_SPECS[5].id
            })
        );
    }

    #[test]
    fn payloads_round_trip() {
        let tables = super::super::large_tables_for_tests();
        for spec in TABLE_SPECS {
            let payload = tables
                .payload(spec.id)
                .expect("the large tables have every payload");
            assert_eq!(payload.len() as u64, spec.payload_len(), "{}", spec.id);
        }
        let payloads = Payloads::of(&*tables);
        let rebuilt =
            TwoPhaseTables::from_payloads(payloads.clone()).expect("built payloads are sound");
        for spec in TABLE_SPECS {
            assert_eq!(rebuilt.payload(spec.id), tables.payload(spec.id));
        }
        let (exact, slice_flip) = (TABLE_SPECS[5].id, TABLE_SPECS[2].id);
        let edit = |id, change: &dyn Fn(&mut Vec<u8>)| {
            let mut bad = payloads.clone();
            let mut payload = bad.get(id).expect("every id is there").to_vec();
            change(&mut payload);
            bad.insert(id, payload);
            TwoPhaseTables::from_payloads(bad).err()
        };
        let unsound = |id, why| Some(PayloadError::Unsound { id, why });
        assert_eq!(
            edit(exact, &|p| p[1000] ^= 1),
            unsound(exact, "a histogram other than the table's")
        );
        assert_eq!(
            edit(slice_flip, &|p| p[7] = DistanceTable::UNREACHED),
            unsound(slice_flip, "an unreached state")
        );
        let expected = TABLE_SPECS[2].payload_len();
        assert_eq!(
            edit(slice_flip, &|p| {
                p.pop();
            }),
            Some(PayloadError::Length {
                id: slice_flip,
                expected,
                found: expected - 1
            })
        );
        // A payload under a name the family does not have.
        let mut extra = payloads;
        let stranger = TableId::from_static("thistlethwaite-phase1");
        extra.insert(stranger, vec![0; 2048]);
        assert_eq!(
            TwoPhaseTables::from_payloads(extra).err(),
            Some(PayloadError::Unexpected { id: stranger })
        );
    }
}
