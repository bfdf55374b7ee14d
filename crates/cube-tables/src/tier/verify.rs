//! [`verify()`]: the full check of the tables of a tier, or of every tier with a table in a
//! directory, the one check of every front end; [`verify_caches`], the full check of the
//! method caches; [`pack_seeds`] of the same tables.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::{FileKind, FileState, Table, list_files, tables};
use crate::file::error::TableError;
use crate::file::id::{TableId, TableSpec, Tier};
use crate::file::mmap::Anonymous;
use crate::file::store::WriteOptions;
use crate::file::table::PruneTable;
use crate::h48;
use crate::nx;
use crate::pdb::{self, SpotCheck, VerifyReport};

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
/// [`pdb::verify_table`] and of [`h48::verify_table`].
pub fn verify(
    dir: &Path,
    tier: Option<Tier>,
    spot: &SpotCheck,
    progress: &dyn Fn(&Verified),
) -> Result<Vec<Verified>, TableError> {
    let mut checked = Vec::new();
    for table in chosen(dir, tier) {
        let spec = table.spec();
        let path = spec.path_in(dir);
        if let Table::Pdb(pdb) = &table
            && !path.exists()
        {
            pdb::install_seed(dir, pdb, &WriteOptions::new().wait_for_lock(true))?;
        }
        let start = Instant::now();
        let loaded: PruneTable<Anonymous> = PruneTable::load_anonymous(&path, &spec)?;
        let read_time = start.elapsed();
        let start = Instant::now();
        let spot = match &table {
            Table::Pdb(pdb) => Some(pdb::verify_table(&loaded, pdb, spot)?),
            Table::H48(_) => {
                h48::verify_table(&loaded)?;
                None
            }
            Table::Nx(_) => {
                nx::verify_table(&loaded)?;
                None
            }
        };
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
    for table in chosen(dir, tier) {
        if let Table::Pdb(pdb) = &table {
            let seed = pdb::pack_seed(dir, pdb)?;
            progress(&pdb.spec, &seed);
            seeds.push(seed);
        }
    }
    Ok(seeds)
}

/// The tables [`verify()`] checks: those of `tier`, or the corner database and the tables of
/// every tier with one of its own tables, or its seed, in `dir`.
fn chosen(dir: &Path, tier: Option<Tier>) -> Vec<Table> {
    if let Some(tier) = tier {
        return tables(tier);
    }
    let mut chosen = vec![Table::Pdb(pdb::CORNERS)];
    for tier in Tier::ALL {
        let own: Vec<Table> = tables(tier)
            .into_iter()
            .filter(|table| table.spec().id != pdb::CORNERS.spec.id)
            .collect();
        if own.iter().any(|table| {
            let path = table.spec().path_in(dir);
            path.exists() || pdb::seed_path(&path).exists()
        }) {
            chosen.extend(own);
        }
    }
    chosen
}
