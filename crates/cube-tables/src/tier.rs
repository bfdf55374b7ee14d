//! The optimal tiers as families: the one place that knows which tables a [`Tier`] has, what they
//! cost on disk, whether they are ready, how they are baked, and which files of a table directory
//! are whose ([`clean()`], [`list_files`]).
//!
//! A tier's method is its [`Family`] ([`Tier::family`]): [`Family::Korf`] (6edge..8edge, the
//! corner database and two edge databases of [`pdb`]), [`Family::H48`] (h0,
//! h4..h7, the corner database and one table of [`h48`]) or [`Family::Nx`] (`nx-eo1ep1` ..
//! `nx-eo2ep2` and their `-qtm` twins, the corner database and one table of [`nx`]). Every front end (the CLI,
//! xtask, the Python package) asks here rather than matching on the tier itself:
//!
//! - [`specs`]: the tables of a tier; [`disk_bytes`]: their size on disk; [`bake_time`]: how long
//!   a bake takes on this project's machine;
//! - [`state`]: whether they are all present with a sound header; [`default_ready`]: the tier an
//!   optimal search uses when none is named ([`default_ready_in`]: in a metric);
//! - [`bake()`]: the corner database first, then the edge databases of the Korf tiers, then one
//!   pass for every H48 tier asked for, then each nx tier, under one hold of the directory's lock;
//! - [`verify()`]: the full check of a tier's tables (seeds installed, stamps written);
//!   [`pack_seeds`]: the seeds of its pattern databases.
//!
//! ```no_run
//! use cube_tables::Tier;
//! use cube_tables::tier::{self, TierState};
//!
//! let dir = std::path::Path::new("tables");
//! if !matches!(tier::state(dir, Tier::H0), TierState::Ready) {
//!     tier::bake(dir, &[Tier::H0], &Default::default(), &())?;
//! }
//! assert!(matches!(tier::state(dir, Tier::H0), TierState::Ready));
//! # Ok::<(), cube_tables::TableError>(())
//! ```

pub(crate) mod catalogue;
mod clean;
pub(crate) mod family;
mod verify;

use std::path::Path;

pub use self::catalogue::{Family, ParseTierError, TIERS, TierRow, names};
pub use self::clean::{Clean, FileState, KeptFile, clean, list_files};
pub use self::family::{
    BakeOptions, BakeView, Baked, FileKind, ScratchKind, SpotCheck, TierFamily, VerifyReport,
    with_threads,
};
pub use self::verify::{Verified, pack_seeds, verify, verify_caches};
pub use crate::file::bake::{BakeReport, LevelStats};
use crate::file::error::{Kind, TableError, TableErrorKind};
use crate::file::format::HEADER_LEN;

use crate::file::id::{Metric, TableSpec, Tier};
use crate::h48;
use crate::nx;
use crate::pdb;

/// The families, one row each: a [`Family`] of the catalogue and its [`TierFamily`] impl in its
/// folder, the one place the two meet. A new family adds its row (cube-solvers' `SEARCHES` has
/// the same rows for the searches).
const FAMILIES: [(Family, &dyn TierFamily); 3] = [
    (Family::Korf, &pdb::Korf),
    (Family::H48, &h48::H48),
    (Family::Nx, &nx::Nx),
];

/// The impl of `family`: its row of `FAMILIES`.
pub fn family(family: Family) -> &'static dyn TierFamily {
    FAMILIES
        .iter()
        .find(|(f, _)| *f == family)
        .map(|(_, imp)| *imp)
        .expect("every family of the catalogue has its row of FAMILIES (tested)")
}

impl Family {
    /// The name of the method that searches the family's tiers ([`TierFamily::method`]).
    pub fn method(self) -> &'static str {
        family(self).method()
    }

    /// What a message calls a tier's tables, with the verb ([`TierFamily::tables_are`]).
    pub fn tables_are(self) -> &'static str {
        family(self).tables_are()
    }
}

