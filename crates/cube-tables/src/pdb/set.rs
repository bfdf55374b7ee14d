//! [`PdbSet`]: the three databases of a tier, loaded or mapped, and the heuristic
//! `h(cube) = max(corners, edges a, edges b)`.

use std::path::Path;

use cube_core::{Cube, Move};

use crate::file::error::{Kind, TableError};
use crate::file::id::Tier;
use crate::file::lock::ReadLock;
use crate::file::mmap::{Anonymous, Mapped};
use crate::file::store::WriteOptions;
use crate::file::table::PruneTable;
use crate::pdb::index::{CornerCoord, CornerMoves, EdgeCoord, EdgeMoveMaps, EdgeSubset};
use crate::pdb::{CORNERS, Pdb, Projection, edge_tables, install_seed, seed_path};

/// The three indexes of a cube in a tier: corners, edges a, edges b.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PdbIndex(pub [usize; 3]);

/// The coordinates of a cube in a tier, updated move by move without going through the cube.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PdbCoord {
    /// The corner coordinate.
    pub corners: CornerCoord,
    /// The coordinates of the two edge subsets.
    pub edges: [EdgeCoord; 2],
}

impl PdbCoord {
    /// The coordinate after move `m`: two corner table lookups and `2k` edge map lookups.
    #[inline]
    pub fn apply(&self, m: Move, corners: &CornerMoves, edges: &EdgeMoveMaps) -> PdbCoord {
        PdbCoord {
            corners: self.corners.apply(m, corners),
            edges: [self.edges[0].apply(m, edges), self.edges[1].apply(m, edges)],
        }
    }

    /// The table indexes.
    #[inline]
    pub fn index(&self) -> PdbIndex {
        PdbIndex([
            self.corners.index(),
            self.edges[0].index(),
            self.edges[1].index(),
        ])
    }
}

/// The corner database and the two edge databases of a tier, over any payload storage: `Vec<u8>`
/// ([`PdbSet::load`]), anonymous huge pages ([`PdbSet::load_anonymous`], the fast path for search) or a
/// file map ([`PdbSet::open_mapped`], zero-copy).
#[derive(Debug)]
pub struct PdbSet<T> {
    tier: Tier,
    corners: PruneTable<T>,
    edges: [PruneTable<T>; 2],
    subsets: [EdgeSubset; 2],
}

impl PdbSet<Vec<u8>> {
    /// Reads the tables of `tier` from `dir` into owned buffers, checking each payload hash; installs
    /// seeds (`.tbl.zst`) for missing files first.
    ///
    /// # Errors
    ///
    /// The errors of [`PruneTable::load`] (`Missing` when a table is not baked: the message says to run
    /// `cargo xtask bake-tables --tier <tier>`), and those of [`install_seed`].
    pub fn load(dir: &Path, tier: Tier) -> Result<PdbSet<Vec<u8>>, TableError> {
        PdbSet::open_with(dir, tier, |path, table| PruneTable::load(path, &table.spec))
    }
}

impl PdbSet<Anonymous> {
    /// Copies the tables of `tier` from `dir` into anonymous memory advised to use transparent huge pages,
    /// checking each payload hash on the way ([`PruneTable::load_anonymous`]); installs seeds first, as
    /// [`PdbSet::load`] does. This is the load for a search: a corrupt table is refused before it can
    /// give a wrong bound.
    ///
    /// # Errors
    ///
    /// The errors of [`PdbSet::load`], `PayloadHash` included.
    pub fn load_anonymous(dir: &Path, tier: Tier) -> Result<PdbSet<Anonymous>, TableError> {
        PdbSet::open_with(dir, tier, |path, table| {
            PruneTable::load_anonymous(path, &table.spec)
        })
    }

    /// [`PdbSet::load_anonymous`] without the payload hashes, for benchmarks of the load: a search over
    /// a corrupt table then proves nothing.
    ///
    /// # Errors
    ///
    /// The errors of [`PdbSet::load`] except `PayloadHash`.
    pub fn load_anonymous_unchecked(
        dir: &Path,
        tier: Tier,
    ) -> Result<PdbSet<Anonymous>, TableError> {
        PdbSet::open_with(dir, tier, |path, table| {
            PruneTable::load_anonymous_unchecked(path, &table.spec)
        })
    }
}

