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
//! Building takes about ten seconds (the two large tables; the rest about 0.1 s), so a binary
//! caches the distance tables on disk and installs them ([`install`]).

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use cube_core::MoveSet;
use cube_tables::phase1::{FlipSliceSym, N_PHASE1, phase1_distance_table, ud_symmetries};
use cube_tables::sym_coord::{SymCoord, axis_symmetries, conjugation_table, sym_distance_table};
use cube_tables::{
    Coord, CornerPerm, DistanceTable, Encoding, Flip, HISTOGRAM_LEN, MoveTable, Product, SlicePerm,
    TableId, TableSpec, Twist, UdEdgePerm, UdSlice,
};

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

/// All tables of the two-phase method.
#[derive(Debug)]
pub(crate) struct Tables {
    pub(crate) twist_move: MoveTable<Twist>,
    pub(crate) flip_move: MoveTable<Flip>,
    pub(crate) slice_move: MoveTable<UdSlice>,
    /// Twist classes, and the twist conjugated by each symmetry.
    pub(crate) twist_sym: SymCoord,
    /// Flip classes, and the flip conjugated by each symmetry.
    pub(crate) flip_sym: SymCoord,
    /// `slice_conj[slice * 8 + k]`: the UD-slice conjugated by symmetry `k`.
    pub(crate) slice_conj: Vec<u16>,
    /// Index `twist_class * 495 + slice_conj`.
    pub(crate) slice_twist_prune: DistanceTable,
    /// Index `flip_class * 495 + slice_conj`.
    pub(crate) slice_flip_prune: DistanceTable,
    /// Index `twist_class * 2048 + flip_conj`.
    pub(crate) twist_flip_prune: DistanceTable,
    pub(crate) corner_move: MoveTable<CornerPerm>,
    pub(crate) edge_move: MoveTable<UdEdgePerm>,
    pub(crate) slice_perm_move: MoveTable<SlicePerm>,
    /// Index `corner_perm * 24 + slice_perm`.
    pub(crate) corner_slice_prune: DistanceTable,
    /// Index `ud_edge_perm * 24 + slice_perm`.
    pub(crate) edge_slice_prune: DistanceTable,
    /// Corner-permutation classes under the 16 U-D symmetries.
    corner_sym: SymCoord,
    /// `edge_conj[edge * 16 + k]`: the U/D-edge permutation conjugated by symmetry `k`.
    edge_conj: Vec<u16>,
    /// The phase-2 distance of corner permutation x U/D-edge permutation, entry
    /// `corner_class * 40320 + edge_conj`, two per byte (56 MB).
    corner_edge_prune: Nibbles,
    /// The three phase-1 tables packed two entries per byte, for the search (0.5 MB).
    slice_twist_nibbles: Nibbles,
    slice_flip_nibbles: Nibbles,
    twist_flip_nibbles: Nibbles,
    /// Flip-slice classes under the 16 symmetries that keep the U-D axis.
    flip_slice_sym: FlipSliceSym,
    /// The exact phase-1 distance, entry [`FlipSliceSym::index`], two per byte (70 MB).
    phase1_exact: Nibbles,
    /// How long building the tables took.
    pub(crate) build_time: Duration,
}

/// Distances packed two per byte: entry `2k` in the low nibble of byte `k`.
#[derive(Debug)]
struct Nibbles(Vec<u8>);

impl Nibbles {
    fn pack(table: &DistanceTable) -> Nibbles {
        Nibbles(
            table
                .to_nibbles()
                .expect("phase-1 distances fit in a nibble"),
        )
    }

    /// Distances of up to 18 (phase 2) with those over 15 stored as 15, still a lower bound.
    fn pack_capped(table: &DistanceTable) -> Nibbles {
        assert!(table.is_complete() && table.len().is_multiple_of(2));
        Nibbles(
            table
                .as_bytes()
                .chunks_exact(2)
                .map(|pair| pair[0].min(15) | pair[1].min(15) << 4)
                .collect(),
        )
    }

    #[inline]
    fn get(&self, index: u32) -> u8 {
        cube_tables::Nibbles::new(&self.0).get(index as usize)
    }
}

/// The ids and sizes of the seven distance tables, in the order of
/// [`table_payloads`](super::table_payloads), so a binary can cache them in table files: five of
/// one byte per state, the first three indexed by symmetry class (324 twist classes, 336 flip
/// classes) times a raw coordinate; then two of two entries per byte: the exact phase-1
/// distance, indexed by flip-slice class (64,430) times twist, and the phase-2 corner x edge
/// distance, indexed by corner-permutation class (2768) times U/D-edge permutation.
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

