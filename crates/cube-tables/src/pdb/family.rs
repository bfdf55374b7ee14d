//! [`Korf`]: the Korf family's [`TierFamily`] impl, over the pattern databases of this folder.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use super::bake::{self, Event};
use super::{CORNERS, Pdb, edge_tables};
use crate::file::error::TableError;
use crate::file::id::{TableSpec, Tier};
use crate::file::lock::BakeLock;
use crate::file::mmap::Anonymous;
use crate::file::store::WriteOptions;
use crate::file::table::PruneTable;
use crate::tier::catalogue::Family;
use crate::tier::family::{
    BakeOptions, BakeView, Baked, FileKind, SpotCheck, TierFamily, VerifyReport,
};

/// Korf's family: a tier's own tables are the two edge databases of its row's edge count.
pub struct Korf;

/// The pattern database of `spec`: the corner database or a Korf tier's edge database.
fn pdb_of(spec: &TableSpec) -> Result<&'static Pdb, TableError> {
    std::iter::once(&CORNERS)
        .chain(Tier::of(Family::Korf).flat_map(edge_tables))
        .find(|pdb| pdb.spec.id == spec.id)
        .ok_or_else(|| {
            let what = format!("table {} is not a pattern database", spec.id);
            TableError::new(crate::file::error::Kind::InvalidInput { what })
        })
}

/// Tells `view` a pattern database's bake `event`, in the family-neutral terms.
pub(crate) fn report(event: &Event<'_>, view: &dyn BakeView) {
    match event {
        Event::Started { table } => {
            view.search(table.spec.id.as_str(), Some(table.n_entries() as u64));
        }
        Event::Work { .. } | Event::Writing { .. } => view.work(event),
        Event::Level { table, stats } => {
            view.level(
                table.spec.id.as_str(),
                Some(table.n_entries() as u64),
                stats,
            );
        }
        Event::Written { table, .. } | Event::Skipped { table, .. } => {
            view.finished(table.spec.id.as_str(), Some(event));
        }
    }
}

impl TierFamily for Korf {
    fn name(&self) -> &'static str {
        "Korf"
    }

    fn method(&self) -> &'static str {
        "Korf"
    }

    fn tables_are(&self) -> &'static str {
        "pattern databases are"
    }

    fn tables(&self, tier: Tier) -> Vec<TableSpec> {
        edge_tables(tier).iter().map(|pdb| pdb.spec).collect()
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
            // Said once, when the first of the tier's tables that is not baked starts.
            let announced = AtomicBool::new(false);
            let what = format!("the {tier} pattern databases");
            for table in edge_tables(*tier) {
                let report = bake::bake_under(lock, table, options, &|event| {
                    if matches!(event, Event::Started { .. })
                        && !announced.swap(true, Ordering::Relaxed)
                    {
                        view.started(std::slice::from_ref(tier), &what);
                    }
                    report(event, view);
                })?;
                baked.push(Baked {
                    id: table.id(),
                    tier: *tier,
                    report,
                });
            }
        }
        Ok(baked)
    }

    fn verify(
        &self,
        table: &PruneTable<Anonymous>,
        spot: &SpotCheck,
    ) -> Result<Option<VerifyReport>, TableError> {
        let spec = TableSpec::new(table.id(), table.encoding(), table.len() as u64);
        super::verify_table(table, pdb_of(&spec)?, spot).map(Some)
    }

    fn file_kind(&self) -> FileKind {
        FileKind::PatternDatabase
    }

    fn install_seed(&self, dir: &Path, spec: &TableSpec) -> Result<(), TableError> {
        super::install_seed(dir, pdb_of(spec)?, &WriteOptions::new().wait_for_lock(true))?;
        Ok(())
    }

    fn seed_path(&self, path: &Path) -> Option<PathBuf> {
        Some(super::seed_path(path))
    }

    fn pack_seed(&self, dir: &Path, spec: &TableSpec) -> Result<Option<PathBuf>, TableError> {
        super::pack_seed(dir, pdb_of(spec)?).map(Some)
    }
}
