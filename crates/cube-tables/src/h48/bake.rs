//! Baking the H48 tables: the front end ([`bake`], [`bake_tiers`]), the published counts it checks,
//! and the edge lanes of the search (`sparse.rs` does the search and the writing).
//!
//! h4..h7 come from one breadth-first search over the cosets of G11 (every edge also oriented),
//! h0 from the same search over the cosets of G (no flips kept): a true coordinate of 117,567,450
//! entries whose levels up to 9 are 40 M cosets on the heap, no scratch file. Checks before
//! anything is written: the entries per depth are the published ones (design note 3.5: cube48opt's
//! opt1 bake log for h0; H48's short cosets and nissy-core's h11 counts for h4..h7), the code
//! histograms are nissy-core's `expected_h48`, and the histograms sum to the entry and line counts.

use std::path::Path;

use cube_core::Move;

use super::cocsep::Cocsep;
use super::edges::{N_PLACEMENTS, Q};
use super::index::MAX_FLIPS;
use super::sparse::{Pass, baked_histogram, remove_stale_scratch, run};
use super::table::spec_or_error;
use crate::file::bake::{BakeReport, LevelStats};
use crate::file::error::TableError;
use crate::file::id::Tier;
use crate::file::lock::BakeLock;

/// Entries of h0 per depth 0..=9, reduced by the 48 symmetries: cube48opt's opt1 bake log
/// (design note 3.5); depths 0..=8 sum to nissy-core's 5,473,562 entries of code 0
/// (`src/solvers/h48/checkdata.h`, `expected_h48[0]`) and depth 9 is its code 1.
pub const H0_DEPTHS: [u64; 10] = [1, 1, 4, 34, 331, 3612, 41605, 474128, 4953846, 34776317];

/// nissy-core's code histogram of h0 with base 8 (`expected_h48[0]`): values <= 8, 9, 10, >= 11.
pub const H0_CODES: [u64; 4] = [5_473_562, 34_776_317, 68_566_704, 8_750_867];

/// Options of [`bake`].
#[derive(Clone, Debug, Default)]
pub struct BakeOptions {
    /// Bake even when a valid table is present.
    pub force: bool,
    /// Wait for another bake or clean of the directory rather than fail with `Locked`.
    pub wait_for_lock: bool,
    /// h4..h7: also count the G11 cosets at depth 11, which the pass streams without storing, and
    /// check the count against nissy-core's 12,045,845,660 (a row bitmap write per transition:
    /// slower).
    pub count_last_level: bool,
}

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
    let mut reports: Vec<Option<BakeReport>> = vec![None; tiers.len()];
    let mut passes: Vec<Pass<'_>> = Vec::new();
    let Some(&first) = tiers.first() else {
        return Ok(Vec::new());
    };
    let first = spec_or_error(first)?;
    // One lock for the whole call: the skip tests, the searches and the writes.
    let lock = BakeLock::acquire(dir, options.wait_for_lock)
        .map_err(|e| e.at(first.id, dir, &first.fix, first.tier))?;
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
        let flips = if tier == Tier::H0 { 0 } else { MAX_FLIPS };
        match passes.iter_mut().find(|p| p.flips == flips) {
            Some(pass) if pass.tiers.contains(&tier) => {}
            Some(pass) => pass.tiers.push(tier),
            None => passes.push(Pass {
                dir,
                flips,
                tiers: vec![tier],
                options,
                expected_depths: (flips == 0).then_some(&H0_DEPTHS[..]),
            }),
        }
    }
    for pass in &passes {
        for (&tier, report) in pass.tiers.iter().zip(run(pass, &lock, progress)?) {
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

/// An edge lane with the given `esep`: E pieces 8..11 at the placement's Q positions, M pieces
/// 1, 3, 5, 7 at the sep70 positions among the others, S pieces 0, 2, 4, 6 elsewhere, no flips.
pub(super) fn esep_lane(esep: usize) -> [u8; 16] {
    let (sep70, placement) = (esep / N_PLACEMENTS, esep % N_PLACEMENTS);
    let e_mask = super::edges::E_MASKS[placement];
    let m_mask = super::cocsep::SEP_MASKS[sep70];
    let mut lane: [u8; 16] = std::array::from_fn(|i| i as u8);
    let (mut e, mut m, mut s, mut outside) = (8u8, 1u8, 0u8, 0);
    for (j, &position) in Q.iter().enumerate() {
        let piece = if e_mask >> j & 1 == 1 {
            e += 1;
            e - 1
        } else {
            outside += 1;
            if m_mask >> (outside - 1) & 1 == 1 {
                m += 2;
                m - 2
            } else {
                s += 2;
                s - 2
            }
        };
        lane[usize::from(position)] = piece;
    }
    lane
}

/// The class graph: `arcs[c * 18 + m]` is the class of class `c`'s representative after move `m`
/// (in [`Move::ALL`] order) and the index of the symmetry that conjugates it to its representative.
pub(super) fn class_arcs() -> Vec<(u32, u8)> {
    let cocsep = Cocsep::get();
    (0..cocsep.n_classes() as u32)
        .flat_map(|c| {
            Move::ALL.map(|m| {
                let entry = cocsep.entry(cocsep.apply(cocsep.rep(c), m));
                (entry.class(), entry.ttrep_index() as u8)
            })
        })
        .collect()
}
