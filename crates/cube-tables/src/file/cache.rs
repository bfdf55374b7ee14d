//! Small tables cached on disk: load a table file if it is there and sound, else build it and write it.
//!
//! The small tables (two-phase, Thistlethwaite, cross: a few megabytes, built in well under a second)
//! are built on first use. [`load_or_build`] keeps a copy in the table directory in the usual table
//! format, so the next process reads it instead. The cache is an optimisation, never a failure: a
//! missing, stale or corrupt file is rebuilt and rewritten, and a directory that cannot be written
//! only means the table is built again next time. A file that fails any check is never used.

use std::path::Path;

use crate::file::error::{Kind, TableError};
use crate::file::histogram::histogram;
use crate::file::id::TableSpec;
use crate::file::store::{WriteOptions, write_table};
use crate::file::table::PruneTable;
use crate::file::verify::verify;

/// Where the payload returned by [`load_or_build`] came from.
#[derive(Debug)]
pub enum CacheOutcome {
    /// Read from the table file, which passed every check.
    Loaded,
    /// Built, and written to the table file.
    Written,
    /// Built, but writing the file failed with this error, so the next run builds it again.
    NotWritten(TableError),
}

/// The payload of the small table `spec`: read from `dir` when its file is sound, else from `build`.
///
/// The file is checked completely (header, length, id, encoding, version, then the payload hash and the
/// depth histogram), which costs one pass over a few megabytes. When any check fails, or the file is
/// missing, `build` runs and its payload is written to `dir` atomically with [`write_table`]. When that
/// write fails (a read-only or missing directory, a full disk, another process writing the same table),
/// the built payload is returned all the same.
///
/// # Errors
///
/// `InvalidInput` only when `build` returns a payload that is not `spec.payload_len()` bytes long: a bug
/// in the generator, not a problem with the cache.
pub fn load_or_build(
    dir: &Path,
    spec: &TableSpec,
    build: impl FnOnce() -> Vec<u8>,
) -> Result<Vec<u8>, TableError> {
    load_or_build_with_outcome(dir, spec, build).map(|(payload, _)| payload)
}

/// [`load_or_build`], also saying where the payload came from (for a verbose report).
///
/// # Errors
///
/// As [`load_or_build`].
pub fn load_or_build_with_outcome(
    dir: &Path,
    spec: &TableSpec,
    build: impl FnOnce() -> Vec<u8>,
) -> Result<(Vec<u8>, CacheOutcome), TableError> {
    let path = spec.path_in(dir);
    if let Ok(table) = PruneTable::load(&path, spec)
        && verify(&table, None).is_ok()
    {
        return Ok((table.into_inner(), CacheOutcome::Loaded));
    }
    let payload = build();
    if payload.len() as u64 != spec.payload_len() {
        return Err(TableError::new(Kind::InvalidInput {
            what: format!(
                "the generator built {} bytes, expected {}",
                payload.len(),
                spec.payload_len()
            ),
        })
        .at(spec.id, &path, &spec.fix, spec.tier));
    }
    let histogram = histogram(&payload, spec.encoding, spec.n_entries);
    let outcome = match write_table(dir, spec, &histogram, &payload, &WriteOptions::new()) {
        Ok(_) => CacheOutcome::Written,
        Err(e) => CacheOutcome::NotWritten(e),
    };
    Ok((payload, outcome))
}
