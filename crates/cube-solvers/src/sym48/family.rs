//! [`Sym48Family`]: the H48 tiers' [`SearchFamily`] impl: a tier's [`H48Table`] beside the corner
//! database's reduction, searched by [`Sym48`].

use std::path::Path;

use cube_tables::corners::SymCorners;
use cube_tables::h48::H48Table;
use cube_tables::{Anonymous, Mapped, TableError, Tier};

use super::Sym48;
use crate::optimal::{
    Configs, FamilyTables, OptimalSearch, OptimalTables, SearchFamily, read_corners, read_own_table,
};
use crate::two_phase::TwoPhase;

/// The H48 family: the corner database and one H48 table per tier.
pub(crate) struct Sym48Family;

impl SearchFamily for Sym48Family {
    fn load_anonymous(
        &self,
        dir: &Path,
        tier: Tier,
        check: bool,
    ) -> Result<OptimalTables<Anonymous>, TableError> {
        let table = H48Table::new(read_own_table(dir, tier, check)?)?;
        OptimalTables::new(dir, Box::new(table), &read_corners(dir, check)?)
    }

    #[allow(unsafe_code)]
    unsafe fn open_mapped(
        &self,
        dir: &Path,
        tier: Tier,
    ) -> Result<OptimalTables<Mapped>, TableError> {
        // SAFETY: the caller's promise, passed on.
        let table = unsafe { H48Table::open_mapped(dir, tier) }?;
        table.table().check_payload_hash()?;
        OptimalTables::new(dir, Box::new(table), &read_corners(dir, true)?)
    }
}

impl<T: AsRef<[u8]> + Send + Sync> FamilyTables<T> for H48Table<T> {
    fn tier(&self) -> Tier {
        H48Table::tier(self)
    }

    fn searcher<'a>(
        &'a self,
        corners: &'a SymCorners,
        two_phase: TwoPhase,
        configs: &Configs,
    ) -> Box<dyn OptimalSearch + 'a> {
        Box::new(Sym48::with_config(self, corners, configs.sym48.clone()).with_two_phase(two_phase))
    }
}
