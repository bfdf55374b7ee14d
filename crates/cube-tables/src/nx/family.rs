//! [`Nx`]: the nx family's [`TierFamily`] impl: one table per tier, each baked alone.

use super::bake::bake_under;
use super::coord::N_CORNER_CLASSES;
use super::table::{spec, spec_or_error, subgroup};
use crate::file::error::TableError;
use crate::file::id::{TableSpec, Tier};
use crate::file::lock::BakeLock;
use crate::file::mmap::Anonymous;
use crate::file::table::PruneTable;
use crate::tier::family::{
    BakeOptions, BakeView, Baked, FileKind, SpotCheck, TierFamily, VerifyReport,
};

/// The nx family: a tier's own table is the table of its row's subgroup, in its row's metric.
pub struct Nx;

impl TierFamily for Nx {
    fn name(&self) -> &'static str {
        "nx"
    }

    fn method(&self) -> &'static str {
        "nx"
    }

    fn tables_are(&self) -> &'static str {
        "table is"
    }

    fn tables(&self, tier: Tier) -> Vec<TableSpec> {
        spec(tier).into_iter().collect()
    }

    fn bake(
        &self,
        lock: &BakeLock,
        tiers: &[Tier],
        options: &BakeOptions,
        view: &dyn BakeView,
    ) -> Result<Vec<Baked>, TableError> {
        let mut baked = Vec::new();
        for tier in tiers {
            let id = spec_or_error(*tier)?.id;
            let what = format!("the {tier} table");
            view.started(std::slice::from_ref(tier), &what);
            let name = tier.to_string();
            // The cosets the search assigns: 9,930 corner classes times the edge coordinates.
            let cells = subgroup(*tier).map(|s| (N_CORNER_CLASSES * s.n_edges()) as u64);
            view.search(&name, cells);
            let report = bake_under(lock, *tier, options.force, &|stats| {
                view.level(&name, cells, stats);
            });
            view.finished(&name, None);
            baked.push(Baked {
                id,
                tier: *tier,
                report: report?,
            });
        }
        Ok(baked)
    }

    fn verify(
        &self,
        table: &PruneTable<Anonymous>,
        _spot: &SpotCheck,
    ) -> Result<Option<VerifyReport>, TableError> {
        super::verify_table(table)?;
        Ok(None)
    }

    fn file_kind(&self) -> FileKind {
        FileKind::PatternDatabase
    }
}
