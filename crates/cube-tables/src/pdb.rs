//! The pattern databases of Korf's optimal solver: a corner database and two edge-subset databases per
//! [`Tier`], how they are baked, loaded, looked up and verified.
//!
//! | table | id | entries | what it indexes |
//! |---|---|---:|---|
//! | corners | `korf-corners` | 88,179,840 | corner permutation x twist |
//! | 6edge | `korf-edges-6a`, `-6b` | 42,577,920 | edges {0..5}, {6..11} |
//! | 7edge | `korf-edges-7a`, `-7b` | 510,935,040 | edges {0..6}, {5..11} |
//! | 8edge | `korf-edges-8a`, `-8b` | 5,109,350,400 | edges {0..7}, {4..11} |
//!
//! Every entry is the exact distance (half-turn metric) of the projected state from the projected goal,
//! stored in 4 bits. The index functions are in [`CornerCoord`] and [`EdgeSubset`], and their SIMD
//! form, which a search computes per node, in [`EdgeIndexer`] and [`corner_coord`] (tested equal);
//! [`PdbSet`] holds the three tables of a tier and answers `h(cube) = max(corners, edges a, edges b)`.
//!
//! - [`bake()`] and [`bake_tier`] fill a table with a parallel breadth-first search over a memory-mapped
//!   byte-per-entry scratch file, check its histogram against [`expected`], pack it to nibbles and write it
//!   atomically. A re-run skips the tables that are baked and valid.
//! - [`verify_table`] rescans a table (hash and histogram), compares it with [`expected`], and spot-checks
//!   entries against their neighbours and against an independent search.
//! - [`pack_seed`] and [`install_seed`] compress a table to `<file>.zst` and install it back; the loaders
//!   install a seed when the table file is missing.
//!
//! # Example
//!
//! ```no_run
//! use cube_core::{Cube, Move};
//! use cube_tables::Tier;
//! use cube_tables::pdb::{self, PdbSet};
//!
//! let dir = std::path::Path::new("tables");
//! pdb::bake_tier(dir, Tier::Edge6, &pdb::BakeOptions::default(), &|_| {})?;
//! let set = PdbSet::load_anonymous(dir, Tier::Edge6)?;
//! let cube = Cube::SOLVED.apply_moves(&[Move::R1, Move::U1, Move::F2]);
//! assert!(set.h(&cube) <= 3);
//! # Ok::<(), cube_tables::TableError>(())
//! ```

pub(crate) mod bake;
mod bfs;
mod bitmap;
mod check;
pub mod expected;
pub(crate) mod family;
mod fast_index;
mod index;
mod seed;
mod set;

use crate::corners::CORNER_COUNT;
use crate::file::error::TableError;
use crate::file::format::Histogram;
use crate::file::id::{Encoding, Fix, TableId, TableSpec, Tier};
use crate::tier::catalogue::Family;

pub use self::bake::{CORNER_BACKWARD_FACTOR, EDGE_BACKWARD_FACTOR, Event, bake, bake_tier};
pub use self::check::verify_table;
pub use self::family::Korf;
pub use self::fast_index::{EdgeIndexer, corner_coord};
pub use self::index::{EdgeCoord, EdgeMoveMaps, EdgeSubset};
pub use self::seed::{install_seed, pack_seed, seed_path};
pub use self::set::{PdbCoord, PdbIndex, PdbSet};
pub use crate::corners::{
    CORNER_PERM_COUNT, CornerCoord, CornerMoves, SymCorners, TWIST_COUNT, corner_index,
    corner_perm_unrank, twist_unrank,
};
pub use crate::file::bake::{BakeReport, Direction, LevelStats};
pub use crate::tier::family::{BakeOptions, ScratchKind, SpotCheck, VerifyReport, with_threads};

/// What a pattern database projects the cube onto.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Projection {
    /// Corner permutation and twist.
    Corners,
    /// The positions and flips of an edge subset.
    Edges(EdgeSubset),
}