/// The longest distance in each byte table (phase 1 at most 12 moves, phase 2 at most 18).
const MAX_DISTANCES: [u8; 5] = [12, 12, 12, 18, 18];

static TABLES: OnceLock<Tables> = OnceLock::new();

/// Installs the distance tables from payloads read elsewhere (a cache file, say) before first use;
/// the move tables are rebuilt. Returns `false` (and drops them) when the tables are already in
/// place, or when a payload has the wrong length, an unreached state or an impossible distance,
/// or (the two nibble tables) a histogram other than [`PHASE1_HISTOGRAM`] or
/// [`CORNER_EDGE_HISTOGRAM`].
pub(crate) fn install(payloads: [Vec<u8>; 7]) -> bool {
    if TABLES.get().is_some() {
        return false;
    }
    match Tables::with_prune(Some(payloads)) {
        Some(tables) => TABLES.set(tables).is_ok(),
        None => false,
    }
}

impl Tables {
    /// The tables, built on first use (or installed by [`install`]).
    pub(crate) fn get() -> &'static Tables {
        TABLES.get_or_init(|| Tables::with_prune(None).expect("built tables are sound"))
    }

    /// The seven distance tables as payloads, in the order of [`TABLE_SPECS`].
    pub(crate) fn payloads(&self) -> [&[u8]; 7] {
        let [a, b, c, d, e] = [
            &self.slice_twist_prune,
            &self.slice_flip_prune,
            &self.twist_flip_prune,
            &self.corner_slice_prune,
            &self.edge_slice_prune,
        ]
        .map(DistanceTable::as_bytes);
        [
            a,
            b,
            c,
            d,
            e,
            &self.phase1_exact.0,
            &self.corner_edge_prune.0,
        ]
    }

    /// Builds the move tables, then the distance tables from scratch or, when given, from their
    /// payloads; `None` when a payload is unsound.
    fn with_prune(payloads: Option<[Vec<u8>; 7]>) -> Option<Tables> {
        let start = Instant::now();
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
        let ((twist_sym, flip_slice_sym), (flip_sym, slice_conj)) = rayon::join(
            || {
                (
                    SymCoord::new(conjugation_table(&twist_move, &syms), syms.len()),
                    FlipSliceSym::new(&twist_move, &flip_move, &slice_move),
                )
            },
            || {
                (
                    SymCoord::new(conjugation_table(&flip_move, &syms), syms.len()),
                    conjugation_table(&slice_move, &syms),
                )
            },
        );
        let ud_syms = ud_symmetries();
        let (corner_sym, edge_conj) = rayon::join(
            || SymCoord::new(conjugation_table(&corner_move, &ud_syms), ud_syms.len()),
            || conjugation_table(&edge_move, &ud_syms),
        );
        debug_assert_eq!(
            (
                twist_sym.n_classes(),
                flip_sym.n_classes(),
                corner_sym.n_classes()
            ),
            (N_TWIST_SYM, N_FLIP_SYM, N_CORNER_SYM)
        );
        let from_payloads =
            |[a, b, c, d, e, exact, corner_edge]: [Vec<u8>; 7]| {
                let tables = [a, b, c, d, e].map(DistanceTable::from_bytes);
                let sound = tables.iter().zip(TABLE_SPECS).zip(MAX_DISTANCES).all(
                    |((table, spec), max)| {
                        table.len() as u64 == spec.n_entries
                            && table.is_complete()
                            && table.get(0) == 0
                            && table.max_distance() <= max
                    },
                );
                // A nibble table: its length, 0 at the goal, and its histogram.
                let nibbles_sound = |payload: &[u8], spec: &TableSpec, histogram: &[u64]| {
                    payload.len() as u64 == spec.payload_len()
                        && payload[0] & 15 == 0
                        && cube_tables::histogram(payload, spec.encoding, spec.n_entries)
                            .iter()
                            .copied()
                            .eq(histogram
                                .iter()
                                .copied()
                                .chain(std::iter::repeat(0))
                                .take(HISTOGRAM_LEN))
                };
                let exact_sound = nibbles_sound(&exact, &TABLE_SPECS[5], &PHASE1_HISTOGRAM);
                let corner_edge_sound =
                    nibbles_sound(&corner_edge, &TABLE_SPECS[6], &CORNER_EDGE_HISTOGRAM);
                (sound && exact_sound && corner_edge_sound).then_some((
                    tables,
                    Nibbles(exact),
                    Nibbles(corner_edge),
                ))
            };
        let (
            [
                slice_twist_prune,
                slice_flip_prune,
                twist_flip_prune,
                corner_slice_prune,
                edge_slice_prune,
            ],
            phase1_exact,
            corner_edge_prune,
        ) = match payloads {
            Some(payloads) => from_payloads(payloads)?,
            None => build_prune(
                Phase1 {
                    twist_move: &twist_move,
                    flip_move: &flip_move,
                    slice_move: &slice_move,
                    twist_sym: &twist_sym,
                    flip_sym: &flip_sym,
                    slice_conj: &slice_conj,
                    flip_slice_sym: &flip_slice_sym,
                },
                Phase2 {
                    corner_move: &corner_move,
                    edge_move: &edge_move,
                    slice_perm_move: &slice_perm_move,
                    corner_sym: &corner_sym,
                    edge_conj: &edge_conj,
                },
            ),
        };
        debug_assert_eq!(slice_twist_prune.len(), N_TWIST_SYM * UdSlice::COUNT);
        Some(Tables {
            slice_twist_nibbles: Nibbles::pack(&slice_twist_prune),
            slice_flip_nibbles: Nibbles::pack(&slice_flip_prune),
            twist_flip_nibbles: Nibbles::pack(&twist_flip_prune),
            flip_slice_sym,
            phase1_exact,
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
            corner_sym,
            edge_conj,
            corner_edge_prune,
            build_time: start.elapsed(),
        })
    }
}

