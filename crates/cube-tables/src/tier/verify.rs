//! [`verify()`]: the full check of the tables of a tier, or of every tier with a table in a
//! directory, the one check of every front end; [`verify_caches`], the full check of the
//! method caches; [`pack_seeds`] of the same tables.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::{FileKind, FileState, SpotCheck, TierFamily, VerifyReport, family, list_files};
use crate::file::error::TableError;
use crate::file::id::{TableId, TableSpec, Tier};
use crate::file::mmap::Anonymous;
use crate::file::table::PruneTable;
use crate::pdb;

/// One table that [`verify()`] checked and found sound.
#[derive(Debug)]
pub struct Verified {
    /// The table.
    pub id: TableId,
    /// The payload's bytes.
    pub payload_bytes: u64,
    /// The time to read the file and hash its payload.
    pub read_time: Duration,
    /// The time of the checks after the read: histograms, and a pattern database's spot checks.
    pub check_time: Duration,
    /// A pattern database's spot checks; `None` for an H48 or nx table or a method cache, checked
    /// by its histograms only.
    pub spot: Option<VerifyReport>,
    /// Whether the stamp of the check (`<file>.checked`) was written: one that cannot be (a
    /// read-only directory) only costs a later status report its "checked" date.
    pub stamp: Result<(), TableError>,
}

/// Checks the tables of `tier` in `dir`, or with `None` the corner database and the tables of
/// every tier with a table (or its seed) in `dir`: a pattern database whose file is missing has
/// its seed installed first; each table is read (not mapped, so that a
/// file truncated meanwhile is an error, not a signal), its payload hashed, its histogram compared
/// with the published one (and for a pattern database its entries spot-checked as `spot` says),
/// then stamped as checked.
/// `progress` is handed each table as it is done; the tables are returned in the order checked.
///
/// # Errors
///
/// The first table that fails: the errors of [`pdb::install_seed`], of
/// [`PruneTable::load_anonymous`] (`Missing` for a table neither there nor seeded), of
/// [`pdb::verify_table`] and of [`crate::h48::verify_table`].
pub fn verify(
    dir: &Path,
    tier: Option<Tier>,
    spot: &SpotCheck,
    progress: &dyn Fn(&Verified),
) -> Result<Vec<Verified>, TableError> {
    let mut checked = Vec::new();
    for (owner, spec) in chosen(dir, tier) {
        let path = spec.path_in(dir);
        if !path.exists() {
            owner.install_seed(dir, &spec)?;
        }
        let start = Instant::now();
        let loaded: PruneTable<Anonymous> = PruneTable::load_anonymous(&path, &spec)?;
        let read_time = start.elapsed();
        let start = Instant::now();
        let spot = owner.verify(&loaded, spot)?;
        let verified = Verified {
            id: spec.id,
            payload_bytes: loaded.payload().len() as u64,
            read_time,
            check_time: start.elapsed(),
            spot,
            stamp: crate::file::table::write_check_stamp(&loaded),
        };
        progress(&verified);
        checked.push(verified);
    }
    Ok(checked)
}

/// Checks every method cache in `dir` (the files that [`list_files`] calls
/// [`FileKind::MethodCache`]: the methods' tables and the corner reduction cached on first use)
/// completely: each read as its own header describes it, its payload hashed and its histogram
/// compared with the header's, then stamped as checked. `progress` is handed each as it is done.
///
/// # Errors
///
/// The first cache that fails, with its path: its header ([`FileState::Bad`]), the errors of
/// [`PruneTable::load_anonymous`] and of [`crate::verify()`]. Nothing is removed: the next load
/// of a bad cache builds it again.
pub fn verify_caches(
    dir: &Path,
    progress: &dyn Fn(&Verified),
) -> Result<Vec<Verified>, TableError> {
    let mut checked = Vec::new();
    for file in list_files(dir)? {
        if file.kind != FileKind::MethodCache {
            continue;
        }
        let info = match file.state {
            FileState::Sound { info, .. } => info,
            FileState::Bad(e) => return Err(e),
            FileState::NotATable => continue,
        };
        let spec = TableSpec::new(info.id, info.encoding, info.n_entries);
        let start = Instant::now();
        let loaded: PruneTable<Anonymous> = PruneTable::load_anonymous(&file.path, &spec)?;
        let read_time = start.elapsed();
        let start = Instant::now();
        crate::file::verify::verify(&loaded, None)?;
        let verified = Verified {
            id: spec.id,
            payload_bytes: loaded.payload().len() as u64,
            read_time,
            check_time: start.elapsed(),
            spot: None,
            stamp: crate::file::table::write_check_stamp(&loaded),
        };
        progress(&verified);
        checked.push(verified);
    }
    Ok(checked)
}

/// Packs the seed (`<file>.zst`) of each pattern database that [`verify()`] would check with the
/// same `tier` (the H48 and nx tables have none), handing `progress` each table and its seed as it
/// is written.
///
/// # Errors
///
/// The errors of [`pdb::pack_seed`].
pub fn pack_seeds(
    dir: &Path,
    tier: Option<Tier>,
    progress: &dyn Fn(&TableSpec, &Path),
) -> Result<Vec<PathBuf>, TableError> {
    let mut seeds = Vec::new();
    for (owner, spec) in chosen(dir, tier) {
        if let Some(seed) = owner.pack_seed(dir, &spec)? {
            progress(&spec, &seed);
            seeds.push(seed);
        }
    }
    Ok(seeds)
}

/// The tables [`verify()`] checks, each with the family that checks it (the corner database
/// with Korf's): those of `tier`, or the corner database and the tables of every tier with one of
/// its own tables, or its seed, in `dir`.
fn chosen(dir: &Path, tier: Option<Tier>) -> Vec<(&'static dyn TierFamily, TableSpec)> {
    let corners: &'static dyn TierFamily = &pdb::Korf;
    let mut chosen = vec![(corners, pdb::CORNERS.spec)];
    let named = tier.is_some();
    let tiers = tier.map_or_else(|| Tier::ALL.to_vec(), |tier| vec![tier]);
    for tier in tiers {
        let owner = family(tier.family());
        let own = owner.tables(tier);
        let present = |spec: &TableSpec| {
            let path = spec.path_in(dir);
            path.exists() || owner.seed_path(&path).is_some_and(|seed| seed.exists())
        };
        if named || own.iter().any(present) {
            chosen.extend(own.into_iter().map(|spec| (owner, spec)));
        }
    }
    chosen
}