/// One pattern database: its file spec and what it indexes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pdb {
    /// The table file spec (id, tier, nibble encoding, entry count, fix).
    pub spec: TableSpec,
    /// What the table indexes.
    pub projection: Projection,
}

/// The corner database, `korf-corners`: in every tier, and baked by every `bake-tables --tier`.
pub const CORNERS: Pdb = Pdb {
    spec: TableSpec::new(
        TableId::from_static("korf-corners"),
        Encoding::Nibble,
        CORNER_COUNT as u64,
    )
    .with_fix(Fix::BakeAnyTier),
    projection: Projection::Corners,
};

const fn edges(id: &'static str, tier: Tier, subset: EdgeSubset) -> Pdb {
    Pdb {
        spec: TableSpec::new(
            TableId::from_static(id),
            Encoding::Nibble,
            subset.n_entries() as u64,
        )
        .with_tier(tier),
        projection: Projection::Edges(subset),
    }
}

/// Edges {0..5}.
pub const EDGES_6A: Pdb = edges("korf-edges-6a", Tier::Edge6, EdgeSubset::EDGES_6A);
/// Edges {6..11}.
pub const EDGES_6B: Pdb = edges("korf-edges-6b", Tier::Edge6, EdgeSubset::EDGES_6B);
/// Edges {0..6}.
pub const EDGES_7A: Pdb = edges("korf-edges-7a", Tier::Edge7, EdgeSubset::EDGES_7A);
/// Edges {5..11}.
pub const EDGES_7B: Pdb = edges("korf-edges-7b", Tier::Edge7, EdgeSubset::EDGES_7B);
/// Edges {0..7}.
pub const EDGES_8A: Pdb = edges("korf-edges-8a", Tier::Edge8, EdgeSubset::EDGES_8A);
/// Edges {4..11}.
pub const EDGES_8B: Pdb = edges("korf-edges-8b", Tier::Edge8, EdgeSubset::EDGES_8B);

/// The two edge databases of a Korf tier; none for another family's tier: the Korf family's row of
/// [`tier::specs`](crate::tier::specs), which every caller outside this module asks.
pub(crate) const fn edge_tables(tier: Tier) -> &'static [Pdb] {
    match (tier.family(), tier.parts()[0]) {
        (Family::Korf, 6) => &[EDGES_6A, EDGES_6B],
        (Family::Korf, 7) => &[EDGES_7A, EDGES_7B],
        (Family::Korf, 8) => &[EDGES_8A, EDGES_8B],
        _ => &[],
    }
}

/// Checks the header, the size and the id of the file at `path` against `table`, in constant time,
/// without reading or mapping the payload (a status report; a search loads with
/// [`PdbSet::load_anonymous`], which also hashes the payload).
///
/// # Errors
///
/// The header and length errors of [`PruneTable::load`](crate::PruneTable::load).
pub fn check_header(path: &std::path::Path, table: &Pdb) -> Result<(), TableError> {
    crate::file::table::check_header(path, &table.spec)
}

impl Pdb {
    /// The table id.
    pub fn id(&self) -> TableId {
        self.spec.id
    }

    /// The number of entries.
    pub fn n_entries(&self) -> usize {
        self.spec.n_entries as usize
    }

    /// The published histogram of this table ([`expected`]), when there is one.
    pub fn expected_histogram(&self) -> Option<Histogram> {
        match &self.projection {
            Projection::Corners => Some(expected::corners()),
            Projection::Edges(subset) => expected::edges(subset),
        }
    }

    /// The index of the goal (the solved cube), the one entry of distance 0.
    pub fn goal(&self) -> usize {
        match &self.projection {
            Projection::Corners => 0,
            Projection::Edges(subset) => subset.solved().index(),
        }
    }

    /// The index of `cube` in this table.
    pub fn index(&self, cube: &cube_core::Cube) -> usize {
        match &self.projection {
            Projection::Corners => corner_index(cube),
            Projection::Edges(subset) => subset.index(cube),
        }
    }
}