/// The family's name ([`TierFamily::name`]): `Korf`, `H48`, `nx`.
impl std::fmt::Display for Family {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(family(*self).name())
    }
}

/// The corner database: every tier's first table ([`specs`]), whose reduction by symmetry every
/// optimal search uses.
pub const CORNERS: TableSpec = pdb::CORNERS.spec;

/// The specs of every table of `tier`: the corner database first, then its family's own tables.
pub fn specs(tier: Tier) -> Vec<TableSpec> {
    let mut specs = vec![CORNERS];
    specs.extend(family(tier.family()).tables(tier));
    specs
}

/// The own table of `tier` when its family has one per tier (an H48 or nx tier's table, read
/// beside the [`CORNERS`]), as its family's impl says ([`TierFamily::tables`]).
///
/// # Errors
///
/// `InvalidInput` for a tier of a family with several own tables (Korf's edge databases).
pub fn own_table(tier: Tier) -> Result<TableSpec, TableError> {
    match family(tier.family()).tables(tier).as_slice() {
        [table] => Ok(*table),
        tables => Err(TableError::new(Kind::InvalidInput {
            what: format!(
                "tier {tier} has {} own tables, not one (its family reads them itself)",
                tables.len()
            ),
        })),
    }
}

/// Every table of every tier, each once: the corner database first, then each tier's own tables
/// in the order of [`TIERS`].
pub fn all_specs() -> Vec<TableSpec> {
    let mut all = vec![CORNERS];
    for tier in Tier::ALL {
        all.extend(family(tier.family()).tables(tier));
    }
    all
}

/// Whether `dir` has the corner database, or its seed: the table every tier's bake writes first.
pub fn has_tables(dir: &Path) -> bool {
    let corners = CORNERS.path_in(dir);
    corners.exists() || pdb::seed_path(&corners).exists()
}

/// The disk space of `tier`'s table files (headers and payloads), from their specs.
pub fn disk_bytes(tier: Tier) -> u64 {
    specs(tier)
        .iter()
        .map(|spec| HEADER_LEN as u64 + spec.payload_len())
        .sum()
}

/// The bake time of `tier` on this project's 2-core machine ([`TierRow::bake_time`]).
pub fn bake_time(tier: Tier) -> &'static str {
    tier.row().bake_time
}

/// Whether the tables of a tier can be searched, from their headers (never their payloads).
#[derive(Debug)]
pub enum TierState {
    /// Every table is present with a header that passes the constant-time checks.
    Ready,
    /// A table is missing (none is invalid): a bake makes the tier ready.
    Missing,
    /// The first table that is present but invalid (corrupt, truncated, another version): it is
    /// reported, never silently replaced.
    Invalid(TableError),
}

/// The state of `tier`'s tables in `dir`. A name that is there but leads nowhere (a dangling
/// symbolic link) counts as present, and so as invalid.
pub fn state(dir: &Path, tier: Tier) -> TierState {
    let mut missing = false;
    for spec in specs(tier) {
        let path = spec.path_in(dir);
        match crate::file::table::check_header(&path, &spec) {
            Ok(()) => {}
            Err(e) if std::fs::symlink_metadata(&path).is_err() => {
                debug_assert_eq!(e.kind(), TableErrorKind::Missing);
                missing = true;
            }
            Err(e) => return TierState::Invalid(e),
        }
    }
    if missing {
        TierState::Missing
    } else {
        TierState::Ready
    }
}

/// The tier an optimal search uses when none is named: the ready tier of the highest
/// [`TierRow::default_rank`] in the half-turn metric (the ready tier measured cheapest per table
/// size: h4, h5, h6, h7, then nx-eo3ep1 and nx-eo2ep2, then the largest ready Korf tier); `None`
/// when none is ready. h0 and the smaller nx tiers are used only when named.
pub fn default_ready(dir: &Path) -> Option<Tier> {
    default_ready_in(dir, Metric::Htm)
}