impl PdbSet<Mapped> {
    /// Maps the tables of `tier` from `dir`; installs seeds first, as [`PdbSet::load`] does. Opening
    /// checks the headers only, in constant time: nothing proves that the payloads are sound, so call
    /// [`verify_table`](crate::pdb::verify_table) on each table (or use [`PdbSet::load_anonymous`])
    /// before a search relies on the set.
    ///
    /// # Safety
    ///
    /// The caller promises that no table file under `dir` is modified or truncated while the set is
    /// alive: a truncated file under a map ends the process with `SIGBUS`, and a modified one changes the
    /// lookups under the search. Baked tables are write-once files (a new bake renames a new file over
    /// the old one, which leaves the mapped one intact), so this holds unless someone writes into them
    /// by hand or truncates them; a caller that cannot rule that out reads the tables instead.
    ///
    /// # Errors
    ///
    /// The errors of [`PdbSet::load`] except `PayloadHash`.
    #[allow(unsafe_code)]
    pub unsafe fn open_mapped(dir: &Path, tier: Tier) -> Result<PdbSet<Mapped>, TableError> {
        PdbSet::open_with(dir, tier, |path, table| {
            // SAFETY: a propagation of the caller's promise that the files are not modified.
            unsafe { PruneTable::open_mapped(path, &table.spec) }
        })
    }
}

impl<T: AsRef<[u8]>> PdbSet<T> {
    fn open_with(
        dir: &Path,
        tier: Tier,
        open: impl Fn(&Path, &Pdb) -> Result<PruneTable<T>, TableError>,
    ) -> Result<PdbSet<T>, TableError> {
        let &[a, b] = edge_tables(tier) else {
            let what = format!("tier {tier} has no Korf edge tables (use 6edge, 7edge or 8edge)");
            return Err(TableError::new(Kind::InvalidInput { what }));
        };
        let corners = CORNERS;
        for table in [&corners, &a, &b] {
            let path = table.spec.path_in(dir);
            if !path.exists() && seed_path(&path).exists() {
                install_seed(dir, table, &WriteOptions::new().wait_for_lock(true))?;
            }
        }
        // The three opens under one read lock: no bake or clean replaces or removes a table between
        // them (lock.rs).
        let _read = ReadLock::acquire(dir);
        let open_one = |table: &Pdb| open(&table.spec.path_in(dir), table);
        Ok(PdbSet {
            tier,
            corners: open_one(&corners)?,
            edges: [open_one(&a)?, open_one(&b)?],
            subsets: [subset(&a), subset(&b)],
        })
    }

    /// The tier.
    pub fn tier(&self) -> Tier {
        self.tier
    }

    /// The corner database.
    pub fn corners(&self) -> &PruneTable<T> {
        &self.corners
    }

    /// The two edge databases.
    pub fn edges(&self) -> &[PruneTable<T>; 2] {
        &self.edges
    }

    /// The two edge subsets.
    pub fn subsets(&self) -> &[EdgeSubset; 2] {
        &self.subsets
    }

    /// The three indexes of `cube`.
    #[inline]
    pub fn index(&self, cube: &Cube) -> PdbIndex {
        PdbIndex([
            crate::pdb::corner_index(cube),
            self.subsets[0].index(cube),
            self.subsets[1].index(cube),
        ])
    }

    /// The coordinates of `cube`, for [`PdbCoord::apply`].
    pub fn coord(&self, cube: &Cube) -> PdbCoord {
        PdbCoord {
            corners: CornerCoord::from_cube(cube),
            edges: [self.subsets[0].coord(cube), self.subsets[1].coord(cube)],
        }
    }

    /// Starts loading the cache lines of the three entries, for a lookup soon after.
    #[inline]
    pub fn prefetch(&self, index: &PdbIndex) {
        self.corners.prefetch(index.0[0]);
        self.edges[0].prefetch(index.0[1]);
        self.edges[1].prefetch(index.0[2]);
    }

    /// The heuristic at `index`: the maximum of the three entries, a lower bound on the distance.
    #[inline]
    pub fn h_at(&self, index: &PdbIndex) -> u8 {
        let corners = self.corners.get(index.0[0]);
        let a = self.edges[0].get(index.0[1]);
        let b = self.edges[1].get(index.0[2]);
        corners.max(a).max(b)
    }

    /// The heuristic of `cube`: `max(corners, edges a, edges b)`, a lower bound on its distance (half-turn
    /// metric).
    #[inline]
    pub fn h(&self, cube: &Cube) -> u8 {
        self.h_at(&self.index(cube))
    }
}

fn subset(table: &Pdb) -> EdgeSubset {
    match table.projection {
        Projection::Edges(subset) => subset,
        Projection::Corners => {
            unreachable!("the second and third tables of a tier are edge tables")
        }
    }
}
