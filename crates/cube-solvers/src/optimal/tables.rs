//! [`OptimalTables`]: the tables of one optimal tier, loaded once, and the search of its family;
//! [`SearchFamily`]: what a family does here (loads its tables, makes its search), one impl in
//! each family's module and one row of [`SEARCHES`] each.

use std::fmt;
use std::path::Path;

use cube_tables::corners::SymCorners;
use cube_tables::{Anonymous, Family, Mapped, PruneTable, TableError, TableSpec, Tier, tier};

use super::{OptimalSearch, SearchConfig};
use crate::two_phase::TwoPhase;
use crate::{korf, nx, sym48};

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
pub struct OptimalTables<T> {
    tables: Box<dyn FamilyTables<T>>,
    corners: SymCorners,
}

impl<T> fmt::Debug for OptimalTables<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OptimalTables")
            .field("tier", &self.tables.tier())
            .finish_non_exhaustive()
    }
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

/// What an optimal family does in cube-solvers, beside its tables' family in cube-tables
/// ([`tier::TierFamily`]): loads a tier's own tables and makes its search over them. One impl in
/// each family's module, one row of [`SEARCHES`] each; nothing else here knows the families.
pub(crate) trait SearchFamily: Sync {
    /// Reads the tables of `tier` (one of the family's) from `dir` into anonymous memory, hashing
    /// each payload when `check`; with the corner database's reduction.
    fn load_anonymous(
        &self,
        dir: &Path,
        tier: Tier,
        check: bool,
    ) -> Result<OptimalTables<Anonymous>, TableError>;

    /// Maps the tables of `tier` from `dir`, each payload hashed through its map.
    ///
    /// # Safety
    ///
    /// As [`OptimalTables::open_mapped`].
    #[allow(unsafe_code)]
    unsafe fn open_mapped(
        &self,
        dir: &Path,
        tier: Tier,
    ) -> Result<OptimalTables<Mapped>, TableError>;
}

/// A family's loaded tables: what [`OptimalTables`] keeps of them and asks of them.
pub(crate) trait FamilyTables<T>: Send + Sync {
    /// The tier of the tables.
    fn tier(&self) -> Tier;

    /// The family's search over these tables and `corners`, configured by its field of `configs`.
    fn searcher<'a>(
        &'a self,
        corners: &'a SymCorners,
        two_phase: TwoPhase,
        configs: &Configs,
    ) -> Box<dyn OptimalSearch + 'a>;
}

/// The families of cube-solvers, one row each: a family of cube-tables' catalogue and its impl
/// here. A new family adds its row (and its field of [`Configs`]).
const SEARCHES: [(Family, &dyn SearchFamily); 3] = [
    (Family::Korf, &korf::KorfFamily),
    (Family::H48, &sym48::Sym48Family),
    (Family::Nx, &nx::NxFamily),
];

/// The row of `family` in [`SEARCHES`].
fn search_family(family: Family) -> &'static dyn SearchFamily {
    SEARCHES
        .iter()
        .find(|(f, _)| *f == family)
        .map(|(_, search)| *search)
        .expect("every family of the catalogue has its row of SEARCHES (tested)")
}