/// The tier an optimal search in `metric` uses when none is named: the ready tier of `metric` of
/// the highest [`TierRow::default_rank`] (in the quarter-turn metric, nx-eo3ep1-qtm, then
/// nx-eo2ep2-qtm, then the largest ready `-qtm` nx tier).
pub fn default_ready_in(dir: &Path, metric: Metric) -> Option<Tier> {
    let mut ranked: Vec<Tier> = Tier::ALL
        .into_iter()
        .filter(|tier| tier.metric() == metric && tier.row().default_rank > 0)
        .collect();
    ranked.sort_by_key(|tier| std::cmp::Reverse(tier.row().default_rank));
    ranked
        .into_iter()
        .find(|&tier| matches!(state(dir, tier), TierState::Ready))
}

/// The tier a search in `metric` falls back on: the default of the lowest
/// [`TierRow::default_rank`] that a search bakes on first use (6edge in the half-turn metric,
/// nx-eo1ep1-qtm in the quarter-turn metric).
///
/// # Panics
///
/// When [`TIERS`] has no such tier for `metric` (a test checks both metrics).
pub fn fallback(metric: Metric) -> Tier {
    Tier::ALL
        .into_iter()
        .filter(|t| t.metric() == metric && t.row().default_rank > 0 && baked_on_first_use(*t))
        .min_by_key(|t| t.row().default_rank)
        .expect("every metric has a default tier baked on first use")
}

/// Why [`choose`] has no tier for a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChoiceError {
    /// The tier asked for counts in another metric than the one asked for; `twin` is the tier to
    /// use instead (the same tables in `metric`, else the metric's [`fallback`]), `has_twin`
    /// whether it is the same tables'.
    OtherMetric {
        /// The tier asked for.
        tier: Tier,
        /// The metric asked for.
        metric: Metric,
        /// The tier to use in `metric`.
        twin: Tier,
        /// Whether `twin` has the same parts as `tier` (else it is the metric's fallback).
        has_twin: bool,
    },
    /// No tier is named and none of `metric` is ready, in the quarter-turn metric (the half-turn
    /// metric falls back on 6edge); `bake` is the tier to bake or name.
    NoneReady {
        /// The metric asked for.
        metric: Metric,
        /// The metric's [`fallback`].
        bake: Tier,
    },
}

/// The tier that answers an optimal search's request in `dir`, the one rule of every front end:
/// the tier `asked` for, which must count in `metric` if that is given; else the ready tier of the
/// highest default rank in `metric` ([`default_ready_in`]; the half-turn metric when none is
/// given), else in the half-turn metric its [`fallback`] (6edge, baked on first use).
///
/// # Errors
///
/// [`ChoiceError::OtherMetric`] for a tier of another metric, [`ChoiceError::NoneReady`] when no
/// quarter-turn tier is ready and none is named.
pub fn choose(
    dir: &Path,
    asked: Option<Tier>,
    metric: Option<Metric>,
) -> Result<Tier, ChoiceError> {
    match (asked, metric) {
        (Some(tier), Some(metric)) if tier.metric() != metric => {
            let twin = tier.in_metric(metric);
            Err(ChoiceError::OtherMetric {
                tier,
                metric,
                twin: twin.unwrap_or_else(|| fallback(metric)),
                has_twin: twin.is_some(),
            })
        }
        (Some(tier), _) => Ok(tier),
        (None, metric) => {
            let metric = metric.unwrap_or_default();
            match default_ready_in(dir, metric) {
                Some(tier) => Ok(tier),
                None if metric == Metric::Htm => Ok(fallback(metric)),
                None => Err(ChoiceError::NoneReady {
                    metric,
                    bake: fallback(metric),
                }),
            }
        }
    }
}

