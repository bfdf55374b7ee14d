//! [`OptimalTables`]: the tables of one optimal tier, loaded once, and the search of its family.

use std::borrow::Cow;
use std::path::Path;

use cube_tables::corners::SymCorners;
use cube_tables::h48::H48Table;
use cube_tables::nx::NxTable;
use cube_tables::pdb::PdbSet;
use cube_tables::{Anonymous, Family, Mapped, PruneTable, TableError, TableSpec, Tier, tier};

use super::{OptimalSearch, SearchConfig};
use crate::korf::{self, Korf};
use crate::nx::{self, Nx};
use crate::sym48::{self, Sym48};
use crate::two_phase::TwoPhase;

/// The tables of one optimal tier, whatever its [`Family`]: a Korf tier's pattern databases, an H48
/// tier's table or an nx tier's, with the corner database reduced by symmetry ([`SymCorners`]),
/// derived once and cached beside the tables ([`SymCorners::load_or_build`]) for every search over
/// them. A caller loads them once ([`OptimalTables::load_anonymous`], or
/// [`OptimalTables::open_mapped`]) and asks for a search per use ([`OptimalTables::searcher`]); it
/// never matches on the family.
///
/// ```no_run
/// use cube_solvers::optimal::{OptimalSearch, OptimalTables};
/// use cube_solvers::two_phase::TwoPhase;
/// use cube_solvers::{Limits, Stop, Tier};
///
/// let tables = OptimalTables::load_anonymous(std::path::Path::new("tables"), Tier::H0, true)?;
/// let search = tables.searcher(TwoPhase::default());
/// let cube = cube_core::Cube::SOLVED.apply_alg(&"R U R' U'".parse().unwrap());
/// let outcome = search.search(&cube, &Limits::default(), &Stop::new(), &mut |_| {})?;
/// assert_eq!(outcome.solutions[0].moves.len(), 4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct OptimalTables<T> {
    tables: FamilyTables<T>,
    corners: SymCorners,
}

/// The configuration of each family's search, of which [`OptimalTables::searcher_with`] takes
/// that of the tables' family.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Configs {
    /// The Korf tiers' search.
    pub korf: korf::Config,
    /// The H48 tiers' search.
    pub sym48: sym48::Config,
    /// The nx tiers' search.
    pub nx: nx::Config,
}

impl Configs {
    /// Each family's [`SearchConfig`], to give them all one setting (a benchmark's
    /// `--prefix-depth` or `--no-upper-bound`).
    pub fn searches_mut(&mut self) -> [&mut SearchConfig; 3] {
        [
            &mut self.korf.search,
            &mut self.sym48.search,
            &mut self.nx.search,
        ]
    }
}

/// The tables of a tier, by family (loaded once per process: the size of the value is no matter).
#[derive(Debug)]
#[allow(clippy::large_enum_variant)]
enum FamilyTables<T> {
    Korf(PdbSet<T>),
    H48(H48Table<T>),
    Nx(NxTable<T>),
}

impl OptimalTables<Anonymous> {
    /// Reads the tables of `tier` from `dir` into anonymous memory (huge pages), hashing each
    /// payload on the way when `check` (without it, for benchmarks of the load, a search over a
    /// corrupt table proves nothing); a Korf tier installs its seeds first, as
    /// [`PdbSet::load_anonymous`] does.
    ///
    /// # Errors
    ///
    /// The errors of [`PdbSet::load_anonymous`] and [`PruneTable::load_anonymous`]: a table missing,
    /// invalid, or (when `check`) of another payload hash.
    pub fn load_anonymous(
        dir: &Path,
        tier: Tier,
        check: bool,
    ) -> Result<OptimalTables<Anonymous>, TableError> {
        let read = |spec: &TableSpec| {
            let path = spec.path_in(dir);
            if check {
                PruneTable::load_anonymous(&path, spec)
            } else {
                PruneTable::load_anonymous_unchecked(&path, spec)
            }
        };
        match tier.family() {
            Family::Korf => {
                let set = if check {
                    PdbSet::load_anonymous(dir, tier)
                } else {
                    PdbSet::load_anonymous_unchecked(dir, tier)
                }?;
                OptimalTables::korf(dir, set)
            }
            Family::H48 => {
                let table = H48Table::new(read(&tier::own_table(tier)?)?)?;
                OptimalTables::with_corners(dir, FamilyTables::H48(table), &read(&tier::CORNERS)?)
            }
            Family::Nx => {
                let table = NxTable::new(read(&tier::own_table(tier)?)?)?;
                OptimalTables::with_corners(dir, FamilyTables::Nx(table), &read(&tier::CORNERS)?)
            }
        }
    }
}