/// What the phase-1 distance tables are built from.
struct Phase1<'a> {
    twist_move: &'a MoveTable<Twist>,
    flip_move: &'a MoveTable<Flip>,
    slice_move: &'a MoveTable<UdSlice>,
    twist_sym: &'a SymCoord,
    flip_sym: &'a SymCoord,
    slice_conj: &'a [u16],
    flip_slice_sym: &'a FlipSliceSym,
}

/// What the phase-2 distance tables are built from.
struct Phase2<'a> {
    corner_move: &'a MoveTable<CornerPerm>,
    edge_move: &'a MoveTable<UdEdgePerm>,
    slice_perm_move: &'a MoveTable<SlicePerm>,
    corner_sym: &'a SymCoord,
    edge_conj: &'a [u16],
}

/// The seven breadth-first searches, in parallel: the exact phase-1 table and the phase-2
/// corner x edge table (seconds each) against the other five.
fn build_prune(p1: Phase1<'_>, p2: Phase2<'_>) -> ([DistanceTable; 5], Nibbles, Nibbles) {
    let Phase2 {
        corner_move,
        edge_move,
        slice_perm_move,
        corner_sym,
        edge_conj,
    } = p2;
    let flip_conj = conjugation_table(p1.flip_move, &axis_symmetries());
    let (
        (
            ((slice_twist_prune, slice_flip_prune), twist_flip_prune),
            (corner_slice_prune, edge_slice_prune),
        ),
        phase1_exact,
    ) = rayon::join(
        || {
            rayon::join(
                || {
                    rayon::join(
                        || {
                            rayon::join(
                                || {
                                    sym_distance_table(
                                        p1.twist_sym,
                                        p1.twist_move,
                                        p1.slice_move,
                                        p1.slice_conj,
                                    )
                                },
                                || {
                                    sym_distance_table(
                                        p1.flip_sym,
                                        p1.flip_move,
                                        p1.slice_move,
                                        p1.slice_conj,
                                    )
                                },
                            )
                        },
                        || {
                            sym_distance_table(
                                p1.twist_sym,
                                p1.twist_move,
                                p1.flip_move,
                                &flip_conj,
                            )
                        },
                    )
                },
                || {
                    rayon::join(
                        || DistanceTable::build(&Product::new(corner_move, slice_perm_move), [0]),
                        || DistanceTable::build(&Product::new(edge_move, slice_perm_move), [0]),
                    )
                },
            )
        },
        || {
            Nibbles::pack(&phase1_distance_table(
                p1.flip_slice_sym,
                p1.twist_move,
                p1.flip_move,
                p1.slice_move,
            ))
        },
    );
    // After the exact phase-1 table, not beside it: each holds over 100 MB while it is built.
    let corner_edge_prune = sym_distance_table(corner_sym, corner_move, edge_move, edge_conj);
    (
        [
            slice_twist_prune,
            slice_flip_prune,
            twist_flip_prune,
            corner_slice_prune,
            edge_slice_prune,
        ],
        phase1_exact,
        Nibbles::pack_capped(&corner_edge_prune),
    )
}