/// Whether a search that asks for `tier` bakes it when it is missing (the front ends' rule,
/// [`TierRow::baked_on_first_use`]): the default tier 6edge (seconds), every H48 tier and the
/// smallest nx tier of either metric (seconds), asked for by name; a larger Korf or nx tier is an
/// error that says how to bake it.
pub fn baked_on_first_use(tier: Tier) -> bool {
    tier.row().baked_on_first_use
}

/// The tier of the same family and metric as `tier` that a search bakes on first use
/// ([`baked_on_first_use`]): `tier` itself when it is one, else the first such tier of its family
/// and metric in [`TIERS`] (6edge for a Korf tier, nx-eo1ep1 or nx-eo1ep1-qtm for an nx tier);
/// what a message about a missing tier offers instead.
pub fn first_use_alternative(tier: Tier) -> Tier {
    if baked_on_first_use(tier) {
        return tier;
    }
    Tier::of(tier.family())
        .find(|t| t.metric() == tier.metric() && baked_on_first_use(*t))
        .unwrap_or(tier)
}

/// Bakes the tables of `tiers` into `dir` (created if missing), skipping those baked and sound
/// (unless `options.force`): the corner database first, which every tier needs, then each family's
/// own tables ([`TierFamily::bake`], the families in the order of [`TIERS`]: the edge databases of
/// each Korf tier, the tables of every H48 tier in one pass, each nx tier's), all under one hold
/// of the directory's writers' lock.
///
/// # Errors
///
/// The errors of [`pdb::bake()`] and of the families' bakes (`Locked`, naming the corner
/// database, when another bake or clean of `dir` holds its lock); `Io` when `dir` cannot be
/// created.
pub fn bake(
    dir: &Path,
    tiers: &[Tier],
    options: &BakeOptions,
    view: &dyn BakeView,
) -> Result<Vec<Baked>, TableError> {
    let mut unique: Vec<Tier> = Vec::new();
    for &tier in tiers {
        if !unique.contains(&tier) {
            unique.push(tier);
        }
    }
    let Some(&first) = unique.first() else {
        return Ok(Vec::new());
    };
    // One lock for the whole bake (created with `dir`), taken as the corner database's.
    let lock = pdb::bake::lock(dir, &pdb::CORNERS, options)?;
    let report = pdb::bake::bake_under(&lock, &pdb::CORNERS, options, &|event| {
        pdb::family::report(event, view);
    })?;
    let mut baked = vec![Baked {
        id: pdb::CORNERS.id(),
        tier: first,
        report,
    }];
    // Each family once, in the order of the catalogue, with its tiers in the order asked for.
    let mut families: Vec<Family> = Vec::new();
    for tier in Tier::ALL {
        if !families.contains(&tier.family()) {
            families.push(tier.family());
        }
    }
    for f in families {
        let tiers: Vec<Tier> = unique.iter().copied().filter(|t| t.family() == f).collect();
        if !tiers.is_empty() {
            baked.extend(family(f).bake(&lock, &tiers, options, view)?);
        }
    }
    Ok(baked)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_of_the_catalogue_has_one_row() {
        for tier in Tier::ALL {
            let rows = FAMILIES.iter().filter(|(f, _)| *f == tier.family());
            assert_eq!(rows.count(), 1, "{tier}");
        }
        let names: Vec<&str> = FAMILIES.iter().map(|(f, _)| family(*f).name()).collect();
        assert_eq!(names, ["Korf", "H48", "nx"]);
    }

    #[test]
    fn own_table_is_the_one_table_of_a_one_table_family() {
        for tier in Tier::ALL {
            let own = &specs(tier)[1..];
            match own_table(tier) {
                Ok(table) => assert_eq!(own, [table], "{tier}"),
                Err(e) => {
                    assert_eq!(e.kind(), TableErrorKind::InvalidInput, "{tier}: {e}");
                    assert!(own.len() > 1, "{tier}");
                }
            }
        }
        // docs/tables.md: h0's own table is h48-h0; 6edge has two edge databases.
        assert_eq!(own_table(Tier::H0).unwrap().id.as_str(), "h48-h0");
        let e = own_table(Tier::Edge6).unwrap_err();
        assert!(e.to_string().contains("6edge has 2 own tables"), "{e}");
    }

    #[test]
    fn every_tier_has_the_corners_first_and_its_own_tables() {
        for tier in Tier::ALL {
            let specs = specs(tier);
            assert_eq!(specs[0].id, pdb::CORNERS.spec.id);
            let own = if Tier::of(Family::Korf).any(|t| t == tier) {
                2
            } else {
                1
            };
            assert_eq!(specs.len(), 1 + own, "{tier}");
            assert!(
                specs[1..].iter().all(|spec| spec.tier == Some(tier)),
                "{tier}"
            );
        }
        // 6edge: the corners (42 MiB) and two edge tables of 20 MiB each.
        assert!((80 << 20..90 << 20).contains(&disk_bytes(Tier::Edge6)));
    }

    #[test]
    fn a_request_is_answered_by_the_tier_asked_for_else_the_default_ready() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        assert_eq!(fallback(Metric::Htm), Tier::Edge6);
        // What a missing corner database's fix offers to bake (`Fix::BakeAnyTier`).
        assert_eq!(Tier::ALL[0], fallback(Metric::Htm));
        assert_eq!(fallback(Metric::Qtm), Tier::NxEo1Ep1Qtm);
        assert_eq!(choose(dir, None, None), Ok(Tier::Edge6));
        assert_eq!(choose(dir, None, Some(Metric::Htm)), Ok(Tier::Edge6));
        assert_eq!(
            choose(dir, None, Some(Metric::Qtm)),
            Err(ChoiceError::NoneReady {
                metric: Metric::Qtm,
                bake: Tier::NxEo1Ep1Qtm
            })
        );
        assert_eq!(choose(dir, Some(Tier::H5), None), Ok(Tier::H5));
        assert_eq!(
            choose(dir, Some(Tier::NxEo2Ep1), Some(Metric::Qtm)),
            Err(ChoiceError::OtherMetric {
                tier: Tier::NxEo2Ep1,
                metric: Metric::Qtm,
                twin: Tier::NxEo2Ep1Qtm,
                has_twin: true
            })
        );
        assert_eq!(
            choose(dir, Some(Tier::H5), Some(Metric::Qtm)),
            Err(ChoiceError::OtherMetric {
                tier: Tier::H5,
                metric: Metric::Qtm,
                twin: Tier::NxEo1Ep1Qtm,
                has_twin: false
            })
        );
        assert_eq!(first_use_alternative(Tier::Edge8), Tier::Edge6);
        assert_eq!(first_use_alternative(Tier::H6), Tier::H6);
        assert_eq!(first_use_alternative(Tier::NxEo2Ep2), Tier::NxEo1Ep1);
        assert_eq!(first_use_alternative(Tier::NxEo2Ep2Qtm), Tier::NxEo1Ep1Qtm);
    }

    #[test]
    fn an_empty_directory_has_no_ready_tier() {
        let dir = tempfile::tempdir().unwrap();
        for tier in Tier::ALL {
            assert!(
                matches!(state(dir.path(), tier), TierState::Missing),
                "{tier}"
            );
        }
        assert_eq!(default_ready(dir.path()), None);
    }

    #[test]
    fn verify_of_an_empty_directory_names_the_missing_corner_database() {
        let dir = tempfile::tempdir().unwrap();
        for tier in [None, Some(Tier::Edge6), Some(Tier::H0)] {
            let err = verify(dir.path(), tier, &SpotCheck::default(), &|_| {}).unwrap_err();
            assert_eq!(err.kind(), TableErrorKind::Missing, "{tier:?}: {err}");
            assert!(err.to_string().contains("korf-corners"), "{tier:?}: {err}");
        }
    }
}
