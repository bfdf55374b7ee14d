//! [`NxFamily`]: the nx tiers' [`SearchFamily`] impl: a tier's [`NxTable`] beside the corner
//! database's reduction, searched by [`Nx`].

use std::path::Path;

use cube_tables::corners::SymCorners;
use cube_tables::nx::NxTable;
use cube_tables::{Anonymous, Mapped, PruneTable, TableError, Tier, tier};

use super::Nx;
use crate::optimal::{
    Configs, FamilyTables, OptimalSearch, OptimalTables, SearchFamily, read_corners, read_own_table,
};
use crate::two_phase::TwoPhase;

/// The nx family: the corner database and one nx table per tier, in either metric.
pub(crate) struct NxFamily;

impl SearchFamily for NxFamily {
    fn load_anonymous(
        &self,
        dir: &Path,
        tier: Tier,
        check: bool,
    ) -> Result<OptimalTables<Anonymous>, TableError> {
        let table = NxTable::new(read_own_table(dir, tier, check)?)?;
        OptimalTables::new(dir, Box::new(table), &read_corners(dir, check)?)
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
        OptimalTables::new(
            dir,
            Box::new(NxTable::new(table)?),
            &read_corners(dir, true)?,
        )
    }
}

impl<T: AsRef<[u8]> + Send + Sync> FamilyTables<T> for NxTable<T> {
    fn tier(&self) -> Tier {
        NxTable::tier(self)
    }

    fn searcher<'a>(
        &'a self,
        corners: &'a SymCorners,
        two_phase: TwoPhase,
        configs: &Configs,
    ) -> Box<dyn OptimalSearch + 'a> {
        Box::new(Nx::with_config(self, corners, configs.nx.clone()).with_two_phase(two_phase))
    }
}
