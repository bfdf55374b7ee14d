//! [`Sym48Family`]: the H48 tiers' family of searches: a tier's [`H48Table`] beside the corner
//! database's reduction, searched by [`Sym48`].

use cube_tables::corners::SymCorners;
use cube_tables::h48::H48Table;
use cube_tables::{PruneTable, TableError, Tier};

use super::Sym48;
use crate::optimal::{Configs, FamilyTables, OneTableFamily, OptimalSearch};
use crate::two_phase::TwoPhase;

/// The H48 family: the corner database and one H48 table per tier.
pub(crate) struct Sym48Family;

impl OneTableFamily for Sym48Family {
    fn tables<T: AsRef<[u8]> + Send + Sync + 'static>(
        &self,
        table: PruneTable<T>,
    ) -> Result<Box<dyn FamilyTables<T>>, TableError> {
        Ok(Box::new(H48Table::new(table)?))
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
