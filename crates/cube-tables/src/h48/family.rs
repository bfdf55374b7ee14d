//! [`H48`]: the H48 family's [`TierFamily`] impl: one table per tier, every tier asked for baked
//! in one pass.

use super::bake::bake_tiers_under;
use super::table::{flips, spec};
use crate::file::error::TableError;
use crate::file::id::{TableSpec, Tier};
use crate::file::lock::BakeLock;
use crate::file::mmap::Anonymous;
use crate::file::table::PruneTable;
use crate::tier::family::{
    BakeOptions, BakeView, Baked, FileKind, SpotCheck, TierFamily, VerifyReport,
};

/// The H48 family: a tier's own table is the H48 table of its row's flip count.
pub struct H48;

/// The name of the h4..h7 pass's scratch (and old lock): `h48-h11.scratch`.
const H11_BAKE: &str = "h48-h11";

impl TierFamily for H48 {
    fn name(&self) -> &'static str {
        "H48"
    }

    fn method(&self) -> &'static str {
        "sym48"
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
        let names: Vec<String> = tiers.iter().map(Tier::to_string).collect();
        let names = names.join(", ");
        let what = format!("the H48 tables of {names} with the corner database");
        view.started(tiers, &what);
        let name = format!("h48 {names}");
        view.search(&name, None);
        let reports = bake_tiers_under(lock, tiers, options, &|stats| {
            view.level(&name, None, stats);
        });
        view.finished(&name, None);
        let mut baked = Vec::new();
        for (&tier, report) in tiers.iter().zip(reports?) {
            let id = super::table::spec_or_error(tier)?.id;
            baked.push(Baked { id, tier, report });
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
        FileKind::H48Table
    }

    fn scratch_ids(&self, tier: Tier) -> &'static [&'static str] {
        match flips(tier) {
            Some(0) | None => &[],
            Some(_) => &[H11_BAKE],
        }
    }
}
