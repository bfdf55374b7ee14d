//! Baking the H48 tables: the front end ([`bake`], [`bake_tiers`]), which groups the tiers into
//! passes (`sparse.rs` does the search, its checks against the published counts and the writing).
//!
//! h4..h7 come from one breadth-first search over the cosets of G11 (every edge also oriented),
//! h0 from the same search over the cosets of G (no flips kept): a true coordinate of 117,567,450
//! entries whose levels up to 9 are 40 M cosets on the heap, no scratch file. Checks before
//! anything is written: the entries per depth are the published ones (design note 3.5: cube48opt's
//! opt1 bake log for h0; H48's short cosets and nissy-core's h11 counts for h4..h7), the code
//! histograms are nissy-core's `expected_h48`, and the histograms sum to the entry and line counts.

use std::path::Path;

use super::index::MAX_FLIPS;
use super::sparse::{H0_DEPTHS, Pass, baked_histogram, remove_stale_scratch, run};
use super::table::spec_or_error;
use crate::file::bake::{BakeReport, LevelStats};
use crate::file::error::TableError;
use crate::file::id::Tier;
use crate::file::lock::BakeLock;
use crate::tier::family::BakeOptions;

/// Bakes the table of an H48 `tier` into `dir`, unless a valid one is there (with the corner
/// table's soundness test: a stamp, else a hash of the payload).
///
/// # Errors
///
/// The errors of [`bake_tiers`].
pub fn bake(
    dir: &Path,
    tier: Tier,
    options: &BakeOptions,
    progress: &(dyn Fn(&LevelStats) + Sync),
) -> Result<BakeReport, TableError> {
    let mut reports = bake_tiers(dir, &[tier], options, progress)?;
    Ok(reports.pop().expect("one report per tier"))
}

/// Bakes the tables of several H48 `tiers` into `dir`, each skipped when a valid one is there;
/// one report per tier, in the order given. h4..h7 come from one pass (a breadth-first search
/// over the G11 cosets, levels up to 10 kept, about 4.3 GB of file-backed scratch in `dir`,
/// removed on every path, and a killed bake's at the start of the next bake of any H48 tier), h0
/// from a search of its own.
///
/// # Errors
///
/// - `InvalidInput` for a Korf tier.
/// - `NoSpace` when `dir` has less free space than the tables and the scratch need: checked
///   before a search starts (with the most the scratch may take) and again before the scratch is
///   allocated.
/// - `HistogramMismatch` when the search finds other counts than the published ones (a bug;
///   nothing is written).
/// - `Locked`, `Io`: the errors of [`TableWriter`](crate::TableWriter).
pub fn bake_tiers(
    dir: &Path,
    tiers: &[Tier],
    options: &BakeOptions,
    progress: &(dyn Fn(&LevelStats) + Sync),
) -> Result<Vec<BakeReport>, TableError> {
    let Some(&first) = tiers.first() else {
        return Ok(Vec::new());
    };
    let first = spec_or_error(first)?;
    // One lock for the whole call: the skip tests, the searches and the writes.
    let lock = BakeLock::acquire(dir, options.wait_for_lock)
        .map_err(|e| e.at(first.id, dir, &first.fix, first.tier))?;
    bake_tiers_under(&lock, tiers, options, progress)
}

/// [`bake_tiers`] under `lock`, the writers' lock of the table directory, which the caller holds
/// for as many bakes as it runs.
///
/// # Errors
///
/// As [`bake_tiers`], `Locked` aside.
pub(crate) fn bake_tiers_under(
    lock: &BakeLock,
    tiers: &[Tier],
    options: &BakeOptions,
    progress: &(dyn Fn(&LevelStats) + Sync),
) -> Result<Vec<BakeReport>, TableError> {
    let dir = lock.dir();
    let mut reports: Vec<Option<BakeReport>> = vec![None; tiers.len()];
    let mut passes: Vec<Pass<'_>> = Vec::new();
    // Under the lock no bake is running here: a scratch file is a killed bake's, even one killed
    // after it wrote its tables, which the loop below would skip.
    remove_stale_scratch(dir);
    for (i, &tier) in tiers.iter().enumerate() {
        let spec = spec_or_error(tier)?;
        let baked = if options.force {
            None
        } else {
            baked_histogram(dir, tier)?
        };
        if let Some(histogram) = baked {
            reports[i] = Some(BakeReport::skipped(spec.path_in(dir), histogram));
            continue;
        }
        let flips = if super::table::flips(tier) == Some(0) {
            0
        } else {
            MAX_FLIPS
        };
        match passes.iter_mut().find(|p| p.flips == flips) {
            Some(pass) if pass.tiers.contains(&tier) => {}
            Some(pass) => pass.tiers.push(tier),
            None => passes.push(Pass {
                dir,
                flips,
                tiers: vec![tier],
                count_last_level: options.count_last_level,
                expected_depths: (flips == 0).then_some(&H0_DEPTHS[..]),
            }),
        }
    }
    for pass in &passes {
        for (&tier, report) in pass.tiers.iter().zip(run(pass, lock, progress)?) {
            for (slot, _) in reports.iter_mut().zip(tiers).filter(|(_, t)| **t == tier) {
                *slot = Some(report.clone());
            }
        }
    }
    Ok(reports
        .into_iter()
        .map(|r| r.expect("every tier baked or skipped"))
        .collect())
}
