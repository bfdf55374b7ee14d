//! [`NxFamily`]: the nx tiers' family of searches: a tier's [`NxTable`] beside the corner
//! database's reduction, searched by [`Nx`].

use cube_tables::corners::SymCorners;
use cube_tables::nx::NxTable;
use cube_tables::{PruneTable, TableError, Tier};

use super::Nx;
use crate::optimal::{Configs, FamilyTables, OneTableFamily, OptimalSearch};
use crate::two_phase::TwoPhase;

/// The nx family: the corner database and one nx table per tier, in either metric.
pub(crate) struct NxFamily;

impl OneTableFamily for NxFamily {
    fn tables<T: AsRef<[u8]> + Send + Sync + 'static>(
        &self,
        table: PruneTable<T>,
    ) -> Result<Box<dyn FamilyTables<T>>, TableError> {
        Ok(Box::new(NxTable::new(table)?))
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