impl OptimalTables<Anonymous> {
    /// Reads the tables of `tier` from `dir` into anonymous memory (huge pages), hashing each
    /// payload on the way when `check` (without it, for benchmarks of the load, a search over a
    /// corrupt table proves nothing); a Korf tier installs its seeds first, as
    /// [`PdbSet::load_anonymous`](cube_tables::pdb::PdbSet::load_anonymous) does.
    ///
    /// # Errors
    ///
    /// The errors of `PdbSet::load_anonymous` and [`PruneTable::load_anonymous`]: a table missing,
    /// invalid, or (when `check`) of another payload hash.
    pub fn load_anonymous(
        dir: &Path,
        tier: Tier,
        check: bool,
    ) -> Result<OptimalTables<Anonymous>, TableError> {
        search_family(tier.family()).load_anonymous(dir, tier, check)
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
    /// The errors of `PdbSet::open_mapped` (a Korf tier) and [`PruneTable::open_mapped`] (an H48
    /// or nx tier's table), and `PayloadHash`.
    #[allow(unsafe_code)]
    pub unsafe fn open_mapped(dir: &Path, tier: Tier) -> Result<OptimalTables<Mapped>, TableError> {
        // SAFETY: the caller's promise, passed on.
        unsafe { search_family(tier.family()).open_mapped(dir, tier) }
    }
}

/// A family whose tier has one own table beside the corner database (H48, nx): what it makes of
/// that table, read or mapped. Its [`SearchFamily`] impl is this one: the table loaded or mapped
/// and hashed, the corner database read for its reduction.
pub(crate) trait OneTableFamily: Sync {
    /// The family's tables of its tier's own `table`.
    fn tables<T: AsRef<[u8]> + Send + Sync + 'static>(
        &self,
        table: PruneTable<T>,
    ) -> Result<Box<dyn FamilyTables<T>>, TableError>;
}

impl<F: OneTableFamily> SearchFamily for F {
    fn load_anonymous(
        &self,
        dir: &Path,
        tier: Tier,
        check: bool,
    ) -> Result<OptimalTables<Anonymous>, TableError> {
        let tables = self.tables(read(dir, &tier::own_table(tier)?, check)?)?;
        OptimalTables::new(dir, tables, &read(dir, &tier::CORNERS, check)?)
    }

    #[allow(unsafe_code)]
    unsafe fn open_mapped(
        &self,
        dir: &Path,
        tier: Tier,
    ) -> Result<OptimalTables<Mapped>, TableError> {
        let spec = tier::own_table(tier)?;
        // SAFETY: the caller's promise, passed on.
        let table = unsafe { PruneTable::open_mapped(&spec.path_in(dir), &spec) }?;
        table.check_payload_hash()?;
        // Of a mapped tier's corner database only the reduction is kept: read and hashed.
        OptimalTables::new(dir, self.tables(table)?, &read(dir, &tier::CORNERS, true)?)
    }
}

/// The table `spec` of `dir`, read into anonymous memory, hashed when `check`.
fn read(dir: &Path, spec: &TableSpec, check: bool) -> Result<PruneTable<Anonymous>, TableError> {
    let path = spec.path_in(dir);
    if check {
        PruneTable::load_anonymous(&path, spec)
    } else {
        PruneTable::load_anonymous_unchecked(&path, spec)
    }
}

impl<T: AsRef<[u8]> + Sync> OptimalTables<T> {
    /// A family's `tables` of `dir` with the reduction of the corner database `corners` (cached
    /// in `dir`).
    pub(crate) fn new<C: AsRef<[u8]> + Sync>(
        dir: &Path,
        tables: Box<dyn FamilyTables<T>>,
        corners: &PruneTable<C>,
    ) -> Result<OptimalTables<T>, TableError> {
        let corners = SymCorners::load_or_build(dir, corners)?;
        Ok(OptimalTables::with(tables, corners))
    }

    /// A family's `tables` with `corners`, the reduction of their corner database.
    pub(crate) fn with(tables: Box<dyn FamilyTables<T>>, corners: SymCorners) -> OptimalTables<T> {
        OptimalTables { tables, corners }
    }

    /// The tier of the tables.
    pub fn tier(&self) -> Tier {
        self.tables.tier()
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
    /// As [`Korf::with_config`](korf::Korf::with_config),
    /// [`Sym48::with_config`](sym48::Sym48::with_config) and
    /// [`Nx::with_config`](nx::Nx::with_config), on a configuration they refuse.
    pub fn searcher_with(
        &self,
        two_phase: TwoPhase,
        configs: &Configs,
    ) -> Box<dyn OptimalSearch + '_> {
        self.tables.searcher(&self.corners, two_phase, configs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_of_the_catalogue_has_one_row() {
        for tier in Tier::ALL {
            let rows = SEARCHES.iter().filter(|(f, _)| *f == tier.family()).count();
            assert_eq!(rows, 1, "{tier}: {}", tier.family());
        }
    }
}
