//! Method tables cached on disk: load a table file if it is there and sound, else build it and write it.
//!
//! The method tables (two-phase, Thistlethwaite, cross: a few megabytes, built in well under a second,
//! and two-phase's two large tables, 129 MB built in about 20 s on two cores) are built on first use.
//! [`load_or_build`] keeps a copy in the table directory in the usual table format, so the next
//! process reads it instead. The cache is an optimisation, never a failure: a missing, stale or
//! corrupt file is rebuilt and rewritten, and a directory that cannot be written only means the
//! table is built again next time. A file that fails any check is never used.
//!
//! A file is checked completely (payload hash and histogram) the first time it is used, and its
//! stamp written (`stamp.rs`); a later process trusts the stamp while it names the file unchanged,
//! so a start reads no payload twice. Payloads of [`MAP_FROM`] bytes or more are mapped rather than
//! read: a solve touches a few pages of them, and processes share one copy in the page cache.

use std::path::Path;

use crate::file::error::{Kind, TableError};
use crate::file::histogram::histogram;
use crate::file::id::TableSpec;
use crate::file::mmap::Mapped;
use crate::file::stamp::vouches_for;
use crate::file::store::{WriteOptions, write_table};
use crate::file::table::{PayloadCheck, PruneTable, write_check_stamp};
use crate::file::verify::verify;

/// Cached payloads of at least this many bytes (64 KiB) are mapped from their files, not read: a
/// map costs a few system calls, a read a copy of every page (and a zeroed buffer first).
pub const MAP_FROM: u64 = 64 << 10;

/// The payload of a cached table: in memory (read from a small file, or just built), or mapped
/// from a large file.
#[derive(Debug)]
pub enum Cached {
    /// Read from its file, or built.
    Memory(Vec<u8>),
    /// Mapped from its file (at least [`MAP_FROM`] bytes).
    Mapped(Mapped),
}

impl AsRef<[u8]> for Cached {
    fn as_ref(&self) -> &[u8] {
        match self {
            Cached::Memory(bytes) => bytes,
            Cached::Mapped(map) => map.as_ref(),
        }
    }
}

impl Cached {
    /// Maps every page of a mapped payload now ([`Mapped::prefault`]); a payload in memory is
    /// left as it is.
    pub fn prefault(&self) {
        if let Cached::Mapped(map) = self {
            map.prefault();
        }
    }
}

/// A copy in memory (a map is not copied as a map).
impl Clone for Cached {
    fn clone(&self) -> Cached {
        Cached::Memory(self.as_ref().to_vec())
    }
}

impl PruneTable<Vec<u8>> {
    /// The table over its payload as a [`Cached`] one in memory.
    pub fn into_cached(self) -> PruneTable<Cached> {
        self.map_payload(Cached::Memory)
    }
}

impl PruneTable<Cached> {
    /// The table with its payload in memory: the bytes themselves, or a copy of a mapped payload.
    pub fn into_memory(self) -> PruneTable<Vec<u8>> {
        self.map_payload(|payload| match payload {
            Cached::Memory(bytes) => bytes,
            Cached::Mapped(map) => map.as_ref().to_vec(),
        })
    }
}

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

/// The payload of the method table `spec`: read from `dir` when its file is sound, else from `build`.
///
/// The file is checked completely (header, length, id, encoding, version, then the payload hash and
/// the depth histogram) unless its stamp says that was done and the file has not changed since. When
/// any check fails, or the file is missing, `build` runs and its payload is written to `dir`
/// atomically with [`write_table`]. When that write fails (a read-only or missing directory, a full
/// disk, another process writing the same table), the built payload is returned all the same.
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
    load_or_build_with_outcome(dir, spec, build).map(|(table, _)| table.into_memory().into_inner())
}

/// [`load_or_build`] as a table (its payload mapped when it is at least [`MAP_FROM`] bytes and read
/// from its file; the header's histogram, which the check proved to be the payload's), also saying
/// where it came from.
///
/// # Errors
///
/// As [`load_or_build`].
pub fn load_or_build_with_outcome(
    dir: &Path,
    spec: &TableSpec,
    build: impl FnOnce() -> Vec<u8>,
) -> Result<(PruneTable<Cached>, CacheOutcome), TableError> {
    let path = spec.path_in(dir);
    if let Ok(table) = load_checked(&path, spec) {
        return Ok((table, CacheOutcome::Loaded));
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
    let table = PruneTable::in_memory(spec, histogram, payload).map_payload(Cached::Memory);
    Ok((table, outcome))
}

/// The table file of `spec` at `path`, its payload checked completely unless its stamp vouches for
/// it; after a check, the file is stamped (a directory that cannot be written: checked again next
/// time).
fn load_checked(path: &Path, spec: &TableSpec) -> Result<PruneTable<Cached>, TableError> {
    let table = if spec.payload_len() >= MAP_FROM {
        // SAFETY: a cache file is written only through `write_table`, which writes a new file and
        // renames it over the old one: the file mapped here is never modified or truncated by the
        // toolkit. Writing into it by hand while a process maps it is what the caller cannot
        // exclude (docs/tables.md says so), as with `cube-cli optimal --mmap`.
        #[allow(unsafe_code)]
        let mapped = unsafe { PruneTable::open_mapped(path, spec) }?;
        mapped.map_payload(Cached::Mapped)
    } else {
        PruneTable::load_with(path, spec, PayloadCheck::TrustHeader)?.map_payload(Cached::Memory)
    };
    if !vouches_for(path, table.opened()) {
        verify(&table, None)?;
        let _ = write_check_stamp(&table);
    }
    Ok(table)
}