impl OptimalTables<Mapped> {
    /// Maps the tables of `tier` from `dir` (one copy in the page cache, shared by the processes
    /// that map it), hashing each payload through its map before any search; the corner database
    /// of an H48 or nx tier is read and hashed, only its reduction kept.
    ///
    /// # Safety
    ///
    /// As [`PruneTable::open_mapped`]: no one may write into or truncate the files while they
    /// are mapped (the toolkit's bakes rename a new file over an old one, which leaves a mapped
    /// one intact).
    ///
    /// # Errors
    ///
    /// The errors of [`PdbSet::open_mapped`], [`H48Table::open_mapped`] and (an nx tier's table)
    /// [`PruneTable::open_mapped`], and `PayloadHash`.
    #[allow(unsafe_code)]
    pub unsafe fn open_mapped(dir: &Path, tier: Tier) -> Result<OptimalTables<Mapped>, TableError> {
        match tier.family() {
            Family::Korf => {
                // SAFETY: the caller's promise, passed on.
                let set = unsafe { PdbSet::open_mapped(dir, tier) }?;
                std::iter::once(set.corners())
                    .chain(set.edges())
                    .try_for_each(PruneTable::check_payload_hash)?;
                OptimalTables::korf(dir, set)
            }
            Family::H48 => {
                // SAFETY: the caller's promise, passed on.
                let table = unsafe { H48Table::open_mapped(dir, tier) }?;
                table.table().check_payload_hash()?;
                let corners = read_corners(dir)?;
                OptimalTables::with_corners(dir, FamilyTables::H48(table), &corners)
            }
            Family::Nx => {
                let spec = tier::own_table(tier)?;
                // SAFETY: the caller's promise, passed on.
                let table = unsafe { PruneTable::open_mapped(&spec.path_in(dir), &spec) }?;
                table.check_payload_hash()?;
                let corners = read_corners(dir)?;
                OptimalTables::with_corners(dir, FamilyTables::Nx(NxTable::new(table)?), &corners)
            }
        }
    }
}

/// The corner database in `dir`, read into anonymous memory and hashed (of a mapped tier, only
/// its reduction is kept).
fn read_corners(dir: &Path) -> Result<PruneTable<Anonymous>, TableError> {
    PruneTable::load_anonymous(&tier::CORNERS.path_in(dir), &tier::CORNERS)
}

impl<T: AsRef<[u8]> + Sync> OptimalTables<T> {
    /// A Korf tier's tables from `dir`, with the reduction of their corner database (cached
    /// there).
    fn korf(dir: &Path, set: PdbSet<T>) -> Result<OptimalTables<T>, TableError> {
        let corners = SymCorners::load_or_build(dir, set.corners())?;
        Ok(OptimalTables {
            tables: FamilyTables::Korf(set),
            corners,
        })
    }

    /// A tier's `tables` with the reduction of the corner database `corners` of `dir` (cached
    /// there).
    fn with_corners<C: AsRef<[u8]> + Sync>(
        dir: &Path,
        tables: FamilyTables<T>,
        corners: &PruneTable<C>,
    ) -> Result<OptimalTables<T>, TableError> {
        let corners = SymCorners::load_or_build(dir, corners)?;
        Ok(OptimalTables { tables, corners })
    }

    /// The tier of the tables.
    pub fn tier(&self) -> Tier {
        match &self.tables {
            FamilyTables::Korf(set) => set.tier(),
            FamilyTables::H48(table) => table.tier(),
            FamilyTables::Nx(table) => table.tier(),
        }
    }

    /// The search of the tier's family over these tables, with its default configuration and
    /// `two_phase` for the upper bound: cheap to make (the tables and the corner reduction are
    /// borrowed), so make one per use.
    pub fn searcher(&self, two_phase: TwoPhase) -> Box<dyn OptimalSearch + '_> {
        self.searcher_with(two_phase, &Configs::default())
    }

    /// [`OptimalTables::searcher`] with the family's configuration taken from `configs` (for a
    /// caller that tunes the searches, such as a benchmark).
    ///
    /// # Panics
    /// As [`Korf::with_config`], [`Sym48::with_config`] and [`Nx::with_config`], on a configuration
    /// they refuse.
    pub fn searcher_with(
        &self,
        two_phase: TwoPhase,
        configs: &Configs,
    ) -> Box<dyn OptimalSearch + '_> {
        match &self.tables {
            FamilyTables::Korf(set) => Box::new(
                Korf::with_corners(set, Cow::Borrowed(&self.corners), configs.korf.clone())
                    .with_two_phase(two_phase),
            ),
            FamilyTables::H48(table) => Box::new(
                Sym48::with_config(table, &self.corners, configs.sym48.clone())
                    .with_two_phase(two_phase),
            ),
            FamilyTables::Nx(table) => Box::new(
                Nx::with_config(table, &self.corners, configs.nx.clone()).with_two_phase(two_phase),
            ),
        }
    }
}