impl Tables {
    /// The phase-2 corner x edge lower bound of raw corner and U/D-edge permutations.
    #[inline]
    pub(crate) fn corner_edge_bound(&self, corner: u32, edge: u32) -> u8 {
        let (class, k) = self.corner_sym.class_and_sym(corner);
        let edge = self.edge_conj[(edge * 16 + k) as usize] as u32;
        self.corner_edge_prune
            .get(class * UdEdgePerm::COUNT as u32 + edge)
    }

    /// The distance to G1 of raw `(twist, flip, slice)`.
    #[inline]
    pub(crate) fn phase1_distance(&self, twist: u32, flip: u32, slice: u32) -> u8 {
        self.phase1_exact
            .get(self.flip_slice_sym.index(twist, flip, slice))
    }

    /// The slice x twist lower bound, for the twist's class and symmetry.
    #[inline]
    pub(crate) fn slice_twist_bound(&self, twist_class: u32, twist_sym: u32, slice: u32) -> u8 {
        let slice = self.slice_conj[(slice * 8 + twist_sym) as usize] as u32;
        self.slice_twist_nibbles.get(twist_class * 495 + slice)
    }

    /// The slice x flip lower bound.
    #[inline]
    pub(crate) fn slice_flip_bound(&self, flip: u32, slice: u32) -> u8 {
        let (flip_class, flip_sym) = self.flip_sym.class_and_sym(flip);
        let slice = self.slice_conj[(slice * 8 + flip_sym) as usize] as u32;
        self.slice_flip_nibbles.get(flip_class * 495 + slice)
    }

    /// The twist x flip lower bound, for the twist's class and symmetry.
    #[inline]
    pub(crate) fn twist_flip_bound_sym(&self, twist_class: u32, twist_sym: u32, flip: u32) -> u8 {
        self.twist_flip_nibbles
            .get(twist_class * 2048 + self.flip_sym.conjugate(flip, twist_sym))
    }

    /// The twist x flip lower bound alone (for a conjugated view of the position).
    #[inline]
    pub(crate) fn twist_flip_bound(&self, twist: u32, flip: u32) -> u8 {
        let (twist_class, twist_sym) = self.twist_sym.class_and_sym(twist);
        self.twist_flip_nibbles
            .get(twist_class * 2048 + self.flip_sym.conjugate(flip, twist_sym))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_histograms() {
        let tables = Tables::get();
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
        let twist_slice =
            DistanceTable::build(&Product::new(&tables.twist_move, &tables.slice_move), [0]);
        let flip_slice =
            DistanceTable::build(&Product::new(&tables.flip_move, &tables.slice_move), [0]);
        let twist_flip =
            DistanceTable::build(&Product::new(&tables.twist_move, &tables.flip_move), [0]);
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
            let expected = twist_slice
                .get(t * 495 + s)
                .max(flip_slice.get(f * 495 + s))
                .max(twist_flip.get(t * 2048 + f));
            let (class, sym) = tables.twist_sym.class_and_sym(t);
            let reduced = tables
                .slice_twist_bound(class, sym, s)
                .max(tables.slice_flip_bound(f, s))
                .max(tables.twist_flip_bound_sym(class, sym, f));
            assert_eq!(reduced, expected, "{t} {f} {s}");
            assert_eq!(tables.twist_flip_bound(t, f), twist_flip.get(t * 2048 + f));
            // The exact distance: at least every projection's, 0 only in G1, and one move
            // changes it by at most one and lowers it for some move outside G1.
            let distance = tables.phase1_distance(t, f, s);
            assert!(distance >= expected, "{t} {f} {s}");
            assert_eq!(distance == 0, (t, f, s) == (0, 0, 0));
            let children: Vec<u8> = (0..18)
                .map(|m| {
                    tables.phase1_distance(
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

    #[test]
    fn payloads_round_trip() {
        let tables = Tables::get();
        for (payload, spec) in tables.payloads().iter().zip(TABLE_SPECS) {
            assert_eq!(payload.len() as u64, spec.payload_len(), "{}", spec.id);
        }
        let payloads = tables.payloads().map(<[u8]>::to_vec);
        let rebuilt = Tables::with_prune(Some(payloads.clone())).expect("built payloads are sound");
        assert_eq!(rebuilt.payloads(), tables.payloads());
        let mut bad = payloads;
        bad[5][1000] ^= 1;
        assert!(Tables::with_prune(Some(bad.clone())).is_none());
        bad[5][1000] ^= 1;
        bad[2][7] = DistanceTable::UNREACHED;
        assert!(Tables::with_prune(Some(bad.clone())).is_none());
        bad[2].pop();
        assert!(Tables::with_prune(Some(bad)).is_none());
        // The shared tables are in place, so installing more is refused.
        assert!(!install(tables.payloads().map(<[u8]>::to_vec)));
    }
}
