//! The move and distance tables of the two-phase method, built once per process.
//!
//! Phase 1 walks twist x flip x UD-slice with all 18 moves and prunes with the larger of two
//! projections, slice x twist and slice x flip (Kociemba's original pair). Phase 2 walks corner
//! permutation x U/D-edge permutation x slice permutation with the 10 moves of G1 and prunes with
//! corner x slice and edge x slice permutations. About 4 MB in all.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use cube_core::MoveSet;
use cube_tables::{
    Coord, CornerPerm, DistanceTable, Encoding, Flip, MoveTable, Product, SlicePerm, TableId,
    TableSpec, Twist, UdEdgePerm, UdSlice,
};

/// All tables of the two-phase method.
#[derive(Debug)]
pub(crate) struct Tables {
    pub(crate) twist_move: MoveTable<Twist>,
    pub(crate) flip_move: MoveTable<Flip>,
    pub(crate) slice_move: MoveTable<UdSlice>,
    /// Index `twist * 495 + slice`.
    pub(crate) slice_twist_prune: DistanceTable,
    /// Index `flip * 495 + slice`.
    pub(crate) slice_flip_prune: DistanceTable,
    /// Index `twist * 2048 + flip`.
    pub(crate) twist_flip_prune: DistanceTable,
    pub(crate) corner_move: MoveTable<CornerPerm>,
    pub(crate) edge_move: MoveTable<UdEdgePerm>,
    pub(crate) slice_perm_move: MoveTable<SlicePerm>,
    /// Index `corner_perm * 24 + slice_perm`.
    pub(crate) corner_slice_prune: DistanceTable,
    /// Index `ud_edge_perm * 24 + slice_perm`.
    pub(crate) edge_slice_prune: DistanceTable,
    /// How long building the tables took.
    pub(crate) build_time: Duration,
}

/// The ids and sizes of the five distance tables, in the order of
/// [`table_payloads`](super::table_payloads): one byte per state, so a binary can cache them in
/// table files.
pub const TABLE_SPECS: [TableSpec; 5] = [
    spec("two-phase-slice-twist", Twist::COUNT * UdSlice::COUNT),
    spec("two-phase-slice-flip", Flip::COUNT * UdSlice::COUNT),
    spec("two-phase-twist-flip", Twist::COUNT * Flip::COUNT),
    spec(
        "two-phase-corner-slice",
        CornerPerm::COUNT * SlicePerm::COUNT,
    ),
    spec("two-phase-edge-slice", UdEdgePerm::COUNT * SlicePerm::COUNT),
];

const fn spec(id: &'static str, n_entries: usize) -> TableSpec {
    TableSpec::new(TableId::from_static(id), Encoding::Byte, n_entries as u64)
}

/// The longest distance in each table (phase 1 at most 12 moves, phase 2 at most 18).
const MAX_DISTANCES: [u8; 5] = [12, 12, 12, 18, 18];

static TABLES: OnceLock<Tables> = OnceLock::new();

/// Installs the distance tables from payloads read elsewhere (a cache file, say) before first use;
/// the move tables are rebuilt. Returns `false` (and drops them) when the tables are already in
/// place, or when a payload has the wrong length, an unreached state or an impossible distance.
pub(crate) fn install(payloads: [Vec<u8>; 5]) -> bool {
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

    /// The five distance tables as byte payloads, in the order of [`TABLE_SPECS`].
    pub(crate) fn payloads(&self) -> [&[u8]; 5] {
        [
            &self.slice_twist_prune,
            &self.slice_flip_prune,
            &self.twist_flip_prune,
            &self.corner_slice_prune,
            &self.edge_slice_prune,
        ]
        .map(DistanceTable::as_bytes)
    }

    /// Builds the move tables, then the distance tables from scratch or, when given, from their
    /// payloads; `None` when a payload is unsound.
    fn with_prune(payloads: Option<[Vec<u8>; 5]>) -> Option<Tables> {
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
        let from_payloads =
            |payloads: [Vec<u8>; 5]| {
                let tables = payloads.map(DistanceTable::from_bytes);
                let sound = tables.iter().zip(TABLE_SPECS).zip(MAX_DISTANCES).all(
                    |((table, spec), max)| {
                        table.len() as u64 == spec.n_entries
                            && table.is_complete()
                            && table.get(0) == 0
                            && table.max_distance() <= max
                    },
                );
                sound.then_some(tables)
            };
        let [
            slice_twist_prune,
            slice_flip_prune,
            twist_flip_prune,
            corner_slice_prune,
            edge_slice_prune,
        ] = match payloads {
            Some(payloads) => from_payloads(payloads)?,
            None => build_prune(
                (&twist_move, &flip_move, &slice_move),
                (&corner_move, &edge_move, &slice_perm_move),
            ),
        };
        debug_assert_eq!(slice_twist_prune.len(), Twist::COUNT * UdSlice::COUNT);
        Some(Tables {
            twist_move,
            flip_move,
            slice_move,
            slice_twist_prune,
            slice_flip_prune,
            twist_flip_prune,
            corner_move,
            edge_move,
            slice_perm_move,
            corner_slice_prune,
            edge_slice_prune,
            build_time: start.elapsed(),
        })
    }
}

/// The five breadth-first searches, in parallel.
fn build_prune(
    (twist_move, flip_move, slice_move): (&MoveTable<Twist>, &MoveTable<Flip>, &MoveTable<UdSlice>),
    (corner_move, edge_move, slice_perm_move): (
        &MoveTable<CornerPerm>,
        &MoveTable<UdEdgePerm>,
        &MoveTable<SlicePerm>,
    ),
) -> [DistanceTable; 5] {
    let (
        ((slice_twist_prune, slice_flip_prune), twist_flip_prune),
        (corner_slice_prune, edge_slice_prune),
    ) = rayon::join(
        || {
            rayon::join(
                || {
                    rayon::join(
                        || DistanceTable::build(&Product::new(&twist_move, &slice_move), [0]),
                        || DistanceTable::build(&Product::new(&flip_move, &slice_move), [0]),
                    )
                },
                || DistanceTable::build(&Product::new(&twist_move, &flip_move), [0]),
            )
        },
        || {
            rayon::join(
                || DistanceTable::build(&Product::new(&corner_move, &slice_perm_move), [0]),
                || DistanceTable::build(&Product::new(&edge_move, &slice_perm_move), [0]),
            )
        },
    );
    [
        slice_twist_prune,
        slice_flip_prune,
        twist_flip_prune,
        corner_slice_prune,
        edge_slice_prune,
    ]
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
        eprintln!("built in {:?}", tables.build_time);
    }

    #[test]
    fn payloads_round_trip() {
        let tables = Tables::get();
        for (payload, spec) in tables.payloads().iter().zip(TABLE_SPECS) {
            assert_eq!(payload.len() as u64, spec.n_entries, "{}", spec.id);
        }
        let payloads = tables.payloads().map(<[u8]>::to_vec);
        let rebuilt = Tables::with_prune(Some(payloads.clone())).expect("built payloads are sound");
        assert_eq!(rebuilt.payloads(), tables.payloads());
        let mut bad = payloads;
        bad[2][7] = DistanceTable::UNREACHED;
        assert!(Tables::with_prune(Some(bad.clone())).is_none());
        bad[2].pop();
        assert!(Tables::with_prune(Some(bad)).is_none());
        // The shared tables are in place, so installing more is refused.
        assert!(!install(tables.payloads().map(<[u8]>::to_vec)));
    }
}
